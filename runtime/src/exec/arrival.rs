//! Arrival order: each `tools/call` takes its places in its resources' queues as the transport
//! reads it, in the order the client sent the requests, before rmcp hands the request to a task
//! of its own (whose scheduling order tokio does not promise). The places travel with the
//! request as an rmcp extension ([`Arrival`]) and are picked up by the call.
//!
//! Every transport a toolbox serves itself is wrapped: [`Toolbox::serve`](crate::Toolbox::serve)
//! (stdio, pipes, any rmcp transport) in [`Ordered`], and so are streamable HTTP sessions
//! (`http/sessions.rs`). A call that arrives another way (in-process, through
//! `into_tool_router`, or served by rmcp's `ServiceExt::serve` called directly) takes its
//! places when it starts.

use std::borrow::Cow;
use std::future::Future;
use std::sync::{Arc, Mutex};

use futures::FutureExt as _;
use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, JsonRpcMessage};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio_util::sync::CancellationToken;

use super::queue::{QueueFull, Tickets};

/// Places taken by a call on arrival.
pub(crate) type Places = Result<Tickets, QueueFull>;

/// What the transport learnt of a `tools/call` as it read it.
pub(crate) struct Stamp {
    /// The tool's index in the toolbox (so the call need not look it up again).
    pub tool: usize,
    /// Its places in its resources' queues.
    pub places: Places,
}

/// Who can place calls in queues: the toolbox.
pub(crate) trait Arrivals: Send + Sync + 'static {
    /// The stamp of a call to `tool` (`None`: no such tool, or it uses no resource).
    fn arrive(&self, tool: &str) -> Option<Stamp>;

    /// Whether a call to `tool` holds a resource with a safe stop: a transport watches such a
    /// call for its client going away.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    fn supervises(&self, tool: &str) -> bool;
}

/// The stamp of a `tools/call`, carried in the request's extensions.
#[derive(Clone)]
pub(crate) struct Arrival(Arc<Mutex<Option<Stamp>>>);

impl Arrival {
    /// The stamp, once.
    pub(crate) fn take(&self) -> Option<Stamp> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// Stamps a `tools/call` with its places in the queues.
pub(crate) fn stamp(arrivals: &dyn Arrivals, message: &mut ClientJsonRpcMessage) {
    if let JsonRpcMessage::Request(request) = message
        && let ClientRequest::CallToolRequest(call) = &mut request.request
        && let Some(stamp) = arrivals.arrive(&call.params.name)
    {
        call.extensions
            .insert(Arrival(Arc::new(Mutex::new(Some(stamp)))));
    }
}

/// A transport that stamps each `tools/call` it reads with its places in the queues, and may
/// tell when its input ends (the client is gone).
pub(crate) struct Ordered<T> {
    inner: T,
    arrivals: Arc<dyn Arrivals>,
    /// Cancelled when the input ends: the client is gone.
    input_ended: Option<CancellationToken>,
    /// Cancelled when the transport is dropped (the service ended, however).
    _dropped: Option<tokio_util::sync::DropGuard>,
}

impl<T> Ordered<T> {
    pub(crate) fn new(inner: T, arrivals: Arc<dyn Arrivals>) -> Self {
        Self {
            inner,
            arrivals,
            input_ended: None,
            _dropped: None,
        }
    }

    /// Cancels `input_ended` as soon as the client's input ends (before rmcp gives the calls in
    /// flight 5 s to finish), and `dropped` once the transport is dropped.
    pub(crate) fn watched(
        mut self,
        input_ended: CancellationToken,
        dropped: CancellationToken,
    ) -> Self {
        self.input_ended = Some(input_ended);
        self._dropped = Some(dropped.drop_guard());
        self
    }
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for Ordered<T> {
    type Error = T::Error;

    fn name() -> Cow<'static, str> {
        T::name()
    }

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    /// The inner transport's future, mapped: an `async` wrapper would hold it in a state
    /// machine of its own, and copy the message out of it once more.
    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleServer>>> + Send {
        let arrivals = &*self.arrivals;
        let input_ended = self.input_ended.as_ref();
        self.inner.receive().map(move |message| match message {
            Some(mut message) => {
                stamp(arrivals, &mut message);
                Some(message)
            }
            None => {
                if let Some(ended) = input_ended {
                    ended.cancel();
                }
                None
            }
        })
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
