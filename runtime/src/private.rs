//! Support for generated code. Not public API: anything here may change in any release.
//!
//! Re-exports only (a test in `layering.rs` keeps it so, and keeps every module of the crate from
//! importing it): generated code names `::toolwright::__private::*`, and each item lives in the
//! module it belongs to: the declaration vocabulary in `crate::schema`, what a tool is built from
//! in the contract, the type-directed lookup and the compile-time checks in `crate::probe`.

pub use ::core;
pub use ::rmcp;
pub use ::schemars;
pub use ::serde;
pub use ::serde_json;
pub use ::std::borrow::Cow;
pub use ::std::boxed::Box;
pub use ::std::option::Option::{self, None, Some};
pub use ::std::result::Result::{self, Err, Ok};
pub use ::std::string::String;
pub use ::std::sync::Arc;
pub use ::std::sync::OnceLock;
pub use ::std::vec::Vec;

pub use crate::context::Context;
pub use crate::contract::{
    Args, Body, CallError, Check, CheckResult, Handler, HandlerFuture, OverBudget, Params,
    Position, ResourceDef, ResultOptions, SafeStop, SafeStopResult, TargetDecl, ToolDef, ToolMeta,
};
#[cfg(feature = "robot")]
pub use crate::contract::{Joints, RobotResource};
pub use crate::envelope::{
    AllowShapesOverlap, EnvelopeDef, EnvelopeNumbers, KeepOutMeetsTheEnvelope, ShapeDef, Solid,
    TargetBound, ValidSolid, allow_shapes_overlap, envelope_bounds, envelope_numbers_valid,
    keep_out_meets_the_envelope, solid_valid, target_bound_message, target_bound_outside,
};
pub use crate::error::ToolError;
#[cfg(feature = "robot")]
pub use crate::probe::JointFieldsFallback;
pub use crate::probe::prelude;
pub use crate::probe::{
    AcceptsError, AnArgument, CheckArgument, CheckNote, CheckOutput, DeclaredValue, Described,
    FieldType, FromStrLiteral, HeaderTarget, Id, IntoPosition, ItemsTarget, LengthTarget, Marker,
    NonEmptyRange, OutputType, ParamContext, ParamOptional, ParamPlain, ParamType, PatternTarget,
    Probe, ProbeFallback, RECURSIVE, RangeTarget, ReturnPlain, ReturnResult, RosList, RosOptional,
    RosPlain, RosResult, SafeStopOutput, SchemaShape, UnitTarget, Width, WithinRange, max,
    num_above, run_async, run_blocking, safe_stop_async, safe_stop_blocking, take_flattened,
    to_json,
};
pub use crate::rate::Rate;
#[cfg(feature = "robot")]
pub use crate::robot::{
    ANGLE_TOLERANCE, CapsuleDef, Cleared, JointDef, JointField, JointFieldProblem, JointFields,
    JointFieldsOf, JointKind, JointRanges, JointValues, LimitsDef, LinkDef, MimicDef,
    NoJointFields, POSITION_TOLERANCE, Refusal as RobotRefusal, Robot, RobotDef, RobotOf, Solved,
    Space, TOLERANCE, Timing, TipDef, joint_field_message, joint_field_problem, robot_tool_point,
    robot_tool_pose,
};
pub use crate::schema::derive::{
    data_enum_schema, newtype_schema, struct_schema, unit_enum_schema,
};
pub use crate::schema::{
    Bound, ComponentRange, ComponentRanges, Components, ComponentsTarget, EnumTagging, Field,
    FieldSpec, Holds, Msg, NamedRanges, NamedRangesFallback, NamedRangesOf, Num, QuantityDef,
    QuantityTarget, TypeInfo, Unit, Variant, VariantShape, component_count, unit_fits,
    unit_mismatch,
};
pub use crate::tasks::TaskSupport;
#[cfg(feature = "robot")]
pub use toolwright_macros::__robot_def;
// For toolwright's own tests and benchmarks (tests/tests/differential.rs, tests/benches/validate.rs),
// which check and measure the run-time validator on its own (`Validator::compile` returns an
// `InvalidSchema`, `validate` gives `Violation`s).
pub use crate::validate::{Coercion, InvalidSchema, Validator, Violation};
