//! A toolbox's settings: server info, strictness, limits, deadlines and grace periods, set with
//! the `with_*` methods of [`ToolboxBuilder`] and frozen into the toolbox's [`Config`] when it
//! is built.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use super::{Toolbox, ToolboxBuilder};
use crate::context::RequestStateKeys;
use crate::rate::Rate;
use crate::validate::Coercion;

/// The settings of a built toolbox, read by its calls.
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
    /// Check every result against the tool's `outputSchema`
    /// ([`ToolboxBuilder::with_output_checks`]).
    pub(super) output_checks: bool,
    /// What seals `requestState`, with how long a sealed state is good for
    /// ([`ToolboxBuilder::with_request_state_keys`], [`ToolboxBuilder::with_request_state_ttl`]).
    pub(super) request_state: RequestStateKeys,
    /// The operating skill it serves ([`ToolboxBuilder::with_skill`]).
    pub(super) skill: Option<super::skill::SkillConfig>,
    /// Where calls of tools that are not read-only are recorded
    /// ([`ToolboxBuilder::with_audit_log`]).
    pub(super) audit: Option<Arc<crate::audit::AuditLog>>,
    /// List and run only the tools declared `read_only` ([`ToolboxBuilder::with_read_only`]).
    pub(super) read_only: bool,
    /// How a caller turns confirmation off, in the words of what runs the toolbox (the command
    /// line's `serve` or `call`, else the builder), for the refusal of an unconfirmed call.
    pub(super) confirm_off: &'static str,
}

/// What a [`ToolboxBuilder`] was told, applied when it builds.
pub(super) struct Settings {
    pub(super) name: Cow<'static, str>,
    pub(super) version: Cow<'static, str>,
    pub(super) title: Option<String>,
    pub(super) instructions: Option<String>,
    pub(super) coercion: Coercion,
    pub(super) default_timeout: Option<Duration>,
    pub(super) default_grace: Option<Duration>,
    pub(super) client_rate_limit: Option<Rate>,
    pub(super) max_concurrency: Option<usize>,
    pub(super) max_argument_bytes: usize,
    pub(super) output_checks: bool,
    pub(super) request_state_keys: Option<RequestStateKeys>,
    pub(super) request_state_ttl: Option<Duration>,
    /// The skill's name and description, checked when the toolbox is built.
    pub(super) skill: Option<(String, String)>,
    pub(super) audit: Option<Arc<crate::audit::AuditLog>>,
    pub(super) task_limits: crate::TaskLimits,
    /// `with_max_waiting` in the order given (the last one for a resource wins).
    pub(super) max_waiting: Vec<(String, usize)>,
    pub(super) describe_tool: bool,
    /// The groups `only_groups` keeps (of several calls, the groups all of them name).
    pub(super) only_groups: Option<Vec<String>>,
    pub(super) read_only: bool,
    pub(super) confirmation: bool,
    /// An operator's narrowing of the declared envelopes ([`ToolboxBuilder::with_envelopes`]).
    pub(super) envelopes: Option<serde_json::Value>,
    pub(super) confirm_off: &'static str,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            name: Cow::Borrowed("toolwright"),
            version: Cow::Borrowed(env!("CARGO_PKG_VERSION")),
            title: None,
            instructions: None,
            coercion: Coercion::Lax,
            default_timeout: None,
            default_grace: None,
            client_rate_limit: None,
            max_concurrency: None,
            max_argument_bytes: DEFAULT_MAX_ARGUMENT_BYTES,
            output_checks: cfg!(debug_assertions),
            request_state_keys: None,
            request_state_ttl: None,
            skill: None,
            audit: None,
            task_limits: crate::TaskLimits::default(),
            max_waiting: Vec::new(),
            describe_tool: false,
            only_groups: None,
            read_only: false,
            confirmation: true,
            envelopes: None,
            confirm_off: CONFIRM_OFF_BUILDER,
        }
    }
}

