//! The model, kinematics, swept check, timing and inverse kinematics on a small arm written out
//! by hand (the Panda, read from its URDF by the macro, is tested in tests/tests/robot.rs): a
//! static base column, an upper arm and a forearm turning about z, in a plane 0.1 m up.

use proptest::prelude::*;

use super::*;
use crate::envelope::{EnvelopeDef, ShapeDef, Solid};

const IDENTITY: [f64; 4] = [0.0, 0.0, 0.0, 1.0];

const fn limits(lower: f64, upper: f64, velocity: f64, acceleration: Option<f64>) -> LimitsDef {
    LimitsDef {
        lower,
        upper,
        wraps: false,
        velocity,
        acceleration,
        deceleration: acceleration,
        jerk: None,
        effort: None,
        range_from: "test",
        velocity_from: "test",
        acceleration_from: None,
        deceleration_from: None,
    }
}

/// Two revolute joints about z: the shoulder 0.1 m up at the base's axis, the elbow 0.5 m
/// along the upper arm; the forearm is 0.48 m, so folded back it reaches the base column.
const ARM: RobotDef = RobotDef {
    name: "planar",
    urdf: "planar.urdf",
    sha256: "00",
    base: "base",
    joints: &[
        JointDef {
            name: "shoulder",
            kind: JointKind::Revolute,
            parent: "base",
            child: "upper",
            xyz: [0.0, 0.0, 0.1],
            quat: IDENTITY,
            axis: [0.0, 0.0, 1.0],
            mimic: None,
            limits: limits(-3.0, 3.0, 1.0, Some(2.0)),
        },
        JointDef {
            name: "elbow",
            kind: JointKind::Revolute,
            parent: "upper",
            child: "fore",
            xyz: [0.5, 0.0, 0.0],
            quat: IDENTITY,
            axis: [0.0, 0.0, 1.0],
            mimic: None,
            limits: limits(-3.1, 3.1, 2.0, Some(4.0)),
        },
    ],
    links: &[
        LinkDef {
            name: "base",
            parent: None,
            frame: 0,
            xyz: [0.0; 3],
            quat: IDENTITY,
            capsules: &[CapsuleDef {
                a: [0.0, 0.0, 0.0],
                b: [0.0, 0.0, 0.2],
                radius: 0.05,
            }],
            swept_by: None,
        },
        LinkDef {
            name: "upper",
            parent: Some(0),
            frame: 1,
            xyz: [0.0; 3],
            quat: IDENTITY,
            capsules: &[CapsuleDef {
                a: [0.0, 0.0, 0.0],
                b: [0.5, 0.0, 0.0],
                radius: 0.03,
            }],
            swept_by: None,
        },
        LinkDef {
            name: "fore",
            parent: Some(1),
            frame: 2,
            xyz: [0.0; 3],
            quat: IDENTITY,
            capsules: &[CapsuleDef {
                a: [0.0, 0.0, 0.0],
                b: [0.48, 0.0, 0.0],
                radius: 0.03,
            }],
            swept_by: None,
        },
    ],
    tip: TipDef {
        link: "fore",
        offset: [0.48, 0.0, 0.0],
        frame: 2,
        point: [0.48, 0.0, 0.0],
    },
    disabled: &[],
    home: &[0.0, 0.0],
    home_from: "test",
};

fn arm() -> Robot {
    Robot::new(&ARM).unwrap()
}

/// An envelope in metres: a big allow box and the given keep-outs.
fn space(robot: &Robot, keep_out: &'static [ShapeDef]) -> Space {
    let def = EnvelopeDef {
        frame: "base",
        unit: "m",
        tool_radius: 0.0,
        allow: &[ShapeDef {
            name: Some("cell"),
            solid: Solid::Box {
                min: [-2.0, -2.0, -1.0],
                max: [2.0, 2.0, 2.0],
            },
        }],
        keep_out,
        max_step: None,
    };
    Space::from_def(robot, &def).unwrap()
}

#[test]
fn forward_kinematics_puts_the_tool_where_the_geometry_says() {
    let robot = arm();
    let (p, _) = robot.tool_pose(&[0.0, 0.0]);
    assert!((p[0] - 0.98).abs() < 1e-12 && p[1].abs() < 1e-12 && (p[2] - 0.1).abs() < 1e-12);
    let (p, _) = robot.tool_pose(&[std::f64::consts::FRAC_PI_2, std::f64::consts::FRAC_PI_2]);
    assert!(
        (p[0] + 0.48).abs() < 1e-12 && (p[1] - 0.5).abs() < 1e-12,
        "{p:?}"
    );
}

#[test]
fn the_pairs_skip_adjacent_links() {
    let robot = arm();
    // base–fore only: base–upper and upper–fore are adjacent.
    assert_eq!(robot.pairs, vec![(0, 2)]);
    // The rates: the forearm turns about the shoulder at most 0.5 + 0.48 + 0.03 from it.
    let fore = &robot.bodies[2];
    assert!((fore.rate[0] - (0.5 + 0.48 + 0.03)).abs() < 1e-12);
    assert!((fore.rate[1] - 0.51).abs() < 1e-12);
}

