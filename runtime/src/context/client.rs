//! Requests from a tool body to the client: what is checked before one is sent (a client, its
//! protocol, its capability), the wait for the answer (bounded by the call's cancellation),
//! [`ClientError`], and sampling (`sampling/createMessage`).

use std::fmt;

use rmcp::model::{CancelledNotificationParam, ClientCapabilities, ClientResult, ServerRequest};
use rmcp::service::PeerRequestOptions;

use rmcp::model::InputRequest;

use super::Context;
use super::input::Round;
use super::link::Link;
use crate::ToolError;
use crate::audit::Via;

/// How a question reached the person who answered it: an elicitation request (its JSON-RPC id),
/// a call's round (the call's id across its rounds, sealed in its `requestState`) or a task's
/// (its id). An approval's audit line names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AskedBy {
    pub(crate) via: Via,
    pub(crate) id: String,
}

/// How long a call without a deadline waits for the client to answer a sampling or elicitation
/// request (10 minutes: a person may be filling in a form) before it gives up with
/// [`ClientError::TimedOut`]. A call with a deadline waits at most until it.
pub const CLIENT_ANSWER_LIMIT: std::time::Duration = std::time::Duration::from_secs(600);

/// Why a request to the client ([`Context::sample`], [`Context::elicit`]) got no usable answer.
///
/// Its message is written for the model (and the user) reading the tool's result, and it
/// converts into a [`ToolError`], so a body can use `?`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClientError {
    /// The call was made in-process ([`Toolbox::call`](crate::Toolbox::call), the CLI's
    /// `call`): there is no client to ask.
    NoClient {
        /// What the body asked for: `"sampling"` or `"elicitation"`.
        request: &'static str,
    },
    /// The client did not declare the capability the request needs.
    NotSupported {
        /// What the body asked for: `"sampling"` or `"elicitation"`.
        request: &'static str,
        /// The capability it lacks: `sampling`, `elicitation` or `elicitation.form`.
        capability: &'static str,
    },
    /// The client speaks MCP protocol 2026-07-28 or later, where a server sends no requests to
    /// the client while a tool runs, and the call is served by a handler that does not run
    /// multi-round-trip requests (a router of your own from
    /// [`Toolbox::into_tool_router`](crate::Toolbox::into_tool_router)).
    Protocol {
        /// What the body asked for: `"sampling"` or `"elicitation"`.
        request: &'static str,
        /// The protocol version of the call.
        version: String,
    },
    /// The call was told to stop (its deadline passed, or the client cancelled it) before the
    /// client answered.
    Cancelled,
    /// On protocol 2026-07-28 or later: the question went to the client in this call's result
    /// (`input_required`), and the call runs again from its start when the client answers. A
    /// sync body gets this from its question and should return at once; an async body never
    /// sees it (it is dropped where it asked).
    InputRequired {
        /// What the body asked for: `"sampling"`, `"elicitation"` or `"roots"`.
        request: &'static str,
    },
    /// The client did not answer within [`CLIENT_ANSWER_LIMIT`] (a call without a deadline: one
    /// with a deadline is told to stop at it, [`ClientError::Cancelled`]).
    TimedOut {
        /// What the body asked for: `"sampling"` or `"elicitation"`.
        request: &'static str,
    },
    /// The client answered, but not with what was asked: the problems, in words.
    InvalidAnswer(String),
    /// The request cannot be sent as the body made it (a bug in the tool, not in the client):
    /// a type or schema [`Context::elicit`] or [`Context::elicit_with_schema`] cannot make a
    /// form of, or sampling parameters rmcp refuses.
    InvalidRequest {
        /// What the body asked for: `"sampling"` or `"elicitation"`.
        request: &'static str,
        /// What is wrong with it.
        problem: String,
    },
    /// The request failed: the connection broke, or the client answered with an error.
    Failed {
        /// What the body asked for: `"sampling"` or `"elicitation"`.
        request: &'static str,
        /// The error, as rmcp reports it.
        error: String,
    },
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::NoClient { request } => write!(
                f,
                "no client: this call was made in-process, so there is no client to ask for \
                 {request}"
            ),
            ClientError::NotSupported {
                request,
                capability,
            } => write!(
                f,
                "the client does not support {request} (it did not declare the `{capability}` \
                 capability)"
            ),
            ClientError::Protocol { request, version } => write!(
                f,
                "the client uses MCP protocol {version}; on protocol 2026-07-28 or later a \
                 server cannot send {request} requests to the client while a tool runs"
            ),
            ClientError::Cancelled => {
                f.write_str("the call was cancelled while waiting for the client")
            }
            ClientError::InputRequired { request } => write!(
                f,
                "the {request} request went to the client with this call's result; the call \
                 runs again with the answer"
            ),
            ClientError::TimedOut { request } => write!(
                f,
                "the client did not answer the {request} request in {} s",
                CLIENT_ANSWER_LIMIT.as_secs()
            ),
            ClientError::InvalidAnswer(problems) => {
                write!(f, "the client's answer is invalid: {problems}")
            }
            ClientError::InvalidRequest { request, problem } => {
                write!(f, "cannot send the {request} request: {problem}")
            }
            ClientError::Failed { request, error } => {
                write!(f, "the {request} request to the client failed: {error}")
            }
        }
    }
}

