//! The check of a motion: every point against the allow shapes and the keep-outs, every
//! straight segment against `max_step` and the keep-outs. It allocates nothing when the motion
//! passes; the problems are recorded as indices and numbers ([`Found`]) and worded only on
//! refusal (`refusal.rs`).

use super::geometry::{Closest, at, golden, is_finite, norm, sub};
use super::refusal::Refusal;
use super::{Envelope, Kind, Point, Solid};

/// The most problems a refusal keeps; the others are counted.
pub(crate) const MAX_PROBLEMS: usize = 5;

/// One problem as found. Segment `i` is the one that ends at point `i` (segment 0 starts at the
/// current position, so it exists only when that is known).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Found {
    /// A coordinate of point `i` (`None`: of the current position) is NaN or infinite.
    NotFinite { point: Option<usize> },
    /// Point `point`'s ball is not inside allow shape `shape`.
    OutsideAllow { shape: usize, point: usize },
    /// Point `point`'s ball meets keep-out `shape`, `distance` from it.
    InKeepOut {
        shape: usize,
        point: usize,
        distance: f64,
    },
    /// Segment `segment` meets keep-out `shape` (neither end does): where it comes closest.
    Crosses {
        shape: usize,
        segment: usize,
        closest: Closest,
    },
    /// The current position is within the tool radius of keep-out `shape`, and segment 0 does
    /// not move straight out of it (`moves_out`: it moves away but ends within reach of it).
    StartInKeepOut { shape: usize, moves_out: bool },
    /// Segment `segment` is `length` long, over `max_step`.
    StepTooLong { segment: usize, length: f64 },
}

/// The problems found: the first [`MAX_PROBLEMS`] and how many in all.
#[derive(Debug, Default)]
pub(super) struct Findings {
    pub(super) kept: Vec<Found>,
    pub(super) total: usize,
}

impl Findings {
    /// Records a problem (kept if fewer than [`MAX_PROBLEMS`] are).
    fn push(&mut self, found: Found) {
        if self.kept.len() < MAX_PROBLEMS {
            self.kept.push(found);
        }
        self.total += 1;
    }
}

impl Envelope {
    /// Checks a motion from `start` (the resource's current position, `None` when unknown)
    /// through `points` (one target for [`Kind::Target`], the waypoints for [`Kind::Path`]).
    ///
    /// Every point's tool ball must lie inside every allow shape and clear of every keep-out
    /// (touching one is refused); every straight segment (from `start` to the first point when
    /// `start` is known, then between consecutive points) must be no longer than `max_step` and
    /// stay clear of the keep-outs. `start` itself is not checked against the allow shapes (a
    /// resource outside its envelope may come back in); when it is within the tool radius of a
    /// keep-out, the first segment is accepted for that keep-out only if it moves straight out
    /// of it (see [`moves_out`]) and ends clear of it.
    ///
    /// Expects a valid envelope ([`Envelope::validate`]). Allocates nothing when the motion
    /// passes.
    pub(crate) fn check(
        &self,
        start: Option<Point>,
        points: &[Point],
        kind: Kind,
    ) -> Result<(), Refusal> {
        let mut found = Findings::default();
        let known = match start {
            Some(s) if !is_finite(s) => {
                found.push(Found::NotFinite { point: None });
                None
            }
            s => s,
        };
        for (i, &p) in points.iter().enumerate() {
            if !is_finite(p) {
                found.push(Found::NotFinite { point: Some(i) });
                continue;
            }
            self.check_point(i, p, &mut found);
            let from = if i == 0 { known } else { Some(points[i - 1]) };
            if let Some(a) = from
                && is_finite(a)
            {
                self.check_segment(i, a, p, &mut found);
            }
        }
        if found.total == 0 {
            Ok(())
        } else {
            Err(Refusal::new(self, start, points, kind, found))
        }
    }

    /// Point `i`'s ball against every allow shape and keep-out.
    fn check_point(&self, i: usize, p: Point, found: &mut Findings) {
        let r = self.tool_radius;
        for (k, shape) in self.allow.iter().enumerate() {
            if !shape.solid.contains_ball(p, r) {
                found.push(Found::OutsideAllow { shape: k, point: i });
            }
        }
        for (k, shape) in self.keep_out.iter().enumerate() {
            let distance = shape.solid.distance(p);
            if within(distance, r) {
                found.push(Found::InKeepOut {
                    shape: k,
                    point: i,
                    distance,
                });
            }
        }
    }

    /// Segment `i`, from `a` (the current position when `i == 0`) to `b`.
    fn check_segment(&self, i: usize, a: Point, b: Point, found: &mut Findings) {
        let length = norm(sub(b, a));
        if let Some(max) = self.max_step
            && (length.is_nan() || length > max)
        {
            found.push(Found::StepTooLong { segment: i, length });
        }
        let r = self.tool_radius;
        for (k, shape) in self.keep_out.iter().enumerate() {
            let solid = &shape.solid;
            let start_in = within(solid.distance(a), r);
            let end_in = within(solid.distance(b), r);
            if i == 0 && start_in {
                let out = moves_out(solid, a, b);
                if !out || end_in {
                    found.push(Found::StartInKeepOut {
                        shape: k,
                        moves_out: out,
                    });
                }
            } else if !start_in && !end_in {
                // (A waypoint within reach of the keep-out is its own problem.)
                let closest = solid.segment_distance(a, b);
                if within(closest.distance, r) {
                    found.push(Found::Crosses {
                        shape: k,
                        segment: i,
                        closest,
                    });
                }
            }
        }
    }

    /// Whether `p`'s ball passes every allow shape and keep-out (what a suggested point must).
    pub(super) fn point_ok(&self, p: Point) -> bool {
        let r = self.tool_radius;
        is_finite(p)
            && self.allow.iter().all(|s| s.solid.contains_ball(p, r))
            && self.keep_out.iter().all(|s| s.solid.distance(p) > r)
    }

    /// Whether the segment from `a` to `b` passes `max_step` and every keep-out, `a` being the
    /// current position when `from_start` (with its rule for a start within a keep-out).
    pub(super) fn segment_ok(&self, a: Point, b: Point, from_start: bool) -> bool {
        let mut found = Findings::default();
        if !is_finite(a) || !is_finite(b) {
            return false;
        }
        // Segment 0 is the one from the current position.
        self.check_segment(if from_start { 0 } else { 1 }, a, b, &mut found);
        found.total == 0
    }
}

/// Whether a distance `d` is within the tool radius `r` (touching included), or unknown (NaN):
/// a clearance that cannot be computed is no clearance.
fn within(d: f64, r: f64) -> bool {
    d.is_nan() || d <= r
}

/// Whether the segment from `a` to `b` moves straight out of `solid`: its signed distance
/// along the segment, convex (the solid is), is smallest at `a`. Measured exactly up to
/// rounding by a golden-section search (see [`golden`]), with a tolerance of `1e-9` times the
/// segment's length (the signed distance changes by at most the length times `t`, so this
/// accepts a minimiser within `1e-9` of the length from `a`) plus `1e-12` relative to the
/// start's depth, for rounding.
pub(super) fn moves_out(solid: &Solid, a: Point, b: Point) -> bool {
    let length = norm(sub(b, a));
    let start = solid.signed_distance(a);
    let along = |t: f64| solid.signed_distance(at(a, b, t));
    let (_, lowest) = golden(along, 0.0, 1.0);
    let lowest = lowest.min(along(1.0));
    let tolerance = 1e-9 * length + 1e-12 * (1.0 + start.abs());
    lowest >= start - tolerance
}
