//! The little linear algebra the reduction needs, on plain arrays (the macros crate does not
//! depend on nalgebra): vectors, rotations, rigid poses and the eigenvectors of a symmetric
//! 3×3 matrix.

/// A point or vector, `[x, y, z]`.
pub type V3 = [f64; 3];

pub fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub fn scale(a: V3, k: f64) -> V3 {
    [a[0] * k, a[1] * k, a[2] * k]
}

pub fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub fn norm(a: V3) -> f64 {
    dot(a, a).sqrt()
}

/// `a` scaled to length 1, or `None` for a zero or non-finite vector.
pub fn unit(a: V3) -> Option<V3> {
    let n = norm(a);
    (n > 0.0 && n.is_finite()).then(|| scale(a, 1.0 / n))
}

/// The distance from `p` to the segment from `a` to `b`.
pub fn point_segment_distance(p: V3, a: V3, b: V3) -> f64 {
    let d = sub(b, a);
    let dd = dot(d, d);
    let t = if dd > 0.0 {
        (dot(sub(p, a), d) / dd).clamp(0.0, 1.0)
    } else {
        0.0
    };
    norm(sub(p, add(a, scale(d, t))))
}

/// A rotation matrix, row-major: `p' = R p`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rot(pub [[f64; 3]; 3]);