impl std::error::Error for ClientError {}

impl From<ClientError> for ToolError {
    fn from(error: ClientError) -> Self {
        ToolError::new(error.to_string())
    }
}

/// A request to the client, with the capability it needs.
#[derive(Clone, Copy)]
pub(super) enum Request {
    Sampling,
    Elicitation,
    Roots,
}

impl Request {
    fn name(self) -> &'static str {
        match self {
            Request::Sampling => "sampling",
            Request::Elicitation => "elicitation",
            Request::Roots => "roots",
        }
    }

    /// The capability the client lacks for this request, if it lacks one.
    fn missing_capability(self, capabilities: &ClientCapabilities) -> Option<&'static str> {
        match self {
            Request::Sampling => capabilities.sampling.is_none().then_some("sampling"),
            Request::Roots => capabilities.roots.is_none().then_some("roots"),
            // An `elicitation: {}` that names no mode means form (rmcp and the spec agree).
            Request::Elicitation => match &capabilities.elicitation {
                None => Some("elicitation"),
                Some(e) if e.form.is_none() && e.url.is_some() => Some("elicitation.form"),
                Some(_) => None,
            },
        }
    }
}

impl Context {
    /// The client connection to send `request` on, once the call has a client, its protocol
    /// allows server-to-client requests, and the client declared the capability.
    pub(super) fn link_for(&self, request: Request) -> Result<&Link, ClientError> {
        let link = self.inner.link.as_ref().ok_or(ClientError::NoClient {
            request: request.name(),
        })?;
        if link.on_2026_protocol() && self.inner.round.is_none() {
            // Served by a handler that does not run multi-round-trip requests.
            return Err(ClientError::Protocol {
                request: request.name(),
                version: link.protocol().map(|v| v.to_string()).unwrap_or_default(),
            });
        }
        if let Some(capability) = link.with_capabilities(|c| request.missing_capability(c)) {
            if let Some(round) = &self.inner.round {
                // A body that cannot do without it fails its call with -32021 (toolbox/call.rs).
                round.note_missing(capability);
            }
            return Err(ClientError::NotSupported {
                request: request.name(),
                capability,
            });
        }
        Ok(link)
    }

