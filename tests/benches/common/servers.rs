//! The servers compared by the protocol benchmark, each with 4 tools and with 40:
//!
//! - **toolwright**: the robot_arm example's `RobotArm` (`SimConfig { time_scale: 0.0, .. }`),
//!   restricted to its `move_arm_to_pose`, `grasp_object_force_control`, `read_ft_sensor` and
//!   `plan_trajectory`; the 40-tool server adds 36 generated `#[tool]` fns of `move_arm_to_pose`'s
//!   shape (`jog_04` … `jog_39`).
//! - **rmcp_router** (the floor): the same tools registered by hand, one rmcp `ToolRoute` each, in
//!   a `ToolRouter` built once and stored in the server; schemas from schemars derives; the handlers
//!   do serde only.
//! - **rmcp_router_own_types** (40 tools, cold starts only): the floor with one parameter type per
//!   generated tool, as a crate of 36 separately declared tools has (the floor shares
//!   `MoveParams` among them, and rmcp caches schemas per type).
//! - **rmcp_router_same_defs**: the floor serving toolwright's exact tool definitions (the same
//!   bytes on the wire), to tell payload size from overhead in tools/list.
//! - **rmcp_macros**: rmcp's `#[tool_router]` + `#[tool]` + `#[tool_handler]` with its default,
//!   which rebuilds the router on every request.
//!
//! The call measured is `move_arm_to_pose` at the arm's home position: cheap, so the protocol
//! dominates.

use std::sync::Arc;

use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult, MetaObject,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use toolwright::{ToolDef, ToolError, ToolSet as _, Toolbox, ToolboxBuilder, tool_defs};
use toolwright_examples::robot_arm::{MoveResult, RobotArm, SimConfig};

/// The robot tools every server has.
pub const ROBOT4: [&str; 4] = [
    "move_arm_to_pose",
    "grasp_object_force_control",
    "read_ft_sensor",
    "plan_trajectory",
];

/// The tool called, and its arguments (the home position: the arm does not move).
pub const CALLED: &str = "move_arm_to_pose";

/// `move_arm_to_pose`'s arguments.
pub fn call_arguments() -> serde_json::Map<String, Value> {
    match serde_json::json!({"x": 300.0, "y": 0.0, "z": 400.0, "speed": 0.5}) {
        Value::Object(m) => m,
        _ => unreachable!(),
    }
}

/// Names the 36 generated tools, passing them to `$m!`.
macro_rules! with_jog_names {
    ($m:ident $(, $arg:tt)*) => {
        $m!($($arg)*; jog_04 jog_05 jog_06 jog_07 jog_08 jog_09 jog_10 jog_11 jog_12 jog_13 jog_14
            jog_15 jog_16 jog_17 jog_18 jog_19 jog_20 jog_21 jog_22 jog_23 jog_24 jog_25 jog_26
            jog_27 jog_28 jog_29 jog_30 jog_31 jog_32 jog_33 jog_34 jog_35 jog_36 jog_37 jog_38
            jog_39);
    };
}

// ---------------------------------------------------------------------------------------------
// toolwright
// ---------------------------------------------------------------------------------------------

macro_rules! toolwright_jogs {
    (; $($name:ident)*) => {
        $(
            /// Jog the tool point in a straight line to a Cartesian position in the robot base
            /// frame (a generated tool of move_arm_to_pose's shape).
            #[toolwright::tool(idempotent, destructive = false, open_world = false)]
            async fn $name(
                /// Target X coordinate (forward from the base).
                #[param(unit = "mm", range = -850.0..=850.0)]
                x: f64,
                /// Target Y coordinate (to the left of the base).
                #[param(unit = "mm", range = -850.0..=850.0)]
                y: f64,
                /// Target Z coordinate (up from the table surface).
                #[param(unit = "mm", range = 0.0..=950.0)]
                z: f64,
                /// Fraction of the maximum speed (500 mm/s); 1.0 is full speed.
                #[param(range = 0.1..=1.0, default = 0.5)]
                speed: f64,
            ) -> Result<MoveResult, ToolError> {
                Ok(MoveResult {
                    position: nalgebra::Point3::new(x, y, z),
                    distance: 0.0,
                    duration: speed * 0.0,
                })
            }
        )*

        fn toolwright_jog_defs() -> Vec<ToolDef<RobotArm>> {
            tool_defs![$($name),*]
        }
    };
}

with_jog_names!(toolwright_jogs);

