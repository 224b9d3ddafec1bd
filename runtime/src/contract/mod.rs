//! The contract with generated code: what `#[tool]`, `#[toolbox]` and `tool_defs!` build
//! ([`ToolDef`], [`ToolMeta`], [`Params`], [`ResourceDef`], the [`ToolSet`] impl), and what their
//! handlers are given and return ([`Args`], [`Body`], [`CallError`]); with the `_meta` keys
//! clients read (`meta.rs`) and what a tool declares about its results (`options.rs`).
//!
//! The layer above the vocabulary (schema, validate, context, rate) and under everything that
//! runs a tool (probe, the families, output, exec, export, the toolbox).

use std::fmt;
use std::sync::Arc;

use futures::future::BoxFuture;
use rmcp::model::ToolAnnotations;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::context::Context;
use crate::error::ToolError;
use crate::rate::Rate;
use crate::schema::{Field, TypeInfo};
use crate::validate::Violation;

mod meta;
mod options;

pub(crate) use meta::CHECK_PREFIX;
pub use meta::{
    CHECK_META, CONFIRM_META, CONFIRM_NOT_NEEDED_META, CONTENT_META, ENVELOPE_META, RESOURCES_META,
    RESULT_ARGUMENTS_META, RETRY_AFTER_META, RETRYABLE_META, ROBOT_META, SCOPES_META,
    STOP_FOR_META, TRACE_ID_META, TRUNCATED_META,
};
pub use options::{OverBudget, ResultOptions};

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
    /// `confirm = ".."`: the question the user confirms each call with before the body runs
    /// (`{param}` placeholders filled in with the validated arguments and their units).
    pub confirm: Option<&'static str>,
    /// `confirm = false, because = ".."`: why no one needs to confirm the calls of a tool that
    /// holds a resource and is not `read_only` (published in `_meta`; such a tool declares one
    /// of the two, or the toolbox is not built).
    pub confirm_not_needed: Option<&'static str>,
    /// `check = ..`: what the tool's check refuses, its doc comment (published at the end of
    /// the description and in `_meta["io.toolwright/check"]`).
    pub check: Option<&'static str>,
    /// `stop_for = "arm"` / `stop_for = ["arm", "gripper"]`: a stop tool. It is never queued,
    /// rate-limited or confirmed; each call stops every call waiting for or using those
    /// resources, then runs their safe stops after its body.
    pub stop_for: &'static [&'static str],
    /// `task = ".."`: whether a call may (or must) run as an MCP task.
    pub task: crate::tasks::TaskSupport,
    /// `allow(deep_nesting)`: the input may nest past 3 levels. The macros check the nesting of
    /// the types they see; the toolbox's build checks what they cannot (ROS messages).
    pub deep_nesting: bool,
    /// `projection`, `summary`, `over_budget = ".."`: what the tool offers around its results.
    pub results: ResultOptions,
    /// `target = (x, y, z)`, `target = point` or `path = waypoints`: the arguments that say
    /// where the tool moves its resource, checked against the resource's envelope before the
    /// user is asked and again when the call gets its turn.
    pub target: Option<TargetDecl>,
    /// `speed = speed`: on a robot resource, the number parameter (0 < speed <= 1) that
    /// scales the joints' caps for the motion's timing; without one, the motion is timed at
    /// full speed.
    pub speed: Option<&'static str>,
}

