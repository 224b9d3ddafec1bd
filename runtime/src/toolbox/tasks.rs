//! Running a call as a task (see `crate::tasks`): the same contract as a call, because it is one.
//!
//! The body runs through [`Inner::execute`], like any call, with the task's own cancellation
//! token in place of the request's: `tasks/cancel` (or the deadline, or a stop tool) tells the
//! body to stop, waits out its grace period and runs the resources' safe stops, exactly once,
//! before the task is marked `cancelled`. A disconnect does not end the request's task, but a
//! task that holds a resource with a safe stop has a lease ([`TaskLimits::lease`]): when its
//! client stops asking after it for that long, it is cancelled the same way (over stdio, whose
//! tasks no other connection can read, at once when the connection closes). A body that asks its user a
//! question (protocol 2026-07-28) ends its run there, as in a round: the task goes
//! `input_required`, and once `tasks/update` brought every answer the body runs again from its
//! start with them.
//!
//! On protocol 2026-07-28 the call first runs in its request for
//! [`TaskLimits::promote_after`](crate::TaskLimits::promote_after): a call that ends sooner
//! answers as a plain call, one that asks sooner answers `input_required` (a round), and only
//! then does it become a task.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{CancelTaskParams, ErrorCode, GetTaskParams, GetTaskResult, UpdateTaskParams};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{Map, Value};

use super::call::{CallSite, Response, task_owner};
use super::{Entry, Inner, Toolbox};
use crate::context::{Round, new_trace_id};
use crate::output::ResultRequest;
use crate::tasks::{Finished, Record, Stopping, TASK_LEASE_META, TaskSupport};

/// A call that may run as a task: who will own it, and on protocol 2026-07-28 how long it runs
/// in its request first.
pub(crate) struct TaskAsk {
    pub(crate) owner: Option<Arc<str>>,
    /// `None`: a task at once (the client asked for one).
    pub(crate) promote_after: Option<Duration>,
}

impl<S: Send + Sync + 'static> Inner<S> {
    /// Creates the task of a validated call and starts it; answers with the task, or (protocol
    /// 2026-07-28) with the call's own answer when it came within the promotion window.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn start_task(
        this: &Arc<Self>,
        entry: &Entry<S>,
        map: Map<String, Value>,
        request: ResultRequest,
        mut site: CallSite,
        trace_id: String,
        round: Option<Arc<Round>>,
        claimed: Option<String>,
        ask: TaskAsk,
    ) -> (&'static str, Response) {
        let leased = entry.policy.supervised;
        let record = match this.tasks.create(ask.owner, leased) {
            Ok(record) => record,
            Err(refusal) => {
                let error = ErrorData::new(
                    ErrorCode(-32000),
                    refusal.message(&entry.name),
                    Some(serde_json::json!({ "retryable": true })),
                );
                return ("task_refused", Response::Refused(Box::new(error)));
            }
        };
        // The task's own token: a disconnect, or the end of the request, cancels nothing.
        site.cancel = record.cancel.clone();
        let link = site.link.clone();
        // Checked again at each run's turn (a run after `tasks/update` included).
        let points = site.points.clone();
        let index = entry.index;
        let inner = Arc::clone(this);
        let args = map.clone();
        let mut first = Box::pin(run(
            Arc::clone(this),
            index,
            map,
            request.clone(),
            site,
            trace_id,
            round,
            claimed,
            Arc::clone(&record),
        ));
        if let Some(after) = ask.promote_after.filter(|after| !after.is_zero()) {
            tokio::select! {
                biased;
                ran = &mut first => {
                    this.tasks.remove(&record.id);
                    return ran;
                }
                () = tokio::time::sleep(after) => {}
            }
        }
        let mut created = record.created();
        if let Some(lease) = record.lease() {
            created.meta = Some(lease_meta(lease));
            // The dead-man: a client that stops asking after the task stops it.
            let watched = Arc::clone(&record);
            tokio::spawn(async move {
                watched.lease_expired().await;
                tracing::warn!(task_id = %watched.id, ?lease, "nobody asked after the task within its lease: stopping it");
                watched.stop(Stopping::LeaseExpired);
            });
        }
        // With replicas, the task is in Redis before the client hears of it, and follows it.
        #[cfg(feature = "redis")]
        if let Some(redis) = this.shared.get() {
            share(&**redis, &record).await;
            let (redis, record) = (Arc::clone(redis), Arc::clone(&record));
            tokio::spawn(async move {
                let mut last = None;
                loop {
                    let done = record.is_terminal();
                    let now = serde_json::to_value(record.detailed()).ok();
                    if now != last {
                        share(&*redis, &record).await;
                        last = now;
                    }
                    if done {
                        return;
                    }
                    record
                        .changed(Duration::from_millis(record.poll_interval_ms()))
                        .await;
                }
            });
        }
        let in_flight = this.calls.token();
        // The stops of its resources so far: a stop tool that runs while the task waits for its
        // user's answer (holding no place in a queue) voids the approval it runs on.
        let stops = this.entries[index].policy.stops();
        // Still the request's span's context: the body's spans stay its children.
        tokio::spawn(crate::telemetry::mcp::carry_future(async move {
            let _in_flight = in_flight;
            let ran = first.await;
            drive(
                inner, index, args, request, link, points, record, ran, stops,
            )
            .await;
        }));
        ("task", Response::Task(Box::new(created)))
    }
}

