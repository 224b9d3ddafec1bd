//! The simulated arm behind the robot-arm tools: motions in simulated time that stop when told
//! to, the gripper and the objects on the table, and the force/torque sensor with its noise and
//! filters. The tools (in `mod.rs`) call into it; nothing here is published to the model.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use nalgebra::Point3;
use toolwright::{Context, ToolError};

use super::{
    ArmState, Axis, AxisReading, FtFilter, FtReading, GraspResult, GraspStrategy, GripperState,
    MoveResult, ReleaseResult, Segment, StopResult, TableObject, TrajectoryPlan, TrajectoryRun,
};

/// Tool speed at `speed = 1.0`, mm/s.
pub const MAX_SPEED: f64 = 500.0;
/// How close (mm) the gripper must be to an object to grasp it.
pub const GRASP_TOLERANCE: f64 = 25.0;

/// Raw samples in one force/torque reading (50 ms at 1 kHz).
const FT_BURST: usize = 50;
/// Samples the moving average takes the mean of.
const FT_WINDOW: usize = 10;
/// Largest error of one raw force/torque sample, N or N·m.
const FT_NOISE: f64 = 0.3;

/// The home position of the tool point.
pub const HOME: Point3<f64> = Point3::new(300.0, 0.0, 400.0);

#[derive(Debug, Clone)]
struct SimObject {
    name: &'static str,
    position: Point3<f64>,
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
    position: Point3<f64>,
    held: Option<Held>,
    objects: Vec<SimObject>,
    moving: bool,
}

/// Simulation settings.
#[derive(Debug, Clone, Copy)]
pub struct SimConfig {
    /// Wall-clock seconds per simulated second (0 runs motions instantly).
    /// [`server`](super::server) scales the tools' default deadline by it too (below 1).
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

impl RobotArm {
    /// A new arm at its home position, with three objects on the table.
    pub fn new(config: SimConfig) -> Self {
        let objects = vec![
            SimObject {
                name: "red_cube",
                position: Point3::new(400.0, 0.0, 25.0),
                mass: 0.2,
                porous: false,
                fragile_above: f64::INFINITY,
            },
            SimObject {
                name: "glass_bottle",
                position: Point3::new(350.0, 250.0, 120.0),
                mass: 0.45,
                porous: false,
                fragile_above: 25.0,
            },
            SimObject {
                name: "sponge",
                position: Point3::new(300.0, -300.0, 20.0),
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
    // A span of the motion: with the `otel` feature exporting, a child of the call's span.
    #[tracing::instrument(name = "travel", skip_all, fields(speed = speed))]
    pub(super) async fn travel(
        &self,
        target: Point3<f64>,
        speed: f64,
        ctx: &Context,
    ) -> Result<MoveResult, ToolError> {
        let start = self.sim().position;
        let distance = nalgebra::distance(&start, &target);
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
                    nalgebra::distance(&at, &target)
                )));
            }
            let t = i as f64 / steps as f64;
            let here = Point3::from(start.coords.lerp(&target.coords, t));
            {
                let mut sim = self.sim();
                // Halted (the safe stop ran, under this lock) while this step was under way:
                // not one step more. Without this a stop whose safe stop ran between the check
                // of `ctx` above and this write let the arm take a last 50 ms step after it
                // said "halted at" (issue 43's bench saw it once in 20 stops).
                if !sim.moving {
                    let at = sim.position;
                    return Err(ToolError::new(format!(
                        "motion halted at ({:.0}, {:.0}, {:.0}) mm, {:.0} mm short of the target",
                        at.x,
                        at.y,
                        at.z,
                        nalgebra::distance(&at, &target)
                    ))
                    .with_hint("call get_arm_state before moving again"));
                }
                sim.position = here;
            }
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

    /// The safe stop `halt`: halts any motion where it is and leaves the arm not moving; says
    /// where it stopped.
    pub(super) fn halt_motion(&self) -> String {
        self.halts.fetch_add(1, Ordering::SeqCst);
        self.stop.store(false, Ordering::SeqCst);
        let mut sim = self.sim();
        sim.moving = false;
        let p = sim.position;
        format!("halted at ({:.0}, {:.0}, {:.0}) mm", p.x, p.y, p.z)
    }

