//! [`Toolbox`]: a set of tools built once, served through rmcp.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock,
    Implementation, JsonObject, ListToolsResult, MetaObject, PaginatedRequestParams,
    ProtocolVersion, ResultType, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use schemars::generate::Contract;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use tokio::sync::Semaphore;
use tracing::Instrument as _;

use crate::context::{Context, new_trace_id};
use crate::error::ToolError;
use crate::exec::arrival::{Arrival, Arrivals, Ordered, Stamp};
use crate::exec::queue::{DEFAULT_MAX_WAITING, ResourceQueue};
use crate::exec::rate::{Limiter, Rate};
use crate::exec::{self, Outcome};
use crate::output::OutputMode;
use crate::policy::{self, Policy, Resource};
use crate::schema::{self, Field, TypeInfo};
use crate::validate::{Coercion, Validator, Violation};

/// What a `#[tool]` declares about a tool besides its parameters.
#[derive(Debug, Clone, Copy, Default)]
pub struct ToolMeta {
    /// The tool name (`name = ".."`, default: the fn name).
    pub name: &'static str,
    /// `title = ".."`.
    pub title: Option<&'static str>,
    /// The fn's doc comment (or `description = ".."`).
    pub description: &'static str,
    /// `read_only`.
    pub read_only: Option<bool>,
    /// `destructive`.
    pub destructive: Option<bool>,
    /// `idempotent`.
    pub idempotent: Option<bool>,
    /// `open_world`.
    pub open_world: Option<bool>,
    /// `timeout = "3s"`, in milliseconds: deadline for waiting for resources and running.
    pub timeout_ms: Option<u64>,
    /// `resource = "arm"` / `resource = ["arm", "gripper"]`: calls sharing one run one at a time.
    pub resources: &'static [&'static str],
    /// `retry = N`: extra attempts on timeout or a retryable error.
    pub retry: u32,
    /// `max_output_bytes = N`: larger results are cut on structure.
    pub max_output_bytes: Option<usize>,
    /// `group = "arm"`: served, listed and enabled together with the other tools of its group.
    pub group: Option<&'static str>,
    /// `grace = "1s"`, in milliseconds: how long the body has to return once told to stop.
    pub grace_ms: Option<u64>,
    /// `scopes = ["arm:move"]`: OAuth scopes an access token needs to call the tool over HTTP.
    pub scopes: &'static [&'static str],
    /// `rate_limit = "10/min"`: calls one client may make to this tool.
    pub rate_limit: Option<Rate>,
}

impl ToolMeta {
    /// The MCP annotations: the declared hints, `read_only` implying `idempotent` and not
    /// `destructive`, plus the title. `None` when nothing was declared.
    pub fn annotations(&self) -> Option<ToolAnnotations> {
        let read_only = self.read_only;
        let implied = read_only == Some(true);
        let destructive = self.destructive.or(implied.then_some(false));
        let idempotent = self.idempotent.or(implied.then_some(true));
        if self.title.is_none()
            && read_only.is_none()
            && destructive.is_none()
            && idempotent.is_none()
            && self.open_world.is_none()
        {
            return None;
        }
        Some(ToolAnnotations::from_raw(
            self.title.map(str::to_owned),
            read_only,
            destructive,
            idempotent,
            self.open_world,
        ))
    }
}

/// Why a call did not produce a value.
#[derive(Debug)]
pub enum CallError {
    /// The arguments were refused (before the body ran).
    Invalid(Vec<Violation>),
    /// The body returned an error.
    Tool(ToolError),
}

impl From<ToolError> for CallError {
    fn from(e: ToolError) -> Self {
        CallError::Tool(e)
    }
}

/// A call's validated arguments and its context, handed to the generated handler.
#[derive(Debug)]
pub struct Args {
    map: Map<String, Value>,
    /// Where the next search for an argument starts: just after the previous one found, so
    /// arguments sent in declaration order are found in one comparison each.
    next: usize,
    /// The entries already taken (their values are left as `null` in `map`), by index.
    taken: Taken,
    errors: Vec<Violation>,
    context: Context,
}

/// A set of entry indices: a bit mask for the first 64, a list beyond.
#[derive(Debug, Default)]
struct Taken {
    low: u64,
    high: Vec<usize>,
}

impl Taken {
    fn insert(&mut self, i: usize) {
        match u32::try_from(i) {
            Ok(b) if b < 64 => self.low |= 1 << b,
            _ => self.high.push(i),
        }
    }

    fn contains(&self, i: usize) -> bool {
        match u32::try_from(i) {
            Ok(b) if b < 64 => self.low & (1 << b) != 0,
            _ => self.high.contains(&i),
        }
    }

    fn is_empty(&self) -> bool {
        self.low == 0 && self.high.is_empty()
    }
}

impl Args {
    /// Wraps validated arguments.
    pub fn new(map: Map<String, Value>, context: Context) -> Self {
        Self {
            map,
            next: 0,
            taken: Taken::default(),
            errors: Vec::new(),
            context,
        }
    }

    /// The call's context.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// Moves argument `name` out of the map (`null` when absent or already taken). A linear
    /// scan from where the previous argument was found, without hashing or removing: arguments
    /// are few, and usually come in declaration order.
    fn take_value(&mut self, name: &str) -> Value {
        // A taken value is left as `null`, so taking it again gives `null` too; `taken` is only
        // for `take_all`, which must tell a taken argument from one sent as `null`.
        let is = |k: &String| crate::validate::short_eq(k.as_bytes(), name.as_bytes());
        // Where the previous argument was found, plus one: found and moved out in one pass.
        let next = self.next;
        if let Some((k, v)) = self.map.iter_mut().nth(next)
            && is(k)
        {
            self.next = next + 1;
            self.taken.insert(next);
            return std::mem::take(v);
        }
        let Some(i) = self.map.keys().position(is) else {
            return Value::Null;
        };
        self.next = i + 1;
        self.taken.insert(i);
        self.map
            .values_mut()
            .nth(i)
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Takes and deserializes one argument (`null` when absent, so `Option` gives `None`).
    /// A failure is recorded and reported by [`Args::into_error`].
    #[allow(clippy::result_unit_err)]
    pub fn take<T: DeserializeOwned>(&mut self, name: &str) -> Result<T, ()> {
        let value = self.take_value(name);
        T::deserialize(value).map_err(|e| {
            self.errors.push(Violation {
                path: name.to_owned(),
                message: e.to_string(),
                hint: None,
            });
        })
    }

    /// Deserializes all arguments not taken yet into one flattened struct.
    #[allow(clippy::result_unit_err)]
    pub fn take_all<T: DeserializeOwned>(&mut self) -> Result<T, ()> {
        let mut map = std::mem::take(&mut self.map);
        let taken = std::mem::take(&mut self.taken);
        if !taken.is_empty() {
            map = map
                .into_iter()
                .enumerate()
                .filter(|(i, _)| !taken.contains(*i))
                .map(|(_, entry)| entry)
                .collect();
        }
        T::deserialize(Value::Object(map)).map_err(|e| {
            self.errors.push(Violation {
                path: String::new(),
                message: e.to_string(),
                hint: None,
            });
        })
    }

    /// The recorded failures, as a call error.
    pub fn into_error(self) -> CallError {
        CallError::Invalid(self.errors)
    }
}

/// The future of an async tool body: the tool's result as JSON, or why there is none.
pub type HandlerFuture = BoxFuture<'static, Result<Value, CallError>>;

/// The code of one call, as a generated handler hands it to the runtime.
pub enum Body<T = Result<Value, CallError>> {
    /// An `async fn`'s future (or a sync fn declared `blocking = false`), polled on the async
    /// runtime.
    Async(BoxFuture<'static, T>),
    /// A sync fn's body, run on tokio's blocking pool so that it cannot hold up other calls.
    Blocking(Box<dyn FnOnce() -> T + Send + 'static>),
}

impl<T> fmt::Debug for Body<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Body::Async(_) => "Body::Async",
            Body::Blocking(_) => "Body::Blocking",
        })
    }
}

