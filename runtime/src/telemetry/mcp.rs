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
    pub(crate) const CLIENT_PORT: &str = "client.port";
    pub(crate) const ERROR_TYPE: &str = "error.type";
    pub(crate) const STATUS_CODE: &str = "rpc.response.status_code";
    pub(crate) const OPERATION_DURATION: &str = "mcp.server.operation.duration";
    pub(crate) const SESSION_DURATION: &str = "mcp.server.session.duration";
    /// toolwright's own (not in the conventions): HTTP requests refused before MCP read them.
    pub(crate) const REFUSED_UNREAD: &str = "toolwright.http.refused";
    /// Every attribute and metric name a span or a histogram carries (checked against the
    /// conventions by `tests/tests/telemetry.rs`).
    pub(crate) const ALL: [&str; 13] = [
        METHOD,
        TOOL,
        OPERATION,
        REQUEST_ID,
        PROTOCOL,
        SESSION,
        TRANSPORT,
        CLIENT_ADDRESS,
        CLIENT_PORT,
        ERROR_TYPE,
        STATUS_CODE,
        OPERATION_DURATION,
        SESSION_DURATION,
    ];
}

#[cfg(feature = "otel")]
static ACTIVE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The tracer request spans are made with (set once, by `otel.rs`, when it installs).
#[cfg(feature = "otel")]
static TRACER: std::sync::OnceLock<opentelemetry_sdk::trace::SdkTracer> =
    std::sync::OnceLock::new();

/// Whether requests are spanned: the `otel` feature is on and spans are exported or
/// propagated (`otel.rs` turns it on when it installs its layer).
#[inline]
pub(crate) fn active() -> bool {
    #[cfg(feature = "otel")]
    return ACTIVE.load(std::sync::atomic::Ordering::Relaxed);
    #[cfg(not(feature = "otel"))]
    false
}

/// Turns request spans on, made with `tracer` (the first one installed stays).
#[cfg(feature = "otel")]
pub(crate) fn activate(tracer: opentelemetry_sdk::trace::SdkTracer) {
    let _ = TRACER.set(tracer);
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
    pub client: Option<std::net::SocketAddr>,
    /// `params._meta.traceparent`: the span's parent.
    pub traceparent: Option<&'a str>,
    /// An HTTP `traceparent` header: a link.
    pub header_traceparent: Option<&'a str>,
}

/// A request's span while it is answered (nothing when spans are off).
///
/// The span is the OpenTelemetry SDK's own, made once with all its attributes and ended once:
/// it is not a `tracing` span, so a call's polls, and the `tracing` spans and events toolwright
/// logs, cost the exporter nothing. While the request runs (`within`) its context is the
/// current OpenTelemetry context, so the `tracing` spans a tool's body makes become its children
/// (through `tracing-opentelemetry`), and [`note`] adds `toolwright.*` attributes to it.
pub(crate) struct RequestSpan {
    #[cfg(feature = "otel")]
    open: Option<Box<Open>>,
}

