//! Support for generated code. Not public API: anything here may change in any release.

// A failed argument is recorded in `Args` and reported with the others; the `()` only says "stop".
#![allow(clippy::result_unit_err)]

use std::future::Future;
use std::marker::PhantomData;

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
pub use ::std::vec::Vec;

pub use crate::context::Context;
pub use crate::error::ToolError;
pub use crate::exec::rate::Rate;
pub use crate::geometry::{Components, ComponentsTarget};
pub use crate::output::{OverBudget, ResultOptions};
pub use crate::quantity::{QuantityDef, QuantityTarget, unit_fits, unit_mismatch};
pub use crate::schema::{
    Bound, ComponentRange, ComponentRanges, EnumTagging, Field, FieldSpec, NamedRanges,
    NamedRangesFallback, NamedRangesOf, Num, TypeInfo, Unit, Variant, VariantShape,
    component_count,
};
pub use crate::tasks::TaskSupport;
pub use crate::toolbox::{
    Args, Body, CallError, Handler, HandlerFuture, Params, ResourceDef, SafeStop, SafeStopResult,
    ToolDef, ToolMeta,
};
// For toolwright's own tests and benchmarks (tests/tests/differential.rs, tests/benches/validate.rs),
// which check and measure the run-time validator on its own (`Validator::compile` returns an
// `InvalidSchema`, `validate` gives `Violation`s).
pub use crate::validate::{Coercion, InvalidSchema, Validator, Violation};

