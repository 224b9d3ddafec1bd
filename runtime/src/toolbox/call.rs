//! The call path: find the tool (or refuse it as unknown), take the call through its gates
//! (`gates/`: the order in which a call is refused, confirmed or started as a task), run the
//! body through [`crate::exec`], and shape its output into the `tools/call` result with its
//! `_meta` keys.

use crate::telemetry::mcp::{self, NoteValue};
use std::sync::Arc;

use rmcp::model::{
    CallToolResponse, CallToolResult, ContentBlock, InputRequiredResult, JsonObject, MetaObject,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::Value;
use tracing::Instrument as _;

#[cfg(feature = "http")]
use super::Requester;
use super::describe::DESCRIBE_TOOL;
use super::{Entry, Inner, Toolbox, read};
use crate::audit::Receipt;
use crate::context::{Link, Returned, Round, Session, new_trace_id};
use crate::contract::{RETRYABLE_META, TRACE_ID_META};
use crate::exec::arrival::{Arrival, Arrivals, Stamp};
use crate::exec::{self, Outcome};

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// Runs one tool in-process, exactly as a `tools/call` would: unknown tools give the same
    /// `-32602` error, invalid arguments the same `isError` result.
    pub async fn call(
        &self,
        name: &str,
        arguments: Option<JsonObject>,
    ) -> Result<CallToolResult, ErrorData> {
        match Inner::call(&self.inner, name, arguments, CallSite::default()).await? {
            CallToolResponse::Complete(result) => Ok(result),
            // In-process calls have no client to ask, so no round and no task.
            other => Err(ErrorData::internal_error(
                format!("an in-process call answered {other:?}"),
                None,
            )),
        }
    }
}

/// What a call answers: its result, a round's questions (protocol 2026-07-28), or a
/// JSON-RPC error for a request that cannot be run.
///
/// The rare answers are boxed: every future of a call holds one (see `a_call_future_stays_small`).
pub(super) enum Response {
    Result(CallToolResult),
    InputRequired(Box<InputRequiredResult>),
    Refused(Box<ErrorData>),
    /// The call runs as a task (protocol 2026-07-28): the task as created.
    Task(Box<rmcp::model::CreateTaskResult>),
}

impl From<CallToolResult> for Response {
    fn from(result: CallToolResult) -> Self {
        Response::Result(result)
    }
}

impl<S: Send + Sync + 'static> Arrivals for Inner<S> {
    fn arrive(&self, tool: &str) -> Option<Stamp> {
        let &i = self.index.get(tool)?;
        let entry = &self.entries[i];
        if entry.policy.queues.is_empty() || !self.is_enabled(entry) {
            return None;
        }
        Some(Stamp {
            tool: i,
            places: exec::queue::enqueue(&entry.policy.queues, &self.arrival),
        })
    }

    fn supervises(&self, tool: &str) -> bool {
        self.index
            .get(tool)
            .is_some_and(|&i| self.entries[i].policy.supervised)
    }
}

