//! The rules of a check and their boundaries.

use super::super::{Envelope, Kind, Point, ProblemKind, Refusal};
use super::{arm, ball, column, cube, named, open_space, unnamed};

fn kinds(result: Result<(), Refusal>) -> Vec<ProblemKind> {
    match result {
        Ok(()) => Vec::new(),
        Err(refusal) => refusal
            .problems()
            .iter()
            .map(|p| p.kind().clone())
            .collect(),
    }
}

fn target(envelope: &Envelope, start: Option<Point>, p: Point) -> Vec<ProblemKind> {
    kinds(envelope.check(start, &[p], Kind::Target))
}

fn outside(shape: &str, point: usize) -> ProblemKind {
    ProblemKind::OutsideAllow {
        shape: shape.to_owned(),
        point,
    }
}

fn in_keep_out(shape: &str, point: usize) -> ProblemKind {
    ProblemKind::InKeepOut {
        shape: shape.to_owned(),
        point,
    }
}

fn crosses(shape: &str, segment: usize) -> ProblemKind {
    ProblemKind::PathCrossesKeepOut {
        shape: shape.to_owned(),
        segment,
    }
}

fn start_in(shape: &str) -> ProblemKind {
    ProblemKind::StartInKeepOut {
        shape: shape.to_owned(),
    }
}

/// A point tool in the box `[0, 10]³`, a keep-out box `k` = `[4, 6]³`.
fn small() -> Envelope {
    Envelope {
        frame: "world".to_owned(),
        unit: "m".to_owned(),
        tool_radius: 0.0,
        allow: vec![unnamed(cube([0.0; 3], [10.0; 3]))],
        keep_out: vec![named("k", cube([4.0; 3], [6.0; 3]))],
        max_step: None,
    }
}

#[test]
fn a_target_well_inside_passes_with_or_without_a_start() {
    let arm = arm();
    assert!(arm.validate().is_ok(), "{:?}", arm.validate());
    assert_eq!(target(&arm, None, [400.0, -200.0, 400.0]), []);
    assert_eq!(
        target(&arm, Some([300.0, -100.0, 500.0]), [400.0, -200.0, 400.0]),
        []
    );
}

#[test]
fn on_an_allow_boundary_is_inside() {
    let small = small();
    for p in [[10.0, 5.0, 5.0], [0.0, 0.0, 0.0], [10.0, 10.0, 10.0]] {
        assert_eq!(target(&small, None, p), [], "{p:?}");
    }
    assert_eq!(
        target(&small, None, [10.0 + 1e-9, 5.0, 5.0]),
        [outside("allow shape 0 (box)", 0)]
    );
    // A sphere's boundary: (3, 4, 0) is exactly 5 from the centre.
    let mut sphere = small.clone();
    sphere.allow = vec![named("reach", ball([0.0; 3], 5.0))];
    sphere.keep_out.clear();
    assert_eq!(target(&sphere, None, [3.0, 4.0, 0.0]), []);
    assert_eq!(
        target(&sphere, None, [3.0, 4.0, 0.001]),
        [outside("reach", 0)]
    );
    // A cylinder's wall and caps.
    let mut cylinder = sphere.clone();
    cylinder.allow = vec![named("can", column([0.0, 0.0], 5.0, 0.0, 2.0))];
    assert_eq!(target(&cylinder, None, [3.0, -4.0, 2.0]), []);
    assert_eq!(target(&cylinder, None, [0.0, -5.0, 0.0]), []);
    assert_eq!(
        target(&cylinder, None, [0.0, -5.0, 2.001]),
        [outside("can", 0)]
    );
}

#[test]
fn the_tool_radius_keeps_the_ball_inside_every_allow_shape() {
    let arm = arm();
    // `reach` allows 850 - 40 = 810 from (0, 0, 100).
    assert_eq!(target(&arm, None, [810.0, 0.0, 100.0]), []);
    assert_eq!(
        target(&arm, None, [810.001, 0.0, 100.0]),
        [outside("reach", 0)]
    );
    // `table` allows z from 40: below, both the table and the base column's clearance count.
    assert_eq!(target(&arm, None, [500.0, 0.0, 40.0]), []);
    assert_eq!(
        target(&arm, None, [500.0, 0.0, 39.0]),
        [outside("table", 0)]
    );
    // Outside two allow shapes: two problems.
    assert_eq!(
        target(&arm, None, [880.0, 880.0, 990.0]),
        [outside("reach", 0), outside("table", 0)]
    );
}

