//! The robot_arm example's twin written with rmcp's own macros and schemars derives: the same 7
//! tools, the same simulation and the same `main` (tracing to stderr, stdio transport), so that
//! `binary_size.sh` compares what toolwright adds, not what the example does.
//!
//! Not part of the workspace: `binary_size.sh` copies it into a throwaway crate under `target/`.

use std::io::IsTerminal as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::ProgressNotificationParam;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt as _, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

const SHOULDER_HEIGHT: f64 = 100.0;
const MIN_REACH: f64 = 150.0;
const MAX_REACH: f64 = 850.0;
const MAX_SPEED: f64 = 500.0;
const GRASP_TOLERANCE: f64 = 25.0;

/// A point in the robot base frame, in millimetres.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Position {
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

impl Position {
    fn distance(&self, other: &Position) -> f64 {
        ((self.x - other.x).powi(2) + (self.y - other.y).powi(2) + (self.z - other.z).powi(2))
            .sqrt()
    }

    fn reach(&self) -> f64 {
        (self.x.powi(2) + self.y.powi(2) + (self.z - SHOULDER_HEIGHT).powi(2)).sqrt()
    }

    fn unreachable_reason(&self) -> Option<String> {
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
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

fn default_speed() -> f64 {
    0.5
}
fn default_force() -> f64 {
    15.0
}
fn default_timeout() -> f64 {
    10.0
}

/// `move_arm_to_pose` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveParams {
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

/// `grasp_object_force_control` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GraspParams {
    /// Grasp point of the object, in the robot base frame.
    pub target_position: Position,
    /// Grip force to apply once the fingers touch, N.
    #[serde(default = "default_force")]
    #[schemars(range(min = 5.0, max = 30.0), extend("x-unit" = "N"))]
    pub force: f64,
    /// How to hold the object.
    #[serde(default)]
    pub grasp_strategy: GraspStrategy,
    /// Give up if the grasp is not stable within this time, s.
    #[serde(default = "default_timeout")]
    #[schemars(range(min = 1.0, max = 60.0), extend("x-unit" = "s"))]
    pub timeout: f64,
}

/// `read_ft_sensor` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadFtParams {
    /// Filtering applied to the samples.
    #[serde(default)]
    pub filter: FtFilter,
    /// Axes to read; all six when omitted.
    #[serde(default)]
    #[schemars(length(min = 1, max = 6))]
    pub axes: Option<Vec<Axis>>,
}

/// `plan_trajectory` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanParams {
    /// Points to pass through, in order; the first is where the path starts.
    #[schemars(length(min = 2, max = 100))]
    pub waypoints: Vec<Position>,
    /// Move along the path after checking it (otherwise only plan).
    #[serde(default)]
    pub execute: bool,
}

/// Where a motion ended.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MoveResult {
    /// The tool point's position after the motion.
    pub position: Position,
    /// Straight-line distance travelled, mm.
    pub distance: f64,
    /// Simulated duration of the motion, s.
    pub duration: f64,
}

/// The outcome of a grasp.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GraspResult {
    /// The object now held.
    pub object: String,
    /// Grip force applied, N.
    pub applied_force: f64,
    /// The strategy used.
    pub strategy: GraspStrategy,
    /// Simulated time from the call to a stable grip, s.
    pub elapsed: f64,
}

/// The outcome of a release.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ReleaseResult {
    /// The object that was released.
    pub object: String,
    /// Where it was put down.
    pub position: Position,
}

/// The outcome of a stop.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct StopResult {
    /// Whether a motion was in progress and was interrupted.
    pub interrupted_motion: bool,
    /// Where the arm stopped.
    pub position: Position,
}

/// One force/torque sample.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AxisReading {
    /// The axis.
    pub axis: Axis,
    /// The value, in N for forces and N·m for torques.
    pub value: f64,
    /// The unit of `value`.
    pub unit: String,
}

/// A force/torque reading.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FtReading {
    /// The filter applied.
    pub filter: FtFilter,
    /// One reading per requested axis, in the order asked.
    pub readings: Vec<AxisReading>,
}

/// One straight segment of a planned trajectory.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Segment {
    /// Index of the waypoint where the segment starts.
    pub from: usize,
    /// Index of the waypoint where it ends.
    pub to: usize,
    /// Segment length, mm.
    pub length: f64,
}

/// A checked trajectory.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TrajectoryPlan {
    /// The segments between consecutive waypoints.
    pub segments: Vec<Segment>,
    /// Total path length, mm.
    pub total_length: f64,
    /// Estimated duration at full speed, s.
    pub estimated_duration: f64,
    /// Waypoints reached (0 when only planning).
    pub executed_waypoints: usize,
}

