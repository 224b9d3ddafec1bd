//! A simulated robot arm as MCP tools.
//!
//! The arm stands at the origin of its base frame (x forward, y left, z up, millimeters) on a
//! table at z = 0. Its tool point reaches from 150 mm to 850 mm from the shoulder, which sits
//! 100 mm above the base. A few objects lie on the table; the gripper can pick them up with three
//! strategies, and a six-axis force/torque sensor at the wrist reads the load with noise. Two
//! cameras (overhead and on the wrist) look straight down at the table.
//! Motions take simulated time (scaled by [`SimConfig::time_scale`]) and can be interrupted by
//! `stop_arm`.
//!
//! # What happens when a call ends early
//!
//! The tools that move the arm share the resource `arm`, whose safe stop is `halt`
//! (`#[toolbox(resource(name = "arm", safe_stop = halt))]`): motions run one at a time in the
//! order they arrived (at most 16 wait; the 17th is refused at once), and whenever a motion ends
//! early (its 30 s deadline passed, the client cancelled it or went away, `stop_arm` stopped it,
//! the server is shutting down, or it panicked) the runtime tells it to stop, gives it its grace
//! period (1 s; at most 2 s when no one is left to answer) to return, then runs `halt` exactly
//! once, whatever the motion returned, before the next motion may start. `halt` may run twice in
//! a row (a stop and a shutdown): it is idempotent. A motion checks for that between its 50 ms
//! steps and stops where it is; a motion it knows cannot finish before its deadline is refused
//! before it starts, with its estimate and how to fix the call. Whatever way a motion ends, the
//! arm is left not moving, at a known position, and `get_arm_state` says where.
//!
//! # Long motions as tasks
//!
//! `move_arm_to_pose`, `grasp_object_force_control` and `plan_trajectory` are declared
//! `task = "optional"`: a client that takes tasks (protocol 2026-07-28's tasks extension) gets
//! a task for a motion that lasts, reads `get_arm_state` while it runs, and may cancel it with
//! `tasks/cancel`. A task is a call: cancelling it stops the motion exactly as above (grace
//! period, then `halt` once), and the task reads `cancelled` only after `halt` ran. A motion
//! task not polled (`tasks/get`) for 10 s, its lease, is stopped the same way.
//!
//! Deadlines scale with [`SimConfig::time_scale`] like the motions do, so a motion that would
//! miss its deadline on the real arm misses it in a faster simulation too;
//! [`SimConfig::motor_lag`] injects the fault of a motion that overruns its estimate.
//!
//! `stop_arm` is the arm's stop (`#[tool(stop_for = "arm")]`): never queued behind the motions,
//! never rate-limited, never confirmed. It refuses every motion waiting for the arm (none of them
//! moves), runs `halt` itself and stops the moving one, whose answer names `stop_arm` (`halt`
//! does not run again for it).
//!
//! # Who confirms a motion
//!
//! `move_arm_to_pose`, `grasp_object_force_control` and `release_object` declare `confirm`:
//! before one of them runs, the runtime asks the user, with the question filled in from the
//! validated arguments and their units ("Move the arm to (300 mm, 0 mm, 200 mm) at 0.5 of full
//! speed?"). A call the user declines, or that no one could be asked about, does nothing and
//! says so. A simulation or a test rig turns it off: `serve --confirm=off`, or
//! [`ToolboxBuilder::with_confirmation(false)`](ToolboxBuilder::with_confirmation).
//!
//! This file declares the tools and the types they take and return; the simulated arm behind
//! them (motions in simulated time, the gripper and the objects on the table, the force/torque
//! sensor and its filters) is in `sim.rs`; what the cameras see, drawn as a PNG, is in
//! `camera.rs`.

mod camera;
mod sim;

use std::ops::RangeInclusive;

use nalgebra::Point3;
use serde::{Deserialize, Serialize};
use toolwright::{
    Context, Image, ToolError, ToolSchema, Toolbox, ToolboxBuilder, WithContent, toolbox,
};
use uom::si::f64::{Force, Time};

pub use sim::{GRASP_TOLERANCE, HOME, MAX_SPEED, RobotArm, SimConfig};