use schemars::generate::SchemaGenerator;
use schemars::{JsonSchema, Schema};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

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
/// impl and the error names the missing trait (one error per trait, at the user's type).
pub trait ParamOptional {
    /// The type whose schema is published.
    type Schema;
    /// The parameter's type.
    type Value;
    /// The parameter's type information.
    fn type_info(&self) -> TypeInfo
    where
        Self::Schema: ParamSchema;
    /// The type information of a struct field.
    fn field_info(&self) -> TypeInfo
    where
        Self::Schema: FieldSchema;
    /// Takes the argument from a call.
    fn take_arg(&self, args: &mut Args, name: &str) -> Result<Self::Value, ()>
    where
        Self::Schema: ParamDeserialize;
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
        T: ParamSchema,
    {
        TypeInfo::of::<T>(true)
    }
    fn field_info(&self) -> TypeInfo
    where
        T: FieldSchema,
    {
        TypeInfo::of::<T>(true)
    }
    fn take_arg(&self, args: &mut Args, name: &str) -> Result<Option<T>, ()>
    where
        T: ParamDeserialize,
    {
        args.take(name)
    }
    fn value_json(&self, value: T) -> Value
    where
        T: DeclaredValue,
    {
        to_json(value)
    }
    fn str_json(&self, value: &'static str) -> Value
    where
        T: FromStrLiteral,
    {
        to_json(T::from(value))
    }
}

/// The [`Context`](crate::Context) parameter: not published, filled from the call.
pub trait ParamContext {
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
    /// The parameter's type information.
    fn type_info(self) -> TypeInfo
    where
        Self::Schema: ParamSchema;
    /// The type information of a struct field.
    fn field_info(self) -> TypeInfo
    where
        Self::Schema: FieldSchema;
    /// Takes the argument from a call.
    fn take_arg(self, args: &mut Args, name: &str) -> Result<Self::Value, ()>
    where
        Self::Value: ParamDeserialize;
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
        T: ParamSchema,
    {
        TypeInfo::of::<T>(false)
    }
    fn field_info(self) -> TypeInfo
    where
        T: FieldSchema,
    {
        TypeInfo::of::<T>(false)
    }
    fn take_arg(self, args: &mut Args, name: &str) -> Result<T, ()>
    where
        T: ParamDeserialize,
    {
        args.take(name)
    }
    fn value_json(self, value: T) -> Value
    where
        T: DeclaredValue,
    {
        to_json(value)
    }
    fn str_json(self, value: &'static str) -> Value
    where
        T: FromStrLiteral,
    {
        to_json(T::from(value))
    }
}

/// `Result<T, E>` returns: `T` is the output, `E` becomes an `isError` result.
pub trait ReturnResult {
    /// The success type.
    type Ok;
    /// The error type.
    type Err;
    /// The success type's information.
    fn output_info(&self) -> TypeInfo
    where
        Self::Ok: OutputSchema;
    /// Converts a returned value.
    fn output_value(&self, ret: Result<Self::Ok, Self::Err>) -> Result<Value, CallError>
    where
        Self::Ok: OutputSerialize,
        ToolError: AcceptsError<Self::Err>;
}

impl<T, E> ReturnResult for &Probe<Result<T, E>> {
    type Ok = T;
    type Err = E;
    fn output_info(&self) -> TypeInfo
    where
        T: OutputSchema,
    {
        TypeInfo::of::<T>(false)
    }
    fn output_value(&self, ret: Result<T, E>) -> Result<Value, CallError>
    where
        T: OutputSerialize,
        ToolError: AcceptsError<E>,
    {
        match ret {
            Ok(value) => to_output(&value),
            Err(e) => Err(CallError::Tool(ToolError::from(e))),
        }
    }
}

/// Any other return type: the output itself.
pub trait ReturnPlain {
    /// The fn's return type.
    type Ret;
    /// The output type's information.
    fn output_info(self) -> TypeInfo
    where
        Self::Ret: OutputSchema;
    /// Converts a returned value.
    fn output_value(self, ret: Self::Ret) -> Result<Value, CallError>
    where
        Self::Ret: OutputSerialize;
}

impl<T> ReturnPlain for Probe<T> {
    type Ret = T;
    fn output_info(self) -> TypeInfo
    where
        T: OutputSchema,
    {
        TypeInfo::of::<T>(false)
    }
    fn output_value(self, ret: T) -> Result<Value, CallError>
    where
        T: OutputSerialize,
    {
        to_output(&ret)
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

// ---------------------------------------------------------------------------------------------
// ROS messages (implemented in runtime/src/ros/mod.rs with the `ros` feature; without it nothing
// implements these, and generated code imports them all the same).
//
// Implemented for `Probe<T>`, `Probe<Option<T>>`, `Probe<Vec<T>>` and `Probe<Result<T, E>>` with
// `T: RosMessageType` on the impl: their `&self` methods are candidates at the first step of
// method lookup on `&Probe<_>`, before `ParamOptional`/`ReturnResult` (`&&Probe`, the autoref
// step) and `ParamPlain`/`ReturnPlain` (`Probe` by value, after the deref), and only for ROS types.

/// A ROS message parameter, field or output.
pub trait RosPlain {
    /// The message type.
    type Message;
    /// The parameter's type information.
    fn type_info(&self) -> TypeInfo;
    /// The type information of a struct field.
    fn field_info(&self) -> TypeInfo;
    /// Takes the argument from a call.
    fn take_arg(&self, args: &mut Args, name: &str) -> Result<Self::Message, ()>;
    /// A declared `default` or example.
    fn value_json(&self, value: Self::Message) -> Value;
    /// The output's type information.
    fn output_info(&self) -> TypeInfo;
    /// Serializes a returned message.
    fn output_value(&self, ret: Self::Message) -> Result<Value, CallError>;
}

/// An optional ROS message parameter or field.
pub trait RosOptional {
    /// The message type.
    type Message;
    /// The parameter's type information.
    fn type_info(&self) -> TypeInfo;
    /// The type information of a struct field.
    fn field_info(&self) -> TypeInfo;
    /// Takes the argument, if given.
    fn take_arg(&self, args: &mut Args, name: &str) -> Result<Option<Self::Message>, ()>;
    /// A declared `default` or example, typed as the message.
    fn value_json(&self, value: Self::Message) -> Value;
}

/// A list of ROS messages as a parameter, field or output.
pub trait RosList {
    /// The message type.
    type Message;
    /// The parameter's type information.
    fn type_info(&self) -> TypeInfo;
    /// The type information of a struct field.
    fn field_info(&self) -> TypeInfo;
    /// Takes the argument from a call.
    fn take_arg(&self, args: &mut Args, name: &str) -> Result<Vec<Self::Message>, ()>;
    /// A declared `default` or example.
    fn value_json(&self, value: Vec<Self::Message>) -> Value;
    /// The output's type information.
    fn output_info(&self) -> TypeInfo;
    /// Serializes the returned messages.
    fn output_value(&self, ret: Vec<Self::Message>) -> Result<Value, CallError>;
}

/// A ROS message output of a fallible tool.
pub trait RosResult {
    /// The message type.
    type Message;
    /// The error type.
    type Err;
    /// The output's type information.
    fn output_info(&self) -> TypeInfo;
    /// Serializes the message, or makes the error an `isError` result.
    fn output_value(&self, ret: Result<Self::Message, Self::Err>) -> Result<Value, CallError>
    where
        ToolError: AcceptsError<Self::Err>;
}

/// The body of an async tool (or of a sync one declared `blocking = false`): polled on the async
/// runtime.
pub fn run_async<F>(future: F) -> Body
where
    F: Future<Output = Result<Value, CallError>> + Send + 'static,
{
    Body::Async(Box::pin(future))
}

/// The body of a sync tool: run on tokio's blocking pool.
pub fn run_blocking<F>(body: F) -> Body
where
    F: FnOnce() -> Result<Value, CallError> + Send + 'static,
{
    Body::Blocking(Box::new(body))
}

/// What a safe stop may return: `()`, what it did as text (`String`, `&'static str`), or a
/// `Result` of those whose error says why it failed.
#[diagnostic::on_unimplemented(
    message = "a safe stop cannot return `{Self}`",
    label = "this method's return type is not a safe stop's",
    note = "return `()`, a `String` saying what it did (\"halted at (400, 0, 200) mm\"), or a `Result` of those whose error implements `Display`"
)]
pub trait SafeStopOutput {
    /// What the runtime reports.
    fn report(self) -> SafeStopResult;
}

impl SafeStopOutput for () {
    fn report(self) -> SafeStopResult {
        Ok(None)
    }
}

impl SafeStopOutput for String {
    fn report(self) -> SafeStopResult {
        Ok(Some(self))
    }
}

impl SafeStopOutput for &'static str {
    fn report(self) -> SafeStopResult {
        Ok(Some(self.to_owned()))
    }
}

impl<T: SafeStopOutput, E: std::fmt::Display> SafeStopOutput for Result<T, E> {
    fn report(self) -> SafeStopResult {
        self.map_err(|e| e.to_string()).and_then(T::report)
    }
}

/// An async safe stop.
pub fn safe_stop_async<F>(future: F) -> Body<SafeStopResult>
where
    F: Future + Send + 'static,
    F::Output: SafeStopOutput,
{
    Body::Async(Box::pin(async move { future.await.report() }))
}

/// A sync safe stop: run on tokio's blocking pool.
pub fn safe_stop_blocking<F, T>(stop: F) -> Body<SafeStopResult>
where
    F: FnOnce() -> T + Send + 'static,
    T: SafeStopOutput,
{
    Body::Blocking(Box::new(move || stop().report()))
}

/// Serializes a declared default or example, typed as the parameter.
pub fn to_json<T: Serialize>(value: T) -> Value {
    serde_json::to_value(&value).unwrap_or(Value::Null)
}

/// Generated under the span of a parameter's type, so a missing trait points at it.
pub const fn assert_param<T: JsonSchema + DeserializeOwned>() {}

/// Generated under the span of a field's type, so a missing trait points at it.
pub const fn assert_field<T: JsonSchema>() {}

/// The schema of a struct with named fields, for `#[derive(ToolSchema)]`.
pub fn struct_schema(
    generator: &mut SchemaGenerator,
    description: Option<&str>,
    fields: &[Field],
) -> Schema {
    reported(crate::schema::object_schema(
        generator,
        description,
        fields,
        false,
    ))
}

/// The schema of a newtype struct, for `#[derive(ToolSchema)]`.
pub fn newtype_schema(
    generator: &mut SchemaGenerator,
    description: Option<&'static str>,
    field: Field,
) -> Schema {
    let spec = FieldSpec {
        description: field.spec.description.or(description),
        ..field.spec
    };
    reported(crate::schema::property_schema(generator, &spec, field.info).map(|(s, _)| s))
}

/// The schema of a unit-only enum, for `#[derive(ToolSchema)]`.
pub fn unit_enum_schema(
    description: Option<&str>,
    variants: &[(&'static str, Option<&'static str>)],
) -> Schema {
    crate::schema::to_schemars(crate::schema::unit_enum_schema(description, variants))
}

/// The schema of a data-carrying enum, for `#[derive(ToolSchema)]`.
pub fn data_enum_schema(
    generator: &mut SchemaGenerator,
    description: Option<&str>,
    tagging: EnumTagging,
    variants: &[Variant],
) -> Schema {
    reported(crate::schema::data_enum_schema(
        generator,
        description,
        tagging,
        variants,
    ))
}

/// `JsonSchema::json_schema` cannot fail, so a problem is carried inside the schema and reported
/// with its path when the toolbox is built.
fn reported(result: Result<Value, crate::schema::SchemaError>) -> Schema {
    match result {
        Ok(v) => crate::schema::to_schemars(v),
        Err(e) => crate::schema::to_schemars(serde_json::json!({
            crate::schema::ERROR_KEY: { "path": e.path, "message": e.message }
        })),
    }
}

// ---------------------------------------------------------------------------------------------
// Compile-time checks.
//
// Generated code names these traits and functions under `quote_spanned!` at the user's token (a
// parameter's type, a `#[param]` key's value), so a missing trait or a failed `const` evaluation
// is reported there. Each trait carries `#[diagnostic::on_unimplemented]` saying how to fix it.

/// A tool parameter's type: it has a JSON Schema.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter: it does not implement `JsonSchema`",
    label = "no JSON Schema for this type",
    note = "derive it: `#[derive(toolwright::ToolSchema, serde::Deserialize)]` on `{Self}` (`ToolSchema` implements `JsonSchema` from the doc comments and `#[param]`s)"
)]
pub trait ParamSchema: JsonSchema {}
impl<T: JsonSchema + ?Sized> ParamSchema for T {}

