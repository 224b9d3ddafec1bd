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
pub use crate::schema::{
    Bound, EnumTagging, Field, FieldSpec, Num, TypeInfo, Unit, Variant, VariantShape,
};
pub use crate::toolbox::{Args, CallError, Handler, HandlerFuture, Params, ToolDef, ToolMeta};

use schemars::generate::SchemaGenerator;
use schemars::{JsonSchema, Schema};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Type-level probe for autoref specialization: `(&Probe::<T>::new()).type_info()` picks the
/// `Option<T>` impl when it applies, the general one otherwise.
pub struct Probe<T>(PhantomData<fn() -> T>);

impl<T> Probe<T> {
    /// A probe for `T`.
    pub const fn new() -> Self {
        Probe(PhantomData)
    }
}

impl<T> Default for Probe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// `Option<T>` parameters: optional, with `T`'s schema.
pub trait ParamOptional {
    /// The type whose schema is published.
    type Schema;
    /// The parameter's type.
    type Value;
    /// The parameter's type information.
    fn type_info(&self) -> TypeInfo
    where
        Self::Schema: JsonSchema;
    /// Takes the argument from a call.
    fn take_arg(&self, args: &mut Args, name: &str) -> Result<Self::Value, ()>
    where
        Self::Value: DeserializeOwned;
}

impl<T> ParamOptional for Probe<Option<T>> {
    type Schema = T;
    type Value = Option<T>;
    fn type_info(&self) -> TypeInfo
    where
        T: JsonSchema,
    {
        TypeInfo {
            optional: true,
            context: false,
            schema: crate::schema::subschema::<T>,
        }
    }
    fn take_arg(&self, args: &mut Args, name: &str) -> Result<Option<T>, ()>
    where
        Option<T>: DeserializeOwned,
    {
        args.take(name)
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
    fn type_info(&self) -> TypeInfo
    where
        Self::Schema: JsonSchema;
    /// Takes the argument from a call.
    fn take_arg(&self, args: &mut Args, name: &str) -> Result<Self::Value, ()>
    where
        Self::Value: DeserializeOwned;
}

impl<T> ParamPlain for &Probe<T> {
    type Schema = T;
    type Value = T;
    fn type_info(&self) -> TypeInfo
    where
        T: JsonSchema,
    {
        TypeInfo {
            optional: false,
            context: false,
            schema: crate::schema::subschema::<T>,
        }
    }
    fn take_arg(&self, args: &mut Args, name: &str) -> Result<T, ()>
    where
        T: DeserializeOwned,
    {
        args.take(name)
    }
}

/// `Result<T, E>` returns: `T` is the output, `E` becomes an `isError` result.
pub trait ReturnResult {
    /// The fn's return type.
    type Ret;
    /// The success type's information.
    fn output_info(&self) -> TypeInfo;
    /// Converts a returned value.
    fn output_value(&self, ret: Self::Ret) -> Result<Value, CallError>;
}

impl<T: Serialize + JsonSchema, E: Into<ToolError>> ReturnResult for Probe<Result<T, E>> {
    type Ret = Result<T, E>;
    fn output_info(&self) -> TypeInfo {
        TypeInfo {
            optional: false,
            context: false,
            schema: crate::schema::subschema::<T>,
        }
    }
    fn output_value(&self, ret: Result<T, E>) -> Result<Value, CallError> {
        match ret {
            Ok(value) => to_output(&value),
            Err(e) => Err(CallError::Tool(e.into())),
        }
    }
}

/// Any other return type: the output itself.
pub trait ReturnPlain {
    /// The fn's return type.
    type Ret;
    /// The output type's information.
    fn output_info(&self) -> TypeInfo;
    /// Converts a returned value.
    fn output_value(&self, ret: Self::Ret) -> Result<Value, CallError>;
}

impl<T: Serialize + JsonSchema> ReturnPlain for &Probe<T> {
    type Ret = T;
    fn output_info(&self) -> TypeInfo {
        TypeInfo {
            optional: false,
            context: false,
            schema: crate::schema::subschema::<T>,
        }
    }
    fn output_value(&self, ret: T) -> Result<Value, CallError> {
        to_output(&ret)
    }
}

fn to_output<T: Serialize>(value: &T) -> Result<Value, CallError> {
    serde_json::to_value(value).map_err(|e| {
        CallError::Tool(ToolError::new(format!(
            "the tool's result could not be serialized: {e}"
        )))
    })
}

/// Boxes a handler's future.
pub fn boxed<F>(future: F) -> HandlerFuture
where
    F: Future<Output = Result<Value, CallError>> + Send + 'static,
{
    Box::pin(future)
}

/// Serializes a declared default or example, typed as the parameter.
pub fn to_json<T: Serialize>(value: T) -> Value {
    serde_json::to_value(&value).unwrap_or(Value::Null)
}

/// Serializes a string-literal default or example for a parameter of type `T` (`String`, or
/// anything else built from a `&str`).
pub fn str_to_json<T: Serialize + From<&'static str>>(value: &'static str) -> Value {
    to_json(T::from(value))
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
