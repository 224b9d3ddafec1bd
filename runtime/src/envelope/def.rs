//! What `#[toolbox(resource(.., envelope(..)))]` emits: an envelope as constant data
//! ([`EnvelopeDef`]), checked at compile time by the `const fn`s here (each mistake reported at
//! the token that made it), and turned into an [`Envelope`] when the toolbox is built.

use super::{Envelope, Shape, Solid};
use crate::schema::Msg;

/// A declared envelope, as constant data (see [`Envelope`] for what each field means).
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct EnvelopeDef {
    /// The frame the coordinates are in.
    pub frame: &'static str,
    /// The unit of every coordinate, radius and length.
    pub unit: &'static str,
    /// The radius of the ball around a tested point (`0.0`: a point).
    pub tool_radius: f64,
    /// The shapes the tool's ball must lie inside of, every one.
    pub allow: &'static [ShapeDef],
    /// The shapes the tool's ball must not meet, each named.
    pub keep_out: &'static [ShapeDef],
    /// The longest one straight motion may be.
    pub max_step: Option<f64>,
}

/// A declared shape: a solid and its name.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct ShapeDef {
    /// Its name (required on keep-outs).
    pub name: Option<&'static str>,
    /// The solid.
    pub solid: Solid,
}

impl EnvelopeDef {
    /// The envelope the toolbox checks motions against.
    pub(crate) fn to_envelope(self) -> Envelope {
        let shapes = |defs: &[ShapeDef]| {
            defs.iter()
                .map(|d| Shape {
                    name: d.name.map(str::to_owned),
                    solid: d.solid,
                })
                .collect()
        };
        Envelope {
            frame: self.frame.to_owned(),
            unit: self.unit.to_owned(),
            tool_radius: self.tool_radius,
            allow: shapes(self.allow),
            keep_out: shapes(self.keep_out),
            max_step: self.max_step,
        }
    }
}

const AXES: [&str; 3] = ["x", "y", "z"];

/// A keep-out without a name, for the compile error at its token.
#[doc(hidden)]
pub const fn keep_out_name_problem(shape: &ShapeDef) -> Option<Msg> {
    if shape.name.is_none() {
        return Some(Msg::new().str(
            "a keep-out needs a name, so that a refused motion can say what it would hit: \
             `keep_out(name = \"camera_mast\", box(..))`",
        ));
    }
    None
}

/// What is wrong with one declared shape's solid, for the compile error at its token: a
/// non-finite number, a minimum above its maximum, a negative radius.
#[doc(hidden)]
pub const fn shape_problem(shape: &ShapeDef) -> Option<Msg> {
    match shape.solid {
        Solid::Box { min, max } => {
            let mut i = 0;
            while i < 3 {
                if !min[i].is_finite() || !max[i].is_finite() {
                    return Some(Msg::new().str("this box has a coordinate that is not finite"));
                }
                if min[i] > max[i] {
                    return Some(
                        Msg::new()
                            .str("this box's `min` is above its `max` in ")
                            .str(AXES[i])
                            .str(": every `min` coordinate must be at most the `max` one"),
                    );
                }
                i += 1;
            }
            None
        }
        Solid::Sphere { center, radius } => {
            if !center[0].is_finite()
                || !center[1].is_finite()
                || !center[2].is_finite()
                || !radius.is_finite()
            {
                return Some(Msg::new().str("this sphere has a number that is not finite"));
            }
            if radius < 0.0 {
                return Some(Msg::new().str("this sphere's `radius` is negative"));
            }
            None
        }
        Solid::Cylinder {
            center,
            radius,
            z_min,
            z_max,
        } => {
            if !center[0].is_finite()
                || !center[1].is_finite()
                || !radius.is_finite()
                || !z_min.is_finite()
                || !z_max.is_finite()
            {
                return Some(Msg::new().str("this cylinder has a number that is not finite"));
            }
            if radius < 0.0 {
                return Some(Msg::new().str("this cylinder's `radius` is negative"));
            }
            if z_min > z_max {
                return Some(Msg::new().str(
                    "this cylinder's bottom is above its top: in `z = (bottom, top)`, the \
                     bottom must be at most the top",
                ));
            }
            None
        }
    }
}

