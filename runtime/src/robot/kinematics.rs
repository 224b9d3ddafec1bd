//! Forward kinematics on the chain: each joint's frame is the previous one's, times the joint's
//! origin, times its motion (a turn about its axis, or a slide along it); and the tool point's
//! Jacobian for the inverse kinematics.

use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

use super::def::JointKind;
use super::model::Robot;

/// The chain's frames for one configuration: `frames[0]` the base's, `frames[k]` the `k`th
/// moving joint's (after its motion), all in the base frame.
#[derive(Debug, Clone)]
pub(crate) struct Frames {
    pub(crate) frames: Vec<Isometry3<f64>>,
    /// Every chain joint's value (mimics computed).
    pub(crate) values: Vec<f64>,
}

impl Frames {
    /// Room for `robot`'s frames.
    pub(crate) fn new(robot: &Robot) -> Frames {
        let n = robot.joints.len();
        Frames {
            frames: vec![Isometry3::identity(); n + 1],
            values: vec![0.0; n],
        }
    }
}

impl Robot {
    /// Fills `out` with the frames of the parameter values `q`.
    pub(crate) fn forward_into(&self, q: &[f64], out: &mut Frames) {
        self.chain_values(q, &mut out.values);
        for (k, joint) in self.joints.iter().enumerate() {
            let value = out.values[k];
            let motion = match joint.kind {
                JointKind::Prismatic => Isometry3::from_parts(
                    Translation3::from(joint.axis.into_inner() * value),
                    UnitQuaternion::identity(),
                ),
                JointKind::Revolute | JointKind::Continuous => Isometry3::from_parts(
                    Translation3::identity(),
                    UnitQuaternion::from_axis_angle(&joint.axis, value),
                ),
            };
            out.frames[k + 1] = out.frames[k] * joint.origin * motion;
        }
    }

    /// The frames of the parameter values `q`.
    pub(crate) fn forward(&self, q: &[f64]) -> Frames {
        let mut frames = Frames::new(self);
        self.forward_into(q, &mut frames);
        frames
    }

    /// The tool point and the tip link's orientation at `q`, in the base frame.
    pub fn tool_pose(&self, q: &[f64]) -> ([f64; 3], [f64; 4]) {
        let frames = self.forward(q);
        let p = frames.frames[self.tip_frame].transform_point(&self.tip_point);
        let tip_link = self
            .links
            .iter()
            .find(|l| l.name == self.tip_link)
            .map_or(Isometry3::identity(), |l| l.placement);
        let r = (frames.frames[self.tip_frame] * tip_link).rotation;
        (
            [p.x, p.y, p.z],
            [r.coords.x, r.coords.y, r.coords.z, r.coords.w],
        )
    }

    /// The origin of `link`'s frame at `q`, in the base frame (tests, the page's drawing).
    pub fn link_origin(&self, q: &[f64], link: &str) -> Option<[f64; 3]> {
        let l = self.links.iter().find(|l| l.name == link)?;
        let frames = self.forward(q);
        let p = (frames.frames[l.frame] * l.placement).transform_point(&Point3::origin());
        Some([p.x, p.y, p.z])
    }

    /// Each link's capsules at `q`, in the base frame: `(link, a, b, radius)`.
    pub fn capsules_at(&self, q: &[f64]) -> Vec<(&str, [f64; 3], [f64; 3], f64)> {
        let frames = self.forward(q);
        let mut out = Vec::new();
        for body in &self.bodies {
            let f = &frames.frames[body.frame];
            for c in &body.capsules {
                let (a, b) = (f.transform_point(&c.a), f.transform_point(&c.b));
                out.push((
                    self.links[body.link].name.as_str(),
                    [a.x, a.y, a.z],
                    [b.x, b.y, b.z],
                    c.radius,
                ));
            }
        }
        out
    }

    /// The tool point's Jacobian at the frames `f`: for each parameter joint, how the tool
    /// point moves (linear) and the tip turns (angular) per unit of the joint, mimics folded
    /// into their leaders. Columns in parameter order.
    pub(crate) fn jacobian(&self, f: &Frames) -> Vec<(Vector3<f64>, Vector3<f64>)> {
        let tip = f.frames[self.tip_frame].transform_point(&self.tip_point);
        let mut columns = vec![(Vector3::zeros(), Vector3::zeros()); self.params.len()];
        let param_of = |k: usize| self.params.iter().position(|&p| p == k);
        for (k, joint) in self.joints.iter().enumerate() {
            if k >= self.tip_frame {
                break;
            }
            // The joint's axis in the base frame, through the origin of its frame.
            let frame = &f.frames[k + 1];
            let axis = frame.rotation * joint.axis.into_inner();
            let (linear, angular) = match joint.kind {
                JointKind::Prismatic => (axis, Vector3::zeros()),
                JointKind::Revolute | JointKind::Continuous => {
                    let origin = frame.translation.vector;
                    (axis.cross(&(tip.coords - origin)), axis)
                }
            };
            let (column, factor) = match joint.mimic {
                Some((leader, m, _)) => (param_of(leader), m),
                None => (param_of(k), 1.0),
            };
            if let Some(c) = column {
                columns[c].0 += linear * factor;
                columns[c].1 += angular * factor;
            }
        }
        columns
    }
}
