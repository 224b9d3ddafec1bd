//! A simulated robot arm as MCP tools.
//!
//! The arm stands at the origin of its base frame (x forward, y left, z up, millimeters) on a
//! table at z = 0. Its tool point reaches from 150 mm to 850 mm from the shoulder, which sits
//! 100 mm above the base. A few objects lie on the table; the gripper can pick them up with three
//! strategies, and a six-axis force/torque sensor at the wrist reads the load with noise.
//! Motions take simulated time (scaled by [`SimConfig::time_scale`]) and can be interrupted by
//! `stop_arm`.
//!
//! # What happens when a call ends early
//!
//! The tools that move the arm share the resource `arm`, whose safe stop is `halt`
//! (`#[toolbox(resource(name = "arm", safe_stop = halt))]`): motions run one at a time in the
//! order they arrived (at most 16 wait; the 17th is refused at once), and whenever a motion ends
//! early (its 30 s deadline passed, the client cancelled it or disconnected, or it panicked) the
//! runtime tells it to stop, gives it its grace period (1 s) to return, then runs `halt`
//! exactly once before the next motion may start. A motion checks for that between its 50 ms
//! steps and stops where it is; a motion it knows cannot finish before its deadline is refused
//! before it starts, with its estimate and how to fix the call. Whatever way a motion ends, the
//! arm is left not moving, at a known position, and `get_arm_state` says where.
//!
//! Deadlines scale with [`SimConfig::time_scale`] like the motions do, so a motion that would
//! miss its deadline on the real arm misses it in a faster simulation too;
//! [`SimConfig::motor_lag`] injects the fault of a motion that overruns its estimate.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use toolwright::{Context, ToolError, ToolSchema, Toolbox, toolbox};

/// Distance from the base to the shoulder joint, mm.
pub const SHOULDER_HEIGHT: f64 = 100.0;
/// Closest reachable distance from the shoulder, mm.
pub const MIN_REACH: f64 = 150.0;
/// Farthest reachable distance from the shoulder, mm.
pub const MAX_REACH: f64 = 850.0;
/// Highest point the tool can reach above the table, mm.
pub const MAX_HEIGHT: f64 = SHOULDER_HEIGHT + MAX_REACH;
/// Tool speed at `speed = 1.0`, mm/s.
pub const MAX_SPEED: f64 = 500.0;
/// How close (mm) the gripper must be to an object to grasp it.
pub const GRASP_TOLERANCE: f64 = 25.0;

/// A point in the robot base frame.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToolSchema)]
pub struct Position {
    /// X coordinate (forward from the base).
    #[param(unit = "mm", range = -MAX_REACH..=MAX_REACH)]
    pub x: f64,
    /// Y coordinate (to the left of the base).
    #[param(unit = "mm", range = -MAX_REACH..=MAX_REACH)]
    pub y: f64,
    /// Z coordinate (up from the table surface).
    #[param(unit = "mm", range = 0.0..=MAX_HEIGHT)]
    pub z: f64,
}

impl Position {
    fn distance(&self, other: &Position) -> f64 {
        ((self.x - other.x).powi(2) + (self.y - other.y).powi(2) + (self.z - other.z).powi(2))
            .sqrt()
    }

    fn reach(&self) -> f64 {
        (self.x.powi(2) + self.y.powi(2) + (self.z - SHOULDER_HEIGHT).powi(2)).sqrt()
    }

    /// Why the arm cannot reach this point, if it cannot.
    pub fn unreachable_reason(&self) -> Option<String> {
        let r = self.reach();
        if r > MAX_REACH {
            Some(format!(
                "({:.0}, {:.0}, {:.0}) mm is out of reach: it is {r:.0} mm from the shoulder and the arm reaches at most {MAX_REACH:.0} mm",
                self.x, self.y, self.z
            ))
        } else if r < MIN_REACH {
            Some(format!(
                "({:.0}, {:.0}, {:.0}) mm is too close to the base: it is {r:.0} mm from the shoulder and the arm cannot fold closer than {MIN_REACH:.0} mm",
                self.x, self.y, self.z
            ))
        } else {
            None
        }
    }
}

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

/// Raw samples in one force/torque reading (50 ms at 1 kHz).
const FT_BURST: usize = 50;
/// Samples the moving average takes the mean of.
const FT_WINDOW: usize = 10;
/// Largest error of one raw force/torque sample, N or N·m.
const FT_NOISE: f64 = 0.3;

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
    pub position: Position,
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
    pub position: Position,
}