/// Which arguments of a tool say where it moves its resource (`#[tool(target = ..)]`,
/// `#[tool(path = ..)]`), in the resource's envelope (its frame and unit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetDecl {
    /// Three number parameters: x, y and z.
    Params([&'static str; 3]),
    /// One parameter holding a point: an object with `x`, `y` and `z` (a nalgebra `Point3`, a
    /// struct of yours, a ROS `geometry_msgs/Point`) or a pose's `position` (ROS `Pose`).
    Point(&'static str),
    /// A list parameter of such points, in order: the waypoints of a path, each straight
    /// segment checked, the first from where the resource is.
    Path(&'static str),
    /// On a robot resource: one parameter holding the joint positions the arm moves to, an
    /// object with one number per moving joint, named as in the URDF (the generated
    /// joint-position type). The motion from the current joint positions is checked link by
    /// link.
    Joints(&'static str),
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

/// Where a resource is now, in its envelope's frame and unit (`#[toolbox(resource(..,
/// position = tool_point))]`); `None` when it does not know.
pub type Position<S> = fn(&S) -> Option<[f64; 3]>;

/// A tool's own check of its validated arguments against the state (`#[tool(check = ..)]`),
/// run before the user is asked and again when the call gets its turn: `Err` is what the
/// model is told. The arguments are those the body reads (in the units serde reads).
pub type Check<S> = fn(&S, &serde_json::Map<String, serde_json::Value>) -> CheckResult;

/// What a tool's check answers: `Err` refuses the call with its text; `Ok` lets it on, with
/// what the user is told of the call when asked to confirm it (the question's `{check}`), if
/// the check says something.
pub type CheckResult = Result<Option<String>, String>;

/// Where a robot resource's joints are now (`#[toolbox(resource(.., robot(..), position =
/// joints))]`), one value per moving joint in the order of the robot's joint-position type;
/// `None` when it does not know.
#[cfg(feature = "robot")]
pub type Joints<S> = fn(&S) -> Option<Vec<f64>>;

/// A resource that is a robot described by its URDF (`resource(name = "arm", robot(..),
/// envelope(..))`): the robot as read at compile time and where its joints are.
#[cfg(feature = "robot")]
pub struct RobotResource<S> {
    /// The resource's name (declared with its envelope in `ResourceDef`).
    pub resource: &'static str,
    /// The robot, as constant data.
    pub robot: &'static crate::robot::RobotDef,
    /// Where its joints are now.
    pub joints: Joints<S>,
}

#[cfg(feature = "robot")]
impl<S> Clone for RobotResource<S> {
    fn clone(&self) -> Self {
        RobotResource {
            resource: self.resource,
            robot: self.robot,
            joints: self.joints,
        }
    }
}

/// A resource as `#[toolbox(resource(..))]` declares it.
pub struct ResourceDef<S> {
    /// The name tools use in `resource = ".."`.
    pub name: &'static str,
    /// Calls that may wait for it behind the one using it (default 16).
    pub max_waiting: Option<usize>,
    /// What brings it to a known state when a call holding it is abandoned.
    pub safe_stop: Option<SafeStop<S>>,
    /// Where it is now (`position = ..`): the start of a motion's first straight segment.
    pub position: Option<Position<S>>,
    /// Where it may go (`envelope(..)`).
    pub envelope: Option<crate::envelope::EnvelopeDef>,
}

impl<S> ResourceDef<S> {
    /// A resource named `name` with no safe stop, position or envelope, and the default queue
    /// bound.
    pub fn new(name: &'static str) -> Self {
        ResourceDef {
            name,
            max_waiting: None,
            safe_stop: None,
            position: None,
            envelope: None,
        }
    }
}

impl<S> fmt::Debug for ResourceDef<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResourceDef")
            .field("name", &self.name)
            .field("max_waiting", &self.max_waiting)
            .field("safe_stop", &self.safe_stop.is_some())
            .field("position", &self.position.is_some())
            .field("envelope", &self.envelope)
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

/// Everything `#[tool]` generates for one tool; [`Toolbox`](crate::Toolbox) turns it into a
/// served tool.
///
/// Get one from [`tool_defs!`](crate::tool_defs!) (or a `#[toolbox]`'s [`ToolSet`]) and hand it to
/// [`Toolbox::from_tools`](crate::Toolbox::from_tools) or
/// [`ToolboxBuilder::with_tools`](crate::ToolboxBuilder::with_tools). Its fields are written by
/// generated code and are not public API.
pub struct ToolDef<S> {
    /// Name, description, hints.
    #[doc(hidden)]
    pub meta: ToolMeta,
    /// Parameters.
    #[doc(hidden)]
    pub params: Params,
    /// The success type (`T` of `T` or `Result<T, E>`).
    #[doc(hidden)]
    pub output: TypeInfo,
    /// The code that runs the tool.
    #[doc(hidden)]
    pub handler: Handler<S>,
    /// `#[tool(check = ..)]`: the tool's own check of its arguments against the state.
    #[doc(hidden)]
    pub check: Option<Check<S>>,
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

    /// The resources declared with `robot(..)`: their robots and joint positions.
    #[cfg(feature = "robot")]
    fn robots() -> Vec<RobotResource<Self>> {
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
#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::context::Context;
    use rmcp::model::JsonObject;

    fn object(v: Value) -> JsonObject {
        match v {
            Value::Object(map) => map,
            other => panic!("not an object: {other}"),
        }
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
}
