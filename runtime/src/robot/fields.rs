//! A struct of joint positions written by hand (`#[derive(ToolSchema)]`, one field per joint,
//! each with `#[param(unit = "rad", range = ..)]`) checked against the robot it moves when the
//! crate compiles: a range wider than the joint's enforced range, a missing range or another
//! unit is a compile error on the field's token, with the interval the joint allows.
//!
//! The derive cannot see the robot and the toolbox cannot see the struct's tokens, so the two
//! meet in the trait system. The derive implements [`JointRanges`] for the struct, generic over
//! the robot ([`RobotOf`]) and the joint's index, with one `const` panic per field spanned at
//! its tokens; the toolbox, for each tool whose target is a parameter of a robot resource,
//! requires `<T as JointRanges<Toolbox, I, K>>::CHECK` for each joint `K` of robot `I`. That
//! constant is evaluated (by `cargo check` too) with the robot known, and an error in it is
//! reported where the derive spanned it: the user's `range`. A parameter type the derive did
//! not write (a nalgebra point, a type with a hand-written `JsonSchema`) has no such impl: the
//! toolbox reaches it through `Probe`'s inherent constant and falls back to [`NoJointFields`],
//! whose check passes, and the published schema is checked when the toolbox is built.

use core::marker::PhantomData;

use super::def::{JointDef, RobotDef};
use crate::schema::Msg;

/// Robot number `I` of a toolbox's resources: its [`RobotDef`] and its resource's name.
/// Implemented by `#[toolbox]` on the toolbox's type for each `resource(.., robot(..))`.
#[doc(hidden)]
pub trait RobotOf<const I: usize> {
    /// The robot.
    const ROBOT: RobotDef;
    /// The resource's name.
    const RESOURCE: &'static str;
}

/// The compile-time check of a struct of joint positions against joint `K` (in the order of
/// the robot's joint-position type) of robot `I` of the toolbox `S`. Implemented by
/// `#[derive(ToolSchema)]` for every struct with named fields; `CHECK` fails the build, at the
/// field's `range` (or `unit`, or name), when the field named as the joint promises more than
/// the joint allows.
pub trait JointRanges<S: RobotOf<I>, const I: usize, const K: usize> {
    /// Evaluated by the toolbox for each joint.
    #[doc(hidden)]
    const CHECK: ();
}

/// A type whose fields `#[derive(ToolSchema)]` checks against a robot's joints ([`JointRanges`]).
#[doc(hidden)]
pub trait JointFields {}

/// What the toolbox checks a target's type with: `JointFieldsOf<T>` for a type the derive
/// wrote, `JointFieldsOf<NoJointFields>` for any other.
#[doc(hidden)]
pub struct JointFieldsOf<T: ?Sized>(PhantomData<fn() -> *const T>);

impl<T: ?Sized> JointFieldsOf<T> {
    /// The marker.
    pub const NEW: Self = JointFieldsOf(PhantomData);
}

/// A type without fields the derive checks: nothing to check at compile time.
#[doc(hidden)]
pub struct NoJointFields;

impl<S: RobotOf<I>, const I: usize, const K: usize> JointRanges<S, I, K> for NoJointFields {
    const CHECK: () = ();
}

/// One field of a struct of joint positions, as its `#[param]` declares it.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct JointField {
    /// Its name in the schema (serde's, on the deserialize side).
    pub name: &'static str,
    /// Its declared unit's symbol (`"rad"`, `"deg"`, `"m"`), if any.
    pub unit: Option<&'static str>,
    /// Its range's lower end, in that unit.
    pub min: Option<f64>,
    /// Its range's upper end.
    pub max: Option<f64>,
}

/// What is wrong with a field named as a joint.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JointFieldProblem {
    /// Nothing (or the field is not that joint).
    Fine,
    /// Not declared in the joint's unit.
    Unit,
    /// No range: it would accept any value.
    NoRange,
    /// Its lower end is missing or below the joint's.
    Lower,
    /// Its upper end is missing or above the joint's.
    Upper,
}