    /// Sends `message` and waits for the client's answer, unless the call is told to stop
    /// first: then the client is told the request is cancelled (`notifications/cancelled`, so
    /// it can close its form or stop its model), and the answer is dropped when it comes.
    ///
    /// On protocol 2026-07-28 the question is answered from the call's round instead, or ends
    /// it (see `input.rs`); `key` names the question there.
    pub(super) async fn send(
        &self,
        link: &Link,
        request: Request,
        message: ServerRequest,
        key: &str,
    ) -> Result<(ClientResult, AskedBy), ClientError> {
        let failed = |e: rmcp::ServiceError| ClientError::Failed {
            request: request.name(),
            error: e.to_string(),
        };
        if self.is_cancelled() {
            return Err(ClientError::Cancelled);
        }
        if let Some(round) = &self.inner.round
            && link.on_2026_protocol()
        {
            let answer = self.ask_in_round(round, request, message, key).await?;
            let (id, _) = round.id();
            let via = if round.for_a_task() {
                Via::Task
            } else {
                Via::Round
            };
            return Ok((
                answer,
                AskedBy {
                    via,
                    id: id.to_owned(),
                },
            ));
        }
        let handle = link
            .peer
            .send_cancellable_request(message, PeerRequestOptions::no_options())
            .await
            .map_err(failed)?;
        let id = handle.id.clone();
        let stop = |reason: String| {
            let cancel = CancelledNotificationParam::new(Some(id.clone()), Some(reason));
            let peer = link.peer.clone();
            async move {
                if let Err(e) = peer.notify_cancelled(cancel).await {
                    tracing::debug!(error = %e, "cancellation not delivered to the client");
                }
            }
        };
        tokio::select! {
            biased;
            () = self.cancelled() => {
                stop(format!("the tool `{}` stopped waiting: its call was cancelled", self.tool_name())).await;
                Err(ClientError::Cancelled)
            }
            // A call without a deadline still does not wait forever (it may hold a resource
            // other calls queue for).
            () = tokio::time::sleep(CLIENT_ANSWER_LIMIT), if self.deadline().is_none() => {
                stop(format!("the tool `{}` stopped waiting: no answer in {} s", self.tool_name(), CLIENT_ANSWER_LIMIT.as_secs())).await;
                Err(ClientError::TimedOut { request: request.name() })
            }
            answer = handle.await_response() => answer.map_err(failed).map(|answer| {
                (answer, AskedBy { via: Via::Elicitation, id: id.to_string() })
            }),
        }
    }

    /// A question on protocol 2026-07-28: its answer from the round, or the end of the round.
    async fn ask_in_round(
        &self,
        round: &Round,
        request: Request,
        message: ServerRequest,
        key: &str,
    ) -> Result<ClientResult, ClientError> {
        let question = match message {
            ServerRequest::CreateMessageRequest(r) => InputRequest::CreateMessage(r),
            ServerRequest::ElicitRequest(r) => InputRequest::Elicitation(r),
            ServerRequest::ListRootsRequest(r) => InputRequest::ListRoots(r),
            other => {
                return Err(ClientError::InvalidRequest {
                    request: request.name(),
                    problem: format!("{other:?} cannot be asked in a round"),
                });
            }
        };
        if let Some((key, answer)) = round.answer(key, question.clone()) {
            let parsed = match request {
                Request::Elicitation => {
                    serde_json::from_value(answer).map(ClientResult::ElicitResult)
                }
                Request::Sampling => serde_json::from_value(answer)
                    .map(|r| ClientResult::CreateMessageResult(Box::new(r))),
                Request::Roots => serde_json::from_value(answer).map(ClientResult::ListRootsResult),
            };
            match parsed {
                Ok(result) => return Ok(result),
                Err(e) => {
                    // Not an answer to this question: it is asked again.
                    tracing::debug!(key, error = %e, "unusable input response");
                    round.unusable(&key, question);
                }
            }
        }
        // The round ends here: an async body is dropped while it waits; a sync one is told.
        self.cancelled().await;
        Err(ClientError::InputRequired {
            request: request.name(),
        })
    }

