//! What `robot(..)` on a resource emits: the robot read from its URDF at compile time and
//! reduced to constant data ([`RobotDef`]), converted into the model
//! ([`Robot::new`](super::Robot::new)) when the toolbox is built (the compile-time checks of a
//! struct of joint positions against it are in `fields.rs`).

/// A robot as constant data: the chain from the URDF's root link to the tip, its moving joints
/// with their enforced limits, every link with its capsules. Metres and radians.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct RobotDef {
    /// `<robot name>`.
    pub name: &'static str,
    /// The URDF as declared (relative to the crate's manifest directory).
    pub urdf: &'static str,
    /// The URDF's SHA-256, lower-case hex.
    pub sha256: &'static str,
    /// The root link.
    pub base: &'static str,
    /// The chain's moving joints, in order from the base.
    pub joints: &'static [JointDef],
    /// Every link of the URDF.
    pub links: &'static [LinkDef],
    /// The tool point.
    pub tip: TipDef,
    /// Link pairs (indices into `links`) an SRDF says never to check.
    pub disabled: &'static [[u16; 2]],
    /// The home configuration: one value per parameter joint (not mimics), in order.
    pub home: &'static [f64],
    /// Where the home configuration came from, in words.
    pub home_from: &'static str,
}

/// A joint's type.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JointKind {
    /// Turns about its axis, within its range.
    Revolute,
    /// Turns about its axis without limit: its value wraps, a motion takes the short way.
    Continuous,
    /// Slides along its axis.
    Prismatic,
}

impl JointKind {
    /// `"revolute"`, `"continuous"` or `"prismatic"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            JointKind::Revolute => "revolute",
            JointKind::Continuous => "continuous",
            JointKind::Prismatic => "prismatic",
        }
    }

    /// The unit of its position: `"rad"`, or `"m"` for a prismatic joint.
    pub const fn unit(self) -> &'static str {
        match self {
            JointKind::Prismatic => "m",
            _ => "rad",
        }
    }
}

/// A joint that follows another: `multiplier · leader + offset`.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct MimicDef {
    /// The leading joint (an index into the chain's joints).
    pub leader: u16,
    /// The factor.
    pub multiplier: f64,
    /// The offset.
    pub offset: f64,
}

/// A joint's enforced limits and where each came from.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct LimitsDef {
    /// The enforced range's lower end.
    pub lower: f64,
    /// The enforced range's upper end.
    pub upper: f64,
    /// Whether the value wraps (a continuous joint).
    pub wraps: bool,
    /// The velocity cap (rad/s or m/s).
    pub velocity: f64,
    /// The acceleration cap, when declared.
    pub acceleration: Option<f64>,
    /// The deceleration cap, when declared.
    pub deceleration: Option<f64>,
    /// The jerk cap, when declared (read, not enforced).
    pub jerk: Option<f64>,
    /// The effort cap, when declared (read, not enforced).
    pub effort: Option<f64>,
    /// Where the range came from.
    pub range_from: &'static str,
    /// Where the velocity cap came from.
    pub velocity_from: &'static str,
    /// Where the acceleration cap came from.
    pub acceleration_from: Option<&'static str>,
    /// Where the deceleration cap came from.
    pub deceleration_from: Option<&'static str>,
}

/// A moving joint of the chain.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct JointDef {
    /// Its name in the URDF.
    pub name: &'static str,
    /// Its type.
    pub kind: JointKind,
    /// The URDF's parent link.
    pub parent: &'static str,
    /// The URDF's child link.
    pub child: &'static str,
    /// Its frame at zero in the previous moving joint's frame (the base's for the first):
    /// translation.
    pub xyz: [f64; 3],
    /// .. and rotation, a unit quaternion `[x, y, z, w]`.
    pub quat: [f64; 4],
    /// Its unit axis, in its own frame.
    pub axis: [f64; 3],
    /// Whether it follows another joint (then it is not a parameter).
    pub mimic: Option<MimicDef>,
    /// Its enforced limits.
    pub limits: LimitsDef,
}

/// A capsule: the points within `radius` of the segment from `a` to `b`.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CapsuleDef {
    /// One end of its segment.
    pub a: [f64; 3],
    /// The other end.
    pub b: [f64; 3],
    /// Its radius.
    pub radius: f64,
}

/// A link.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct LinkDef {
    /// Its name in the URDF.
    pub name: &'static str,
    /// Its parent link in the URDF (an index into the links).
    pub parent: Option<u16>,
    /// The chain frame it moves with: 0 the base's, `k` the `k`th moving joint's.
    pub frame: u16,
    /// Its frame in that frame: translation ..
    pub xyz: [f64; 3],
    /// .. and rotation, `[x, y, z, w]`.
    pub quat: [f64; 4],
    /// Its capsules, in its own frame (padded).
    pub capsules: &'static [CapsuleDef],
    /// For a link hanging on a moving joint outside the chain: that joint (the capsules hold
    /// the link over its whole travel).
    pub swept_by: Option<&'static str>,
}

/// The tool point.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct TipDef {
    /// The tip link.
    pub link: &'static str,
    /// The tool point in the tip link's frame, as declared.
    pub offset: [f64; 3],
    /// The chain frame it moves with.
    pub frame: u16,
    /// The tool point in that frame.
    pub point: [f64; 3],
}

impl RobotDef {
    /// What a declaration the macro could not read expands to, beside its compile errors (so
    /// the code around it still type-checks): a robot with nothing in it.
    pub const UNREAD: RobotDef = RobotDef {
        name: "",
        urdf: "",
        sha256: "",
        base: "",
        joints: &[],
        links: &[],
        tip: TipDef {
            link: "",
            offset: [0.0; 3],
            frame: 0,
            point: [0.0; 3],
        },
        disabled: &[],
        home: &[],
        home_from: "",
    };
}
