//! What a declared envelope must be, and the box around what it allows.

use super::super::Envelope;
use super::{arm, ball, column, cube, named, open_space, unnamed};

fn problems(envelope: &Envelope) -> Vec<String> {
    envelope.validate().err().unwrap_or_default()
}

#[test]
fn the_examples_envelope_is_valid() {
    assert_eq!(problems(&arm()), Vec::<String>::new());
    assert_eq!(problems(&open_space(vec![])), Vec::<String>::new());
}

#[test]
fn malformed_shapes_are_worded_for_the_developer() {
    let mut e = open_space(vec![
        named("mast", cube([0.0, 0.0, 500.0], [1.0, 1.0, 200.0])),
        named("ball", ball([0.0, f64::NAN, 0.0], -1.0)),
        named("post", column([0.0, 0.0], -2.0, 5.0, 1.0)),
        named("inf", cube([0.0, 0.0, f64::INFINITY], [1.0; 3])),
    ]);
    e.keep_out.push(unnamed(ball([0.0; 3], 1.0)));
    e.keep_out.push(named("mast", ball([0.0; 3], 1.0)));
    assert_eq!(
        problems(&e),
        [
            "keep-out 0 (box `mast`): min z 500 is greater than max z 200 (the box runs from \
             min to max on every axis)",
            "keep-out 1 (sphere `ball`): centre y is not a finite number (NaN)",
            "keep-out 1 (sphere `ball`): radius -1 is negative",
            "keep-out 2 (cylinder `post`): radius -2 is negative",
            "keep-out 2 (cylinder `post`): z_min 5 is greater than z_max 1 (the cylinder runs \
             from z_min up to z_max)",
            "keep-out 3 (box `inf`): min z is not a finite number (inf)",
            "keep-out 4 (sphere) has no name: every keep-out needs one (refusals name it)",
            "keep-out 0 (box `mast`) and keep-out 5 (sphere `mast`) are both named `mast`: \
             shape names must be unique (refusals name them)",
        ]
    );
}

#[test]
fn the_envelope_s_own_numbers_are_checked() {
    let mut e = open_space(vec![]);
    e.allow.clear();
    e.tool_radius = -1.0;
    e.max_step = Some(0.0);
    assert_eq!(
        problems(&e),
        [
            "tool_radius -1 must be a finite number, 0 (a point) or more",
            "max_step 0 must be a finite number greater than 0 (leave it out for no limit)",
            "allow is empty: an envelope must allow something (a box, sphere or cylinder the \
             tool's centre may be in)",
        ]
    );
    e.allow = open_space(vec![]).allow;
    e.tool_radius = 0.0;
    e.max_step = Some(f64::INFINITY);
    assert_eq!(
        problems(&e),
        ["max_step inf must be a finite number greater than 0 (leave it out for no limit)"]
    );
    e.max_step = Some(0.5);
    assert!(problems(&e).is_empty());
}

#[test]
fn allow_shapes_without_room_for_the_tool_are_refused() {
    let mut e = arm();
    e.allow = vec![
        named("slot", cube([0.0, 0.0, 0.0], [50.0, 500.0, 60.0])),
        unnamed(ball([0.0; 3], 30.0)),
        unnamed(column([0.0, 0.0], 100.0, 0.0, 70.0)),
    ];
    assert_eq!(
        problems(&e),
        [
            "allow shape 0 (box `slot`) has no room for the tool's 40 radius: it spans 50 on x \
             and 60 on z, less than the tool's diameter 80",
            "allow shape 1 (sphere) has no room for the tool's 40 radius: its radius 30 is less \
             than 40",
            "allow shape 2 (cylinder) has no room for the tool's 40 radius: its height 70 is \
             less than the tool's diameter 80",
        ]
    );
}

