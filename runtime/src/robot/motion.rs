//! [`Motion`]: what a tool's body is handed of the motion toolwright checked for it, through
//! [`Context::motion`](crate::Context::motion).

use std::time::Duration;

use super::sweep::wrap;
use super::timing::Timing;

/// A motion of a robot resource as toolwright checked it when the call got its turn: from the
/// joint positions the arm was at to the target (given as joint positions, or solved from a
/// Cartesian target), link by link against the envelope and the robot itself, with its timing
/// under the joints' caps at the requested speed. Run exactly this motion: any other was not
/// checked.
#[cfg_attr(docsrs, doc(cfg(feature = "robot")))]
#[derive(Debug, Clone, PartialEq)]
pub struct Motion {
    pub(crate) joints: Vec<String>,
    pub(crate) from: Vec<f64>,
    pub(crate) to: Vec<f64>,
    pub(crate) wraps: Vec<bool>,
    pub(crate) speed: f64,
    pub(crate) timing: Timing,
}

impl Motion {
    /// The moving joints' names, in order (the URDF's).
    pub fn joints(&self) -> &[String] {
        &self.joints
    }

    /// Where the joints were when the motion was checked (rad, or m for a prismatic joint).
    pub fn from(&self) -> &[f64] {
        &self.from
    }

    /// Where the motion ends.
    pub fn to(&self) -> &[f64] {
        &self.to
    }

    /// The fraction of the joints' caps the motion is timed at (0 < speed <= 1).
    pub fn speed(&self) -> f64 {
        self.speed
    }

    /// How long the motion takes: never less than its slowest joint's caps allow at `speed`.
    pub fn duration(&self) -> Duration {
        Duration::from_secs_f64(self.timing.duration)
    }

    /// The joint positions `elapsed` after the motion started, along the checked path (a
    /// straight line in joint space, every joint in step on one profile); `to` once it is over.
    pub fn at(&self, elapsed: Duration) -> Vec<f64> {
        let s = self.timing.progress(elapsed.as_secs_f64());
        self.from
            .iter()
            .zip(&self.to)
            .zip(&self.wraps)
            .map(|((a, b), w)| {
                if s >= 1.0 {
                    *b
                } else {
                    let d = if *w { wrap(b - a) } else { b - a };
                    a + s * d
                }
            })
            .collect()
    }
}

/// Joint positions as generated code reads them from a robot resource's `position` method:
/// the generated joint-position type, `Vec<f64>`, `[f64; N]`, or an `Option` of one.
#[doc(hidden)]
pub trait JointValues {
    /// The values, in the robot's joint order (`None`: not known).
    fn joint_values(self) -> Option<Vec<f64>>;
}

impl JointValues for Vec<f64> {
    fn joint_values(self) -> Option<Vec<f64>> {
        Some(self)
    }
}

impl<const N: usize> JointValues for [f64; N] {
    fn joint_values(self) -> Option<Vec<f64>> {
        Some(self.to_vec())
    }
}

impl JointValues for &[f64] {
    fn joint_values(self) -> Option<Vec<f64>> {
        Some(self.to_vec())
    }
}

impl<T: JointValues> JointValues for Option<T> {
    fn joint_values(self) -> Option<Vec<f64>> {
        self?.joint_values()
    }
}

/// The tool point of the robot `def` at `joints`, in `unit` (`m`, `cm`, `mm`): what a robot
/// resource's envelope takes as its position. `model` is where generated code keeps the model
/// built from `def` (a `static` of its own).
#[doc(hidden)]
pub fn robot_tool_point(
    model: &std::sync::OnceLock<Option<super::Robot>>,
    def: &super::RobotDef,
    joints: Option<Vec<f64>>,
    unit: &str,
) -> Option<[f64; 3]> {
    let joints = joints?;
    let model = model.get_or_init(|| super::Robot::new(def).ok()).as_ref()?;
    if joints.len() != model.dof() {
        return None;
    }
    let k = super::sweep::per_metre(unit)?;
    let (p, _) = model.tool_pose(&joints);
    Some([p[0] * k, p[1] * k, p[2] * k])
}

/// The tool point (metres) and the tip link's orientation (`[x, y, z, w]`) of the robot `def` at
/// `joints`, in its base frame; `model` is where generated code keeps the model built from
/// `def`. `None` for another number of joints.
#[doc(hidden)]
pub fn robot_tool_pose(
    model: &std::sync::OnceLock<Option<super::Robot>>,
    def: &super::RobotDef,
    joints: &[f64],
) -> Option<([f64; 3], [f64; 4])> {
    let model = model.get_or_init(|| super::Robot::new(def).ok()).as_ref()?;
    (joints.len() == model.dof()).then(|| model.tool_pose(joints))
}