/// A generated handler: the body of one tool on validated arguments.
pub type Handler<S> = fn(Arc<S>, Args) -> Body;

/// What a safe stop reports: what it did (`Ok(Some("halted at (…) mm"))`, `Ok(None)` when it
/// has nothing to say), or why it failed.
pub type SafeStopResult = Result<Option<String>, String>;

/// A generated safe stop: brings a resource to a known state (`#[toolbox(resource(name = "arm",
/// safe_stop = halt))]`).
pub type SafeStop<S> = fn(Arc<S>) -> Body<SafeStopResult>;

/// A resource as `#[toolbox(resource(..))]` declares it.
pub struct ResourceDef<S> {
    /// The name tools use in `resource = ".."`.
    pub name: &'static str,
    /// Calls that may wait for it behind the one using it (default 16).
    pub max_waiting: Option<usize>,
    /// What brings it to a known state when a call holding it is abandoned.
    pub safe_stop: Option<SafeStop<S>>,
}

impl<S> fmt::Debug for ResourceDef<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResourceDef")
            .field("name", &self.name)
            .field("max_waiting", &self.max_waiting)
            .field("safe_stop", &self.safe_stop.is_some())
            .finish()
    }
}

/// The parameters of a tool.
#[derive(Debug, Clone)]
pub enum Params {
    /// Plain fn arguments, one property each.
    Fields(Vec<Field>),
    /// One `#[param(flatten)]` struct supplying every property.
    Flatten(TypeInfo),
}

/// Everything `#[tool]` generates for one tool; [`Toolbox`] turns it into a served tool.
pub struct ToolDef<S> {
    /// Name, description, hints.
    pub meta: ToolMeta,
    /// Parameters.
    pub params: Params,
    /// The success type (`T` of `T` or `Result<T, E>`).
    pub output: TypeInfo,
    /// The code that runs the tool.
    pub handler: Handler<S>,
}

impl<S> fmt::Debug for ToolDef<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolDef")
            .field("meta", &self.meta)
            .field("params", &self.params)
            .finish_non_exhaustive()
    }
}

/// Implemented by `#[toolbox]` on an `impl` block: the tools of a state type.
pub trait ToolSet: Send + Sync + Sized + 'static {
    /// The tools declared in the `impl` block, in declaration order.
    fn tools() -> Vec<ToolDef<Self>>;

    /// The server's name and version (the crate's, by default).
    fn server_info() -> (&'static str, &'static str) {
        ("toolwright", env!("CARGO_PKG_VERSION"))
    }

    /// Toolbox-wide settings declared on `#[toolbox(..)]`.
    fn defaults() -> ToolboxDefaults {
        ToolboxDefaults::default()
    }

    /// The resources declared on `#[toolbox(resource(..))]`: queue limits and safe stops.
    fn resources() -> Vec<ResourceDef<Self>> {
        Vec::new()
    }
}

/// Toolbox-wide settings declared on `#[toolbox(timeout = "30s", max_concurrency = 4)]`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ToolboxDefaults {
    /// The deadline of tools that declare no `timeout`, in milliseconds.
    pub timeout_ms: Option<u64>,
    /// Calls running at once across all tools.
    pub max_concurrency: Option<usize>,
    /// The grace period of tools that declare none, in milliseconds.
    pub grace_ms: Option<u64>,
    /// Calls one client may make to all tools together.
    pub client_rate_limit: Option<Rate>,
}

