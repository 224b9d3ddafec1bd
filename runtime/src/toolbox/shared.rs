//! What the replicas of a server share through a store all of them see (the Redis of
//! `HttpOptions::redis`, in `crate::http`): when one is set, the toolbox counts rate limits and
//! claims approvals there instead of in its own process, and stores its tasks there too, with
//! the replica running each, so that any replica answers `tasks/get` and passes a task's
//! `tasks/get`, `tasks/update` and `tasks/cancel` on to the replica that runs it.

use std::sync::Arc;

use std::time::Duration;

use futures::future::BoxFuture;
use rmcp::ErrorData;
use serde_json::Value;

use super::confirm::NotClaimed;
use crate::rate::{Denied, Rate};

/// A store shared by the replicas; a store that cannot be reached says so (rate limits: the
/// rate gate then refuses what is not read-only) or runs nothing (approvals), as each method
/// says.
pub(crate) trait SharedStore: Send + Sync {
    /// Counts a call of `client` to `tool` against the tool's and the client's limits:
    /// `Denied::Over` past one, `Denied::Unreachable` when the store cannot say.
    fn check<'a>(
        &'a self,
        client: &'a str,
        tool: &'a str,
        tool_rate: Option<Rate>,
        client_rate: Option<Rate>,
    ) -> BoxFuture<'a, Result<(), Denied>>;

    /// Records that the question of the call `id` (its confirmation, on protocol 2026-07-28)
    /// was asked, for `ttl`: only an approval whose question is recorded can be claimed, so an
    /// approval from before the store's record began (Redis restarted or was flushed) runs
    /// nothing. A used approval is not asked for again.
    fn asked_approval<'a>(
        &'a self,
        id: &'a str,
        ttl: Duration,
    ) -> BoxFuture<'a, Result<(), String>>;

    /// Claims approval `id`, presented in the state whose id is `presented`, for one call, for
    /// `ttl`: `Err(NotClaimed)` when a call used it or uses it now (unless it was carried to
    /// that very state), or when its question is not on record.
    fn claim_approval<'a>(
        &'a self,
        id: &'a str,
        presented: &'a str,
        ttl: Duration,
    ) -> BoxFuture<'a, Result<Result<(), NotClaimed>, String>>;

    /// Carries a claimed approval to the call's next round: the state `state` alone claims it
    /// again, within `ttl`.
    fn carry_approval<'a>(
        &'a self,
        id: &'a str,
        state: &'a str,
        ttl: Duration,
    ) -> BoxFuture<'a, ()>;

    /// Stores task `id` as `tasks/get` shows it, with its owner, for `ttl`; a store that cannot
    /// be reached is logged (the replica running the task still answers for it).
    fn put_task<'a>(
        &'a self,
        id: &'a str,
        owner: Option<&'a str>,
        task: Value,
        ttl: Duration,
    ) -> BoxFuture<'a, ()>;

    /// A task a replica stored (`None`: no such task, or the store cannot say, logged).
    fn get_task<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Option<StoredTask>>;

    /// This replica's id, stored with the tasks it runs.
    fn replica(&self) -> &str;

    /// Passes a request for a task to the replica `runner` that runs it: its answer.
    fn ask_task<'a>(
        &'a self,
        runner: &'a str,
        ask: RemoteTask,
    ) -> BoxFuture<'a, Result<Value, Forwarded>>;

    /// Answers the requests other replicas pass on for this replica's tasks with `handler`.
    fn answer_tasks(&self, handler: TaskHandler);
}

/// A task as a replica stored it.
pub(crate) struct StoredTask {
    /// Who may see it (`None`: whoever has its id).
    pub(crate) owner: Option<String>,
    /// As `tasks/get` shows it.
    pub(crate) task: Value,
    /// The replica that runs it (`None`: stored by a replica before they said).
    pub(crate) replica: Option<String>,
}

/// What another replica asks of a task this one runs.
pub(crate) enum RemoteOp {
    Get,
    Cancel,
    /// `tasks/update`'s `inputResponses`.
    Update(Value),
}

/// A request for a task, passed on by the replica that received it.
pub(crate) struct RemoteTask {
    pub(crate) op: RemoteOp,
    pub(crate) task: String,
    /// Who asked, as the task's owner is written (the runner checks it again).
    pub(crate) owner: Option<String>,
}

/// Why a request passed on to the task's replica has no answer from it.
pub(crate) enum Forwarded {
    /// The runner refused it (no such task for this owner, ..): its error, as it would answer.
    Refused(ErrorData),
    /// The runner could not be reached, or did not answer in time.
    Unreachable(String),
}

/// What answers the requests other replicas pass on: the JSON of the result, or the error.
pub(crate) type TaskHandler =
    Arc<dyn Fn(RemoteTask) -> BoxFuture<'static, Result<Value, ErrorData>> + Send + Sync>;
