//! Property tests: the exact segment distances against a dense-sampling oracle (random
//! segments, and grazing ones built on purpose), containment against the distances, and
//! checks (and what their refusals suggest) against the rules.

use proptest::array::{uniform2, uniform3};
use proptest::prelude::*;

use super::super::geometry::{add, at, dot, norm, scale, sub, unit};
use super::super::{Envelope, Kind, Point, ProblemKind, Solid};
use super::{cube, named, open_space};

/// Samples along a segment for the oracle.
const SAMPLES: usize = 20_000;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        ..ProptestConfig::default()
    }
}

fn coord() -> impl Strategy<Value = f64> {
    -100.0..100.0f64
}

fn point() -> impl Strategy<Value = Point> {
    uniform3(coord())
}

fn solid() -> impl Strategy<Value = Solid> {
    prop_oneof![
        (point(), uniform3(0.0..60.0f64)).prop_map(|(min, size)| Solid::Box {
            min,
            max: add(min, size)
        }),
        (point(), 0.0..60.0f64).prop_map(|(center, radius)| Solid::Sphere { center, radius }),
        (uniform2(coord()), 0.0..60.0f64, coord(), 0.0..60.0f64).prop_map(
            |(center, radius, z_min, height)| Solid::Cylinder {
                center,
                radius,
                z_min,
                z_max: z_min + height,
            }
        ),
    ]
}

/// Random segments, degenerate ones (`a == b`) and axis-parallel ones (along faces and axes).
fn segment() -> impl Strategy<Value = (Point, Point)> {
    prop_oneof![
        4 => (point(), point()),
        1 => point().prop_map(|p| (p, p)),
        1 => (point(), 0..3usize, -150.0..150.0f64).prop_map(|(a, axis, length)| {
            let mut b = a;
            b[axis] += length;
            (a, b)
        }),
    ]
}

/// A unit vector from two angles.
fn direction() -> impl Strategy<Value = Point> {
    (0.0..std::f64::consts::PI, 0.0..std::f64::consts::TAU).prop_map(|(theta, phi)| {
        [
            theta.sin() * phi.cos(),
            theta.sin() * phi.sin(),
            theta.cos(),
        ]
    })
}

/// The smallest distance over [`SAMPLES`] evenly spaced points of the segment.
fn sampled(solid: &Solid, a: Point, b: Point) -> f64 {
    (0..SAMPLES)
        .map(|k| solid.distance(at(a, b, k as f64 / (SAMPLES - 1) as f64)))
        .fold(f64::INFINITY, f64::min)
}

