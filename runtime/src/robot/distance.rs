//! The exact distance between two segments (Ericson, *Real-Time Collision Detection*, 5.1.9:
//! the closest points of the two lines, clamped to the segments in the right order, with the
//! degenerate cases of a point and of parallel segments), so the distance between two capsules
//! is that minus their radii.

use nalgebra::Point3;

/// The distance between the segments `p1–q1` and `p2–q2`.
pub(crate) fn segment_segment(
    p1: &Point3<f64>,
    q1: &Point3<f64>,
    p2: &Point3<f64>,
    q2: &Point3<f64>,
) -> f64 {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let a = d1.norm_squared();
    let e = d2.norm_squared();
    let f = d2.dot(&r);
    // Below this a segment is a point (squared lengths: metres², so a nanometre).
    const EPS: f64 = 1e-18;
    let (s, t) = if a <= EPS && e <= EPS {
        (0.0, 0.0)
    } else if a <= EPS {
        (0.0, (f / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(&r);
        if e <= EPS {
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(&d2);
            let denom = a * e - b * b;
            // Parallel segments: any s will do; 0, then t and s clamped in turn.
            let mut s = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t = (b * s + f) / e;
            if t < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            }
            (s, t)
        }
    };
    let c1 = p1 + d1 * s;
    let c2 = p2 + d2 * t;
    (c1 - c2).norm()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64, z: f64) -> Point3<f64> {
        Point3::new(x, y, z)
    }

    /// The distance by dense sampling of both segments and a local refinement (an oracle).
    fn sampled(p1: Point3<f64>, q1: Point3<f64>, p2: Point3<f64>, q2: Point3<f64>) -> f64 {
        let n = 400;
        let mut best = f64::INFINITY;
        for i in 0..=n {
            let a = p1 + (q1 - p1) * (f64::from(i) / f64::from(n));
            // The closest point of the second segment to `a`, exactly.
            let d = q2 - p2;
            let t = if d.norm_squared() > 0.0 {
                ((a - p2).dot(&d) / d.norm_squared()).clamp(0.0, 1.0)
            } else {
                0.0
            };
            best = best.min((a - (p2 + d * t)).norm());
        }
        best
    }

    #[test]
    fn agrees_with_sampling_and_covers_the_degenerate_cases() {
        let cases = [
            // Crossing at a distance.
            (
                p(0., 0., 0.),
                p(1., 0., 0.),
                p(0.5, -1., 1.),
                p(0.5, 1., 1.),
                1.0,
            ),
            // Parallel, overlapping.
            (
                p(0., 0., 0.),
                p(1., 0., 0.),
                p(0.5, 0.3, 0.),
                p(2., 0.3, 0.),
                0.3,
            ),
            // Parallel, apart end to end.
            (
                p(0., 0., 0.),
                p(1., 0., 0.),
                p(2., 0., 0.),
                p(3., 0., 0.),
                1.0,
            ),
            // A point and a segment.
            (
                p(0., 0., 0.),
                p(0., 0., 0.),
                p(-1., 1., 0.),
                p(1., 1., 0.),
                1.0,
            ),
            // Two points.
            (
                p(0., 0., 0.),
                p(0., 0., 0.),
                p(3., 4., 0.),
                p(3., 4., 0.),
                5.0,
            ),
            // Touching.
            (
                p(0., 0., 0.),
                p(1., 1., 1.),
                p(1., 1., 1.),
                p(2., 0., 0.),
                0.0,
            ),
        ];
        for (p1, q1, p2, q2, expected) in cases {
            let d = segment_segment(&p1, &q1, &p2, &q2);
            assert!((d - expected).abs() < 1e-12, "{d} vs {expected}");
            assert!((d - segment_segment(&q2, &p2, &p1, &q1)).abs() < 1e-12);
        }
        // Random segments against the oracle.
        let mut s: u64 = 17;
        let mut next = || {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        for _ in 0..300 {
            let mut pt = || p(next(), next(), next());
            let (p1, q1, p2, q2) = (pt(), pt(), pt(), pt());
            let d = segment_segment(&p1, &q1, &p2, &q2);
            let o = sampled(p1, q1, p2, q2);
            // Sampling one segment every 1/400 of its length overestimates by at most that.
            assert!(d <= o + 1e-12, "{d} > {o}");
            assert!(o - d <= (q1 - p1).norm() / 400.0 + 1e-12, "{d} vs {o}");
        }
    }
}
