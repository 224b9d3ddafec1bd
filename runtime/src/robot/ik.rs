//! Inverse kinematics: the joint positions that put the tool point at a Cartesian target (and,
//! when asked, the tip in an orientation), within the joints' enforced ranges, closest to where
//! the arm is.
//!
//! Damped least squares (Levenberg–Marquardt on the tool point's error): each step solves
//! `Δq = Jᵀ (J Jᵀ + λ² I)⁻¹ e` for the error `e`, with the joints that sit at an end of their
//! range and are pushed beyond it taken out of `J`; the step is clamped to the ranges, kept only
//! if it lowers the error (else `λ` grows), and at most 0.2 rad (or 2 cm) per joint. It starts
//! from the current configuration, then, if that does not converge, from home and from the
//! middle of the ranges and points between. A target none of them reaches is answered with
//! the closest the best attempt came.

use nalgebra::{Matrix3, Matrix6, Point3, UnitQuaternion, Vector3, Vector6};

use super::def::JointKind;
use super::kinematics::Frames;
use super::model::Robot;
use super::sweep::wrap;

/// How close the tool point must come, in metres.
pub const POSITION_TOLERANCE: f64 = 1e-4;
/// How close the tip's orientation must come, in radians.
pub const ANGLE_TOLERANCE: f64 = 1e-3;
/// How many metres of position error one radian of orientation error weighs.
const ANGLE_WEIGHT: f64 = 0.3;

/// What the inverse kinematics found.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq)]
pub enum Solved {
    /// Joint positions that reach the target.
    Reached(Vec<f64>),
    /// The target is out of reach (within the ranges): the closest found, where it puts the
    /// tool point, and how far that is from the target (metres) and, with an orientation
    /// asked, how far the tip's orientation is (radians).
    Unreachable {
        closest: Vec<f64>,
        reached: [f64; 3],
        distance: f64,
        angle: Option<f64>,
    },
}

