//! A simulated SCARA arm whose tools take and return ROS 2 messages: `geometry_msgs/Pose` for
//! where the tool goes, `sensor_msgs/JointState` for the joints.
//!
//! The message types are roslibrust's, generated from the vendored `.msg` files by
//! examples/build.rs ([`msgs`]); nothing here describes them to toolwright. With the `ros`
//! feature, toolwright publishes each message's schema from its `.msg` definition: the file's
//! comments as descriptions, REP-103 units (positions in meters, angles in radians), ROS 2
//! defaults (a quaternion's `w` is 1), and no property a message lacks.
//!
//! The arm: two horizontal links (`shoulder`, `elbow`, revolute about z), a vertical `lift`
//! (prismatic) and a `wrist` turning the tool about z. Its tool always points down, so a pose's
//! orientation may only turn about z.

pub mod msgs;

use std::f64::consts::PI;
use std::sync::Mutex;

use serde::Serialize;
use toolwright::{ToolError, ToolSchema, Toolbox, ToolboxBuilder, toolbox};

use msgs::builtin_interfaces::Time;
use msgs::geometry_msgs::{Point, Pose, Quaternion};
use msgs::sensor_msgs::JointState;
use msgs::std_msgs::Header;

/// Length of the first link (shoulder to elbow), in meters.
pub const UPPER_ARM: f64 = 0.4;
/// Length of the second link (elbow to wrist), in meters.
pub const FOREARM: f64 = 0.3;
/// Height of the tool at `lift` = 0, in meters.
pub const BASE_HEIGHT: f64 = 0.1;
/// The joints, in the order joint states list them.
pub const JOINTS: [&str; 4] = ["shoulder", "elbow", "lift", "wrist"];
/// Each joint's limits (rad for the revolute joints, m for `lift`).
pub const LIMITS: [(f64, f64); 4] = [(-2.6, 2.6), (-2.5, 2.5), (0.0, 0.4), (-PI, PI)];
/// The frame poses are expressed in.
pub const FRAME: &str = "base_link";

/// The arm's state: joint positions and a simulated clock.
#[derive(Debug, Clone, PartialEq)]
pub struct Sim {
    /// `shoulder`, `elbow`, `lift`, `wrist`.
    pub joints: [f64; 4],
    /// Simulated time since start, in nanoseconds (advanced by each motion).
    pub clock_ns: u64,
}

impl Default for Sim {
    fn default() -> Self {
        Sim {
            joints: [0.0, PI / 2.0, 0.2, 0.0],
            clock_ns: 0,
        }
    }
}

/// The arm as a toolbox state.
#[derive(Debug, Default)]
pub struct RosArm {
    sim: Mutex<Sim>,
}

/// A motion's outcome.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct Motion {
    /// The joints where the motion ended.
    pub joints: JointState,
    /// Where the tool is now, in `base_link`.
    pub pose: Pose,
    /// How long the motion took.
    #[param(unit = "s")]
    pub duration: f64,
}

fn stamp(clock_ns: u64) -> Time {
    Time {
        sec: i32::try_from(clock_ns / 1_000_000_000).unwrap_or(i32::MAX),
        nanosec: (clock_ns % 1_000_000_000) as u32,
    }
}

/// The tool's pose for these joints (forward kinematics).
pub fn forward(joints: [f64; 4]) -> Pose {
    let [shoulder, elbow, lift, wrist] = joints;
    let yaw = wrap(shoulder + elbow + wrist);
    Pose {
        position: Point {
            x: UPPER_ARM * shoulder.cos() + FOREARM * (shoulder + elbow).cos(),
            y: UPPER_ARM * shoulder.sin() + FOREARM * (shoulder + elbow).sin(),
            z: BASE_HEIGHT + lift,
        },
        orientation: Quaternion {
            x: 0.0,
            y: 0.0,
            z: (yaw / 2.0).sin(),
            w: (yaw / 2.0).cos(),
        },
    }
}

fn wrap(angle: f64) -> f64 {
    (angle + PI).rem_euclid(2.0 * PI) - PI
}

