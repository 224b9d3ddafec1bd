//! The point an example call moves to: the given one when the envelope allows it, else one
//! near it that the envelope allows, within the published ranges, with few digits.

use super::super::{Bounds, Envelope};
use super::{ball, column, cube, named, unnamed};

fn cell(keep_out: Vec<super::super::Shape>) -> Envelope {
    Envelope {
        frame: "cell".to_owned(),
        unit: "mm".to_owned(),
        tool_radius: 25.0,
        allow: vec![unnamed(cube([0.0; 3], [1200.0, 800.0, 500.0]))],
        keep_out,
        max_step: None,
    }
}

const OPEN: Bounds = [(None, None); 3];

#[test]
fn an_allowed_point_is_kept() {
    let e = cell(vec![]);
    assert_eq!(
        e.example_point([600.0, 400.0, 250.0], &OPEN),
        Some([600.0, 400.0, 250.0])
    );
}

#[test]
fn a_point_in_a_keep_out_moves_clear_of_it() {
    let e = cell(vec![named(
        "pillar",
        column([600.0, 400.0], 60.0, 0.0, 500.0),
    )]);
    let p = e.example_point([600.0, 400.0, 250.0], &OPEN).unwrap();
    assert!(e.point_ok(p), "{p:?}");
    // Near the middle, and written with few digits.
    assert!((p[0] - 600.0).abs() + (p[1] - 400.0).abs() < 400.0, "{p:?}");
    assert!(p.iter().all(|c| (c / 5.0).fract() == 0.0), "{p:?}");
}

#[test]
fn a_point_outside_a_round_allow_shape_moves_inside_it() {
    let mut e = cell(vec![]);
    e.allow.push(unnamed(ball([0.0; 3], 700.0)));
    // The middle of the box is outside the reach of the sphere at the corner.
    let p = e.example_point([600.0, 400.0, 250.0], &OPEN).unwrap();
    assert!(e.point_ok(p), "{p:?}");
}

#[test]
fn the_published_ranges_hold() {
    let e = cell(vec![named(
        "shelf",
        cube([0.0, 0.0, 0.0], [1200.0, 800.0, 200.0]),
    )]);
    let bounds: Bounds = [
        (Some(100.0), Some(300.0)),
        (None, None),
        (Some(0.0), Some(400.0)),
    ];
    let p = e.example_point([600.0, 400.0, 100.0], &bounds).unwrap();
    assert!(e.point_ok(p), "{p:?}");
    assert!(
        (100.0..=300.0).contains(&p[0]) && (0.0..=400.0).contains(&p[2]),
        "{p:?}"
    );
}

#[test]
fn no_room_no_point() {
    let mut e = cell(vec![]);
    e.allow.push(unnamed(cube([2000.0; 3], [2100.0; 3])));
    assert_eq!(e.example_point([600.0, 400.0, 250.0], &OPEN), None);
}
