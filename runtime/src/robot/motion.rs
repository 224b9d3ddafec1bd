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