/// A tool parameter's type: it can be deserialized from the call's arguments.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter: it does not implement `Deserialize`",
    label = "cannot be deserialized from the call's arguments",
    note = "derive it: `#[derive(toolwright::ToolSchema, serde::Deserialize)]` on `{Self}`"
)]
pub trait ParamDeserialize: DeserializeOwned {}
impl<T: DeserializeOwned> ParamDeserialize for T {}

/// The type of a field of a `#[derive(ToolSchema)]` type: it has a JSON Schema.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of a `ToolSchema` type: it does not implement `JsonSchema`",
    label = "no JSON Schema for this type",
    note = "derive it: `#[derive(toolwright::ToolSchema)]` on `{Self}`, with serde's `Serialize`/`Deserialize`"
)]
pub trait FieldSchema: JsonSchema {}
impl<T: JsonSchema + ?Sized> FieldSchema for T {}

/// A tool's output type: it has a JSON Schema (published as the `outputSchema`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's output: it does not implement `JsonSchema`",
    label = "no JSON Schema for this type",
    note = "derive it: `#[derive(toolwright::ToolSchema, serde::Serialize)]` on `{Self}`"
)]
pub trait OutputSchema: JsonSchema {}
impl<T: JsonSchema + ?Sized> OutputSchema for T {}

