//! What a refusal says, and that what it suggests passes as printed.

use super::super::refusal::{MAX_REFUSAL_BYTES, clean, number};
use super::super::{Envelope, Kind, Point, ProblemKind, Refusal};
use super::{arm, ball, column, cube, named, open_space, unnamed};

fn refuse(envelope: &Envelope, start: Option<Point>, points: &[Point], kind: Kind) -> Refusal {
    envelope
        .check(start, points, kind)
        .expect_err("expected a refusal")
        .with_resource("arm")
}

/// The single problem's message.
fn say(start: Option<Point>, points: &[Point], kind: Kind) -> String {
    let refusal = refuse(&arm(), start, points, kind);
    assert_eq!(refusal.total(), 1, "{refusal}");
    refusal.problems()[0].message().to_owned()
}

#[test]
fn numbers_print_short_and_clean() {
    assert_eq!(number(300.0, 1), "300");
    assert_eq!(number(808.125, 1), "808.1");
    assert_eq!(number(2.5500000000000003, 2), "2.55");
    assert_eq!(number(0.1 + 0.2, 4), "0.3");
    assert_eq!(number(-0.04, 1), "0");
    assert_eq!(number(-12.5, 0), "-12");
    assert_eq!(number(1e20, 1), "1e20");
    assert_eq!(number(f64::NAN, 1), "NaN");
    assert_eq!(clean(2.5500000000000003), "2.55");
    assert_eq!(clean(0.1 + 0.2), "0.3");
    assert_eq!(clean(600.0), "600");
    assert_eq!(clean(-1e-300 * 1e-300), "0");
}

#[test]
fn a_target_outside_the_reach() {
    let refusal = refuse(&arm(), None, &[[900.0, 0.0, 300.0]], Kind::Target);
    assert_eq!(
        refusal.to_string(),
        "Motion refused by the envelope of `arm` (frame `base_link`; 2 problems):\n\
         - the target (900, 0, 300) mm is outside the allowed sphere `reach` (centre (0, 0, 100) \
         mm, radius 850 mm): it is 922 mm from the centre, the most allowed is 810 mm with the \
         tool's 40 mm radius. The nearest allowed point is (790.6, 0, 275.7) mm.\n\
         - the target (900, 0, 300) mm is outside the allowed box `table` ((-900, -900, 0) to \
         (900, 900, 1000) mm): x 900 is above the most allowed 860 (with the tool's 40 mm \
         radius). The nearest allowed point is (790.6, 0, 275.7) mm.\n\
         The tool did not run: nothing moved. Change the motion as above and call it again."
    );
    assert_eq!(
        refusal.problems()[0].suggestion(),
        Some([790.6, 0.0, 275.7])
    );
    assert_eq!(refusal.problems()[0].kind().code(), "outside_allow");
}

#[test]
fn close_calls_print_enough_decimals_to_differ() {
    // 810.04 from the centre, 810 allowed: not "810 mm from the centre, the most is 810".
    let m = say(None, &[[810.04, 0.0, 100.0]], Kind::Target);
    assert!(
        m.contains("it is 810.04 mm from the centre, the most allowed is 810 mm"),
        "{m}"
    );
}

#[test]
fn a_path_through_a_keep_out_gets_a_detour() {
    assert_eq!(
        say(
            Some([300.0, 0.0, 200.0]),
            &[[-300.0, 0.0, 200.0]],
            Kind::Target
        ),
        "the straight path from the current position (300, 0, 200) mm to the target (-300, 0, \
         200) mm enters keep-out `base` (vertical cylinder, axis at (0, 0) mm, radius 80 mm, z \
         from 0 to 300 mm): it goes through it at (0, 0, 200) mm. Go around it: move first to \
         (0, 140, 200) mm, then to the target."
    );
    // Past it, too close.
    let m = say(
        Some([300.0, 130.0, 200.0]),
        &[[-250.0, 100.0, 200.0]],
        Kind::Target,
    );
    assert!(
        m == ("the straight path from the current position (300, 130, 200) mm to the target \
             (-250, 100, 200) mm comes too close to keep-out `base` (vertical cylinder, axis at \
             (0, 0) mm, radius 80 mm, z from 0 to 300 mm): it comes within 33.5 mm of it at \
             (-6.2, 113.3, 200) mm, and the tool needs more than 40 mm. Go around it: move first \
             to (-7.6, 139.8, 200) mm, then to the target."),
        "{m}"
    );
    // Between waypoints.
    let refusal = refuse(
        &arm(),
        None,
        &[[300.0, 0.0, 200.0], [-300.0, 0.0, 200.0]],
        Kind::Path,
    );
    let m = refusal.problems()[0].message();
    assert!(
        m.starts_with(
            "the straight path from waypoint 0 (300, 0, 200) mm to waypoint 1 (-300, 0, 200) mm \
             enters keep-out `base`"
        ) && m.ends_with("Go around it: add a waypoint between them such as (0, 140, 200) mm."),
        "{m}"
    );
    assert_eq!(
        refusal.problems()[0].kind(),
        &ProblemKind::PathCrossesKeepOut {
            shape: "base".to_owned(),
            segment: 1
        }
    );
}

