//! [`Toolbox`]: a set of tools built once, served through rmcp.
//!
//! What generated code builds and calls (`ToolDef`, `ToolMeta`, `Args`, `Body`, ..) is
//! `crate::contract`, a layer below; the toolbox turns it into served tools.
//!
//! One responsibility per file:
//! - `build.rs`: building a toolbox ([`ToolboxBuilder::build`], [`BuildError`]) from tool
//!   definitions: each tool's schemas, validator, annotations and policy;
//! - `config.rs`: the toolbox-wide settings (the builder's `with_*`), frozen when it builds;
//! - `groups.rs`: which tools are listed and callable (groups, `list_changed`);
//! - `call.rs`: the call path: look the tool up, take it through its gates, run it, shape the
//!   output;
//! - `gates/`: the gates a call passes before its body runs, one file each, in the order
//!   `gates/mod.rs` lists (refusals, confirmation, starting as a task);
//! - `target.rs`: where a tool moves its resource (`target`, `path`), resolved against its
//!   published schema and checked against the resource's envelope;
//! - `size.rs`: how large arguments are (what refused arguments are told is
//!   `crate::validate::refusals`);
//! - `describe.rs`: the opt-in `describe_tool` meta tool, off the path of other calls;
//! - `compose.rs`: serving through a handler of the user's own that delegates tools
//!   ([`WithHandlerBuilder`], [`WithHandler`], `delegate_tools!`);
//! - `skill.rs`: the opt-in operating skill (SEP-2640) and what the skills methods serve;
//! - `serve.rs`: serving ([`ServeError`], rmcp's `ServerHandler`, stdio, any transport, a
//!   `ToolRouter`; the end of a connection's input and signals stop its calls); `stdin.rs`
//!   stdin read on a thread of its own, so that a signal's exit is not held by a read.
//!
//! This file holds the toolbox itself (its tools and shared state) and its builder.

mod build;
mod call;
mod compose;
mod config;
mod confirm;
mod describe;
mod docs;
mod gates;
mod groups;
#[cfg(feature = "http")]
mod requester;
mod serve;
#[cfg(feature = "redis")]
mod shared;
mod size;
mod skill;
mod stdin;
mod target;
mod tasks;

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::Tool;

use crate::adapt::Adapter;
use crate::context::Session;
use crate::contract::{Handler, ToolMeta};
use crate::exec::policy::{Policy, Resource};
use crate::output::Results;
use crate::rate::Limiter;
use crate::validate::Validator;

pub use build::BuildError;
#[cfg(feature = "http")]
pub(crate) use call::address_key;
#[cfg(feature = "cli")]
pub(crate) use compose::MakeHandler;
pub use compose::{WithHandler, WithHandlerBuilder};
pub use config::DEFAULT_MAX_ARGUMENT_BYTES;
use config::{Config, Settings};
#[cfg(feature = "redis")]
pub(crate) use confirm::NotClaimed;
pub use describe::DESCRIBE_TOOL;
use groups::Listeners;
#[cfg(feature = "http")]
pub(crate) use requester::Requester;
pub use serve::ServeError;
#[cfg(feature = "http")]
pub(crate) use serve::{CallsInFlight, REVISIONS, shutdown_signal};
#[cfg(feature = "redis")]
pub(crate) use shared::{Forwarded, RemoteOp, RemoteTask, SharedStore, StoredTask, TaskHandler};

/// One served tool: its definition as listed, validator, output shape, handler and policy.
struct Entry<S> {
    /// Its index in the toolbox's entries.
    index: usize,
    name: Arc<str>,
    tool: Tool,
    validator: Validator,
    /// Converts arguments in declared units to the SI values serde reads (uom quantities).
    input_adapter: Option<Adapter>,
    /// Converts results from SI values to their published units.
    output_adapter: Option<Adapter>,
    /// How its results are shaped, checked and answered.
    results: Results,
    handler: Handler<S>,
    /// `#[tool(check = ..)]`: its own check of the arguments against the state.
    check: Option<crate::contract::Check<S>>,
    meta: ToolMeta,
    policy: Policy<S>,
    /// Where it moves its resource, in that resource's envelope (`target`, `path`).
    target: Option<target::Target<S>>,
    /// Its parameter of type [`Speed`](crate::Speed), a robot motion's speed.
    #[cfg(feature = "robot")]
    speed: Option<String>,
}

