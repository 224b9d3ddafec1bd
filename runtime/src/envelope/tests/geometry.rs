//! Distances, containment and projections on cases whose answers are known exactly.

use super::super::geometry::{at, golden, norm, sub};
use super::{ball, column, cube};

const UNIT: ([f64; 3], [f64; 3]) = ([0.0; 3], [1.0; 3]);

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * (1.0 + b.abs())
}

#[test]
fn point_distances_are_zero_inside_and_on_the_boundary() {
    let b = cube(UNIT.0, UNIT.1);
    assert_eq!(b.distance([2.0, 0.5, 0.5]), 1.0);
    assert_eq!(b.distance([2.0, 2.0, 0.5]), 2f64.sqrt());
    assert_eq!(
        b.distance([-3.0, 5.0, -11.0]),
        (9.0f64 + 16.0 + 121.0).sqrt()
    );
    assert_eq!(b.distance([0.5, 0.5, 0.5]), 0.0);
    assert_eq!(b.distance([1.0, 0.5, 0.5]), 0.0);
    assert_eq!(b.distance([1.0, 1.0, 1.0]), 0.0);

    let s = ball([0.0; 3], 1.0);
    assert_eq!(s.distance([3.0, 0.0, 0.0]), 2.0);
    assert_eq!(s.distance([0.0, 0.6, 0.8]), 0.0);
    assert_eq!(s.distance([0.1, 0.0, 0.0]), 0.0);

    let c = column([0.0, 0.0], 1.0, 0.0, 2.0);
    assert_eq!(c.distance([3.0, 0.0, 1.0]), 2.0);
    assert_eq!(c.distance([0.0, 0.0, 5.0]), 3.0);
    assert_eq!(c.distance([0.5, 0.5, -1.0]), 1.0);
    assert_eq!(c.distance([4.0, 0.0, 6.0]), 5.0);
    assert_eq!(c.distance([0.6, 0.8, 2.0]), 0.0);
}

#[test]
fn signed_distances_measure_the_depth_inside() {
    let b = cube(UNIT.0, [10.0; 3]);
    assert_eq!(b.signed_distance([5.0, 5.0, 9.0]), -1.0);
    assert_eq!(b.signed_distance([5.0, 5.0, 12.0]), 2.0);
    assert_eq!(ball([0.0; 3], 3.0).signed_distance([1.0, 0.0, 0.0]), -2.0);
    let c = column([0.0, 0.0], 5.0, 0.0, 10.0);
    assert_eq!(c.signed_distance([4.0, 0.0, 5.0]), -1.0);
    assert_eq!(c.signed_distance([0.0, 0.0, 9.5]), -0.5);
    assert_eq!(c.signed_distance([0.0, 0.0, 0.25]), -0.25);
    assert_eq!(c.signed_distance([8.0, 0.0, 14.0]), 5.0);
}

#[test]
fn balls_touching_the_boundary_from_inside_are_contained() {
    let b = cube(UNIT.0, [10.0; 3]);
    assert!(b.contains_ball([1.0, 5.0, 9.0], 1.0));
    assert!(!b.contains_ball([0.999, 5.0, 5.0], 1.0));
    assert!(!b.contains_ball([f64::NAN, 5.0, 5.0], 0.0));
    let s = ball([0.0; 3], 5.0);
    assert!(s.contains_ball([3.0, 4.0, 0.0], 0.0));
    assert!(s.contains_ball([0.0, 3.0, 0.0], 2.0));
    assert!(!s.contains_ball([0.0, 3.0001, 0.0], 2.0));
    let c = column([1.0, 1.0], 5.0, 0.0, 10.0);
    assert!(c.contains_ball([5.0, 1.0, 1.0], 1.0));
    assert!(c.contains_ball([6.0, 1.0, 10.0], 0.0));
    assert!(!c.contains_ball([5.0, 1.0, 0.5], 1.0));
    assert!(!c.contains_ball([5.0, 1.0, 9.5], 1.0));
    assert!(!c.contains_ball([5.0, 5.0, 5.0], 0.0));
}