/// The parameter joint at `index` (mimics skipped).
pub(super) const fn parameter(robot: &RobotDef, index: usize) -> Option<&JointDef> {
    let mut i = 0;
    let mut k = 0;
    while i < robot.joints.len() {
        if robot.joints[i].mimic.is_none() {
            if k == index {
                return Some(&robot.joints[i]);
            }
            k += 1;
        }
        i += 1;
    }
    None
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// What is wrong with `field` as joint `joint` of `robot`: `Fine` when the field is another
/// joint's (or no joint's), or within the joint's enforced range in its unit.
#[doc(hidden)]
pub const fn joint_field_problem(
    robot: &RobotDef,
    joint: usize,
    field: &JointField,
) -> JointFieldProblem {
    let Some(j) = parameter(robot, joint) else {
        return JointFieldProblem::Fine;
    };
    if !same(j.name, field.name) {
        return JointFieldProblem::Fine;
    }
    match field.unit {
        Some(unit) if same(unit, j.kind.unit()) => {}
        _ => return JointFieldProblem::Unit,
    }
    if field.min.is_none() && field.max.is_none() {
        return JointFieldProblem::NoRange;
    }
    match field.min {
        Some(min) if min >= j.limits.lower => {}
        _ => return JointFieldProblem::Lower,
    }
    match field.max {
        Some(max) if max <= j.limits.upper => JointFieldProblem::Fine,
        _ => JointFieldProblem::Upper,
    }
}

/// The compile error of `problem` for `field` as joint `joint` of `robot` (resource
/// `resource`): what the field promises, what the joint allows in its unit (its enforced range)
/// and the range (or unit) to write.
#[doc(hidden)]
pub const fn joint_field_message(
    robot: &RobotDef,
    resource: &str,
    joint: usize,
    field: &JointField,
    problem: JointFieldProblem,
) -> Msg {
    let Some(j) = parameter(robot, joint) else {
        return Msg::new();
    };
    let unit = j.kind.unit();
    let (lower, upper) = (j.limits.lower, j.limits.upper);
    let msg = Msg::new().str("`").str(field.name).str("` ");
    let msg = match problem {
        JointFieldProblem::Unit => match field.unit {
            Some(declared) => msg.str("is declared in `").str(declared).str("`"),
            None => msg.str("has no unit"),
        },
        JointFieldProblem::NoRange => msg.str("has no range: it accepts any value"),
        JointFieldProblem::Lower => match field.min {
            Some(min) => written(msg.str("may go down to "), min).str(" ").str(unit),
            None => msg.str("has no lower end"),
        },
        JointFieldProblem::Upper | JointFieldProblem::Fine => match field.max {
            Some(max) => written(msg.str("may go up to "), max).str(" ").str(unit),
            None => msg.str("has no upper end"),
        },
    };
    let msg = msg
        .str(", but joint `")
        .str(j.name)
        .str("` of robot `")
        .str(robot.name)
        .str("` (resource `")
        .str(resource)
        .str("`) ");
    let msg = decimal(msg.str("moves from "), lower, true);
    let msg = decimal(msg.str(" to "), upper, false)
        .str(" ")
        .str(unit)
        .str(" (its enforced range: the URDF's limits, narrowed by the limits file and the margin when declared): ");
    if let JointFieldProblem::Unit = problem {
        return msg
            .str("joint positions are checked in the joint's unit; declare `unit = \"")
            .str(unit)
            .str("\"`");
    }
    let msg =
        msg.str("a published range must not promise what the robot refuses; declare `range = ");
    let msg = decimal(msg, lower, true).str("..=");
    decimal(msg, upper, false).str("` or narrower")
}

/// Appends `value` as the shortest decimal (at most 9 places) not outside it: not below a
/// `lower` end, not above an upper one, so the range it suggests lies within the joint's.
const fn decimal(msg: Msg, value: f64, lower: bool) -> Msg {
    if !value.is_finite() {
        return msg.num(value);
    }
    let mut places = 0;
    let mut scale = 1.0;
    loop {
        let digits = (value * scale).round();
        let back = digits / scale;
        let inside = if lower { back >= value } else { back <= value };
        if inside && (back - value).abs() <= 1e-9 {
            return fixed(msg, digits as i128, places);
        }
        if places == 9 {
            let digits = if lower {
                (value * scale).ceil()
            } else {
                (value * scale).floor()
            };
            return fixed(msg, digits as i128, places);
        }
        places += 1;
        scale *= 10.0;
    }
}

/// Appends `value` as a declaration writes it (at most 9 places).
const fn written(msg: Msg, value: f64) -> Msg {
    if !value.is_finite() {
        return msg.num(value);
    }
    let mut places = 0;
    let mut scale = 1.0;
    while places < 9 && ((value * scale).round() / scale - value).abs() > 1e-12 {
        places += 1;
        scale *= 10.0;
    }
    fixed(msg, (value * scale).round() as i128, places)
}

/// Appends `digits / 10^places`: `-30618, 4` as `-3.0618`, `25, 0` as `25`.
const fn fixed(msg: Msg, digits: i128, places: u32) -> Msg {
    let negative = digits < 0;
    let abs = if negative { -digits } else { digits };
    let pow = 10i128.pow(places);
    let (whole, mut frac) = (abs / pow, abs % pow);
    let mut msg = if negative { msg.str("-") } else { msg };
    msg = msg.int(whole);
    if frac == 0 {
        return msg;
    }
    let mut shown = places;
    while frac % 10 == 0 {
        frac /= 10;
        shown -= 1;
    }
    msg = msg.str(".");
    let mut lead = 10i128.pow(shown - 1);
    while frac < lead {
        msg = msg.str("0");
        lead /= 10;
    }
    msg.int(frac)
}

#[cfg(test)]
mod tests {
    use super::super::def::{JointKind, LimitsDef};
    use super::*;

    const fn joint(name: &'static str, kind: JointKind, lower: f64, upper: f64) -> JointDef {
        JointDef {
            name,
            kind,
            parent: "a",
            child: "b",
            xyz: [0.0; 3],
            quat: [0.0, 0.0, 0.0, 1.0],
            axis: [0.0, 0.0, 1.0],
            mimic: None,
            limits: LimitsDef {
                lower,
                upper,
                wraps: false,
                velocity: 1.0,
                acceleration: None,
                deceleration: None,
                jerk: None,
                effort: None,
                range_from: "test",
                velocity_from: "test",
                acceleration_from: None,
                deceleration_from: None,
            },
        }
    }

    /// An elbow whose lower end is what a margin of 0.01 leaves of -3.0718 (not a short
    /// decimal in binary), and a slide in metres.
    const ROBOT: RobotDef = RobotDef {
        name: "test",
        joints: &[
            joint("elbow", JointKind::Revolute, -3.0718 + 0.01, -0.0798),
            joint("slide", JointKind::Prismatic, 0.0, 0.25),
        ],
        ..RobotDef::UNREAD
    };

    fn field(
        name: &'static str,
        unit: &'static str,
        min: Option<f64>,
        max: Option<f64>,
    ) -> JointField {
        JointField {
            name,
            unit: Some(unit),
            min,
            max,
        }
    }

    fn problem(k: usize, f: &JointField) -> (JointFieldProblem, String) {
        let p = joint_field_problem(&ROBOT, k, f);
        (
            p,
            joint_field_message(&ROBOT, "arm", k, f, p)
                .as_str()
                .to_owned(),
        )
    }

    #[test]
    fn a_range_within_the_joint_passes_and_another_joint_s_field_is_not_its_business() {
        let within = field("elbow", "rad", Some(-3.0), Some(-0.1));
        assert_eq!(
            joint_field_problem(&ROBOT, 0, &within),
            JointFieldProblem::Fine
        );
        // The joint's own range, as the message suggests writing it, passes too.
        let own = field("elbow", "rad", Some(-3.0618), Some(-0.0798));
        assert_eq!(
            joint_field_problem(&ROBOT, 0, &own),
            JointFieldProblem::Fine
        );
        // Joint 1 is `slide`: the field `elbow` is checked against joint 0 only.
        let wide = field("elbow", "rad", Some(-4.0), Some(4.0));
        assert_eq!(
            joint_field_problem(&ROBOT, 1, &wide),
            JointFieldProblem::Fine
        );
        assert_eq!(
            joint_field_problem(&ROBOT, 7, &wide),
            JointFieldProblem::Fine
        );
    }

    #[test]
    fn each_problem_says_what_the_joint_allows_and_what_to_write() {
        let (p, msg) = problem(0, &field("elbow", "rad", Some(-3.0), Some(0.5)));
        assert_eq!(p, JointFieldProblem::Upper);
        assert_eq!(
            msg,
            "`elbow` may go up to 0.5 rad, but joint `elbow` of robot `test` (resource `arm`) \
             moves from -3.0618 to -0.0798 rad (its enforced range: the URDF's limits, narrowed \
             by the limits file and the margin when declared): a published range must not \
             promise what the robot refuses; declare `range = -3.0618..=-0.0798` or narrower"
        );
        let (p, msg) = problem(0, &field("elbow", "rad", Some(-3.1), Some(-1.0)));
        assert_eq!(p, JointFieldProblem::Lower);
        assert!(
            msg.starts_with("`elbow` may go down to -3.1 rad, but"),
            "{msg}"
        );
        let (p, msg) = problem(0, &field("elbow", "rad", None, Some(-1.0)));
        assert_eq!(p, JointFieldProblem::Lower);
        assert!(msg.starts_with("`elbow` has no lower end, but"), "{msg}");
        let (p, msg) = problem(0, &field("elbow", "rad", None, None));
        assert_eq!(p, JointFieldProblem::NoRange);
        assert!(
            msg.starts_with("`elbow` has no range: it accepts any value, but"),
            "{msg}"
        );
        let (p, msg) = problem(0, &field("elbow", "deg", Some(-10.0), Some(-5.0)));
        assert_eq!(p, JointFieldProblem::Unit);
        assert!(
            msg.starts_with("`elbow` is declared in `deg`, but"),
            "{msg}"
        );
        assert!(msg.ends_with("declare `unit = \"rad\"`"), "{msg}");
        let (p, msg) = problem(1, &field("slide", "m", Some(0.0), Some(0.3)));
        assert_eq!(p, JointFieldProblem::Upper);
        assert!(msg.contains("moves from 0 to 0.25 m"), "{msg}");
        assert!(
            msg.ends_with("declare `range = 0..=0.25` or narrower"),
            "{msg}"
        );
    }

    #[test]
    fn a_suggested_end_never_lies_outside_the_joint_s_range() {
        // Nine places at most, rounded inward: up for a lower end, down for an upper one.
        let show = |v: f64, lower: bool| decimal(Msg::new(), v, lower).as_str().to_owned();
        assert_eq!(show(-1.234_567_890_12, true), "-1.23456789");
        assert_eq!(show(1.234_567_899_9, false), "1.234567899");
        assert_eq!(show(-3.0718 + 0.01, true), "-3.0618");
        assert_eq!(show(0.000_05, true), "0.00005");
        assert_eq!(show(25.0, false), "25");
        let written = |v: f64| super::written(Msg::new(), v).as_str().to_owned();
        assert_eq!(written(2.0), "2");
        assert_eq!(written(-1.7), "-1.7");
    }
}