#[cfg(feature = "otel")]
struct Open {
    /// The span, as the current context of the request's future.
    cx: opentelemetry::Context,
    started: Instant,
    /// The duration histogram's attributes.
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
        use opentelemetry::trace::{Link, SpanKind, TraceContextExt as _, Tracer as _};
        let Some(tracer) = TRACER.get() else {
            return RequestSpan { open: None };
        };
        let name = match request.tool {
            Some(tool) => format!("{} {tool}", request.method),
            None => request.method.to_owned(),
        };
        let method = KeyValue::new(names::METHOD, request.method.to_owned());
        let transport = KeyValue::new(names::TRANSPORT, request.transport.name());
        let tool = request
            .tool
            .map(|tool| KeyValue::new(names::TOOL, tool.to_owned()));
        let protocol = request
            .protocol
            .map(|protocol| KeyValue::new(names::PROTOCOL, protocol));
        let mut metric = Vec::with_capacity(5);
        metric.push(method.clone());
        metric.push(transport.clone());
        metric.extend(tool.clone());
        metric.extend(protocol.clone());
        let mut span = Vec::with_capacity(11);
        span.push(method);
        span.push(transport);
        span.push(KeyValue::new(names::REQUEST_ID, request.id));
        if let Some(tool) = tool {
            span.push(tool);
            span.push(KeyValue::new(names::OPERATION, "execute_tool"));
        }
        span.extend(protocol);
        if let Some(session) = request.session {
            span.push(KeyValue::new(names::SESSION, session.to_owned()));
        }
        if let Some(client) = request.client {
            span.push(KeyValue::new(
                names::CLIENT_ADDRESS,
                client.ip().to_string(),
            ));
            span.push(KeyValue::new(names::CLIENT_PORT, i64::from(client.port())));
        }
        let parent = match request.traceparent.and_then(remote) {
            Some(parent) => opentelemetry::Context::new().with_remote_span_context(parent),
            None => opentelemetry::Context::new(),
        };
        let mut builder = tracer
            .span_builder(name)
            .with_kind(SpanKind::Server)
            .with_attributes(span);
        if let Some(link) = request.header_traceparent.and_then(remote) {
            builder = builder.with_links(vec![Link::with_context(link)]);
        }
        let span = builder.start_with_context(tracer, &parent);
        RequestSpan {
            open: Some(Box::new(Open {
                cx: parent.with_span(span),
                started: Instant::now(),
                attributes: metric,
            })),
        }
    }

    /// `future`, run with the span as the current OpenTelemetry context (`future` itself when
    /// spans are off).
    pub(crate) fn within<F: std::future::Future>(
        &self,
        future: F,
    ) -> impl std::future::Future<Output = F::Output> {
        #[cfg(feature = "otel")]
        return in_context(future, self.open.as_ref().map(|open| open.cx.clone()));
        #[cfg(not(feature = "otel"))]
        future
    }

    /// Adds what [`note_content`] adds, to this span (before the request runs within it).
    pub(crate) fn note_content(&self, attributes: impl FnOnce() -> Vec<Note>) {
        #[cfg(feature = "otel")]
        if let Some(open) = &self.open {
            let _current = open.cx.clone().attach();
            note_content(attributes);
        }
        #[cfg(not(feature = "otel"))]
        let _ = attributes;
    }

    /// The span's W3C trace id (32 hex digits): the one `_meta` and the audit line carry.
    pub(crate) fn trace_id(&self) -> Option<String> {
        #[cfg(feature = "otel")]
        if let Some(open) = &self.open {
            use opentelemetry::trace::TraceContextExt as _;
            let id = open.cx.span().span_context().trace_id();
            return (id != opentelemetry::TraceId::INVALID).then(|| id.to_string());
        }
        None
    }

    /// The request was answered, as `ending` says: the span ends, the duration is recorded.
    pub(crate) fn end(self, ending: Ending) {
        #[cfg(feature = "otel")]
        if let Some(open) = self.open {
            use opentelemetry::KeyValue;
            use opentelemetry::trace::{Status, TraceContextExt as _};
            let Open {
                cx,
                started,
                mut attributes,
            } = *open;
            let span = cx.span();
            let error = match ending {
                Ending::Ok => None,
                Ending::ToolError => Some(("tool_error".to_owned(), None)),
                Ending::Error(code) => Some((code.to_string(), Some(code))),
            };
            if let Some((kind, code)) = error {
                let kind = KeyValue::new(names::ERROR_TYPE, kind);
                span.set_attribute(kind.clone());
                if let Some(code) = code {
                    span.set_attribute(KeyValue::new(names::STATUS_CODE, code.to_string()));
                }
                span.set_status(Status::error(""));
                attributes.push(kind);
            }
            span.end();
            operation_duration().record(started.elapsed().as_secs_f64(), &attributes);
        }
        #[cfg(not(feature = "otel"))]
        let _ = ending;
    }
}

/// Adds `toolwright.*` attributes to the span of the request being answered (the current
/// OpenTelemetry context's; nothing when spans are off or no request is being answered): what a
/// call's resource, queue, confirmation, envelope and safe stop did, as the call path learns it.
#[inline]
pub(crate) fn note(attributes: impl FnOnce() -> Vec<Note>) {
    if active() {
        note_now(attributes());
    }
}

/// Adds the call's arguments or result (`gen_ai.tool.call.arguments`, `.result`) to the span of
/// the request being answered, only when the operator opted in (`serve --otel-capture-content`,
/// or `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`): they may hold what should not
/// leave the process. Each is cut to [`MAX_CONTENT`] bytes.
#[inline]
pub(crate) fn note_content(attributes: impl FnOnce() -> Vec<Note>) {
    #[cfg(feature = "otel")]
    if active() && CAPTURE.load(std::sync::atomic::Ordering::Relaxed) {
        let cut = attributes()
            .into_iter()
            .map(|(name, value)| match value {
                NoteValue::Text(text) => (name, NoteValue::Text(cut_to(text, MAX_CONTENT))),
                other => (name, other),
            })
            .collect();
        note_now(cut);
    }
    #[cfg(not(feature = "otel"))]
    let _ = attributes;
}