impl<S: Send + Sync + 'static> ToolboxBuilder<S> {
    /// Sets the server name and version sent to clients at initialization.
    #[must_use]
    pub fn with_server_info(
        mut self,
        name: impl Into<Cow<'static, str>>,
        version: impl Into<Cow<'static, str>>,
    ) -> Self {
        self.settings.name = name.into();
        self.settings.version = version.into();
        self
    }

    /// Bounds the tasks of tools declared with `#[tool(task = "..")]`: how long a record is
    /// kept, how many a client may have unfinished and how many are held in total (past
    /// either, a call that would start one is refused with an error that says so).
    #[must_use]
    pub fn with_task_limits(mut self, limits: crate::TaskLimits) -> Self {
        self.settings.task_limits = limits;
        self
    }

    /// Sets the lease of tasks that hold a resource with a safe stop
    /// ([`TaskLimits::lease`](crate::TaskLimits::lease), 10 s by default): such a task whose
    /// client does not ask after it (`tasks/get`, `tasks/update`) within the lease is cancelled
    /// and the safe stop runs. Keep it a few poll intervals long.
    #[must_use]
    pub fn with_task_lease(mut self, lease: std::time::Duration) -> Self {
        self.settings.task_limits.lease = lease;
        self
    }

    /// Sets a human-readable server title.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.settings.title = Some(title.into());
        self
    }

    /// Sets the instructions sent to clients at initialization (how to use these tools together).
    #[must_use]
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        self.settings.instructions = Some(instructions.into());
        self
    }

    /// Refuses arguments that would need coercion (`"15"` for a number, `5.0` for an integer,
    /// `"true"` for a boolean, `null` for an optional argument). The default is lax.
    #[must_use]
    pub fn strict(mut self, strict: bool) -> Self {
        self.settings.coercion = if strict {
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
        self.settings.max_argument_bytes = max_bytes;
        self
    }

    /// Checks every successful result against its tool's published `outputSchema` before it is
    /// sent (on by default in debug builds, so in tests; off in release builds): a result that
    /// does not match is a bug in the tool, and the call gets an `isError` result naming what is
    /// wrong (and a `tracing` error) instead of a result that contradicts the schema.
    #[must_use]
    pub fn with_output_checks(mut self, on: bool) -> Self {
        self.settings.output_checks = on;
        self
    }

    /// The deadline of tools that declare no `timeout` so far: the toolbox's
    /// `#[toolbox(timeout = ..)]` or [`ToolboxBuilder::with_default_timeout`] (`None`: no
    /// deadline).
    pub fn default_timeout(&self) -> Option<Duration> {
        self.settings.default_timeout
    }

    /// The deadline of tools that declare no `timeout` (default: none).
    #[must_use]
    pub fn with_default_timeout(mut self, timeout: Duration) -> Self {
        self.settings.default_timeout = Some(timeout);
        self
    }

    /// The grace period of tools that declare none (default 1 s): how long a body told to stop
    /// (deadline, cancel) has to return before it is abandoned and the safe stops of its
    /// resources run.
    #[must_use]
    pub fn with_default_grace(mut self, grace: Duration) -> Self {
        self.settings.default_grace = Some(grace);
        self
    }

    /// Limits the calls one client may make to all tools together (`describe_tool` excepted);
    /// past it a call is refused at once with a retryable `isError` saying how long to wait.
    /// A tool's own `#[tool(rate_limit = "..")]` applies as well. Over HTTP a client is the
    /// authenticated principal (else the session, else the peer address); over stdio, the
    /// connection (the command line's `serve --client-rate-limit`).
    #[must_use]
    pub fn with_client_rate_limit(mut self, rate: Rate) -> Self {
        self.settings.client_rate_limit = Some(rate);
        self
    }

    /// Sets how many calls may wait for `resource` behind the one using it (default 16, or the
    /// toolbox's `resource(name = "..", max_waiting = N)`); a call arriving when that many wait
    /// is refused at once with a retryable error. Applied when the toolbox is built, so before or
    /// after the tools are added alike; building fails with
    /// [`BuildError::UnknownResource`](super::BuildError::UnknownResource) when no tool uses
    /// `resource` and the toolbox does not declare it.
    #[must_use]
    pub fn with_max_waiting(mut self, resource: impl Into<String>, max_waiting: usize) -> Self {
        self.settings
            .max_waiting
            .push((resource.into(), max_waiting));
        self
    }

    /// Declares a resource the tools of this builder name in `#[tool(resource = "..")]` or
    /// `stop_for = ".."`, for tools that are free functions ([`tools!`](crate::tools!)); a
    /// `#[toolbox]` type declares its own with `#[toolbox(resource(name = ".."))]`. A resource
    /// declared this way has no safe stop, position or envelope. A tool naming a resource that
    /// is declared nowhere is refused when the toolbox is built (a misspelt name would
    /// otherwise make a queue of its own, which no stop tool stops).
    #[must_use]
    pub fn with_resource(mut self, name: &'static str) -> Self {
        if !self.resources.iter().any(|r| r.name == name) {
            self.resources.push(crate::contract::ResourceDef::new(name));
        }
        self
    }

    /// Narrows the declared envelopes (an operator's `serve --envelope FILE`): a map by
    /// resource, each entry in the envelope's published unit and frame,
    /// `{"arm": {"allow": [..], "keepOut": [..], "maxStep": 400, "toolRadius": 50}}`. It may only
    /// tighten: allow shapes are added (the tool must be inside them too), keep-outs added, and
    /// `maxStep` lowered or `toolRadius` raised. Building fails with
    /// [`BuildError::Envelope`](super::BuildError::Envelope), naming the limit, when the
    /// file would widen an envelope, names a resource without one, or gives another unit or
    /// frame. The narrowed envelope is what `tools/list` publishes and what calls are checked
    /// against.
    #[must_use]
    pub fn with_envelopes(mut self, narrowing: serde_json::Value) -> Self {
        self.settings.envelopes = Some(narrowing);
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
        self.settings.request_state_keys = Some(keys);
        self
    }

    /// How long a sealed `requestState` is good for (default
    /// [`DEFAULT_REQUEST_STATE_TTL`](crate::DEFAULT_REQUEST_STATE_TTL), 10 minutes), whatever
    /// keys seal it: on protocol 2026-07-28 it is also how long a user has to answer a question,
    /// and so how long a confirmation given in one round stays good for (the command line's
    /// `serve --request-state-ttl`). A state older than that is refused, and nothing runs.
    #[must_use]
    pub fn with_request_state_ttl(mut self, ttl: Duration) -> Self {
        self.settings.request_state_ttl = Some(ttl);
        self
    }

    /// Serves only the tools declared `read_only` (look, do not touch: for a model that should
    /// only observe): the others are neither listed nor run, and a call to one is refused with
    /// an `isError` result saying the server is read-only (the command line's
    /// `serve --read-only`).
    #[must_use]
    pub fn with_read_only(mut self, on: bool) -> Self {
        self.settings.read_only = on;
        self
    }

    /// Whether the user confirms each call of a tool declared with `confirm = ".."` before its
    /// body runs (on by default). Turn it off only where no one needs to confirm: a simulation,
    /// a test rig (the command line's `serve --confirm=off`).
    ///
    /// This is where a built toolbox starts; unlike the other settings, it may be changed while
    /// the toolbox serves: [`Toolbox::set_confirmation`](super::Toolbox::set_confirmation), or
    /// [`HttpOptions::confirmation`](crate::HttpOptions::confirmation) when serving over HTTP.
    #[must_use]
    pub fn with_confirmation(mut self, on: bool) -> Self {
        self.settings.confirmation = on;
        self
    }

    /// Records every call of a tool that is not `read_only` in `log`: one line per call, with
    /// its arguments, caller, confirmation and outcome, chained by SHA-256 and written to disk
    /// before the call's answer is sent (the command line's `serve --audit-log PATH`). See
    /// [`crate::audit`]: what a line holds, and what happens when one cannot be written.
    #[must_use]
    pub fn with_audit_log(mut self, log: crate::audit::AuditLog) -> Self {
        self.settings.audit = Some(Arc::new(log));
        self
    }

    /// Caps how many calls run at once across all tools; further calls wait in arrival order.
    #[must_use]
    pub fn with_max_concurrency(mut self, max: usize) -> Self {
        self.settings.max_concurrency = Some(max);
        self
    }

    /// Serves only the tools of these groups (and tools without a group); the others stay
    /// declared but are neither listed nor callable until
    /// [`Toolbox::enable_group`](super::Toolbox::enable_group). Of several calls, the groups all
    /// of them name are kept (the command line's `serve --groups`). Applied when the toolbox is
    /// built, to every tool, those added after it included.
    #[must_use]
    pub fn only_groups<I: IntoIterator<Item = G>, G: AsRef<str>>(mut self, groups: I) -> Self {
        let named: Vec<String> = groups.into_iter().map(|g| g.as_ref().to_owned()).collect();
        self.settings.only_groups = Some(match self.settings.only_groups.take() {
            Some(kept) => kept.into_iter().filter(|g| named.contains(g)).collect(),
            None => named,
        });
        self
    }
}

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// The argument limit ([`ToolboxBuilder::with_max_argument_bytes`]).
    pub(crate) fn max_argument_bytes(&self) -> usize {
        self.inner.config.max_argument_bytes
    }

    /// The deadline of tools that declare no `timeout`: the toolbox's `#[toolbox(timeout = ..)]`
    /// or [`ToolboxBuilder::with_default_timeout`] (`None`: no deadline).
    pub fn default_timeout(&self) -> Option<Duration> {
        self.inner.config.default_timeout
    }
}