/// A tool's output type: it can be serialized into the result.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's output: it does not implement `Serialize`",
    label = "cannot be serialized into the tool's result",
    note = "derive it: `#[derive(toolwright::ToolSchema, serde::Serialize)]` on `{Self}`"
)]
pub trait OutputSerialize: Serialize {}
impl<T: Serialize + ?Sized> OutputSerialize for T {}

/// `ToolError` accepts the error type `E` of a tool returning `Result<T, E>`. (The bound is on
/// `ToolError`, like the `From` it requires, so this message is the one reported.)
#[diagnostic::on_unimplemented(
    message = "`{E}` cannot be a tool's error type: `toolwright::ToolError` does not implement `From<{E}>`",
    label = "the `Err` of this `Result` must convert into `ToolError`",
    note = "return `Result<T, ToolError>` and convert with `.map_err(|e| ToolError::from_error(&e))`, or implement `From<{E}> for ToolError`"
)]
pub trait AcceptsError<E>: From<E> {}
impl<E> AcceptsError<E> for ToolError where ToolError: From<E> {}

/// A declared `default` or example: it is serialized into the schema.
#[diagnostic::on_unimplemented(
    message = "a `default` or example of type `{Self}` cannot be published: `{Self}` does not implement `Serialize`",
    label = "declared here",
    note = "derive `serde::Serialize` on `{Self}`"
)]
pub trait DeclaredValue: Serialize {}
impl<T: Serialize> DeclaredValue for T {}

/// A `default` or example written as a string literal: the parameter's type is built from it.
#[diagnostic::on_unimplemented(
    message = "a string `default` or example does not fit a parameter of type `{Self}`",
    label = "`{Self}` is not a string type",
    note = "write the value as a Rust expression of the parameter's type: `default = 15.0`, `default = Mode::Fast`"
)]
pub trait FromStrLiteral: Serialize + From<&'static str> {}
impl<T: Serialize + From<&'static str>> FromStrLiteral for T {}

/// Takes every argument as one `#[param(flatten)]` struct.
#[allow(clippy::result_unit_err)]
pub fn take_flattened<T: ParamDeserialize>(args: &mut Args) -> Result<T, ()> {
    args.take_all()
}

/// A type `unit` applies to: a number, or a list of numbers (the unit applies to each item).
#[diagnostic::on_unimplemented(
    message = "`unit` needs a numeric type, and `{Self}` is not one",
    label = "`unit` on a non-numeric type",
    note = "`unit` describes integers and floats (also inside `Option` and the items of a `Vec`); for text, say what it means in the doc comment"
)]
pub trait UnitTarget {}

