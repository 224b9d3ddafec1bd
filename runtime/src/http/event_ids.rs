//! Event ids that name their replica and their request, for servers whose sessions are shared
//! between replicas (feature `redis`).
//!
//! rmcp numbers the event streams it opens for a session per process (`0/0` is the first
//! event of the session's first request stream there), so with replicas one replica's id was
//! another's too. A client whose call ran on a replica that stopped (or whose connection the
//! network dropped) resumes with `Last-Event-ID` on whichever replica the load balancer picks.
//! There its id named a stream of that replica's, or none:
//!
//! - a stream of another request (one running there in the same session), whose answer the
//!   official SDKs would have taken for their own: they rewrite the id of a resumed answer to
//!   their request's;
//! - none: rmcp answers an empty stream, which the SDKs read as "reconnect again" forever, and
//!   the `400` the server answers instead makes the Python SDK (1.x) give up on the stream and
//!   wait for the request's answer forever.
//!
//! So each event id this replica sends carries its [`Replica`] tag and, on a request's stream,
//! the request's JSON-RPC id: `r<16 hex digits>.<rmcp's id>.<request>`. A resume names either
//! a stream of this replica's (rmcp resumes it) or one of another's, whose answer is lost here:
//! the resumed stream carries one JSON-RPC error for the request it names ([`Replica::lost`]),
//! and every SDK reports that error for that request, which its caller can then send again.

use std::sync::Arc;

use futures::{Stream, StreamExt as _};
use rmcp::model::{ErrorCode, ErrorData, JsonRpcError, RequestId};
use rmcp::model::{NumberOrString, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::ServerSseMessage;

/// The longest request id an event id carries (encoded): a longer one is left out, and a
/// resume of its stream elsewhere is refused as one that names no request.
const MAX_REQUEST_BYTES: usize = 96;

/// What follows the tag in the id of [`Replica::lost`]'s event (rmcp's ids are digits).
const LOST: &str = "lost";

/// What this replica writes before each of its event ids: `r` and 16 random hex digits, drawn
/// once per process (a replica that restarts is another one: its streams died with it).
#[derive(Debug, Clone)]
pub(crate) struct Replica {
    tag: Arc<str>,
}

/// Marks the event ids of one stream ([`Replica::marker`]).
#[derive(Debug)]
pub(crate) struct Marker {
    tag: Arc<str>,
    /// The request the stream answers, encoded.
    request: Option<String>,
}

impl Marker {
    /// `stream`'s events, their ids marked.
    pub(crate) fn mark<S>(
        self,
        stream: S,
    ) -> impl Stream<Item = ServerSseMessage> + Send + Sync + 'static + use<S>
    where
        S: Stream<Item = ServerSseMessage> + Send + Sync + 'static,
    {
        stream.map(move |mut event| {
            if let Some(id) = event.event_id.take() {
                event.event_id = Some(match &self.request {
                    Some(request) => format!("{}.{id}.{request}", self.tag),
                    None => format!("{}.{id}", self.tag),
                });
            }
            event
        })
    }
}

/// `stream`, its event ids marked by `marker` (none: the sessions are not shared, and the ids
/// stay rmcp's).
pub(crate) fn marked<S>(
    marker: Option<Marker>,
    stream: S,
) -> impl Stream<Item = ServerSseMessage> + Send + Sync + 'static + use<S>
where
    S: Stream<Item = ServerSseMessage> + Send + Sync + 'static,
{
    match marker {
        Some(marker) => marker.mark(stream).left_stream(),
        None => stream.right_stream(),
    }
}

/// What a `Last-Event-ID` names.
#[derive(Debug, PartialEq)]
pub(crate) enum Named<'a> {
    /// A stream of this replica's: rmcp's own id for it, and the request it answers.
    Here {
        event: &'a str,
        request: Option<RequestId>,
    },
    /// A stream of another replica's (or of this process before a restart): a session's
    /// standalone stream, or a request's (the request it answers, when the id carries one).
    Elsewhere {
        standalone: bool,
        request: Option<RequestId>,
    },
    /// The end of a stream whose answer was lost ([`Replica::lost`]): nothing follows it.
    Lost,
    /// No replica's id: rmcp's own form, passed to it as it is.
    Unmarked(&'a str),
}

// Only a server whose sessions are shared (feature `redis`) makes one.
#[cfg_attr(not(feature = "redis"), allow(dead_code))]
impl Replica {
    pub(crate) fn new() -> Self {
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).expect("the operating system's random source failed");
        Self::with_tag(format!("r{:016x}", u64::from_be_bytes(bytes)))
    }

    fn with_tag(tag: String) -> Self {
        Self { tag: tag.into() }
    }

    /// What marks the event ids of `request`'s stream (none: the session's standalone stream).
    pub(crate) fn marker(&self, request: Option<&RequestId>) -> Marker {
        Marker {
            tag: Arc::clone(&self.tag),
            request: request.and_then(encode),
        }
    }

    /// What `last_event_id` names.
    pub(crate) fn name<'a>(&self, last_event_id: &'a str) -> Named<'a> {
        let Some((tag, rest)) = last_event_id.split_once('.') else {
            return Named::Unmarked(last_event_id);
        };
        let (event, request) = match rest.split_once('.') {
            Some((event, request)) => (event, decode(request)),
            None => (rest, None),
        };
        if event == LOST {
            Named::Lost
        } else if *tag == *self.tag {
            Named::Here { event, request }
        } else {
            // rmcp's ids: `<index>` on the standalone stream, `<index>/<stream>` on a request's.
            let standalone = !event.contains('/');
            Named::Elsewhere {
                standalone,
                request,
            }
        }
    }

    /// The one event of a resumed stream whose request's answer is lost: a JSON-RPC error for it,
    /// with an id that names [`Named::Lost`]. The TypeScript SDK (1.x) resumes a stream that ended
    /// with no result again, error or not; resuming this id is refused (`400`), which it retries a
    /// bounded number of times.
    pub(crate) fn lost(&self, request: RequestId) -> ServerSseMessage {
        let mut event = ServerSseMessage::from_message(ServerJsonRpcMessage::Error(
            JsonRpcError::new(
                Some(request),
                ErrorData::new(
                    ErrorCode::INTERNAL_ERROR,
                    "This request's event stream cannot be resumed: the server that was answering this \
                 request has stopped, or no longer keeps its answer, so the answer is lost. The \
                 request may or may not have taken effect: check before you send it again.",
                    None,
                ),
            ),
        ));
        event.event_id = Some(format!("{}.{LOST}", self.tag));
        event
    }
}