/// The gripper's state.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GripperState {
    /// Whether the gripper is closed on an object.
    pub closed: bool,
    /// The object held, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub held_object: Option<String>,
    /// Strategy of the current grasp, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strategy: Option<GraspStrategy>,
    /// Grip force being applied, N.
    pub force: f64,
}

/// An object on the table.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TableObject {
    /// Its name.
    pub name: String,
    /// Its grasp point.
    pub position: Position,
}

/// The whole arm state.
#[derive(Debug, Clone, Serialize, JsonSchema)]
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
    mass: f64,
    porous: bool,
    fragile_above: f64,
}

#[derive(Debug)]
struct Sim {
    position: Position,
    held: Option<(SimObject, GraspStrategy, f64)>,
    objects: Vec<SimObject>,
    moving: bool,
    moving_average: Vec<[f64; 6]>,
}

#[derive(Debug)]
struct Arm {
    sim: Mutex<Sim>,
    stop: AtomicBool,
    noise: AtomicU64,
    time_scale: f64,
}

const HOME: Position = Position {
    x: 300.0,
    y: 0.0,
    z: 400.0,
};

fn round(v: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (v * f).round() / f
}

fn error(message: impl Into<String>, hint: &str) -> String {
    format!("{} (hint: {hint})", message.into())
}

impl Arm {
    fn new(time_scale: f64) -> Self {
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
        Arm {
            sim: Mutex::new(Sim {
                position: HOME,
                held: None,
                objects,
                moving: false,
                moving_average: Vec::new(),
            }),
            stop: AtomicBool::new(false),
            noise: AtomicU64::new(0x5eed | 1),
            time_scale,
        }
    }

