//! Robots described by their URDF (the `robot` feature): a resource declared with
//! `robot(urdf = "..", tip = "..", ..)` is read at compile time by the macros (its joints,
//! enforced limits with where each came from, and every link's collision geometry as capsules)
//! into a constant [`RobotDef`]; here that becomes the model the toolbox checks motions with.
//!
//! - `def.rs`: [`RobotDef`], what generated code writes;
//! - `fields.rs`: the compile-time check of a hand-written struct of joint positions against
//!   the robot ([`JointRanges`]);
//! - `model.rs`: [`Robot`], built once: the chain as nalgebra transforms, the bodies (links
//!   with capsules), the self-collision pairs and the rates the swept check's bound rests on;
//! - `kinematics.rs`: forward kinematics and the tool point's Jacobian;
//! - `ik.rs`: inverse kinematics within the joints' ranges ([`Solved`]);
//! - `distance.rs`: the exact distance between segments (capsule against capsule);
//! - `sweep.rs`: the sound swept check of a joint-space motion ([`Space`], the bound, the
//!   method);
//! - `refusal.rs`: what a refused motion is told;
//! - `timing.rs`: a motion's duration and profile under the joints' caps ([`Timing`]);
//! - `json.rs`: the published form, `_meta["io.toolwright/robot"]`;
//! - `motion.rs`: [`Motion`], the checked motion a tool's body is handed; `speed.rs`:
//!   [`Speed`], the parameter type of its speed.
//!
//! It imports the envelope's shapes and exact distances (`crate::envelope`), the compile-time
//! message builder and the private keywords (`crate::schema`), nothing above them.

mod def;
mod distance;
mod fields;
mod ik;
mod json;
mod kinematics;
mod model;
mod motion;
mod refusal;
mod speed;
mod sweep;
#[cfg(test)]
mod tests;
mod timing;

pub use def::{CapsuleDef, JointDef, JointKind, LimitsDef, LinkDef, MimicDef, RobotDef, TipDef};
pub use fields::{
    JointField, JointFieldProblem, JointFields, JointFieldsOf, JointRanges, NoJointFields, RobotOf,
    joint_field_message, joint_field_problem,
};
pub use ik::{ANGLE_TOLERANCE, POSITION_TOLERANCE, Solved};
pub use model::Robot;
pub use motion::{JointValues, Motion, robot_tool_point, robot_tool_pose};
pub use refusal::Refusal;
pub use speed::Speed;
pub use sweep::{Cleared, Space, TOLERANCE};
pub use timing::Timing;

impl Robot {
    /// The motion from `from` to `to` at `speed`, as a tool's body gets it (after the check).
    pub(crate) fn motion(&self, from: Vec<f64>, to: Vec<f64>, speed: f64) -> Motion {
        let timing = self.timing(&from, &to, speed);
        Motion {
            joints: self.joint_names().map(str::to_owned).collect(),
            wraps: self
                .params
                .iter()
                .map(|&k| self.joints[k].limits.wraps)
                .collect(),
            from,
            to,
            speed: if speed > 0.0 && speed <= 1.0 {
                speed
            } else {
                1.0
            },
            timing,
        }
    }

    /// Checks the motion from `from` to `to` (joint positions, in the order of
    /// [`Robot::joint_names`]) against `space` and the robot itself: what the check found, or
    /// the refusal's words.
    pub fn check(&self, space: &Space, from: &[f64], to: &[f64]) -> Result<Cleared, Refusal> {
        self.sweep(space, from, to)
            .map_err(|blocked| self.refusal(space, from, to, &blocked))
    }
}