/// What the clones of a [`Toolbox`] share.
struct Inner<S> {
    state: Arc<S>,
    entries: Vec<Entry<S>>,
    /// Looked up on every call: foldhash, not SipHash (the names are the toolbox's own, so no
    /// one picks keys to collide).
    index: HashMap<Arc<str>, usize, foldhash::fast::RandomState>,
    tools: Vec<Tool>,
    config: Config,
    /// The resources the tools use, by name: their queues and safe stops.
    resources: HashMap<Arc<str>, Arc<Resource<S>>>,
    /// Held while a call needing several resources takes its places in their queues.
    arrival: std::sync::Mutex<()>,
    /// What each client has used of its rate limits (in this process).
    limiter: Limiter,
    /// The calls in flight and the safe stops they spawned: waited for before the server's
    /// process may end, so a client that disconnects still gets its motion halted.
    calls: crate::exec::Calls,
    /// The Redis the replicas share their rate limits in, when serving with one.
    #[cfg(feature = "redis")]
    shared: std::sync::OnceLock<Arc<dyn SharedStore>>,
    /// Groups whose tools are neither listed nor callable.
    disabled_groups: std::sync::RwLock<std::collections::HashSet<String>>,
    /// The tools as listed now (enabled groups, plus `describe_tool` when on).
    listed: std::sync::RwLock<Vec<Tool>>,
    /// Connected clients, told when the list changes.
    peers: std::sync::Mutex<Vec<rmcp::Peer<RoleServer>>>,
    /// The open `subscriptions/listen` streams that asked for tool list changes (protocol
    /// 2026-07-28), by a key of their own, told when the list changes.
    listeners: std::sync::Mutex<Listeners>,
    /// The `describe_tool` meta tool, when enabled.
    describe: Option<Entry<S>>,
    /// `describe_tool`'s validator for the tools served now (its `name` enum names them alone),
    /// made with the listed tools ([`Inner::refresh_listed`]).
    describe_now: std::sync::RwLock<Option<Arc<crate::validate::Validator>>>,
    /// Approvals of `confirm` tools already used (protocol 2026-07-28).
    approvals: confirm::Approvals,
    /// Ask the user before tools declared with `confirm` run
    /// ([`ToolboxBuilder::with_confirmation`], [`Toolbox::set_confirmation`]).
    confirm: std::sync::atomic::AtomicBool,
    /// The tasks of calls run as tasks (`#[tool(task = "..")]`).
    tasks: crate::tasks::Tasks,
}

/// A set of tools and the state they share, built once and served through rmcp.
///
/// Build one with a [`ToolboxBuilder`]: [`Toolbox::builder`] for a `#[toolbox]` type,
/// [`tools!`](crate::tools!) for free functions, then the builder's `with_*` settings and
/// [`ToolboxBuilder::build`] (or [`ToolboxBuilder::run_cli`], which builds after reading the
/// command line); [`Toolbox::new`] is a `#[toolbox]` type's toolbox with its declared defaults.
/// A built toolbox is frozen: it has no settings to change, only tool groups to enable and
/// disable while it serves ([`Toolbox::enable_group`]) and confirmation to switch
/// ([`Toolbox::set_confirmation`]).
///
/// It implements rmcp's [`ServerHandler`](rmcp::ServerHandler), so it serves with
/// [`Toolbox::serve_stdio`] or any rmcp transport, and [`Toolbox::into_tool_router`] turns it
/// into an rmcp [`ToolRouter`](rmcp::handler::server::router::tool::ToolRouter) for a handler of
/// your own (with rmcp resources and prompts).
///
/// Cloning is cheap: clones share the same tools and state, and serve the same client session
/// (its log level). Each connection [`Toolbox::serve`] serves, and each streamable HTTP session,
/// gets a session of its own.
pub struct Toolbox<S = ()> {
    inner: Arc<Inner<S>>,
    /// The client session this handler serves: what the client set (its log level).
    session: Arc<Session>,
}