/// Distance from the base to the shoulder joint, mm.
pub const SHOULDER_HEIGHT: f64 = 100.0;
/// Closest reachable distance of the tool point from the shoulder, mm.
pub const MIN_REACH: f64 = 150.0;
/// Farthest reachable distance of the tool point from the shoulder, mm.
pub const MAX_REACH: f64 = 850.0;
/// Highest point the tool can reach above the table, mm.
pub const MAX_HEIGHT: f64 = SHOULDER_HEIGHT + MAX_REACH;
/// The radius of the ball around the tool point that the fingers (and a small object held in
/// them) fit in, mm: the envelope keeps that whole ball inside it and clear of the keep-outs.
pub const TOOL_RADIUS: f64 = 15.0;
/// Where the overhead camera's mast stands (x, y), mm: a vertical post of radius
/// [`MAST_RADIUS`] from the floor to above the arm's reach.
pub const MAST: [f64; 2] = [-450.0, 450.0];
/// The camera mast's radius, mm.
pub const MAST_RADIUS: f64 = 50.0;
/// The longest one straight motion may be, mm.
pub const MAX_STEP: f64 = 1000.0;
/// The box every position of the tool point lies in, per coordinate (x, y, z), mm: what
/// `range = WORKSPACE` publishes and checks on every point of the robot base frame. It is the
/// envelope's bounding box (the reach and the table, less the tool's radius), which the build
/// holds it to: a published range never promises what the envelope refuses.
pub const WORKSPACE: [RangeInclusive<f64>; 3] = [
    -MAX_REACH..=MAX_REACH,
    -MAX_REACH..=MAX_REACH,
    TOOL_RADIUS..=MAX_HEIGHT,
];

/// How the gripper holds an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToolSchema)]
#[serde(rename_all = "snake_case")]
pub enum GraspStrategy {
    /// two-finger parallel jaw, for rigid objects with flat sides
    #[default]
    Parallel,
    /// vacuum cup, for smooth flat tops (not for porous objects)
    Suction,
    /// conforming fingers, for irregular or soft objects
    Adaptive,
}

/// How force/torque readings are filtered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToolSchema)]
#[serde(rename_all = "snake_case")]
pub enum FtFilter {
    /// unfiltered samples, noisiest
    Raw,
    /// Kalman-filtered estimate, least noise
    #[default]
    Kalman,
    /// mean of the last 10 samples
    MovingAverage,
}

/// One axis of the force/torque sensor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToolSchema)]
pub enum Axis {
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

impl Axis {
    const ALL: [Axis; 6] = [Axis::Fx, Axis::Fy, Axis::Fz, Axis::Mx, Axis::My, Axis::Mz];

    fn unit(self) -> &'static str {
        match self {
            Axis::Fx | Axis::Fy | Axis::Fz => "N",
            Axis::Mx | Axis::My | Axis::Mz => "N·m",
        }
    }
}

/// Where a motion ended.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct MoveResult {
    /// The tool point's position after the motion.
    #[param(unit = "mm", range = WORKSPACE)]
    pub position: Point3<f64>,
    /// Straight-line distance travelled.
    #[param(unit = "mm")]
    pub distance: f64,
    /// Simulated duration of the motion.
    #[param(unit = "s")]
    pub duration: f64,
}

/// The outcome of a grasp.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct GraspResult {
    /// The object now held.
    pub object: String,
    /// Grip force applied.
    #[param(unit = "N")]
    pub applied_force: f64,
    /// The strategy used.
    pub strategy: GraspStrategy,
    /// Simulated time from the call to a stable grip.
    #[param(unit = "s")]
    pub elapsed: f64,
}

/// The outcome of a release.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct ReleaseResult {
    /// The object that was released.
    pub object: String,
    /// Where it was put down.
    #[param(unit = "mm", range = WORKSPACE)]
    pub position: Point3<f64>,
}

/// The outcome of a stop.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct StopResult {
    /// Whether a motion was in progress and was interrupted.
    pub interrupted_motion: bool,
    /// Where the arm stopped.
    #[param(unit = "mm", range = WORKSPACE)]
    pub position: Point3<f64>,
}

