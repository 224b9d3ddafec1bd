//! Calls waiting for their user's confirmation, bounded (issue 43: 300 confirmations left
//! pending in one session, each an event stream held open, kept a fresh client's stop out).
//!
//! A call of a tool that asks for confirmation (while confirmation is on) is counted from when
//! its request is read until its answer has been sent, against its session (protocol
//! 2025-11-25) and against its client (the authenticated principal, or without authentication
//! the peer's address; an IPv6 one by its /64): past either bound it is answered at once with
//! an `isError` saying nothing ran. The count is its own client's: it never takes room from
//! anyone else's. Its deadline is the session manager's (`sessions.rs`, `confirmation_timeout`).

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use axum::body::Body;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::auth::Caller;
use super::body;

/// Whether confirmation is on now (it may be switched while serving).
pub(super) type Switch = Arc<dyn Fn() -> bool + Send + Sync>;

/// The counts (module docs).
pub(super) struct Pending {
    /// The tools that ask.
    asking: HashSet<String>,
    on: Switch,
    per_session: usize,
    per_client: usize,
    counts: Arc<Mutex<Counts>>,
}

#[derive(Default)]
struct Counts {
    sessions: HashMap<Arc<str>, usize>,
    clients: HashMap<Arc<str>, usize>,
}

impl Counts {
    fn take(map: &mut HashMap<Arc<str>, usize>, key: &Arc<str>) {
        if let Some(n) = map.get_mut(key) {
            *n -= 1;
            if *n == 0 {
                map.remove(key);
            }
        }
    }
}

/// A call's place in the counts, given back when dropped.
pub(super) struct Held {
    counts: Arc<Mutex<Counts>>,
    session: Option<Arc<str>>,
    client: Arc<str>,
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(session) = &self.session {
            Counts::take(&mut counts.sessions, session);
        }
        Counts::take(&mut counts.clients, &self.client);
    }
}

impl Held {
    /// `response`, holding the call's place until its body (the call's event stream) ends.
    pub(super) fn until_answered(self, response: Response) -> Response {
        response.map(|body| Body::new(HeldBody { body, _held: self }))
    }
}

/// A response body that holds a call's place while it streams.
struct HeldBody {
    body: Body,
    _held: Held,
}

impl http_body::Body for HeldBody {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

impl Pending {
    pub(super) fn new(
        asking: Vec<String>,
        on: Switch,
        (per_session, per_client): (usize, usize),
    ) -> Self {
        Pending {
            asking: asking.into_iter().collect(),
            on,
            per_session,
            per_client,
            counts: Arc::default(),
        }
    }

    /// Counts the message `bytes` in, when it is a call of a tool that asks: its place, or
    /// the answer that refuses it.
    pub(super) fn enter(
        &self,
        bytes: &[u8],
        session: Option<&Arc<str>>,
        caller: &Caller,
        peer: SocketAddr,
    ) -> Entered {
        if self.asking.is_empty() {
            return Entered::Uncounted;
        }
        let Some(peek) = body::peek(bytes) else {
            return Entered::Uncounted;
        };
        let Some(tool) = peek.tool().filter(|t| self.asking.contains(*t)) else {
            return Entered::Uncounted;
        };
        if !peek.is_request() || !(self.on)() {
            return Entered::Uncounted;
        }
        let client: Arc<str> = match &caller.principal {
            Some(principal) => principal.shared(),
            None => Arc::from(format!(
                "address {}",
                crate::toolbox::address_key(peer.ip())
            )),
        };
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        let in_session = session.map_or(0, |s| counts.sessions.get(s).copied().unwrap_or(0));
        let of_client = counts.clients.get(&client).copied().unwrap_or(0);
        let over = if in_session >= self.per_session {
            Some((self.per_session, "in this session"))
        } else if of_client >= self.per_client {
            Some((self.per_client, "for this client"))
        } else {
            None
        };
        if let Some((bound, place)) = over {
            drop(counts);
            tracing::info!(
                tool,
                bound,
                place,
                "call refused: too many calls waiting for confirmation"
            );
            return Entered::Refused(refusal(bytes, tool, bound, place));
        }
        if let Some(session) = session {
            *counts.sessions.entry(Arc::clone(session)).or_default() += 1;
        }
        *counts.clients.entry(Arc::clone(&client)).or_default() += 1;
        Entered::Held(Held {
            counts: Arc::clone(&self.counts),
            session: session.cloned(),
            client,
        })
    }
}

/// What [`Pending::enter`] made of a message.
pub(super) enum Entered {
    /// Not a call of a tool that asks (or confirmation is off): not counted.
    Uncounted,
    /// Counted: its place, held until its answer has been sent.
    Held(Held),
    /// Over a bound: the answer that refuses it.
    Refused(Response),
}

/// The answer to a call over the bound: the call's own JSON-RPC response, an `isError` result
/// saying nothing ran (retryable), with the request's id.
fn refusal(bytes: &[u8], tool: &str, bound: usize, place: &str) -> Response {
    let id = serde_json::from_slice::<serde_json::Value>(bytes)
        .ok()
        .and_then(|v| v.get("id").cloned())
        .unwrap_or(serde_json::Value::Null);
    let text = format!(
        "Tool `{tool}` was not run: {bound} calls are already waiting for their user's \
         confirmation {place}, the most allowed. Nothing ran. Have those answered (or cancel \
         them), then call again."
    );
    let message = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "result": {
            "content": [{"type": "text", "text": text}],
            "isError": true,
            "_meta": {
                crate::contract::RETRYABLE_META: true,
                crate::contract::RETRY_AFTER_META: 1000,
            },
        },
    });
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        message.to_string(),
    )
        .into_response()
}
