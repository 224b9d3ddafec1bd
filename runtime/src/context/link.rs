//! Where a call came from, as its [`Context`](super::Context) needs it to talk back: the client's
//! connection ([`Link`]) and what the client's session set ([`Session`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::Duration;

use rmcp::model::{ClientCapabilities, ProtocolVersion, RequestMetaObject};
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleServer};

use super::logging::LogLevel;

/// What one client session holds: the log level it asked for with `logging/setLevel`, and
/// whether its client went away.
///
/// A [`Toolbox`](crate::Toolbox) holds one; its clones share it, and every served connection
/// (a stdio or in-process transport, each streamable HTTP session) gets its own.
#[derive(Debug, Default)]
pub(crate) struct Session {
    /// 0 until the client sets a level, else a [`LogLevel`] as `u8` + 1.
    log_level: AtomicU8,
    /// Its connection closed (stdin): the calls it cancels are its client going away.
    gone: AtomicBool,
}

/// How a client went away, as what ended its calls says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Gone {
    /// Its connection closed: stdin, or the HTTP request's connection (protocol 2026-07-28).
    Disconnected,
    /// Its request's event stream dropped and was not resumed within this window (protocol
    /// 2025-11-25 over HTTP).
    NotResumed(Duration),
    /// Nobody polled its task within the task's lease.
    Lease(Duration),
}

/// A call a transport watches for its client going away without the connection saying so
/// (protocol 2025-11-25 over HTTP: a request's event stream that drops and is not resumed within
/// the window). The transport puts it in the request's extensions, marks it [`gone`]
/// (Departure::depart) and then cancels the request.
#[derive(Debug)]
pub(crate) struct Departure {
    gone: AtomicBool,
    window: Duration,
}

impl Departure {
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn new(window: Duration) -> Self {
        Departure {
            gone: AtomicBool::new(false),
            window,
        }
    }

    /// The client went away: its request's cancel that follows says so.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn depart(&self) {
        self.gone.store(true, Ordering::SeqCst);
    }
}

impl Session {
    /// Its client went away (stdin closed): the cancels that follow say so.
    pub(crate) fn depart(&self) {
        self.gone.store(true, Ordering::SeqCst);
    }

    /// Records the level the client set (`logging/setLevel`).
    pub(crate) fn set_log_level(&self, level: LogLevel) {
        self.log_level.store(level as u8 + 1, Ordering::Relaxed);
    }

    /// The level the client set, if it did.
    pub(crate) fn log_level(&self) -> Option<LogLevel> {
        match self.log_level.load(Ordering::Relaxed) {
            0 => None,
            code => LogLevel::ALL.get(usize::from(code) - 1).copied(),
        }
    }
}

/// The client connection of a call: taken from the request when it arrives, read only when the
/// body talks to the client (so a call that does not costs a few map lookups).
///
/// A handle (one pointer): it is moved through every future of a call (the call site, the
/// attempt, the context), whose sizes rmcp and tokio copy when they spawn the request's task, so
/// what it holds lives behind it.
#[derive(Clone)]
pub(crate) struct Link(Arc<LinkData>);

/// What a [`Link`] holds.
pub(crate) struct LinkData {
    pub(super) peer: Peer<RoleServer>,
    /// The protocol version the request names (protocol 2026-07-28 sends it with every request).
    request_protocol: Option<ProtocolVersion>,
    /// The capabilities the request carries (protocol 2026-07-28 sends them with every request).
    request_capabilities: Option<ClientCapabilities>,
    /// The log level the request asks for (`_meta["io.modelcontextprotocol/logLevel"]`).
    pub(super) request_level: Option<LogLevel>,
    /// The session the request belongs to (`None`: served by a handler that is not a toolbox).
    pub(super) session: Option<Arc<Session>>,
    /// Whether the request came over HTTP: on protocol 2026-07-28 its cancel is its connection
    /// dropping (the client went away).
    over_http: bool,
    /// What watches for its client going away, when its transport does (see [`Departure`]).
    departure: Option<Arc<Departure>>,
}

impl std::ops::Deref for Link {
    type Target = LinkData;

    fn deref(&self) -> &LinkData {
        &self.0
    }
}

impl Link {
    /// The link of a request served by rmcp; `request_meta` is the `_meta` of its parameters,
    /// `over_http` whether the HTTP transport served it.
    pub(crate) fn from_request(
        context: &RequestContext<RoleServer>,
        request_meta: Option<&RequestMetaObject>,
        session: Option<Arc<Session>>,
        over_http: bool,
    ) -> Self {
        // rmcp's logging types are deprecated by SEP-2577 (logging becomes opt-in per request):
        // toolwright still serves the clients that use it.
        #[allow(deprecated)]
        let request_level = request_meta
            .and_then(RequestMetaObject::log_level)
            .or_else(|| context.meta.log_level())
            .map(LogLevel::from_rmcp);
        Link(Arc::new(LinkData {
            peer: context.peer.clone(),
            request_protocol: context.meta.protocol_version(),
            request_capabilities: context.meta.client_capabilities(),
            request_level,
            session,
            over_http,
            departure: if over_http {
                context.extensions.get::<Arc<Departure>>().cloned()
            } else {
                None
            },
        }))
    }

    /// How the client went away, when the cancel of this request was its going (asked once the
    /// request was cancelled): its stdio connection closed, its HTTP connection dropped
    /// (protocol 2026-07-28, whose requests are cancelled only so), or its event stream was not
    /// resumed in time.
    pub(crate) fn gone(&self) -> Option<Gone> {
        if self
            .session
            .as_ref()
            .is_some_and(|s| s.gone.load(Ordering::SeqCst))
        {
            return Some(Gone::Disconnected);
        }
        if let Some(departure) = &self.departure
            && departure.gone.load(Ordering::SeqCst)
        {
            return Some(Gone::NotResumed(departure.window));
        }
        (self.over_http && self.on_2026_protocol()).then_some(Gone::Disconnected)
    }

    /// The protocol version of the request: its session's, when it belongs to one (a
    /// connection that began with `initialize`; over stateless HTTP rmcp fills this in from the
    /// request's `MCP-Protocol-Version` header, which must equal its `_meta`), else the one it
    /// names. A request cannot bring another revision's rules into its session.
    pub(super) fn protocol(&self) -> Option<ProtocolVersion> {
        self.peer
            .peer_info()
            .map(|info| info.protocol_version.clone())
            .or_else(|| self.request_protocol.clone())
    }

    /// Whether the request's protocol is 2026-07-28 or later: there a server sends no requests
    /// to the client (sampling and elicitation go through `InputRequiredResult` instead), and
    /// logging is opt-in per request.
    pub(crate) fn on_2026_protocol(&self) -> bool {
        self.protocol()
            .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28)
    }

    /// Reads the client's capabilities: the request's, else those it declared when it
    /// initialized the session.
    pub(super) fn with_capabilities<R>(&self, read: impl FnOnce(&ClientCapabilities) -> R) -> R {
        if let Some(capabilities) = &self.request_capabilities {
            return read(capabilities);
        }
        match self.peer.peer_info() {
            Some(info) => read(&info.capabilities),
            None => read(&ClientCapabilities::default()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_is_one_pointer() {
        // Every future of a call holds it (see `Link`): what it holds must not grow them.
        assert_eq!(size_of::<Option<Link>>(), size_of::<usize>());
    }

    #[test]
    fn a_session_remembers_the_level_it_set() {
        let session = Session::default();
        assert_eq!(session.log_level(), None);
        for level in LogLevel::ALL {
            session.set_log_level(level);
            assert_eq!(session.log_level(), Some(level));
        }
    }
}