const SHELF: &[ShapeDef] = &[ShapeDef {
    name: Some("shelf"),
    solid: Solid::Box {
        min: [0.3, 0.5, 0.0],
        max: [0.5, 0.7, 0.3],
    },
}];

#[test]
fn a_sweep_through_a_keep_out_is_refused_naming_the_link() {
    let robot = arm();
    let space = space(&robot, SHELF);
    // Both ends clear of the shelf; the forearm sweeps through it on the way.
    let from = [0.0, 0.0];
    let to = [std::f64::consts::PI * 0.9, 0.0];
    let refusal = robot.check(&space, &from, &to).unwrap_err();
    assert_eq!(refusal.code, "keep_out");
    assert!(
        refusal.message.starts_with("link `fore` would come within"),
        "{}",
        refusal.message
    );
    assert!(
        refusal.message.contains("of keep-out `shelf`"),
        "{}",
        refusal.message
    );
    assert!(
        refusal
            .message
            .contains("% of the way through the motion (joints there: shoulder "),
        "{}",
        refusal.message
    );
    // The other way round it is clear.
    let round = [-std::f64::consts::PI * 0.9, 0.0];
    let cleared = robot.check(&space, &from, &round).unwrap();
    assert!(cleared.steps >= 1);
}

#[test]
fn folding_the_forearm_into_the_base_is_self_collision() {
    let robot = arm();
    let space = space(&robot, &[]);
    let refusal = robot.check(&space, &[0.0, 0.0], &[0.0, 3.05]).unwrap_err();
    assert_eq!(refusal.code, "self_collision");
    assert!(
        refusal.message.contains("link `base` would come within"),
        "{}",
        refusal.message
    );
    assert!(robot.check(&space, &[0.0, 0.0], &[0.0, 2.0]).is_ok());
}

#[test]
fn targets_beyond_a_joint_s_range_are_refused_with_the_range() {
    let robot = arm();
    let space = space(&robot, &[]);
    let refusal = robot.check(&space, &[0.0, 0.0], &[3.5, 0.0]).unwrap_err();
    assert_eq!(refusal.code, "joint_range");
    assert_eq!(
        refusal.message,
        "joint `shoulder` = 3.5 rad is outside its enforced range -3..=3 rad (test): choose a \
         value within it"
    );
    let refusal = robot
        .check(&space, &[0.0, 0.0], &[f64::NAN, 0.0])
        .unwrap_err();
    assert_eq!(refusal.code, "malformed");
}

#[test]
fn a_static_link_in_a_keep_out_fails_when_the_space_is_made() {
    let robot = arm();
    let def = EnvelopeDef {
        frame: "base",
        unit: "mm",
        tool_radius: 0.0,
        allow: &[ShapeDef {
            name: None,
            solid: Solid::Box {
                min: [-2000.0, -2000.0, -1000.0],
                max: [2000.0, 2000.0, 2000.0],
            },
        }],
        keep_out: &[ShapeDef {
            name: Some("table"),
            solid: Solid::Box {
                min: [-1000.0, -1000.0, -100.0],
                max: [1000.0, 1000.0, 10.0],
            },
        }],
        max_step: None,
    };
    let e = Space::from_def(&robot, &def).unwrap_err();
    assert_eq!(
        e,
        [
            "link `base`, which no joint moves, touches keep-out `table`: move the keep-out clear \
          of it"
        ]
    );
}

#[test]
fn starting_close_lets_the_arm_move_away_but_not_closer() {
    let robot = arm();
    // A post whose surface is 5 mm beside the forearm's end at q = 0 (on its +y side).
    const POST: &[ShapeDef] = &[ShapeDef {
        name: Some("post"),
        solid: Solid::Sphere {
            center: [0.98, 0.12, 0.1],
            radius: 0.085,
        },
    }];
    let near = space(&robot, POST);
    // Away from it (the shoulder turning clockwise): accepted, though it starts within the
    // bound.
    assert!(robot.check(&near, &[0.0, 0.0], &[-0.5, 0.0]).is_ok());
    // Towards it: refused before it gets to half its starting clearance.
    let refusal = robot.check(&near, &[0.0, 0.0], &[0.5, 0.0]).unwrap_err();
    assert_eq!(refusal.code, "keep_out", "{refusal}");
    // Starting in contact: nothing moves.
    const TOUCHING: &[ShapeDef] = &[ShapeDef {
        name: Some("post"),
        solid: Solid::Sphere {
            center: [0.98, 0.12, 0.1],
            radius: 0.095,
        },
    }];
    let touching = space(&robot, TOUCHING);
    let refusal = robot
        .check(&touching, &[0.0, 0.0], &[-0.5, 0.0])
        .unwrap_err();
    assert_eq!(refusal.code, "at_start", "{refusal}");
    assert!(
        refusal.message.starts_with(
            "in the current configuration (shoulder 0 rad, elbow 0 rad), link `fore` already \
             touches keep-out `post`"
        ),
        "{refusal}"
    );
}