/// The outcome of a stop.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct StopResult {
    /// Whether a motion was in progress and was interrupted.
    pub interrupted_motion: bool,
    /// Where the arm stopped.
    pub position: Position,
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

/// One straight segment of a planned trajectory.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct Segment {
    /// Index of the waypoint where the segment starts.
    pub from: usize,
    /// Index of the waypoint where it ends.
    pub to: usize,
    /// Segment length.
    #[param(unit = "mm")]
    pub length: f64,
}

/// A checked trajectory.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct TrajectoryPlan {
    /// The segments between consecutive waypoints.
    pub segments: Vec<Segment>,
    /// Total path length.
    #[param(unit = "mm")]
    pub total_length: f64,
    /// Estimated duration at full speed.
    #[param(unit = "s")]
    pub estimated_duration: f64,
    /// Waypoints reached (0 when only planning).
    pub executed_waypoints: usize,
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
    pub position: Position,
}

/// The whole arm state.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct ArmState {
    /// The tool point's position.
    pub position: Position,
    /// The gripper.
    pub gripper: GripperState,
    /// Whether a motion is in progress.
    pub moving: bool,
    /// Objects lying on the table (not held).
    pub objects: Vec<TableObject>,
}

#[derive(Debug, Clone)]
struct SimObject {
    name: &'static str,
    position: Position,
    /// Mass in kg (the wrist feels it when held).
    mass: f64,
    porous: bool,
    fragile_above: f64,
}

/// What the gripper holds, and how.
#[derive(Debug)]
struct Held {
    object: SimObject,
    strategy: GraspStrategy,
    /// Grip force, N.
    force: f64,
}

#[derive(Debug)]
struct Sim {
    position: Position,
    held: Option<Held>,
    objects: Vec<SimObject>,
    moving: bool,
}

/// Simulation settings.
#[derive(Debug, Clone, Copy)]
pub struct SimConfig {
    /// Wall-clock seconds per simulated second (0 runs motions instantly). [`server`] scales the
    /// tools' default deadline by it too (below 1).
    pub time_scale: f64,
    /// Seed of the sensor noise.
    pub seed: u64,
    /// How many times longer than planned a motion really takes (1.0: as planned). A fault to
    /// inject: a worn gearbox or a heavy payload makes a motion overrun its estimate, and so
    /// possibly its deadline, after it started.
    pub motor_lag: f64,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            time_scale: 1.0,
            seed: 0x5eed,
            motor_lag: 1.0,
        }
    }
}

/// The simulated arm: the shared state of the robot-arm tools.
#[derive(Debug)]
pub struct RobotArm {
    sim: Mutex<Sim>,
    stop: AtomicBool,
    noise: AtomicU64,
    halts: AtomicU64,
    config: SimConfig,
}

/// The robot-arm server exactly as `examples/robot_arm.rs` serves it (and as its committed docs
/// in `examples/docs/robot_arm/` describe it). Below a time scale of 1, the declared default
/// deadline (30 s, which the motion tools use) shrinks with the simulated time.
pub fn server(config: SimConfig) -> Toolbox<RobotArm> {
    let mut toolbox = Toolbox::new(RobotArm::new(config));
    if let Some(deadline) = toolbox.default_timeout()
        && config.time_scale > 0.0
        && config.time_scale < 1.0
    {
        toolbox = toolbox.with_default_timeout(deadline.mul_f64(config.time_scale));
    }
    toolbox
        .with_title("Simulated robot arm")
        .with_describe_tool()
        .with_instructions(
            "A simulated 6-axis robot arm over a table. Positions are in millimeters in the robot \
             base frame (x forward, y left, z up from the table). Call get_arm_state first: it \
             lists the objects on the table with their grasp points.",
        )
}

/// The home position of the tool point.
pub const HOME: Position = Position {
    x: 300.0,
    y: 0.0,
    z: 400.0,
};