#[test]
fn on_a_keep_out_boundary_is_refused() {
    let small = small();
    // A point tool on the face, the edge, the corner.
    for p in [[6.0, 5.0, 5.0], [6.0, 6.0, 5.0], [4.0, 4.0, 4.0]] {
        assert_eq!(target(&small, None, p), [in_keep_out("k", 0)], "{p:?}");
    }
    assert_eq!(target(&small, None, [6.000001, 5.0, 5.0]), []);
    // A ball touching it.
    let mut tool = small.clone();
    tool.tool_radius = 0.5;
    assert_eq!(target(&tool, None, [6.5, 5.0, 5.0]), [in_keep_out("k", 0)]);
    assert_eq!(target(&tool, None, [6.500001, 5.0, 5.0]), []);
    // A sphere and a cylinder keep-out, touched.
    tool.keep_out = vec![
        named("ball", ball([2.0, 2.0, 2.0], 1.0)),
        named("post", column([8.0, 8.0], 1.0, 0.0, 3.0)),
    ];
    assert_eq!(
        target(&tool, None, [2.0, 2.0, 3.5]),
        [in_keep_out("ball", 0)]
    );
    assert_eq!(target(&tool, None, [2.0, 2.0, 3.51]), []);
    assert_eq!(
        target(&tool, None, [8.0, 6.5, 2.0]),
        [in_keep_out("post", 0)]
    );
    assert_eq!(
        target(&tool, None, [8.0, 8.0, 3.5]),
        [in_keep_out("post", 0)]
    );
    assert_eq!(target(&tool, None, [8.0, 8.0, 3.6]), []);
}

#[test]
fn a_segment_through_or_grazing_a_keep_out_is_refused() {
    let small = small();
    // Straight through.
    assert_eq!(
        target(&small, Some([1.0, 5.0, 5.0]), [9.0, 5.0, 5.0]),
        [crosses("k", 0)]
    );
    // Along a face: touching.
    assert_eq!(
        target(&small, Some([1.0, 6.0, 5.0]), [9.0, 6.0, 5.0]),
        [crosses("k", 0)]
    );
    // Through the corner (6, 6, 6) only.
    assert_eq!(
        target(&small, Some([5.0, 7.0, 6.0]), [7.0, 5.0, 6.0]),
        [crosses("k", 0)]
    );
    // Just past the corner.
    assert_eq!(target(&small, Some([5.0, 7.0, 6.0]), [7.0, 5.01, 6.0]), []);
    // Waypoints: segment 2 (waypoint 1 to waypoint 2) crosses; no start, no segment 0.
    let path = [[1.0, 5.0, 5.0], [1.0, 9.0, 9.0], [9.0, 1.0, 1.0]];
    assert_eq!(
        kinds(small.check(None, &path, Kind::Path)),
        [crosses("k", 2)]
    );
    assert_eq!(
        kinds(small.check(Some([9.0, 5.0, 5.0]), &path, Kind::Path)),
        [crosses("k", 0), crosses("k", 2)]
    );
}

#[test]
fn a_waypoint_in_a_keep_out_is_one_problem_not_three() {
    let small = small();
    let path = [[1.0, 5.0, 5.0], [5.0, 5.0, 5.0], [9.0, 5.0, 5.0]];
    assert_eq!(
        kinds(small.check(None, &path, Kind::Path)),
        [in_keep_out("k", 1)]
    );
}

#[test]
fn the_start_is_not_checked_against_the_allow_shapes() {
    let small = small();
    // From outside the allow box back in.
    assert_eq!(
        target(&small, Some([20.0, 20.0, 20.0]), [9.0, 9.0, 9.0]),
        []
    );
    // But the way in must clear the keep-outs.
    assert_eq!(
        target(&small, Some([5.0, 5.0, 20.0]), [5.0, 5.0, 1.0]),
        [crosses("k", 0)]
    );
}

