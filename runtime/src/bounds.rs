//! The rules a declaration must meet, as the compiler names them in its errors.
//!
//! When a `#[tool]`, `#[toolbox]` or `#[derive(ToolSchema)]` declares something its types cannot
//! hold (`range` on a `String`, a parameter type without `JsonSchema`, a check that takes a
//! parameter with another type than the tool's), the error names one of these traits, at the
//! token at fault, and says how to fix it. You never implement them (toolwright does, for the
//! types that fit) and never name them; each one's documentation says when it applies.
//!
//! [`Holds`] is a condition the compiler computed (a keep-out that meets no allow shape, a range
//! whose `const` bounds leave no value): the rule holds for `Holds<true>` only.
//!
//! Where an error must show a number only the compiler's evaluation knows (a bound beyond an
//! integer type's width, the interval an envelope allows, a parameter count), it is reported as
//! a failed `const` evaluation instead, error E0080; `toolwright::reference` ("What the compiler
//! checks") lists which.

pub use crate::envelope::{
    AllowShapesOverlap, EnvelopeNumbers, KeepOutMeetsTheEnvelope, ValidSolid,
};
pub use crate::probe::{
    AcceptsError, AnArgument, CheckArgument, CheckNote, CheckOutput, DeclaredValue, Described,
    FieldType, FromStrLiteral, HeaderTarget, IntoPosition, ItemsTarget, LengthTarget,
    NonEmptyRange, OutputType, ParamType, PatternTarget, RangeTarget, SafeStopOutput, UnitTarget,
    WithinRange,
};
pub use crate::schema::{ComponentRanges, Holds, QuantityTarget};

/// A struct of joint positions with ranges of its own, checked against the robot it moves (the
/// error is at the field's `range`, the evaluation of `<T as JointRanges<Toolbox, ..>>::CHECK`).
#[cfg(feature = "robot")]
#[cfg_attr(docsrs, doc(cfg(feature = "robot")))]
pub use crate::robot::{JointRanges, RobotOf};

// Named in the notes of a few errors (a uom quantity toolwright has no unit for, a `range =
// CONST` of another type): here so that rustc prints them by this path.
#[doc(hidden)]
pub use crate::probe::Probe;
#[doc(hidden)]
pub use crate::schema::component_count;