impl<S: Send + Sync + 'static> Inner<S> {
    /// A call to a tool that changes something, on a read-only server: refused, and nothing ran.
    #[cold]
    fn read_only_refusal(&self, name: &str) -> CallToolResult {
        tracing::info!(tool = name, "refused: the server is read-only");
        CallToolResult::error(vec![ContentBlock::text(format!(
            "Tool `{name}` was not run: this server is read-only (it was started to observe, \
             not to act), so it serves only the tools that change nothing: {}. Ask the user to \
             do what `{name}` would do, or to connect you to a server that may act",
            self.available()
        ))])
    }

    fn available(&self) -> String {
        read(&self.listed)
            .iter()
            .map(|t| t.name.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn unknown_tool(&self, name: &str) -> ErrorData {
        let available = read(&self.listed)
            .iter()
            .map(|t| t.name.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        ErrorData::invalid_params(
            format!(
                "unknown tool {}; available tools: {available}",
                crate::echo::echo(name)
            ),
            None,
        )
    }

    pub(super) async fn call(
        this: &Arc<Self>,
        name: &str,
        arguments: Option<JsonObject>,
        mut site: CallSite,
    ) -> Result<CallToolResponse, ErrorData> {
        // The transport found the tool already when it stamped the call.
        let stamped = site
            .stamped_tool
            .filter(|&i| this.entries.get(i).is_some_and(|e| *e.name == *name));
        let entry = match stamped.or_else(|| this.index.get(name).copied()) {
            Some(i) if this.is_enabled(&this.entries[i]) => &this.entries[i],
            Some(i) if this.is_read_only() && this.entries[i].meta.read_only != Some(true) => {
                return Ok(this.read_only_refusal(name).into());
            }
            _ => match &this.describe {
                Some(d) if name == DESCRIBE_TOOL => d,
                _ => return Err(this.unknown_tool(name)),
            },
        };
        // Counted until the call (and its safe stops) ended: see `CallsInFlight`.
        let _in_flight = this.calls.token();
        let trace_id = site.trace_id.take().unwrap_or_else(new_trace_id);
        let span = tracing::info_span!(
            "tool_call",
            tool = name,
            trace_id = %trace_id,
            outcome = tracing::field::Empty,
            duration_us = tracing::field::Empty,
        );
        // Timed only when someone listens (a clock read costs as much as a small tool).
        let started = (!span.is_disabled()).then(std::time::Instant::now);
        let trace_value = Value::from(trace_id.as_str());
        // `with_audit_log`: a line for every call of a tool that is not read-only (crate::audit).
        let mut receipt = match this.receipt(entry, &trace_id, &site) {
            Ok(receipt) => receipt,
            Err(refused) => {
                let result = CallToolResult::error(vec![ContentBlock::text(refused)]);
                return Ok(result.with_meta(Some(traced(None, trace_value))).into());
            }
        };
        let admitted = Self::admit(this, entry, arguments, site, trace_id, &mut receipt)
            .instrument(span.clone())
            .await;
        let (outcome, mut result) = match admitted {
            Err(stop) => stop,
            // Executed once `admit`'s future is gone, so the two never share the call's future.
            Ok(mut ready) => {
                Self::execute(
                    this,
                    entry,
                    &mut ready.map,
                    &mut ready.request,
                    &mut ready.site,
                    &mut ready.trace_id,
                    &ready.round,
                    &ready.claimed,
                    None,
                    &mut receipt,
                )
                .instrument(span.clone())
                .await
            }
        };
        if let Some(started) = started {
            let elapsed = started.elapsed();
            span.record("outcome", outcome);
            span.record("duration_us", elapsed.as_micros() as u64);
            span.in_scope(|| tracing::debug!(outcome, ?elapsed, "tool call finished"));
        }
        note_call(entry, outcome, &result);
        if let Some(receipt) = receipt.take()
            && let Err(why) = Box::pin(receipt.finish(outcome, audit_text(&result))).await
        {
            // The call happened: its answer goes out, saying it has no record.
            let warning = crate::audit::unrecorded(&why);
            match &mut result {
                Response::Result(result) => result.content.push(ContentBlock::text(warning)),
                Response::Refused(error) => {
                    error.message = format!("{}; {warning}", error.message).into();
                }
                Response::InputRequired(_) | Response::Task(_) => {}
            }
        }
        match result {
            Response::Result(mut result) => {
                let meta = traced(result.meta.take(), trace_value);
                Ok(result.with_meta(Some(meta)).into())
            }
            Response::InputRequired(mut asked) => {
                let meta = traced(asked.meta.take(), trace_value);
                Ok(asked.with_meta(meta).into())
            }
            Response::Refused(error) => Err(*error),
            Response::Task(task) => Ok(CallToolResponse::Task(*task)),
        }
    }

    /// The audit line of a call of `entry`, when there is an audit log and the tool is not
    /// read-only; or, when the log can no longer be written, why the call is refused.
    fn receipt(
        &self,
        entry: &Entry<S>,
        trace_id: &str,
        site: &CallSite,
    ) -> Result<Option<Box<Receipt>>, String> {
        let is_describe = self
            .describe
            .as_ref()
            .is_some_and(|d| std::ptr::eq(d, entry));
        match &self.config.audit {
            Some(log) if entry.meta.read_only != Some(true) && !is_describe => {
                if let Some(refused) = log.refusal(&entry.name) {
                    return Err(refused);
                }
                let asks = entry.meta.confirm.is_some()
                    && self.confirm.load(std::sync::atomic::Ordering::Relaxed);
                let principal = match &site.client {
                    Client::Principal(p) => Some(Arc::clone(p)),
                    _ => None,
                };
                let receipt = Receipt::new(log, &entry.name, trace_id, principal, asks);
                Ok(Some(receipt))
            }
            _ => Ok(None),
        }
    }

    /// Runs the body of a validated call (as `task`, if it is one) and shapes its result; the
    /// stop tool that stopped it, if one did, goes on its audit line (`receipt`).
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn execute(
        this: &Arc<Self>,
        entry: &Entry<S>,
        // Borrowed, and taken here: moved in, they would be held twice by every call's future.
        map: &mut serde_json::Map<String, Value>,
        request: &mut crate::output::ResultRequest,
        site: &mut CallSite,
        trace_id: &mut String,
        round: &Option<Arc<Round>>,
        claimed: &Option<String>,
        task: Option<Arc<crate::tasks::Record>>,
        receipt: &mut Option<Box<Receipt>>,
    ) -> (&'static str, Response) {
        let name = &*entry.name;
        // A stop tool (`stop_for`) takes no permit, and stops the calls on its resources.
        let stop = !entry.policy.stops.is_empty();
        // The envelope and the tool's check, again at the call's turn: the motions ahead of it
        // moved the resource since the gates checked it.
        let turn = (entry.target.is_some() || entry.check.is_some()).then(|| {
            Box::new(AtTurn {
                entry,
                points: site.points.take(),
            }) as Box<dyn exec::Turn<S> + '_>
        });
        // A task keeps its approval for its whole life: its runs after a question are its own.
        let in_task = task.is_some();
        let call = exec::Call {
            turn,
            tool: &entry.name,
            state: &this.state,
            handler: entry.handler,
            policy: &entry.policy,
            timeout: entry.policy.timeout.or(this.config.default_timeout),
            grace: entry.policy.grace.or(this.config.default_grace),
            concurrency: this.config.concurrency.as_ref().filter(|_| !stop),
            arrival: site.arrival.take(),
            client: site.cancel.clone(),
            link: site.link.take(),
            progress_token: site.progress_token.take(),
            trace_id: std::mem::take(trace_id),
            arrival_lock: &this.arrival,
            calls: &this.calls,
            round: round.clone(),
            task,
        };
        if stop {
            exec::stop_queues(entry.meta.name, &entry.policy.stops);
        }
        let ran = exec::run(call, std::mem::take(map)).await;
        if stop {
            let stops = exec::stop_resources(&this.calls, &this.state, &entry.policy.stops).await;
            tracing::info!(?stops, "the stop tool ran the safe stops");
        }
        // Protocol 2026-07-28: a body that failed after asking for something the client did not
        // declare fails the request with -32021, naming the capability (SEP-2575).
        if let (Some(round), "tool_error") = (round, ran.0)
            && let Some(capability) = round.missing()
        {
            return (
                "missing_capability",
                Response::Refused(Box::new(ErrorData::missing_required_client_capability(
                    required_capability(capability),
                ))),
            );
        }
        if let (Some(id), Some(round), Outcome::InputRequired(_), false) =
            (claimed, round, &ran.1, in_task)
        {
            // The body asked its user too: the approval goes on to the call's next round, in
            // the state this round's result carries (and no older one).
            if let Some(state) = round.sealed() {
                super::gates::carry_approval(this, id, &state, round.id().1, round.for_a_task())
                    .await;
            }
        }
        match ran {
            (
                outcome,
                Outcome::Value {
                    mut value,
                    answer_by,
                },
            ) => {
                if let Some(adapter) = &entry.output_adapter {
                    adapter.to_published(&mut value);
                }
                let result = entry
                    .results
                    .answer(
                        name,
                        value,
                        std::mem::take(request),
                        entry.policy.max_output_bytes,
                        this.config.output_checks,
                        answer_by,
                    )
                    .await;
                let outcome = if result.is_error == Some(true) {
                    "broken_output"
                } else {
                    outcome
                };
                (outcome, result.into())
            }
            (outcome, Outcome::InputRequired(asked)) => (outcome, Response::InputRequired(asked)),
            (outcome, Outcome::Interrupted(interrupted)) => {
                // What the body returned, after what stopped it: an error whatever it says. (The
                // rest stays in its box while the value is shaped: every call's future would
                // hold it.)
                let mut interrupted = interrupted;
                let mut value = std::mem::take(&mut interrupted.value);
                if let (Some(by), Some(receipt)) = (interrupted.stopped_by, receipt) {
                    receipt.stopped_by(by);
                }
                if let Some(adapter) = &entry.output_adapter {
                    adapter.to_published(&mut value);
                }
                let mut result = entry
                    .results
                    .answer(
                        name,
                        value,
                        std::mem::take(request),
                        entry.policy.max_output_bytes,
                        this.config.output_checks,
                        interrupted.answer_by,
                    )
                    .await;
                let text = std::mem::take(&mut interrupted.text);
                result.content.insert(0, ContentBlock::text(text));
                result.is_error = Some(true);
                (outcome, result.into())
            }
            (
                outcome,
                Outcome::Error {
                    text,
                    retryable,
                    stopped_by,
                },
            ) => {
                if let (Some(by), Some(receipt)) = (stopped_by, receipt) {
                    receipt.stopped_by(by);
                }
                let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
                if retryable {
                    let mut meta = MetaObject::new();
                    meta.0.insert(RETRYABLE_META.to_owned(), Value::Bool(true));
                    result = result.with_meta(Some(meta));
                }
                (outcome, result.into())
            }
        }
    }
}

/// The checks a call of `entry` passes again at its turn: its target in the envelope (from
/// where the resource is then) and the tool's own check.
struct AtTurn<'a, S> {
    entry: &'a Entry<S>,
    points: Option<Box<super::target::Points>>,
}

impl<S: Send + Sync + 'static> exec::Turn<S> for AtTurn<'_, S> {
    fn check(
        &self,
        state: &S,
        args: &serde_json::Map<String, Value>,
    ) -> Result<Option<exec::Plan>, (&'static str, String)> {
        let entry = self.entry;
        let mut plan = None;
        if let (Some(target), Some(points)) = (&entry.target, self.points.as_deref()) {
            plan = target.check(state, points, args).map_err(|refused| {
                let text = super::gates::envelope_refusal(entry, Some(refused), true);
                ("outside_envelope", text)
            })?;
        }
        if let Some(check) = entry.check {
            check(state, args).map(drop).map_err(|why| {
                (
                    "check_refused",
                    super::gates::check_refusal(entry, &why, true),
                )
            })?;
        }
        Ok(plan)
    }
}

// What a call adds to its request's span (`crate::telemetry::mcp`; nothing when spans are off),
// out of line: inline, their temporaries would grow the call's future.

/// How the call ended (the audit's detail word: `ok`, `outside_envelope`, `check_refused`,
/// `not_confirmed`, `timeout`, `stopped`, …), the resources it holds, and (opted in) its result.
#[inline(never)]
fn note_call<S>(entry: &Entry<S>, outcome: &'static str, result: &Response) {
    mcp::note(|| {
        let mut notes = vec![("toolwright.outcome", NoteValue::Text(outcome.to_owned()))];
        let resources = &entry.policy.resources;
        if !resources.is_empty() {
            let names: Vec<&str> = resources.iter().map(|r| &**r.queue.name()).collect();
            notes.push(("toolwright.resource", NoteValue::Text(names.join(","))));
        }
        notes
    });
    mcp::note_content(|| {
        vec![(
            "gen_ai.tool.call.result",
            NoteValue::Text(audit_text(result)),
        )]
    });
}

/// What the model was told, for the call's audit line.
fn audit_text(response: &Response) -> String {
    match response {
        Response::Result(result) => {
            let texts: Vec<&str> = result
                .content
                .iter()
                .filter_map(|c| c.as_text())
                .map(|t| t.text.as_str())
                .collect();
            match (&texts[..], &result.structured_content) {
                ([], Some(structured)) => structured.to_string(),
                _ => texts.join("\n"),
            }
        }
        Response::Task(task) => format!(
            "runs as task {}; its end is the task's (tasks/get)",
            task.task.task_id
        ),
        Response::InputRequired(asked) => {
            let keys: Vec<&str> = asked
                .input_requests
                .iter()
                .flat_map(|r| r.keys())
                .map(String::as_str)
                .collect();
            format!(
                "input required: the client was asked ({}); the call goes on when it calls \
                 again with the answers",
                keys.join(", ")
            )
        }
        Response::Refused(error) => error.message.to_string(),
    }
}

/// The client capabilities that name `capability` (`sampling`, `sampling.tools`,
/// `elicitation`, `elicitation.form`, `roots`).
fn required_capability(capability: &str) -> rmcp::model::ClientCapabilities {
    use rmcp::model::{
        ElicitationCapability, FormElicitationCapability, RootsCapabilities, SamplingCapability,
    };
    let mut required = rmcp::model::ClientCapabilities::default();
    match capability {
        "sampling" => required.sampling = Some(SamplingCapability::default()),
        "sampling.tools" => {
            let mut sampling = SamplingCapability::default();
            sampling.tools = Some(Default::default());
            required.sampling = Some(sampling);
        }
        "elicitation.form" => {
            required.elicitation =
                Some(ElicitationCapability::new().with_form(FormElicitationCapability::default()));
        }
        "roots" => required.roots = Some(RootsCapabilities::default()),
        _ => required.elicitation = Some(ElicitationCapability::default()),
    }
    required
}

/// The client of calls that come with no identity (stdio, in-process).
pub(super) const LOCAL_CLIENT: &str = "local";

/// Where a call came from: the client connection, its progress token and cancellation.
#[derive(Default)]
pub(super) struct CallSite {
    /// The client's connection and session (`None` in-process).
    pub(super) link: Option<Link>,
    progress_token: Option<rmcp::model::ProgressToken>,
    pub(super) cancel: tokio_util::sync::CancellationToken,
    pub(super) trace_id: Option<String>,
    /// The places the call took in its resources' queues when the transport read it.
    pub(super) arrival: Option<exec::arrival::Places>,
    /// The tool's index, found when the transport read the call.
    stamped_tool: Option<usize>,
    /// Who is calling, for rate limits.
    pub(super) client: Client,
    /// On protocol 2026-07-28: the answers and state the request brought (`None`: an earlier
    /// protocol, or a handler that does not run rounds).
    pub(super) returned: Option<Box<Returned>>,
    /// The call may run as a task (`None`: it may not, the client does not take tasks).
    pub(super) task: Option<Box<super::tasks::TaskAsk>>,
    /// Where it moves its resource (`target`, `path`; gate `envelope`), checked again at its
    /// turn. Boxed: only the calls of such tools have one.
    pub(super) points: Option<Box<super::target::Points>>,
}

/// `meta` with the call's trace id ([`TRACE_ID_META`]). Most answers carry no `_meta` of their
/// own: theirs is a copy of one made once, its one value replaced (an insert hashes the key
/// and grows the map; a copy of a map with one entry does neither).
fn traced(meta: Option<MetaObject>, trace: Value) -> MetaObject {
    static ONLY_TRACE: std::sync::LazyLock<MetaObject> = std::sync::LazyLock::new(|| {
        let mut meta = MetaObject::new();
        meta.0.insert(TRACE_ID_META.to_owned(), Value::Null);
        meta
    });
    match meta {
        Some(mut meta) => {
            meta.0.insert(TRACE_ID_META.to_owned(), trace);
            meta
        }
        None => {
            let mut meta = ONLY_TRACE.clone();
            if let Some(value) = meta.0.values_mut().next() {
                *value = trace;
            }
            meta
        }
    }
}

impl CallSite {
    /// The call site of a request; `session` is the session of the toolbox serving it (`None`
    /// for a handler of your own, through [`Toolbox::into_tool_router`]).
    pub(super) fn from_request(
        context: &RequestContext<RoleServer>,
        request_meta: Option<&rmcp::model::RequestMetaObject>,
        session: Option<Arc<Session>>,
    ) -> Self {
        let progress_token = request_meta
            .and_then(|m| m.get_progress_token())
            .or_else(|| context.meta.get_progress_token());
        // W3C trace context (SEP-414): adopt the client's trace id when it sends one.
        let trace_id = request_meta
            .and_then(|m| m.get_traceparent())
            .or_else(|| context.meta.get_traceparent())
            .and_then(|tp| tp.split('-').nth(1))
            .filter(|id| id.len() == 32)
            .map(str::to_owned);
        let stamp = context.extensions.get::<Arrival>().and_then(Arrival::take);
        let (stamped_tool, arrival) = match stamp {
            Some(s) => (Some(s.tool), Some(s.places)),
            None => (None, None),
        };
        #[cfg(feature = "http")]
        let over_http = context.extensions.get::<http::request::Parts>().is_some();
        #[cfg(not(feature = "http"))]
        let over_http = false;
        let link = Link::from_request(context, request_meta, session, over_http);
        CallSite {
            returned: None,
            task: None,
            points: None,
            link: Some(link),
            progress_token,
            cancel: context.ct.clone(),
            trace_id,
            arrival,
            stamped_tool,
            client: client_of(context),
        }
    }
}

/// Who is calling, as the transport said; its key (for rate limits, the audit log) is written
/// only when one is needed.
#[derive(Default)]
pub(super) enum Client {
    /// The local client (stdio, in-process).
    #[default]
    Local,
    /// The authenticated principal.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    Principal(Arc<str>),
    /// The connection's peer, without authentication: its address (not its session, which a
    /// client picks anew as often as it likes, nor its port).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    Address(std::net::IpAddr),
}

/// The address a client without authentication is counted by: an IPv4 address (an IPv4-mapped
/// IPv6 one as IPv4), an IPv6 address's /64 (one host's subnet: a client holding one has
/// 2^64 addresses to hop between).
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) fn address_key(ip: std::net::IpAddr) -> String {
    use std::net::IpAddr;
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let prefix = u128::from(v6) & !((1u128 << 64) - 1);
                format!("{}/64", std::net::Ipv6Addr::from(prefix))
            }
        },
    }
}