fn robot4_defs() -> Vec<ToolDef<RobotArm>> {
    RobotArm::tools()
        .into_iter()
        .filter(|d| ROBOT4.contains(&d.meta.name))
        .collect()
}

fn arm() -> RobotArm {
    RobotArm::new(SimConfig {
        time_scale: 0.0,
        ..SimConfig::default()
    })
}

/// toolwright's robot tools: 4, or 40 with the generated ones, with the example's declared
/// default deadline (`#[toolbox(timeout = "30s")]`, which the motion tools use).
pub fn toolwright(tools: usize) -> Toolbox<RobotArm> {
    // The benches measure the call path, so no one is asked to confirm a motion.
    let mut builder = ToolboxBuilder::new(arm())
        .with_tools(robot4_defs())
        .with_declared_resources()
        .with_confirmation(false);
    if let Some(ms) = RobotArm::defaults().timeout_ms {
        builder = builder.with_default_timeout(std::time::Duration::from_millis(ms));
    }
    let builder = match tools {
        4 => builder,
        40 => builder.with_tools(toolwright_jog_defs()),
        n => panic!("no {n}-tool toolwright server"),
    };
    builder.build().unwrap()
}

/// The 4 robot tools as [`toolwright`] serves them, with their targets in the arm's envelope
/// (`targets`) or without (the same tools, the envelope gate and the turn check skipped): the
/// two sides of the envelope's cost per call.
pub fn toolwright_targets(targets: bool) -> Toolbox<RobotArm> {
    let mut defs = robot4_defs();
    if !targets {
        for def in &mut defs {
            def.meta.target = None;
        }
    }
    let mut builder = ToolboxBuilder::new(arm())
        .with_tools(defs)
        .with_declared_resources()
        .with_confirmation(false);
    if let Some(ms) = RobotArm::defaults().timeout_ms {
        builder = builder.with_default_timeout(std::time::Duration::from_millis(ms));
    }
    builder.build().unwrap()
}

/// `plan_trajectory`'s arguments for a plan of `n` waypoints 10 mm apart from the arm's home
/// position (planned, not executed): `n` segments, the first from where the arm is.
pub fn path_arguments(n: usize) -> serde_json::Map<String, Value> {
    let waypoints: Vec<Value> = (1..=n)
        .map(|i| serde_json::json!({"x": 300.0 + 10.0 * i as f64, "y": 0.0, "z": 400.0}))
        .collect();
    match serde_json::json!({"waypoints": waypoints, "execute": false}) {
        Value::Object(m) => m,
        _ => unreachable!(),
    }
}

// ---------------------------------------------------------------------------------------------
// The rmcp twins' parameter and result types (schemars derives, written the rmcp way)
// ---------------------------------------------------------------------------------------------

/// A point in the robot base frame, in millimetres.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Point3 {
    /// X coordinate (forward from the base), mm.
    #[schemars(range(min = -850.0, max = 850.0), extend("x-unit" = "mm"))]
    pub x: f64,
    /// Y coordinate (to the left of the base), mm.
    #[schemars(range(min = -850.0, max = 850.0), extend("x-unit" = "mm"))]
    pub y: f64,
    /// Z coordinate (up from the table surface), mm.
    #[schemars(range(min = 0.0, max = 950.0), extend("x-unit" = "mm"))]
    pub z: f64,
}

fn default_speed() -> f64 {
    0.5
}
fn default_force() -> f64 {
    15.0
}
fn default_timeout() -> f64 {
    10.0
}

/// Defines a parameter struct of `move_arm_to_pose`'s shape (`MoveParams`, and the generated
/// tools' own types in `rmcp_router_own_types`).
macro_rules! move_params_struct {
    ($(#[$attr:meta])* $name:ident) => {
        $(#[$attr])*
        #[derive(Debug, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// Target X coordinate (forward from the base), mm.
            #[schemars(range(min = -850.0, max = 850.0), extend("x-unit" = "mm"))]
            pub x: f64,
            /// Target Y coordinate (to the left of the base), mm.
            #[schemars(range(min = -850.0, max = 850.0), extend("x-unit" = "mm"))]
            pub y: f64,
            /// Target Z coordinate (up from the table surface), mm.
            #[schemars(range(min = 0.0, max = 950.0), extend("x-unit" = "mm"))]
            pub z: f64,
            /// Fraction of the maximum speed (500 mm/s); 1.0 is full speed.
            #[serde(default = "default_speed")]
            #[schemars(range(min = 0.1, max = 1.0))]
            pub speed: f64,
        }
    };
}

move_params_struct!(
    /// `move_arm_to_pose` arguments.
    MoveParams
);

/// How the gripper holds an object.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// two-finger parallel jaw
    #[default]
    Parallel,
    /// vacuum cup
    Suction,
    /// conforming fingers
    Adaptive,
}