impl RobotArm {
    /// A new arm at its home position, with three objects on the table.
    pub fn new(config: SimConfig) -> Self {
        let objects = vec![
            SimObject {
                name: "red_cube",
                position: Position {
                    x: 400.0,
                    y: 0.0,
                    z: 25.0,
                },
                mass: 0.2,
                porous: false,
                fragile_above: f64::INFINITY,
            },
            SimObject {
                name: "glass_bottle",
                position: Position {
                    x: 350.0,
                    y: 250.0,
                    z: 120.0,
                },
                mass: 0.45,
                porous: false,
                fragile_above: 25.0,
            },
            SimObject {
                name: "sponge",
                position: Position {
                    x: 300.0,
                    y: -300.0,
                    z: 20.0,
                },
                mass: 0.05,
                porous: true,
                fragile_above: f64::INFINITY,
            },
        ];
        RobotArm {
            sim: Mutex::new(Sim {
                position: HOME,
                held: None,
                objects,
                moving: false,
            }),
            stop: AtomicBool::new(false),
            noise: AtomicU64::new(config.seed | 1),
            halts: AtomicU64::new(0),
            config,
        }
    }

    fn sim(&self) -> std::sync::MutexGuard<'_, Sim> {
        self.sim
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Uniform noise in [-1, 1] (xorshift).
    fn noise(&self) -> f64 {
        let mut x = self.noise.load(Ordering::Relaxed);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.noise.store(x, Ordering::Relaxed);
        (x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }

    /// How many times the runtime ran the safe stop `halt`.
    pub fn halts(&self) -> u64 {
        self.halts.load(Ordering::SeqCst)
    }

    /// Wall-clock time a motion of `sim_seconds` takes as planned.
    fn wall(&self, sim_seconds: f64) -> Duration {
        Duration::from_secs_f64((sim_seconds * self.config.time_scale).max(0.0))
    }

    /// Refuses a motion of `duration` simulated seconds that cannot finish before the call's
    /// deadline, with the estimate and the fix; `what_and_fix` words them (only when refusing).
    fn check_time(
        &self,
        ctx: &Context,
        duration: f64,
        what_and_fix: impl FnOnce() -> (String, String),
    ) -> Result<(), ToolError> {
        if self.config.time_scale <= 0.0 {
            return Ok(()); // motions are instantaneous
        }
        let Some(left) = ctx.remaining() else {
            return Ok(());
        };
        if self.wall(duration) <= left {
            return Ok(());
        }
        let left_sim = left.as_secs_f64() / self.config.time_scale;
        let (what, fix) = what_and_fix();
        Err(ToolError::new(format!(
            "{what} would take {duration:.1} s, and the call's deadline leaves {left_sim:.1} s; it was not started"
        ))
        .with_hint(fix))
    }

    /// Moves the tool point in a straight line, in simulated time. Stops where it is when
    /// `stop_arm` is called or the call is told to stop (deadline, cancel); `moving` is reset
    /// however the motion ends, even if the call is abandoned mid-step.
    async fn travel(
        &self,
        target: Position,
        speed: f64,
        ctx: &Context,
    ) -> Result<MoveResult, ToolError> {
        if let Some(reason) = target.unreachable_reason() {
            return Err(ToolError::new(reason).with_hint(
                "choose a point between 150 and 850 mm from the shoulder (which is 100 mm above the base); call get_arm_state to see where the arm is",
            ));
        }
        let start = self.sim().position;
        let distance = start.distance(&target);
        let duration = distance / (MAX_SPEED * speed);
        self.check_time(ctx, duration, || {
            (
                format!("this move ({distance:.0} mm at speed {speed})"),
                format!(
                    "raise speed (at 1.0 it takes {:.1} s), or split the move into shorter ones",
                    distance / MAX_SPEED
                ),
            )
        })?;
        {
            let mut sim = self.sim();
            if sim.moving {
                return Err(ToolError::new("the arm is already executing a motion")
                    .with_hint("wait for it to finish, or call stop_arm first")
                    .retryable());
            }
            sim.moving = true;
        }
        /// Resets `moving` however the motion ends (returns, or is dropped mid-step).
        struct Moving<'a>(&'a RobotArm);
        impl Drop for Moving<'_> {
            fn drop(&mut self) {
                self.0.sim().moving = false;
            }
        }
        let _moving = Moving(self);
        self.stop.store(false, Ordering::SeqCst);
        let steps = ((duration / 0.05).ceil() as usize).max(1);
        let step = self.wall(duration / steps as f64 * self.config.motor_lag);
        for i in 1..=steps {
            if !step.is_zero() {
                tokio::select! {
                    () = tokio::time::sleep(step) => {}
                    () = ctx.cancelled() => {}
                }
            }
            if ctx.is_cancelled() {
                let at = self.sim().position;
                return Err(ToolError::new(format!(
                    "motion stopped at ({:.0}, {:.0}, {:.0}) mm, {:.0} mm short of the target",
                    at.x,
                    at.y,
                    at.z,
                    at.distance(&target)
                )));
            }
            let t = i as f64 / steps as f64;
            let here = Position {
                x: start.x + (target.x - start.x) * t,
                y: start.y + (target.y - start.y) * t,
                z: start.z + (target.z - start.z) * t,
            };
            self.sim().position = here;
            if self.stop.swap(false, Ordering::SeqCst) {
                return Err(ToolError::new(format!(
                    "motion interrupted by stop_arm at ({:.0}, {:.0}, {:.0}) mm",
                    here.x, here.y, here.z
                ))
                .with_hint("call get_arm_state before moving again"));
            }
        }
        Ok(MoveResult {
            position: target,
            distance: round(distance, 1),
            duration: round(duration, 2),
        })
    }
}