impl Client {
    /// The key rate limits count under (`None`: the local client).
    pub(super) fn key(&self) -> Option<Arc<str>> {
        match self {
            Client::Local => None,
            Client::Principal(p) => Some(Arc::clone(p)),
            Client::Address(ip) => Some(Arc::from(format!("address {}", address_key(*ip)))),
        }
    }
}

impl CallSite {
    /// Takes the request's answers and state: its questions are answered in rounds (protocol
    /// 2026-07-28 and later; earlier protocols ask the client directly).
    pub(super) fn with_rounds(
        mut self,
        context: &RequestContext<RoleServer>,
        request_state: Option<String>,
        input_responses: Option<rmcp::model::InputResponses>,
    ) -> Self {
        if self.link.as_ref().is_some_and(Link::on_2026_protocol) {
            self.returned = Some(Box::new(Returned {
                request_state,
                input_responses,
                principal: principal_of(context),
            }));
        }
        self
    }
}

/// Who owns a task a request creates: the authenticated principal, else the MCP session (over
/// HTTP, `None` without either: whoever has the task's id), else the connection (stdio, any
/// other transport: `session` is the connection's).
pub(super) fn task_owner(
    context: &RequestContext<RoleServer>,
    session: Option<&Arc<Session>>,
) -> Option<Arc<str>> {
    #[cfg(feature = "http")]
    if context.extensions.get::<http::request::Parts>().is_some() {
        let who = Requester::of(context)?;
        if let Some(principal) = &who.principal {
            return Some(Arc::clone(principal));
        }
        return who
            .session
            .as_ref()
            .map(|session| Arc::from(format!("session {session}")));
    }
    let _ = context;
    session.map(connection_owner)
}