/// Why a toolbox could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildError {
    /// One line per problem, each naming its tool.
    pub problems: Vec<String>,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "cannot build the toolbox:")?;
        for p in &self.problems {
            writeln!(f, "- {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for BuildError {}

struct Entry<S> {
    /// Its index in the toolbox's entries.
    index: usize,
    name: Arc<str>,
    tool: Tool,
    validator: Validator,
    output: OutputMode,
    handler: Handler<S>,
    meta: ToolMeta,
    policy: Policy<S>,
}

struct Config {
    name: Cow<'static, str>,
    version: Cow<'static, str>,
    title: Option<String>,
    instructions: Option<String>,
    coercion: Coercion,
    default_timeout: Option<Duration>,
    default_grace: Option<Duration>,
    client_rate_limit: Option<Rate>,
    concurrency: Option<Arc<Semaphore>>,
    max_argument_bytes: usize,
}

struct Inner<S> {
    state: Arc<S>,
    entries: Vec<Entry<S>>,
    index: HashMap<Arc<str>, usize>,
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
    calls: tokio_util::task::TaskTracker,
    /// The Redis the replicas share their rate limits in, when serving with one.
    #[cfg(feature = "redis")]
    shared: std::sync::OnceLock<Arc<crate::redis::Redis>>,
    /// Groups whose tools are neither listed nor callable.
    disabled_groups: std::sync::RwLock<std::collections::HashSet<String>>,
    /// The tools as listed now (enabled groups, plus `describe_tool` when on).
    listed: std::sync::RwLock<Vec<Tool>>,
    /// Connected clients, told when the list changes.
    peers: std::sync::Mutex<Vec<rmcp::Peer<RoleServer>>>,
    /// The `describe_tool` meta tool, when enabled.
    describe: Option<Entry<S>>,
}

/// A set of tools and the state they share, built once and served through rmcp.
///
/// Build one with `#[toolbox]` ([`Toolbox::new`]) or from free functions with
/// [`tools!`](crate::tools!). It implements rmcp's [`ServerHandler`], so it serves with
/// [`Toolbox::serve_stdio`] or any rmcp transport, and [`Toolbox::into_tool_router`] turns it into an
/// rmcp [`ToolRouter`] for a handler of your own (with rmcp resources and prompts).
///
/// Cloning is cheap: clones share the same tools and state.
pub struct Toolbox<S = ()> {
    inner: Arc<Inner<S>>,
}

impl<S> Clone for Toolbox<S> {
    fn clone(&self) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
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

fn build_entry<S>(def: ToolDef<S>) -> Result<Entry<S>, Vec<String>> {
    let name = def.meta.name;
    let mut problems = Vec::new();
    let mut generator = schema::generator(Contract::Deserialize);
    let input = match &def.params {
        Params::Fields(fields) => schema::object_schema(&mut generator, None, fields, false),
        Params::Flatten(info) => schema::type_schema(&mut generator, *info).and_then(|mut s| {
            if schema::is_object_schema(&s) {
                // The struct's own doc comment is not the tool's: the tool has its description.
                if let Some(obj) = s.as_object_mut() {
                    obj.shift_remove("description");
                    obj.shift_remove("title");
                }
                Ok(s)
            } else {
                Err(schema::SchemaError {
                    path: String::new(),
                    message: "a `#[param(flatten)]` argument must be a struct with named fields"
                        .into(),
                })
            }
        }),
    };
    let input = input.map_err(|e| problems.push(format!("tool `{name}`: input: {e}")));
    let output = crate::output::shared_output_schema(def.output)
        .map_err(|e| problems.push(format!("tool `{name}`: output: {e}")));
    let (Ok(input), Ok((output_schema, output))) = (input, output) else {
        return Err(problems);
    };
    let validator = Validator::compile(&input).map_err(|e| vec![format!("tool `{name}`: {e}")])?;
    let Value::Object(input) = input else {
        return Err(vec![format!(
            "tool `{name}`: input schema is not an object"
        )]);
    };
    let mut tool = Tool::new(
        name,
        def.meta.description.trim().to_owned(),
        Arc::new(input),
    );
    if let Some(title) = def.meta.title {
        tool = tool.with_title(title);
    }
    if let Some(out) = output_schema {
        tool = tool.with_raw_output_schema(out);
    }
    if let Some(annotations) = def.meta.annotations() {
        tool = tool.with_annotations(annotations);
    }
    if !def.meta.scopes.is_empty() {
        let mut meta = MetaObject::new();
        meta.0.insert(
            SCOPES_META.to_owned(),
            Value::from(def.meta.scopes.to_vec()),
        );
        tool = tool.with_meta(meta);
    }
    Ok(Entry {
        index: 0,
        name: Arc::from(name),
        tool,
        validator,
        output,
        handler: def.handler,
        meta: def.meta,
        policy: Policy::default(),
    })
}

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// The toolbox of a `#[toolbox]` type. Panics if a tool cannot be published (see
    /// [`Toolbox::try_from_tools`]).
    pub fn new(state: S) -> Self
    where
        S: ToolSet,
    {
        let (name, version) = S::server_info();
        let defaults = S::defaults();
        let mut toolbox = match Self::build(state, S::resources(), S::tools()) {
            Ok(t) => t,
            Err(e) => panic!("{e}"),
        }
        .with_server_info(name, version);
        if let Some(ms) = defaults.timeout_ms {
            toolbox = toolbox.with_default_timeout(Duration::from_millis(ms));
        }
        if let Some(ms) = defaults.grace_ms {
            toolbox = toolbox.with_default_grace(Duration::from_millis(ms));
        }
        if let Some(rate) = defaults.client_rate_limit {
            toolbox = toolbox.with_client_rate_limit(rate);
        }
        if let Some(n) = defaults.max_concurrency {
            toolbox = toolbox.with_max_concurrency(n);
        }
        toolbox
    }

    /// A toolbox from tool definitions (see [`tool_defs!`](crate::tool_defs!)). Panics with every problem
    /// if a tool cannot be published: a recursive parameter type, two tools with one name, ….
    pub fn from_tools(state: S, tools: Vec<ToolDef<S>>) -> Self {
        match Self::try_from_tools(state, tools) {
            Ok(t) => t,
            Err(e) => panic!("{e}"),
        }
    }

    /// Like [`Toolbox::from_tools`], returning the problems instead of panicking.
    pub fn try_from_tools(state: S, tools: Vec<ToolDef<S>>) -> Result<Self, BuildError> {
        Self::build(state, Vec::new(), tools)
    }

    fn build(
        state: S,
        resources: Vec<ResourceDef<S>>,
        tools: Vec<ToolDef<S>>,
    ) -> Result<Self, BuildError> {
        let mut inner = Inner {
            state: Arc::new(state),
            entries: Vec::new(),
            index: HashMap::new(),
            tools: Vec::new(),
            config: Config {
                name: Cow::Borrowed("toolwright"),
                version: Cow::Borrowed(env!("CARGO_PKG_VERSION")),
                title: None,
                instructions: None,
                coercion: Coercion::Lax,
                default_timeout: None,
                default_grace: None,
                client_rate_limit: None,
                concurrency: None,
                max_argument_bytes: DEFAULT_MAX_ARGUMENT_BYTES,
            },
            resources: HashMap::new(),
            arrival: std::sync::Mutex::new(()),
            limiter: Limiter::default(),
            calls: tokio_util::task::TaskTracker::new(),
            #[cfg(feature = "redis")]
            shared: std::sync::OnceLock::new(),
            disabled_groups: Default::default(),
            listed: Default::default(),
            peers: Default::default(),
            describe: None,
        };
        for def in resources {
            let name: Arc<str> = Arc::from(def.name);
            let queue = ResourceQueue::new(
                Arc::clone(&name),
                def.max_waiting.unwrap_or(DEFAULT_MAX_WAITING),
            );
            inner.resources.insert(
                name,
                Arc::new(Resource {
                    queue: Arc::new(queue),
                    safe_stop: def.safe_stop,
                }),
            );
        }
        inner.add(tools)?;
        Ok(Self {
            inner: Arc::new(inner),
        })
    }

    fn inner_mut(&mut self) -> &mut Inner<S> {
        Arc::get_mut(&mut self.inner).expect("configure a Toolbox before cloning it or serving it")
    }

    /// Adds more tools (for example free functions, through [`tool_defs!`](crate::tool_defs!)), to a
    /// `#[toolbox]` state). Panics like [`Toolbox::from_tools`].
    #[must_use]
    pub fn with_tools(mut self, tools: Vec<ToolDef<S>>) -> Self {
        if let Err(e) = self.inner_mut().add(tools) {
            panic!("{e}");
        }
        self
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

    /// Counts rate limits in `redis`, shared with the other replicas, from now on.
    #[cfg(feature = "redis")]
    pub(crate) fn share_limits(&self, redis: Arc<crate::redis::Redis>) {
        let _ = self.inner.shared.set(redis);
    }

    /// What waits for the calls in flight (and their safe stops) when serving ends.
    pub(crate) fn calls_in_flight(&self) -> CallsInFlight {
        let longest_grace = self
            .inner
            .entries
            .iter()
            .filter_map(|e| e.policy.grace)
            .chain(self.inner.config.default_grace)
            .max()
            .unwrap_or(crate::policy::DEFAULT_GRACE)
            .max(crate::policy::DEFAULT_GRACE);
        CallsInFlight {
            tracker: self.inner.calls.clone(),
            limit: longest_grace + exec::SAFE_STOP_LIMIT + Duration::from_secs(1),
        }
    }

    /// Whether any tool uses a resource (a device that one process must own).
    #[cfg(feature = "redis")]
    pub(crate) fn uses_resources(&self) -> bool {
        !self.inner.resources.is_empty()
    }

    /// The argument limit ([`Toolbox::with_max_argument_bytes`]).
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

    /// Caps how many calls run at once across all tools; further calls wait in arrival order.
    #[must_use]
    pub fn with_max_concurrency(mut self, max: usize) -> Self {
        self.inner_mut().config.concurrency = Some(Arc::new(Semaphore::new(max.max(1))));
        self
    }

    /// Adds the `describe_tool` meta tool (seed 002): given a tool name it returns that tool's
    /// definition exactly as `tools/list` has it; an unknown name gets an `isError` result that
    /// lists the available tools.
    #[must_use]
    pub fn with_describe_tool(mut self) -> Self {
        let inner = self.inner_mut();
        inner.describe = Some(describe_entry(&inner.entries));
        inner.refresh_listed();
        self
    }

    /// Serves only the tools of these groups (and tools without a group); the others stay
    /// declared but are neither listed nor callable until [`Toolbox::enable_group`].
    #[must_use]
    pub fn only_groups<I: IntoIterator<Item = G>, G: AsRef<str>>(self, groups: I) -> Self {
        let keep: Vec<String> = groups.into_iter().map(|g| g.as_ref().to_owned()).collect();
        for g in self.groups() {
            if !keep.iter().any(|k| k == g) {
                write(&self.inner.disabled_groups).insert(g.to_owned());
            }
        }
        self.inner.refresh_listed();
        self
    }

    /// The groups declared by the tools, in declaration order.
    pub fn groups(&self) -> Vec<&'static str> {
        let mut groups = Vec::new();
        for g in self.inner.entries.iter().filter_map(|e| e.meta.group) {
            if !groups.contains(&g) {
                groups.push(g);
            }
        }
        groups
    }

    /// Lists and serves a group's tools again, telling connected clients
    /// (`notifications/tools/list_changed`). Returns whether anything changed.
    pub async fn enable_group(&self, group: &str) -> bool {
        write(&self.inner.disabled_groups).remove(group);
        self.list_changed().await
    }

    /// Hides a group's tools: no longer listed, and calls to them are unknown tools. Connected
    /// clients are told. Returns whether anything changed.
    pub async fn disable_group(&self, group: &str) -> bool {
        write(&self.inner.disabled_groups).insert(group.to_owned());
        self.list_changed().await
    }

    async fn list_changed(&self) -> bool {
        if !self.inner.refresh_listed() {
            return false;
        }
        let peers: Vec<_> = self
            .inner
            .peers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        for peer in peers {
            if let Err(e) = peer.notify_tool_list_changed().await {
                tracing::debug!(error = %e, "list_changed not delivered");
            }
        }
        true
    }

    /// The tools as `tools/list` sends them now (enabled groups only, plus `describe_tool`).
    pub fn listed_tools(&self) -> Vec<Tool> {
        read(&self.inner.listed).clone()
    }

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

    /// Runs one tool in-process, exactly as a `tools/call` would: unknown tools give the same
    /// `-32602` error, invalid arguments the same `isError` result.
    pub async fn call(
        &self,
        name: &str,
        arguments: Option<JsonObject>,
    ) -> Result<CallToolResult, ErrorData> {
        Inner::call(&self.inner, name, arguments, CallSite::default()).await
    }

    /// Serves over stdin/stdout until the client disconnects. Logs must go to stderr.
    ///
    /// Stdin closing before a client initialized the session (Ctrl-D in a terminal) is a normal
    /// end, not an error.
    pub async fn serve_stdio(self) -> Result<(), ServeError> {
        let calls = self.calls_in_flight();
        let running = match self.serve(rmcp::transport::stdio()).await {
            Ok(running) => running,
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => {
                tracing::info!("stdin closed before a client connected");
                return Ok(());
            }
            Err(e) => return Err(ServeError(e.to_string())),
        };
        tracing::info!("MCP session started on stdio");
        let ended = running.waiting().await;
        // rmcp cancels the calls still running when the client goes: let them wind down and
        // their safe stops run before the process may end.
        calls.wait().await;
        ended.map_err(|e| ServeError(e.to_string()))?;
        Ok(())
    }

    /// Serves the toolbox over any rmcp transport (a `(reader, writer)` pair, a
    /// `tokio::io::duplex` end, a child's pipes, …) and returns rmcp's running service. Unlike
    /// rmcp's `ServiceExt::serve`, which it wraps, it stamps each `tools/call` as the transport
    /// reads it, so calls sharing a resource run in the order the client sent them.
    pub async fn serve<T, E, A>(
        self,
        transport: T,
    ) -> Result<rmcp::service::RunningService<RoleServer, Self>, rmcp::service::ServerInitializeError>
    where
        T: rmcp::transport::IntoTransport<RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let ordered = Ordered::new(transport.into_transport(), self.arrivals());
        rmcp::ServiceExt::serve(self, ordered).await
    }

    /// What places arriving calls in the resources' queues.
    pub(crate) fn arrivals(&self) -> Arc<dyn Arrivals> {
        Arc::clone(&self.inner) as Arc<dyn Arrivals>
    }

    /// The tools as an rmcp [`ToolRouter`] for a handler `H` of your own, to merge with routers
    /// from rmcp's `#[tool_router]`. Calls still go through toolwright's validation.
    pub fn into_tool_router<H: Send + Sync + 'static>(self) -> ToolRouter<H> {
        let mut router = ToolRouter::new();
        for entry in &self.inner.entries {
            let inner = Arc::clone(&self.inner);
            let name = Arc::clone(&entry.name);
            router.add_route(ToolRoute::new_dyn(entry.tool.clone(), move |ctx| {
                let inner = Arc::clone(&inner);
                let name = Arc::clone(&name);
                let site = CallSite::from_request(&ctx.request_context, None);
                let arguments = ctx.arguments;
                Box::pin(async move {
                    Inner::call(&inner, &name, arguments, site)
                        .await
                        .map(CallToolResponse::from)
                })
            }));
        }
        router
    }
}

