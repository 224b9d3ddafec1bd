//! A toolbox's settings: server info, strictness, limits, deadlines and grace periods, set with
//! the `with_*` methods before the toolbox is cloned or served.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use super::build::inner_policy;
use super::{Inner, Toolbox};
use crate::context::RequestStateKeys;
use crate::exec::policy::Resource;
use crate::exec::queue::ResourceQueue;
use crate::rate::Rate;
use crate::validate::Coercion;

pub(super) struct Config {
    pub(super) name: Cow<'static, str>,
    pub(super) version: Cow<'static, str>,
    pub(super) title: Option<String>,
    pub(super) instructions: Option<String>,
    pub(super) coercion: Coercion,
    pub(super) default_timeout: Option<Duration>,
    pub(super) default_grace: Option<Duration>,
    pub(super) client_rate_limit: Option<Rate>,
    pub(super) concurrency: Option<Arc<Semaphore>>,
    pub(super) max_argument_bytes: usize,
    /// Check every result against the tool's `outputSchema` ([`Toolbox::with_output_checks`]).
    pub(super) output_checks: bool,
    /// What seals `requestState` ([`Toolbox::with_request_state_keys`]).
    pub(super) request_state: RequestStateKeys,
    /// How long a sealed `requestState` is good for, when set apart from the keys
    /// ([`Toolbox::with_request_state_ttl`]).
    pub(super) request_state_ttl: Option<Duration>,
    /// The operating skill it serves ([`Toolbox::with_skill`]).
    pub(super) skill: Option<super::skill::SkillConfig>,
    /// Where calls of tools that are not read-only are recorded ([`Toolbox::with_audit_log`]).
    pub(super) audit: Option<Arc<crate::audit::AuditLog>>,
}