#[test]
fn a_start_inside_a_keep_out_may_only_move_straight_out() {
    let small = small();
    // Inside `k`, 1 from its top: up and out.
    let start = Some([5.0, 5.0, 5.5]);
    assert_eq!(target(&small, start, [5.0, 5.0, 9.0]), []);
    // Sideways under the top, then out: never deeper (its closest face stays the top until
    // a nearer one takes over), so out.
    assert_eq!(target(&small, start, [9.0, 5.0, 5.5]), []);
    // Sideways towards the middle of a side face: deeper.
    assert_eq!(
        target(&small, Some([5.9, 5.0, 5.0]), [5.5, 9.0, 5.0]),
        [start_in("k")]
    );
    // Down: deeper, then through.
    assert_eq!(target(&small, start, [5.0, 5.0, 1.0]), [start_in("k")]);
    // Up but ending inside.
    assert_eq!(
        target(&small, start, [5.0, 5.0, 5.8]),
        [in_keep_out("k", 0), start_in("k")]
    );
    // On its boundary: away from it passes, and so does sliding along it and off it (never
    // deeper); ending on it does not.
    assert_eq!(target(&small, Some([6.0, 5.0, 5.0]), [9.0, 5.0, 5.0]), []);
    assert_eq!(target(&small, Some([6.0, 5.0, 5.0]), [6.0, 5.0, 9.0]), []);
    assert_eq!(
        target(&small, Some([6.0, 5.0, 5.0]), [6.0, 5.0, 5.5]),
        [in_keep_out("k", 0), start_in("k")]
    );
    // Within the tool radius but outside the solid.
    let mut tool = small.clone();
    tool.tool_radius = 2.0;
    tool.allow = vec![unnamed(cube([-20.0; 3], [20.0; 3]))];
    let start = Some([5.0, 5.0, 7.0]);
    assert_eq!(target(&tool, start, [5.0, 5.0, 12.0]), []);
    assert_eq!(target(&tool, start, [15.0, 5.0, 7.0]), []);
    assert_eq!(target(&tool, start, [5.0, 5.0, 9.0]), []);
    assert_eq!(
        target(&tool, start, [5.0, 5.0, 7.5]),
        [in_keep_out("k", 0), start_in("k")]
    );
    assert_eq!(
        target(&tool, start, [5.0, 9.0, 6.5]),
        [start_in("k")],
        "closer, then away"
    );
}

#[test]
fn moving_out_of_a_sphere_or_a_cylinder_is_measured_from_its_surface() {
    let mut e = small();
    e.keep_out = vec![
        named("ball", ball([3.0, 3.0, 3.0], 2.0)),
        named("post", column([8.0, 8.0], 1.0, 0.0, 5.0)),
    ];
    // From inside the ball, radially out, and tangentially (deeper first? no: the depth only
    // decreases while moving away from the centre).
    assert_eq!(target(&e, Some([3.5, 3.0, 3.0]), [6.0, 3.0, 3.0]), []);
    assert_eq!(
        target(&e, Some([3.5, 3.0, 3.0]), [0.0, 3.0, 3.0]),
        [start_in("ball")]
    );
    // From inside the post: up through the top, or out sideways.
    assert_eq!(target(&e, Some([8.0, 8.0, 4.5]), [8.0, 8.0, 9.0]), []);
    assert_eq!(target(&e, Some([8.5, 8.0, 2.0]), [9.9, 8.0, 2.0]), []);
    assert_eq!(
        target(&e, Some([8.5, 8.0, 2.0]), [6.5, 8.0, 2.0]),
        [start_in("post")]
    );
}