/// Who owns the tasks created on a connection (stdio, any other transport) whose session is
/// `session`.
pub(super) fn connection_owner(session: &Arc<Session>) -> Arc<str> {
    Arc::from(format!("connection {:p}", Arc::as_ptr(session)))
}

/// The authenticated principal of a request over HTTP (`None`: no authentication).
#[cfg(feature = "http")]
fn principal_of(context: &RequestContext<RoleServer>) -> Option<Arc<str>> {
    Requester::of(context)?.principal.clone()
}

#[cfg(not(feature = "http"))]
fn principal_of(_context: &RequestContext<RoleServer>) -> Option<Arc<str>> {
    None
}

/// Who is calling, for rate limits and quotas: over HTTP, the authenticated principal, else
/// the peer's address (a client without a token that opens a new session for each call is
/// still one client); the local client over stdio.
#[cfg(feature = "http")]
fn client_of(context: &RequestContext<RoleServer>) -> Client {
    let Some(who) = Requester::of(context) else {
        return Client::Local;
    };
    if let Some(principal) = &who.principal {
        return Client::Principal(Arc::clone(principal));
    }
    who.peer
        .map_or(Client::Local, |peer| Client::Address(peer.ip()))
}

#[cfg(not(feature = "http"))]
fn client_of(_context: &RequestContext<RoleServer>) -> Client {
    Client::Local
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client without a token is its address; an IPv6 one its /64.
    #[test]
    fn an_address_is_counted_by_its_host_or_its_ipv6_subnet() {
        let key = |s: &str| address_key(s.parse().unwrap());
        assert_eq!(key("10.0.4.17"), "10.0.4.17");
        assert_eq!(key("::ffff:10.0.4.17"), "10.0.4.17");
        assert_eq!(key("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
        assert_eq!(
            key("2001:db8:1:2:ffff:ffff:ffff:ffff"),
            key("2001:db8:1:2::9")
        );
        assert_ne!(key("2001:db8:1:3::1"), key("2001:db8:1:2::1"));
        assert_eq!(key("::1"), "::/64");
    }

    /// Every answer's `_meta` carries its trace id, next to what the answer had already.
    #[test]
    fn an_answers_meta_gets_the_trace_id_and_keeps_its_own() {
        let alone = traced(None, Value::from("t-1"));
        assert_eq!(
            serde_json::to_value(&alone).unwrap(),
            serde_json::json!({TRACE_ID_META: "t-1"})
        );
        // The copy is the answer's own: the next one starts from a clean map.
        let next = traced(None, Value::from("t-2"));
        assert_eq!(next.0.get(TRACE_ID_META), Some(&Value::from("t-2")));
        assert_eq!(alone.0.get(TRACE_ID_META), Some(&Value::from("t-1")));
        let mut own = MetaObject::new();
        own.0.insert("x.example/k".to_owned(), Value::from(1));
        let both = traced(Some(own), Value::from("t-3"));
        assert_eq!(
            serde_json::to_value(&both).unwrap(),
            serde_json::json!({"x.example/k": 1, TRACE_ID_META: "t-3"})
        );
    }

    /// The size of the future `make` would return, without making it.
    fn future_size<F>(_make: impl FnOnce() -> F) -> usize {
        std::mem::size_of::<F>()
    }

    /// rmcp spawns each request as a tokio task, which copies the request's future (rmcp's
    /// `handle_request`, holding the call's) into the task: every byte of the call's state
    /// held across an await is copied per call. Issue 17's client link once grew it by 1.8 KB
    /// (+36 % instructions per call, BENCHMARKS.md); what a call carries goes behind a pointer.
    /// The bounds are this toolchain's debug-build sizes (2,872 and 6,272 bytes since rounds and
    /// confirmation, whose rare parts are boxed; 2,736 and 6,128 before) plus room. Since issue
    /// 26, `call_tool` boxes the call's future: `handle_request`'s is rmcp's own size (4,256
    /// bytes), and the stateless wire, which spawns more tasks per call, no longer copies the
    /// call's state with each (-25 % instructions per call there, BENCHMARKS.md). Tasks share
    /// the body's run (`Inner::execute`): `Inner::call` awaits it after `Inner::admit`'s future
    /// is gone (awaited from `admit`, the two shared the future: 3,200 bytes). Issue 34's
    /// envelopes added 64 bytes (3,032 to 3,096): the points checked again at the call's turn
    /// (boxed, in `CallSite`) and the boxed turn check in `exec::Call`. Issue 34's supervision
    /// 48 more (3,144): the receipt `execute` names a stop tool on, the wait a deadline reports,
    /// the reason a call was told to stop (its rare paths boxed: `exec::wind_down`,
    /// `exec::wait_turn`, `exec::Interrupted`). What a body returned while a stop tool was
    /// stopping its resource, answered as stopped (boxed), 24 more (3,168).
    #[test]
    #[allow(unreachable_code, unused_variables)]
    fn a_call_future_stays_small() {
        let call = future_size(|| Inner::<()>::call(unreachable!(), "", None, CallSite::default()));
        let request = future_size(|| {
            <Toolbox as rmcp::Service<RoleServer>>::handle_request(
                unreachable!(),
                unreachable!(),
                unreachable!(),
            )
        });
        eprintln!(
            "future sizes (debug build): Inner::call {call} bytes, handle_request {request} bytes"
        );
        assert!(
            call <= 3 * 1024 + 128,
            "Inner::call's future is {call} bytes"
        );
        assert!(
            request <= 4 * 1024 + 512,
            "handle_request's future is {request} bytes"
        );
    }
}