impl Settings {
    /// The settings calls read, frozen (without the skill: the builder checks it and sets it).
    pub(super) fn freeze(self) -> Config {
        let keys = self
            .request_state_keys
            .unwrap_or_else(RequestStateKeys::random);
        Config {
            name: self.name,
            version: self.version,
            title: self.title,
            instructions: self.instructions,
            coercion: self.coercion,
            default_timeout: self.default_timeout,
            default_grace: self.default_grace,
            client_rate_limit: self.client_rate_limit,
            concurrency: self
                .max_concurrency
                .map(|max| Arc::new(Semaphore::new(max.max(1)))),
            max_argument_bytes: self.max_argument_bytes,
            output_checks: self.output_checks,
            request_state: match self.request_state_ttl {
                Some(ttl) => keys.with_ttl(ttl),
                None => keys,
            },
            skill: None,
            audit: self.audit,
            read_only: self.read_only,
            confirm_off: self.confirm_off,
        }
    }
}

/// How a toolbox built in code turns confirmation off, as an unconfirmed call's refusal says it.
const CONFIRM_OFF_BUILDER: &str = "build the toolbox with `with_confirmation(false)`";

impl<S: Send + Sync + 'static> ToolboxBuilder<S> {
    /// How the refusal of an unconfirmed call says to turn confirmation off: the command line
    /// sets it to the flag of the command that runs (`serve with `--confirm=off``, `call it
    /// again with `--confirm=off``).
    #[cfg(feature = "cli")]
    pub(crate) fn with_confirm_off_words(mut self, words: &'static str) -> Self {
        self.settings.confirm_off = words;
        self
    }
}

/// The default of [`ToolboxBuilder::with_max_argument_bytes`]: 1 MiB.
pub const DEFAULT_MAX_ARGUMENT_BYTES: usize = 1 << 20;