#[test]
fn closest_points_and_exits() {
    let b = cube(UNIT.0, [10.0; 3]);
    assert_eq!(b.closest_point([12.0, -3.0, 5.0]), [10.0, 0.0, 5.0]);
    assert_eq!(b.exit_direction([5.0, 5.0, 9.0]), [0.0, 0.0, 1.0]);
    assert_eq!(b.exit_direction([0.5, 5.0, 5.0]), [-1.0, 0.0, 0.0]);
    assert_eq!(b.exit_direction([12.0, 5.0, 5.0]), [1.0, 0.0, 0.0]);
    let s = ball([0.0; 3], 5.0);
    assert_eq!(s.closest_point([0.0, 0.0, 10.0]), [0.0, 0.0, 5.0]);
    assert_eq!(s.exit_direction([0.0, -1.0, 0.0]), [0.0, -1.0, 0.0]);
    let c = column([0.0, 0.0], 5.0, 0.0, 10.0);
    assert_eq!(c.closest_point([6.0, 8.0, 12.0]), [3.0, 4.0, 10.0]);
    assert_eq!(c.exit_direction([4.0, 0.0, 5.0]), [1.0, 0.0, 0.0]);
    assert_eq!(c.exit_direction([0.0, 0.0, 9.0]), [0.0, 0.0, 1.0]);
    assert_eq!(c.exit_direction([0.0, 0.0, 1.0]), [0.0, 0.0, -1.0]);
}

#[test]
fn eroded_solids_shrink_by_the_radius_and_vanish_when_too_small() {
    assert_eq!(
        cube(UNIT.0, [10.0; 3]).eroded(1.0),
        Some(cube([1.0; 3], [9.0; 3]))
    );
    assert_eq!(
        cube(UNIT.0, [10.0; 3]).eroded(5.0),
        Some(cube([5.0; 3], [5.0; 3]))
    );
    assert_eq!(cube(UNIT.0, [10.0; 3]).eroded(5.5), None);
    assert_eq!(ball([0.0; 3], 2.0).eroded(3.0), None);
    assert_eq!(
        column([0.0, 0.0], 5.0, 0.0, 10.0).eroded(1.0),
        Some(column([0.0, 0.0], 4.0, 1.0, 9.0))
    );
    assert_eq!(column([0.0, 0.0], 5.0, 0.0, 1.0).eroded(1.0), None);
}

#[test]
fn a_segment_past_a_sphere_comes_closest_at_its_foot() {
    let s = ball([0.0; 3], 1.0);
    let c = s.segment_distance([-2.0, 2.0, 0.0], [2.0, 2.0, 0.0]);
    assert_eq!((c.t, c.distance), (0.5, 1.0));
    // Beyond the ends: the nearer end.
    let c = s.segment_distance([3.0, 0.0, 0.0], [5.0, 0.0, 0.0]);
    assert_eq!((c.t, c.distance), (0.0, 2.0));
    // Tangent: touching.
    let c = s.segment_distance([-2.0, 1.0, 0.0], [2.0, 1.0, 0.0]);
    assert_eq!((c.t, c.distance), (0.5, 0.0));
    // Through it.
    assert_eq!(
        s.segment_distance([-2.0, 0.0, 0.0], [2.0, 0.0, 0.0])
            .distance,
        0.0
    );
}