impl Robot {
    /// Solves for the tool point at `position` (base frame, metres) and, when given, the tip at
    /// `orientation` (`[x, y, z, w]`), starting from `from` ([module](self)).
    pub fn solve(&self, position: [f64; 3], orientation: Option<[f64; 4]>, from: &[f64]) -> Solved {
        let n = self.params.len();
        let target = Point3::from(position);
        let rotation = orientation.map(|q| {
            UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(q[3], q[0], q[1], q[2]))
        });
        let ranges: Vec<(f64, f64, bool)> = self
            .params
            .iter()
            .map(|&k| {
                let l = &self.joints[k].limits;
                (l.lower, l.upper, l.wraps)
            })
            .collect();
        let clamp = |q: &mut [f64]| {
            for (x, &(lo, hi, wraps)) in q.iter_mut().zip(&ranges) {
                *x = if wraps { wrap(*x) } else { x.clamp(lo, hi) };
            }
        };
        let mut seeds: Vec<Vec<f64>> = Vec::new();
        if from.len() == n && from.iter().all(|x| x.is_finite()) {
            seeds.push(from.to_vec());
        }
        seeds.push(self.home.clone());
        for f in [0.5, 0.25, 0.75, 0.4, 0.6] {
            seeds.push(
                ranges
                    .iter()
                    .enumerate()
                    .map(|(i, &(lo, hi, wraps))| {
                        if wraps {
                            (f - 0.5) * std::f64::consts::TAU
                        } else {
                            // Vary the fraction by joint so the seeds are not all on a line.
                            let g = if i % 2 == 0 { f } else { 1.0 - f };
                            lo + (hi - lo) * g
                        }
                    })
                    .collect(),
            );
        }
        let mut frames = Frames::new(self);
        let mut best: Option<(f64, Vec<f64>)> = None;
        for seed in seeds {
            let mut q = seed;
            clamp(&mut q);
            let (error, q) = self.descend(&mut frames, q, &target, rotation.as_ref(), &ranges);
            if self.reached(&mut frames, &q, &target, rotation.as_ref()) {
                return Solved::Reached(q);
            }
            if best.as_ref().is_none_or(|(e, _)| error < *e) {
                best = Some((error, q));
            }
        }
        let closest = best.map(|(_, q)| q).unwrap_or_else(|| self.home.clone());
        self.forward_into(&closest, &mut frames);
        let p = frames.frames[self.tip_frame].transform_point(&self.tip_point);
        let angle = rotation.map(|r| (r * self.tip_rotation(&frames).inverse()).angle());
        Solved::Unreachable {
            reached: [p.x, p.y, p.z],
            distance: (p - target).norm(),
            angle,
            closest,
        }
    }

    /// The tip link's orientation at `frames`.
    fn tip_rotation(&self, frames: &Frames) -> UnitQuaternion<f64> {
        let placement = self
            .links
            .iter()
            .find(|l| l.name == self.tip_link)
            .map_or(nalgebra::Isometry3::identity(), |l| l.placement);
        (frames.frames[self.tip_frame] * placement).rotation
    }

    /// The error at `q`: the position's, and the orientation's (weighted), as one vector.
    fn error(
        &self,
        frames: &mut Frames,
        q: &[f64],
        target: &Point3<f64>,
        rotation: Option<&UnitQuaternion<f64>>,
    ) -> Vector6<f64> {
        self.forward_into(q, frames);
        let p = frames.frames[self.tip_frame].transform_point(&self.tip_point);
        let e = target - p;
        let r = match rotation {
            Some(r) => (r * self.tip_rotation(frames).inverse()).scaled_axis() * ANGLE_WEIGHT,
            None => Vector3::zeros(),
        };
        Vector6::new(e.x, e.y, e.z, r.x, r.y, r.z)
    }

    fn reached(
        &self,
        frames: &mut Frames,
        q: &[f64],
        target: &Point3<f64>,
        rotation: Option<&UnitQuaternion<f64>>,
    ) -> bool {
        let e = self.error(frames, q, target, rotation);
        e.fixed_rows::<3>(0).norm() <= POSITION_TOLERANCE
            && e.fixed_rows::<3>(3).norm() / ANGLE_WEIGHT <= ANGLE_TOLERANCE
    }

    /// Damped least squares from `q`: the error's norm at the end and where it ended.
    fn descend(
        &self,
        frames: &mut Frames,
        mut q: Vec<f64>,
        target: &Point3<f64>,
        rotation: Option<&UnitQuaternion<f64>>,
        ranges: &[(f64, f64, bool)],
    ) -> (f64, Vec<f64>) {
        let n = q.len();
        let mut e = self.error(frames, &q, target, rotation);
        let mut lambda = 0.01;
        let mut trial = vec![0.0; n];
        for _ in 0..300 {
            if e.fixed_rows::<3>(0).norm() <= POSITION_TOLERANCE * 0.5
                && e.fixed_rows::<3>(3).norm() / ANGLE_WEIGHT <= ANGLE_TOLERANCE * 0.5
            {
                break;
            }
            self.forward_into(&q, frames);
            let columns = self.jacobian(frames);
            // Joints at an end of their range, pushed beyond it by the plain gradient, are
            // left out of this step.
            let column = |i: usize| -> Vector6<f64> {
                let (lin, ang) = columns[i];
                let w = if rotation.is_some() {
                    ANGLE_WEIGHT
                } else {
                    0.0
                };
                Vector6::new(lin.x, lin.y, lin.z, ang.x * w, ang.y * w, ang.z * w)
            };
            let free: Vec<bool> = (0..n)
                .map(|i| {
                    let (lo, hi, wraps) = ranges[i];
                    let g = column(i).dot(&e);
                    wraps || !((q[i] <= lo && g < 0.0) || (q[i] >= hi && g > 0.0))
                })
                .collect();
            let step = if rotation.is_some() {
                let mut jjt = Matrix6::<f64>::zeros();
                for i in (0..n).filter(|&i| free[i]) {
                    let c = column(i);
                    jjt += c * c.transpose();
                }
                let m = jjt + Matrix6::identity() * (lambda * lambda);
                let Some(y) = m.cholesky().map(|c| c.solve(&e)) else {
                    break;
                };
                (0..n)
                    .map(|i| if free[i] { column(i).dot(&y) } else { 0.0 })
                    .collect::<Vec<f64>>()
            } else {
                let e3 = Vector3::new(e.x, e.y, e.z);
                let mut jjt = Matrix3::<f64>::zeros();
                for i in (0..n).filter(|&i| free[i]) {
                    let c = columns[i].0;
                    jjt += c * c.transpose();
                }
                let m = jjt + Matrix3::identity() * (lambda * lambda);
                let Some(y) = m.cholesky().map(|c| c.solve(&e3)) else {
                    break;
                };
                (0..n)
                    .map(|i| if free[i] { columns[i].0.dot(&y) } else { 0.0 })
                    .collect::<Vec<f64>>()
            };
            // At most 0.2 rad (2 cm) per joint.
            let biggest = (0..n)
                .map(|i| {
                    let cap = if self.joints[self.params[i]].kind == JointKind::Prismatic {
                        0.02
                    } else {
                        0.2
                    };
                    step[i].abs() / cap
                })
                .fold(0.0, f64::max);
            let k = if biggest > 1.0 { 1.0 / biggest } else { 1.0 };
            for i in 0..n {
                trial[i] = q[i] + step[i] * k;
            }
            for (x, &(lo, hi, wraps)) in trial.iter_mut().zip(ranges) {
                *x = if wraps { wrap(*x) } else { x.clamp(lo, hi) };
            }
            let next = self.error(frames, &trial, target, rotation);
            if next.norm() < e.norm() {
                q.copy_from_slice(&trial);
                e = next;
                lambda = (lambda * 0.5).max(1e-5);
            } else {
                lambda *= 4.0;
                if lambda > 10.0 {
                    break;
                }
            }
        }
        (e.norm(), q)
    }
}
