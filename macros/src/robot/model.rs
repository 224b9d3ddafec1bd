//! The reduced robot: what the expansion writes as constant data (`codegen.rs`) and the runtime
//! builds its kinematics and checks from. Everything is in metres and radians, in the frames of
//! the kinematic chain from the URDF's root link to the declared tip.

use std::path::PathBuf;

use super::capsule::Capsule;
use super::math::{Pose, V3};

/// A joint's type, as far as the chain is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Revolute,
    /// A revolute joint without position limits: its value wraps (the motion turns the short
    /// way); its range is published as `-π..=π`.
    Continuous,
    Prismatic,
}

/// A joint's enforced limits and where each came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// The enforced range (soft limits, the limits file and the margin applied).
    pub lower: f64,
    pub upper: f64,
    /// Whether the value wraps (a continuous joint the limits file gave no position limits).
    pub wraps: bool,
    /// The velocity cap (rad/s or m/s), finite and above 0.
    pub velocity: f64,
    pub acceleration: Option<f64>,
    pub deceleration: Option<f64>,
    /// Read and checked (tighten-only), not enforced: motions are trapezoidal.
    pub jerk: Option<f64>,
    /// Read and checked (tighten-only), not enforced: no dynamics.
    pub effort: Option<f64>,
    /// Where the range came from, in words.
    pub range_from: String,
    pub velocity_from: String,
    pub acceleration_from: Option<String>,
    pub deceleration_from: Option<String>,
}

/// A moving joint of the chain, in order from the base.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    pub name: String,
    pub kind: Kind,
    /// The URDF's parent and child links.
    pub parent: String,
    pub child: String,
    /// The joint's frame at zero in the previous moving joint's frame (the base's for the
    /// first): the URDF origins of the fixed joints between them folded in.
    pub origin: Pose,
    /// The unit axis in the joint's frame.
    pub axis: V3,
    /// `Some((leader, multiplier, offset))`: this joint follows joint `leader` of the chain
    /// (`multiplier · leader + offset`) and is not a parameter.
    pub mimic: Option<(usize, f64, f64)>,
    pub limits: Limits,
}

/// A link of the URDF tree, with its capsules.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    pub name: String,
    /// The URDF parent link (an index into the links).
    pub parent: Option<usize>,
    /// The chain frame the link moves with: 0 the base, `k` the frame of the `k`th moving
    /// joint.
    pub frame: usize,
    /// The link's frame in that frame (for a link hanging on a joint outside the chain, at
    /// that joint's zero).
    pub placement: Pose,
    /// In the link's frame, padded.
    pub capsules: Vec<Capsule>,
    /// For a link that hangs on a moving joint outside the chain: its capsules hold it over
    /// the whole travel of that joint (named).
    pub swept_by: Option<String>,
}

/// The tool point.
#[derive(Debug, Clone, PartialEq)]
pub struct Tip {
    pub link: String,
    /// The tool point in the tip link's frame, as declared.
    pub offset: V3,
    /// The chain frame the tip moves with, and the tool point in it.
    pub frame: usize,
    pub point: V3,
}

/// The configuration drawn and documented as home.
#[derive(Debug, Clone, PartialEq)]
pub struct Home {
    /// One value per parameter joint, in order.
    pub values: Vec<f64>,
    /// Where it came from, in words (`panda.srdf group_state "default"`).
    pub from: String,
}

/// The reduced robot.
#[derive(Debug, Clone, PartialEq)]
pub struct Robot {
    /// `<robot name>`.
    pub name: String,
    /// The URDF as declared (relative to the manifest directory) and its SHA-256, hex.
    pub urdf: String,
    pub sha256: String,
    /// The root link.
    pub base: String,
    pub joints: Vec<Joint>,
    pub links: Vec<Link>,
    pub tip: Tip,
    /// Link pairs (indices, smaller first) an SRDF disables, never checked.
    pub disabled: Vec<(usize, usize)>,
    pub home: Home,
    /// Every file read, absolute, for `include_bytes!`.
    pub files: Vec<PathBuf>,
}