/// `grasp_object_force_control` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GraspParams {
    /// Grasp point of the object, in the robot base frame.
    pub target_position: Point3,
    /// Grip force to apply once the fingers touch, N.
    #[serde(default = "default_force")]
    #[schemars(range(min = 5.0, max = 30.0), extend("x-unit" = "N"))]
    pub force: f64,
    /// How to hold the object.
    #[serde(default)]
    pub grasp_strategy: Strategy,
    /// Give up if the grasp is not stable within this time, s.
    #[serde(default = "default_timeout")]
    #[schemars(range(min = 1.0, max = 60.0), extend("x-unit" = "s"))]
    pub timeout: f64,
}

/// How force/torque readings are filtered.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Filter {
    /// unfiltered samples
    Raw,
    /// Kalman-filtered estimate
    #[default]
    Kalman,
    /// mean of the last 10 samples
    MovingAverage,
}

/// One axis of the force/torque sensor.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
pub enum SensorAxis {
    /// force along x, N
    Fx,
    /// force along y, N
    Fy,
    /// force along z, N
    Fz,
    /// torque about x, N·m
    Mx,
    /// torque about y, N·m
    My,
    /// torque about z, N·m
    Mz,
}

/// `read_ft_sensor` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadFtParams {
    /// Filtering applied to the samples.
    #[serde(default)]
    pub filter: Filter,
    /// Axes to read; all six when omitted.
    #[serde(default)]
    #[schemars(length(min = 1, max = 6))]
    pub axes: Option<Vec<SensorAxis>>,
}

/// `plan_trajectory` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanParams {
    /// Points to pass through, in order; the first is where the path starts.
    #[schemars(length(min = 2, max = 100))]
    pub waypoints: Vec<Point3>,
    /// Move along the path after checking it (otherwise only plan).
    #[serde(default)]
    pub execute: bool,
}

/// Where a motion ended.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MoveOut {
    /// The tool point's position after the motion.
    pub position: Point3,
    /// Straight-line distance travelled, mm.
    pub distance: f64,
    /// Simulated duration of the motion, s.
    pub duration: f64,
}

/// The outcome of a grasp.
#[derive(Debug, Serialize, JsonSchema)]
pub struct GraspOut {
    /// The object now held.
    pub object: String,
    /// Grip force applied, N.
    pub applied_force: f64,
    /// The strategy used.
    pub strategy: Strategy,
    /// Simulated time from the call to a stable grip, s.
    pub elapsed: f64,
}

/// One force/torque sample.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AxisOut {
    /// The axis.
    pub axis: SensorAxis,
    /// The value, in N for forces and N·m for torques.
    pub value: f64,
}

/// A force/torque reading.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FtOut {
    /// The filter applied.
    pub filter: Filter,
    /// One reading per requested axis.
    pub readings: Vec<AxisOut>,
}

/// A checked trajectory.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PlanOut {
    /// Number of segments.
    pub segments: usize,
    /// Total path length, mm.
    pub total_length: f64,
}

fn move_body(p: MoveParams) -> MoveOut {
    MoveOut {
        position: Point3 {
            x: p.x,
            y: p.y,
            z: p.z,
        },
        distance: 0.0,
        duration: p.speed * 0.0,
    }
}

fn grasp_body(p: GraspParams) -> GraspOut {
    GraspOut {
        object: "red_cube".to_owned(),
        applied_force: p.force,
        strategy: p.grasp_strategy,
        elapsed: p.timeout * 0.1 + p.target_position.z * 0.0,
    }
}

fn ft_body(p: ReadFtParams) -> FtOut {
    let axes = p.axes.unwrap_or_else(|| vec![SensorAxis::Fz]);
    FtOut {
        filter: p.filter,
        readings: axes
            .into_iter()
            .map(|axis| AxisOut { axis, value: 0.0 })
            .collect(),
    }
}

fn plan_body(p: PlanParams) -> PlanOut {
    PlanOut {
        segments: p.waypoints.len().saturating_sub(usize::from(!p.execute)),
        total_length: 0.0,
    }
}