/// The calls in flight of a toolbox, to wait for when serving ends (bounded by the longest grace
/// period plus the time a safe stop may take).
#[derive(Debug, Clone)]
pub(crate) struct CallsInFlight {
    tracker: tokio_util::task::TaskTracker,
    limit: Duration,
}

impl CallsInFlight {
    /// Waits until no call is in flight, at most the limit.
    pub async fn wait(&self) {
        if self.tracker.is_empty() {
            return;
        }
        tracing::info!(
            calls = self.tracker.len(),
            "waiting for the calls in flight to end"
        );
        self.tracker.close();
        if tokio::time::timeout(self.limit, self.tracker.wait())
            .await
            .is_err()
        {
            tracing::error!(
                calls = self.tracker.len(),
                "calls still in flight at shutdown"
            );
        }
        self.tracker.reopen();
    }
}

/// The toolbox could not be served (transport or protocol failure).
#[derive(Debug, Clone)]
pub struct ServeError(String);

impl ServeError {
    /// An error with a message.
    pub fn new(message: impl Into<String>) -> Self {
        ServeError(message.into())
    }
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MCP server stopped: {}", self.0)
    }
}

impl std::error::Error for ServeError {}

impl<S: Send + Sync + 'static> Inner<S> {
    /// Counts a call of `client` against the tool's and the client's rate limits: in this
    /// process, or in the Redis the replicas share.
    async fn check_limits(
        &self,
        client: &Arc<str>,
        entry: &Entry<S>,
    ) -> Result<(), exec::rate::Limited> {
        #[cfg(feature = "redis")]
        if let Some(redis) = self.shared.get() {
            return redis
                .check(
                    client,
                    &entry.name,
                    entry.meta.rate_limit,
                    self.config.client_rate_limit,
                )
                .await;
        }
        self.limiter.check(
            client,
            entry.index,
            entry.meta.rate_limit,
            self.config.client_rate_limit,
            std::time::Instant::now(),
        )
    }
}

