//! A span for each MCP request a toolbox answers, and the duration histograms, as the
//! semantic conventions for MCP name them (vendored in `tests/semconv/`, where a test checks
//! every name used here): the span `{mcp.method.name} {target}` of kind SERVER, with
//! `mcp.method.name`, `gen_ai.tool.name`, `gen_ai.operation.name = execute_tool`,
//! `jsonrpc.request.id`, `mcp.protocol.version`, `mcp.session.id` (only with a session),
//! `network.transport` (`pipe` for stdio, `tcp` for HTTP), `client.address`, and on failure
//! `error.type` (the JSON-RPC code, or `tool_error` for an `isError` result) and
//! `rpc.response.status_code`; the histograms `mcp.server.operation.duration` and
//! `mcp.server.session.duration`, in seconds. The span's parent is the `traceparent` of the
//! request's `_meta` (SEP-414); an HTTP `traceparent` header becomes a link.

// Without the `otel` feature the request's parts are gathered for nothing: never, as
// `active()` is false; the types stay so the toolbox compiles one way.
#![cfg_attr(not(feature = "otel"), allow(dead_code))]

use std::net::IpAddr;
use std::time::Instant;

/// Attribute and metric names, as the conventions spell them (the span's fields spell them
/// again: `tracing`'s field names are written out in its macro).
#[allow(dead_code)]
pub(crate) mod names {
    pub(crate) const METHOD: &str = "mcp.method.name";
    pub(crate) const TOOL: &str = "gen_ai.tool.name";
    pub(crate) const OPERATION: &str = "gen_ai.operation.name";
    pub(crate) const REQUEST_ID: &str = "jsonrpc.request.id";
    pub(crate) const PROTOCOL: &str = "mcp.protocol.version";
    pub(crate) const SESSION: &str = "mcp.session.id";
    pub(crate) const TRANSPORT: &str = "network.transport";
    pub(crate) const CLIENT_ADDRESS: &str = "client.address";
    pub(crate) const ERROR_TYPE: &str = "error.type";
    pub(crate) const STATUS_CODE: &str = "rpc.response.status_code";
    pub(crate) const OPERATION_DURATION: &str = "mcp.server.operation.duration";
    pub(crate) const SESSION_DURATION: &str = "mcp.server.session.duration";
    /// Every attribute and metric name a span or a histogram carries (checked against the
    /// conventions by `tests/tests/telemetry.rs`).
    pub(crate) const ALL: [&str; 12] = [
        METHOD,
        TOOL,
        OPERATION,
        REQUEST_ID,
        PROTOCOL,
        SESSION,
        TRANSPORT,
        CLIENT_ADDRESS,
        ERROR_TYPE,
        STATUS_CODE,
        OPERATION_DURATION,
        SESSION_DURATION,
    ];
}

#[cfg(feature = "otel")]
static ACTIVE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether requests are spanned: the `otel` feature is on and spans are exported or
/// propagated (`otel.rs` turns it on when it installs its layer).
#[inline]
pub(crate) fn active() -> bool {
    #[cfg(feature = "otel")]
    return ACTIVE.load(std::sync::atomic::Ordering::Relaxed);
    #[cfg(not(feature = "otel"))]
    false
}

/// Turns request spans on (the OpenTelemetry layer is installed).
#[cfg(feature = "otel")]
pub(crate) fn activate() {
    ACTIVE.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// The transport a request came by.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Transport {
    /// stdio, or any pipe.
    Pipe,
    /// HTTP.
    Tcp,
}

impl Transport {
    fn name(self) -> &'static str {
        match self {
            Transport::Pipe => "pipe",
            Transport::Tcp => "tcp",
        }
    }
}

/// What a request's span is made from.
pub(crate) struct Request<'a> {
    pub method: &'a str,
    /// The tool a `tools/call` names.
    pub tool: Option<&'a str>,
    /// The JSON-RPC id, as text.
    pub id: String,
    pub protocol: Option<String>,
    pub session: Option<&'a str>,
    pub transport: Transport,
    pub client: Option<IpAddr>,
    /// `params._meta.traceparent`: the span's parent.
    pub traceparent: Option<&'a str>,
    /// An HTTP `traceparent` header: a link.
    pub header_traceparent: Option<&'a str>,
}

/// A request's span while it is answered (nothing when spans are off).
pub(crate) struct RequestSpan {
    #[cfg(feature = "otel")]
    open: Option<Box<Open>>,
}

#[cfg(feature = "otel")]
struct Open {
    span: tracing::Span,
    started: Instant,
    attributes: Vec<opentelemetry::KeyValue>,
}