/// A type `min_length`/`max_length` apply to: text, or a list of texts (each item).
#[diagnostic::on_unimplemented(
    message = "`min_length`/`max_length` count the characters of a string, and `{Self}` is not a string",
    label = "length limit on a non-string type",
    note = "for numbers use `range = a..=b`; for lists use `min_items`/`max_items`"
)]
pub trait LengthTarget {}

/// A type `pattern` applies to: text, or a list of texts (each item).
#[diagnostic::on_unimplemented(
    message = "`pattern` matches strings, and `{Self}` is not a string",
    label = "`pattern` on a non-string type",
    note = "for numbers use `range = a..=b`; for a fixed set of values use a unit-only enum deriving `ToolSchema`"
)]
pub trait PatternTarget {}

/// A type `min_items`/`max_items` apply to: a list (also inside `Option`).
#[diagnostic::on_unimplemented(
    message = "`min_items`/`max_items` count the items of a list, and `{Self}` is not a list",
    label = "item limit on a non-list type",
    note = "`min_items`/`max_items` apply to `Vec<T>`, `VecDeque<T>`, `[T; N]` and sets; for numbers use `range`, for strings `min_length`/`max_length`"
)]
pub trait ItemsTarget {}

/// A type `header` applies to: what `x-mcp-header` allows, a string, an integer or a boolean (a
/// unit-only enum deriving `ToolSchema` is a string), also inside `Option`.
#[diagnostic::on_unimplemented(
    message = "`header` mirrors the argument into an HTTP header, and `{Self}` cannot be mirrored: only strings, integers and booleans can",
    label = "`header` on a `{Self}`",
    note = "MCP allows `x-mcp-header` (`Mcp-Param-*`) only on string, integer and boolean parameters, never on numbers with a fraction, lists or objects; mirror an integer instead (`#[param(unit = \"mm\", header = \"..\")] x: i64`), a unit-only enum deriving `ToolSchema`, or remove `header`"
)]
pub trait HeaderTarget {}

/// Requires `T: HeaderTarget` (generated at the `header`).
pub const fn header_target<T: HeaderTarget + ?Sized>() {}

/// Requires `T: UnitTarget` (generated at the `unit`).
pub const fn unit_target<T: UnitTarget + ?Sized>() {}
/// Requires `T: LengthTarget` (generated at `min_length`/`max_length`).
pub const fn length_target<T: LengthTarget + ?Sized>() {}
/// Requires `T: PatternTarget` (generated at the `pattern`).
pub const fn pattern_target<T: PatternTarget + ?Sized>() {}
/// Requires `T: ItemsTarget` (generated at `min_items`/`max_items`).
pub const fn items_target<T: ItemsTarget + ?Sized>() {}

/// `T` itself: generated code writes `Id<T>` so an error about `T` spans the whole key's value.
pub type Id<T> = T;

/// A type `range` applies to: a number, or a list of numbers (each item). Gives the scalar's width.
#[diagnostic::on_unimplemented(
    message = "`range` needs a numeric type, and `{Self}` is not one",
    label = "`range` on a non-numeric type",
    note = "`range` applies to integers and floats (also inside `Option` and to the items of a `Vec`); for strings use `min_length`/`max_length`, for lists `min_items`/`max_items`"
)]
pub trait RangeTarget {
    /// The scalar's name, for messages.
    const NAME: &'static str;
    /// Whether the scalar is an integer type.
    const INTEGER: bool;
    /// The smallest value of an integer scalar.
    const MIN: i128;
    /// The largest value of an integer scalar (`i128::MAX` for `u128`).
    const MAX: i128;
}

/// Requires `T: RangeTarget` (spanned at the range).
pub const fn range_target<T: RangeTarget + ?Sized>() {}

macro_rules! integers {
    ($($t:ty => $min:expr, $max:expr;)*) => {$(
        impl RangeTarget for $t {
            const NAME: &'static str = stringify!($t);
            const INTEGER: bool = true;
            const MIN: i128 = $min;
            const MAX: i128 = $max;
        }
        impl UnitTarget for $t {}
        impl HeaderTarget for $t {}
    )*};
}

