//! What the replicas of a server share through a store all of them see (the Redis of
//! `HttpOptions::redis`, in `crate::http`): when one is set, the toolbox counts rate limits and
//! claims approvals there instead of in its own process, and stores its tasks there too, so that
//! any replica answers `tasks/get`.

use std::time::Duration;

use futures::future::BoxFuture;
use serde_json::Value;

use crate::rate::{Limited, Rate};

/// A store shared by the replicas; a store that cannot be reached lets calls through (rate
/// limits) or runs nothing (approvals), as each method says.
pub(crate) trait SharedStore: Send + Sync {
    /// Counts a call of `client` to `tool` against the tool's and the client's limits; a store
    /// that cannot be reached lets the call through.
    fn check<'a>(
        &'a self,
        client: &'a str,
        tool: &'a str,
        tool_rate: Option<Rate>,
        client_rate: Option<Rate>,
    ) -> BoxFuture<'a, Result<(), Limited>>;

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
