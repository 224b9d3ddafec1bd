//! The OpenTelemetry exporter and its configuration (`serve --otlp-endpoint URL
//! --otel-mode native|propagation-only|off`, `OTEL_EXPORTER_OTLP_ENDPOINT`,
//! `OTEL_SDK_DISABLED`): a `tracing-opentelemetry` layer composed with the stderr logger, spans
//! and the duration histograms exported over OTLP/HTTP with protobuf. The exporter never holds a
//! call up: spans go to a bounded queue (2,048) that a thread of its own drains, and a span
//! that finds it full is dropped (the SDK counts them and logs the count).

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_subscriber::Layer;
use tracing_subscriber::filter::filter_fn;

/// `--otel-mode`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Mode {
    /// Spans and metrics, exported when an endpoint is set.
    #[default]
    Native,
    /// Trace context adopted from `_meta` and passed on (the answer's trace id, the audit
    /// line), nothing exported.
    PropagationOnly,
    /// No spans.
    Off,
}

/// What serving was asked to do with telemetry.
#[derive(Debug, Clone, Default)]
pub(crate) struct Settings {
    /// `--otlp-endpoint` (it wins over `OTEL_EXPORTER_OTLP_ENDPOINT`).
    pub endpoint: Option<String>,
    pub mode: Mode,
    /// `--otel-capture-content` (or `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`).
    pub capture_content: bool,
}

/// The installed providers, shut down (flushed) when serving ends.
pub(crate) struct Installed {
    tracer: SdkTracerProvider,
    meter: Option<SdkMeterProvider>,
}

impl Installed {
    /// Exports what is queued and stops the exporters.
    pub(crate) fn shutdown(self) {
        let _ = self.tracer.shutdown();
        if let Some(meter) = self.meter {
            let _ = meter.shutdown();
        }
    }
}

/// A layer of the subscriber `S`, boxed.
pub(crate) type BoxedLayer<S> = Box<dyn Layer<S> + Send + Sync>;