    /// Asks the client for its roots (`roots/list`): the directories or files it lets the
    /// server work in.
    ///
    /// Fails like [`Context::sample`], for the `roots` capability.
    // rmcp's roots types are deprecated by SEP-2577 (roots are deprecated on protocol
    // 2026-07-28, still served): toolwright still serves the clients that use them.
    #[allow(deprecated)]
    pub async fn list_roots(&self) -> Result<Vec<rmcp::model::Root>, ClientError> {
        let link = self.link_for(Request::Roots)?;
        let message = ServerRequest::ListRootsRequest(rmcp::model::ListRootsRequest::default());
        match self.send(link, Request::Roots, message, "roots").await?.0 {
            ClientResult::ListRootsResult(result) => Ok(result.roots),
            other => Err(unexpected(&other)),
        }
    }

    /// Asks the client's model to answer `prompt` (MCP sampling, `sampling/createMessage`) in
    /// at most `max_tokens` tokens, and returns the text of its answer.
    ///
    /// Fails with a [`ClientError`] saying why when the call was made in-process, when the
    /// client did not declare the `sampling` capability, when the call is told to stop before
    /// the answer comes, or when the answer holds no text. On protocol 2026-07-28 the question
    /// goes out with the call's result (key `sampling`) and the body runs again with the answer
    /// (see [`Context`]).
    ///
    /// ```rust,no_run
    /// # use toolwright::{Context, ToolError, tool};
    /// /// Summarize the arm's error log.
    /// #[tool]
    /// async fn summarize_errors(ctx: Context) -> Result<String, ToolError> {
    ///     let log = "E42 joint 3 overcurrent\nE42 joint 3 overcurrent\nE07 gripper timeout";
    ///     let summary = ctx.sample(format!("Summarize in one line:\n{log}"), 100).await?;
    ///     Ok(summary)
    /// }
    /// ```
    pub async fn sample(
        &self,
        prompt: impl Into<String>,
        max_tokens: u32,
    ) -> Result<String, ClientError> {
        // rmcp's sampling types are deprecated by SEP-2577 (protocol 2026-07-28 replaces
        // server-to-client requests): toolwright still serves the clients that use them.
        #[allow(deprecated)]
        let params = {
            use rmcp::model::{
                CreateMessageRequestParams, Role, SamplingMessage, SamplingMessageContentBlock,
            };
            CreateMessageRequestParams::new(
                vec![SamplingMessage::new(
                    Role::User,
                    SamplingMessageContentBlock::text(prompt),
                )],
                max_tokens,
            )
        };
        let result = self.create_message(params).await?;
        text_of(result)
    }

    /// Sends a raw `sampling/createMessage` request (several messages, a system prompt, model
    /// preferences, …) and returns the client's whole answer, with the same checks as
    /// [`Context::sample`].
    // rmcp's sampling types are deprecated by SEP-2577 (see `sample`).
    #[allow(deprecated)]
    pub async fn create_message(
        &self,
        params: rmcp::model::CreateMessageRequestParams,
    ) -> Result<rmcp::model::CreateMessageResult, ClientError> {
        let link = self.link_for(Request::Sampling)?;
        // What rmcp's `Peer::create_message` checks, which this sends without (to be able to
        // cancel the request).
        if (params.tools.is_some() || params.tool_choice.is_some())
            && !link.with_capabilities(|c| c.sampling.as_ref().is_some_and(|s| s.tools.is_some()))
        {
            if let Some(round) = &self.inner.round {
                round.note_missing("sampling.tools");
            }
            return Err(ClientError::NotSupported {
                request: "sampling with tools",
                capability: "sampling.tools",
            });
        }
        params
            .validate()
            .map_err(|problem| ClientError::InvalidRequest {
                request: "sampling",
                problem,
            })?;
        let message = ServerRequest::CreateMessageRequest(rmcp::model::Request::new(params));
        match self
            .send(link, Request::Sampling, message, "sampling")
            .await?
            .0
        {
            ClientResult::CreateMessageResult(result) => Ok(*result),
            other => Err(unexpected(&other)),
        }
    }
}