/// Stores the task as it is now in the store the replicas share (their Redis).
#[cfg(feature = "redis")]
async fn share(redis: &dyn super::SharedStore, record: &Record) {
    let task = serde_json::to_value(record.detailed()).unwrap_or_default();
    redis
        .put_task(
            &record.id,
            record.owner(),
            task,
            Duration::from_millis(record.ttl_ms()),
        )
        .await;
}

/// One run of the task's body, as a call.
#[allow(clippy::too_many_arguments)]
async fn run<S: Send + Sync + 'static>(
    inner: Arc<Inner<S>>,
    index: usize,
    mut map: Map<String, Value>,
    mut request: ResultRequest,
    mut site: CallSite,
    mut trace_id: String,
    round: Option<Arc<Round>>,
    claimed: Option<String>,
    record: Arc<Record>,
) -> (&'static str, Response) {
    let entry = &inner.entries[index];
    let span = tracing::info_span!(
        "task",
        tool = &*entry.name,
        task_id = %record.id,
        trace_id = %trace_id
    );
    tracing::Instrument::instrument(
        Inner::execute(
            &inner,
            entry,
            &mut map,
            &mut request,
            &mut site,
            &mut trace_id,
            &round,
            &claimed,
            Some(record),
            &mut None,
        ),
        span,
    )
    .await
}

/// Takes the task from its first run to its end: its questions answered through
/// `tasks/update`, its body run again with them, and its record finished once.
#[allow(clippy::too_many_arguments)]
async fn drive<S: Send + Sync + 'static>(
    inner: Arc<Inner<S>>,
    index: usize,
    args: Map<String, Value>,
    request: ResultRequest,
    link: Option<crate::context::Link>,
    points: Option<Box<super::target::Points>>,
    record: Arc<Record>,
    mut ran: (&'static str, Response),
    stops: Vec<u64>,
) {
    // Told to stop while it held a resource with a safe stop, past its deadline too: cancelled.
    let supervised = inner.entries[index].policy.supervised;
    loop {
        match ran {
            (outcome, Response::Result(result)) => {
                record.finish(match outcome {
                    // Cancelled, its lease ran out, its connection closed, the server shut
                    // down, or a stop tool (`stop_for`) stopped it, waiting or running.
                    "cancelled" | "stopped" | "client_gone" | "lease_expired" | "shutdown" => {
                        Finished::Cancelled(text_of(&result))
                    }
                    "timeout" if supervised => Finished::Cancelled(text_of(&result)),
                    "panic" => Finished::Failed(ErrorData::internal_error(text_of(&result), None)),
                    _ => Finished::Completed(result),
                });
                return;
            }
            (_, Response::Refused(error)) => {
                record.finish(Finished::Failed(*error));
                return;
            }
            (_, Response::Task(_)) => {
                record.finish(Finished::Failed(ErrorData::internal_error(
                    "a task's run answered with another task",
                    None,
                )));
                return;
            }
            (_, Response::InputRequired(asked)) => {
                record.ask(asked.input_requests.unwrap_or_default());
                if !record.answered().await {
                    record.finish(Finished::Cancelled(format!(
                        "`{}` was cancelled while it waited for its user's answer; its body was \
                         not running (its resources' safe stops ran when it asked)",
                        inner.entries[index].name
                    )));
                    return;
                }
                // A stop tool ran while it waited: what it was approved for no longer holds.
                let entry = &inner.entries[index];
                if let Some((queue, by)) = entry.policy.stopped_since(&stops) {
                    record.finish(Finished::Cancelled(format!(
                        "cancelled by `{by}`: `{}` was waiting for its user's answer when `{by}` \
                         stopped `{}`, so the approval it ran on no longer counts; its body did \
                         not run again. Call it again only if it is still wanted: the user is \
                         asked again",
                        entry.name,
                        queue.name()
                    )));
                    return;
                }
                let round =
                    Round::for_task(&inner.config.request_state, &record.id, record.answers());
                let mut site = CallSite::default();
                site.cancel = record.cancel.clone();
                site.link = link.clone();
                site.points = points.clone();
                ran = run(
                    Arc::clone(&inner),
                    index,
                    args.clone(),
                    request.clone(),
                    site,
                    new_trace_id(),
                    Some(Arc::new(round)),
                    None,
                    Arc::clone(&record),
                )
                .await;
            }
        }
    }
}

