//! A Franka Emika Panda, from its own URDF: its seven joints, their limits (the URDF's, tightened
//! by MoveIt's `joint_limits.yaml` and a margin), its links' collision meshes as capsules and
//! the link pairs its SRDF never checks, all read when this crate compiles
//! (`resource(.., robot(..))`), served as MCP tools over a kinematic simulation: a motion takes
//! the time its joints' caps give it, moving every joint in step.
//!
//! Every motion, a joint motion (`move_joints`) or a Cartesian one (`move_to`, solved to joint
//! positions by the inverse kinematics within the joints' ranges), is checked link by link over
//! its whole path before anything moves and before the user is asked to confirm it, and again
//! when it gets its turn: every link inside the cell and clear of the table, the shelf behind
//! the arm and the post, and clear of the other links. The shelf is where the elbow goes when
//! the arm leans back, while the tool point stays well in front: a check of the tool point
//! alone would let the elbow through it. The reference says what is checked and the bound
//! (`toolwright::reference`, "Robots").
//!
//! `stop_arm` stops a motion where it is and cancels those waiting; the resource's safe stop
//! `halt` stops it when a call ends early. Motions declare `confirm`, as in `robot_arm`.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use nalgebra::Point3;
use serde::Serialize;
use toolwright::{Context, Speed, ToolError, ToolSchema, Toolbox, ToolboxBuilder, toolbox};

/// The simulation's settings.
#[derive(Debug, Clone, Copy)]
pub struct PandaConfig {
    /// Wall-clock seconds per simulated second (0: motions are instantaneous).
    pub time_scale: f64,
}

impl Default for PandaConfig {
    fn default() -> Self {
        PandaConfig { time_scale: 1.0 }
    }
}

/// The arm's state.
#[derive(Debug)]
struct Sim {
    /// Where the joints are (rad), in the robot's order.
    joints: Vec<f64>,
    moving: bool,
}

/// The simulated Panda.
pub struct Panda {
    config: PandaConfig,
    sim: Mutex<Sim>,
    stop: AtomicBool,
    halts: AtomicU64,
}

/// Where a motion ended.
#[derive(Debug, Serialize, ToolSchema)]
pub struct Reached {
    /// The joint positions reached.
    pub positions: PandaJoints,
    /// How long the motion took (simulated).
    #[param(unit = "s")]
    pub duration: f64,
    /// Whether it was stopped before its end (by `stop_arm`, a deadline or a cancel).
    pub interrupted: bool,
}

/// The tool point.
#[derive(Debug, Serialize, ToolSchema)]
pub struct ToolPose {
    /// Its position in the base frame.
    #[param(unit = "mm", range = -1000.0..=1300.0)]
    pub position: Point3<f64>,
    /// The hand's orientation, a unit quaternion `[x, y, z, w]` in the base frame.
    pub orientation: [f64; 4],
}

/// The arm's state.
#[derive(Debug, Serialize, ToolSchema)]
pub struct State {
    /// The joint positions, by joint name (rad).
    pub joints: PandaJoints,
    /// The tool point (the hand's TCP, between the fingertips).
    pub tool: ToolPose,
    /// Whether a motion is running.
    pub moving: bool,
}

/// What `stop_arm` did.
#[derive(Debug, Serialize, ToolSchema)]
pub struct Stopped {
    /// Whether a motion was running and was stopped.
    pub interrupted_motion: bool,
    /// Where the joints stopped.
    pub positions: PandaJoints,
}