/// A tool's policy: its keys, and its resources (sorted by name) from the toolbox's.
fn inner_policy<S>(resources: &HashMap<Arc<str>, Arc<Resource<S>>>, meta: &ToolMeta) -> Policy<S> {
    let mut names: Vec<&str> = meta.resources.to_vec();
    names.sort_unstable();
    names.dedup();
    let used: Vec<Arc<Resource<S>>> = names
        .iter()
        .filter_map(|n| resources.get(*n).map(Arc::clone))
        .collect();
    Policy {
        timeout: meta.timeout_ms.map(Duration::from_millis),
        grace: meta.grace_ms.map(Duration::from_millis),
        queues: used.iter().map(|r| Arc::clone(&r.queue)).collect(),
        resources: Arc::from(used),
        retry: meta.retry,
        max_output_bytes: meta.max_output_bytes,
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
}

impl<S: Send + Sync + 'static> Inner<S> {
    fn add(&mut self, defs: Vec<ToolDef<S>>) -> Result<(), BuildError> {
        let mut problems = Vec::new();
        for def in defs {
            match build_entry(def) {
                Ok(mut entry) => {
                    for name in entry.meta.resources {
                        if !self.resources.contains_key(*name) {
                            let name: Arc<str> = Arc::from(*name);
                            let queue = ResourceQueue::new(Arc::clone(&name), DEFAULT_MAX_WAITING);
                            self.resources.insert(
                                name,
                                Arc::new(Resource {
                                    queue: Arc::new(queue),
                                    safe_stop: None,
                                }),
                            );
                        }
                    }
                    entry.policy = inner_policy(&self.resources, &entry.meta);
                    let meta = &entry.meta;
                    if meta.retry > 0
                        && meta.read_only != Some(true)
                        && meta.idempotent != Some(true)
                    {
                        problems.push(format!(
                            "tool `{}`: `retry` repeats the call, so it is allowed only on \
                             `read_only` or `idempotent` tools (retrying a write can repeat it)",
                            entry.name
                        ));
                        continue;
                    }
                    if self.index.contains_key(&entry.name) {
                        problems.push(format!(
                            "tool `{}` is declared twice; tool names must be unique",
                            entry.name
                        ));
                        continue;
                    }
                    entry.index = self.entries.len();
                    self.index
                        .insert(Arc::clone(&entry.name), self.entries.len());
                    self.tools.push(entry.tool.clone());
                    self.entries.push(entry);
                }
                Err(p) => problems.extend(p),
            }
        }
        if self.describe.is_some() {
            self.describe = Some(describe_entry(&self.entries));
        }
        self.refresh_listed();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(BuildError { problems })
        }
    }

    fn is_enabled(&self, entry: &Entry<S>) -> bool {
        entry
            .meta
            .group
            .is_none_or(|g| !read(&self.disabled_groups).contains(g))
    }

    /// Recomputes the listed tools; `true` when the list changed.
    fn refresh_listed(&self) -> bool {
        let mut tools: Vec<Tool> = self
            .entries
            .iter()
            .filter(|e| self.is_enabled(e))
            .map(|e| e.tool.clone())
            .collect();
        if let Some(d) = &self.describe {
            tools.push(d.tool.clone());
        }
        let mut listed = self.listed.write().unwrap_or_else(|p| p.into_inner());
        let changed = *listed != tools;
        *listed = tools;
        changed
    }

    fn unknown_tool(&self, name: &str) -> ErrorData {
        let available = read(&self.listed)
            .iter()
            .map(|t| t.name.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        ErrorData::invalid_params(
            format!("unknown tool `{name}`; available tools: {available}"),
            None,
        )
    }

    async fn call(
        this: &Arc<Self>,
        name: &str,
        arguments: Option<JsonObject>,
        mut site: CallSite,
    ) -> Result<CallToolResult, ErrorData> {
        // The transport found the tool already when it stamped the call.
        let stamped = site
            .stamped_tool
            .filter(|&i| this.entries.get(i).is_some_and(|e| *e.name == *name));
        let entry = match stamped.or_else(|| this.index.get(name).copied()) {
            Some(i) if this.is_enabled(&this.entries[i]) => &this.entries[i],
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
        let (outcome, result) = Self::run(this, entry, arguments, site, trace_id)
            .instrument(span.clone())
            .await;
        if let Some(started) = started {
            let elapsed = started.elapsed();
            span.record("outcome", outcome);
            span.record("duration_us", elapsed.as_micros() as u64);
            span.in_scope(|| tracing::debug!(outcome, ?elapsed, "tool call finished"));
        }
        let mut result = result;
        let mut meta = result.meta.take().unwrap_or_else(MetaObject::new);
        meta.0.insert(TRACE_ID_META.to_owned(), trace_value);
        Ok(result.with_meta(Some(meta)))
    }

    /// Validates, runs the body, shapes the result; returns the outcome's name for the span.
    async fn run(
        this: &Arc<Self>,
        entry: &Entry<S>,
        arguments: Option<JsonObject>,
        mut site: CallSite,
        trace_id: String,
    ) -> (&'static str, CallToolResult) {
        let name = &*entry.name;
        let limit = this.config.max_argument_bytes;
        if json_size_upper_bound(arguments.as_ref()) > limit {
            let size = json_size(arguments.as_ref());
            if size > limit {
                tracing::debug!(size, limit, "arguments too large");
                return ("too_large", arguments_too_large(name, size, limit));
            }
        }
        let mut value = Value::Object(arguments.unwrap_or_default());
        if let Err(violations) = entry.validator.validate(&mut value, this.config.coercion) {
            tracing::debug!(problems = violations.len(), "invalid arguments");
            return ("invalid_arguments", invalid_arguments(name, &violations));
        }
        let Value::Object(map) = value else {
            // The validator only accepts objects at the root.
            return ("invalid_arguments", invalid_arguments(name, &[]));
        };
        if name == DESCRIBE_TOOL && this.describe.is_some() {
            let wanted = map.get("name").and_then(Value::as_str).unwrap_or_default();
            let found = read(&this.listed)
                .iter()
                .find(|t| t.name == wanted)
                .cloned();
            return match found.map(serde_json::to_value) {
                Some(Ok(definition)) => ("ok", CallToolResult::structured(definition)),
                _ => (
                    "tool_error",
                    CallToolResult::error(vec![ContentBlock::text(format!(
                        "Tool `{wanted}` is not available right now; available tools: {}",
                        read(&this.listed)
                            .iter()
                            .map(|t| t.name.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))]),
                ),
            };
        }
        // A call its queue refused is refused as such, before it is counted against a limit.
        if let Some(Err(full)) = &site.arrival {
            let text = exec::messages::queue_full(name, &full.resource, full.waiting);
            let mut meta = MetaObject::new();
            meta.0.insert(RETRYABLE_META.to_owned(), Value::Bool(true));
            return (
                "queue_full",
                CallToolResult::error(vec![ContentBlock::text(text)]).with_meta(Some(meta)),
            );
        }
        let limited = if entry.meta.rate_limit.is_some() || this.config.client_rate_limit.is_some()
        {
            let client = site
                .client
                .take()
                .unwrap_or_else(|| Arc::from(LOCAL_CLIENT));
            Some(this.check_limits(&client, entry).await)
        } else {
            None
        };
        if let Some(Err(limited)) = limited {
            tracing::debug!(?limited, "rate limited");
            let text = exec::rate::limited_message(name, &limited);
            let mut meta = MetaObject::new();
            meta.0.insert(RETRYABLE_META.to_owned(), Value::Bool(true));
            meta.0.insert(
                RETRY_AFTER_META.to_owned(),
                Value::from(limited.wait.as_millis() as u64),
            );
            return (
                "rate_limited",
                CallToolResult::error(vec![ContentBlock::text(text)]).with_meta(Some(meta)),
            );
        }
        let call = exec::Call {
            tool: &entry.name,
            state: &this.state,
            handler: entry.handler,
            policy: &entry.policy,
            timeout: entry.policy.timeout.or(this.config.default_timeout),
            grace: entry.policy.grace.or(this.config.default_grace),
            concurrency: this.config.concurrency.as_ref(),
            arrival: site.arrival,
            client: site.cancel,
            peer: site.peer,
            progress_token: site.progress_token,
            trace_id,
            arrival_lock: &this.arrival,
            tracker: &this.calls,
        };
        match exec::run(call, map).await {
            (outcome, Outcome::Value(value)) => (outcome, shape_output(entry, value)),
            (outcome, Outcome::Error { text, retryable }) => {
                let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
                if retryable {
                    let mut meta = MetaObject::new();
                    meta.0.insert(RETRYABLE_META.to_owned(), Value::Bool(true));
                    result = result.with_meta(Some(meta));
                }
                (outcome, result)
            }
        }
    }
}

/// The `_meta` key of an error result that may succeed if the call is made again unchanged
/// (a full queue, a rate limit, a retryable tool error).
pub const RETRYABLE_META: &str = "io.toolwright/retryable";

/// The `_meta` key of a refusal that says how long to wait, in milliseconds (a rate limit).
pub const RETRY_AFTER_META: &str = "io.toolwright/retryAfterMs";

/// The `_meta` key, on a tool definition, of the OAuth scopes calling it over HTTP needs.
pub const SCOPES_META: &str = "io.toolwright/scopes";

/// The client of calls that come with no identity (stdio, in-process).
const LOCAL_CLIENT: &str = "local";

/// The result of a successful call, cut to the tool's output budget if it declares one.
fn shape_output<S>(entry: &Entry<S>, value: Value) -> CallToolResult {
    let mut result = entry.output.result(value);
    let Some(budget) = entry.policy.max_output_bytes else {
        return result;
    };
    let truncation = if let Some(structured) = result.structured_content.as_mut() {
        policy::cut_to_budget(structured, budget).map(|t| {
            let text = structured.to_string();
            (t.note(), t.to_meta(), text)
        })
    } else {
        let mut text = result
            .content
            .first()
            .and_then(|c| c.as_text())
            .map(|t| t.text.clone())
            .unwrap_or_default();
        policy::cut_text(&mut text, budget).map(|(kept, total)| {
            (
                format!(
                    "[output cut to fit the {budget} byte budget: kept the first {kept} of {total} \
                     bytes. To see the rest, call again asking for less.]"
                ),
                serde_json::json!({"path": "", "kept": kept, "total": total, "budget": budget}),
                text,
            )
        })
    };
    if let Some((note, meta, text)) = truncation {
        result.content = vec![ContentBlock::text(text), ContentBlock::text(note)];
        let mut m = result.meta.take().unwrap_or_default();
        m.0.insert(TRUNCATED_META.to_owned(), meta);
        result.meta = Some(m);
    }
    result
}

/// The `_meta` key of a result that was cut to its output budget.
pub const TRUNCATED_META: &str = "io.toolwright/truncated";

fn read<T>(lock: &std::sync::RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|p| p.into_inner())
}

fn write<T>(lock: &std::sync::RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(|p| p.into_inner())
}

/// The name of the opt-in meta tool.
pub const DESCRIBE_TOOL: &str = "describe_tool";

/// The `describe_tool` entry for these tools: its input is one of their names.
fn describe_entry<S>(entries: &[Entry<S>]) -> Entry<S> {
    let names: Vec<Value> = entries.iter().map(|e| Value::from(&*e.name)).collect();
    let input = serde_json::json!({
        "type": "object",
        "properties": {
            "name": {
                "type": "string",
                "description": "The name of the tool to describe.",
                "enum": names,
            }
        },
        "required": ["name"],
        "additionalProperties": false,
    });
    let validator = Validator::compile(&input).expect("the describe_tool schema is valid");
    let Value::Object(input) = input else {
        unreachable!("built as an object")
    };
    let tool = Tool::new(
        DESCRIBE_TOOL,
        "Return the full definition of one tool (description, input and output schemas, \
         annotations), exactly as tools/list has it. Use it to check a tool's parameters before \
         calling it.",
        Arc::new(input),
    )
    .with_annotations(ToolAnnotations::from_raw(
        None,
        Some(true),
        Some(false),
        Some(true),
        Some(false),
    ))
    .with_raw_output_schema(Arc::new(
        match serde_json::json!({
            "type": "object",
            "description": "A tool definition, as in tools/list.",
            "properties": {
                "name": {"type": "string"},
                "title": {"type": "string"},
                "description": {"type": "string"},
                "inputSchema": {"type": "object"},
                "outputSchema": {"type": "object"},
                "annotations": {"type": "object"},
            },
            "required": ["name", "inputSchema"],
        }) {
            Value::Object(m) => m,
            _ => unreachable!("an object literal"),
        },
    ));
    let meta = ToolMeta {
        name: DESCRIBE_TOOL,
        read_only: Some(true),
        ..ToolMeta::default()
    };
    Entry {
        index: usize::MAX,
        name: Arc::from(DESCRIBE_TOOL),
        tool,
        validator,
        output: OutputMode::Structured,
        handler: |_, _| {
            Body::Async(Box::pin(async {
                Err(CallError::Tool(ToolError::new("unreachable")))
            }))
        },
        meta,
        policy: Policy::default(),
    }
}

/// The `_meta` key of a result that carries the call's trace id.
pub const TRACE_ID_META: &str = "io.toolwright/traceId";

/// Where a call came from: the client connection, its progress token and cancellation.
#[derive(Default)]
struct CallSite {
    peer: Option<rmcp::Peer<RoleServer>>,
    progress_token: Option<rmcp::model::ProgressToken>,
    cancel: tokio_util::sync::CancellationToken,
    trace_id: Option<String>,
    /// The places the call took in its resources' queues when the transport read it.
    arrival: Option<exec::arrival::Places>,
    /// The tool's index, found when the transport read the call.
    stamped_tool: Option<usize>,
    /// Who is calling, for rate limits (`None`: the local client).
    client: Option<Arc<str>>,
}

impl CallSite {
    fn from_request(
        context: &RequestContext<RoleServer>,
        request_meta: Option<&rmcp::model::RequestMetaObject>,
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
        CallSite {
            peer: Some(context.peer.clone()),
            progress_token,
            cancel: context.ct.clone(),
            trace_id,
            arrival,
            stamped_tool,
            client: client_of(context),
        }
    }
}

/// The most problems one refusal lists; the rest are counted ("… and 9,980 more"), so the text a
/// model reads stays bounded however many problems the arguments have.
pub const MAX_LISTED_PROBLEMS: usize = 20;

/// The longest line, in bytes, one problem takes in a refusal (a 10 MB key is not echoed).
pub const MAX_PROBLEM_BYTES: usize = 400;

/// Who is calling: over HTTP, the authenticated principal, else the session, else the peer's
/// address; `None` for the local client (stdio).
#[cfg(feature = "http")]
fn client_of(context: &RequestContext<RoleServer>) -> Option<Arc<str>> {
    let parts = context.extensions.get::<http::request::Parts>()?;
    if let Some(who) = parts.extensions.get::<crate::http::Principal>() {
        return Some(Arc::clone(&who.0));
    }
    if let Some(session) = parts.extensions.get::<crate::http::KnownSession>() {
        return Some(Arc::from(format!("session {}", session.0)));
    }
    parts
        .extensions
        .get::<crate::http::PeerAddr>()
        .map(|p| Arc::from(format!("address {}", p.0.ip())))
}

#[cfg(not(feature = "http"))]
fn client_of(_context: &RequestContext<RoleServer>) -> Option<Arc<str>> {
    None
}

/// The `isError` result for refused arguments: the first [`MAX_LISTED_PROBLEMS`] problems, each
/// within [`MAX_PROBLEM_BYTES`], the count of the others, then what to do.
pub fn invalid_arguments(tool: &str, violations: &[Violation]) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(invalid_arguments_text(
        tool, violations,
    ))])
}