/// The endpoint spans go to: the flag, else `OTEL_EXPORTER_OTLP_ENDPOINT`; none when
/// `OTEL_SDK_DISABLED=true` or the mode is not native.
fn endpoint(settings: &Settings) -> Option<String> {
    let disabled =
        std::env::var("OTEL_SDK_DISABLED").is_ok_and(|v| v.trim().eq_ignore_ascii_case("true"));
    if disabled || settings.mode != Mode::Native {
        return None;
    }
    settings
        .endpoint
        .clone()
        .or_else(|| std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT").ok())
        .filter(|e| !e.trim().is_empty())
}

/// The OpenTelemetry layer for `settings`, or `None` when there is nothing to do (no endpoint
/// and native mode, off, or `OTEL_SDK_DISABLED=true`): then no request is spanned, and a call
/// pays nothing for the feature.
pub(crate) fn layer<S>(
    settings: &Settings,
    service: &str,
) -> Result<Option<(BoxedLayer<S>, Installed)>, String>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a> + Send + Sync,
{
    let disabled =
        std::env::var("OTEL_SDK_DISABLED").is_ok_and(|v| v.trim().eq_ignore_ascii_case("true"));
    if disabled || settings.mode == Mode::Off {
        return Ok(None);
    }
    let endpoint = endpoint(settings);
    if settings.mode == Mode::Native && endpoint.is_none() {
        return Ok(None);
    }
    let mut resource = opentelemetry_sdk::Resource::builder();
    if std::env::var_os("OTEL_SERVICE_NAME").is_none() {
        resource = resource.with_service_name(service.to_owned());
    }
    let resource = resource.build();
    let mut tracer = SdkTracerProvider::builder().with_resource(resource.clone());
    let mut meter = None;
    if let Some(endpoint) = &endpoint {
        use opentelemetry_otlp::WithExportConfig as _;
        let base = endpoint.trim_end_matches('/');
        let spans = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_protocol(opentelemetry_otlp::Protocol::HttpBinary)
            .with_endpoint(format!("{base}/v1/traces"))
            .build()
            .map_err(|e| format!("--otlp-endpoint {endpoint}: {e}"))?;
        let batch = opentelemetry_sdk::trace::BatchSpanProcessor::builder(spans)
            .with_batch_config(
                opentelemetry_sdk::trace::BatchConfigBuilder::default()
                    .with_max_queue_size(2048)
                    .build(),
            )
            .build();
        tracer = tracer.with_span_processor(batch);
        let metrics = opentelemetry_otlp::MetricExporter::builder()
            .with_http()
            .with_protocol(opentelemetry_otlp::Protocol::HttpBinary)
            .with_endpoint(format!("{base}/v1/metrics"))
            .build()
            .map_err(|e| format!("--otlp-endpoint {endpoint}: {e}"))?;
        let reader = opentelemetry_sdk::metrics::PeriodicReader::builder(metrics)
            .with_interval(std::time::Duration::from_secs(10))
            .build();
        let provider = SdkMeterProvider::builder()
            .with_resource(resource)
            .with_reader(reader)
            .build();
        opentelemetry::global::set_meter_provider(provider.clone());
        meter = Some(provider);
    }
    let tracer = tracer.build();
    // The request spans are made with the SDK (`mcp.rs`); this layer turns the `tracing` spans
    // a tool's body makes into their children. toolwright's own spans and those of the crates
    // it serves with are log lines, never exported: a call pays for one span, not for every
    // poll of every span it enters.
    let layer = tracing_opentelemetry::layer()
        .with_tracer(tracer.tracer("toolwright"))
        .with_tracked_inactivity(false)
        .with_threads(false)
        .with_filter(filter_fn(|meta| {
            !internal(meta.target()) && *meta.level() <= tracing::Level::INFO
        }));
    super::mcp::activate(tracer.tracer("toolwright"));
    super::mcp::capture_content(
        settings.capture_content
            || std::env::var("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT")
                .is_ok_and(|v| v.trim().eq_ignore_ascii_case("true")),
    );
    tracing::info!(
        endpoint = endpoint.as_deref().unwrap_or("none (propagation only)"),
        "OpenTelemetry: request spans on"
    );
    Ok(Some((Box::new(layer), Installed { tracer, meter })))
}

/// Whether `target` is toolwright's own or that of a crate it serves with (their spans and
/// events are logged, not exported).
fn internal(target: &str) -> bool {
    const CRATES: [&str; 12] = [
        "toolwright",
        "rmcp",
        "hyper",
        "hyper_util",
        "h2",
        "tower",
        "reqwest",
        "opentelemetry",
        "opentelemetry_sdk",
        "tokio",
        "mio",
        "redis",
    ];
    CRATES.iter().any(|c| {
        target
            .strip_prefix(c)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
    })
}

/// OpenTelemetry for a program that serves without the command line (`Toolbox::serve_stdio`,
/// `serve_http_with`): installs the stderr logger `run_cli` would (`RUST_LOG`, default
/// `info,rmcp=warn`) composed with the exporter, which sends every request's span and the
/// duration histograms to `endpoint` (else `OTEL_EXPORTER_OTLP_ENDPOINT`; with neither, or
/// `OTEL_SDK_DISABLED=true`, nothing is exported and no request is spanned). A program that
/// installed a `tracing` subscriber of its own keeps it, and gets nothing from this.
///
/// ```rust,no_run
/// # async fn demo(toolbox: toolwright::Toolbox) -> Result<(), toolwright::ServeError> {
/// let telemetry = toolwright::Telemetry::install(Some("http://127.0.0.1:4318"));
/// toolbox.serve_stdio().await?;
/// telemetry.shutdown(); // exports what is still queued
/// # Ok(()) }
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "otel")))]
#[must_use = "keep it while serving, then call `shutdown` to export what is queued"]
pub struct Telemetry(super::logs::Installed);

impl std::fmt::Debug for Telemetry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Telemetry")
            .field("exporting", &self.0.otel.is_some())
            .finish()
    }
}

impl Telemetry {
    /// Installs the logger and, with an endpoint, the exporter (see [`Telemetry`]).
    pub fn install(endpoint: Option<&str>) -> Telemetry {
        let settings = Settings {
            endpoint: endpoint.map(str::to_owned),
            mode: Mode::Native,
            capture_content: false,
        };
        Telemetry(super::logs::install(
            super::logs::LogFormat::Text,
            &settings,
        ))
    }

    /// Exports what is queued and stops the exporters.
    pub fn shutdown(self) {
        self.0.shutdown();
    }
}