#[test]
fn timing_is_never_faster_than_the_slowest_cap() {
    let robot = arm();
    // The shoulder turns 2 rad at 1 rad/s (accel 2), the elbow 1 rad at 2 rad/s (accel 4).
    let t = robot.timing(&[0.0, 0.0], &[2.0, 1.0], 1.0);
    assert!(t.duration >= 2.0);
    // Trapezoid on the shoulder: 0.5 s up, 1.5 s at the cap, 0.5 s down.
    assert!((t.duration - 2.5).abs() < 1e-12, "{t:?}");
    let half = robot.timing(&[0.0, 0.0], &[2.0, 1.0], 0.5);
    assert!((half.duration - 5.0).abs() < 1e-12, "{half:?}");
}

#[test]
fn inverse_kinematics_reaches_what_it_can_and_says_how_close_it_came() {
    let robot = arm();
    let target = [0.3, 0.6, 0.1];
    match robot.solve(target, None, &[0.0, 0.0]) {
        Solved::Reached(q) => {
            let (p, _) = robot.tool_pose(&q);
            let d = ((p[0] - 0.3).powi(2) + (p[1] - 0.6).powi(2)).sqrt();
            assert!(d <= POSITION_TOLERANCE, "{p:?}");
        }
        other => panic!("{other:?}"),
    }
    match robot.solve([1.5, 0.0, 0.1], None, &[0.0, 0.0]) {
        Solved::Unreachable {
            reached, distance, ..
        } => {
            assert!((distance - 0.52).abs() < 1e-3, "{distance} {reached:?}");
        }
        other => panic!("{other:?}"),
    }
}

/// The clearance of the motion at `tau` by exact distances (the oracle's sample).
fn clearance_at(robot: &Robot, space: &Space, from: &[f64], to: &[f64], tau: f64) -> f64 {
    let q: Vec<f64> = from
        .iter()
        .zip(to)
        .map(|(a, b)| a + tau * (b - a))
        .collect();
    let capsules = robot.capsules_at(&q);
    let mut least = f64::INFINITY;
    for (name, a, b, r) in &capsules {
        if *name == "base" {
            continue;
        }
        for region in &space.keep_out {
            least = least.min(region.solid.segment_distance(*a, *b).distance - r);
        }
        for region in &space.allow {
            let depth = (-region.solid.signed_distance(*a)).min(-region.solid.signed_distance(*b));
            least = least.min(depth - r);
        }
    }
    let base = capsules.iter().find(|c| c.0 == "base").unwrap();
    let fore = capsules.iter().find(|c| c.0 == "fore").unwrap();
    let d = super::distance::segment_segment(
        &base.1.into(),
        &base.2.into(),
        &fore.1.into(),
        &fore.2.into(),
    );
    least.min(d - base.3 - fore.3)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Against a dense-sampling oracle: the check never passes a motion that touches at a
    /// sample, and never refuses one that clears by more than the bound at every sample (plus
    /// what can hide between samples: the rate over the sample spacing).
    #[test]
    fn the_swept_check_agrees_with_dense_sampling(
        from in (-3.0..3.0f64, -3.0..3.0f64),
        to in (-3.0..3.0f64, -3.0..3.0f64),
        center in (-1.0..1.0f64, -1.0..1.0f64, 0.0..0.3f64),
        size in 0.02..0.3f64,
    ) {
        let robot = arm();
        let shapes: &'static [ShapeDef] = Box::leak(Box::new([ShapeDef {
            name: Some("thing"),
            solid: Solid::Sphere { center: [center.0, center.1, center.2], radius: size },
        }]));
        let def = EnvelopeDef {
            frame: "base",
            unit: "m",
            tool_radius: 0.0,
            allow: &[ShapeDef { name: None, solid: Solid::Box { min: [-2.0, -2.0, -1.0], max: [2.0, 2.0, 2.0] } }],
            keep_out: shapes,
            max_step: None,
        };
        let Ok(space) = Space::from_def(&robot, &def) else { return Ok(()); };
        let from = [from.0, from.1];
        let to = [to.0, to.1];
        let samples = 4000;
        let rate = (0.5 + 0.48 + 0.03) * (to[0] - from[0]).abs() + 0.51 * (to[1] - from[1]).abs();
        let oracle = (0..=samples)
            .map(|i| clearance_at(&robot, &space, &from, &to, f64::from(i) / f64::from(samples)))
            .fold(f64::INFINITY, f64::min);
        let result = robot.check(&space, &from, &to);
        if oracle <= 0.0 {
            prop_assert!(result.is_err(), "passed a motion that touches (oracle {oracle})");
        }
        if oracle > TOLERANCE + rate / f64::from(samples) {
            prop_assert!(result.is_ok(), "refused a motion clear by {oracle}: {:?}", result);
        }
    }
}