/// The text of [`invalid_arguments`].
pub(crate) fn invalid_arguments_text(tool: &str, violations: &[Violation]) -> String {
    use std::fmt::Write as _;
    let n = violations.len();
    let mut text = format!(
        "Invalid arguments for tool `{tool}` ({} problem{}):",
        thousands(n),
        if n == 1 { "" } else { "s" }
    );
    let mut line = String::new();
    for v in violations.iter().take(MAX_LISTED_PROBLEMS) {
        line.clear();
        let _ = write!(line, "{v}");
        text.push_str("\n- ");
        text.push_str(&cut_line(&line, MAX_PROBLEM_BYTES));
    }
    if n > MAX_LISTED_PROBLEMS {
        let _ = write!(
            text,
            "\n- … and {} more (fix the problems above first; the next call lists what remains)",
            thousands(n - MAX_LISTED_PROBLEMS)
        );
    }
    text.push_str("\nThe tool did not run. Fix the arguments above and call it again.");
    text
}

/// `line` cut to at most `max` bytes on a character boundary, ending in `…` when cut.
fn cut_line(line: &str, max: usize) -> std::borrow::Cow<'_, str> {
    if line.len() <= max {
        return Cow::Borrowed(line);
    }
    let mut end = max - '…'.len_utf8();
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}…", &line[..end]))
}