#[test]
fn allow_shapes_with_nothing_in_common_are_refused() {
    let mut e = arm();
    // Two spheres 1000 apart, each 450 (410 for the tool) in radius: 820 < 1000.
    e.allow = vec![
        named("left", ball([-500.0, 0.0, 500.0], 450.0)),
        named("right", ball([500.0, 0.0, 500.0], 450.0)),
    ];
    assert_eq!(
        problems(&e),
        [
            "allow shape 0 (sphere `left`) and allow shape 1 (sphere `right`) have no point in \
             common once shrunk by the tool's 40 radius: the tool's centre must be inside every \
             allow shape, so nothing would be allowed",
        ]
    );
    // At 540 each, shrunk to 500, they touch at one point; at 530 they miss again.
    e.allow[0].solid = ball([-500.0, 0.0, 500.0], 540.0);
    e.allow[1].solid = ball([500.0, 0.0, 500.0], 540.0);
    assert!(problems(&e).is_empty(), "{:?}", problems(&e));
    e.allow[1].solid = ball([500.0, 0.0, 500.0], 530.0);
    assert_eq!(problems(&e).len(), 1);
    // A box and a cylinder that miss each other in z, and a box and a sphere apart.
    e.allow = vec![
        unnamed(cube([-100.0; 3], [100.0; 3])),
        unnamed(column([0.0, 0.0], 200.0, 150.0, 400.0)),
    ];
    assert_eq!(problems(&e).len(), 1, "{:?}", problems(&e));
    e.allow[1] = unnamed(ball([300.0, 0.0, 0.0], 240.0));
    assert_eq!(problems(&e).len(), 1, "{:?}", problems(&e));
    e.allow[1] = unnamed(ball([300.0, 0.0, 0.0], 300.0));
    assert!(problems(&e).is_empty(), "{:?}", problems(&e));
    // Two cylinders side by side.
    e.allow = vec![
        unnamed(column([0.0, 0.0], 100.0, 0.0, 500.0)),
        unnamed(column([250.0, 0.0], 100.0, 0.0, 500.0)),
    ];
    assert_eq!(problems(&e).len(), 1);
    e.allow[1].solid = column([120.0, 0.0], 100.0, 0.0, 500.0);
    assert!(problems(&e).is_empty(), "{:?}", problems(&e));
}

#[test]
fn boxes_that_miss_on_one_axis_are_caught_pairwise() {
    let mut e = open_space(vec![]);
    e.allow = vec![
        unnamed(cube([0.0, 0.0, 0.0], [100.0, 100.0, 100.0])),
        unnamed(cube([50.0, -500.0, -500.0], [500.0, 500.0, 500.0])),
        unnamed(cube([-500.0, -500.0, -500.0], [60.0, 500.0, 500.0])),
    ];
    assert!(problems(&e).is_empty());
    e.allow[2].solid = cube([-500.0, -500.0, -500.0], [40.0, 500.0, 500.0]);
    assert_eq!(
        problems(&e),
        [
            "allow shape 1 (box) and allow shape 2 (box) have no point in common: the tool's \
             centre must be inside every allow shape, so nothing would be allowed"
        ]
    );
}

#[test]
fn the_bounding_box_is_the_intersection_of_the_allow_boxes_shrunk_by_the_tool() {
    // The reach (radius 850 around (0, 0, 100)) and the table box, each less the tool's 40 mm.
    let arm = arm();
    assert_eq!(
        arm.bounding_box(),
        Some(([-810.0, -810.0, 40.0], [810.0, 810.0, 910.0]))
    );
    let mut e = open_space(vec![]);
    e.allow
        .push(unnamed(column([100.0, 0.0], 50.0, -10.0, 2000.0)));
    assert_eq!(
        e.bounding_box(),
        Some(([50.0, -50.0, -10.0], [150.0, 50.0, 1000.0]))
    );
    e.allow.push(unnamed(cube([500.0; 3], [600.0; 3])));
    assert_eq!(e.bounding_box(), None);
    e.allow.clear();
    assert_eq!(e.bounding_box(), None);
}