/// The settings and tool definitions of a [`Toolbox`] not built yet: every `with_*` setting
/// consumes and returns it, and [`ToolboxBuilder::build`] applies them all, in an order of its
/// own (so `with_max_waiting` may come before the tools it names), checks them together and
/// returns the frozen toolbox or a [`BuildError`].
///
/// Start from [`Toolbox::builder`] (a `#[toolbox]` type, with its declared defaults),
/// [`tools!`](crate::tools!) (free functions) or [`ToolboxBuilder::new`] (a state with tools
/// added by [`ToolboxBuilder::with_tools`]).
///
/// ```rust
/// use toolwright::{Toolbox, tool, tools};
///
/// /// Read the gripper's force.
/// #[tool(read_only)]
/// fn grip_force() -> f64 {
///     4.2
/// }
///
/// # fn main() -> Result<(), toolwright::BuildError> {
/// let toolbox: Toolbox = tools![grip_force]
///     .with_title("Gripper")
///     .with_describe_tool()
///     .build()?;
/// assert_eq!(toolbox.listed_tools().len(), 2);
/// # Ok(()) }
/// ```
pub struct ToolboxBuilder<S = ()> {
    state: S,
    /// The resources `#[toolbox(resource(..))]` declares.
    resources: Vec<crate::contract::ResourceDef<S>>,
    /// The robots `resource(.., robot(..))` declares.
    #[cfg(feature = "robot")]
    robots: Vec<crate::contract::RobotResource<S>>,
    tools: Vec<crate::contract::ToolDef<S>>,
    settings: Settings,
}

impl<S> fmt::Debug for ToolboxBuilder<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolboxBuilder")
            .field("name", &self.settings.name)
            .field(
                "tools",
                &self.tools.iter().map(|t| t.meta.name).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl<S> Clone for Toolbox<S> {
    fn clone(&self) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
            session: Arc::clone(&self.session),
        }
    }
}

impl<S> Toolbox<S> {
    /// A toolbox of these tools and state.
    fn from_inner(inner: Inner<S>) -> Self {
        Self {
            inner: Arc::new(inner),
            session: Arc::default(),
        }
    }

    /// The same tools and state, serving a new client session (one that set nothing yet).
    pub(crate) fn for_new_session(&self) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
            session: Arc::default(),
        }
    }
}

impl<S> fmt::Debug for Toolbox<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Toolbox")
            .field("name", &self.inner.config.name)
            .field(
                "tools",
                &self
                    .inner
                    .entries
                    .iter()
                    .map(|e| &*e.name)
                    .collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// The shared state.
    pub fn state(&self) -> &Arc<S> {
        &self.inner.state
    }

    /// The tool definitions exactly as `tools/list` sends them, in declaration order.
    pub fn tools(&self) -> &[Tool] {
        &self.inner.tools
    }

    /// One tool's definition.
    pub fn tool(&self, name: &str) -> Option<&Tool> {
        self.inner
            .index
            .get(name)
            .map(|&i| &self.inner.entries[i].tool)
    }

    /// The audit log the calls are recorded in, if any.
    pub fn audit_log(&self) -> Option<&Arc<crate::audit::AuditLog>> {
        self.inner.config.audit.as_ref()
    }
}

fn read<T>(lock: &std::sync::RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|p| p.into_inner())
}

fn write<T>(lock: &std::sync::RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(|p| p.into_inner())
}
