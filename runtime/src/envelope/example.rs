//! A point the envelope allows near a given one, for the example calls `export` writes: the
//! middle of a target's published ranges often lies in a keep-out or outside a round allow
//! shape, and an example that the envelope refuses teaches the model the wrong call.

use super::geometry::{add, norm, scale};
use super::refusal::{project, push_out};
use super::{Envelope, Point};

/// A coordinate's published bounds (`minimum`, `maximum`), each end optional.
pub(crate) type Bounds = [(Option<f64>, Option<f64>); 3];

impl Envelope {
    /// A point near `p` that the envelope allows (inside every allow shape with the tool's ball,
    /// clear of every keep-out) and that lies within `bounds`, written with as few digits as
    /// keep it so: `p` itself when it passes, else the nearest allowed point, else a point
    /// pushed clear of the keep-out it meets. `None` when none of these passes (an envelope
    /// with no room, which the toolbox's build refuses).
    pub(crate) fn example_point(&self, p: Point, bounds: &Bounds) -> Option<Point> {
        let ok = |q: Point| self.point_ok(q) && within(q, bounds);
        let clamped = clamp(p, bounds);
        if ok(clamped) {
            return Some(clamped);
        }
        let extent = self.extent();
        let mut candidates = Vec::new();
        for margin in [0.01, 0.05, 0.2].map(|k| k * extent.max(1.0)) {
            let shrink = self.tool_radius + margin;
            let Some(sets) = self
                .allow
                .iter()
                .map(|s| s.solid.eroded(shrink))
                .collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            let q = clamp(project(clamped, &sets), bounds);
            candidates.push(q);
            // Clear of the keep-outs it meets: straight out of each, then over its top.
            for k in &self.keep_out {
                let clearance = self.tool_radius + margin;
                let out = k.solid.exit_direction(q);
                candidates.extend(push_out(&k.solid, q, out, clearance));
                candidates.push([q[0], q[1], k.solid.top() + clearance]);
            }
        }
        let found = candidates.into_iter().find(|&q| ok(q))?;
        // Moved: as few digits as keep it allowed, whole hundreds, fifties, tens, .., hundredths.
        for step in [100.0, 50.0, 10.0, 5.0, 1.0, 0.1, 0.01] {
            let rounded = found.map(|c| (c / step).round() * step);
            if ok(rounded) {
                return Some(rounded);
            }
        }
        Some(found)
    }

    /// The size of the allowed region (the diagonal of its bounding box), for margins.
    fn extent(&self) -> f64 {
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        for s in &self.allow {
            let (a, b) = s.solid.aabb();
            for i in 0..3 {
                lo[i] = lo[i].min(a[i]);
                hi[i] = hi[i].max(b[i]);
            }
        }
        let d = add(hi, scale(lo, -1.0));
        if d.iter().all(|x| x.is_finite()) {
            norm(d)
        } else {
            1.0
        }
    }
}

fn within(p: Point, bounds: &Bounds) -> bool {
    p.iter()
        .zip(bounds)
        .all(|(c, (lo, hi))| lo.is_none_or(|lo| *c >= lo) && hi.is_none_or(|hi| *c <= hi))
}

fn clamp(p: Point, bounds: &Bounds) -> Point {
    let mut q = p;
    for (c, (lo, hi)) in q.iter_mut().zip(bounds) {
        if let Some(lo) = lo {
            *c = c.max(*lo);
        }
        if let Some(hi) = hi {
            *c = c.min(*hi);
        }
    }
    q
}