/// `n<number>`, or `s<the string, percent-encoded>`; none past [`MAX_REQUEST_BYTES`].
fn encode(id: &RequestId) -> Option<String> {
    let encoded = match id {
        NumberOrString::Number(n) => format!("n{n}"),
        NumberOrString::String(s) => {
            let mut out = String::with_capacity(s.len() + 1);
            out.push('s');
            for b in s.bytes() {
                if out.len() > MAX_REQUEST_BYTES {
                    return None;
                }
                if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' {
                    out.push(char::from(b));
                } else {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
            out
        }
    };
    (encoded.len() <= MAX_REQUEST_BYTES).then_some(encoded)
}

fn decode(text: &str) -> Option<RequestId> {
    if let Some(n) = text.strip_prefix('n') {
        return n.parse().ok().map(NumberOrString::Number);
    }
    let s = text.strip_prefix('s')?;
    let mut bytes = Vec::with_capacity(s.len());
    let mut rest = s.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        if b == b'%' {
            let hex = std::str::from_utf8(tail.get(..2)?).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            rest = &tail[2..];
        } else {
            bytes.push(b);
            rest = tail;
        }
    }
    let s = String::from_utf8(bytes).ok()?;
    Some(NumberOrString::String(s.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marked(replica: &Replica, event: &str, request: Option<RequestId>) -> String {
        let stream = futures::stream::iter([ServerSseMessage::priming(event, Default::default())]);
        let marked = replica.marker(request.as_ref()).mark(stream);
        let events: Vec<_> = futures::executor::block_on(marked.collect());
        events[0].event_id.clone().expect("an id")
    }

    #[test]
    fn an_event_id_names_its_replica_and_its_request() {
        let one = Replica::with_tag("r1".into());
        let two = Replica::new();
        let number = NumberOrString::Number(-7);
        let id = marked(&one, "0/3", Some(number.clone()));
        assert_eq!(id, "r1.0/3.n-7");
        assert_eq!(
            one.name(&id),
            Named::Here {
                event: "0/3",
                request: Some(number.clone())
            }
        );
        assert_eq!(
            two.name(&id),
            Named::Elsewhere {
                standalone: false,
                request: Some(number)
            }
        );
        // The standalone stream names no request; rmcp's own ids pass through.
        assert_eq!(marked(&one, "4", None), "r1.4");
        assert_eq!(
            one.name("r1.4"),
            Named::Here {
                event: "4",
                request: None
            }
        );
        assert_eq!(
            two.name("r1.4"),
            Named::Elsewhere {
                standalone: true,
                request: None
            }
        );
        assert_eq!(one.name("0/0"), Named::Unmarked("0/0"));
        // Sessions not shared: rmcp's ids as they are.
        let plain = futures::stream::iter([ServerSseMessage::priming("0/3", Default::default())]);
        let events: Vec<_> = futures::executor::block_on(super::marked(None, plain).collect());
        assert_eq!(events[0].event_id.as_deref(), Some("0/3"));
        // The end of a lost answer, on any replica.
        let lost = one.lost(NumberOrString::Number(3));
        let lost_id = lost.event_id.as_deref().expect("an id");
        assert_eq!(
            (one.name(lost_id), two.name(lost_id)),
            (Named::Lost, Named::Lost)
        );
        // Two processes draw two tags.
        assert_ne!(Replica::new().tag, two.tag);
    }

    #[test]
    fn a_string_request_id_survives_the_event_id_and_a_long_one_is_left_out() {
        let one = Replica::with_tag("r1".into());
        for text in ["abc-1_2", "a.b c\n%ü\"", ""] {
            let request = NumberOrString::String(text.into());
            let id = marked(&one, "1/0", Some(request.clone()));
            // An id that fits in a header and in an SSE line.
            assert!(id.bytes().all(|b| b.is_ascii_graphic()), "{id}");
            assert_eq!(
                two_named(&id),
                Named::Elsewhere {
                    standalone: false,
                    request: Some(request)
                },
                "{id}"
            );
        }
        let long = NumberOrString::String("x".repeat(MAX_REQUEST_BYTES).into());
        let id = marked(&one, "1/0", Some(long));
        assert_eq!(id, "r1.1/0");
        let unnamed = Named::Elsewhere {
            standalone: false,
            request: None,
        };
        assert_eq!(two_named(&id), unnamed);
        // A malformed request part names none.
        for bad in [
            "r1.1/0.s%G0",
            "r1.1/0.s%4",
            "r1.1/0.nx",
            "r1.1/0.q",
            "r1.1/0.s%FF",
        ] {
            assert_eq!(two_named(bad), unnamed, "{bad}");
        }
    }

    fn two_named(id: &str) -> Named<'_> {
        Replica::with_tag("r2".into()).name(id)
    }
}