/// `9980` as `9,980`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The default of [`Toolbox::with_max_argument_bytes`]: 1 MiB.
pub const DEFAULT_MAX_ARGUMENT_BYTES: usize = 1 << 20;

/// The `isError` result for arguments over the size limit.
fn arguments_too_large(tool: &str, size: usize, limit: usize) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(format!(
        "Arguments for tool `{tool}` are too large: {size} bytes, over the limit of {limit} bytes. \
         Send smaller arguments (for example fewer items per call)."
    ))])
}

/// The exact size of the arguments serialized as compact JSON (`{}` when absent), computed
/// without writing the text out and without recursion (an explicit stack instead), so a deeply
/// nested document cannot overflow the call stack here.
fn json_size(arguments: Option<&JsonObject>) -> usize {
    fn string_len(s: &str) -> usize {
        // serde_json's escaping: `"` and `\` and \b \f \n \r \t take two bytes, other control
        // characters six (`\u001f`), everything else (UTF-8 included) is written as is.
        let escapes: usize = s
            .bytes()
            .map(|b| match b {
                b'"' | b'\\' | 0x08 | 0x0c | b'\n' | b'\r' | b'\t' => 1,
                0..=0x1f => 5,
                _ => 0,
            })
            .sum();
        s.len() + escapes + 2
    }
    fn object<'a>(map: &'a JsonObject, stack: &mut Vec<&'a Value>) -> usize {
        // Braces, commas, and a colon per entry.
        let mut size = 2 + map.len().saturating_sub(1);
        for (key, value) in map {
            size += string_len(key) + 1;
            stack.push(value);
        }
        size
    }
    let Some(map) = arguments else {
        return 2;
    };
    let mut stack = Vec::new();
    let mut size = object(map, &mut stack);
    while let Some(value) = stack.pop() {
        size += match value {
            Value::Null | Value::Bool(true) => 4,
            Value::Bool(false) => 5,
            Value::Number(n) => exact_number_len(n),
            Value::String(s) => string_len(s),
            Value::Array(items) => {
                stack.extend(items);
                2 + items.len().saturating_sub(1)
            }
            Value::Object(map) => object(map, &mut stack),
        };
    }
    size
}

/// An upper bound of [`json_size`] that neither formats numbers (each counts as the longest a
/// serialized number can be, [`MAX_NUMBER_LEN`]) nor scans strings for escapes (each byte counts
/// as the six an escape can take) nor allocates. It recurses, up to [`UPPER_BOUND_DEPTH`] levels;
/// deeper documents get `usize::MAX` (so the exact count decides). Arguments under the limit by
/// this bound (all but those near it or full of long strings) need no exact count.
fn json_size_upper_bound(arguments: Option<&JsonObject>) -> usize {
    fn object(map: &JsonObject, depth: usize) -> usize {
        map.iter().fold(2 + map.len(), |size, (key, value)| {
            size.saturating_add(key.len() * 6 + 3)
                .saturating_add(value_bound(value, depth + 1))
        })
    }
    fn value_bound(value: &Value, depth: usize) -> usize {
        match value {
            Value::Null | Value::Bool(_) => 5,
            Value::Number(_) => MAX_NUMBER_LEN,
            Value::String(s) => s.len().saturating_mul(6).saturating_add(2),
            _ if depth >= UPPER_BOUND_DEPTH => usize::MAX,
            Value::Array(items) => items.iter().fold(2 + items.len(), |size, v| {
                size.saturating_add(value_bound(v, depth + 1))
            }),
            Value::Object(map) => object(map, depth),
        }
    }
    arguments.map_or(2, |map| object(map, 0))
}

/// How deep [`json_size_upper_bound`] recurses before it hands a value to the exact count.
const UPPER_BOUND_DEPTH: usize = 32;

/// The longest serialization of a `serde_json::Number`: 20 for `u64::MAX` and `i64::MIN`, at most
/// 24 for an f64 in ryu's shortest form (`-2.2250738585072014e-308`).
const MAX_NUMBER_LEN: usize = 24;

/// The length of a number's serialization.
fn exact_number_len(n: &serde_json::Number) -> usize {
    struct Count(usize);
    impl fmt::Write for Count {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.0 += s.len();
            Ok(())
        }
    }
    let mut count = Count(0);
    // `Number`'s Display is serde_json's serialization (itoa / ryu).
    let _ = fmt::Write::write_fmt(&mut count, format_args!("{n}"));
    count.0
}