/// What is wrong with a declared envelope as a whole, for the compile error at `envelope(..)`.
#[doc(hidden)]
pub const fn envelope_problem(envelope: &EnvelopeDef) -> Option<Msg> {
    if envelope.allow.is_empty() {
        return Some(Msg::new().str(
            "this envelope allows nothing: declare where the tool may be with at least one \
             `allow(box(..))`, `allow(sphere(..))` or `allow(cylinder(..))`",
        ));
    }
    if !(envelope.tool_radius >= 0.0 && envelope.tool_radius.is_finite()) {
        return Some(Msg::new().str("`tool_radius` must be a finite number, 0 or more"));
    }
    if let Some(step) = envelope.max_step
        && !(step > 0.0 && step.is_finite())
    {
        return Some(
            Msg::new()
                .str("`max_step` must be a finite number above 0 (leave it out for no limit)"),
        );
    }
    let (min, max) = envelope_bounds(envelope);
    let mut i = 0;
    while i < 3 {
        if min[i] > max[i] {
            return Some(
                Msg::new()
                    .str("the allow shapes leave no room for the tool (of `tool_radius`) in ")
                    .str(AXES[i])
                    .str(": their boxes, shrunk by the tool radius, do not overlap"),
            );
        }
        i += 1;
    }
    None
}

/// The box around every point the envelope allows the tool's centre to be at: the allow
/// shapes' bounding boxes, each shrunk by the tool radius, intersected. A published range of a
/// target coordinate must lie within it.
#[doc(hidden)]
pub const fn envelope_bounds(envelope: &EnvelopeDef) -> ([f64; 3], [f64; 3]) {
    let r = envelope.tool_radius;
    let mut lo = [f64::NEG_INFINITY; 3];
    let mut hi = [f64::INFINITY; 3];
    let mut k = 0;
    while k < envelope.allow.len() {
        let (min, max) = match envelope.allow[k].solid {
            Solid::Box { min, max } => (min, max),
            Solid::Sphere { center: c, radius } => (
                [c[0] - radius, c[1] - radius, c[2] - radius],
                [c[0] + radius, c[1] + radius, c[2] + radius],
            ),
            Solid::Cylinder {
                center: c,
                radius,
                z_min,
                z_max,
            } => (
                [c[0] - radius, c[1] - radius, z_min],
                [c[0] + radius, c[1] + radius, z_max],
            ),
        };
        let mut i = 0;
        while i < 3 {
            if min[i] + r > lo[i] {
                lo[i] = min[i] + r;
            }
            if max[i] - r < hi[i] {
                hi[i] = max[i] - r;
            }
            i += 1;
        }
        k += 1;
    }
    (lo, hi)
}

/// Whether `min..=max` (a declared range of coordinate `axis` of a target; `None`: that end is
/// not declared) promises more than the envelope allows.
#[doc(hidden)]
pub const fn range_wider(
    envelope: &EnvelopeDef,
    axis: usize,
    min: Option<f64>,
    max: Option<f64>,
) -> bool {
    let (lo, hi) = envelope_bounds(envelope);
    let below = match min {
        Some(min) => min < lo[axis],
        None => false,
    };
    let above = match max {
        Some(max) => max > hi[axis],
        None => false,
    };
    below || above
}

/// The compile error of a range wider than its envelope.
#[doc(hidden)]
pub const fn range_wider_message(axis: usize) -> Msg {
    Msg::new()
        .str("this range of the target's ")
        .str(AXES[axis])
        .str(
            " is wider than the resource's envelope allows (its allow shapes' bounding box, \
             shrunk by the tool radius): a published range must not promise what the envelope \
             refuses; narrow the range",
        )
}