/// One force/torque sample.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct AxisReading {
    /// The axis.
    pub axis: Axis,
    /// The value, in N for forces and N·m for torques.
    pub value: f64,
    /// The unit of `value`.
    pub unit: String,
}

/// A force/torque reading.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct FtReading {
    /// The filter applied.
    pub filter: FtFilter,
    /// One reading per requested axis, in the order asked.
    pub readings: Vec<AxisReading>,
}

/// One straight segment of a path: from where the arm is to the first waypoint, then from each
/// waypoint to the next.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct Segment {
    /// Index of the waypoint where the segment ends (the first segment starts where the arm
    /// is; each other one at the waypoint before).
    pub to: usize,
    /// Segment length.
    #[param(unit = "mm")]
    pub length: f64,
}

/// A checked path, not moved along.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct TrajectoryPlan {
    /// Where the path starts: where the arm's tool point is now.
    #[param(unit = "mm", range = WORKSPACE)]
    pub start: Point3<f64>,
    /// The straight segments, in order.
    pub segments: Vec<Segment>,
    /// Total path length, from where the arm is.
    #[param(unit = "mm")]
    pub total_length: f64,
    /// How long following it takes at `speed` (follow_trajectory's speed).
    #[param(unit = "s")]
    pub estimated_duration: f64,
    /// The speed the duration is estimated at, a fraction of the maximum (500 mm/s).
    pub speed: f64,
}

/// Where a path ended.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct TrajectoryRun {
    /// Waypoints reached, in order.
    pub reached_waypoints: usize,
    /// The tool point's position after the motion.
    #[param(unit = "mm", range = WORKSPACE)]
    pub position: Point3<f64>,
    /// Distance travelled.
    #[param(unit = "mm")]
    pub distance: f64,
    /// Simulated duration of the motion.
    #[param(unit = "s")]
    pub duration: f64,
}

/// The gripper's state.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct GripperState {
    /// Whether the gripper is closed on an object.
    pub closed: bool,
    /// The object held, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub held_object: Option<String>,
    /// Strategy of the current grasp, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strategy: Option<GraspStrategy>,
    /// Grip force being applied.
    #[param(unit = "N")]
    pub force: f64,
}

/// An object on the table.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct TableObject {
    /// Its name.
    pub name: String,
    /// Its grasp point.
    #[param(unit = "mm", range = WORKSPACE)]
    pub position: Point3<f64>,
}

/// The whole arm state.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct ArmState {
    /// The tool point's position.
    #[param(unit = "mm", range = WORKSPACE)]
    pub position: Point3<f64>,
    /// The gripper.
    pub gripper: GripperState,
    /// Whether a motion is in progress.
    pub moving: bool,
    /// Objects lying on the table (not held).
    pub objects: Vec<TableObject>,
}

/// A camera over the table. Both look straight down, so heights (z) do not show in their images.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToolSchema)]
#[serde(rename_all = "snake_case")]
pub enum Camera {
    /// fixed above the base: the whole reach of the arm (1800 × 1800 mm, the base at the image centre), 5 mm per pixel
    #[default]
    Overhead,
    /// on the wrist, looking down past the gripper: 360 × 360 mm centred on the gripper, 1 mm per pixel, to line up a grasp
    Wrist,
}

/// A point in an image, in pixels from its top-left corner: `col` to the right, `row` down. The
/// pixel (col, row) is the square centred there.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToolSchema)]
pub struct Pixel {
    /// Column, from the left edge.
    #[param(unit = "px")]
    pub col: f64,
    /// Row, from the top edge.
    #[param(unit = "px")]
    pub row: f64,
}

/// One thing drawn in a camera image and its colour.
#[derive(Debug, Clone, PartialEq, Serialize, ToolSchema)]
pub struct LegendEntry {
    /// What it is: an object's name (as get_arm_state lists it), or `table`, `grid`, `axes`,
    /// `base`, `arm` or `gripper`.
    pub name: String,
    /// Its colour, `#rrggbb`; every pixel of this colour belongs to it.
    pub color: String,
    /// How it is drawn.
    pub drawn_as: String,
}