#[test]
fn without_a_detour_it_says_to_go_round_in_steps() {
    // A wall across the whole room: nothing goes round it.
    let mut e = open_space(vec![named(
        "wall",
        cube([-10.0, -1000.0, -1000.0], [10.0, 1000.0, 1000.0]),
    )]);
    e.tool_radius = 5.0;
    let m = refuse(
        &e,
        Some([-500.0, 0.0, 0.0]),
        &[[500.0, 0.0, 0.0]],
        Kind::Target,
    )
    .problems()[0]
        .message()
        .to_owned();
    assert!(
        m.ends_with(
            "it goes through it at (0, 0, 0) mm. Go around it in several steps: no single point \
             between them clears it."
        ),
        "{m}"
    );
}

#[test]
fn a_target_in_or_near_a_keep_out() {
    assert_eq!(
        say(None, &[[0.0, 400.0, 500.0]], Kind::Target),
        "the target (0, 400, 500) mm is inside keep-out `camera_mast` (box (-100, 350, 0) to \
         (100, 450, 950) mm). Choose a point clear of it, such as (0, 290, 500) mm."
    );
    assert_eq!(
        say(None, &[[0.0, 480.0, 500.0]], Kind::Target),
        "the target (0, 480, 500) mm is only 30 mm from keep-out `camera_mast` (box (-100, 350, \
         0) to (100, 450, 950) mm), and the tool needs more than 40 mm. Choose a point clear of \
         it, such as (0, 510, 500) mm."
    );
}

#[test]
fn a_start_inside_a_keep_out_is_told_the_way_out() {
    // Through the middle of the mast and out: deeper first.
    let refusal = refuse(
        &arm(),
        Some([0.0, 380.0, 500.0]),
        &[[0.0, 500.0, 500.0]],
        Kind::Target,
    );
    assert_eq!(
        refusal.problems()[0].message(),
        "the current position (0, 380, 500) mm is inside keep-out `camera_mast` (box (-100, 350, \
         0) to (100, 450, 950) mm), so the only motion allowed is straight out of it; the path \
         to the target (0, 500, 500) mm does not move away from it. Move straight out of it \
         first, for example to (0, 290, 500) mm, then on."
    );
    assert_eq!(
        refusal.problems()[0].suggestion(),
        Some([0.0, 290.0, 500.0])
    );
    // Moving away, but not far enough.
    let refusal = refuse(
        &arm(),
        Some([0.0, 480.0, 500.0]),
        &[[0.0, 485.0, 500.0]],
        Kind::Target,
    );
    assert_eq!(
        refusal.problems()[1].message(),
        "the current position (0, 480, 500) mm is only 30 mm from keep-out `camera_mast` (box \
         (-100, 350, 0) to (100, 450, 950) mm), so the only motion allowed is straight out of \
         it; the path to the target (0, 485, 500) mm ends only 35 mm from it (the tool needs \
         more than 40 mm). Move straight out of it first, for example to (0, 510, 500) mm, then \
         on."
    );
}