impl<S: Send + Sync + 'static> Toolbox<S> {
    pub(super) fn inner_mut(&mut self) -> &mut Inner<S> {
        Arc::get_mut(&mut self.inner).expect("configure a Toolbox before cloning it or serving it")
    }

    /// Sets the server name and version sent to clients at initialization.
    #[must_use]
    pub fn with_server_info(
        mut self,
        name: impl Into<Cow<'static, str>>,
        version: impl Into<Cow<'static, str>>,
    ) -> Self {
        let config = &mut self.inner_mut().config;
        config.name = name.into();
        config.version = version.into();
        self
    }

    /// Bounds the tasks of tools declared with `#[tool(task = "..")]`: how long a record is
    /// kept, how many a client may have unfinished and how many are held in total (past
    /// either, a call that would start one is refused with an error that says so).
    #[must_use]
    pub fn with_task_limits(mut self, limits: crate::TaskLimits) -> Self {
        self.inner_mut().tasks = crate::tasks::Tasks::new(limits);
        self
    }

    /// Sets a human-readable server title.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.inner_mut().config.title = Some(title.into());
        self
    }

    /// Sets the instructions sent to clients at initialization (how to use these tools together).
    #[must_use]
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        self.inner_mut().config.instructions = Some(instructions.into());
        self
    }

    /// Refuses arguments that would need coercion (`"15"` for a number, `5.0` for an integer,
    /// `"true"` for a boolean, `null` for an optional argument). The default is lax.
    #[must_use]
    pub fn strict(mut self, strict: bool) -> Self {
        self.inner_mut().config.coercion = if strict {
            Coercion::Strict
        } else {
            Coercion::Lax
        };
        self
    }

    /// Refuses, before validating them, arguments larger than `max_bytes` serialized as compact
    /// JSON (default [`DEFAULT_MAX_ARGUMENT_BYTES`], 1 MiB): the call gets an `isError` result
    /// giving the size and the limit, and asking for smaller arguments. `usize::MAX` turns the
    /// check off. (Transports have limits of their own: rmcp's stdio transport drops lines over
    /// 16 MiB.)
    #[must_use]
    pub fn with_max_argument_bytes(mut self, max_bytes: usize) -> Self {
        self.inner_mut().config.max_argument_bytes = max_bytes;
        self
    }

    /// Checks every successful result against its tool's published `outputSchema` before it is
    /// sent (on by default in debug builds, so in tests; off in release builds): a result that
    /// does not match is a bug in the tool, and the call gets an `isError` result naming what is
    /// wrong (and a `tracing` error) instead of a result that contradicts the schema.
    #[must_use]
    pub fn with_output_checks(mut self, on: bool) -> Self {
        self.inner_mut().config.output_checks = on;
        self
    }

    /// The argument limit ([`Toolbox::with_max_argument_bytes`]).
    #[cfg(feature = "http")]
    pub(crate) fn max_argument_bytes(&self) -> usize {
        self.inner.config.max_argument_bytes
    }

    /// The deadline of tools that declare no `timeout`: the toolbox's `#[toolbox(timeout = ..)]`
    /// or [`Toolbox::with_default_timeout`] (`None`: no deadline).
    pub fn default_timeout(&self) -> Option<Duration> {
        self.inner.config.default_timeout
    }

    /// The deadline of tools that declare no `timeout` (default: none).
    #[must_use]
    pub fn with_default_timeout(mut self, timeout: Duration) -> Self {
        self.inner_mut().config.default_timeout = Some(timeout);
        self
    }

    /// The grace period of tools that declare none (default 1 s): how long a body told to stop (deadline, cancel) has to return before it is
    /// abandoned and the safe stops of its resources run.
    #[must_use]
    pub fn with_default_grace(mut self, grace: Duration) -> Self {
        self.inner_mut().config.default_grace = Some(grace);
        self
    }

    /// Limits the calls one client may make to all tools together (`describe_tool` excepted);
    /// past it a call is refused at once with a retryable `isError` saying how long to wait.
    /// A tool's own `#[tool(rate_limit = "..")]` applies as well. Over HTTP a client is the
    /// authenticated principal (else the session, else the peer address); over stdio, the
    /// connection.
    #[must_use]
    pub fn with_client_rate_limit(mut self, rate: Rate) -> Self {
        self.inner_mut().config.client_rate_limit = Some(rate);
        self
    }

    /// Sets how many calls may wait for `resource` behind the one using it (default 16, or the
    /// toolbox's `resource(name = "..", max_waiting = N)`); a call arriving when that many wait
    /// is refused at once with a retryable error. Call it after the tools are added.
    #[must_use]
    pub fn with_max_waiting(mut self, resource: &str, max_waiting: usize) -> Self {
        let inner = self.inner_mut();
        let Some(old) = inner.resources.get(resource) else {
            panic!("no tool of this toolbox uses resource `{resource}`");
        };
        let queue = Arc::new(ResourceQueue::new(
            Arc::clone(old.queue.name()),
            max_waiting,
        ));
        let new = Arc::new(Resource {
            queue,
            safe_stop: old.safe_stop,
        });
        inner
            .resources
            .insert(Arc::clone(new.queue.name()), Arc::clone(&new));
        for entry in &mut inner.entries {
            if entry
                .policy
                .resources
                .iter()
                .any(|r| **r.queue.name() == *resource)
            {
                entry.policy = inner_policy(&inner.resources, &entry.meta);
            }
        }
        self
    }

    /// Sets the keys that seal and open the `requestState` of multi-round-trip requests
    /// (protocol 2026-07-28: a tool body that asks its user, or the client's model, answers
    /// `input_required`, and the client calls again with its answers and the state).
    ///
    /// By default a toolbox makes a random key when it is built, which is right for one process.
    /// Replicas behind one address must be given the same keys, or a state one sealed is
    /// refused by the others (the command line's `serve --request-state-keys FILE`).
    #[must_use]
    pub fn with_request_state_keys(mut self, keys: RequestStateKeys) -> Self {
        let config = &mut self.inner_mut().config;
        config.request_state = match config.request_state_ttl {
            Some(ttl) => keys.with_ttl(ttl),
            None => keys,
        };
        self
    }

    /// How long a sealed `requestState` is good for (default
    /// [`DEFAULT_REQUEST_STATE_TTL`](crate::DEFAULT_REQUEST_STATE_TTL), 10 minutes), whatever
    /// keys seal it: on protocol 2026-07-28 it is also how long a user has to answer a question,
    /// and so how long a confirmation given in one round stays good for (the command line's
    /// `serve --request-state-ttl`). A state older than that is refused, and nothing runs.
    #[must_use]
    pub fn with_request_state_ttl(mut self, ttl: Duration) -> Self {
        let config = &mut self.inner_mut().config;
        config.request_state_ttl = Some(ttl);
        config.request_state = config.request_state.clone().with_ttl(ttl);
        self
    }

    /// Serves only the tools declared `read_only` (look, do not touch: for a model that should
    /// only observe): the others are neither listed nor run, and a call to one is refused with
    /// an `isError` result saying the server is read-only (the command line's
    /// `serve --read-only`). Set it before serving.
    #[must_use]
    pub fn with_read_only(self, on: bool) -> Self {
        self.inner
            .read_only
            .store(on, std::sync::atomic::Ordering::Relaxed);
        self.inner.refresh_listed();
        self
    }

    /// Whether the user confirms each call of a tool declared with `confirm = ".."` before its
    /// body runs (on by default). Turn it off only where no one needs to confirm: a simulation,
    /// a test rig (the command line's `serve --confirm=off`).
    ///
    /// Unlike the other settings it may be changed on a toolbox already cloned or served: it
    /// applies to the calls that start after it.
    #[must_use]
    pub fn with_confirmation(self, on: bool) -> Self {
        self.set_confirmation(on);
        self
    }

    pub(crate) fn set_confirmation(&self, on: bool) {
        self.inner
            .confirm
            .store(on, std::sync::atomic::Ordering::Relaxed);
    }

    /// Records every call of a tool that is not `read_only` in `log`: one line per call, with
    /// its arguments, caller, confirmation and outcome, chained by SHA-256 and written to disk
    /// before the call's answer is sent (the command line's `serve --audit-log PATH`). See
    /// [`crate::audit`]: what a line holds, and what happens when one cannot be written.
    #[must_use]
    pub fn with_audit_log(mut self, log: crate::audit::AuditLog) -> Self {
        self.inner_mut().config.audit = Some(Arc::new(log));
        self
    }

    /// Caps how many calls run at once across all tools; further calls wait in arrival order.
    #[must_use]
    pub fn with_max_concurrency(mut self, max: usize) -> Self {
        self.inner_mut().config.concurrency = Some(Arc::new(Semaphore::new(max.max(1))));
        self
    }
}

/// The default of [`Toolbox::with_max_argument_bytes`]: 1 MiB.
pub const DEFAULT_MAX_ARGUMENT_BYTES: usize = 1 << 20;
