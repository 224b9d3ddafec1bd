//! The stderr logger `run_cli` installs: a `tracing` subscriber writing to stderr (stdout carries
//! MCP on stdio, and nothing else is ever written there), filtered by `RUST_LOG` (default
//! [`DEFAULT_FILTER`]), as text or one JSON object a line (`--log-format json`). A program that
//! installed a subscriber of its own keeps it.

use std::io::IsTerminal as _;

use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;
use tracing_subscriber::{EnvFilter, Layer, Registry};

/// How log lines are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum LogFormat {
    /// One line of text per event.
    #[default]
    Text,
    /// One JSON object per event (its fields, its span's fields, level, target, time).
    Json,
}

/// The filter without `RUST_LOG`: what an operator needs to see (start-up, refusals, stops, safe
/// stops, confirmations, audit failures, all at `info` or above), without rmcp's own session
/// chatter.
pub(crate) const DEFAULT_FILTER: &str = "info,rmcp=warn";

/// Whether the installed logger writes `info` lines (else the start-up line is written plainly).
static INFO_SHOWN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether the start-up line, an `info` event, reaches stderr: through the logger installed
/// here, by its filter; through a program's own subscriber, by `tracing::enabled!`.
pub(crate) fn info_shown(installed: &Installed) -> bool {
    if installed.logger {
        INFO_SHOWN.load(std::sync::atomic::Ordering::Relaxed)
    } else {
        tracing::enabled!(tracing::Level::INFO)
    }
}

/// What [`install`] set up.
#[derive(Default)]
pub(crate) struct Installed {
    /// Whether the stderr logger is the global subscriber (not when the program had one).
    pub logger: bool,
    /// The OpenTelemetry exporter, flushed when serving ends.
    #[cfg(feature = "otel")]
    pub otel: Option<super::otel::Installed>,
}

impl Installed {
    /// Flushes and stops what was installed (the exporter's queue).
    pub(crate) fn shutdown(self) {
        #[cfg(feature = "otel")]
        if let Some(otel) = self.otel {
            otel.shutdown();
        }
    }
}

/// Installs the stderr logger, composed with the OpenTelemetry layer when `otel` asks for one,
/// unless a global subscriber is set already (then the program's own is kept, and nothing is
/// exported: its layers are its own).
pub(crate) fn install(
    format: LogFormat,
    #[cfg(feature = "otel")] otel: &super::otel::Settings,
) -> Installed {
    if tracing::dispatcher::has_been_set() {
        return Installed::default();
    }
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    INFO_SHOWN.store(
        filter
            .max_level_hint()
            .is_none_or(|most| most >= tracing::level_filters::LevelFilter::INFO),
        std::sync::atomic::Ordering::Relaxed,
    );
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    let layer = match format {
        LogFormat::Text => layer.with_filter(filter).boxed(),
        LogFormat::Json => layer
            .json()
            .with_current_span(true)
            .with_filter(filter)
            .boxed(),
    };
    #[allow(unused_mut)]
    let mut layers: Vec<Box<dyn Layer<Registry> + Send + Sync>> = vec![layer];
    #[cfg(feature = "otel")]
    let mut exporter = None;
    #[cfg(feature = "otel")]
    match super::otel::layer(otel, &service_name()) {
        Ok(Some((layer, installed))) => {
            layers.push(layer);
            exporter = Some(installed);
        }
        Ok(None) => {}
        Err(e) => eprintln!("OpenTelemetry is off: {e}"),
    }
    let logger = tracing_subscriber::registry()
        .with(layers)
        .try_init()
        .is_ok();
    Installed {
        logger,
        #[cfg(feature = "otel")]
        otel: exporter,
    }
}

/// `service.name`: the program's file name.
#[cfg(feature = "otel")]
fn service_name() -> String {
    std::env::args_os()
        .next()
        .and_then(|p| {
            std::path::Path::new(&p)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "toolwright".to_owned())
}
