//! The Franka Panda read from its own URDF at compile time (`__robot_def!`, what
//! `resource(robot(..))` expands to), against independent computations:
//!
//! - forward kinematics against the Panda's published modified Denavit–Hartenberg parameters
//!   (Franka's documentation), which share nothing with the URDF reading, on random
//!   configurations; the flange at q = 0 is at (0.088, 0, 0.926) m;
//! - the swept check against a dense-sampling oracle with its own distances: it never passes a
//!   motion the oracle finds touching, and never refuses one the oracle finds clear by more than
//!   the stated bound (plus what the oracle's sampling can miss);
//! - the inverse kinematics reaching what forward kinematics put there;
//! - the timing against the joints' caps; the published form.

use nalgebra::{Matrix4, Vector3, Vector4};
use proptest::prelude::*;
use serde_json::Value;
use toolwright::__private::{
    EnvelopeDef, Robot, RobotDef, ShapeDef, Solid, Solved, Space, TOLERANCE,
};

/// The Panda as the macro reads it: its URDF with STL collision meshes, MoveIt's limits file,
/// its SRDF, home at the SRDF's `default` state.
const PANDA: RobotDef = toolwright::__private::__robot_def!(
    urdf = "../examples/robots/example-robot-data/robots/panda_description/urdf/panda.urdf",
    tip = "panda_link8",
    limits = "../examples/robots/panda_moveit_config/joint_limits.yaml",
    srdf = "../examples/robots/example-robot-data/robots/panda_description/srdf/panda.srdf",
    home = "default",
    packages("example-robot-data" = "../examples/robots/example-robot-data"),
);

fn panda() -> Robot {
    Robot::new(&PANDA).unwrap()
}

/// The flange pose by Franka's modified DH parameters (Craig): each joint `RotX(α) TransX(a)
/// RotZ(θ) TransZ(d)`, then the flange 0.107 m along z.
fn dh_flange(q: &[f64]) -> [f64; 3] {
    use std::f64::consts::FRAC_PI_2 as H;
    let rows = [
        (0.0, 0.333, 0.0),
        (0.0, 0.0, -H),
        (0.0, 0.316, H),
        (0.0825, 0.0, H),
        (-0.0825, 0.384, -H),
        (0.0, 0.0, H),
        (0.088, 0.0, H),
    ];
    let craig = |a: f64, d: f64, alpha: f64, theta: f64| {
        let (sa, ca) = alpha.sin_cos();
        let (st, ct) = theta.sin_cos();
        Matrix4::new(
            ct,
            -st,
            0.0,
            a, //
            st * ca,
            ct * ca,
            -sa,
            -d * sa, //
            st * sa,
            ct * sa,
            ca,
            d * ca, //
            0.0,
            0.0,
            0.0,
            1.0,
        )
    };
    let mut t = Matrix4::identity();
    for (i, (a, d, alpha)) in rows.iter().enumerate() {
        t *= craig(*a, *d, *alpha, q[i]);
    }
    t *= craig(0.0, 0.107, 0.0, 0.0);
    let p = t * Vector4::new(0.0, 0.0, 0.0, 1.0);
    [p.x, p.y, p.z]
}

#[test]
fn the_panda_has_seven_joints_and_its_limits() {
    let robot = panda();
    assert_eq!(robot.dof(), 7);
    let names: Vec<&str> = robot.joint_names().collect();
    assert_eq!(names[3], "panda_joint4");
    let ranges: Vec<(f64, f64)> = robot.ranges().collect();
    assert_eq!(ranges[3], (-3.0718, -0.0698));
    assert_eq!(ranges[5], (-0.0175, 3.7525));
    assert_eq!(robot.home()[3], -2.35619);
}

#[test]
fn the_flange_at_zero_is_where_franka_says() {
    let robot = panda();
    let (p, _) = robot.tool_pose(&[0.0; 7]);
    assert!(
        (p[0] - 0.088).abs() < 1e-12 && p[1].abs() < 1e-12 && (p[2] - 0.926).abs() < 1e-12,
        "{p:?}"
    );
    assert_eq!(
        dh_flange(&[0.0; 7]).map(|x| (x * 1e9).round() / 1e9),
        [0.088, 0.0, 0.926]
    );
}