const MOVE_DOC: &str = "Move the arm's tool point in a straight line to a Cartesian position in \
    the robot base frame, keeping the gripper pointing down.";
const JOG_DOC: &str = "Jog the tool point in a straight line to a Cartesian position in the robot \
    base frame (a generated tool of move_arm_to_pose's shape).";
const GRASP_DOC: &str = "Move to an object and close the gripper on it with a controlled force.";
const FT_DOC: &str = "Read the six-axis force/torque sensor at the wrist.";
const PLAN_DOC: &str = "Check a path through several waypoints before moving along it.";

// ---------------------------------------------------------------------------------------------
// The floor: hand-registered `ToolRoute`s in a stored `ToolRouter`
// ---------------------------------------------------------------------------------------------

/// A server whose router is built once and stored.
#[derive(Clone)]
pub struct Floor {
    router: Arc<ToolRouter<Floor>>,
    trace_meta: bool,
}

fn annotations(read_only: bool) -> ToolAnnotations {
    ToolAnnotations::from_raw(None, Some(read_only), Some(false), Some(true), Some(false))
}

fn move_tool(name: &'static str, doc: &'static str) -> Tool {
    Tool::new(name, doc, serde_json::Map::new())
        .with_input_schema::<MoveParams>()
        .with_output_schema::<MoveOut>()
        .with_annotations(annotations(false))
}

fn floor_route(tool: Tool) -> ToolRoute<Floor> {
    match tool.name.as_ref() {
        "grasp_object_force_control" => {
            ToolRoute::new(tool, |Parameters(p): Parameters<GraspParams>| {
                Json(grasp_body(p))
            })
        }
        "read_ft_sensor" => ToolRoute::new(tool, |Parameters(p): Parameters<ReadFtParams>| {
            Json(ft_body(p))
        }),
        "plan_trajectory" => ToolRoute::new(tool, |Parameters(p): Parameters<PlanParams>| {
            Json(plan_body(p))
        }),
        _ => ToolRoute::new(tool, |Parameters(p): Parameters<MoveParams>| {
            Json(move_body(p))
        }),
    }
}

/// The floor's tool definitions, from schemars derives: 4, or 40 with the generated ones.
pub fn floor_tools(tools: usize) -> Vec<Tool> {
    let mut defs = vec![
        move_tool("move_arm_to_pose", MOVE_DOC),
        Tool::new(
            "grasp_object_force_control",
            GRASP_DOC,
            serde_json::Map::new(),
        )
        .with_input_schema::<GraspParams>()
        .with_output_schema::<GraspOut>()
        .with_annotations(annotations(false)),
        Tool::new("read_ft_sensor", FT_DOC, serde_json::Map::new())
            .with_input_schema::<ReadFtParams>()
            .with_output_schema::<FtOut>()
            .with_annotations(annotations(true)),
        Tool::new("plan_trajectory", PLAN_DOC, serde_json::Map::new())
            .with_input_schema::<PlanParams>()
            .with_output_schema::<PlanOut>()
            .with_annotations(annotations(true)),
    ];
    for i in 4..tools {
        let name: &'static str = JOG_NAMES[i - 4];
        defs.push(move_tool(name, JOG_DOC));
    }
    defs
}

macro_rules! jog_name_list {
    (; $($name:ident)*) => {
        const JOG_NAMES: [&str; 36] = [$(stringify!($name)),*];
    };
}
with_jog_names!(jog_name_list);

impl Floor {
    /// The floor with `tools` tools whose definitions come from schemars derives.
    pub fn new(tools: usize) -> Self {
        Self::with_definitions(floor_tools(tools))
    }

    /// The floor serving the given definitions (e.g. toolwright's, byte for byte).
    pub fn with_definitions(tools: Vec<Tool>) -> Self {
        let mut router = ToolRouter::new();
        for tool in tools {
            router.add_route(floor_route(tool));
        }
        Floor {
            router: Arc::new(router),
            trace_meta: false,
        }
    }

    /// The floor with `tools` tools, adding to every result the `_meta` trace id toolwright adds
    /// (`io.toolwright/traceId`), to measure what that costs.
    pub fn with_trace_meta(tools: usize) -> Self {
        Floor {
            trace_meta: true,
            ..Self::new(tools)
        }
    }
}

