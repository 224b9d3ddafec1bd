//! How generated code decides by type: `Probe<T>` and autoref specialization, the compile-time
//! checks at the user's token (`checks.rs`, `shape.rs`), and the bodies of tools and safe stops
//! (`body.rs`). The generated-code facade (`crate::__private`) re-exports it.
//!
//! Generated code writes `(&Probe::<T>::new()).type_info()` (and `field_info`, `take_arg`,
//! `output_info`, `output_value`, ..) and lets method lookup pick the impl; it never matches type
//! names. Method lookup tries, in order:
//! 1. receiver `&Probe<T>`: the value-type families' methods (below), and [`ParamContext`];
//! 2. receiver `&&Probe<T>` (autoref): [`ParamOptional`], [`ReturnResult`];
//! 3. receiver `Probe<T>` (deref, by value: `Probe` is `Copy`): [`ParamPlain`], [`ReturnPlain`].
//!
//! # Value-type families
//!
//! A value-type family (uom quantities in `crate::quantity`, nalgebra geometry in
//! `crate::geometry`, ROS 2 messages in `crate::ros`) holds types whose published shape is not
//! serde's, or that cannot implement `JsonSchema`. Every family plugs in the same way:
//! - its folder, compiled only with its feature: the one registration point is the family's
//!   `mod` line in `lib.rs`;
//! - the methods of step 1 of the lookup above, on `&Probe<T>` for its types: `type_info`,
//!   `field_info`, `take_arg`, `value_json` for parameters and fields, `output_info` and
//!   `output_value` for outputs. A family of named types (uom, nalgebra) writes them as inherent
//!   methods; a family bounded by a trait of its own (ROS: `T: RosMessageType`) cannot (inherent
//!   impls of `Probe<T>` may not overlap), so it implements traits declared here (`ros.rs`) and
//!   listed in [`prelude`], which generated code imports whether or not the feature is on;
//! - its schema builders, which mark what serde's shape does not say with the private keywords
//!   of [`crate::schema::keys`] (compiled by [`crate::adapt`] and [`crate::validate`], stripped
//!   before publication), and the compile-time constants of its types
//!   ([`QuantityTarget`](crate::schema::QuantityTarget),
//!   [`ComponentsTarget`](crate::schema::ComponentsTarget)).
//!
//! A family depends only on the layers below it (schema, validate, adapt, context, the contract
//! and this module); nothing imports it but the toolbox's build.

// A failed argument is recorded in `Args` and reported with the others; the `()` only says "stop".
#![allow(clippy::result_unit_err)]

mod body;
mod checks;
#[cfg(feature = "robot")]
mod joints;
mod reach;
mod ros;
mod shape;

use std::marker::PhantomData;

use serde::Serialize;
use serde_json::Value;

pub use body::{SafeStopOutput, run_async, run_blocking, safe_stop_async, safe_stop_blocking};
pub use checks::{
    AcceptsError, AnArgument, DeclaredValue, Described, FieldType, FromStrLiteral, HeaderTarget,
    Id, ItemsTarget, LengthTarget, Marker, NonEmptyRange, OutputType, ParamType, PatternTarget,
    RangeTarget, UnitTarget, Width, WithinRange, num_above,
};
pub use reach::{CheckArgument, CheckNote, CheckOutput, IntoPosition};
pub use ros::{RosList, RosOptional, RosPlain, RosResult};

/// The lookup traits generated code brings into scope with one glob (`use
/// ::toolwright::__private::prelude::params::*`), every family's included whether or not its
/// feature is on: a family whose methods are traits adds them here, and the macros need not
/// know.
pub mod prelude {
    /// For a parameter's or a field's type information and argument.
    pub mod params {
        pub use super::super::{
            ParamContext as _, ParamOptional as _, ParamPlain as _, RosList as _, RosOptional as _,
            RosPlain as _,
        };
    }

    /// For a declared `default` or example of a parameter or field.
    pub mod values {
        pub use super::super::{
            ParamOptional as _, ParamPlain as _, RosList as _, RosOptional as _, RosPlain as _,
        };
    }

    /// For an output's type information and value.
    pub mod outputs {
        pub use super::super::{
            ReturnPlain as _, ReturnResult as _, RosList as _, RosPlain as _, RosResult as _,
        };
    }
}
#[cfg(feature = "robot")]
pub use joints::JointFieldsFallback;
pub use shape::{ProbeFallback, RECURSIVE, SchemaShape, max};

use crate::contract::{Args, CallError};
use crate::error::ToolError;
use crate::schema::TypeInfo;