/// The joints that put the tool at `pose` (elbow on the side it is on now), or why none do.
/// The orientation is a unit quaternion: the toolbox refuses any other before a tool runs.
pub fn inverse(pose: &Pose, elbow_now: f64) -> Result<[f64; 4], ToolError> {
    let q = &pose.orientation;
    if q.x.abs() > 1e-3 || q.y.abs() > 1e-3 {
        return Err(ToolError::new(
            "the tool points down and can only turn about z: the orientation's x and y must be 0",
        )
        .with_hint("a turn by θ about z is x = 0, y = 0, z = sin(θ/2), w = cos(θ/2)"));
    }
    let Point { x, y, z } = pose.position;
    let lift = z - BASE_HEIGHT;
    let (lo, hi) = LIMITS[2];
    if !(lo..=hi).contains(&lift) {
        return Err(ToolError::new(format!(
            "z = {z:.3} m is out of reach: the tool moves between z = {:.2} m and {:.2} m",
            BASE_HEIGHT + lo,
            BASE_HEIGHT + hi
        )));
    }
    let r2 = x * x + y * y;
    let cos_elbow = (r2 - UPPER_ARM * UPPER_ARM - FOREARM * FOREARM) / (2.0 * UPPER_ARM * FOREARM);
    if !(-1.0..=1.0).contains(&cos_elbow) {
        return Err(ToolError::new(format!(
            "({x:.3}, {y:.3}) m is out of reach: the tool reaches from {:.2} m to {:.2} m from the base axis",
            UPPER_ARM - FOREARM,
            UPPER_ARM + FOREARM
        ))
        .with_hint("call end_effector_pose for a reachable pose"));
    }
    let elbow = cos_elbow.acos() * if elbow_now < 0.0 { -1.0 } else { 1.0 };
    let shoulder = y.atan2(x) - (FOREARM * elbow.sin()).atan2(UPPER_ARM + FOREARM * elbow.cos());
    let yaw = 2.0 * q.z.atan2(q.w);
    let joints = [wrap(shoulder), elbow, lift, wrap(yaw - shoulder - elbow)];
    check_limits(joints)?;
    Ok(joints)
}

fn check_limits(joints: [f64; 4]) -> Result<(), ToolError> {
    for ((name, value), (lo, hi)) in JOINTS.iter().zip(joints).zip(LIMITS) {
        if !(lo..=hi).contains(&value) {
            let unit = if *name == "lift" { "m" } else { "rad" };
            return Err(ToolError::new(format!(
                "joint `{name}` would be at {value:.3} {unit}, outside its limits {lo} to {hi} {unit}"
            )));
        }
    }
    Ok(())
}

impl RosArm {
    fn state_of(sim: &Sim) -> JointState {
        JointState {
            header: Header {
                stamp: stamp(sim.clock_ns),
                frame_id: FRAME.to_owned(),
            },
            name: JOINTS.iter().map(|s| (*s).to_owned()).collect(),
            position: sim.joints.to_vec(),
            velocity: vec![0.0; 4],
            effort: vec![0.0; 4],
        }
    }

    /// Moves to `joints` at `speed` (fraction of the top joint speed, 1 rad/s or 0.25 m/s).
    fn go(&self, joints: [f64; 4], speed: f64) -> Motion {
        let mut sim = self.sim.lock().unwrap_or_else(|e| e.into_inner());
        let duration = sim
            .joints
            .iter()
            .zip(joints)
            .enumerate()
            .map(|(i, (from, to))| (to - from).abs() / if i == 2 { 0.25 } else { 1.0 })
            .fold(0.0, f64::max)
            / speed;
        sim.joints = joints;
        sim.clock_ns += (duration * 1e9).round() as u64;
        Motion {
            joints: Self::state_of(&sim),
            pose: forward(joints),
            duration: (duration * 1000.0).round() / 1000.0,
        }
    }
}

/// The ROS arm server, to build or to run the command line with.
pub fn server() -> ToolboxBuilder<RosArm> {
    Toolbox::builder(RosArm::default())
        .with_title("Simulated SCARA arm (ROS 2 messages)")
        .with_describe_tool()
        .with_instructions(
            "A SCARA arm whose tools take and return ROS 2 messages. Poses are in base_link, in \
             meters; the tool points down and only turns about z. Call end_effector_pose or \
             joint_state before moving.",
        )
}

#[toolbox(resource(name = "arm", safe_stop = halt))]
impl RosArm {
    /// The safe stop of `arm`: a motion in this simulation is instantaneous, so the arm is
    /// always at rest where its joints are; halting reports where. The runtime runs it whenever a
    /// call holding the arm ends early, and `stop_arm` runs it at once.
    fn halt(&self) -> String {
        let joints = self.sim.lock().unwrap_or_else(|e| e.into_inner()).joints;
        format!(
            "halted with shoulder {:.3} rad, elbow {:.3} rad, lift {:.3} m, wrist {:.3} rad",
            joints[0], joints[1], joints[2], joints[3]
        )
    }