/// An answer of the wrong kind.
pub(super) fn unexpected(answer: &ClientResult) -> ClientError {
    let kind = match answer {
        ClientResult::CreateMessageResult(_) => "a sampling result",
        ClientResult::ListRootsResult(_) => "a list of roots",
        ClientResult::ElicitResult(_) => "an elicitation result",
        ClientResult::EmptyResult(_) => "an empty result",
        _ => "a result of another kind",
    };
    ClientError::InvalidAnswer(format!("it is {kind}"))
}

/// The text of a sampling answer: its text blocks, joined by newlines.
// rmcp's sampling types are deprecated by SEP-2577 (see `Context::sample`).
#[allow(deprecated)]
fn text_of(result: rmcp::model::CreateMessageResult) -> Result<String, ClientError> {
    use rmcp::model::SamplingMessageContentBlock as Block;
    let blocks = result.message.content.into_vec();
    let mut kinds = Vec::new();
    let mut texts = Vec::new();
    for block in blocks {
        match block {
            Block::Text(t) => texts.push(t.text),
            Block::Image(_) => kinds.push("image"),
            Block::Audio(_) => kinds.push("audio"),
            Block::ToolUse(_) => kinds.push("tool_use"),
            Block::ToolResult(_) => kinds.push("tool_result"),
            _ => kinds.push("unknown"),
        }
    }
    if texts.is_empty() {
        return Err(ClientError::InvalidAnswer(if kinds.is_empty() {
            "it has no content".to_owned()
        } else {
            format!("it has no text, only {}", kinds.join(", "))
        }));
    }
    Ok(texts.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_say_what_happened() {
        let cases = [
            (
                ClientError::NotSupported {
                    request: "sampling",
                    capability: "sampling",
                },
                "the client does not support sampling (it did not declare the `sampling` capability)",
            ),
            (
                ClientError::Protocol {
                    request: "elicitation",
                    version: "2026-07-28".into(),
                },
                "the client uses MCP protocol 2026-07-28; on protocol 2026-07-28 or later a server cannot send elicitation requests to the client while a tool runs",
            ),
            (
                ClientError::NoClient {
                    request: "sampling",
                },
                "no client: this call was made in-process, so there is no client to ask for sampling",
            ),
            (
                ClientError::Cancelled,
                "the call was cancelled while waiting for the client",
            ),
            (
                ClientError::InvalidAnswer("age: must be at least 0, got -1".into()),
                "the client's answer is invalid: age: must be at least 0, got -1",
            ),
        ];
        for (error, text) in cases {
            assert_eq!(error.to_string(), text);
            assert_eq!(ToolError::from(error).message(), text);
        }
    }

    #[test]
    fn an_elicitation_capability_naming_only_url_lacks_forms() {
        use rmcp::model::{ElicitationCapability, FormElicitationCapability};
        let mut capabilities = ClientCapabilities::default();
        assert_eq!(
            Request::Elicitation.missing_capability(&capabilities),
            Some("elicitation")
        );
        capabilities.elicitation = Some(ElicitationCapability::default());
        assert_eq!(Request::Elicitation.missing_capability(&capabilities), None);
        capabilities.elicitation = Some(
            ElicitationCapability::new().with_url(rmcp::model::UrlElicitationCapability::default()),
        );
        assert_eq!(
            Request::Elicitation.missing_capability(&capabilities),
            Some("elicitation.form")
        );
        capabilities.elicitation =
            Some(ElicitationCapability::new().with_form(FormElicitationCapability::default()));
        assert_eq!(Request::Elicitation.missing_capability(&capabilities), None);
        assert_eq!(
            Request::Sampling.missing_capability(&capabilities),
            Some("sampling")
        );
    }
}