/// The most of a call's arguments or result a span carries, in bytes.
pub(crate) const MAX_CONTENT: usize = 8 * 1024;

#[cfg(feature = "otel")]
static CAPTURE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether arguments and results go on spans (the operator's opt-in).
#[cfg(feature = "otel")]
pub(crate) fn capture_content(on: bool) {
    CAPTURE.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// `text` cut to at most `max` bytes, on a character boundary, saying so.
#[cfg(feature = "otel")]
fn cut_to(mut text: String, max: usize) -> String {
    if text.len() <= max {
        return text;
    }
    let total = text.len();
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text.push_str(&format!("… ({total} bytes in all)"));
    text
}

/// `f`, to run on another thread (a blocking body) in the current OpenTelemetry context, so
/// that the `tracing` spans it makes are children of its request's span.
pub(crate) fn carry<R>(f: impl FnOnce() -> R + Send) -> impl FnOnce() -> R + Send {
    #[cfg(feature = "otel")]
    {
        let cx = active().then(opentelemetry::Context::current);
        move || {
            let _attached = cx.map(opentelemetry::Context::attach);
            f()
        }
    }
    #[cfg(not(feature = "otel"))]
    f
}

/// `future`, to run as a task of its own (a call promoted to a task) in the current
/// OpenTelemetry context, so that the `tracing` spans its body makes after the request has been
/// answered stay children of the request's span.
pub(crate) fn carry_future<F: std::future::Future>(
    future: F,
) -> impl std::future::Future<Output = F::Output> {
    #[cfg(feature = "otel")]
    return in_context(future, active().then(opentelemetry::Context::current));
    #[cfg(not(feature = "otel"))]
    future
}

/// `future`, polled in `cx` when there is one.
#[cfg(feature = "otel")]
fn in_context<F: std::future::Future>(
    future: F,
    cx: Option<opentelemetry::Context>,
) -> impl std::future::Future<Output = F::Output> {
    use opentelemetry::context::FutureExt as _;
    match cx {
        Some(cx) => futures::future::Either::Left(future.with_context(cx)),
        None => futures::future::Either::Right(future),
    }
}

/// One `toolwright.*` attribute: its name and value.
pub(crate) type Note = (&'static str, NoteValue);

/// A `toolwright.*` attribute's value.
#[derive(Debug, Clone)]
pub(crate) enum NoteValue {
    Text(String),
    Number(f64),
    Flag(bool),
}

#[cfg(feature = "otel")]
#[cold]
fn note_now(attributes: Vec<Note>) {
    use opentelemetry::trace::TraceContextExt as _;
    opentelemetry::Context::map_current(|cx| {
        let span = cx.span();
        if !span.span_context().is_valid() {
            return;
        }
        for (name, value) in attributes {
            let value = match value {
                NoteValue::Text(text) => opentelemetry::Value::from(text),
                NoteValue::Number(n) => opentelemetry::Value::from(n),
                NoteValue::Flag(b) => opentelemetry::Value::from(b),
            };
            span.set_attribute(opentelemetry::KeyValue::new(name, value));
        }
    });
}

#[cfg(not(feature = "otel"))]
fn note_now(_attributes: Vec<Note>) {}

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

/// An HTTP request the guard refused before MCP read it (authentication, Origin, limits):
/// counted in `toolwright.http.refused`, by status, and never spanned.
pub(crate) fn refused_unread(status: u16) {
    #[cfg(feature = "otel")]
    if active() {
        static COUNTER: std::sync::OnceLock<opentelemetry::metrics::Counter<u64>> =
            std::sync::OnceLock::new();
        COUNTER
            .get_or_init(|| {
                opentelemetry::global::meter("toolwright")
                    .u64_counter(names::REFUSED_UNREAD)
                    .with_unit("{request}")
                    .with_description(
                        "HTTP requests refused before MCP read them (authentication, Origin, \
                         size and time limits, the session's owner).",
                    )
                    .build()
            })
            .add(
                1,
                &[opentelemetry::KeyValue::new(
                    "http.response.status_code",
                    i64::from(status),
                )],
            );
    }
    #[cfg(not(feature = "otel"))]
    let _ = status;
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