macro_rules! floor_own_jogs {
    (; $($name:ident)*) => {
        /// The 36 generated tools with a parameter type each (`rmcp_router_own_types`).
        mod own_jogs {
            use super::*;

            $(
                move_params_struct!(
                    /// A generated tool's arguments: `MoveParams`'s shape, its own type.
                    #[allow(non_camel_case_types, dead_code)]
                    $name
                );
            )*

            /// The routes, in name order.
            pub fn routes() -> Vec<ToolRoute<Floor>> {
                vec![$(
                    ToolRoute::new(
                        Tool::new(stringify!($name), JOG_DOC, serde_json::Map::new())
                            .with_input_schema::<$name>()
                            .with_output_schema::<MoveOut>()
                            .with_annotations(annotations(false)),
                        |Parameters(p): Parameters<$name>| {
                            Json(move_body(MoveParams { x: p.x, y: p.y, z: p.z, speed: p.speed }))
                        },
                    ),
                )*]
            }
        }
    };
}
with_jog_names!(floor_own_jogs);

impl Floor {
    /// The floor with `tools` tools, the generated ones each with its own parameter type.
    pub fn with_own_types(tools: usize) -> Self {
        let mut router = ToolRouter::new();
        for tool in floor_tools(tools.min(4)) {
            router.add_route(floor_route(tool));
        }
        for route in own_jogs::routes().into_iter().take(tools.saturating_sub(4)) {
            router.add_route(route);
        }
        Floor {
            router: Arc::new(router),
            trace_meta: false,
        }
    }
}

static NEXT_TRACE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl ServerHandler for Floor {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("floor", "0.1.0"))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.router.list_all()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let response = self
            .router
            .call(ToolCallContext::new(self, request, context))
            .await?;
        match response {
            CallToolResponse::Complete(result) if self.trace_meta => {
                let n = NEXT_TRACE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let mut meta = MetaObject::new();
                meta.0.insert(
                    "io.toolwright/traceId".to_owned(),
                    Value::from(format!("{:08x}-{n:06x}", 0x5eed_u32)),
                );
                Ok(CallToolResponse::Complete(result.with_meta(Some(meta))))
            }
            other => Ok(other),
        }
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.router.get(name).cloned()
    }
}

// ---------------------------------------------------------------------------------------------
// rmcp's macros, with `#[tool_handler]`'s default (router rebuilt per request)
// ---------------------------------------------------------------------------------------------

macro_rules! rmcp_macro_server {
    ($ty:ident; $($name:ident)*) => {
        /// A server written with rmcp's macros.
        #[derive(Clone, Default)]
        pub struct $ty;

        #[tool_router]
        impl $ty {
            /// Move the arm's tool point in a straight line to a Cartesian position in the robot
            /// base frame, keeping the gripper pointing down.
            #[tool(annotations(read_only_hint = false, destructive_hint = false, idempotent_hint = true, open_world_hint = false))]
            async fn move_arm_to_pose(&self, Parameters(p): Parameters<MoveParams>) -> Json<MoveOut> {
                Json(move_body(p))
            }

            /// Move to an object and close the gripper on it with a controlled force.
            #[tool(annotations(read_only_hint = false, destructive_hint = false, idempotent_hint = true, open_world_hint = false))]
            async fn grasp_object_force_control(&self, Parameters(p): Parameters<GraspParams>) -> Json<GraspOut> {
                Json(grasp_body(p))
            }

            /// Read the six-axis force/torque sensor at the wrist.
            #[tool(annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false))]
            async fn read_ft_sensor(&self, Parameters(p): Parameters<ReadFtParams>) -> Json<FtOut> {
                Json(ft_body(p))
            }

            /// Check a path through several waypoints before moving along it.
            #[tool(annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false))]
            async fn plan_trajectory(&self, Parameters(p): Parameters<PlanParams>) -> Json<PlanOut> {
                Json(plan_body(p))
            }

            $(
                /// Jog the tool point in a straight line to a Cartesian position in the robot
                /// base frame (a generated tool of move_arm_to_pose's shape).
                #[tool(annotations(read_only_hint = false, destructive_hint = false, idempotent_hint = true, open_world_hint = false))]
                async fn $name(&self, Parameters(p): Parameters<MoveParams>) -> Json<MoveOut> {
                    Json(move_body(p))
                }
            )*
        }

        #[tool_handler]
        impl ServerHandler for $ty {}
    };
}

rmcp_macro_server!(Macros4;);
with_jog_names!(rmcp_macro_server, Macros40);