/// The exact distance is no larger than any sample (up to rounding), and no smaller than the
/// sampled minimum less half the spacing (the distance is 1-Lipschitz); the minimiser is on the
/// segment and has the distance returned.
fn agrees(solid: &Solid, a: Point, b: Point) -> Result<f64, TestCaseError> {
    let exact = solid.segment_distance(a, b);
    let oracle = sampled(solid, a, b);
    let length = norm(sub(b, a));
    let eps = 1e-9 * (1.0 + a.iter().chain(&b).fold(0.0f64, |m, x| m.max(x.abs())));
    prop_assert!((0.0..=1.0).contains(&exact.t), "{exact:?}");
    prop_assert!(
        (solid.distance(at(a, b, exact.t)) - exact.distance).abs() <= eps,
        "{exact:?} vs {}",
        solid.distance(at(a, b, exact.t))
    );
    prop_assert!(
        exact.distance <= oracle + eps,
        "exact {exact:?} above the sampled {oracle}"
    );
    let spacing = length / (SAMPLES - 1) as f64;
    prop_assert!(
        exact.distance >= oracle - spacing / 2.0 - eps,
        "exact {exact:?} below the sampled {oracle} by more than the spacing {spacing}"
    );
    Ok(exact.distance)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn segment_distances_agree_with_dense_sampling(solid in solid(), (a, b) in segment()) {
        agrees(&solid, a, b)?;
    }

    #[test]
    fn segments_tangent_to_a_sphere_touch_it(
        center in point(),
        radius in 1.0..60.0f64,
        normal in direction(),
        other in direction(),
        back in 0.0..100.0f64,
        ahead in 0.0..100.0f64,
    ) {
        // A direction across the normal.
        let along = unit(sub(other, scale(normal, dot(other, normal))));
        prop_assume!(along.is_some());
        let along = along.unwrap();
        let touch = add(center, scale(normal, radius));
        let (a, b) = (add(touch, scale(along, -back)), add(touch, scale(along, ahead)));
        let solid = Solid::Sphere { center, radius };
        let d = agrees(&solid, a, b)?;
        prop_assert!(d <= 1e-9 * 300.0, "{d}");
    }

    #[test]
    fn segments_through_a_box_edge_or_corner_touch_it(
        min in point(),
        size in uniform3(1.0..60.0f64),
        corner in uniform3(any::<bool>()),
        axes in (0..3usize, 1..3usize),
        free in any::<bool>(),
        along_edge in 0.0..1.0f64,
        direction in uniform3(0.1..1.0f64),
        third in -1.0..1.0f64,
        back in 0.0..100.0f64,
        ahead in 0.0..100.0f64,
    ) {
        let max = add(min, size);
        let (i, j) = (axes.0, (axes.0 + axes.1) % 3);
        let k = 3 - i - j;
        // The corner, or (with `free`) a point along the edge parallel to axis k.
        let mut touch = [0.0; 3];
        let mut out = [0.0; 3];
        for axis in 0..3 {
            touch[axis] = if corner[axis] { max[axis] } else { min[axis] };
            out[axis] = if corner[axis] { 1.0 } else { -1.0 };
        }
        if free {
            touch[k] = min[k] + along_edge * size[k];
        }
        // Outward on axis i ahead, outward on axis j behind: outside on both sides of `touch`.
        let mut u = [0.0; 3];
        u[i] = out[i] * direction[i];
        u[j] = -out[j] * direction[j];
        u[k] = third;
        let (a, b) = (add(touch, scale(u, -back)), add(touch, scale(u, ahead)));
        let solid = Solid::Box { min, max };
        let d = agrees(&solid, a, b)?;
        prop_assert!(d <= 1e-9 * 300.0, "{d}");
    }

    #[test]
    fn segments_over_a_cylinder_rim_touch_it(
        center in uniform2(coord()),
        radius in 1.0..60.0f64,
        z_min in coord(),
        height in 1.0..60.0f64,
        angle in 0.0..std::f64::consts::TAU,
        top in any::<bool>(),
        tangent in -1.0..1.0f64,
        outward in 0.0..1.0f64,
        back in 0.0..100.0f64,
        ahead in 0.0..100.0f64,
    ) {
        let z_max = z_min + height;
        let (c, s) = (angle.cos(), angle.sin());
        let touch = [
            center[0] + radius * c,
            center[1] + radius * s,
            if top { z_max } else { z_min },
        ];
        // Along the rim's tangent, and outward-and-past the cap: outside on both sides.
        let cap = if top { -1.0 } else { 1.0 };
        let u = add(scale([-s, c, 0.0], tangent), scale([c, s, cap], outward));
        prop_assume!(norm(u) > 1e-3);
        let (a, b) = (add(touch, scale(u, -back)), add(touch, scale(u, ahead)));
        let solid = Solid::Cylinder { center, radius, z_min, z_max };
        let d = agrees(&solid, a, b)?;
        prop_assert!(d <= 1e-9 * 300.0, "{d}");
    }

    #[test]
    fn containment_agrees_with_the_distances(solid in solid(), p in point(), r in 0.0..30.0f64) {
        let eps = 1e-9 * 300.0;
        let sd = solid.signed_distance(p);
        let d = solid.distance(p);
        prop_assert_eq!(d, sd.max(0.0));
        if solid.contains_ball(p, r) {
            prop_assert!(sd <= -r + eps, "contains the ball, but sd = {sd}");
        } else {
            prop_assert!(sd >= -r - eps, "does not contain the ball, but sd = {sd}");
        }
        // The closest point is in the solid, at the distance.
        let q = solid.closest_point(p);
        prop_assert!(solid.distance(q) <= eps);
        prop_assert!((norm(sub(p, q)) - d).abs() <= eps);
        // No point of the solid is closer: its corners, centre and the closest points to p
        // pushed around stay at least `d` away.
        for probe in [add(q, [1.0, 0.0, 0.0]), add(q, [0.0, -1.0, 0.5]), add(q, [0.0, 0.0, 1.0])] {
            let inside = solid.closest_point(probe);
            prop_assert!(norm(sub(p, inside)) >= d - eps);
        }
    }

    #[test]
    fn checks_follow_the_rules_and_their_suggestions_pass(
        keep_out in proptest::collection::vec(solid(), 1..3),
        r in prop_oneof![Just(0.0), 0.0..10.0f64],
        start in point(),
        target in point(),
        max_step in prop_oneof![Just(None), (50.0..250.0f64).prop_map(Some)],
    ) {
        let mut envelope: Envelope = open_space(
            keep_out.iter().enumerate().map(|(i, s)| named(&format!("k{i}"), *s)).collect(),
        );
        envelope.allow = vec![named("room", cube([-90.0; 3], [90.0; 3]))];
        envelope.tool_radius = r;
        envelope.max_step = max_step;
        prop_assume!(envelope.validate().is_ok());
        let eps = 1e-9 * 300.0;
        let spacing = norm(sub(target, start)) / (SAMPLES - 1) as f64;
        match envelope.check(Some(start), &[target], Kind::Target) {
            Ok(()) => {
                for solid in &keep_out {
                    if solid.distance(start) > r {
                        prop_assert!(sampled(solid, start, target) > r - eps);
                    }
                }
            }
            Err(refusal) => {
                prop_assert!(refusal.to_string().len() < 2048);
                let point_problems = refusal.problems().iter().any(|p| matches!(
                    p.kind(),
                    ProblemKind::OutsideAllow { .. } | ProblemKind::InKeepOut { .. }
                ));
                for problem in refusal.problems() {
                    let kind = problem.kind();
                    if let ProblemKind::PathCrossesKeepOut { shape, .. } = kind {
                        let k: usize = shape[1..].parse().unwrap();
                        prop_assert!(sampled(&keep_out[k], start, target) <= r + spacing / 2.0 + eps);
                    }
                    let Some(w) = problem.suggestion() else { continue };
                    prop_assert!(
                        problem.message().contains(&format!("({}, {}, {}) mm",
                            super::super::refusal::number(w[0], 2),
                            super::super::refusal::number(w[1], 2),
                            super::super::refusal::number(w[2], 2))),
                        "{} does not print {w:?}", problem.message()
                    );
                    let after = match kind {
                        ProblemKind::OutsideAllow { .. } => envelope.check(None, &[w], Kind::Target),
                        ProblemKind::PathCrossesKeepOut { .. } if !point_problems => {
                            envelope.check(Some(start), &[w, target], Kind::Path)
                        }
                        ProblemKind::PathCrossesKeepOut { .. } => continue,
                        _ => envelope.check(Some(start), &[w], Kind::Target),
                    };
                    prop_assert!(after.is_ok(), "{kind:?}: {}\n{}", problem.message(), after.unwrap_err());
                }
            }
        }
    }
}