// The cell, in millimetres in the Panda's base frame (`panda_link0`, z up from the plate the
// arm stands on): the table 100 mm below the plate (the base's capsule reaches 82 mm under its
// frame), a shelf behind the arm at the elbow's height, a post to the front left.
#[toolbox(
    timeout = "60s",
    resource(
        name = "arm",
        safe_stop = halt,
        position = joints_now,
        robot(
            urdf = "robots/example-robot-data/robots/panda_description/urdf/panda.urdf",
            tip = "panda_hand_tcp",
            joints = PandaJoints,
            limits = "robots/panda_moveit_config/joint_limits.yaml",
            srdf = "robots/example-robot-data/robots/panda_description/srdf/panda.srdf",
            home = "default",
            margin = "0.01 rad",
            packages("example-robot-data" = "robots/example-robot-data")
        ),
        envelope(
            frame = "panda_link0",
            unit = "mm",
            allow(name = "cell", box(min = (-1000, -1000, -150), max = (1000, 1000, 1300))),
            keep_out(name = "table", box(min = (-1000, -1000, -400), max = (1000, 1000, -100))),
            keep_out(name = "shelf", box(min = (-600, -400, 450), max = (-330, 400, 900))),
            keep_out(name = "post", cylinder(center = (450, 400), radius = 50, z = (-100, 900)))
        )
    )
)]
impl Panda {
    /// Where the joints are (the robot's `position`).
    fn joints_now(&self) -> Vec<f64> {
        self.sim().joints.clone()
    }

    /// The resource's safe stop: stops any motion where it is (idempotent).
    fn halt(&self) -> String {
        self.halts.fetch_add(1, Ordering::SeqCst);
        let mut sim = self.sim();
        if sim.moving {
            self.stop.store(true, Ordering::SeqCst);
        }
        sim.moving = false;
        "halted where it was".to_owned()
    }

    /// Move every joint to the given positions, all in step, at a fraction of the joints'
    /// speed caps.
    ///
    /// Use it for motions given in joint space (a known configuration, a retreat). The whole
    /// motion is checked before anything moves: every link must stay inside the cell and clear
    /// of the table, the shelf and the post, and clear of the other links; a refused motion
    /// says which link, where and how to go around. Answers where the joints ended and how long
    /// the motion took.
    #[tool(
        destructive = false,
        open_world = false,
        resource = "arm",
        target = positions,
        confirm = "Move the Panda's joints to {positions} at {speed} of full speed?"
    )]
    async fn move_joints(
        &self,
        /// Where each joint goes (rad).
        positions: PandaJoints,
        /// How fast: a fraction of every joint's speed cap.
        #[param(default = Speed::fraction(0.5))]
        speed: Speed,
        /// The call: its checked motion.
        ctx: Context,
    ) -> Result<Reached, ToolError> {
        let _ = (positions, speed);
        self.run(&ctx).await
    }

    /// Move the tool point to a position in the base frame.
    ///
    /// The position is solved to joint positions closest to where the arm is (within the
    /// joints' ranges); a position out of reach is refused with the closest the arm reaches.
    /// The motion is then checked like move_joints's.
    #[tool(
        destructive = false,
        open_world = false,
        resource = "arm",
        target = target,
        confirm = "Move the Panda's tool point to {target} at {speed} of full speed?"
    )]
    async fn move_to(
        &self,
        /// Where the tool point goes (x forward, y left, z up from the plate).
        #[param(unit = "mm", range = -150.0..=1000.0)]
        target: Point3<f64>,
        /// How fast: a fraction of every joint's speed cap.
        #[param(default = Speed::fraction(0.5))]
        speed: Speed,
        /// The call: its checked motion.
        ctx: Context,
    ) -> Result<Reached, ToolError> {
        let _ = (target, speed);
        self.run(&ctx).await
    }

    /// Report the joint positions, the tool point and whether the arm is moving.
    ///
    /// Use it before a motion and after any error.
    #[tool(read_only, open_world = false, blocking = false)]
    fn get_state(&self) -> State {
        let sim = self.sim();
        let (p, q) = robot_pose(&sim.joints);
        State {
            joints: joints_of(&sim.joints),
            tool: ToolPose {
                position: Point3::new(p[0], p[1], p[2]),
                orientation: q,
            },
            moving: sim.moving,
        }
    }

    /// Stop the arm where it is, now.
    ///
    /// Use it when something unexpected happens during a motion. It also cancels every motion
    /// waiting for the arm, and is never queued or confirmed. Calling it when the arm is idle
    /// does nothing.
    #[tool(
        idempotent,
        destructive = false,
        open_world = false,
        blocking = false,
        stop_for = "arm"
    )]
    fn stop_arm(&self) -> Stopped {
        let mut sim = self.sim();
        let interrupted_motion = sim.moving;
        if interrupted_motion {
            self.stop.store(true, Ordering::SeqCst);
        }
        sim.moving = false;
        Stopped {
            interrupted_motion,
            positions: joints_of(&sim.joints),
        }
    }
}