impl RequestSpan {
    /// The span of `request`, when spans are on.
    #[inline]
    pub(crate) fn start<'a>(request: impl FnOnce() -> Request<'a>) -> Self {
        if !active() {
            return RequestSpan {
                #[cfg(feature = "otel")]
                open: None,
            };
        }
        Self::open(request())
    }

    #[cfg(not(feature = "otel"))]
    fn open(_request: Request<'_>) -> Self {
        RequestSpan {}
    }

    #[cfg(feature = "otel")]
    #[cold]
    fn open(request: Request<'_>) -> Self {
        use opentelemetry::KeyValue;
        use tracing_opentelemetry::OpenTelemetrySpanExt as _;
        let name = match request.tool {
            Some(tool) => format!("{} {tool}", request.method),
            None => request.method.to_owned(),
        };
        // Every field given at creation (an `Option` records only when `Some`): each later
        // `record` would go through every layer again.
        let operation = request.tool.map(|_| "execute_tool");
        let span = tracing::info_span!(
            target: "toolwright::mcp",
            "mcp.server",
            otel.name = %name,
            otel.kind = "server",
            otel.status_code = tracing::field::Empty,
            mcp.method.name = request.method,
            gen_ai.tool.name = request.tool,
            gen_ai.operation.name = operation,
            jsonrpc.request.id = %request.id,
            mcp.protocol.version = request.protocol.as_deref(),
            mcp.session.id = request.session,
            network.transport = request.transport.name(),
            client.address = request.client.map(tracing::field::display),
            error.type = tracing::field::Empty,
            rpc.response.status_code = tracing::field::Empty,
        );
        let mut attributes = Vec::with_capacity(6);
        attributes.push(KeyValue::new(names::METHOD, request.method.to_owned()));
        attributes.push(KeyValue::new(names::TRANSPORT, request.transport.name()));
        if let Some(tool) = request.tool {
            attributes.push(KeyValue::new(names::TOOL, tool.to_owned()));
            attributes.push(KeyValue::new(names::OPERATION, "execute_tool"));
        }
        if let Some(protocol) = request.protocol {
            attributes.push(KeyValue::new(names::PROTOCOL, protocol));
        }
        if let Some(parent) = request.traceparent.and_then(remote) {
            let _ = span
                .set_parent(opentelemetry::Context::new().with_remote_span_context_compat(parent));
        }
        if let Some(link) = request.header_traceparent.and_then(remote) {
            span.add_link(link);
        }
        RequestSpan {
            open: Some(Box::new(Open {
                span,
                started: Instant::now(),
                attributes,
            })),
        }
    }

    /// The span, to run the request in (`Span::none()` when spans are off).
    pub(crate) fn span(&self) -> tracing::Span {
        #[cfg(feature = "otel")]
        if let Some(open) = &self.open {
            return open.span.clone();
        }
        tracing::Span::none()
    }

    /// The span's W3C trace id (32 hex digits): the one `_meta` and the audit line carry.
    pub(crate) fn trace_id(&self) -> Option<String> {
        #[cfg(feature = "otel")]
        if let Some(open) = &self.open {
            use opentelemetry::trace::TraceContextExt as _;
            use tracing_opentelemetry::OpenTelemetrySpanExt as _;
            let id = open.span.context().span().span_context().trace_id();
            return (id != opentelemetry::TraceId::INVALID).then(|| id.to_string());
        }
        None
    }

    /// The request was answered, as `ending` says: the span ends, the duration is recorded.
    pub(crate) fn end(self, ending: Ending) {
        #[cfg(feature = "otel")]
        if let Some(open) = self.open {
            let Open {
                span,
                started,
                mut attributes,
            } = *open;
            let error = match ending {
                Ending::Ok => None,
                Ending::ToolError => Some(("tool_error".to_owned(), None)),
                Ending::Error(code) => Some((code.to_string(), Some(code))),
            };
            if let Some((kind, code)) = &error {
                span.record(names::ERROR_TYPE, kind.as_str());
                span.record("otel.status_code", "error");
                if let Some(code) = code {
                    span.record(names::STATUS_CODE, code.to_string().as_str());
                }
                attributes.push(opentelemetry::KeyValue::new(
                    names::ERROR_TYPE,
                    kind.clone(),
                ));
            }
            operation_duration().record(started.elapsed().as_secs_f64(), &attributes);
        }
        #[cfg(not(feature = "otel"))]
        let _ = ending;
    }
}

/// How a request ended.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Ending {
    Ok,
    /// An `isError` tool result.
    ToolError,
    /// A JSON-RPC error, with its code.
    Error(i32),
}