/// The text of a result's first text block.
fn text_of(result: &rmcp::model::CallToolResult) -> String {
    result
        .content
        .iter()
        .find_map(|block| block.as_text().map(|t| t.text.clone()))
        .unwrap_or_default()
}

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// Whether any tool may run as a task.
    pub(crate) fn serves_tasks(&self) -> bool {
        self.inner
            .entries
            .iter()
            .any(|e| e.meta.task != TaskSupport::Forbidden)
    }

    /// What a plain `tools/call` request may run as a server-directed task: only a protocol
    /// 2026-07-28 request whose own `_meta` declares the tasks extension (SEP-2663).
    ///
    /// A 2025-11-25 session never gets one, whatever extensions its `initialize` listed: on
    /// that revision a task exists only for a task-augmented request (`params.task`, see
    /// `crate::tasks::legacy`), and its clients cannot read a `resultType: "task"` answer
    /// (the MCP Inspector declares the extension in its 2025-11-25 handshake).
    pub(super) fn task_ask(&self, context: &RequestContext<RoleServer>) -> Option<TaskAsk> {
        declares_tasks_2026(&context.meta).then(|| TaskAsk {
            owner: task_owner(context, Some(&self.session)),
            promote_after: Some(self.inner.tasks.limits().promote_after),
        })
    }

    /// The task `id` as its owner sees it; `-32602` for a task that does not exist, has expired
    /// or belongs to someone else.
    fn find_task(
        &self,
        id: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<Arc<Record>, ErrorData> {
        let owner = task_owner(context, Some(&self.session));
        self.inner.tasks.find(id, owner.as_deref()).ok_or_else(|| {
            ErrorData::invalid_params(format!("no task {}", crate::echo::echo(id)), None)
        })
    }

    /// `tasks/get` (protocol 2026-07-28): from this process, else (with replicas) from the
    /// replica that runs it, asked through Redis (its lease starts again there too); when that
    /// replica does not answer, the task as it last stored it in Redis. Its lease starts again.
    pub(super) async fn get_task_now(
        &self,
        request: &GetTaskParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let not_here = match self.find_task(&request.task_id, context) {
            Ok(record) => {
                record.polled();
                return Ok(got(&record));
            }
            Err(e) => e,
        };
        #[cfg(feature = "redis")]
        if let Some((redis, stored, owner)) = self.stored_task(&request.task_id, context).await {
            let ask = RemoteTask {
                op: RemoteOp::Get,
                task: request.task_id.clone(),
                owner,
            };
            match self.forward(&**redis, &stored, ask).await {
                Some(Ok(value)) => {
                    return serde_json::from_value(value).map_err(|e| {
                        ErrorData::internal_error(format!("the task's replica answered: {e}"), None)
                    });
                }
                Some(Err(Forwarded::Refused(error))) => return Err(error),
                Some(Err(Forwarded::Unreachable(why))) => {
                    tracing::warn!(task_id = %crate::echo::echo(&request.task_id), %why, "tasks/get: the task's replica does not answer; answering as it last stored the task");
                }
                None => {}
            }
            if let Ok(task) = serde_json::from_value::<rmcp::model::DetailedTask>(stored.task) {
                return Ok(GetTaskResult::new(task));
            }
        }
        Err(not_here)
    }

    /// `tasks/update` (protocol 2026-07-28): the answers to the task's questions, here or on
    /// the replica that runs it.
    pub(super) async fn update_task_now(
        &self,
        request: UpdateTaskParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let not_here = match self.find_task(&request.task_id, context) {
            Ok(record) => {
                record.polled();
                record.answer(request.input_responses);
                return Ok(());
            }
            Err(e) => e,
        };
        #[cfg(feature = "redis")]
        if let Some((redis, stored, owner)) = self.stored_task(&request.task_id, context).await {
            let ask = RemoteTask {
                op: RemoteOp::Update(
                    serde_json::to_value(&request.input_responses).unwrap_or_default(),
                ),
                task: request.task_id.clone(),
                owner,
            };
            return self
                .forwarded(&**redis, &stored, ask, "its answers were not given")
                .await;
        }
        Err(not_here)
    }

    /// `tasks/cancel`: tells the task to stop (an ended task stays as it ended), here or on the
    /// replica that runs it, where its safe stop runs. A cancel that cannot reach that replica
    /// is an error saying so: the client must not believe the motion stopped.
    pub(super) async fn cancel_task_now(
        &self,
        request: &CancelTaskParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let not_here = match self.find_task(&request.task_id, context) {
            Ok(record) => {
                record.stop(Stopping::Cancelled);
                return Ok(());
            }
            Err(e) => e,
        };
        #[cfg(feature = "redis")]
        if let Some((redis, stored, owner)) = self.stored_task(&request.task_id, context).await {
            let ended = stored
                .task
                .get("status")
                .and_then(Value::as_str)
                .is_some_and(|s| matches!(s, "completed" | "failed" | "cancelled"));
            if ended {
                return Ok(());
            }
            let ask = RemoteTask {
                op: RemoteOp::Cancel,
                task: request.task_id.clone(),
                owner,
            };
            return self
                .forwarded(&**redis, &stored, ask, "it was not told to stop")
                .await;
        }
        Err(not_here)
    }
}

