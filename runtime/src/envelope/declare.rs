//! What a declared envelope must be ([`Envelope::validate`], worded for the developer who
//! declared it) and the box around what it allows ([`Envelope::bounding_box`]).

use std::collections::BTreeMap;

use super::refusal::clean;
use super::{Envelope, Point, Shape, Solid};
use crate::echo::echo;

/// The axes' names, by index.
const AXES: [&str; 3] = ["x", "y", "z"];

/// A shape as the developer knows it: `allow shape 0 (box `table`)`, `keep-out 1 (sphere)`.
fn label(keep_out: bool, k: usize, shape: &Shape) -> String {
    let list = if keep_out { "keep-out" } else { "allow shape" };
    match &shape.name {
        Some(name) => format!("{list} {k} ({} {})", shape.solid.kind(), echo(name)),
        None => format!("{list} {k} ({})", shape.solid.kind()),
    }
}

impl Envelope {
    /// Every problem of the declaration, worded for the developer: a box's `min` above its
    /// `max`, a negative or non-finite radius or coordinate, a cylinder's `z_min` above its
    /// `z_max`, a keep-out without a name, two shapes with one name, no allow shape, a
    /// `max_step` that is not positive, a negative `tool_radius`, and allow shapes with no room
    /// for the tool in common: each one shrunk by the tool radius, and every pair of them,
    /// exactly. (That also covers the bounding boxes: boxes that pairwise meet have a point in
    /// common. Three or more round shapes that meet pairwise and not together are not caught:
    /// that takes more than a cheap test.)
    pub(crate) fn validate(&self) -> Result<(), Vec<String>> {
        let mut problems = Vec::new();
        let r = self.tool_radius;
        if !(r >= 0.0 && r.is_finite()) {
            problems.push(format!(
                "tool_radius {r} must be a finite number, 0 (a point) or more"
            ));
        }
        if let Some(max) = self.max_step
            && !(max > 0.0 && max.is_finite())
        {
            problems.push(format!(
                "max_step {max} must be a finite number greater than 0 (leave it out for no \
                 limit)"
            ));
        }
        if self.allow.is_empty() {
            problems.push(
                "allow is empty: an envelope must allow something (a box, sphere or cylinder \
                 the tool's centre may be in)"
                    .to_owned(),
            );
        }
        let mut names: BTreeMap<&str, String> = BTreeMap::new();
        let shapes = (self.allow.iter().enumerate().map(|(k, s)| (false, k, s)))
            .chain(self.keep_out.iter().enumerate().map(|(k, s)| (true, k, s)));
        for (keep_out, k, shape) in shapes {
            let label = label(keep_out, k, shape);
            solid_problems(&label, &shape.solid, &mut problems);
            match shape.name.as_deref() {
                None if keep_out => problems.push(format!(
                    "{label} has no name: every keep-out needs one (refusals name it)"
                )),
                Some("") => problems.push(format!(
                    "{label} has an empty name: give it a name, or none{}",
                    if keep_out {
                        ""
                    } else {
                        " (keep-outs need one)"
                    }
                )),
                Some(name) => {
                    if let Some(first) = names.get(name) {
                        problems.push(format!(
                            "{first} and {label} are both named {}: shape names must be unique \
                             (refusals name them)",
                            echo(name)
                        ));
                    } else {
                        names.insert(name, label);
                    }
                }
                None => {}
            }
        }
        if problems.is_empty() {
            self.room_problems(&mut problems);
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }

    /// Allow shapes with no room in common for the tool's ball.
    fn room_problems(&self, problems: &mut Vec<String>) {
        let r = self.tool_radius;
        let tool = if r > 0.0 {
            format!(" once shrunk by the tool's {} radius", clean(r))
        } else {
            String::new()
        };
        let mut eroded = Vec::new();
        for (k, shape) in self.allow.iter().enumerate() {
            match shape.solid.eroded(r) {
                Some(solid) => eroded.push((k, solid)),
                None => problems.push(format!(
                    "{} has no room for the tool's {} radius: {}",
                    label(false, k, shape),
                    clean(r),
                    too_small(&shape.solid, r)
                )),
            }
        }
        if !problems.is_empty() {
            return;
        }
        for (i, &(j, a)) in eroded.iter().enumerate() {
            for &(k, b) in &eroded[i + 1..] {
                if !intersects(&a, &b) {
                    problems.push(format!(
                        "{} and {} have no point in common{tool}: the tool's centre must be \
                         inside every allow shape, so nothing would be allowed",
                        label(false, j, &self.allow[j]),
                        label(false, k, &self.allow[k])
                    ));
                }
            }
        }
    }

    /// The axis-aligned box around every point the tool's centre may be at: the intersection
    /// of the allow shapes' bounding boxes, each shape shrunk by the tool radius first (the
    /// same box as [`super::envelope_bounds`] of the declaration). `None` when there is no
    /// allow shape or nothing is left.
    pub(crate) fn bounding_box(&self) -> Option<(Point, Point)> {
        let mut lo = [f64::NEG_INFINITY; 3];
        let mut hi = [f64::INFINITY; 3];
        if self.allow.is_empty() {
            return None;
        }
        for shape in &self.allow {
            let (min, max) = shape.solid.eroded(self.tool_radius)?.aabb();
            for i in 0..3 {
                lo[i] = lo[i].max(min[i]);
                hi[i] = hi[i].min(max[i]);
            }
        }
        (0..3).all(|i| lo[i] <= hi[i]).then_some((lo, hi))
    }
}

/// A solid's own problems: non-finite numbers, a negative radius, a minimum above a maximum.
fn solid_problems(label: &str, solid: &Solid, problems: &mut Vec<String>) {
    let mut finite = |what: &str, axis: Option<usize>, x: f64| {
        let ok = x.is_finite();
        if !ok {
            let axis = axis.map_or(String::new(), |i| format!(" {}", AXES[i]));
            problems.push(format!(
                "{label}: {what}{axis} is not a finite number ({x})"
            ));
        }
        ok
    };
    let mut ok = true;
    let mut radius_of = None;
    match *solid {
        Solid::Box { min, max } => {
            for i in 0..3 {
                ok &= finite("min", Some(i), min[i]);
                ok &= finite("max", Some(i), max[i]);
            }
        }
        Solid::Sphere { center, radius } => {
            for (i, &c) in center.iter().enumerate() {
                finite("centre", Some(i), c);
            }
            ok &= finite("radius", None, radius);
            radius_of = Some(radius);
        }
        Solid::Cylinder {
            center,
            radius,
            z_min,
            z_max,
        } => {
            for (i, &c) in center.iter().enumerate() {
                finite("centre", Some(i), c);
            }
            ok &= finite("radius", None, radius);
            ok &= finite("z_min", None, z_min);
            ok &= finite("z_max", None, z_max);
            radius_of = Some(radius);
        }
    }
    if !ok {
        return;
    }
    if let Some(radius) = radius_of
        && radius < 0.0
    {
        problems.push(format!("{label}: radius {radius} is negative"));
    }
    match *solid {
        Solid::Box { min, max } => {
            for i in 0..3 {
                if min[i] > max[i] {
                    problems.push(format!(
                        "{label}: min {a} {} is greater than max {a} {} (the box runs from min \
                         to max on every axis)",
                        min[i],
                        max[i],
                        a = AXES[i]
                    ));
                }
            }
        }
        Solid::Cylinder { z_min, z_max, .. } if z_min > z_max => {
            problems.push(format!(
                "{label}: z_min {z_min} is greater than z_max {z_max} (the cylinder runs from \
                 z_min up to z_max)"
            ));
        }
        _ => {}
    }
}

/// Why a solid cannot hold the tool's ball of radius `r`.
fn too_small(solid: &Solid, r: f64) -> String {
    match *solid {
        Solid::Box { min, max } => {
            let spans: Vec<String> = (0..3)
                .filter(|&i| max[i] - min[i] < 2.0 * r)
                .map(|i| format!("{} on {}", clean(max[i] - min[i]), AXES[i]))
                .collect();
            format!(
                "it spans {}, less than the tool's diameter {}",
                spans.join(" and "),
                clean(2.0 * r)
            )
        }
        Solid::Sphere { radius, .. } => format!("its radius {radius} is less than {}", clean(r)),
        Solid::Cylinder {
            radius,
            z_min,
            z_max,
            ..
        } => {
            if radius < r {
                format!("its radius {radius} is less than {}", clean(r))
            } else {
                format!(
                    "its height {} is less than the tool's diameter {}",
                    clean(z_max - z_min),
                    clean(2.0 * r)
                )
            }
        }
    }
}

/// Whether two (proper) solids share a point, exactly.
fn intersects(a: &Solid, b: &Solid) -> bool {
    match (*a, *b) {
        (Solid::Sphere { center, radius }, other) | (other, Solid::Sphere { center, radius }) => {
            other.distance(center) <= radius
        }
        (Solid::Box { min: a0, max: a1 }, Solid::Box { min: b0, max: b1 }) => {
            (0..3).all(|i| a0[i] <= b1[i] && b0[i] <= a1[i])
        }
        (
            Solid::Box { min, max },
            Solid::Cylinder {
                center,
                radius,
                z_min,
                z_max,
            },
        )
        | (
            Solid::Cylinder {
                center,
                radius,
                z_min,
                z_max,
            },
            Solid::Box { min, max },
        ) => {
            let dx = (min[0] - center[0]).max(center[0] - max[0]).max(0.0);
            let dy = (min[1] - center[1]).max(center[1] - max[1]).max(0.0);
            min[2] <= z_max && z_min <= max[2] && dx.hypot(dy) <= radius
        }
        (
            Solid::Cylinder {
                center: c1,
                radius: r1,
                z_min: lo1,
                z_max: hi1,
            },
            Solid::Cylinder {
                center: c2,
                radius: r2,
                z_min: lo2,
                z_max: hi2,
            },
        ) => lo1 <= hi2 && lo2 <= hi1 && (c1[0] - c2[0]).hypot(c1[1] - c2[1]) <= r1 + r2,
    }
}