integers! {
    i8 => i8::MIN as i128, i8::MAX as i128;
    i16 => i16::MIN as i128, i16::MAX as i128;
    i32 => i32::MIN as i128, i32::MAX as i128;
    i64 => i64::MIN as i128, i64::MAX as i128;
    i128 => i128::MIN, i128::MAX;
    isize => isize::MIN as i128, isize::MAX as i128;
    u8 => 0, u8::MAX as i128;
    u16 => 0, u16::MAX as i128;
    u32 => 0, u32::MAX as i128;
    u64 => 0, u64::MAX as i128;
    u128 => 0, i128::MAX;
    usize => 0, usize::MAX as i128;
    std::num::NonZeroI8 => i8::MIN as i128, i8::MAX as i128;
    std::num::NonZeroI16 => i16::MIN as i128, i16::MAX as i128;
    std::num::NonZeroI32 => i32::MIN as i128, i32::MAX as i128;
    std::num::NonZeroI64 => i64::MIN as i128, i64::MAX as i128;
    std::num::NonZeroU8 => 1, u8::MAX as i128;
    std::num::NonZeroU16 => 1, u16::MAX as i128;
    std::num::NonZeroU32 => 1, u32::MAX as i128;
    std::num::NonZeroU64 => 1, u64::MAX as i128;
    std::num::NonZeroUsize => 1, usize::MAX as i128;
}

macro_rules! floats {
    ($($t:ty),*) => {$(
        impl RangeTarget for $t {
            const NAME: &'static str = stringify!($t);
            const INTEGER: bool = false;
            const MIN: i128 = i128::MIN;
            const MAX: i128 = i128::MAX;
        }
        impl UnitTarget for $t {}
    )*};
}
floats!(f32, f64);

macro_rules! strings {
    ($($t:ty),*) => {$(
        impl LengthTarget for $t {}
        impl PatternTarget for $t {}
    )*};
}
strings!(
    String,
    str,
    char,
    std::sync::Arc<str>,
    std::rc::Rc<str>,
    Cow<'_, str>,
    std::path::PathBuf
);

