//! Bounding capsules: the collision geometry of a link reduced to capsules (a segment and a
//! radius: every point within the radius of the segment) that provably contain it.
//!
//! A capsule is convex, so it contains a convex hull iff it contains the points that span it:
//! a mesh's vertices, a box's corners, a cylinder's two rims. [`bounding`] fits a capsule to
//! balls (points with a radius), along each of their three principal axes (the eigenvectors of
//! the centres' covariance), and keeps the one of least volume: for an axis, the line is put
//! through the centre of the smallest circle holding the centres' projections, and the radius
//! chosen (over the range from the least that holds every ball across, to the one where the
//! segment shrinks to a point) that minimises the volume; the segment's ends follow from the
//! radius. Every capsule returned is then checked against every ball and padded by the
//! largest shortfall rounding left, plus [`PAD`].

use super::math::{V3, add, dot, norm, perpendicular_basis, point_segment_distance, scale, sub};

/// What every fitted capsule's radius is padded by, in metres, beyond the largest rounding
/// error measured: a micrometre (STL vertices are `f32`, about 7 significant digits).
pub const PAD: f64 = 1e-6;

/// A capsule: the points within `radius` of the segment from `a` to `b` (a ball when
/// `a == b`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Capsule {
    pub a: V3,
    pub b: V3,
    pub radius: f64,
}

impl Capsule {
    /// A ball.
    pub fn ball(center: V3, radius: f64) -> Capsule {
        Capsule {
            a: center,
            b: center,
            radius,
        }
    }

    /// Its volume.
    pub fn volume(&self) -> f64 {
        let r = self.radius;
        std::f64::consts::PI * r * r * (norm(sub(self.b, self.a)) + 4.0 / 3.0 * r)
    }

    /// How far the ball (`center`, `radius`) sticks out of it (`<= 0` inside).
    pub fn excess(&self, center: V3, radius: f64) -> f64 {
        point_segment_distance(center, self.a, self.b) + radius - self.radius
    }
}

/// The least-volume capsule along one of the three principal axes of the balls' centres that
/// holds every ball (`(centre, radius)`), padded ([module](self)). `None` for no balls or a
/// non-finite number.
pub fn bounding(balls: &[(V3, f64)]) -> Option<Capsule> {
    if balls.is_empty()
        || balls
            .iter()
            .any(|(c, r)| !c.iter().all(|x| x.is_finite()) || !r.is_finite() || *r < 0.0)
    {
        return None;
    }
    let n = balls.len() as f64;
    let mean = scale(balls.iter().fold([0.0; 3], |s, (c, _)| add(s, *c)), 1.0 / n);
    let mut cov = [[0.0; 3]; 3];
    for (c, _) in balls {
        let d = sub(*c, mean);
        for i in 0..3 {
            for j in 0..3 {
                cov[i][j] += d[i] * d[j];
            }
        }
    }
    let (_, axes) = super::math::symmetric_eigen(cov);
    let best = axes
        .iter()
        .filter_map(|&axis| super::math::unit(axis))
        .map(|axis| along(balls, axis))
        .min_by(|a, b| a.volume().total_cmp(&b.volume()))?;
    Some(padded(best, balls))
}

/// `capsule` grown by the largest amount any ball sticks out of it, then by [`PAD`] and a
/// relative `1e-9` of the largest coordinate (rounding in what was computed from them).
fn padded(mut capsule: Capsule, balls: &[(V3, f64)]) -> Capsule {
    let worst = balls
        .iter()
        .map(|&(c, r)| capsule.excess(c, r))
        .fold(0.0_f64, f64::max);
    let extent = balls
        .iter()
        .map(|(c, r)| c.iter().fold(*r, |m, x| m.max(x.abs())))
        .fold(0.0_f64, f64::max);
    capsule.radius += worst + PAD + 1e-9 * extent;
    capsule
}