/// The tool point (mm) and the hand's orientation at `joints`.
fn robot_pose(joints: &[f64]) -> ([f64; 3], [f64; 4]) {
    let (p, q) = joints_of(joints).tool_pose();
    ([p[0] * 1000.0, p[1] * 1000.0, p[2] * 1000.0], q)
}

fn joints_of(values: &[f64]) -> PandaJoints {
    PandaJoints::from_values(values).expect("seven joints")
}

impl Panda {
    /// A Panda at its home configuration (the SRDF's `default`), not moving.
    pub fn new(config: PandaConfig) -> Self {
        Panda {
            config,
            sim: Mutex::new(Sim {
                joints: PandaJoints::HOME.values().to_vec(),
                moving: false,
            }),
            stop: AtomicBool::new(false),
            halts: AtomicU64::new(0),
        }
    }

    fn sim(&self) -> std::sync::MutexGuard<'_, Sim> {
        self.sim
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// How many times the safe stop ran.
    pub fn halts(&self) -> u64 {
        self.halts.load(Ordering::SeqCst)
    }

    /// Where the joints are.
    pub fn joints(&self) -> Vec<f64> {
        self.sim().joints.clone()
    }

    /// Runs the call's checked motion in simulated time: every joint along the checked path,
    /// on the profile its caps give it; stops where it is on `stop_arm`, a deadline or a cancel.
    async fn run(&self, ctx: &Context) -> Result<Reached, ToolError> {
        let motion = ctx
            .motion()
            .ok_or_else(|| ToolError::new("no checked motion was handed to this call"))?
            .clone();
        let duration = motion.duration();
        self.stop.store(false, Ordering::SeqCst);
        self.sim().moving = true;
        let started = Instant::now();
        let scale = self.config.time_scale;
        let mut interrupted = false;
        if scale > 0.0 {
            loop {
                let elapsed = started.elapsed().div_f64(scale);
                let done = elapsed >= duration;
                let at = motion.at(elapsed.min(duration));
                {
                    let mut sim = self.sim();
                    sim.joints = at;
                }
                if done {
                    break;
                }
                if self.stop.load(Ordering::SeqCst) || ctx.is_cancelled() {
                    interrupted = true;
                    break;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        } else {
            self.sim().joints = motion.to().to_vec();
        }
        let mut sim = self.sim();
        sim.moving = false;
        let simulated = if scale > 0.0 {
            started.elapsed().as_secs_f64() / scale
        } else {
            duration.as_secs_f64()
        };
        Ok(Reached {
            positions: joints_of(&sim.joints),
            duration: simulated.min(duration.as_secs_f64()),
            interrupted,
        })
    }
}

/// The Panda's toolbox, to configure and build (confirmation on, as declared).
pub fn server(config: PandaConfig) -> ToolboxBuilder<Panda> {
    Toolbox::builder(Panda::new(config))
        .with_title("Franka Panda (simulated)")
        .with_skill(
            "franka-panda",
            "Operate the simulated Franka Panda arm safely through its MCP tools: move its joints \
             or its tool point, read its state and stop it; says what every motion is checked \
             against (joint limits, every link against the cell and itself) and what is not \
             checked. Read it before calling any of its tools.",
        )
        .with_instructions(
            "A simulated Franka Emika Panda (7 joints, read from its URDF) on a table, with a \
             shelf behind it and a post to its front left. Joint positions are in radians; \
             positions of the tool point in millimetres in the base frame (x forward, y left, \
             z up from the plate the arm stands on). Call get_state first.",
        )
}