/// A task as `tasks/get` answers it, its lease in `_meta`.
fn got(record: &Record) -> GetTaskResult {
    let mut result = GetTaskResult::new(record.detailed());
    result.meta = record.lease().map(lease_meta);
    result
}

#[cfg(feature = "redis")]
use super::{Forwarded, RemoteOp, RemoteTask, SharedStore, StoredTask};

#[cfg(feature = "redis")]
impl<S: Send + Sync + 'static> Toolbox<S> {
    /// A task another replica stored, if the caller may see it: the store, the task, and the
    /// caller as the task's owner is written.
    async fn stored_task(
        &self,
        id: &str,
        context: &RequestContext<RoleServer>,
    ) -> Option<(&Arc<dyn SharedStore>, StoredTask, Option<String>)> {
        let redis = self.inner.shared.get()?;
        let stored = redis.get_task(id).await?;
        let caller = task_owner(context, Some(&self.session));
        let mine = stored
            .owner
            .as_deref()
            .is_none_or(|o| caller.as_deref() == Some(o));
        mine.then(|| (redis, stored, caller.map(|c| c.to_string())))
    }

    /// Passes `ask` on to the replica that runs the task (`None`: no other replica does).
    async fn forward(
        &self,
        redis: &dyn SharedStore,
        stored: &StoredTask,
        ask: RemoteTask,
    ) -> Option<Result<Value, Forwarded>> {
        let runner = stored.replica.as_deref()?;
        if runner == redis.replica() {
            // Ours, and gone from here (expired): nothing to pass on.
            return None;
        }
        Some(redis.ask_task(runner, ask).await)
    }

    /// Passes `ask` on, for a request whose answer is nothing: `Ok` once the runner did it;
    /// otherwise its refusal, or an error saying the task's replica could not be reached and
    /// `what` (it was not told to stop, its answers were not given).
    async fn forwarded(
        &self,
        redis: &dyn SharedStore,
        stored: &StoredTask,
        ask: RemoteTask,
        what: &str,
    ) -> Result<(), ErrorData> {
        let task = ask.task.clone();
        match self.forward(redis, stored, ask).await {
            Some(Ok(_)) => Ok(()),
            Some(Err(Forwarded::Refused(error))) => Err(error),
            Some(Err(Forwarded::Unreachable(why))) => {
                tracing::error!(task_id = %crate::echo::echo(&task), %why, "a task request could not reach the task's replica");
                Err(ErrorData::internal_error(
                    format!(
                        "task {} runs on another replica, which could not be reached ({why}): \
                         {what}. Try again; if that replica stopped, its task stopped with it.",
                        crate::echo::echo(&task)
                    ),
                    Some(serde_json::json!({ "retryable": true })),
                ))
            }
            None => Err(ErrorData::invalid_params(
                format!("no task {}", crate::echo::echo(&task)),
                None,
            )),
        }
    }

    /// What answers the requests other replicas pass on for this replica's tasks: as its own
    /// client's, the owner checked again.
    pub(crate) fn remote_tasks(&self) -> super::TaskHandler {
        let inner = Arc::downgrade(&self.inner);
        Arc::new(move |ask: RemoteTask| {
            let inner = inner.clone();
            Box::pin(async move {
                let no_task = || {
                    ErrorData::invalid_params(
                        format!("no task {}", crate::echo::echo(&ask.task)),
                        None,
                    )
                };
                let inner = inner.upgrade().ok_or_else(no_task)?;
                let record = inner
                    .tasks
                    .find(&ask.task, ask.owner.as_deref())
                    .ok_or_else(no_task)?;
                match ask.op {
                    RemoteOp::Get => {
                        record.polled();
                        serde_json::to_value(got(&record))
                            .map_err(|e| ErrorData::internal_error(e.to_string(), None))
                    }
                    RemoteOp::Cancel => {
                        tracing::info!(task_id = %record.id, "tasks/cancel from another replica: stopping the task");
                        record.stop(Stopping::Cancelled);
                        Ok(Value::Null)
                    }
                    RemoteOp::Update(responses) => {
                        let responses = serde_json::from_value(responses)
                            .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
                        record.polled();
                        record.answer(responses);
                        Ok(Value::Null)
                    }
                }
            })
        })
    }
}