/// The least-volume capsule whose segment lies along `dir` (unit) and holds every ball (not
/// yet padded).
pub fn along(balls: &[(V3, f64)], dir: V3) -> Capsule {
    let (u, v) = perpendicular_basis(dir);
    let flat: Vec<[f64; 2]> = balls
        .iter()
        .map(|(c, _)| [dot(*c, u), dot(*c, v)])
        .collect();
    let (center, _) = smallest_circle(&flat);
    // Each ball's place along the axis and its centre's distance from the axis line.
    let placed: Vec<(f64, f64, f64)> = balls
        .iter()
        .zip(&flat)
        .map(|((c, r), p)| {
            let rho = ((p[0] - center[0]).powi(2) + (p[1] - center[1]).powi(2)).sqrt();
            (dot(*c, dir), rho, *r)
        })
        .collect();
    let least = placed
        .iter()
        .map(|&(_, rho, r)| rho + r)
        .fold(0.0_f64, f64::max);
    // The segment's ends for a radius `big` (at least `least`): each ball must be within reach
    // of them, `h = sqrt((big − r)² − ρ²)` along the axis.
    let ends = |big: f64| -> (f64, f64) {
        let mut s0 = f64::INFINITY;
        let mut s1 = f64::NEG_INFINITY;
        for &(s, rho, r) in &placed {
            let h = ((big - r).powi(2) - rho * rho).max(0.0).sqrt();
            s0 = s0.min(s + h);
            s1 = s1.max(s - h);
        }
        if s0 > s1 {
            // Every ball is within reach of one point: a ball (any point of [s1, s0]).
            let mid = 0.5 * (s0 + s1);
            (mid, mid)
        } else {
            (s0, s1)
        }
    };
    let volume = |big: f64| {
        let (s0, s1) = ends(big);
        std::f64::consts::PI * big * big * ((s1 - s0) + 4.0 / 3.0 * big)
    };
    // The radius at which the segment shrinks to a point: the smallest ball holding them all,
    // at most half the span along the axis plus the largest reach across.
    let (lo_s, hi_s) = placed.iter().fold(
        (f64::INFINITY, f64::NEG_INFINITY),
        |(lo, hi), &(s, _, r)| (lo.min(s - r), hi.max(s + r)),
    );
    let sphere = least + 0.5 * (hi_s - lo_s).max(0.0);
    // The volume is not convex in the radius in general: scan, then refine around the best.
    let steps = 64;
    let mut best = (least, volume(least));
    for k in 1..=steps {
        let big = least + (sphere - least) * k as f64 / steps as f64;
        let vol = volume(big);
        if vol < best.1 {
            best = (big, vol);
        }
    }
    let width = (sphere - least) / steps as f64;
    let (lo, hi) = ((best.0 - width).max(least), (best.0 + width).min(sphere));
    let (mut lo, mut hi) = (lo, hi);
    for _ in 0..60 {
        let m1 = lo + (hi - lo) / 3.0;
        let m2 = hi - (hi - lo) / 3.0;
        if volume(m1) <= volume(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let big = if volume(0.5 * (lo + hi)) < best.1 {
        0.5 * (lo + hi)
    } else {
        best.0
    };
    let (s0, s1) = ends(big);
    let origin = add(scale(u, center[0]), scale(v, center[1]));
    Capsule {
        a: add(origin, scale(dir, s0)),
        b: add(origin, scale(dir, s1)),
        radius: big,
    }
}

/// The smallest circle holding every point (Welzl's algorithm, iteratively, over a fixed
/// shuffle so the result does not depend on the input's order): its centre and radius.
pub fn smallest_circle(points: &[[f64; 2]]) -> ([f64; 2], f64) {
    if points.is_empty() {
        return ([0.0; 2], 0.0);
    }
    let mut p: Vec<[f64; 2]> = points.to_vec();
    // A deterministic shuffle (an LCG): the expected linear time needs a random order.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    for i in (1..p.len()).rev() {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let j = (state >> 33) as usize % (i + 1);
        p.swap(i, j);
    }
    let dist = |a: [f64; 2], b: [f64; 2]| ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt();
    let inside = |c: ([f64; 2], f64), q: [f64; 2]| dist(c.0, q) <= c.1 * (1.0 + 1e-12) + 1e-15;
    let mut c = (p[0], 0.0);
    for i in 1..p.len() {
        if inside(c, p[i]) {
            continue;
        }
        c = (p[i], 0.0);
        for j in 0..i {
            if inside(c, p[j]) {
                continue;
            }
            let mid = [(p[i][0] + p[j][0]) / 2.0, (p[i][1] + p[j][1]) / 2.0];
            c = (mid, dist(p[i], p[j]) / 2.0);
            for k in 0..j {
                if inside(c, p[k]) {
                    continue;
                }
                c = circumcircle(p[i], p[j], p[k]);
            }
        }
    }
    // Rounding: grow it to what it must hold.
    let r = p.iter().fold(c.1, |r, &q| r.max(dist(c.0, q)));
    (c.0, r)
}

/// The circle through three points; for (nearly) collinear ones, the circle on the farthest
/// two as a diameter.
fn circumcircle(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> ([f64; 2], f64) {
    let (bx, by) = (b[0] - a[0], b[1] - a[1]);
    let (cx, cy) = (c[0] - a[0], c[1] - a[1]);
    let d = 2.0 * (bx * cy - by * cx);
    let dist = |p: [f64; 2], q: [f64; 2]| ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)).sqrt();
    let scale_ = (bx * bx + by * by).max(cx * cx + cy * cy);
    if d.abs() <= 1e-12 * scale_ {
        let pairs = [(a, b), (a, c), (b, c)];
        let (p, q) = pairs
            .into_iter()
            .max_by(|x, y| dist(x.0, x.1).total_cmp(&dist(y.0, y.1)))
            .unwrap_or((a, b));
        return ([(p[0] + q[0]) / 2.0, (p[1] + q[1]) / 2.0], dist(p, q) / 2.0);
    }
    let b2 = bx * bx + by * by;
    let c2 = cx * cx + cy * cy;
    let ux = (cy * b2 - by * c2) / d;
    let uy = (bx * c2 - cx * b2) / d;
    let center = [a[0] + ux, a[1] + uy];
    (center, (ux * ux + uy * uy).sqrt())
}