fn round(v: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (v * f).round() / f
}

#[toolbox(
    timeout = "30s",
    resource(name = "arm", safe_stop = halt, max_waiting = 16)
)]
impl RobotArm {
    /// The safe stop of the resource `arm`: halts any motion where it is and leaves the arm not
    /// moving. The runtime runs it once whenever a call holding `arm` ends early (deadline,
    /// cancel, client gone, panic), after the call's body returned or was abandoned, and before
    /// the next call gets the arm.
    fn halt(&self) -> String {
        self.halts.fetch_add(1, Ordering::SeqCst);
        self.stop.store(false, Ordering::SeqCst);
        let mut sim = self.sim();
        sim.moving = false;
        let p = sim.position;
        format!("halted at ({:.0}, {:.0}, {:.0}) mm", p.x, p.y, p.z)
    }

    /// Move the arm's tool point in a straight line to a Cartesian position in the robot base
    /// frame, keeping the gripper pointing down.
    ///
    /// Use it to approach, retreat or carry a held object. Do not use it to pick something up
    /// (grasp_object_force_control moves there itself) or to follow several points
    /// (check them first with plan_trajectory). Fails if the position is out of reach.
    #[tool(
        idempotent,
        destructive = false,
        open_world = false,
        resource = "arm",
        group = "arm",
        scopes = ["arm:move"]
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
        #[param(unit = "mm", range = 0.0..=MAX_HEIGHT)]
        z: f64,
        /// Fraction of the maximum speed (500 mm/s); 1.0 is full speed.
        #[param(range = 0.1..=1.0, default = 0.5)]
        speed: f64,
        /// The call: its deadline, and whether it was told to stop.
        ctx: Context,
    ) -> Result<MoveResult, ToolError> {
        self.travel(Position { x, y, z }, speed, &ctx).await
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
        scopes = ["arm:move"]
    )]
    async fn grasp_object_force_control(
        &self,
        /// Grasp point of the object, in the robot base frame.
        target_position: Position,
        /// Grip force to apply once the fingers touch.
        #[param(unit = "N", range = 5.0..=30.0, default = 15.0)]
        force: f64,
        /// How to hold the object.
        #[param(default = GraspStrategy::Parallel)]
        grasp_strategy: GraspStrategy,
        /// Give up if the grasp is not stable within this time.
        #[param(unit = "s", range = 1.0..=60.0, default = 10.0)]
        timeout: f64,
        /// The call: its deadline, and whether it was told to stop.
        ctx: Context,
    ) -> Result<GraspResult, ToolError> {
        {
            let sim = self.sim();
            if let Some(held) = &sim.held {
                return Err(ToolError::new(format!(
                    "the gripper already holds {}",
                    held.object.name
                ))
                .with_hint("call release_object to put it down first"));
            }
        }
        let approach_speed = 0.5;
        let start = self.sim().position;
        let travel_time = start.distance(&target_position) / (MAX_SPEED * approach_speed);
        let close_time = 0.8;
        if travel_time + close_time > timeout {
            return Err(ToolError::new(format!(
                "the grasp would take {:.1} s (approach {:.1} s + closing {close_time:.1} s), longer than the timeout of {timeout} s",
                travel_time + close_time,
                travel_time
            ))
            .with_hint("raise timeout, or move closer with move_arm_to_pose first"));
        }
        self.check_time(&ctx, travel_time + close_time, || {
            (
                "this grasp (approach and closing)".to_owned(),
                "move closer with move_arm_to_pose first, then grasp".to_owned(),
            )
        })?;
        self.travel(target_position, approach_speed, &ctx).await?;
        let mut sim = self.sim();
        let nearest = sim
            .objects
            .iter()
            .enumerate()
            .map(|(i, o)| (i, o.position.distance(&target_position)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let Some((index, distance)) = nearest.filter(|&(_, d)| d <= GRASP_TOLERANCE) else {
            let hint = match nearest {
                Some((i, d)) => {
                    let o = &sim.objects[i];
                    format!(
                        "the nearest object is {} at ({:.0}, {:.0}, {:.0}) mm, {d:.0} mm away; grasp at its position",
                        o.name, o.position.x, o.position.y, o.position.z
                    )
                }
                None => "there are no objects left on the table".to_owned(),
            };
            return Err(ToolError::new(format!(
                "the gripper closed on nothing at ({:.0}, {:.0}, {:.0}) mm",
                target_position.x, target_position.y, target_position.z
            ))
            .with_hint(hint));
        };
        let _ = distance;
        let object = sim.objects[index].clone();
        if grasp_strategy == GraspStrategy::Suction && object.porous {
            return Err(ToolError::new(format!(
                "suction cannot hold {}: its surface is porous",
                object.name
            ))
            .with_hint("use grasp_strategy \"adaptive\" or \"parallel\""));
        }
        if force > object.fragile_above {
            sim.objects.remove(index);
            return Err(ToolError::new(format!(
                "{} broke under {force} N (it withstands at most {} N) and was removed from the table",
                object.name, object.fragile_above
            )));
        }
        sim.objects.remove(index);
        let name = object.name.to_owned();
        sim.held = Some(Held {
            object,
            strategy: grasp_strategy,
            force,
        });
        Ok(GraspResult {
            object: name,
            applied_force: force,
            strategy: grasp_strategy,
            elapsed: round(travel_time + close_time, 2),
        })
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
        scopes = ["arm:move"]
    )]
    fn release_object(&self) -> Result<ReleaseResult, ToolError> {
        let mut sim = self.sim();
        let Some(Held { mut object, .. }) = sim.held.take() else {
            return Err(
                ToolError::new("the gripper is empty; there is nothing to release")
                    .with_hint("call get_arm_state to see what the arm holds"),
            );
        };
        object.position = sim.position;
        let position = sim.position;
        let name = object.name.to_owned();
        sim.objects.push(object);
        Ok(ReleaseResult {
            object: name,
            position,
        })
    }

    /// Stop the arm immediately, interrupting any motion in progress.
    ///
    /// Use it when something unexpected happens during a motion. The gripper keeps its grip.
    /// Calling it when the arm is idle does nothing.
    #[tool(
        idempotent,
        destructive = false,
        open_world = false,
        timeout = "3s",
        group = "arm",
        blocking = false,
        scopes = ["arm:move"]
    )]
    fn stop_arm(&self) -> StopResult {
        let mut sim = self.sim();
        let interrupted_motion = sim.moving;
        if interrupted_motion {
            // The motion stops at its next step; the arm counts as stopped from now on.
            self.stop.store(true, Ordering::SeqCst);
        }
        sim.moving = false;
        StopResult {
            interrupted_motion,
            position: sim.position,
        }
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
        scopes = ["arm:read"]
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
        let axes = axes.unwrap_or_else(|| Axis::ALL.to_vec());
        let truth = {
            let sim = self.sim();
            let (load, grip) = match &sim.held {
                Some(held) => (held.object.mass * 9.81, held.force),
                None => (0.0, 0.0),
            };
            [0.0, 0.0, -load, 0.01 * grip, load * 0.02, 0.0]
        };
        // One reading is a burst of raw samples (50 ms at 1 kHz), each off by up to ±0.3 in
        // its axis's unit; the filter reduces them to one value per axis.
        let burst: Vec<[f64; 6]> = (0..FT_BURST)
            .map(|_| truth.map(|t| t + FT_NOISE * self.noise()))
            .collect();
        let sample = match filter {
            FtFilter::Raw => burst[FT_BURST - 1],
            FtFilter::MovingAverage => {
                let window = &burst[FT_BURST - FT_WINDOW..];
                let mut mean = [0.0; 6];
                for s in window {
                    for (m, v) in mean.iter_mut().zip(s) {
                        *m += v / FT_WINDOW as f64;
                    }
                }
                mean
            }
            FtFilter::Kalman => {
                // A constant-value Kalman filter per axis over the burst.
                let r = FT_NOISE * FT_NOISE / 3.0; // variance of the uniform noise
                let q = r * 1e-3; // the true value barely drifts within a burst
                let mut estimate = burst[0];
                let mut variance = [r; 6];
                for s in &burst[1..] {
                    for axis in 0..6 {
                        let p = variance[axis] + q;
                        let gain = p / (p + r);
                        estimate[axis] += gain * (s[axis] - estimate[axis]);
                        variance[axis] = (1.0 - gain) * p;
                    }
                }
                estimate
            }
        };
        let readings = axes
            .iter()
            .map(|&axis| AxisReading {
                axis,
                value: round(sample[axis as usize], 3),
                unit: axis.unit().to_owned(),
            })
            .collect();
        FtReading { filter, readings }
    }

    /// Check a path through several waypoints and, with `execute`, move along it.
    ///
    /// Use it to verify that every waypoint is reachable and to estimate length and duration
    /// before moving, then call it again with execute=true to follow the path in straight
    /// segments at full speed, reporting progress after each waypoint. Planning waits while
    /// another motion is running.
    #[tool(
        idempotent,
        destructive = false,
        open_world = false,
        resource = "arm",
        group = "arm",
        scopes = ["arm:move"]
    )]
    async fn plan_trajectory(
        &self,
        /// Points to pass through, in order; the first is where the path starts.
        #[param(min_items = 2, max_items = 100)]
        waypoints: Vec<Position>,
        /// Move along the path after checking it (otherwise only plan).
        #[param(default = false)]
        execute: bool,
        /// The call, for progress notifications.
        ctx: Context,
    ) -> Result<TrajectoryPlan, ToolError> {
        let problems: Vec<String> = waypoints
            .iter()
            .enumerate()
            .filter_map(|(i, w)| w.unreachable_reason().map(|r| format!("waypoint {i}: {r}")))
            .collect();
        if !problems.is_empty() {
            return Err(ToolError::new(problems.join("; "))
                .with_hint("move those waypoints between 150 and 850 mm from the shoulder"));
        }
        let segments: Vec<Segment> = waypoints
            .windows(2)
            .enumerate()
            .map(|(i, w)| Segment {
                from: i,
                to: i + 1,
                length: round(w[0].distance(&w[1]), 1),
            })
            .collect();
        let total: f64 = waypoints.windows(2).map(|w| w[0].distance(&w[1])).sum();
        let mut executed = 0;
        if execute {
            let start = self.sim().position;
            let path = start.distance(&waypoints[0]) + total;
            self.check_time(&ctx, path / MAX_SPEED, || {
                (
                    format!("this path ({path:.0} mm at full speed)"),
                    "split the path into several plan_trajectory calls with fewer waypoints"
                        .to_owned(),
                )
            })?;
            let count = waypoints.len() as f64;
            for (i, waypoint) in waypoints.iter().enumerate() {
                self.travel(*waypoint, 1.0, &ctx).await?;
                executed = i + 1;
                ctx.progress(
                    executed as f64,
                    Some(count),
                    Some(format!(
                        "reached waypoint {i} at ({:.0}, {:.0}, {:.0}) mm",
                        waypoint.x, waypoint.y, waypoint.z
                    )),
                )
                .await;
            }
        }
        Ok(TrajectoryPlan {
            segments,
            total_length: round(total, 1),
            estimated_duration: round(total / MAX_SPEED, 2),
            executed_waypoints: executed,
        })
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
        scopes = ["arm:read"]
    )]
    fn get_arm_state(&self) -> ArmState {
        let sim = self.sim();
        ArmState {
            position: sim.position,
            gripper: GripperState {
                closed: sim.held.is_some(),
                held_object: sim.held.as_ref().map(|h| h.object.name.to_owned()),
                strategy: sim.held.as_ref().map(|h| h.strategy),
                force: sim.held.as_ref().map_or(0.0, |h| h.force),
            },
            moving: sim.moving,
            objects: sim
                .objects
                .iter()
                .map(|o| TableObject {
                    name: o.name.to_owned(),
                    position: o.position,
                })
                .collect(),
        }
    }
}