/// The `_meta` that publishes a task's lease ([`TASK_LEASE_META`]).
fn lease_meta(lease: Duration) -> rmcp::model::MetaObject {
    let mut meta = rmcp::model::MetaObject::new();
    meta.0.insert(
        TASK_LEASE_META.to_owned(),
        Value::from(lease.as_millis() as u64),
    );
    meta
}

/// Whether a request's own `_meta` speaks protocol 2026-07-28 (or later) and declares the tasks
/// extension among its client capabilities. Read from the raw `_meta`, not the session's
/// handshake: rmcp's `RequestContext::client_capabilities` falls back to a 2025-11-25
/// session's `initialize`, whose extensions promise nothing about 2026-07-28 tasks.
fn declares_tasks_2026(meta: &rmcp::model::RequestMetaObject) -> bool {
    use rmcp::model::ProtocolVersion;
    const CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
    meta.protocol_version()
        .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28)
        && meta
            .0
            .get(CAPABILITIES)
            .and_then(|c| c.get("extensions"))
            .and_then(Value::as_object)
            .is_some_and(|e| e.contains_key(rmcp::model::TASKS_EXTENSION_ID))
}

/// A task as protocol 2025-11-25 shows it (`ttl` and `pollInterval`, in milliseconds), with its
/// lease in `_meta` when it has one.
fn legacy_task_of(record: &Record) -> Value {
    let mut value = legacy_task(&record.task());
    if let Some(lease) = record.lease() {
        value["_meta"] = serde_json::json!({ TASK_LEASE_META: lease.as_millis() as u64 });
    }
    value
}

/// A task as protocol 2025-11-25 shows it (`ttl` and `pollInterval`, in milliseconds).
fn legacy_task(task: &rmcp::model::Task) -> Value {
    let mut value = serde_json::json!({
        "taskId": task.task_id,
        "status": task.status,
        "createdAt": task.created_at,
        "lastUpdatedAt": task.last_updated_at,
        "ttl": task.ttl_ms,
        "pollInterval": task.poll_interval_ms,
    });
    if let Some(message) = &task.status_message {
        value["statusMessage"] = Value::from(message.as_str());
    }
    value
}