impl Rot {
    pub const IDENTITY: Rot = Rot([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);

    /// URDF's `rpy`: roll about x, then pitch about y, then yaw about z, all about the fixed
    /// axes (`R = Rz(yaw) Ry(pitch) Rx(roll)`).
    pub fn from_rpy([roll, pitch, yaw]: V3) -> Rot {
        let (sr, cr) = roll.sin_cos();
        let (sp, cp) = pitch.sin_cos();
        let (sy, cy) = yaw.sin_cos();
        Rot([
            [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr],
        ])
    }

    /// The rotation by `angle` about the unit vector `axis` (Rodrigues).
    #[cfg(test)]
    pub fn about(axis: V3, angle: f64) -> Rot {
        let [x, y, z] = axis;
        let (s, c) = angle.sin_cos();
        let t = 1.0 - c;
        Rot([
            [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
            [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
            [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
        ])
    }

    pub fn apply(&self, p: V3) -> V3 {
        let m = &self.0;
        [dot(m[0], p), dot(m[1], p), dot(m[2], p)]
    }

    pub fn mul(&self, other: &Rot) -> Rot {
        let (a, b) = (&self.0, &other.0);
        let mut out = [[0.0; 3]; 3];
        for (i, row) in out.iter_mut().enumerate() {
            for (j, cell) in row.iter_mut().enumerate() {
                *cell = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
            }
        }
        Rot(out)
    }

    pub fn transpose(&self) -> Rot {
        let m = &self.0;
        Rot([
            [m[0][0], m[1][0], m[2][0]],
            [m[0][1], m[1][1], m[2][1]],
            [m[0][2], m[1][2], m[2][2]],
        ])
    }

    /// The unit quaternion `[x, y, z, w]` of this rotation (Shepperd's method, `w >= 0`).
    pub fn quaternion(&self) -> [f64; 4] {
        let m = &self.0;
        let trace = m[0][0] + m[1][1] + m[2][2];
        let q = if trace > 0.0 {
            let s = (trace + 1.0).sqrt() * 2.0;
            [
                (m[2][1] - m[1][2]) / s,
                (m[0][2] - m[2][0]) / s,
                (m[1][0] - m[0][1]) / s,
                0.25 * s,
            ]
        } else if m[0][0] > m[1][1] && m[0][0] > m[2][2] {
            let s = (1.0 + m[0][0] - m[1][1] - m[2][2]).sqrt() * 2.0;
            [
                0.25 * s,
                (m[0][1] + m[1][0]) / s,
                (m[0][2] + m[2][0]) / s,
                (m[2][1] - m[1][2]) / s,
            ]
        } else if m[1][1] > m[2][2] {
            let s = (1.0 + m[1][1] - m[0][0] - m[2][2]).sqrt() * 2.0;
            [
                (m[0][1] + m[1][0]) / s,
                0.25 * s,
                (m[1][2] + m[2][1]) / s,
                (m[0][2] - m[2][0]) / s,
            ]
        } else {
            let s = (1.0 + m[2][2] - m[0][0] - m[1][1]).sqrt() * 2.0;
            [
                (m[0][2] + m[2][0]) / s,
                (m[1][2] + m[2][1]) / s,
                0.25 * s,
                (m[1][0] - m[0][1]) / s,
            ]
        };
        let n = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
        let sign = if q[3] < 0.0 { -1.0 } else { 1.0 };
        [
            sign * q[0] / n,
            sign * q[1] / n,
            sign * q[2] / n,
            sign * q[3] / n,
        ]
    }
}

/// A rigid transform: a point `p` of the child frame is `rot · p + xyz` in the parent frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    pub rot: Rot,
    pub xyz: V3,
}

impl Pose {
    pub const IDENTITY: Pose = Pose {
        rot: Rot::IDENTITY,
        xyz: [0.0; 3],
    };

    /// URDF's `<origin xyz rpy>`.
    #[cfg(test)]
    pub fn from_xyz_rpy(xyz: V3, rpy: V3) -> Pose {
        Pose {
            rot: Rot::from_rpy(rpy),
            xyz,
        }
    }

    /// A pure translation.
    #[cfg(test)]
    pub fn translation(xyz: V3) -> Pose {
        Pose {
            rot: Rot::IDENTITY,
            xyz,
        }
    }

    /// `self` then `child`: the pose of `child`'s frame in `self`'s parent frame.
    pub fn then(&self, child: &Pose) -> Pose {
        Pose {
            rot: self.rot.mul(&child.rot),
            xyz: add(self.rot.apply(child.xyz), self.xyz),
        }
    }

    pub fn apply(&self, p: V3) -> V3 {
        add(self.rot.apply(p), self.xyz)
    }

    /// The inverse transform.
    pub fn inverse(&self) -> Pose {
        let rot = self.rot.transpose();
        Pose {
            xyz: scale(rot.apply(self.xyz), -1.0),
            rot,
        }
    }
}

/// The eigenvalues of a symmetric 3×3 matrix and their unit eigenvectors, by cyclic Jacobi
/// rotations (converges quadratically; 50 sweeps is far more than a 3×3 needs).
pub fn symmetric_eigen(m: [[f64; 3]; 3]) -> ([f64; 3], [V3; 3]) {
    let mut a = m;
    let mut v = Rot::IDENTITY.0;
    for _ in 0..50 {
        let off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        if off <= 1e-30 * (a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2]) {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            if a[p][q] == 0.0 {
                continue;
            }
            let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let t = if theta == 0.0 { 1.0 } else { t };
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            // A ← Jᵀ A J for the rotation J in the (p, q) plane.
            for row in a.iter_mut() {
                let (akp, akq) = (row[p], row[q]);
                row[p] = c * akp - s * akq;
                row[q] = s * akp + c * akq;
            }
            let (rp, rq) = (a[p], a[q]);
            for k in 0..3 {
                a[p][k] = c * rp[k] - s * rq[k];
                a[q][k] = s * rp[k] + c * rq[k];
            }
            for row in v.iter_mut() {
                let (vp, vq) = (row[p], row[q]);
                row[p] = c * vp - s * vq;
                row[q] = s * vp + c * vq;
            }
        }
    }
    let values = [a[0][0], a[1][1], a[2][2]];
    let vectors = [
        [v[0][0], v[1][0], v[2][0]],
        [v[0][1], v[1][1], v[2][1]],
        [v[0][2], v[1][2], v[2][2]],
    ];
    (values, vectors)
}

/// Two unit vectors that, with `d` (unit), make an orthonormal basis.
pub fn perpendicular_basis(d: V3) -> (V3, V3) {
    // The axis least aligned with `d`, made perpendicular to it.
    let k = if d[0].abs() <= d[1].abs() && d[0].abs() <= d[2].abs() {
        [1.0, 0.0, 0.0]
    } else if d[1].abs() <= d[2].abs() {
        [0.0, 1.0, 0.0]
    } else {
        [0.0, 0.0, 1.0]
    };
    let u = unit(cross(d, k)).unwrap_or([1.0, 0.0, 0.0]);
    let v = cross(d, u);
    (u, v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: V3, b: V3) -> bool {
        norm(sub(a, b)) < 1e-12
    }

    #[test]
    fn rpy_is_fixed_axis_roll_then_pitch_then_yaw() {
        let rpy = [0.3, -0.7, 1.9];
        let composed = Rot::about([0.0, 0.0, 1.0], rpy[2])
            .mul(&Rot::about([0.0, 1.0, 0.0], rpy[1]))
            .mul(&Rot::about([1.0, 0.0, 0.0], rpy[0]));
        let r = Rot::from_rpy(rpy);
        for i in 0..3 {
            assert!(close(r.0[i], composed.0[i]), "{r:?} vs {composed:?}");
        }
        // A quarter turn of roll takes y to z.
        assert!(close(
            Rot::from_rpy([std::f64::consts::FRAC_PI_2, 0.0, 0.0]).apply([0.0, 1.0, 0.0]),
            [0.0, 0.0, 1.0]
        ));
    }

    #[test]
    fn quaternions_round_trip_through_the_axis_angle() {
        for (axis, angle) in [
            ([0.0, 0.0, 1.0], 0.5),
            ([1.0, 0.0, 0.0], 3.0),
            ([0.0, 1.0, 0.0], -2.9),
            ([0.6, 0.0, 0.8], 3.1),
        ] {
            let q = Rot::about(axis, angle).quaternion();
            let half = angle / 2.0;
            let sign = if half.cos() < 0.0 { -1.0 } else { 1.0 };
            let expected = [
                sign * axis[0] * half.sin(),
                sign * axis[1] * half.sin(),
                sign * axis[2] * half.sin(),
                sign * half.cos(),
            ];
            for i in 0..4 {
                assert!((q[i] - expected[i]).abs() < 1e-9, "{q:?} vs {expected:?}");
            }
        }
    }

    #[test]
    fn poses_compose_parent_first() {
        let a = Pose::from_xyz_rpy([1.0, 0.0, 0.0], [0.0, 0.0, std::f64::consts::FRAC_PI_2]);
        let b = Pose::translation([1.0, 0.0, 0.0]);
        // b's origin is 1 along a's x, which a turned to y.
        assert!(close(a.then(&b).apply([0.0; 3]), [1.0, 1.0, 0.0]));
    }

    #[test]
    fn jacobi_finds_the_principal_axes() {
        let r = Rot::from_rpy([0.4, 0.2, -1.1]);
        let d = [5.0, 2.0, 0.5];
        // M = R diag(d) Rᵀ
        let mut m = [[0.0; 3]; 3];
        for (i, row) in m.iter_mut().enumerate() {
            for (j, cell) in row.iter_mut().enumerate() {
                *cell = (0..3).map(|k| r.0[i][k] * d[k] * r.0[j][k]).sum();
            }
        }
        let (values, vectors) = symmetric_eigen(m);
        for (k, dk) in d.iter().enumerate() {
            let i = values
                .iter()
                .position(|v| (v - dk).abs() < 1e-9)
                .expect("eigenvalue");
            let column = [r.0[0][k], r.0[1][k], r.0[2][k]];
            assert!((dot(vectors[i], column).abs() - 1.0).abs() < 1e-9);
        }
    }
}