#[test]
fn steps_too_long() {
    assert_eq!(
        say(
            Some([-300.0, -300.0, 500.0]),
            &[[400.0, -300.0, 500.0]],
            Kind::Target
        ),
        "the motion from the current position (-300, -300, 500) mm to the target (400, -300, \
         500) mm is 700 mm long; the most one straight motion may travel is 600 mm: move there \
         in 2 steps, the first to (50, -300, 500) mm."
    );
    let refusal = refuse(
        &arm(),
        None,
        &[
            [-400.0, -300.0, 500.0],
            [300.0, -300.0, 500.0],
            [300.0, 300.0, 500.0],
        ],
        Kind::Path,
    );
    assert_eq!(
        refusal.problems()[0].message(),
        "segment 1 (waypoint 0 to waypoint 1) is 700 mm long; the most one straight motion may \
         travel is 600 mm: add a waypoint between them, such as (-50, -300, 500) mm."
    );
    assert_eq!(
        refusal.problems()[0].kind(),
        &ProblemKind::StepTooLong {
            segment: 1,
            length: 700.0
        }
    );
    // Three steps' worth from the current position.
    let mut e = open_space(vec![]);
    e.max_step = Some(100.0);
    let refusal = refuse(&e, Some([0.0; 3]), &[[250.0, 0.0, 0.0]], Kind::Path);
    assert_eq!(
        refusal.problems()[0].message(),
        "segment 0 (from the current position (0, 0, 0) mm to waypoint 0) is 250 mm long; the \
         most one straight motion may travel is 100 mm: add at least 2 waypoints between them, \
         the first such as (83.3, 0, 0) mm."
    );
    // Just over: the lengths print apart.
    let refusal = refuse(&e, Some([0.0; 3]), &[[100.0001, 0.0, 0.0]], Kind::Target);
    assert!(
        refusal.problems()[0]
            .message()
            .contains("is 100.0001 mm long; the most one straight motion may travel is 100 mm"),
        "{refusal}"
    );
}

#[test]
fn unnamed_allow_shapes_are_named_by_kind_and_index() {
    let mut e = open_space(vec![]);
    e.allow.push(unnamed(ball([0.0; 3], 100.0)));
    e.allow.push(unnamed(column([0.0, 0.0], 50.0, -20.0, 20.0)));
    let refusal = refuse(&e, None, &[[0.0, 90.0, 30.0]], Kind::Target);
    let kinds: Vec<&ProblemKind> = refusal.problems().iter().map(|p| p.kind()).collect();
    assert_eq!(
        kinds,
        [&ProblemKind::OutsideAllow {
            shape: "allow shape 2 (cylinder)".to_owned(),
            point: 0
        }]
    );
    assert_eq!(
        refusal.problems()[0].message(),
        "the target (0, 90, 30) mm is outside allow shape 2 (vertical cylinder, axis at (0, 0) \
         mm, radius 50 mm, z from -20 to 20 mm): it is 90 mm from the axis, the most allowed is \
         50 mm; z 30 is above the most allowed 20. The nearest allowed point is (0, 49.99, \
         19.99) mm."
    );
}

#[test]
fn the_precision_follows_the_envelope_s_size() {
    // The arm in metres: 0.1 mm is 0.0001 m.
    let mut e = arm();
    e.unit = "m".to_owned();
    e.tool_radius = 0.04;
    e.max_step = Some(0.6);
    for shape in e.allow.iter_mut().chain(e.keep_out.iter_mut()) {
        shape.solid = match shape.solid {
            super::super::Solid::Box { min, max } => {
                cube(min.map(|x| x / 1000.0), max.map(|x| x / 1000.0))
            }
            super::super::Solid::Sphere { center, radius } => {
                ball(center.map(|x| x / 1000.0), radius / 1000.0)
            }
            super::super::Solid::Cylinder {
                center,
                radius,
                z_min,
                z_max,
            } => column(
                center.map(|x| x / 1000.0),
                radius / 1000.0,
                z_min / 1000.0,
                z_max / 1000.0,
            ),
        };
    }
    assert!(e.validate().is_ok());
    let refusal = refuse(&e, None, &[[0.9, 0.0, 0.3]], Kind::Target);
    assert!(
        refusal.problems()[0].message().contains(
            "it is 0.922 m from the centre, the most allowed is 0.81 m with the tool's 0.04 m \
             radius. The nearest allowed point is (0.7906, 0, 0.2757) m."
        ),
        "{refusal}"
    );
}

#[test]
fn a_non_finite_point_is_named() {
    let refusal = refuse(&arm(), None, &[[1.0, f64::NAN, 2.0]], Kind::Target);
    assert_eq!(
        refusal.problems()[0].message(),
        "the target (1, NaN, 2) has a coordinate that is not a finite number: give every \
         coordinate as a number"
    );
    let refusal = refuse(
        &arm(),
        Some([f64::INFINITY, 0.0, 0.0]),
        &[[400.0, 0.0, 400.0]],
        Kind::Target,
    );
    assert_eq!(
        refusal.problems()[0].message(),
        "the current position reported for the resource, (inf, 0, 0), is not a finite point: no \
         motion can be checked against the envelope until it is"
    );
    assert_eq!(refusal.total(), 1);
}