#[test]
fn a_segment_past_a_box_is_minimised_piece_by_piece() {
    let b = cube(UNIT.0, UNIT.1);
    // Parallel to a face: constant distance 1, the earliest closest point kept.
    let c = b.segment_distance([2.0, -1.0, 0.5], [2.0, 2.0, 0.5]);
    assert_eq!(c.distance, 1.0);
    assert!(close(c.t, 1.0 / 3.0), "{c:?}");
    // Through a corner, outside on both sides of it.
    let c = b.segment_distance([0.0, 2.0, 1.0], [2.0, 0.0, 1.0]);
    assert_eq!((c.t, c.distance), (0.5, 0.0));
    // Along an edge's line, beyond it: the edge's end.
    let c = b.segment_distance([1.0, 1.0, 3.0], [1.0, 1.0, 5.0]);
    assert_eq!((c.t, c.distance), (0.0, 2.0));
    // Diagonally past an edge (x = 1, y = 1): closest in the middle of a piece, distance
    // sqrt(2)/2 * (2 - 1) ... computed: the line x + y = 3 at z = 0.5 is 1/sqrt(2) from (1, 1).
    let c = b.segment_distance([3.0, 0.0, 0.5], [0.0, 3.0, 0.5]);
    assert!(close(c.distance, 0.5f64.sqrt()), "{c:?}");
    assert!(close(c.t, 0.5), "{c:?}");
    // Through it: 0 somewhere inside.
    let c = b.segment_distance([-1.0, 0.5, 0.5], [2.0, 0.5, 0.5]);
    assert_eq!(c.distance, 0.0);
    assert!(c.t > 1.0 / 3.0 - 1e-12 && c.t < 2.0 / 3.0 + 1e-12, "{c:?}");
}

#[test]
fn a_segment_past_a_cylinder_is_exact_beside_it_above_it_and_beyond_its_rim() {
    let c = column([0.0, 0.0], 1.0, 0.0, 1.0);
    // Beside it: closest horizontal approach.
    let r = c.segment_distance([3.0, -2.0, 0.5], [3.0, 2.0, 0.5]);
    assert_eq!((r.t, r.distance), (0.5, 2.0));
    // Above it: the height above the top.
    let r = c.segment_distance([-0.5, 0.0, 3.0], [0.5, 0.0, 2.0]);
    assert_eq!((r.t, r.distance), (1.0, 1.0));
    // Beyond the rim on the whole segment: sqrt(1 + 1) at its middle (golden section).
    let r = c.segment_distance([2.0, -1.0, 2.0], [2.0, 1.0, 2.0]);
    assert!(close(r.distance, 2f64.sqrt()), "{r:?}");
    assert!((r.t - 0.5).abs() < 1e-7, "{r:?}");
    // Exactly over the top rim: touching.
    let r = c.segment_distance([0.0, 0.0, 2.0], [2.0, 0.0, 0.0]);
    assert_eq!((r.t, r.distance), (0.5, 0.0));
    // Through it.
    assert_eq!(
        c.segment_distance([-2.0, 0.0, 0.5], [2.0, 0.0, 0.5])
            .distance,
        0.0
    );
    // Vertical, beside it.
    let r = c.segment_distance([2.0, 0.0, -5.0], [2.0, 0.0, 5.0]);
    assert_eq!(r.distance, 1.0);
}

#[test]
fn degenerate_segments_are_their_point() {
    for solid in [
        cube(UNIT.0, UNIT.1),
        ball([0.0; 3], 1.0),
        column([0.0, 0.0], 1.0, 0.0, 1.0),
    ] {
        let p = [3.0, 4.0, 5.0];
        let c = solid.segment_distance(p, p);
        assert_eq!((c.t, c.distance), (0.0, solid.distance(p)), "{solid:?}");
    }
}

#[test]
fn points_along_a_segment_end_exactly_at_its_ends() {
    let (a, b) = ([0.1, 0.2, 0.3], [0.7, -0.4, 1e6]);
    assert_eq!(at(a, b, 0.0), a);
    assert_eq!(at(a, b, 1.0), b);
    assert_eq!(norm(sub(b, a)), norm(sub(a, b)));
}

#[test]
fn golden_section_finds_the_minimum_of_convex_functions() {
    let (t, v) = golden(|t| (t - 0.3).abs() + 2.0, 0.0, 1.0);
    assert!(
        (t - 0.3).abs() < 1e-12 && (v - 2.0).abs() < 1e-12,
        "{t} {v}"
    );
    // At an end.
    let (t, _) = golden(|t| t * t, 0.0, 1.0);
    assert!(t < 1e-12, "{t}");
    // Flat bottom: any point of it.
    let (_, v) = golden(|t| (t - 0.7).max(0.0) + (0.2 - t).max(0.0), 0.0, 1.0);
    assert_eq!(v, 0.0);
}