/// Random configurations within the Panda's ranges.
fn configuration() -> impl Strategy<Value = Vec<f64>> {
    let robot = panda();
    let ranges: Vec<(f64, f64)> = robot.ranges().collect();
    ranges
        .into_iter()
        .map(|(lo, hi)| lo..=hi)
        .collect::<Vec<_>>()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn forward_kinematics_agrees_with_the_dh_parameters(q in configuration()) {
        let robot = panda();
        let (p, _) = robot.tool_pose(&q);
        let d = dh_flange(&q);
        for i in 0..3 {
            prop_assert!((p[i] - d[i]).abs() < 1e-9, "{p:?} vs {d:?} at {q:?}");
        }
    }

    #[test]
    fn inverse_kinematics_finds_what_forward_kinematics_reached(
        q in configuration(),
        start in configuration(),
    ) {
        let robot = panda();
        let (target, _) = robot.tool_pose(&q);
        match robot.solve(target, None, &start) {
            Solved::Reached(found) => {
                let (p, _) = robot.tool_pose(&found);
                let d = ((p[0] - target[0]).powi(2) + (p[1] - target[1]).powi(2)
                    + (p[2] - target[2]).powi(2)).sqrt();
                prop_assert!(d <= toolwright::__private::POSITION_TOLERANCE, "{d}");
                for (x, (lo, hi)) in found.iter().zip(robot.ranges()) {
                    prop_assert!(*x >= lo && *x <= hi);
                }
            }
            other => prop_assert!(false, "{target:?} unreached: {other:?}"),
        }
    }
}