/// A session ended after `started` (`mcp.server.session.duration`).
pub(crate) fn session_ended(started: Instant, transport: Transport) {
    #[cfg(feature = "otel")]
    if active() {
        session_duration().record(
            started.elapsed().as_secs_f64(),
            &[opentelemetry::KeyValue::new(
                names::TRANSPORT,
                transport.name(),
            )],
        );
    }
    #[cfg(not(feature = "otel"))]
    let _ = (started, transport);
}

#[cfg(feature = "otel")]
fn operation_duration() -> &'static opentelemetry::metrics::Histogram<f64> {
    static HISTOGRAM: std::sync::OnceLock<opentelemetry::metrics::Histogram<f64>> =
        std::sync::OnceLock::new();
    HISTOGRAM.get_or_init(|| {
        opentelemetry::global::meter("toolwright")
            .f64_histogram(names::OPERATION_DURATION)
            .with_unit("s")
            .with_description(
                "MCP request or notification duration as observed on the receiver from the \
                 time it was received until the result or ack is sent.",
            )
            .build()
    })
}

#[cfg(feature = "otel")]
fn session_duration() -> &'static opentelemetry::metrics::Histogram<f64> {
    static HISTOGRAM: std::sync::OnceLock<opentelemetry::metrics::Histogram<f64>> =
        std::sync::OnceLock::new();
    HISTOGRAM.get_or_init(|| {
        opentelemetry::global::meter("toolwright")
            .f64_histogram(names::SESSION_DURATION)
            .with_unit("s")
            .with_description("The duration of the MCP session as observed on the MCP server.")
            .build()
    })
}

/// A W3C `traceparent` (`00-<trace id>-<span id>-<flags>`) as a remote span context.
#[cfg(feature = "otel")]
fn remote(traceparent: &str) -> Option<opentelemetry::trace::SpanContext> {
    use opentelemetry::trace::{SpanContext, SpanId, TraceFlags, TraceId, TraceState};
    let mut parts = traceparent.trim().split('-');
    let (version, trace, span, flags) =
        (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    if version.len() != 2 || trace.len() != 32 || span.len() != 16 || flags.len() != 2 {
        return None;
    }
    let trace = TraceId::from_hex(trace).ok()?;
    let span = SpanId::from_hex(span).ok()?;
    let flags = u8::from_str_radix(flags, 16).ok()?;
    if trace == TraceId::INVALID || span == SpanId::INVALID {
        return None;
    }
    Some(SpanContext::new(
        trace,
        span,
        TraceFlags::new(flags),
        true,
        TraceState::default(),
    ))
}

/// `Context::with_remote_span_context`, named once.
#[cfg(feature = "otel")]
trait RemoteParent {
    fn with_remote_span_context_compat(self, parent: opentelemetry::trace::SpanContext) -> Self;
}

#[cfg(feature = "otel")]
impl RemoteParent for opentelemetry::Context {
    fn with_remote_span_context_compat(self, parent: opentelemetry::trace::SpanContext) -> Self {
        use opentelemetry::trace::TraceContextExt as _;
        self.with_remote_span_context(parent)
    }
}

#[cfg(test)]
mod tests {
    #[allow(unused_imports)]
    use super::*;

    /// Every name a span or a histogram carries is one the vendored conventions define
    /// (`tests/semconv/`, from PyPI's `opentelemetry-semantic-conventions`).
    #[test]
    fn every_name_is_in_the_vendored_conventions() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/semconv/opentelemetry-semantic-conventions-0.66b2");
        let mut defined = std::collections::BTreeSet::new();
        for entry in std::fs::read_dir(&dir).expect("the vendored conventions") {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap_or_default();
            for line in text.lines() {
                // `MCP_METHOD_NAME: Final = "mcp.method.name"`
                if let Some((_, value)) = line.split_once(": Final = \"") {
                    defined.insert(value.trim_end_matches('"').to_owned());
                }
            }
        }
        assert!(
            defined.len() > 50,
            "read {} names from {}",
            defined.len(),
            dir.display()
        );
        for name in names::ALL {
            assert!(defined.contains(name), "`{name}` is not in the conventions");
        }
    }

    #[cfg(feature = "otel")]
    #[test]
    fn traceparents_are_read_strictly() {
        let sc = remote("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").unwrap();
        assert_eq!(
            sc.trace_id().to_string(),
            "4bf92f3577b34da6a3ce929d0e0e4736"
        );
        assert!(sc.is_remote() && sc.is_sampled());
        for bad in [
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
            "garbage",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
        ] {
            assert!(remote(bad).is_none(), "{bad}");
        }
    }
}
