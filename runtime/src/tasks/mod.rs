//! MCP tasks: a call of a tool declared with `#[tool(task = "optional" | "required")]` that the
//! client polls instead of waiting for (protocol 2026-07-28's `io.modelcontextprotocol/tasks`
//! extension, SEP-2663).
//!
//! - [`TaskSupport`] is what a tool declares; [`TaskLimits`] bound the store.
//! - `store.rs`: the records of this process's tasks (status, result, who may read them), bounded
//!   by a time to live, a maximum per client and a maximum in total.
//! - The runner, which runs a task's body under the same contract as a call (its resources in
//!   their queues' order, deadline, retries, cancel → grace → safe stop), is in
//!   `toolbox/tasks.rs`, next to the call path it shares.

use std::time::Duration;

pub(crate) mod legacy;
mod store;

pub(crate) use store::{Answers, Finished, Record, Stopping, Tasks};

/// The `_meta` key, on a tool definition, of its task support (`"optional"` or `"required"`):
/// whether a call of it may (must) run as a task.
pub const TASK_SUPPORT_META: &str = "io.toolwright/taskSupport";

/// The `_meta` key, on a task (what creating it and `tasks/get` answer), of its lease in
/// milliseconds: a task that holds a resource with a safe stop is cancelled, and the safe stop
/// runs, when its client asks after it (`tasks/get`, `tasks/update`) less often than that.
pub const TASK_LEASE_META: &str = "io.toolwright/leaseMs";

/// Whether a call of a tool may run as a task (`#[tool(task = "..")]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TaskSupport {
    /// Never a task (the default): the call answers when it ends.
    #[default]
    Forbidden,
    /// A task when the client supports tasks; else a plain call.
    Optional,
    /// Always a task: a client that does not support tasks is refused (`-32021`).
    Required,
}

impl TaskSupport {
    /// The name the protocol gives it (`execution.taskSupport`).
    pub fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Forbidden => "forbidden",
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }
}

/// The bounds of a toolbox's tasks
/// ([`ToolboxBuilder::with_task_limits`](crate::ToolboxBuilder::with_task_limits)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct TaskLimits {
    /// How long a task's record is kept from its creation (`ttlMs`); a task still running then
    /// is kept until it ends. Default 1 hour.
    pub ttl: Duration,
    /// How often clients should poll (`pollIntervalMs`). Default 500 ms.
    pub poll_interval: Duration,
    /// Tasks one client may have unfinished at once. Default 8.
    pub max_per_client: usize,
    /// Task records kept at once, finished or not. Default 1024.
    pub max_total: usize,
    /// On protocol 2026-07-28, how long a call of a task tool runs before it becomes a task: one
    /// that ends sooner answers at once, one that asks its user sooner asks in the request
    /// (`input_required`). Zero: a task at once. Default 250 ms.
    pub promote_after: Duration,
    /// How long a task that holds a resource with a safe stop may go without its client asking
    /// after it (`tasks/get` or `tasks/update`; on protocol 2025-11-25 `tasks/get` or a
    /// `tasks/result` waiting for it) before it is cancelled and the safe stop runs: the task's
    /// dead-man. Published in the task's `_meta` ([`TASK_LEASE_META`]). Default 10 s; keep it
    /// a few poll intervals long.
    pub lease: Duration,
}

impl Default for TaskLimits {
    fn default() -> Self {
        TaskLimits {
            ttl: Duration::from_secs(3600),
            poll_interval: Duration::from_millis(500),
            max_per_client: 8,
            max_total: 1024,
            promote_after: Duration::from_millis(250),
            lease: Duration::from_secs(10),
        }
    }
}

impl TaskLimits {
    /// Sets [`TaskLimits::ttl`].
    #[must_use]
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// Sets [`TaskLimits::poll_interval`].
    #[must_use]
    pub fn with_poll_interval(mut self, every: Duration) -> Self {
        self.poll_interval = every;
        self
    }

    /// Sets [`TaskLimits::max_per_client`].
    #[must_use]
    pub fn with_max_per_client(mut self, max: usize) -> Self {
        self.max_per_client = max;
        self
    }

    /// Sets [`TaskLimits::max_total`].
    #[must_use]
    pub fn with_max_total(mut self, max: usize) -> Self {
        self.max_total = max;
        self
    }

    /// Sets [`TaskLimits::promote_after`].
    #[must_use]
    pub fn with_promote_after(mut self, after: Duration) -> Self {
        self.promote_after = after;
        self
    }

    /// Sets [`TaskLimits::lease`].
    #[must_use]
    pub fn with_lease(mut self, lease: Duration) -> Self {
        self.lease = lease;
        self
    }
}

/// An ISO 8601 timestamp (UTC, milliseconds) of `time`: the audit log's format.
pub(crate) fn iso8601(time: std::time::SystemTime) -> String {
    crate::audit::rfc3339(time)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_iso_8601_in_utc() {
        let t = std::time::UNIX_EPOCH + Duration::from_millis(1_764_604_800_123);
        assert_eq!(iso8601(t), "2025-12-01T16:00:00.123Z");
        assert_eq!(iso8601(std::time::UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let leap = std::time::UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(iso8601(leap), "2000-02-29T00:00:00.000Z");
    }
}
