//! The compile-time checks of a declared envelope (`def.rs`), run here as plain functions: the
//! `const` square root, the test of whether two solids lie apart (sound: never "apart" for
//! solids that meet, checked against alternating projections onto the exact solids), which
//! keep-outs can be met, and the bounds of a target the envelope does not allow.

use proptest::array::{uniform2, uniform3};
use proptest::prelude::*;

use super::super::Solid;
use super::super::def::{
    EnvelopeDef, ShapeDef, TargetBound, apart, keep_out_meets_the_envelope, sqrt,
    target_bound_message, target_bound_outside,
};
use super::{ball, column, cube};

fn shape(solid: Solid) -> ShapeDef {
    ShapeDef {
        name: Some("shape"),
        solid,
    }
}

fn envelope(allow: Vec<Solid>, keep_out: Vec<Solid>, tool_radius: f64) -> EnvelopeDef {
    EnvelopeDef {
        frame: "cell",
        unit: "mm",
        tool_radius,
        allow: Vec::leak(allow.into_iter().map(shape).collect()),
        keep_out: Vec::leak(keep_out.into_iter().map(shape).collect()),
        max_step: None,
    }
}

#[test]
fn the_const_square_root_is_the_square_root() {
    for x in [
        0.0,
        1e-300,
        0.25,
        2.0,
        3.0,
        1e-6,
        123_456.789,
        1e300,
        f64::MAX,
    ] {
        let exact = f64::sqrt(x);
        assert!(
            (sqrt(x) - exact).abs() <= 1e-15 * exact,
            "sqrt({x}) = {} not {exact}",
            sqrt(x)
        );
    }
    assert_eq!(sqrt(-1.0), 0.0);
}

#[test]
fn solids_apart_and_meeting() {
    let unit_box = cube([0.0; 3], [1.0; 3]);
    // Apart on one axis; touching faces meet.
    assert!(apart(unit_box, cube([1.5, 0.0, 0.0], [2.0, 1.0, 1.0])));
    assert!(!apart(unit_box, cube([1.0, 0.0, 0.0], [2.0, 1.0, 1.0])));
    // A sphere near a corner: apart by the corner's distance, not the faces'.
    let corner = 3f64.sqrt();
    assert!(apart(unit_box, ball([2.0; 3], corner * 0.999)));
    assert!(!apart(unit_box, ball([2.0; 3], corner * 1.001)));
    // A cylinder beside a box, and one above it.
    assert!(apart(unit_box, column([3.0, 0.5], 1.5, 0.0, 1.0)));
    assert!(!apart(unit_box, column([2.5, 0.5], 1.5, 0.0, 1.0)));
    assert!(apart(unit_box, column([0.5, 0.5], 5.0, 1.1, 2.0)));
    // A sphere against a cylinder's rim (the one test through a square root).
    // From (2, 2, 0.5) to the rim of a unit cylinder about the z axis: 2√2 - 1.
    let rim = column([0.0, 0.0], 1.0, 0.0, 1.0);
    let to_rim = 2.0 * 2f64.sqrt() - 1.0;
    assert!(apart(rim, ball([2.0, 2.0, 0.5], to_rim - 1e-9)));
    assert!(!apart(rim, ball([2.0, 2.0, 0.5], to_rim + 1e-9)));
    // Cylinders side by side and stacked.
    assert!(apart(rim, column([2.5, 0.0], 1.0, 0.0, 1.0)));
    assert!(!apart(rim, column([2.0, 0.0], 1.0, 0.0, 1.0)));
    assert!(apart(rim, column([0.0, 0.0], 1.0, 1.5, 2.0)));
}

fn coord() -> impl Strategy<Value = f64> {
    -100.0..100.0f64
}

