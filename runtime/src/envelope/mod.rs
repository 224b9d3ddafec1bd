//! Envelopes: where a robot resource (an arm) may go, declared once on the resource, published
//! in its tools' `_meta` and checked before a motion runs (and before the user is asked to
//! confirm it). This module is the model, its geometry and its checks, a leaf: it imports
//! nothing from the rest of the crate but [`crate::echo`] and `crate::schema::{Holds, Msg}` (the
//! compile-time checks' vocabulary); the macros and the call path use it.
//!
//! An [`Envelope`] is a list of *allow* shapes (the tool's centre, a ball of
//! [`Envelope::tool_radius`], must lie inside every one of them), a list of named *keep-outs*
//! (the ball must not meet any of them, touching included) and an optional longest straight
//! motion ([`Envelope::max_step`]). The shapes ([`Solid`]) are axis-aligned boxes, spheres and
//! vertical cylinders, all convex, so a straight motion (a capsule) stays inside an allow shape
//! iff both its end balls do, and meets a keep-out iff the segment's exact distance to it is
//! at most the tool radius.
//!
//! - `geometry.rs`: exact point and segment distances (closed forms, or an exact piecewise
//!   minimisation), containment, projections;
//! - `check.rs`: [`Envelope::check`], allocation-free when the motion passes;
//! - `refusal.rs`: [`Refusal`], what a refused motion is told (built only on refusal), and the
//!   suggestions it makes (each checked, as printed, before it is suggested);
//! - `declare.rs`: [`Envelope::validate`] and [`Envelope::bounding_box`];
//! - `def.rs`: the declaration as generated code writes it ([`EnvelopeDef`]) and its
//!   compile-time checks;
//! - `json.rs`: the published form ([`Envelope::to_json`], [`Envelope::from_json`]);
//! - `narrow.rs`: an operator's narrowing ([`Envelope::narrow`], [`narrow_file`]).

mod check;
mod declare;
mod def;
mod example;
mod geometry;
mod json;
mod narrow;
mod refusal;
#[cfg(test)]
mod tests;

pub use def::{
    AllowShapesOverlap, EnvelopeDef, EnvelopeNumbers, KeepOutMeetsTheEnvelope, ShapeDef,
    TargetBound, ValidSolid, allow_shapes_overlap, envelope_bounds, envelope_numbers_valid,
    keep_out_meets_the_envelope, solid_valid, target_bound_message, target_bound_outside,
};
pub(crate) use example::Bounds;
#[cfg_attr(not(feature = "cli"), allow(unused_imports))]
pub(crate) use json::parse_strict;
pub(crate) use json::suggest as closest_name;
pub(crate) use narrow::narrow_file;
#[cfg(test)]
pub(crate) use refusal::ProblemKind;
pub(crate) use refusal::Refusal;
#[cfg(feature = "robot")]
pub(crate) use refusal::clean;

/// A point (or vector) in the envelope's frame and unit: `[x, y, z]`.
pub(crate) type Point = [f64; 3];

/// A convex solid, in the envelope's frame and unit.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Solid {
    /// An axis-aligned box from `min` to `max` (each `min[i] <= max[i]`).
    Box {
        /// The corner with the smallest coordinates.
        min: Point,
        /// The corner with the largest coordinates.
        max: Point,
    },
    /// A ball.
    Sphere {
        /// Its centre.
        center: Point,
        /// Its radius (`>= 0`).
        radius: f64,
    },
    /// A vertical cylinder: its axis is parallel to z, through `center` (x, y).
    Cylinder {
        /// The axis's x and y.
        center: [f64; 2],
        /// Its radius (`>= 0`).
        radius: f64,
        /// Its bottom.
        z_min: f64,
        /// Its top (`>= z_min`).
        z_max: f64,
    },
}

/// A solid with an optional name (refusals name a shape by its name, else by kind and index).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Shape {
    /// Its name: required for keep-outs, optional for allow shapes.
    pub(crate) name: Option<String>,
    /// The solid.
    pub(crate) solid: Solid,
}

/// Where a resource may go: see the [module](self).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Envelope {
    /// The frame the coordinates are in (`base_link`), as published.
    pub(crate) frame: String,
    /// The unit of every coordinate, radius and length (`mm`), as published.
    pub(crate) unit: String,
    /// The radius of the ball around a tested point (`0`: a point).
    pub(crate) tool_radius: f64,
    /// The tool's ball must lie inside every one of these (their intersection); never empty.
    pub(crate) allow: Vec<Shape>,
    /// The tool's ball must not meet any of these (each named).
    pub(crate) keep_out: Vec<Shape>,
    /// The longest one straight motion may be (`None`: unbounded).
    pub(crate) max_step: Option<f64>,
}

/// What the checked points are, for the words of a refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// One target point ("the target").
    Target,
    /// Waypoints, in order ("waypoint 0", "waypoint 1", .. as the tool's own indices).
    Path,
}
