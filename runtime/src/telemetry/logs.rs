//! The stderr logger `run_cli` installs: a `tracing` subscriber writing to stderr (stdout carries
//! MCP on stdio, and nothing else is ever written there), filtered by `RUST_LOG` (default
//! [`DEFAULT_FILTER`]), as text or one JSON object a line (`--log-format json`). A program that
//! installed a subscriber of its own keeps it.

use std::io::IsTerminal as _;

use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;
use tracing_subscriber::{EnvFilter, Layer as _};

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

/// Installs the stderr logger, unless a global subscriber is set already; whether it did.
pub(crate) fn install(format: LogFormat) -> bool {
    if tracing::dispatcher::has_been_set() {
        return false;
    }
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    let layer = match format {
        LogFormat::Text => layer.boxed(),
        LogFormat::Json => layer.json().with_current_span(true).boxed(),
    };
    tracing_subscriber::registry()
        .with(layer.with_filter(filter))
        .try_init()
        .is_ok()
}
