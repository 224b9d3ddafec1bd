//! Collision shapes to capsules, and the capsules of a link that hangs on a joint outside the
//! chain swept over that joint's travel. Each result provably contains its input (module docs
//! of `capsule.rs`; the sweeps below say why).

use super::capsule::{self, Capsule};
use super::math::{Pose, V3, add, dot, norm, point_segment_distance, scale, sub};

/// The capsule holding a cylinder of `radius` and `length` along z, centred on the origin: its
/// axis as the segment, its radius as the capsule's (every point of the cylinder is within its
/// radius of the axis). Returns `(half-length of the segment, radius)`.
pub fn cylinder(radius: f64, length: f64) -> (f64, f64) {
    (length / 2.0, radius)
}

/// A capsule along z of the given segment half-length and radius, placed by `pose`.
pub fn along_z(pose: &Pose, half: f64, radius: f64) -> Capsule {
    Capsule {
        a: pose.apply([0.0, 0.0, -half]),
        b: pose.apply([0.0, 0.0, half]),
        radius,
    }
}

/// The capsule of a box of `size` placed by `pose`: the bounding capsule of its corners.
pub fn cuboid(pose: &Pose, size: V3) -> Option<Capsule> {
    let corners: Vec<(V3, f64)> = capsule::box_corners(size)
        .iter()
        .map(|c| (pose.apply(*c), 0.0))
        .collect();
    capsule::bounding(&corners)
}

/// The capsule of mesh `vertices` placed by `pose`.
pub fn mesh(pose: &Pose, vertices: &[V3]) -> Option<Capsule> {
    let balls: Vec<(V3, f64)> = vertices.iter().map(|v| (pose.apply(*v), 0.0)).collect();
    capsule::bounding(&balls)
}

/// `c` moved by `pose`.
pub fn placed(pose: &Pose, c: &Capsule) -> Capsule {
    Capsule {
        a: pose.apply(c.a),
        b: pose.apply(c.b),
        radius: c.radius,
    }
}

/// What a capsule fixed to a prismatic joint's child sweeps over the joint's travel
/// `lower..=upper` along `axis` (unit, in the child's frame at zero): the segment's ends
/// translated to both ends of the travel span a parallelogram; the capsule holding its four
/// corners (each a ball of the capsule's radius) holds the parallelogram (both are convex) and
/// so every position of the capsule.
pub fn swept_prismatic(c: &Capsule, axis: V3, lower: f64, upper: f64) -> Option<Capsule> {
    let balls = [
        (add(c.a, scale(axis, lower)), c.radius),
        (add(c.a, scale(axis, upper)), c.radius),
        (add(c.b, scale(axis, lower)), c.radius),
        (add(c.b, scale(axis, upper)), c.radius),
    ];
    capsule::bounding(&balls)
}

/// What a capsule fixed to a revolute joint's child sweeps over any turn about `axis` (unit,
/// through the child's origin): a rotation about an axis keeps every point's distance to a
/// centre on that axis, so the ball about the centre `c` on the axis (midway between the
/// ends' projections) of radius `max(|a − c|, |b − c|) + radius` holds the capsule (convex:
/// its farthest point from `c` is an end plus the radius) at every angle.
pub fn swept_revolute(c: &Capsule, axis: V3) -> Capsule {
    let t = 0.5 * (dot(c.a, axis) + dot(c.b, axis));
    let center = scale(axis, t);
    let reach = norm(sub(c.a, center)).max(norm(sub(c.b, center))) + c.radius;
    Capsule::ball(center, reach)
}

/// `capsules` without those another one holds whole (a capsule holds another iff it holds
/// both of its end balls). Rounding may leave a shape that is meant to lie inside another (a
/// sphere capping a cylinder) out by a hair: a capsule within a nanometre of holding another is
/// grown to hold it exactly, and the other dropped. Larger capsules are kept first.
pub fn without_contained(capsules: Vec<Capsule>) -> Vec<Capsule> {
    const SLACK: f64 = 1e-9;
    let mut order: Vec<Capsule> = capsules;
    order.sort_by(|a, b| b.volume().total_cmp(&a.volume()));
    let mut kept: Vec<Capsule> = Vec::new();
    for c in order {
        let needed = |outer: &Capsule| {
            [c.a, c.b]
                .iter()
                .map(|p| point_segment_distance(*p, outer.a, outer.b) + c.radius)
                .fold(0.0_f64, f64::max)
        };
        match kept.iter_mut().find(|k| needed(k) <= k.radius + SLACK) {
            Some(k) => k.radius = k.radius.max(needed(k)),
            None => kept.push(c),
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::robot::math::Rot;

    #[test]
    fn a_cylinder_s_capsule_holds_both_rims() {
        let (h, r) = cylinder(0.05, 0.4);
        assert_eq!((h, r), (0.2, 0.05));
        for (radius, length) in [(0.05, 0.4), (0.1, 0.01), (0.06, 0.1)] {
            let (h, big) = cylinder(radius, length);
            let rim = [radius, 0.0, length / 2.0];
            assert!(point_segment_distance(rim, [0.0, 0.0, -h], [0.0, 0.0, h]) <= big + 1e-12);
        }
    }

    #[test]
    fn sweeps_hold_every_position() {
        let c = Capsule {
            a: [0.01, 0.02, 0.0],
            b: [0.0, 0.03, 0.05],
            radius: 0.01,
        };
        let axis = [0.0, 1.0, 0.0];
        let swept = swept_prismatic(&c, axis, 0.0, 0.04).unwrap();
        for k in 0..=40 {
            let s = 0.04 * f64::from(k) / 40.0;
            for end in [c.a, c.b] {
                let p = add(end, scale(axis, s));
                assert!(swept.excess(p, c.radius) <= 0.0);
            }
        }
        let axis = [0.0, 0.0, 1.0];
        let ball = swept_revolute(&c, axis);
        for k in 0..36 {
            let r = Rot::about(axis, f64::from(k) * 0.1745);
            for end in [c.a, c.b] {
                assert!(ball.excess(r.apply(end), c.radius) <= 1e-12);
            }
        }
    }

    #[test]
    fn contained_capsules_go() {
        let big = Capsule {
            a: [0.0, 0.0, 0.0],
            b: [0.0, 0.0, 1.0],
            radius: 0.1,
        };
        let cap = Capsule::ball([0.0, 0.0, 1.0], 0.1);
        let outside = Capsule::ball([1.0, 0.0, 0.0], 0.1);
        assert_eq!(
            without_contained(vec![cap, big, outside]),
            vec![big, outside]
        );
        // Out by a rounding error: dropped, and the outer grown to hold it exactly.
        let almost = Capsule::ball([0.0, 0.0, 1.0 + 1e-12], 0.1);
        let kept = without_contained(vec![big, almost]);
        assert_eq!(kept.len(), 1);
        assert!(kept[0].excess(almost.a, almost.radius) <= 0.0);
        assert_eq!(without_contained(vec![big, big]), vec![big]);
    }
}