#[test]
fn a_path_along_a_keep_out_s_face_touches_it() {
    let e = open_space(vec![named("k", cube([0.0; 3], [10.0; 3]))]);
    let refusal = refuse(
        &e,
        Some([-5.0, 10.0, 5.0]),
        &[[15.0, 10.0, 5.0]],
        Kind::Target,
    );
    let m = refusal.problems()[0].message();
    assert!(
        m.starts_with(
            "the straight path from the current position (-5, 10, 5) mm to the target (15, 10, \
             5) mm touches keep-out `k` (box (0, 0, 0) to (10, 10, 10) mm): it touches it at ("
        ) && m.contains(", 10, 5) mm (touching counts as entering). Go around it: move first to ("),
        "{m}"
    );
}

#[test]
fn refusals_stay_under_two_kilobytes() {
    let mut e = arm();
    let long = "n".repeat(300);
    e.keep_out[0].name = Some(long.clone());
    e.allow[0].name = Some(format!("{long}2"));
    e.frame = "f".repeat(500);
    let path: Vec<Point> = (0..40)
        .map(|i| {
            [
                -900.0 + 45.0 * f64::from(i),
                400.0,
                500.0 + 10.0 * f64::from(i),
            ]
        })
        .collect();
    let refusal = e
        .check(Some([0.0, -800.0, 900.0]), &path, Kind::Path)
        .unwrap_err()
        .with_resource(&"r".repeat(1000));
    let text = refusal.to_string();
    assert!(
        text.len() < MAX_REFUSAL_BYTES,
        "{} bytes:\n{text}",
        text.len()
    );
    assert!(refusal.total() > 5, "{}", refusal.total());
    assert!(
        text.contains("more (fix the problems above first"),
        "{text}"
    );
    assert!(text.ends_with("Change the motion as above and call it again."));
    // Without a resource name.
    let text = arm()
        .check(None, &[[0.0; 3]], Kind::Target)
        .unwrap_err()
        .to_string();
    assert!(
        text.starts_with("Motion refused by the envelope (frame `base_link`; "),
        "{text}"
    );
}

#[test]
fn every_suggestion_is_printed_and_passes_as_printed() {
    let arm = arm();
    let starts = [None, Some([300.0, 0.0, 200.0]), Some([0.0, 400.0, 500.0])];
    let targets = [
        [900.0, 0.0, 300.0],
        [0.0, 400.0, 100.0],
        [0.0, 480.0, 500.0],
        [-300.0, 0.0, 200.0],
        [0.0, 650.0, 100.0],
        [-150.0, 550.0, 200.0],
        [10.0, 10.0, 10.0],
    ];
    let mut suggested = 0;
    for start in starts {
        for target in targets {
            let Err(refusal) = arm.check(start, &[target], Kind::Target) else {
                continue;
            };
            let point_problems = refusal.problems().iter().any(|p| {
                matches!(
                    p.kind(),
                    ProblemKind::OutsideAllow { .. } | ProblemKind::InKeepOut { .. }
                )
            });
            for problem in refusal.problems() {
                let Some(w) = problem.suggestion() else {
                    continue;
                };
                let printed = format!(
                    "({}, {}, {}) mm",
                    number(w[0], 1),
                    number(w[1], 1),
                    number(w[2], 1)
                );
                assert!(
                    problem.message().contains(&printed),
                    "{}",
                    problem.message()
                );
                let after = match problem.kind() {
                    ProblemKind::OutsideAllow { .. } => arm.check(None, &[w], Kind::Target),
                    ProblemKind::PathCrossesKeepOut { .. } if point_problems => continue,
                    ProblemKind::PathCrossesKeepOut { .. } => {
                        arm.check(start, &[w, target], Kind::Path)
                    }
                    _ => arm.check(start, &[w], Kind::Target),
                };
                assert!(
                    after.is_ok(),
                    "{}: {}",
                    problem.message(),
                    after.unwrap_err()
                );
                suggested += 1;
            }
        }
    }
    assert!(suggested >= 10, "{suggested}");
}