#[test]
fn a_move_out_within_the_tolerance_is_straight_out() {
    let small = small();
    // From the top face, sliding in by 1e-12 of the segment's length (4): within the
    // tolerance of 1e-9 of the length. Sliding in by 1e-6 of it goes in.
    let start = [5.0, 5.0, 6.0];
    assert_eq!(target(&small, Some(start), [5.0, 9.0, 6.0 - 4e-12]), []);
    assert_eq!(
        target(&small, Some(start), [5.0, 9.0, 6.0 - 4e-6]),
        [start_in("k")]
    );
    let mut tool = small.clone();
    tool.tool_radius = 1.0;
    let start = [5.0, 5.0, 6.5];
    // Touching at the end: `k`'s top is at 6, the end at 7, the tool's radius 1.
    assert_eq!(
        target(&tool, Some(start), [5.0, 5.0, 7.0]),
        [in_keep_out("k", 0), start_in("k")]
    );
    assert_eq!(target(&tool, Some(start), [5.0, 5.0, 7.000001]), []);
}

#[test]
fn max_step_allows_equality() {
    let mut e = open_space(vec![]);
    e.max_step = Some(600.0);
    let start = Some([0.0; 3]);
    assert_eq!(target(&e, start, [600.0, 0.0, 0.0]), []);
    assert_eq!(target(&e, start, [360.0, 480.0, 0.0]), []);
    let too_long = target(&e, start, [600.0001, 0.0, 0.0]);
    assert!(
        matches!(
            too_long.as_slice(),
            [ProblemKind::StepTooLong { segment: 0, length }] if *length > 600.0
        ),
        "{too_long:?}"
    );
    // Without a start, a single target has no segment.
    assert_eq!(target(&e, None, [900.0, 0.0, 0.0]), []);
    // Every segment of a path, the first from the start.
    let path = [
        [500.0, 0.0, 0.0],
        [500.0, 600.0, 0.0],
        [500.0, 600.0, 700.0],
    ];
    let found = kinds(e.check(Some([-200.0, 0.0, 0.0]), &path, Kind::Path));
    assert!(
        matches!(
            found.as_slice(),
            [
                ProblemKind::StepTooLong { segment: 0, .. },
                ProblemKind::StepTooLong { segment: 2, length }
            ] if *length == 700.0
        ),
        "{found:?}"
    );
}

#[test]
fn at_most_five_problems_are_kept_and_the_rest_counted() {
    let small = small();
    let path: Vec<Point> = (0..12).map(|i| [20.0 + f64::from(i), 5.0, 5.0]).collect();
    let refusal = small.check(None, &path, Kind::Path).unwrap_err();
    assert_eq!(refusal.total(), 12);
    assert_eq!(refusal.problems().len(), 5);
    assert_eq!(
        refusal.problems()[4].kind(),
        &outside("allow shape 0 (box)", 4)
    );
    let text = refusal.to_string();
    assert!(
        text.contains("\n- … and 7 more (fix the problems above first"),
        "{text}"
    );
}

#[test]
fn non_finite_points_are_refused() {
    let small = small();
    assert_eq!(
        target(&small, None, [f64::NAN, 1.0, 1.0]),
        [ProblemKind::NotFinite { point: Some(0) }]
    );
    assert_eq!(
        target(&small, Some([f64::INFINITY, 0.0, 0.0]), [1.0, 1.0, 1.0]),
        [ProblemKind::NotFinite { point: None }]
    );
    // Coordinates near f64's limits: a clearance that cannot be computed is none.
    let huge = target(&small, Some([-1e308, 5.0, 5.0]), [1e308, 5.0, 5.0]);
    assert!(huge.contains(&crosses("k", 0)), "{huge:?}");
}

#[test]
fn an_empty_path_passes() {
    assert_eq!(kinds(small().check(Some([1.0; 3]), &[], Kind::Path)), []);
}

#[test]
fn the_arm_refuses_the_examples_motions() {
    let arm = arm();
    // Across the camera mast.
    assert_eq!(
        target(&arm, Some([150.0, 250.0, 200.0]), [-150.0, 550.0, 200.0]),
        [crosses("camera_mast", 0)]
    );
    // Over the base column, too low.
    assert_eq!(
        target(&arm, Some([300.0, 0.0, 200.0]), [-300.0, 0.0, 200.0]),
        [crosses("base", 0)]
    );
    // Over it, high enough (300 + 40 < 400).
    assert_eq!(
        target(&arm, Some([300.0, 0.0, 400.0]), [-290.0, 0.0, 400.0]),
        []
    );
}