fn solid() -> impl Strategy<Value = Solid> {
    prop_oneof![
        (uniform3(coord()), uniform3(0.0..60.0f64)).prop_map(|(min, size)| Solid::Box {
            min,
            max: [min[0] + size[0], min[1] + size[1], min[2] + size[2]],
        }),
        (uniform3(coord()), 0.0..60.0f64)
            .prop_map(|(center, radius)| Solid::Sphere { center, radius }),
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

/// How far apart two convex solids are, by alternating projections (which converge to a pair
/// of closest points, and to a common point when they meet).
fn gap(a: &Solid, b: &Solid) -> f64 {
    let mut x = a.closest_point([0.0; 3]);
    for _ in 0..2000 {
        let y = b.closest_point(x);
        x = a.closest_point(y);
    }
    b.distance(x)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Sound: two solids said to lie apart never meet. And close to exact: solids a clear gap
    /// apart are said to be. Against a sphere, exact: apart when the other solid's exact
    /// distance from its centre exceeds its radius (outside a hair's breadth of tangency).
    #[test]
    fn apart_is_sound(a in solid(), b in solid()) {
        let gap = gap(&a, &b);
        if apart(a, b) {
            prop_assert!(gap > 0.0, "{a:?} and {b:?} said apart, but they meet");
        }
        // Alternating projections converge slowly near tangency: only a clear gap counts.
        if gap > 0.5 {
            prop_assert!(apart(a, b), "{a:?} and {b:?} are {gap} apart");
        }
        prop_assert_eq!(apart(a, b), apart(b, a));
        for (sphere, other) in [(a, b), (b, a)] {
            if let Solid::Sphere { center, radius } = sphere {
                let d = other.distance(center);
                if (d - radius).abs() > 1e-9 * (1.0 + radius) {
                    prop_assert_eq!(apart(sphere, other), d > radius, "{:?} and {:?}", sphere, other);
                }
            }
        }
    }
}

#[test]
fn a_keep_out_outside_an_allow_shape_protects_nothing() {
    let cell = cube([0.0; 3], [1200.0, 800.0, 500.0]);
    let conveyor = cube([0.0, 300.0, 0.0], [1200.0, 500.0, 120.0]);
    let pillar = column([3000.0, 600.0], 60.0, 0.0, 500.0);
    let drain = ball([600.0, 400.0, -200.0], 50.0);
    let touching = ball([600.0, 400.0, -50.0], 50.0);
    let e = envelope(vec![cell], vec![conveyor, pillar, drain, touching], 25.0);
    assert!(keep_out_meets_the_envelope(&e, 0));
    assert!(!keep_out_meets_the_envelope(&e, 1));
    assert!(!keep_out_meets_the_envelope(&e, 2));
    // Touching the allow shape counts as meeting it: kept.
    assert!(keep_out_meets_the_envelope(&e, 3));

    // Inside each of two allow shapes, but outside the box the tool is held to by both.
    let left = cube([0.0; 3], [600.0, 800.0, 500.0]);
    let reach = ball([0.0; 3], 700.0);
    let beyond = cube([650.0, 0.0, 0.0], [700.0, 10.0, 10.0]);
    let e = envelope(
        vec![cube([0.0; 3], [1200.0; 3]), left, reach],
        vec![beyond],
        0.0,
    );
    assert!(!keep_out_meets_the_envelope(&e, 0));
}

#[test]
fn bounds_outside_the_envelope_and_what_is_said() {
    let e = envelope(vec![cube([0.0; 3], [1200.0, 800.0, 500.0])], vec![], 25.0);
    let x_upper = TargetBound {
        axes: [true, false, false],
        upper: true,
        value: 1500.0,
    };
    assert!(target_bound_outside(&e, x_upper));
    assert!(!target_bound_outside(
        &e,
        TargetBound {
            value: 1175.0,
            ..x_upper
        }
    ));
    assert_eq!(
        target_bound_message(&e, "gantry", "x", x_upper).as_str(),
        "`x` may go up to 1500 mm, but the envelope of resource `gantry` lets the tool reach x \
         from 25 to 1175 mm (its allow shapes less the tool radius, 25 mm): a published range \
         must not promise what the envelope refuses; narrow it to `range = 25.0..=1175.0`"
    );
    let point_lower = TargetBound {
        axes: [true; 3],
        upper: false,
        value: 0.0,
    };
    assert!(target_bound_outside(&e, point_lower));
    assert!(
        target_bound_message(&e, "gantry", "at", point_lower)
            .as_str()
            .contains("x from 25 to 1175, y from 25 to 775, z from 25 to 475 mm"),
    );
}