/// How to read a camera image: its size, how pixels map to millimetres in the robot base frame,
/// and what each colour is.
#[derive(Debug, Clone, PartialEq, Serialize, ToolSchema)]
pub struct CameraView {
    /// The camera that took the image.
    pub camera: Camera,
    /// Image width.
    #[param(unit = "px")]
    pub width: u32,
    /// Image height.
    #[param(unit = "px")]
    pub height: u32,
    /// Side of one pixel on the table (the same across and down).
    #[param(unit = "mm")]
    pub mm_per_px: f64,
    /// Where the robot base origin (x = 0, y = 0) is in the image; outside it (negative, or
    /// beyond the width or height) when the camera does not see the base. The pixel (col, row)
    /// shows x = (base_pixel.row - row) * mm_per_px, y = (base_pixel.col - col) * mm_per_px.
    pub base_pixel: Pixel,
    /// The base-frame direction that points up in the image: `+x` (forward, away from the base).
    pub image_up: String,
    /// The base-frame direction that points left in the image: `+y` (the base's left).
    pub image_left: String,
    /// Everything drawn in this image, in drawing order (later entries cover earlier ones).
    pub legend: Vec<LegendEntry>,
}

/// The robot-arm server exactly as `examples/robot_arm.rs` serves it (and as its committed docs
/// in `examples/docs/robot_arm/` describe it), to build or to run the command line with. Below a
/// time scale of 1, the declared default deadline (30 s, which the motion tools use) shrinks with
/// the simulated time.
pub fn server(config: SimConfig) -> ToolboxBuilder<RobotArm> {
    let mut builder = Toolbox::builder(RobotArm::new(config));
    if let Some(deadline) = builder.default_timeout()
        && config.time_scale > 0.0
        && config.time_scale < 1.0
    {
        builder = builder.with_default_timeout(deadline.mul_f64(config.time_scale));
    }
    builder
        .with_title("Simulated robot arm")
        .with_describe_tool()
        .with_skill(
            "robot-arm",
            "Operate the simulated robot arm safely through its MCP tools: move it, pick up and \
             put down objects on the table, read its force/torque sensor and cameras, and stop \
             it; read it before calling any of its tools.",
        )
        .with_instructions(
            "A simulated 6-axis robot arm over a table. Positions are in millimeters in the robot \
             base frame (x forward, y left, z up from the table). Call get_arm_state first: it \
             lists the objects on the table with their grasp points.",
        )
}

// Where the arm may go, declared once: its tool point (the centre of a ball of TOOL_RADIUS)
// must stay within reach of the shoulder (850 mm) and above the table, clear of the base column
// it cannot fold into (150 mm from the shoulder) and of the overhead camera's mast, and move at
// most MAX_STEP in one straight line. Motions are refused before the user is asked, and again
// when they get their turn, by the runtime.
#[toolbox(
    timeout = "30s",
    resource(
        name = "arm",
        safe_stop = halt,
        max_waiting = 16,
        position = tool_point,
        envelope(
            frame = "base",
            unit = "mm",
            tool_radius = TOOL_RADIUS,
            allow(
                name = "reach",
                sphere(center = (0, 0, SHOULDER_HEIGHT), radius = MAX_REACH + TOOL_RADIUS)
            ),
            allow(
                name = "above_table",
                box(
                    min = (-MAX_REACH - TOOL_RADIUS, -MAX_REACH - TOOL_RADIUS, 0),
                    max = (MAX_REACH + TOOL_RADIUS, MAX_REACH + TOOL_RADIUS, MAX_HEIGHT + TOOL_RADIUS)
                )
            ),
            keep_out(
                name = "base_column",
                sphere(center = (0, 0, SHOULDER_HEIGHT), radius = MIN_REACH - TOOL_RADIUS)
            ),
            keep_out(
                name = "camera_mast",
                cylinder(center = (MAST[0], MAST[1]), radius = MAST_RADIUS, z = (0, 1400))
            ),
            max_step = MAX_STEP
        )
    )
)]
impl RobotArm {
    /// The safe stop of the resource `arm`: halts any motion where it is and leaves the arm not
    /// moving (idempotent: halting a halted arm changes nothing). The runtime runs it once
    /// whenever a call holding `arm` ends early (deadline, cancel, client gone, shutdown, panic),
    /// after the call's body returned or was abandoned, and before the next call gets the arm;
    /// `stop_arm` runs it at once.
    fn halt(&self) -> String {
        self.halt_motion()
    }

