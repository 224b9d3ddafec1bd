//! What the replicas of a server share through a store all of them see (the Redis of
//! `HttpOptions::redis`, in `crate::http`): when one is set, the toolbox counts rate limits and
//! claims approvals there instead of in its own process, and stores its tasks there too, so that
//! any replica answers `tasks/get`.

use std::time::Duration;

use futures::future::BoxFuture;
use serde_json::Value;

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

    /// Claims approval `id` for one call, for `ttl`: `false` when another call has it.
    fn claim_approval<'a>(
        &'a self,
        id: &'a str,
        ttl: Duration,
    ) -> BoxFuture<'a, Result<bool, String>>;

    /// Gives a claim back.
    fn release_approval<'a>(&'a self, id: &'a str) -> BoxFuture<'a, ()>;

    /// Stores task `id` as `tasks/get` shows it, with its owner, for `ttl`; a store that cannot
    /// be reached is logged (the replica running the task still answers for it).
    fn put_task<'a>(
        &'a self,
        id: &'a str,
        owner: Option<&'a str>,
        task: Value,
        ttl: Duration,
    ) -> BoxFuture<'a, ()>;

    /// A task another replica stored: its owner (`None`: whoever has its id) and the task.
    fn get_task<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Option<(Option<String>, Value)>>;
}