    fn sim(&self) -> std::sync::MutexGuard<'_, Sim> {
        self.sim.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn noise(&self) -> f64 {
        let mut x = self.noise.load(Ordering::Relaxed);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.noise.store(x, Ordering::Relaxed);
        (x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }

    async fn travel(&self, target: Position, speed: f64) -> Result<MoveResult, String> {
        if let Some(reason) = target.unreachable_reason() {
            return Err(error(
                reason,
                "choose a point between 150 and 850 mm from the shoulder (which is 100 mm above the base); call get_arm_state to see where the arm is",
            ));
        }
        let start = {
            let mut sim = self.sim();
            if sim.moving {
                return Err(error(
                    "the arm is already executing a motion",
                    "wait for it to finish, or call stop_arm first",
                ));
            }
            sim.moving = true;
            sim.position
        };
        self.stop.store(false, Ordering::SeqCst);
        let distance = start.distance(&target);
        let duration = distance / (MAX_SPEED * speed);
        let steps = ((duration / 0.05).ceil() as usize).max(1);
        let mut interrupted = None;
        for step in 1..=steps {
            if self.time_scale > 0.0 {
                tokio::time::sleep(Duration::from_secs_f64(
                    duration / steps as f64 * self.time_scale,
                ))
                .await;
            }
            let t = step as f64 / steps as f64;
            let here = Position {
                x: start.x + (target.x - start.x) * t,
                y: start.y + (target.y - start.y) * t,
                z: start.z + (target.z - start.z) * t,
            };
            self.sim().position = here;
            if self.stop.swap(false, Ordering::SeqCst) {
                interrupted = Some(here);
                break;
            }
        }
        self.sim().moving = false;
        if let Some(at) = interrupted {
            return Err(error(
                format!(
                    "motion interrupted by stop_arm at ({:.0}, {:.0}, {:.0}) mm",
                    at.x, at.y, at.z
                ),
                "call get_arm_state before moving again",
            ));
        }
        Ok(MoveResult {
            position: target,
            distance: round(distance, 1),
            duration: round(duration, 2),
        })
    }
}

/// The robot-arm server.
#[derive(Debug, Clone)]
pub struct RobotServer {
    arm: Arc<Arm>,
}

#[tool_router]
impl RobotServer {
    /// Move the arm's tool point in a straight line to a Cartesian position in the robot base
    /// frame, keeping the gripper pointing down.
    ///
    /// Use it to approach, retreat or carry a held object. Do not use it to pick something up
    /// (grasp_object_force_control moves there itself) or to follow several points
    /// (check them first with plan_trajectory). Fails if the position is out of reach.
    #[tool(annotations(
        destructive_hint = false,
        idempotent_hint = true,
        open_world_hint = false
    ))]
    async fn move_arm_to_pose(
        &self,
        Parameters(p): Parameters<MoveParams>,
    ) -> Result<Json<MoveResult>, String> {
        self.arm
            .travel(
                Position {
                    x: p.x,
                    y: p.y,
                    z: p.z,
                },
                p.speed,
            )
            .await
            .map(Json)
    }

    /// Move to an object and close the gripper on it with a controlled force.
    ///
    /// Use it to pick up one of the objects on the table (get_arm_state lists them with their
    /// grasp points). The gripper must be empty: call release_object first if it holds
    /// something. Fragile objects break above their force limit, so prefer the default force.
    #[tool(annotations(destructive_hint = false, open_world_hint = false))]
    async fn grasp_object_force_control(
        &self,
        Parameters(p): Parameters<GraspParams>,
    ) -> Result<Json<GraspResult>, String> {
        let GraspParams {
            target_position,
            force,
            grasp_strategy,
            timeout,
        } = p;
        {
            let sim = self.arm.sim();
            if let Some((held, _, _)) = &sim.held {
                return Err(error(
                    format!("the gripper already holds {}", held.name),
                    "call release_object to put it down first",
                ));
            }
        }
        let approach_speed = 0.5;
        let start = self.arm.sim().position;
        let travel_time = start.distance(&target_position) / (MAX_SPEED * approach_speed);
        let close_time = 0.8;
        if travel_time + close_time > timeout {
            return Err(error(
                format!(
                    "the grasp would take {:.1} s (approach {:.1} s + closing {close_time:.1} s), longer than the timeout of {timeout} s",
                    travel_time + close_time,
                    travel_time
                ),
                "raise timeout, or move closer with move_arm_to_pose first",
            ));
        }
        self.arm.travel(target_position, approach_speed).await?;
        let mut sim = self.arm.sim();
        let nearest = sim
            .objects
            .iter()
            .enumerate()
            .map(|(i, o)| (i, o.position.distance(&target_position)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let Some((index, _)) = nearest.filter(|&(_, d)| d <= GRASP_TOLERANCE) else {
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
            return Err(error(
                format!(
                    "the gripper closed on nothing at ({:.0}, {:.0}, {:.0}) mm",
                    target_position.x, target_position.y, target_position.z
                ),
                &hint,
            ));
        };
        let object = sim.objects[index].clone();
        if grasp_strategy == GraspStrategy::Suction && object.porous {
            return Err(error(
                format!("suction cannot hold {}: its surface is porous", object.name),
                "use grasp_strategy \"adaptive\" or \"parallel\"",
            ));
        }
        if force > object.fragile_above {
            sim.objects.remove(index);
            return Err(format!(
                "{} broke under {force} N (it withstands at most {} N) and was removed from the table",
                object.name, object.fragile_above
            ));
        }
        sim.objects.remove(index);
        let name = object.name.to_owned();
        sim.held = Some((object, grasp_strategy, force));
        Ok(Json(GraspResult {
            object: name,
            applied_force: force,
            strategy: grasp_strategy,
            elapsed: round(travel_time + close_time, 2),
        }))
    }

    /// Open the gripper and put the held object down at the current position.
    ///
    /// Use it after carrying an object to its destination. Fails if the gripper is empty.
    #[tool(annotations(destructive_hint = false, open_world_hint = false))]
    fn release_object(&self) -> Result<Json<ReleaseResult>, String> {
        let mut sim = self.arm.sim();
        let Some((mut object, _, _)) = sim.held.take() else {
            return Err(error(
                "the gripper is empty; there is nothing to release",
                "call get_arm_state to see what the arm holds",
            ));
        };
        object.position = sim.position;
        let position = sim.position;
        let name = object.name.to_owned();
        sim.objects.push(object);
        Ok(Json(ReleaseResult {
            object: name,
            position,
        }))
    }

    /// Stop the arm immediately, interrupting any motion in progress.
    ///
    /// Use it when something unexpected happens during a motion. The gripper keeps its grip.
    /// Calling it when the arm is idle does nothing.
    #[tool(annotations(
        destructive_hint = false,
        idempotent_hint = true,
        open_world_hint = false
    ))]
    fn stop_arm(&self) -> Json<StopResult> {
        let sim = self.arm.sim();
        let interrupted_motion = sim.moving;
        if interrupted_motion {
            self.arm.stop.store(true, Ordering::SeqCst);
        }
        Json(StopResult {
            interrupted_motion,
            position: sim.position,
        })
    }

    /// Read the six-axis force/torque sensor at the wrist.
    ///
    /// Use it to check the load after a grasp (a held object pulls down on Fz) or to detect
    /// contact. Forces are in N, torques in N·m.
    #[tool(annotations(read_only_hint = true, open_world_hint = false))]
    fn read_ft_sensor(&self, Parameters(p): Parameters<ReadFtParams>) -> Json<FtReading> {
        let axes = p.axes.unwrap_or_else(|| Axis::ALL.to_vec());
        let filter = p.filter;
        let mut sim = self.arm.sim();
        let (load, grip) = match &sim.held {
            Some((o, _, f)) => (o.mass * 9.81, *f),
            None => (0.0, 0.0),
        };
        let amplitude = match filter {
            FtFilter::Raw => 0.5,
            FtFilter::Kalman => 0.05,
            FtFilter::MovingAverage => 0.15,
        };
        let truth = [0.0, 0.0, -load, 0.01 * grip, load * 0.02, 0.0];
        let mut sample = [0.0; 6];
        for (s, t) in sample.iter_mut().zip(truth) {
            *s = t + amplitude * self.arm.noise();
        }
        sim.moving_average.push(sample);
        if sim.moving_average.len() > 10 {
            sim.moving_average.remove(0);
        }
        let readings = axes
            .iter()
            .map(|&axis| AxisReading {
                axis,
                value: round(sample[axis as usize], 3),
                unit: axis.unit().to_owned(),
            })
            .collect();
        Json(FtReading { filter, readings })
    }

    /// Check a path through several waypoints and, with `execute`, move along it.
    ///
    /// Use it to verify that every waypoint is reachable and to estimate length and duration
    /// before moving, then call it again with execute=true to follow the path in straight
    /// segments at full speed, reporting progress after each waypoint. Planning waits while
    /// another motion is running.
    #[tool(annotations(
        destructive_hint = false,
        idempotent_hint = true,
        open_world_hint = false
    ))]
    async fn plan_trajectory(
        &self,
        Parameters(p): Parameters<PlanParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<Json<TrajectoryPlan>, String> {
        let waypoints = p.waypoints;
        let problems: Vec<String> = waypoints
            .iter()
            .enumerate()
            .filter_map(|(i, w)| w.unreachable_reason().map(|r| format!("waypoint {i}: {r}")))
            .collect();
        if !problems.is_empty() {
            return Err(error(
                problems.join("; "),
                "move those waypoints between 150 and 850 mm from the shoulder",
            ));
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
        if p.execute {
            let count = waypoints.len() as f64;
            let token = context.meta.get_progress_token();
            for (i, waypoint) in waypoints.iter().enumerate() {
                self.arm.travel(*waypoint, 1.0).await?;
                executed = i + 1;
                if let Some(token) = &token {
                    let mut param = ProgressNotificationParam::new(token.clone(), executed as f64);
                    param.total = Some(count);
                    param.message = Some(format!(
                        "reached waypoint {i} at ({:.0}, {:.0}, {:.0}) mm",
                        waypoint.x, waypoint.y, waypoint.z
                    ));
                    if let Err(e) = context.peer.notify_progress(param).await {
                        tracing::debug!(error = %e, "progress notification not delivered");
                    }
                }
            }
        }
        Ok(Json(TrajectoryPlan {
            segments,
            total_length: round(total, 1),
            estimated_duration: round(total / MAX_SPEED, 2),
            executed_waypoints: executed,
        }))
    }

    /// Report where the arm is, what the gripper holds and which objects are on the table.
    ///
    /// Use it before planning a motion or a grasp, and after any error.
    #[tool(annotations(read_only_hint = true, open_world_hint = false))]
    fn get_arm_state(&self) -> Json<ArmState> {
        let sim = self.arm.sim();
        Json(ArmState {
            position: sim.position,
            gripper: GripperState {
                closed: sim.held.is_some(),
                held_object: sim.held.as_ref().map(|(o, _, _)| o.name.to_owned()),
                strategy: sim.held.as_ref().map(|(_, s, _)| *s),
                force: sim.held.as_ref().map_or(0.0, |(_, _, f)| *f),
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
        })
    }
}

#[tool_handler(
    name = "robot-arm-rmcp-twin",
    version = "0.1.0",
    instructions = "A simulated 6-axis robot arm over a table. Positions are in millimeters in the robot base frame (x forward, y left, z up from the table). Call get_arm_state first: it lists the objects on the table with their grasp points."
)]
impl ServerHandler for RobotServer {}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();

    let time_scale = std::env::var("ROBOT_ARM_TIME_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let server = RobotServer {
        arm: Arc::new(Arm::new(time_scale)),
    };
    if std::io::stdin().is_terminal() {
        eprintln!(
            "robot_arm (rmcp twin): a simulated robot arm served as an MCP server over stdio.\n\
             Waiting for a client on stdin; press Ctrl-D to quit."
        );
    }
    tracing::info!("robot_arm rmcp twin starting on stdio");
    let running = server.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
