//! What `#[toolbox(resource(.., envelope(..)))]` emits: an envelope as constant data
//! ([`EnvelopeDef`]), checked at compile time by the `const fn`s here (each mistake reported at
//! the token that made it), and turned into an [`Envelope`] when the toolbox is built.
//!
//! A condition is lifted into a type (`Holds<{ solid_valid(..) }>`) and required by a rule
//! whose `#[diagnostic::on_unimplemented]` says how to fix it; only a range wider than the
//! envelope panics during `const` evaluation (E0080), because its message shows the interval the
//! envelope allows, which only the evaluation knows.

use super::{Envelope, Shape, Solid};
use crate::schema::{Holds, Msg};

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

macro_rules! rules {
    ($($(#[$doc:meta])* $rule:ident { message: $message:literal, label: $label:literal, note: $note:literal })*) => {$(
        $(#[$doc])*
        #[diagnostic::on_unimplemented(message = $message, label = $label, note = $note)]
        pub trait $rule {
            /// Requires the rule (generated code).
            #[doc(hidden)]
            const CHECK: () = ();
        }
        #[diagnostic::do_not_recommend]
        impl $rule for Holds<true> {}
    )*};
}

rules! {
    /// Every number of a shape is finite, its lower ends are at most its upper ends and its
    /// radius is not negative ([`solid_valid`]).
    ValidSolid {
        message: "this shape is not a solid",
        label: "a `min` above its `max`, a negative `radius`, or a number that is not finite",
        note: "in `box(min = (x, y, z), max = (x, y, z))` every `min` coordinate is at most the `max` one; in `cylinder(center = (x, y), radius = r, z = (bottom, top))` the bottom is at most the top; radii are 0 or more"
    }
    /// `tool_radius` is a finite number, 0 or more, and `max_step` a finite number above 0.
    EnvelopeNumbers {
        message: "`tool_radius` is a finite number, 0 or more, and `max_step` a finite number above 0",
        label: "not a length the envelope can use",
        note: "both are lengths in the envelope's unit; leave `max_step` out for no limit on one straight motion"
    }
    /// The allow shapes, each shrunk by the tool radius, leave room for the tool
    /// ([`allow_shapes_overlap`]): the tool must be inside every one at once.
    AllowShapesOverlap {
        message: "the allow shapes leave no room for the tool",
        label: "no point is inside every allow shape with the tool's ball around it",
        note: "the tool must be inside every `allow(..)` at once: make them overlap by more than the tool's diameter (`tool_radius`), or remove the one that excludes the rest"
    }
    /// A keep-out can be met by the tool ([`keep_out_meets_the_envelope`]): one that lies outside
    /// an allow shape protects nothing, almost always because of a typo in its coordinates.
    KeepOutMeetsTheEnvelope {
        message: "this keep-out lies where the envelope never lets the tool go: it protects nothing",
        label: "outside an allow shape",
        note: "the tool stays inside every `allow(..)` shape, so a keep-out outside one of them is never reached; check its coordinates (a typo?) against the allow shapes, or remove it"
    }
}

/// Whether a declared shape is a solid: finite numbers, every lower end at most its upper end,
/// a radius of 0 or more.
#[doc(hidden)]
pub const fn solid_valid(shape: &ShapeDef) -> bool {
    match shape.solid {
        Solid::Box { min, max } => {
            let mut i = 0;
            while i < 3 {
                if !min[i].is_finite() || !max[i].is_finite() || min[i] > max[i] {
                    return false;
                }
                i += 1;
            }
            true
        }
        Solid::Sphere { center, radius } => {
            center[0].is_finite()
                && center[1].is_finite()
                && center[2].is_finite()
                && radius.is_finite()
                && radius >= 0.0
        }
        Solid::Cylinder {
            center,
            radius,
            z_min,
            z_max,
        } => {
            center[0].is_finite()
                && center[1].is_finite()
                && radius.is_finite()
                && z_min.is_finite()
                && z_max.is_finite()
                && radius >= 0.0
                && z_min <= z_max
        }
    }
}

/// Whether `tool_radius` is finite and 0 or more, and `max_step` (if any) finite and above 0.
#[doc(hidden)]
pub const fn envelope_numbers_valid(envelope: &EnvelopeDef) -> bool {
    let radius_ok = envelope.tool_radius >= 0.0 && envelope.tool_radius.is_finite();
    let step_ok = match envelope.max_step {
        Some(step) => step > 0.0 && step.is_finite(),
        None => true,
    };
    radius_ok && step_ok
}

/// Whether the allow shapes' bounding boxes, each shrunk by the tool radius, overlap (the box
/// [`envelope_bounds`] is not empty). An envelope whose numbers are not valid counts as
/// overlapping: [`EnvelopeNumbers`] reports it.
#[doc(hidden)]
pub const fn allow_shapes_overlap(envelope: &EnvelopeDef) -> bool {
    if !envelope_numbers_valid(envelope) {
        return true;
    }
    let (min, max) = envelope_bounds(envelope);
    let mut i = 0;
    while i < 3 {
        if min[i] > max[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether keep-out `k` can be met by the tool's ball, as far as a sound test tells. It cannot
/// when it lies apart from one allow shape (the ball, inside that shape, never reaches it) or
/// apart from the box every allowed ball lies in ([`envelope_bounds`] grown by the tool
/// radius). "Apart" means a positive distance, so a keep-out that touches is kept. A shape that
/// is not a solid counts as met: [`ValidSolid`] reports it.
#[doc(hidden)]
pub const fn keep_out_meets_the_envelope(envelope: &EnvelopeDef, k: usize) -> bool {
    let keep_out = &envelope.keep_out[k];
    if !solid_valid(keep_out) || !envelope_numbers_valid(envelope) {
        return true;
    }
    let mut i = 0;
    while i < envelope.allow.len() {
        if !solid_valid(&envelope.allow[i]) {
            return true;
        }
        if apart(keep_out.solid, envelope.allow[i].solid) {
            return false;
        }
        i += 1;
    }
    let (lo, hi) = envelope_bounds(envelope);
    let r = envelope.tool_radius;
    let reach = Solid::Box {
        min: [lo[0] - r, lo[1] - r, lo[2] - r],
        max: [hi[0] + r, hi[1] + r, hi[2] + r],
    };
    // An empty box (no room): `AllowShapesOverlap` reports it.
    if lo[0] > hi[0] || lo[1] > hi[1] || lo[2] > hi[2] {
        return true;
    }
    !apart(keep_out.solid, reach)
}

/// Whether two solids lie at a positive distance from each other. Exact for every pair but a
/// sphere against a cylinder's rim, where the distance goes through a square root computed to
/// within a relative 1e-12 and the test leans towards "not apart".
pub(super) const fn apart(a: Solid, b: Solid) -> bool {
    match (a, b) {
        (Solid::Box { min: a0, max: a1 }, Solid::Box { min: b0, max: b1 }) => {
            let mut i = 0;
            while i < 3 {
                if a1[i] < b0[i] || b1[i] < a0[i] {
                    return true;
                }
                i += 1;
            }
            false
        }
        (Solid::Box { min, max }, Solid::Sphere { center, radius })
        | (Solid::Sphere { center, radius }, Solid::Box { min, max }) => {
            let mut d2 = 0.0;
            let mut i = 0;
            while i < 3 {
                let d = outside(center[i], min[i], max[i]);
                d2 += d * d;
                i += 1;
            }
            d2 > radius * radius
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
            if z_max < min[2] || max[2] < z_min {
                return true;
            }
            let dx = outside(center[0], min[0], max[0]);
            let dy = outside(center[1], min[1], max[1]);
            dx * dx + dy * dy > radius * radius
        }
        (
            Solid::Sphere {
                center: c1,
                radius: r1,
            },
            Solid::Sphere {
                center: c2,
                radius: r2,
            },
        ) => {
            let (dx, dy, dz) = (c1[0] - c2[0], c1[1] - c2[1], c1[2] - c2[2]);
            dx * dx + dy * dy + dz * dz > (r1 + r2) * (r1 + r2)
        }
        (
            Solid::Sphere {
                center: s,
                radius: rs,
            },
            Solid::Cylinder {
                center: c,
                radius: rc,
                z_min,
                z_max,
            },
        )
        | (
            Solid::Cylinder {
                center: c,
                radius: rc,
                z_min,
                z_max,
            },
            Solid::Sphere {
                center: s,
                radius: rs,
            },
        ) => {
            let dz = outside(s[2], z_min, z_max);
            let (dx, dy) = (s[0] - c[0], s[1] - c[1]);
            let axis2 = dx * dx + dy * dy;
            // Horizontal distance from the sphere's centre to the cylinder: past its rim, or 0.
            let dxy = if axis2 <= rc * rc {
                0.0
            } else {
                let d = sqrt(axis2) - rc;
                // Within the square root's error, lean towards "not apart".
                let slack = 1e-12 * (rc + sqrt(axis2));
                if d > slack { d - slack } else { 0.0 }
            };
            dxy * dxy + dz * dz > rs * rs
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
        ) => {
            if hi1 < lo2 || hi2 < lo1 {
                return true;
            }
            let (dx, dy) = (c1[0] - c2[0], c1[1] - c2[1]);
            dx * dx + dy * dy > (r1 + r2) * (r1 + r2)
        }
    }
}

/// How far `v` lies outside `lo..=hi` (0 inside).
const fn outside(v: f64, lo: f64, hi: f64) -> f64 {
    if v < lo {
        lo - v
    } else if v > hi {
        v - hi
    } else {
        0.0
    }
}

/// The square root of `x >= 0` by Newton's method from above, to within a relative 1e-15 (the
/// standard library's is not `const`).
pub(super) const fn sqrt(x: f64) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return if x > 0.0 { x } else { 0.0 };
    }
    // A start above the root: halving the exponent.
    let mut y = f64::from_bits((x.to_bits() >> 1) + (1023u64 << 51));
    while y * y < x {
        y *= 2.0;
    }
    let mut i = 0;
    while i < 64 {
        let next = 0.5 * (y + x / y);
        if next >= y {
            break;
        }
        y = next;
        i += 1;
    }
    y
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

/// One declared bound of a target parameter (a coordinate, or a point whose one range bounds
/// all three): which axes it bounds, which end, and its value in the envelope's unit.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct TargetBound {
    /// The axes it bounds (x, y, z).
    pub axes: [bool; 3],
    /// Its upper end (else its lower end).
    pub upper: bool,
    /// The bound.
    pub value: f64,
}

/// Whether `bound` lets the target go where the envelope does not: below the lowest (above the
/// highest) coordinate [`envelope_bounds`] allows on one of its axes.
#[doc(hidden)]
pub const fn target_bound_outside(envelope: &EnvelopeDef, bound: TargetBound) -> bool {
    let (lo, hi) = envelope_bounds(envelope);
    let mut i = 0;
    while i < 3 {
        if bound.axes[i] && lo[i] <= hi[i] {
            let out = if bound.upper {
                bound.value > hi[i]
            } else {
                bound.value < lo[i]
            };
            if out {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// The compile error of a bound the envelope does not allow: the parameter, the allowed
/// interval on each axis it bounds (in the envelope's unit), and the range to write.
#[doc(hidden)]
pub const fn target_bound_message(
    envelope: &EnvelopeDef,
    resource: &str,
    param: &str,
    bound: TargetBound,
) -> Msg {
    let (lo, hi) = envelope_bounds(envelope);
    let unit = envelope.unit;
    let mut msg = Msg::new()
        .str("`")
        .str(param)
        .str(if bound.upper {
            "` may go up to "
        } else {
            "` may go down to "
        })
        .num(bound.value)
        .str(" ")
        .str(unit)
        .str(", but the envelope of resource `")
        .str(resource)
        .str("` lets the tool reach ");
    // The interval on each axis this bound covers, and the widest one range within all of them.
    let (mut all_lo, mut all_hi) = (f64::NEG_INFINITY, f64::INFINITY);
    let mut first = true;
    let mut i = 0;
    while i < 3 {
        if bound.axes[i] {
            if !first {
                msg = msg.str(", ");
            }
            first = false;
            msg = msg
                .str(AXES[i])
                .str(" from ")
                .num(lo[i])
                .str(" to ")
                .num(hi[i]);
            if lo[i] > all_lo {
                all_lo = lo[i];
            }
            if hi[i] < all_hi {
                all_hi = hi[i];
            }
        }
        i += 1;
    }
    msg = msg.str(" ").str(unit);
    if envelope.tool_radius > 0.0 {
        msg = msg
            .str(" (its allow shapes less the tool radius, ")
            .num(envelope.tool_radius)
            .str(" ")
            .str(unit)
            .str(")");
    }
    msg.str(
        ": a published range must not promise what the envelope refuses; narrow it to `range = ",
    )
    .float(all_lo)
    .str("..=")
    .float(all_hi)
    .str("`")
}