/// Type-level probe for autoref specialization. Generated code writes
/// `(&Probe::<T>::new()).type_info()` (and `field_info`, `take_arg`, `output_info`, ..); method
/// lookup tries, in order:
/// 1. receiver `&Probe<T>`: uom's inherent methods (runtime/src/quantity/uom.rs), `ParamContext`,
///    and with the `ros` feature the ROS traits (`RosPlain`, `RosOptional`, `RosList`,
///    `RosResult`), whose impls require `T: RosMessageType`;
/// 2. receiver `&&Probe<T>` (autoref): `ParamOptional`, `ReturnResult`;
/// 3. receiver `Probe<T>` (deref, by value: `Probe` is `Copy`): `ParamPlain`, `ReturnPlain`.
pub struct Probe<T>(PhantomData<fn() -> T>);

impl<T> Probe<T> {
    /// A probe for `T`.
    pub const fn new() -> Self {
        Probe(PhantomData)
    }
}

// A zero-sized marker: `ParamPlain`/`ReturnPlain` take it by value through the `&Probe` that
// generated code writes.
impl<T> Clone for Probe<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Probe<T> {}

impl<T> Default for Probe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// `Option<T>` parameters: optional, with `T`'s schema.
///
/// The bounds sit on the methods, not on the impl, so a type lacking a trait still selects this
/// impl and the error names the missing trait, at the user's type. Generated code first requires
/// the bound itself, through a marker (`<_ as ParamType>::check(probe.schema_marker())`), so rustc
/// reports it once, without pointing into toolwright.
pub trait ParamOptional {
    /// The type whose schema is published.
    type Schema;
    /// The parameter's type.
    type Value;
    /// The type the checks name: the published one.
    fn schema_marker(&self) -> Marker<Self::Schema> {
        Marker::new()
    }
    /// The type a string `default` is built as.
    fn str_marker(&self) -> Marker<Self::Schema> {
        Marker::new()
    }
    /// The parameter's type information.
    fn type_info(&self) -> TypeInfo
    where
        Self::Schema: ParamType;
    /// The type information of a struct field.
    fn field_info(&self) -> TypeInfo
    where
        Self::Schema: FieldType;
    /// Takes the argument from a call.
    fn take_arg(&self, args: &mut Args, name: &str) -> Result<Self::Value, ()>
    where
        Self::Schema: ParamType;
    /// A declared `default` or example, typed as `T` (not `Option<T>`).
    fn value_json(&self, value: Self::Schema) -> Value
    where
        Self::Schema: DeclaredValue;
    /// A declared `default` or example written as a string literal.
    fn str_json(&self, value: &'static str) -> Value
    where
        Self::Schema: FromStrLiteral;
}

impl<T> ParamOptional for &Probe<Option<T>> {
    type Schema = T;
    type Value = Option<T>;
    fn type_info(&self) -> TypeInfo
    where
        T: ParamType,
    {
        T::info(true)
    }
    fn field_info(&self) -> TypeInfo
    where
        T: FieldType,
    {
        T::info(true)
    }
    fn take_arg(&self, args: &mut Args, name: &str) -> Result<Option<T>, ()>
    where
        T: ParamType,
    {
        T::take_optional(args, name)
    }
    fn value_json(&self, value: T) -> Value
    where
        T: DeclaredValue,
    {
        value.json()
    }
    fn str_json(&self, value: &'static str) -> Value
    where
        T: FromStrLiteral,
    {
        T::json(value)
    }
}

/// The [`Context`](crate::Context) parameter: not published, filled from the call.
pub trait ParamContext {
    /// Nothing to check: a `Context` is not published.
    fn schema_marker(&self) -> Marker<()> {
        Marker::new()
    }
    /// The parameter's type information.
    fn type_info(&self) -> TypeInfo;
    /// The call's context.
    fn take_arg(&self, args: &mut Args, name: &str) -> Result<crate::Context, ()>;
}

impl ParamContext for Probe<crate::Context> {
    fn type_info(&self) -> TypeInfo {
        TypeInfo {
            optional: true,
            context: true,
            schema: crate::schema::subschema::<()>,
        }
    }
    fn take_arg(&self, args: &mut Args, _name: &str) -> Result<crate::Context, ()> {
        Ok(args.context().clone())
    }
}

/// Any other parameter type: required unless defaulted.
pub trait ParamPlain {
    /// The type whose schema is published.
    type Schema;
    /// The parameter's type.
    type Value;
    /// The type the checks name.
    fn schema_marker(self) -> Marker<Self::Schema>
    where
        Self: Sized,
    {
        Marker::new()
    }
    /// The type a string `default` is built as.
    fn str_marker(self) -> Marker<Self::Schema>
    where
        Self: Sized,
    {
        Marker::new()
    }
    /// The parameter's type information.
    fn type_info(self) -> TypeInfo
    where
        Self::Schema: ParamType;
    /// The type information of a struct field.
    fn field_info(self) -> TypeInfo
    where
        Self::Schema: FieldType;
    /// Takes the argument from a call.
    fn take_arg(self, args: &mut Args, name: &str) -> Result<Self::Value, ()>
    where
        Self::Value: ParamType;
    /// A declared `default` or example, typed as the parameter.
    fn value_json(self, value: Self::Schema) -> Value
    where
        Self::Schema: DeclaredValue;
    /// A declared `default` or example written as a string literal.
    fn str_json(self, value: &'static str) -> Value
    where
        Self::Schema: FromStrLiteral;
}

impl<T> ParamPlain for Probe<T> {
    type Schema = T;
    type Value = T;
    fn type_info(self) -> TypeInfo
    where
        T: ParamType,
    {
        T::info(false)
    }
    fn field_info(self) -> TypeInfo
    where
        T: FieldType,
    {
        T::info(false)
    }
    fn take_arg(self, args: &mut Args, name: &str) -> Result<T, ()>
    where
        T: ParamType,
    {
        T::take(args, name)
    }
    fn value_json(self, value: T) -> Value
    where
        T: DeclaredValue,
    {
        value.json()
    }
    fn str_json(self, value: &'static str) -> Value
    where
        T: FromStrLiteral,
    {
        T::json(value)
    }
}

/// `Result<T, E>` returns: `T` is the output, `E` becomes an `isError` result.
pub trait ReturnResult {
    /// The success type.
    type Ok;
    /// The error type.
    type Err;
    /// The output type the checks name.
    fn output_marker(&self) -> Marker<Self::Ok> {
        Marker::new()
    }
    /// The error type the checks name.
    fn error_marker(&self) -> Marker<Self::Err> {
        Marker::new()
    }
    /// The success type's information.
    fn output_info(&self) -> TypeInfo
    where
        Self::Ok: OutputType;
    /// Converts a returned value.
    fn output_value(&self, ret: Result<Self::Ok, Self::Err>) -> Result<Value, CallError>
    where
        Self::Ok: OutputType,
        ToolError: AcceptsError<Self::Err>;
}

impl<T, E> ReturnResult for &Probe<Result<T, E>> {
    type Ok = T;
    type Err = E;
    fn output_info(&self) -> TypeInfo
    where
        T: OutputType,
    {
        T::info()
    }
    fn output_value(&self, ret: Result<T, E>) -> Result<Value, CallError>
    where
        T: OutputType,
        ToolError: AcceptsError<E>,
    {
        match ret {
            Ok(value) => value.output(),
            Err(e) => Err(CallError::Tool(ToolError::accept(e))),
        }
    }
}

/// Any other return type: the output itself.
pub trait ReturnPlain {
    /// The fn's return type.
    type Ret;
    /// The output type the checks name.
    fn output_marker(self) -> Marker<Self::Ret>
    where
        Self: Sized,
    {
        Marker::new()
    }
    /// No error type: `ToolError` itself, which it accepts.
    fn error_marker(self) -> Marker<ToolError>
    where
        Self: Sized,
    {
        Marker::new()
    }
    /// The output type's information.
    fn output_info(self) -> TypeInfo
    where
        Self::Ret: OutputType;
    /// Converts a returned value.
    fn output_value(self, ret: Self::Ret) -> Result<Value, CallError>
    where
        Self::Ret: OutputType;
}

impl<T> ReturnPlain for Probe<T> {
    type Ret = T;
    fn output_info(self) -> TypeInfo
    where
        T: OutputType,
    {
        T::info()
    }
    fn output_value(self, ret: T) -> Result<Value, CallError>
    where
        T: OutputType,
    {
        ret.output()
    }
}

/// A returned value as JSON, or a tool error saying it could not be serialized (every return
/// path: plain types, quantities, geometry, ROS messages).
pub(crate) fn to_output<T: Serialize>(value: &T) -> Result<Value, CallError> {
    serde_json::to_value(value).map_err(|e| {
        CallError::Tool(ToolError::new(format!(
            "the tool's result could not be serialized: {e}"
        )))
    })
}

/// Serializes a declared default or example, typed as the parameter.
pub fn to_json<T: Serialize>(value: T) -> Value {
    serde_json::to_value(&value).unwrap_or(Value::Null)
}

/// Takes every argument as one `#[param(flatten)]` struct. (Only `Deserialize` is asked of it:
/// a nalgebra point, which has no `JsonSchema`, is refused by the toolbox's build, in words.)
#[allow(clippy::result_unit_err)]
pub fn take_flattened<T: serde::de::DeserializeOwned>(args: &mut Args) -> Result<T, ()> {
    args.take_all()
}