    /// Stop the arm: cancel every motion waiting for it and halt the one moving.
    ///
    /// Never queued behind the motions it stops, never rate-limited, never confirmed.
    #[tool(
        destructive = false,
        idempotent,
        open_world = false,
        blocking = false,
        stop_for = "arm"
    )]
    fn stop_arm(&self) -> JointState {
        Self::state_of(&self.sim.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The joints' state now, as a `sensor_msgs/JointState`.
    #[tool(read_only, open_world = false, blocking = false)]
    fn joint_state(&self) -> JointState {
        Self::state_of(&self.sim.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Where the tool is now, as a `geometry_msgs/Pose` in `base_link`.
    #[tool(read_only, open_world = false, blocking = false)]
    fn end_effector_pose(&self) -> Pose {
        forward(self.sim.lock().unwrap_or_else(|e| e.into_inner()).joints)
    }

    /// Move the tool to a pose, through another one first if given.
    ///
    /// The orientation may only turn about z (x = y = 0). Refused when a pose is out of reach
    /// or would put a joint past its limits; the arm does not move then.
    #[tool(
        destructive = false,
        idempotent,
        open_world = false,
        resource = "arm",
        confirm = "Move the arm's tool to {target} at {speed} of top speed (by way of: {via})?"
    )]
    fn move_to_pose(
        &self,
        /// Where the tool goes, in `base_link`.
        target: Pose,
        /// A pose to pass through on the way (above the target, to come down onto it).
        via: Option<Pose>,
        /// Fraction of the top speed.
        #[param(range = 0.05..=1.0, default = 0.5)]
        speed: f64,
    ) -> Result<Motion, ToolError> {
        let path = via.into_iter().chain([target]).collect();
        self.follow_path(path, speed)
    }

    /// Move the tool through poses, in order.
    #[tool(
        destructive = false,
        open_world = false,
        resource = "arm",
        confirm = "Move the arm's tool through {waypoints} at {speed} of top speed?"
    )]
    fn follow_path(
        &self,
        /// The poses, in `base_link`; the arm stops at each.
        #[param(min_items = 1, max_items = 20)]
        waypoints: Vec<Pose>,
        /// Fraction of the top speed.
        #[param(range = 0.05..=1.0, default = 0.5)]
        speed: f64,
    ) -> Result<Motion, ToolError> {
        let mut elbow = self.sim.lock().unwrap_or_else(|e| e.into_inner()).joints[1];
        let mut plan = Vec::with_capacity(waypoints.len());
        for (i, pose) in waypoints.iter().enumerate() {
            let joints = inverse(pose, elbow)
                .map_err(|e| ToolError::new(format!("waypoint {i}: {}", e.message())))?;
            elbow = joints[1];
            plan.push(joints);
        }
        let mut total = 0.0;
        let mut last = None;
        for joints in plan {
            let m = self.go(joints, speed);
            total += m.duration;
            last = Some(m);
        }
        let mut motion = last.ok_or_else(|| ToolError::new("no waypoint"))?;
        motion.duration = (total * 1000.0).round() / 1000.0;
        Ok(motion)
    }

    /// Move the joints to positions.
    ///
    /// `name` lists the joints to move (`shoulder`, `elbow`, `lift`, `wrist`), `position` their
    /// targets in the same order; the others stay. `velocity` and `effort` are ignored.
    #[tool(
        destructive = false,
        idempotent,
        open_world = false,
        resource = "arm",
        confirm = "Move the arm's joints {goal}?"
    )]
    fn move_joints(
        &self,
        /// The joints to move and their target positions.
        goal: JointState,
    ) -> Result<Motion, ToolError> {
        if goal.name.len() != goal.position.len() {
            return Err(ToolError::new(format!(
                "{} joint names but {} positions: give one position per name",
                goal.name.len(),
                goal.position.len()
            )));
        }
        let mut joints = self.sim.lock().unwrap_or_else(|e| e.into_inner()).joints;
        for (name, position) in goal.name.iter().zip(&goal.position) {
            let i = JOINTS.iter().position(|j| j == name).ok_or_else(|| {
                ToolError::new(format!("no joint `{name}`"))
                    .with_hint("the joints are shoulder, elbow, lift and wrist")
            })?;
            joints[i] = *position;
        }
        check_limits(joints)?;
        Ok(self.go(joints, 0.5))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_undoes_forward() {
        for joints in [[0.3, 1.2, 0.1, -0.4], [-1.0, -0.8, 0.35, 2.0]] {
            let back = inverse(&forward(joints), joints[1]).unwrap();
            for (a, b) in joints.iter().zip(back) {
                assert!((a - b).abs() < 1e-9, "{joints:?} -> {back:?}");
            }
        }
    }

    #[test]
    fn tilted_or_far_poses_are_refused() {
        let mut pose = forward(Sim::default().joints);
        pose.orientation = Quaternion {
            x: 1.0,
            y: 0.0,
            z: 0.0,
            w: 0.0,
        };
        assert!(
            inverse(&pose, 1.0)
                .unwrap_err()
                .message()
                .contains("only turn about z")
        );
        let mut far = forward(Sim::default().joints);
        far.position.x = 2.0;
        assert!(
            inverse(&far, 1.0)
                .unwrap_err()
                .message()
                .contains("out of reach")
        );
    }
}