#[test]
fn a_target_out_of_reach_says_how_close_it_came() {
    let robot = panda();
    match robot.solve([2.0, 0.0, 0.5], None, robot.home()) {
        Solved::Unreachable {
            reached, distance, ..
        } => {
            // The Panda reaches about 0.85 m from its shoulder.
            assert!(distance > 0.9 && distance < 1.3, "{distance} {reached:?}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn timing_respects_every_joint_s_caps() {
    let robot = panda();
    let from = robot.home().to_vec();
    let mut to = from.clone();
    to[0] += 2.0; // 2 rad on joint 1: 2.175 rad/s, 3.75 rad/s² (MoveIt's file)
    let t = robot.timing(&from, &to, 1.0);
    // A trapezoid: 0.58 s up, 0.34 s at 2.175 rad/s, 0.58 s down.
    let v = 2.175;
    let a = 3.75;
    let expected = v / a + (2.0 - v * v / a) / v + v / a;
    assert!((t.duration - expected).abs() < 1e-9, "{t:?} vs {expected}");
    assert!(t.duration >= 2.0 / 2.175);
    // At half speed, twice as long.
    let half = robot.timing(&from, &to, 0.5);
    assert!((half.duration - 2.0 * t.duration).abs() < 1e-9);
}

/// An envelope in millimetres: a cell, and the given keep-outs.
fn space_with(robot: &Robot, keep_out: Vec<ShapeDef>) -> Result<Space, Vec<String>> {
    let keep_out: &'static [ShapeDef] = Box::leak(keep_out.into_boxed_slice());
    let def = EnvelopeDef {
        frame: "panda_link0",
        unit: "mm",
        tool_radius: 0.0,
        allow: &[ShapeDef {
            name: Some("cell"),
            solid: Solid::Box {
                min: [-1500.0, -1500.0, -500.0],
                max: [1500.0, 1500.0, 1800.0],
            },
        }],
        keep_out,
        max_step: None,
    };
    Space::from_def(robot, &def)
}

#[test]
fn the_home_configuration_is_clear_of_itself() {
    let robot = panda();
    let space = space_with(&robot, Vec::new()).unwrap();
    let home = robot.home().to_vec();
    let cleared = robot.check(&space, &home, &home).unwrap();
    assert_eq!(cleared.steps, 1);
    // The SRDF leaves these pairs to check, among others.
    let pairs = robot.checked_pairs();
    assert!(pairs.contains(&("panda_link0", "panda_link5")), "{pairs:?}");
    assert!(!pairs.contains(&("panda_link0", "panda_link1")));
    assert!(!pairs.contains(&("panda_link3", "panda_link4")));
}

#[test]
fn a_shelf_the_arm_sweeps_through_is_refused_naming_the_link() {
    let robot = panda();
    let home = robot.home().to_vec();
    // A shelf where the wrist (joint 6) is once joint 1 has turned 1.5 rad from home: a 100 mm
    // cube around that point.
    let mut turned = home.clone();
    turned[0] += 1.5;
    let e = robot
        .link_origin(&turned, "panda_link6")
        .unwrap()
        .map(|x| x * 1000.0);
    let shelf = ShapeDef {
        name: Some("shelf"),
        solid: Solid::Box {
            min: [e[0] - 50.0, e[1] - 50.0, e[2] - 50.0],
            max: [e[0] + 50.0, e[1] + 50.0, e[2] + 50.0],
        },
    };
    let space = space_with(&robot, vec![shelf]).unwrap();
    // Turning joint 1 by +2 rad sweeps the wrist through it ..
    let mut to = home.clone();
    to[0] += 2.0;
    let refusal = robot.check(&space, &home, &to).unwrap_err();
    assert_eq!(refusal.code, "keep_out", "{refusal}");
    assert!(refusal.message.contains("of keep-out `shelf`"), "{refusal}");
    assert!(refusal.message.starts_with("link `panda_link"), "{refusal}");
    assert!(
        refusal
            .message
            .contains("% of the way through the motion (joints there: panda_joint1 "),
        "{refusal}"
    );
    // .. turning it by -0.25 rad stays clear (further, the elbow, behind the base's axis at
    // home, would swing into it from the other side).
    to[0] = home[0] - 0.25;
    robot.check(&space, &home, &to).unwrap();
}

/// Point-to-solid distances written here, independently of toolwright's.
fn point_distance(solid: &Solid, p: [f64; 3]) -> f64 {
    match *solid {
        Solid::Box { min, max } => {
            let mut s = 0.0;
            for i in 0..3 {
                let e = (min[i] - p[i]).max(p[i] - max[i]).max(0.0);
                s += e * e;
            }
            s.sqrt()
        }
        Solid::Sphere { center, radius } => {
            let d = Vector3::from(p) - Vector3::from(center);
            (d.norm() - radius).max(0.0)
        }
        Solid::Cylinder {
            center,
            radius,
            z_min,
            z_max,
        } => {
            let rho = ((p[0] - center[0]).powi(2) + (p[1] - center[1]).powi(2)).sqrt();
            let dr = (rho - radius).max(0.0);
            let dz = (z_min - p[2]).max(p[2] - z_max).max(0.0);
            (dr * dr + dz * dz).sqrt()
        }
    }
}

/// Points along a segment, every `1/n` of it.
fn along(a: [f64; 3], b: [f64; 3], n: usize) -> impl Iterator<Item = [f64; 3]> {
    (0..=n).map(move |i| {
        let t = i as f64 / n as f64;
        [
            a[0] + t * (b[0] - a[0]),
            a[1] + t * (b[1] - a[1]),
            a[2] + t * (b[2] - a[2]),
        ]
    })
}

/// The distance from `p` to the segment `a–b`.
fn to_segment(p: [f64; 3], a: [f64; 3], b: [f64; 3]) -> f64 {
    let (p, a, b) = (Vector3::from(p), Vector3::from(a), Vector3::from(b));
    let d = b - a;
    let t = if d.norm_squared() > 0.0 {
        ((p - a).dot(&d) / d.norm_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + d * t)).norm()
}

/// The oracle: the least clearance (metres) over `samples` configurations of the motion, each
/// capsule sampled every `1/SEG` of its segment, against the keep-outs (metres) and the
/// checked self-collision pairs.
const SEG: usize = 16;

fn oracle(robot: &Robot, keep_out: &[Solid], from: &[f64], to: &[f64], samples: usize) -> f64 {
    let pairs = robot.checked_pairs();
    let mut least = f64::INFINITY;
    for k in 0..=samples {
        let tau = k as f64 / samples as f64;
        let q: Vec<f64> = from
            .iter()
            .zip(to)
            .map(|(a, b)| a + tau * (b - a))
            .collect();
        let capsules = robot.capsules_at(&q);
        for (name, a, b, r) in &capsules {
            if *name == "panda_link0" {
                continue; // static: checked when the space is made
            }
            for solid in keep_out {
                for p in along(*a, *b, SEG) {
                    least = least.min(point_distance(solid, p) - r);
                }
            }
        }
        for (x, y) in &pairs {
            for (_, a1, b1, r1) in capsules.iter().filter(|c| c.0 == *x) {
                for (_, a2, b2, r2) in capsules.iter().filter(|c| c.0 == *y) {
                    for p in along(*a1, *b1, SEG) {
                        least = least.min(to_segment(p, *a2, *b2) - r1 - r2);
                    }
                }
            }
        }
    }
    least
}

/// How far a capsule point can move over the whole motion, by the check's own bound's
/// ingredients computed crudely here: 1.2 m per radian of any joint (the Panda's whole reach is
/// under 1.2 m from any joint axis).
fn crude_rate(from: &[f64], to: &[f64]) -> f64 {
    from.iter().zip(to).map(|(a, b)| (a - b).abs()).sum::<f64>() * 1.2
}

fn solid_strategy() -> impl Strategy<Value = Solid> {
    prop_oneof![
        (
            -700.0..700.0f64,
            -700.0..700.0f64,
            0.0..1100.0f64,
            20.0..300.0f64,
            20.0..300.0f64,
            20.0..300.0f64
        )
            .prop_map(|(x, y, z, a, b, c)| Solid::Box {
                min: [x, y, z],
                max: [x + a, y + b, z + c],
            }),
        (
            -700.0..700.0f64,
            -700.0..700.0f64,
            0.0..1100.0f64,
            20.0..200.0f64
        )
            .prop_map(|(x, y, z, r)| Solid::Sphere {
                center: [x, y, z],
                radius: r,
            }),
        (
            -700.0..700.0f64,
            -700.0..700.0f64,
            0.0..900.0f64,
            20.0..150.0f64,
            50.0..500.0f64
        )
            .prop_map(|(x, y, z, r, h)| Solid::Cylinder {
                center: [x, y],
                radius: r,
                z_min: z,
                z_max: z + h,
            }),
    ]
}

/// A solid in mm as metres.
fn metres(s: &Solid) -> Solid {
    let k = 0.001;
    match *s {
        Solid::Box { min, max } => Solid::Box {
            min: min.map(|x| x * k),
            max: max.map(|x| x * k),
        },
        Solid::Sphere { center, radius } => Solid::Sphere {
            center: center.map(|x| x * k),
            radius: radius * k,
        },
        Solid::Cylinder {
            center,
            radius,
            z_min,
            z_max,
        } => Solid::Cylinder {
            center: center.map(|x| x * k),
            radius: radius * k,
            z_min: z_min * k,
            z_max: z_max * k,
        },
    }
}

/// One case: `Some(touching)` when the oracle settles it (touching, or clear by more than the
/// bound), after asserting the check agrees; `None` for the band in between.
fn agree(from: &[f64], to: &[f64], solids: &[Solid]) -> Result<Option<bool>, TestCaseError> {
    let robot = panda();
    let shapes: Vec<ShapeDef> = solids
        .iter()
        .enumerate()
        .map(|(i, s)| ShapeDef {
            name: Some(["a", "b", "c", "d"][i]),
            solid: *s,
        })
        .collect();
    let Ok(space) = space_with(&robot, shapes) else {
        return Ok(None); // a keep-out on the base: not a motion's business
    };
    let samples = 200;
    let in_metres: Vec<Solid> = solids.iter().map(metres).collect();
    let least = oracle(&robot, &in_metres, from, to, samples);
    let result = robot.check(&space, from, to);
    // What the oracle's sampling can miss: the motion between samples, and a capsule's
    // segment between its sampled points (the longest Panda capsule's segment is under 0.25 m).
    let slack = crude_rate(from, to) / samples as f64 + 0.25 / (2 * SEG) as f64;
    if least <= 0.0 {
        prop_assert!(
            result.is_err(),
            "passed a motion the oracle finds touching ({least})"
        );
        return Ok(Some(true));
    }
    if least > TOLERANCE + slack {
        prop_assert!(
            result.is_ok(),
            "refused a motion clear by {least} m: {result:?}"
        );
        return Ok(Some(false));
    }
    Ok(None)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Four keep-outs around the arm, a random motion between two configurations near home.
    #[test]
    fn the_swept_check_agrees_with_dense_sampling(
        from in configuration(),
        to in configuration(),
        blend in 0.0..0.6f64,
        solids in proptest::collection::vec(solid_strategy(), 4),
    ) {
        // Motions of every size: from home towards a random configuration, then on.
        let robot = panda();
        let home = robot.home().to_vec();
        let a: Vec<f64> = home.iter().zip(&from).map(|(h, f)| h + blend * (f - h)).collect();
        let b: Vec<f64> = a.iter().zip(&to).map(|(x, t)| x + 0.5 * (t - x)).collect();
        agree(&a, &b, &solids)?;
    }
}

/// The property's two branches are both exercised by a deterministic spread of cases, so the
/// property above cannot pass by never reaching them.
#[test]
fn the_oracle_cases_cover_both_verdicts() {
    let robot = panda();
    let ranges: Vec<(f64, f64)> = robot.ranges().collect();
    let home = robot.home().to_vec();
    let mut s: u64 = 42;
    let mut next = || {
        s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let (mut touching, mut clear) = (0, 0);
    for _ in 0..16 {
        let to: Vec<f64> = ranges
            .iter()
            .zip(&home)
            .map(|((lo, hi), h)| h + 0.6 * (lo + next() * (hi - lo) - h))
            .collect();
        let solid = Solid::Sphere {
            center: [
                -600.0 + 1200.0 * next(),
                -600.0 + 1200.0 * next(),
                200.0 + 800.0 * next(),
            ],
            radius: 60.0 + 140.0 * next(),
        };
        match agree(&home, &to, &[solid]).unwrap() {
            Some(true) => touching += 1,
            Some(false) => clear += 1,
            None => {}
        }
    }
    assert!(
        touching >= 3 && clear >= 3,
        "touching {touching}, clear {clear}"
    );
}

#[test]
fn the_published_form_has_the_issue_s_keys() {
    let robot = panda();
    let json = robot.to_json("arm", "mm", 1000.0, Some("/positions"));
    assert_eq!(json["resource"], "arm");
    assert_eq!(
        json["source"]["file"],
        "../examples/robots/example-robot-data/robots/panda_description/urdf/panda.urdf"
    );
    assert_eq!(json["source"]["sha256"].as_str().unwrap().len(), 64);
    assert_eq!(json["tip"]["link"], "panda_link8");
    let j4 = &json["joints"][3];
    assert_eq!(j4["name"], "panda_joint4");
    assert_eq!(j4["type"], "revolute");
    assert_eq!(j4["unit"], "rad");
    assert_eq!(j4["lower"], -3.0718);
    assert_eq!(j4["upper"], -0.0698);
    assert_eq!(j4["maxVelocity"], 2.175);
    assert_eq!(j4["maxAcceleration"], 3.125);
    assert_eq!(j4["maxDeceleration"], 3.125);
    assert_eq!(json["positions"], "/positions");
    assert_eq!(json["tolerance"], 10);
    let links = json["links"].as_array().unwrap();
    let names: Vec<&str> = links.iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"panda_link4") && names.contains(&"panda_leftfinger"));
    let capsule = &links[1]["capsules"][0];
    assert!(capsule["a"].as_array().unwrap().len() == 3);
    assert!(capsule["radius"].as_f64().unwrap() > 50.0, "{capsule}"); // mm
    assert!(matches!(json["home"]["capsules"], Value::Array(ref c) if c.len() > 10));
}