    /// Moves to `target_position` and closes the gripper on the object there with `force`
    /// (refused if that would take longer than `timeout` seconds); the arm then holds it.
    pub(super) async fn grasp(
        &self,
        target_position: Point3<f64>,
        force: f64,
        grasp_strategy: GraspStrategy,
        timeout: f64,
        ctx: &Context,
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
        let travel_time =
            nalgebra::distance(&start, &target_position) / (MAX_SPEED * approach_speed);
        let close_time = 0.8;
        if travel_time + close_time > timeout {
            return Err(ToolError::new(format!(
                "the grasp would take {:.1} s (approach {:.1} s + closing {close_time:.1} s), longer than the timeout of {timeout} s",
                travel_time + close_time,
                travel_time
            ))
            .with_hint("raise timeout, or move closer with move_arm_to_pose first"));
        }
        self.check_time(ctx, travel_time + close_time, || {
            (
                "this grasp (approach and closing)".to_owned(),
                "move closer with move_arm_to_pose first, then grasp".to_owned(),
            )
        })?;
        self.travel(target_position, approach_speed, ctx).await?;
        let mut sim = self.sim();
        let nearest = sim
            .objects
            .iter()
            .enumerate()
            .map(|(i, o)| (i, nalgebra::distance(&o.position, &target_position)))
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

    /// Opens the gripper and puts the held object down where the arm is.
    pub(super) fn release(&self) -> Result<ReleaseResult, ToolError> {
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

    /// Interrupts the motion in progress, if any: it stops at its next step.
    pub(super) fn interrupt(&self) -> StopResult {
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

    /// One filtered reading of the force/torque sensor, on `axes` in that order.
    pub(super) fn read_ft(&self, filter: FtFilter, axes: &[Axis]) -> FtReading {
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

    /// The path through `waypoints` from where the arm is, and how long following it takes at
    /// `speed`; nothing moves.
    pub(super) fn plan(&self, waypoints: &[Point3<f64>], speed: f64) -> TrajectoryPlan {
        let start = self.sim().position;
        let mut from = start;
        let mut segments = Vec::with_capacity(waypoints.len());
        let mut total = 0.0;
        for (i, waypoint) in waypoints.iter().enumerate() {
            let length = nalgebra::distance(&from, waypoint);
            total += length;
            segments.push(Segment {
                to: i,
                length: round(length, 1),
            });
            from = *waypoint;
        }
        TrajectoryPlan {
            start,
            segments,
            total_length: round(total, 1),
            estimated_duration: round(total / (MAX_SPEED * speed), 2),
            speed,
        }
    }

    /// Follows the path through `waypoints` at `speed`, notifying progress after each waypoint.
    pub(super) async fn follow(
        &self,
        waypoints: &[Point3<f64>],
        speed: f64,
        ctx: &Context,
    ) -> Result<TrajectoryRun, ToolError> {
        let plan = self.plan(waypoints, speed);
        self.check_time(ctx, plan.total_length / (MAX_SPEED * speed), || {
            (
                format!("this path ({:.0} mm at speed {speed})", plan.total_length),
                "raise speed, or split the path into several follow_trajectory calls with fewer \
                 waypoints"
                    .to_owned(),
            )
        })?;
        let count = waypoints.len() as f64;
        let (mut distance, mut duration) = (0.0, 0.0);
        for (i, waypoint) in waypoints.iter().enumerate() {
            let moved = self.travel(*waypoint, speed, ctx).await?;
            distance += moved.distance;
            duration += moved.duration;
            ctx.progress(
                (i + 1) as f64,
                Some(count),
                Some(format!(
                    "reached waypoint {i} at ({:.0}, {:.0}, {:.0}) mm",
                    waypoint.x, waypoint.y, waypoint.z
                )),
            )
            .await;
        }
        Ok(TrajectoryRun {
            reached_waypoints: waypoints.len(),
            position: self.sim().position,
            distance: round(distance, 1),
            duration: round(duration, 2),
        })
    }

    /// Where the arm is, what it holds and which objects are on the table.
    /// Where the tool point is now (the envelope's `position`: asked twice per motion, so
    /// without building the whole state).
    pub(super) fn position(&self) -> Point3<f64> {
        self.sim().position
    }

    pub(super) fn state(&self) -> ArmState {
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

fn round(v: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (v * f).round() / f
}