/// The eight corners of a box of `size`, centred on the origin.
pub fn box_corners(size: V3) -> [V3; 8] {
    let h = scale(size, 0.5);
    let mut out = [[0.0; 3]; 8];
    for (k, corner) in out.iter_mut().enumerate() {
        *corner = [
            if k & 1 == 0 { -h[0] } else { h[0] },
            if k & 2 == 0 { -h[1] } else { h[1] },
            if k & 4 == 0 { -h[2] } else { h[2] },
        ];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic cloud of points.
    fn cloud(n: usize, seed: u64, stretch: V3) -> Vec<V3> {
        let mut s = seed;
        let mut next = || {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        (0..n)
            .map(|_| {
                [
                    next() * stretch[0],
                    next() * stretch[1],
                    next() * stretch[2],
                ]
            })
            .collect()
    }

    #[test]
    fn every_point_is_inside_the_capsule() {
        for (seed, stretch) in [
            (1, [0.3, 0.05, 0.04]),
            (2, [0.1, 0.1, 0.1]),
            (3, [0.02, 0.5, 0.02]),
            (4, [1.0, 1.0, 0.001]),
        ] {
            let pts = cloud(500, seed, stretch);
            let balls: Vec<(V3, f64)> = pts.iter().map(|p| (*p, 0.0)).collect();
            let c = bounding(&balls).unwrap();
            for p in &pts {
                assert!(c.excess(*p, 0.0) <= -PAD * 0.5, "{p:?} outside {c:?}");
            }
        }
    }

    #[test]
    fn a_long_thin_cloud_gets_a_long_thin_capsule() {
        let pts = cloud(400, 7, [0.5, 0.03, 0.03]);
        let balls: Vec<(V3, f64)> = pts.iter().map(|p| (*p, 0.0)).collect();
        let c = bounding(&balls).unwrap();
        let length = norm(sub(c.b, c.a));
        assert!(c.radius < 0.06, "{c:?}");
        assert!(length > 0.8, "{c:?}");
        // Along x.
        assert!((sub(c.b, c.a)[0].abs() / length) > 0.99);
    }

    #[test]
    fn a_cylinder_s_rims_give_the_cylinder_s_capsule() {
        // A cylinder of radius 0.05 and length 0.4 along z: its rims, sampled densely.
        let mut balls = Vec::new();
        for k in 0..360 {
            let t = k as f64 * std::f64::consts::TAU / 360.0;
            for z in [-0.2, 0.2] {
                balls.push(([0.05 * t.cos(), 0.05 * t.sin(), z], 0.0));
            }
        }
        let c = bounding(&balls).unwrap();
        // Its axis, about its radius (a hair more buys a shorter segment, of less volume).
        assert!((c.radius - 0.05).abs() < 1e-3, "{c:?}");
        assert!(c.a[2].abs() <= 0.2 + 1e-9 && c.b[2].abs() <= 0.2 + 1e-9);
        assert!(c.a[0].abs() < 1e-9 && c.a[1].abs() < 1e-9, "{c:?}");
        for (p, _) in &balls {
            assert!(c.excess(*p, 0.0) <= 0.0);
        }
    }

    #[test]
    fn balls_with_radii_are_held_whole() {
        let balls = vec![([0.0, 0.0, 0.0], 0.1), ([0.3, 0.0, 0.0], 0.02)];
        let c = bounding(&balls).unwrap();
        for (p, r) in &balls {
            assert!(c.excess(*p, *r) <= 0.0);
        }
    }

    #[test]
    fn one_point_is_a_tiny_ball_and_nothing_is_nothing() {
        let c = bounding(&[([1.0, 2.0, 3.0], 0.0)]).unwrap();
        assert_eq!(c.a, c.b);
        assert!(c.radius > 0.0 && c.radius < 1e-5);
        assert!(bounding(&[]).is_none());
        assert!(bounding(&[([f64::NAN, 0.0, 0.0], 0.0)]).is_none());
    }

    #[test]
    fn the_smallest_circle_is_smallest() {
        let pts = [[0.0, 0.0], [2.0, 0.0], [1.0, 0.1], [1.0, -0.1]];
        let (c, r) = smallest_circle(&pts);
        assert!((r - 1.0).abs() < 1e-12 && (c[0] - 1.0).abs() < 1e-12);
        let tri = [[0.0, 0.0], [1.0, 0.0], [0.5, 3f64.sqrt() / 2.0]];
        let (_, r) = smallest_circle(&tri);
        assert!((r - 1.0 / 3f64.sqrt()).abs() < 1e-12);
    }
}