    /// Where the arm's tool point is now (the envelope's `position`): a motion's first straight
    /// segment starts here.
    fn tool_point(&self) -> Point3<f64> {
        self.position()
    }

    /// The gripper must be empty: holding something, nothing is asked and nothing moves.
    fn gripper_empty(&self) -> Result<(), String> {
        match self.state().gripper.held_object {
            Some(object) => Err(format!(
                "the gripper already holds {object}; call release_object to put it down first"
            )),
            None => Ok(()),
        }
    }

    /// The gripper must hold something.
    fn gripper_holds_something(&self) -> Result<(), String> {
        match self.state().gripper.held_object {
            Some(_) => Ok(()),
            None => Err(
                "the gripper is empty: there is nothing to release; get_arm_state says what is \
                 on the table"
                    .to_owned(),
            ),
        }
    }

    /// Move the arm's tool point in a straight line to a Cartesian position in the robot base
    /// frame, keeping the gripper pointing down.
    ///
    /// Use it to approach, retreat or carry a held object. Do not use it to pick something up
    /// (grasp_object_force_control moves there itself) or to follow several points
    /// (check them first with plan_trajectory). Refused before anything moves (and before the
    /// user is asked) when the position, or the straight path to it, leaves the arm's envelope.
    #[tool(
        idempotent,
        destructive = false,
        open_world = false,
        resource = "arm",
        group = "arm",
        scopes = ["arm:move"],
        confirm = "Move the arm to ({x}, {y}, {z}) at {speed} of full speed?",
        task = "optional",
        target = (x, y, z)
    )]
    async fn move_arm_to_pose(
        &self,
        /// Target X coordinate (forward from the base).
        #[param(unit = "mm", range = -MAX_REACH..=MAX_REACH)]
        x: f64,
        /// Target Y coordinate (to the left of the base).
        #[param(unit = "mm", range = -MAX_REACH..=MAX_REACH)]
        y: f64,
        /// Target Z coordinate (up from the table surface).
        #[param(unit = "mm", range = TOOL_RADIUS..=MAX_HEIGHT)]
        z: f64,
        /// Fraction of the maximum speed (500 mm/s); 1.0 is full speed.
        #[param(range = 0.1..=1.0, default = 0.5)]
        speed: f64,
        /// The call: its deadline, and whether it was told to stop.
        ctx: Context,
    ) -> Result<MoveResult, ToolError> {
        self.travel(Point3::new(x, y, z), speed, &ctx).await
    }

    /// Move to an object and close the gripper on it with a controlled force.
    ///
    /// Use it to pick up one of the objects on the table (get_arm_state lists them with their
    /// grasp points). The gripper must be empty: call release_object first if it holds
    /// something. Fragile objects break above their force limit, so prefer the default force.
    #[tool(
        destructive = false,
        open_world = false,
        resource = "arm",
        group = "arm",
        scopes = ["arm:move"],
        confirm = "Grasp the object at {target_position} with {force} ({grasp_strategy} grasp)?",
        task = "optional",
        target = target_position,
        check = gripper_empty
    )]
    async fn grasp_object_force_control(
        &self,
        /// Grasp point of the object, in the robot base frame (x forward, y left, z up from the
        /// table).
        #[param(unit = "mm", range = WORKSPACE)]
        target_position: Point3<f64>,
        /// Grip force to apply once the fingers touch.
        #[param(unit = "N", range = 5.0..=30.0, default = 15.0)]
        force: Force,
        /// How to hold the object.
        #[param(default = GraspStrategy::Parallel)]
        grasp_strategy: GraspStrategy,
        /// Give up if the grasp is not stable within this time.
        #[param(unit = "s", range = 1.0..=60.0, default = 10.0)]
        timeout: Time,
        /// The call: its deadline, and whether it was told to stop.
        ctx: Context,
    ) -> Result<GraspResult, ToolError> {
        // uom quantities (the `uom` feature): the model sends newtons and seconds, the compiler
        // checks the units against the types, and the simulation reads them in its own units.
        let force = force.get::<uom::si::force::newton>();
        let timeout = timeout.get::<uom::si::time::second>();
        self.grasp(target_position, force, grasp_strategy, timeout, &ctx)
            .await
    }

    /// Open the gripper and put the held object down at the current position.
    ///
    /// Use it after carrying an object to its destination. Fails if the gripper is empty.
    #[tool(
        destructive = false,
        open_world = false,
        resource = "arm",
        group = "arm",
        // The simulation answers from memory; a tool calling a real driver would block, and
        // should leave `blocking` out so it runs on tokio's blocking pool.
        blocking = false,
        scopes = ["arm:move"],
        confirm = "Open the gripper and put the held object down where the arm is?",
        check = gripper_holds_something
    )]
    fn release_object(&self) -> Result<ReleaseResult, ToolError> {
        self.release()
    }

    /// Stop the arm immediately, interrupting any motion in progress.
    ///
    /// Use it when something unexpected happens during a motion. It also cancels every motion
    /// waiting for the arm (they do not run), and is never queued or rate-limited. The gripper
    /// keeps its grip. Calling it when the arm is idle does nothing.
    #[tool(
        idempotent,
        destructive = false,
        open_world = false,
        timeout = "3s",
        group = "arm",
        blocking = false,
        scopes = ["arm:move"],
        stop_for = "arm"
    )]
    fn stop_arm(&self) -> StopResult {
        self.interrupt()
    }

    /// Read the six-axis force/torque sensor at the wrist.
    ///
    /// Use it to check the load after a grasp (a held object pulls down on Fz) or to detect
    /// contact. Forces are in N, torques in N·m.
    #[tool(
        read_only,
        open_world = false,
        timeout = "3s",
        group = "sensors",
        blocking = false,
        scopes = ["arm:read"],
        projection
    )]
    fn read_ft_sensor(
        &self,
        /// Filtering applied to the samples.
        #[param(default = FtFilter::Kalman)]
        filter: FtFilter,
        /// Axes to read; all six when omitted.
        #[param(min_items = 1, max_items = 6)]
        axes: Option<Vec<Axis>>,
    ) -> FtReading {
        self.read_ft(filter, axes.as_deref().unwrap_or(&Axis::ALL))
    }

    /// The user is told the motion's waypoints, its length from where the arm is and its
    /// estimated duration when asked to confirm it.
    fn trajectory_details(
        &self,
        waypoints: Vec<Point3<f64>>,
        speed: f64,
    ) -> Result<String, String> {
        let plan = self.plan(&waypoints, speed);
        Ok(format!(
            "{} waypoint{}, {:.0} mm in all, about {:.1} s",
            waypoints.len(),
            if waypoints.len() == 1 { "" } else { "s" },
            plan.total_length,
            plan.estimated_duration
        ))
    }

    /// Check a path through several waypoints without moving: every straight segment (the
    /// first from where the arm is) must stay in the arm's envelope, and the answer gives the
    /// segments, the total length and how long following it would take.
    ///
    /// Use it before follow_trajectory, which moves along the same waypoints. A path that leaves
    /// the envelope is refused, naming the segment and the keep-out. It never moves the arm, but
    /// waits while another motion is running (the path starts where that motion ends).
    #[tool(
        read_only,
        open_world = false,
        resource = "arm",
        group = "arm",
        scopes = ["arm:read"],
        projection,
        summary,
        path = waypoints
    )]
    fn plan_trajectory(
        &self,
        /// Points to pass through, in order, starting from where the arm is (robot base frame:
        /// x forward, y left, z up from the table).
        #[param(unit = "mm", range = WORKSPACE, min_items = 1, max_items = 100)]
        waypoints: Vec<Point3<f64>>,
        /// The speed to estimate the duration at: follow_trajectory's `speed` (a fraction of
        /// the maximum speed, 500 mm/s).
        #[param(range = 0.1..=1.0, default = 0.5)]
        speed: f64,
    ) -> TrajectoryPlan {
        self.plan(&waypoints, speed)
    }

    /// Move the arm's tool point along a path through several waypoints, in straight segments
    /// (the first from where the arm is), reporting progress after each waypoint.
    ///
    /// Check the path with plan_trajectory first. The user confirms the motion, shown its
    /// waypoints, length and duration. Refused before anything moves (and before the user is
    /// asked) when any segment leaves the arm's envelope. stop_arm stops it where it is.
    #[tool(
        destructive = false,
        open_world = false,
        resource = "arm",
        group = "arm",
        scopes = ["arm:move"],
        confirm = "Move the arm along {waypoints} at {speed} of full speed ({check})?",
        check = trajectory_details,
        task = "optional",
        path = waypoints
    )]
    async fn follow_trajectory(
        &self,
        /// Points to pass through, in order, starting from where the arm is (robot base frame:
        /// x forward, y left, z up from the table).
        #[param(unit = "mm", range = WORKSPACE, min_items = 1, max_items = 100)]
        waypoints: Vec<Point3<f64>>,
        /// Fraction of the maximum speed (500 mm/s); 1.0 is full speed.
        #[param(range = 0.1..=1.0, default = 0.5)]
        speed: f64,
        /// The call: its deadline, whether it was told to stop, and progress notifications.
        ctx: Context,
    ) -> Result<TrajectoryRun, ToolError> {
        self.follow(&waypoints, speed, &ctx).await
    }

    /// Report where the arm is, what the gripper holds and which objects are on the table.
    ///
    /// Use it before planning a motion or a grasp, and after any error.
    #[tool(
        read_only,
        open_world = false,
        timeout = "3s",
        group = "sensors",
        blocking = false,
        scopes = ["arm:read"],
        projection,
        summary,
        max_output_bytes = 16384,
        over_budget = "envelope"
    )]
    fn get_arm_state(&self) -> ArmState {
        self.state()
    }

    /// Take a picture of the table from straight above: a PNG of the objects on the table, the
    /// arm and the gripper, to check where things are before a grasp and after a release.
    ///
    /// Returns JSON that says how to read the image (its size in pixels, `mm_per_px`,
    /// `base_pixel` and a legend of colours), then the image. Up in the image is +x (forward
    /// from the base), left is +y; the pixel (col, row) shows the point
    /// x = (base_pixel.row - row) * mm_per_px, y = (base_pixel.col - col) * mm_per_px. Each
    /// object is one solid colour centred on its grasp point: red_cube a red square,
    /// glass_bottle a blue disc, sponge a yellow rectangle. The gripper is a dark ring around
    /// the tool point (what is under it shows through; a held object is drawn inside it), the
    /// arm a grey band from the base (a dark disc at x = 0, y = 0), on a beige table with grid
    /// lines every 100 mm. Heights do not show: get_arm_state gives z.
    // Returns `WithContent<CameraView>`, not an `Image` alone or `Vec<Content>`: the mapping and
    // the legend are data a client can use (pixel to millimetres), so they are published with an
    // outputSchema and sent as structuredContent (and as JSON text the model reads), and the
    // image follows as an MCP image block. Drawing and encoding take about 0.1 ms in a release
    // build (5 ms unoptimised; `camera.rs`), hence `blocking = false`.
    #[tool(
        read_only,
        open_world = false,
        timeout = "3s",
        group = "sensors",
        blocking = false,
        scopes = ["arm:read"]
    )]
    fn capture_image(
        &self,
        /// The camera to take the picture with.
        #[param(default = Camera::Overhead)]
        camera: Camera,
    ) -> Result<WithContent<CameraView>, ToolError> {
        let (png, view) = camera::render(&self.state(), camera)
            .map_err(|e| ToolError::new(format!("the image could not be encoded as PNG: {e}")))?;
        Ok(WithContent::new(view, [Image::png(png)]))
    }
}