/// Value constraints (`unit`, `range`, lengths, `pattern`) pass through `Option`, `Box` and the
/// items of lists, as the published schema does (runtime/src/schema.rs applies them to the
/// innermost item of arrays).
macro_rules! value_containers {
    ($($(#[$m:meta])* [$($g:tt)*] $t:ty;)*) => {$(
        impl<$($g)*> RangeTarget for $t {
            const NAME: &'static str = T::NAME;
            const INTEGER: bool = T::INTEGER;
            const MIN: i128 = T::MIN;
            const MAX: i128 = T::MAX;
        }
    )*};
}
value_containers! {
    [T: RangeTarget] Option<T>;
    [T: RangeTarget + ?Sized] Box<T>;
    [T: RangeTarget] Vec<T>;
    [T: RangeTarget] std::collections::VecDeque<T>;
    [T: RangeTarget, const N: usize] [T; N];
    [T: RangeTarget] [T];
    [T: RangeTarget, S] std::collections::HashSet<T, S>;
    [T: RangeTarget] std::collections::BTreeSet<T>;
}

macro_rules! marker_containers {
    ($($trait:ident),*) => {$(
        impl<T: $trait> $trait for Option<T> {}
        impl<T: $trait + ?Sized> $trait for Box<T> {}
        impl<T: $trait> $trait for Vec<T> {}
        impl<T: $trait> $trait for std::collections::VecDeque<T> {}
        impl<T: $trait, const N: usize> $trait for [T; N] {}
        impl<T: $trait> $trait for [T] {}
        impl<T: $trait, S> $trait for std::collections::HashSet<T, S> {}
        impl<T: $trait> $trait for std::collections::BTreeSet<T> {}
    )*};
}
marker_containers!(UnitTarget, LengthTarget, PatternTarget);

// A header carries one value: strings (`str` included, for `Box<str>`), integers (above),
// booleans, and `Option`s and `Box`es of them (an absent argument sends no header).
impl HeaderTarget for String {}
impl HeaderTarget for str {}
impl HeaderTarget for std::sync::Arc<str> {}
impl HeaderTarget for std::rc::Rc<str> {}
impl HeaderTarget for Cow<'_, str> {}
impl HeaderTarget for char {}
impl HeaderTarget for bool {}
impl<T: HeaderTarget> HeaderTarget for Option<T> {}
impl<T: HeaderTarget + ?Sized> HeaderTarget for Box<T> {}

impl<T> ItemsTarget for Vec<T> {}
impl<T> ItemsTarget for std::collections::VecDeque<T> {}
impl<T, const N: usize> ItemsTarget for [T; N] {}
impl<T> ItemsTarget for [T] {}
impl<T, S> ItemsTarget for std::collections::HashSet<T, S> {}
impl<T> ItemsTarget for std::collections::BTreeSet<T> {}
impl<T> ItemsTarget for std::collections::LinkedList<T> {}
impl<T: ItemsTarget> ItemsTarget for Option<T> {}
impl<T: ItemsTarget + ?Sized> ItemsTarget for Box<T> {}

/// The values of a `range`'s scalar type, for width checks.
#[derive(Clone, Copy)]
pub struct Width {
    /// The scalar's name.
    pub name: &'static str,
    /// Whether it is an integer type (floats take any bound).
    pub integer: bool,
    /// Smallest value.
    pub min: i128,
    /// Largest value.
    pub max: i128,
}

impl Width {
    /// No limit (a float, or a type that is not numeric: `range_target` reports that).
    pub const ANY: Width = Width {
        name: "",
        integer: false,
        min: i128::MIN,
        max: i128::MAX,
    };

    /// Whether `bound` lies outside these values: beyond an integer type's width, or not a
    /// whole number for an integer type.
    pub const fn excludes(self, bound: Num) -> bool {
        if !self.integer {
            return false;
        }
        match bound {
            Num::Int(i) => i < self.min || i > self.max,
            Num::Float(f) => f != f.floor() || f < self.min as f64 || f > self.max as f64,
        }
    }

    /// `prefix`, then the type and its values, then `suffix`.
    pub const fn message(self, prefix: &str, suffix: &str) -> Msg {
        Msg::new()
            .str(prefix)
            .str(" `")
            .str(self.name)
            .str("`, whose values are whole numbers from ")
            .int(self.min)
            .str(" to ")
            .int(self.max)
            .str(suffix)
    }
}

impl<T: RangeTarget> Probe<T> {
    /// The values of `T`'s scalar.
    pub const WIDTH: Width = Width {
        name: T::NAME,
        integer: T::INTEGER,
        min: T::MIN,
        max: T::MAX,
    };
}

/// `a > b` for declared numbers (`a >= b` when `or_equal`).
pub const fn num_above(a: Num, b: Num, or_equal: bool) -> bool {
    let (a, b) = (num_f64(a), num_f64(b));
    a > b || (or_equal && a == b)
}

const fn num_f64(n: Num) -> f64 {
    match n {
        Num::Int(i) => i as f64,
        Num::Float(f) => f,
    }
}

macro_rules! num_from {
    ($($t:ty => $v:ident),*) => {$(
        impl From<$t> for Num {
            fn from(value: $t) -> Num {
                Num::$v(value as _)
            }
        }
    )*};
}
num_from!(i8 => Int, i16 => Int, i32 => Int, i64 => Int, i128 => Int, isize => Int,
          u8 => Int, u16 => Int, u32 => Int, u64 => Int, usize => Int, f32 => Float, f64 => Float);

/// Nesting depth and property count of a type, as they appear in a tool's input: a scalar is 0
/// levels deep, each object, array or map adds one. Implemented for std types here and by
/// `#[derive(ToolSchema)]`; any other type counts as one level (see [`ProbeFallback`]).
pub trait SchemaShape {
    /// Levels of objects/arrays/maps in the type's values.
    const DEPTH: usize;
    /// Properties the type contributes when flattened into a tool's input (0 if not an object).
    const PROPERTIES: usize;
}

macro_rules! scalar_shapes {
    ($($t:ty),*) => {$(
        impl SchemaShape for $t {
            const DEPTH: usize = 0;
            const PROPERTIES: usize = 0;
        }
    )*};
}
scalar_shapes!(
    bool,
    char,
    str,
    String,
    (),
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    f32,
    f64,
    std::sync::Arc<str>,
    std::rc::Rc<str>,
    Cow<'_, str>,
    std::path::PathBuf,
    std::num::NonZeroI8,
    std::num::NonZeroI16,
    std::num::NonZeroI32,
    std::num::NonZeroI64,
    std::num::NonZeroU8,
    std::num::NonZeroU16,
    std::num::NonZeroU32,
    std::num::NonZeroU64,
    std::num::NonZeroUsize
);

impl<T: SchemaShape> SchemaShape for Option<T> {
    const DEPTH: usize = T::DEPTH;
    const PROPERTIES: usize = T::PROPERTIES;
}
impl<T: SchemaShape + ?Sized> SchemaShape for Box<T> {
    const DEPTH: usize = T::DEPTH;
    const PROPERTIES: usize = T::PROPERTIES;
}

macro_rules! list_shapes {
    ($([$($g:tt)*] $t:ty;)*) => {$(
        impl<$($g)*> SchemaShape for $t {
            const DEPTH: usize = 1 + T::DEPTH;
            const PROPERTIES: usize = 0;
        }
    )*};
}
list_shapes! {
    [T: SchemaShape] Vec<T>;
    [T: SchemaShape] std::collections::VecDeque<T>;
    [T: SchemaShape, const N: usize] [T; N];
    [T: SchemaShape] [T];
    [T: SchemaShape, S] std::collections::HashSet<T, S>;
    [T: SchemaShape] std::collections::BTreeSet<T>;
    [T: SchemaShape] std::collections::LinkedList<T>;
    [K, T: SchemaShape, S] std::collections::HashMap<K, T, S>;
    [K, T: SchemaShape] std::collections::BTreeMap<K, T>;
}

/// The depth of a type that contains itself (`#[derive(ToolSchema)]` sees the field's type name
/// the type's own): unbounded. Recursion through other types is a `const` cycle instead.
pub const RECURSIVE: usize = 1 << 20;

/// The larger of two depths (for generated `const`s).
pub const fn max(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

impl<T: SchemaShape> Probe<T> {
    /// `T`'s nesting depth.
    pub const DEPTH: usize = T::DEPTH;
    /// `T`'s property count when flattened.
    pub const PROPERTIES: usize = T::PROPERTIES;
}

impl<T: QuantityTarget> Probe<T> {
    /// What `T`'s numbers measure (a uom quantity, or a list of them), for the check of a
    /// declared `unit`.
    pub const QUANTITY: Option<&'static QuantityDef> = Some(T::QUANTITY);
}

impl<T: ComponentsTarget> Probe<T> {
    /// The components of a geometry type (or a list of them), for the check of a
    /// per-component `range = [..]`.
    pub const COMPONENTS: Components = T::COMPONENTS;
}

impl Probe<crate::Context> {
    /// A [`Context`](crate::Context) parameter is not published.
    pub const PUBLISHED: bool = false;
}

/// What `Probe::<T>::{WIDTH, DEPTH, PROPERTIES, PUBLISHED, QUANTITY, COMPONENTS}` are for types without the inherent consts
/// above (inherent consts win when their bounds hold): a type toolwright does not know (a
/// `JsonSchema` type not derived with `ToolSchema`, such as `serde_json::Value`, or a list of
/// them) counts as one level deep and adds no flattened property; every type but `Context` is
/// published.
pub trait ProbeFallback {
    /// Not a number: no width (`range_target` reports the mistake).
    const WIDTH: Width = Width::ANY;
    /// One level.
    const DEPTH: usize = 1;
    /// Unknown.
    const PROPERTIES: usize = 0;
    /// Published.
    const PUBLISHED: bool = true;
    /// Not a quantity: any `unit` fits.
    const QUANTITY: Option<&'static QuantityDef> = None;
    /// Not a geometry type: no components for a per-component `range`.
    const COMPONENTS: Components = Components::NONE;
}
impl<T> ProbeFallback for Probe<T> {}

/// A panic message built during `const` evaluation (numbers included), for checks whose outcome
/// depends on types.
pub struct Msg {
    buf: [u8; 1024],
    len: usize,
}

impl Msg {
    /// An empty message.
    pub const fn new() -> Msg {
        Msg {
            buf: [0; 1024],
            len: 0,
        }
    }

    /// Appends text (cut at 1024 bytes, on a character boundary).
    pub const fn str(mut self, s: &str) -> Msg {
        let bytes = s.as_bytes();
        if self.len + bytes.len() > self.buf.len() {
            return self;
        }
        let mut i = 0;
        while i < bytes.len() {
            self.buf[self.len] = bytes[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    /// Appends an integer in decimal.
    pub const fn int(self, value: i128) -> Msg {
        let mut digits = [0u8; 40];
        let mut n = value.unsigned_abs();
        let mut start = digits.len();
        loop {
            start -= 1;
            digits[start] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        if value < 0 {
            start -= 1;
            digits[start] = b'-';
        }
        let (_, tail) = digits.split_at(start);
        match core::str::from_utf8(tail) {
            Ok(s) => self.str(s),
            Err(_) => self,
        }
    }

    /// The message.
    pub const fn as_str(&self) -> &str {
        let (head, _) = self.buf.split_at(self.len);
        match core::str::from_utf8(head) {
            Ok(s) => s,
            Err(_) => "",
        }
    }
}

impl Default for Msg {
    fn default() -> Self {
        Self::new()
    }
}
