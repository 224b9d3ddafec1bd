//! Who sent a request, as the transport knows it: what the toolbox keys rate limits on and seals
//! a round's request state to, without knowing the transport's own types.

use std::net::SocketAddr;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::service::RequestContext;

/// Filled in by the HTTP transport (`crate::http`), in each request's extensions
/// (`http::request::Parts`, which rmcp hands to the handler in the request's extensions too);
/// none over stdio.
#[derive(Debug, Clone, Default)]
pub(crate) struct Requester {
    /// The authenticated principal, in its one stable form (`None`: no authentication).
    pub(crate) principal: Option<Arc<str>>,
    /// The MCP session, when it is one this server keeps.
    pub(crate) session: Option<Arc<str>>,
    /// The address and port of the connection's peer.
    pub(crate) peer: Option<SocketAddr>,
}

impl Requester {
    /// The requester of a request, if its transport said.
    pub(crate) fn of(context: &RequestContext<RoleServer>) -> Option<&Requester> {
        context
            .extensions
            .get::<http::request::Parts>()?
            .extensions
            .get::<Requester>()
    }
}