impl<S: Send + Sync + 'static> ServerHandler for Toolbox<S> {
    fn get_info(&self) -> ServerConfig {
        let config = &self.inner.config;
        let mut info = Implementation::new(config.name.clone(), config.version.clone());
        if let Some(title) = &config.title {
            info = info.with_title(title.clone());
        }
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .build();
        let mut server = ServerConfig::new(capabilities).with_server_info(info);
        if let Some(instructions) = &config.instructions {
            server = server.with_instructions(instructions.clone());
        }
        server
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let cache_hints = context
            .protocol_version()
            .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28);
        Ok(ListToolsResult {
            result_type: Some(ResultType::COMPLETE),
            tools: read(&self.inner.listed).clone(),
            meta: None,
            next_cursor: None,
            ttl_ms: cache_hints.then_some(0),
            cache_scope: cache_hints.then_some(CacheScope::Public),
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let site = CallSite::from_request(&context, request.meta.as_ref());
        Inner::call(&self.inner, &request.name, request.arguments, site)
            .await
            .map(CallToolResponse::from)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        read(&self.inner.listed)
            .iter()
            .find(|t| t.name == name)
            .cloned()
    }

    async fn on_initialized(&self, context: rmcp::service::NotificationContext<RoleServer>) {
        let mut peers = self.inner.peers.lock().unwrap_or_else(|p| p.into_inner());
        peers.retain(|p| !p.is_transport_closed());
        peers.push(context.peer);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn object(v: Value) -> JsonObject {
        match v {
            Value::Object(map) => map,
            other => panic!("not an object: {other}"),
        }
    }

    #[test]
    fn json_size_is_the_compact_serialization_length() {
        let docs = [
            json!({}),
            json!({"force": 15}),
            json!({"a": null, "b": true, "c": false, "d": [], "e": {}, "f": [1, [2, [3]]]}),
            json!({"n": [0, -0.0, 0.1, 1e300, -2.5e-8, 15.0, u64::MAX, i64::MIN, 1.7976931348623157e308]}),
            json!({"s": "quote \" backslash \\ slash / tab \t nl \n cr \r bs \u{8} ff \u{c} nul \u{0} us \u{1f} del \u{7f}"}),
            json!({"unicode é 🦀": "pаrallel (Cyrillic а), ｆｕｌｌ, zero\u{200d}width"}),
            json!({"waypoints": [{"x": 400, "y": 0, "z": 200}, {"x": 400.5, "y": -3, "z": 1e2}]}),
        ];
        for doc in docs {
            let expected = serde_json::to_string(&doc).unwrap().len();
            let doc = object(doc);
            assert_eq!(json_size(Some(&doc)), expected, "{doc:?}");
            assert!(json_size_upper_bound(Some(&doc)) >= expected, "{doc:?}");
            assert!(
                json_size_upper_bound(Some(&doc)) <= 6 * expected + 24,
                "{doc:?}"
            );
        }
        assert_eq!(json_size(None), 2, "absent arguments are `{{}}`");
        let big = json!({"s": "x".repeat(3 << 20)});
        assert_eq!(json_size(Some(&object(big))), (3 << 20) + 8);
    }

    #[test]
    fn json_size_does_not_recurse() {
        // 200,000 levels on a 256 KiB stack: serde_json's serializer (or any recursion) would
        // overflow it. The document is leaked because dropping it would recurse.
        let handle = std::thread::Builder::new().stack_size(256 << 10).spawn(|| {
            let mut deep = json!(1);
            for _ in 0..200_000 {
                deep = Value::Array(vec![deep]);
            }
            let map = object(json!({}));
            let mut map = std::mem::ManuallyDrop::new(map);
            map.insert("deep".to_owned(), deep);
            // The upper bound gives up past its depth (and says so with usize::MAX).
            assert_eq!(json_size_upper_bound(Some(&map)), usize::MAX);
            json_size(Some(&map))
        });
        let size = handle.map(|h| h.join());
        assert!(
            matches!(size, Ok(Ok(n)) if n == 2 + 6 + 1 + 200_000 * 2 + 1),
            "{size:?}"
        );
    }

    #[test]
    fn args_take_by_name_in_any_order_once() {
        let map = object(json!({"a": 1, "b": "two", "c": [3], "d": null}));
        let mut args = Args::new(map, Context::detached("t"));
        // Out of declaration order, then back: each found by name.
        assert_eq!(args.take::<Vec<u8>>("c"), Ok(vec![3]));
        assert_eq!(args.take::<u8>("a"), Ok(1));
        assert_eq!(args.take::<String>("b"), Ok("two".to_owned()));
        // Absent, null, and already taken all read as null.
        assert_eq!(args.take::<Option<u8>>("missing"), Ok(None));
        assert_eq!(args.take::<Option<u8>>("d"), Ok(None));
        assert_eq!(args.take::<Option<u8>>("a"), Ok(None));
        assert!(args.take::<u8>("a").is_err());
        match args.into_error() {
            CallError::Invalid(v) => {
                assert_eq!(v.len(), 1);
                assert_eq!(v[0].path, "a");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn args_take_all_leaves_out_what_was_taken() {
        #[derive(serde::Deserialize, Debug, PartialEq)]
        #[serde(deny_unknown_fields)]
        struct Rest {
            b: u8,
            #[serde(default)]
            c: Option<u8>,
        }
        let mut args = Args::new(
            object(json!({"a": 1, "b": 2, "c": 3})),
            Context::detached("t"),
        );
        assert_eq!(args.take::<u8>("a"), Ok(1));
        assert_eq!(args.take_all::<Rest>(), Ok(Rest { b: 2, c: Some(3) }));

        // More than 64 arguments: the taken set goes past its bit mask.
        let many: JsonObject = (0..100).map(|i| (format!("k{i}"), json!(i))).collect();
        let mut args = Args::new(many, Context::detached("t"));
        for i in (0..100).step_by(3) {
            assert_eq!(args.take::<u32>(&format!("k{i}")), Ok(i));
        }
        assert_eq!(
            args.take::<Option<u32>>("k99"),
            Ok(None),
            "taken once already"
        );
        let rest: JsonObject = args.take_all().expect("a map");
        assert_eq!(rest.len(), 66);
        assert!(rest.keys().all(|k| k[1..].parse::<u32>().unwrap() % 3 != 0));
    }

    #[test]
    fn refusals_list_at_most_twenty_problems_of_bounded_length() {
        let many: Vec<Violation> = (0..10_000)
            .map(|i| Violation {
                path: format!("k{i}"),
                message: "unknown argument; allowed: force".to_owned(),
                hint: None,
            })
            .collect();
        let r = invalid_arguments("grasp", &many);
        let text = r.content[0].as_text().unwrap().text.clone();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "Invalid arguments for tool `grasp` (10,000 problems):"
        );
        assert_eq!(lines[1], "- k0: unknown argument; allowed: force");
        assert_eq!(lines[20], "- k19: unknown argument; allowed: force");
        assert_eq!(
            lines[21],
            "- … and 9,980 more (fix the problems above first; the next call lists what remains)"
        );
        assert_eq!(lines.len(), 23, "{text}");
        assert!(text.len() < 2_000, "{} bytes", text.len());

        // One problem with a 1 MB key is cut on a character boundary.
        let huge = Violation {
            path: "é".repeat(500_000),
            message: "unknown argument".to_owned(),
            hint: None,
        };
        let r = invalid_arguments("grasp", &[huge]);
        let text = &r.content[0].as_text().unwrap().text;
        let line = text.lines().nth(1).unwrap();
        assert!(line.len() <= MAX_PROBLEM_BYTES + 2, "{}", line.len());
        assert!(line.ends_with("é…"), "{line}");
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn too_large_message() {
        let r = arguments_too_large("plan_trajectory", 2_000_000, DEFAULT_MAX_ARGUMENT_BYTES);
        assert_eq!(r.is_error, Some(true));
        assert_eq!(
            r.content[0].as_text().map(|t| t.text.as_str()),
            Some(
                "Arguments for tool `plan_trajectory` are too large: 2000000 bytes, over the \
                 limit of 1048576 bytes. Send smaller arguments (for example fewer items per call)."
            )
        );
    }
}