/// The `_meta` key that ties a result to its task (protocol 2025-11-25).
const RELATED_TASK_META: &str = "io.modelcontextprotocol/related-task";

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// Protocol 2025-11-25's task requests (see `crate::tasks::legacy`).
    pub(super) async fn legacy_task_request(
        &self,
        request: rmcp::model::CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CustomResult, ErrorData> {
        use crate::tasks::legacy::{CALL_2025, CANCEL_2025, GET_2025};
        use rmcp::model::{CustomResult, ProtocolVersion};
        let method = request.method.as_str();
        let unknown = |params: Option<&Value>| {
            // A method rmcp knows, whose params it could not read, comes here as a custom
            // request: its params are at fault, not its name.
            if let Some(problem) = crate::wire::params_problem(method, params) {
                return ErrorData::invalid_params(problem, None);
            }
            ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!("method not found: {}", crate::echo::echo(method)),
                None,
            )
        };
        // Protocol 2026-07-28 removed tasks/result and tasks/list (SEP-2663).
        if context
            .protocol_version()
            .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28)
        {
            return Err(unknown(request.params.as_ref()));
        }
        let params = request.params.unwrap_or(Value::Null);
        let task_id = || {
            params
                .get("taskId")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| ErrorData::invalid_params("`taskId` is missing", None))
        };
        let owner = task_owner(&context, Some(&self.session));
        match method {
            CALL_2025 => {
                let call: rmcp::model::CallToolRequestParams =
                    serde_json::from_value(params.clone())
                        .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
                let task = TaskAsk {
                    owner,
                    promote_after: None,
                };
                let answer = self.traced_call(call, &context, Some(task)).await?;
                Ok(CustomResult(match answer {
                    rmcp::model::CallToolResponse::Task(created) => {
                        let mut task = serde_json::json!({ "task": legacy_task(&created.task) });
                        if let Some(meta) = &created.meta {
                            task["_meta"] = serde_json::to_value(meta).unwrap_or_default();
                        }
                        task
                    }
                    // A tool that never runs as a task answers as a plain call.
                    other => serde_json::to_value(rmcp::model::ServerResult::from(other))
                        .unwrap_or_default(),
                }))
            }
            GET_2025 => {
                let record = self.find_task(&task_id()?, &context)?;
                record.polled();
                Ok(CustomResult(legacy_task_of(&record)))
            }
            CANCEL_2025 => {
                let record = self.find_task(&task_id()?, &context)?;
                record.stop(Stopping::Cancelled);
                // The answer is the task as it is once stopped (grace period and safe stops),
                // or as it is after a while.
                let _ = tokio::time::timeout(Duration::from_secs(5), record.ended()).await;
                Ok(CustomResult(legacy_task_of(&record)))
            }
            "tasks/result" => {
                let record = self.find_task(&task_id()?, &context)?;
                // Its client is there while it waits: the lease holds.
                let waiting = record.waited_on();
                record.ended().await;
                drop(waiting);
                match record.outcome() {
                    Some(Ok(mut result)) => {
                        let meta = result
                            .entry("_meta")
                            .or_insert_with(|| Value::Object(Map::new()));
                        if let Value::Object(meta) = meta {
                            meta.insert(
                                RELATED_TASK_META.to_owned(),
                                serde_json::json!({ "taskId": record.id }),
                            );
                        }
                        Ok(CustomResult(Value::Object(result)))
                    }
                    Some(Err(error)) => Err(error),
                    None => Err(ErrorData::internal_error("the task has not ended", None)),
                }
            }
            "tasks/list" => {
                let tasks: Vec<Value> = self
                    .inner
                    .tasks
                    .list(owner.as_deref())
                    .iter()
                    .map(|r| legacy_task_of(r))
                    .collect();
                Ok(CustomResult(serde_json::json!({ "tasks": tasks })))
            }
            _ => Err(unknown(Some(&params))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::declares_tasks_2026;
    use rmcp::model::RequestMetaObject;

    fn meta(value: serde_json::Value) -> RequestMetaObject {
        serde_json::from_value(value).unwrap()
    }

    /// Server-directed tasks need a 2026-07-28 request that declared the extension itself:
    /// the MCP Inspector's 2025-11-25 handshake lists the extension, and its plain calls must
    /// stay plain (issue 33).
    #[test]
    fn only_a_2026_request_declaring_the_extension_may_become_a_task() {
        let tasks = serde_json::json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
        assert!(declares_tasks_2026(&meta(serde_json::json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": tasks,
        }))));
        // A 2026-07-28 request without the extension.
        assert!(!declares_tasks_2026(&meta(serde_json::json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        }))));
        // The capabilities without a 2026-07-28 version (a 2025-11-25 session's request).
        assert!(!declares_tasks_2026(&meta(serde_json::json!({
            "io.modelcontextprotocol/clientCapabilities": tasks,
        }))));
        assert!(!declares_tasks_2026(&meta(serde_json::json!({
            "io.modelcontextprotocol/protocolVersion": "2025-11-25",
            "io.modelcontextprotocol/clientCapabilities": tasks,
        }))));
        assert!(!declares_tasks_2026(&meta(serde_json::json!({}))));
    }
}
