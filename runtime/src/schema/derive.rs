//! The schemas of `#[derive(ToolSchema)]` types, as `JsonSchema::json_schema` returns them.

use schemars::Schema;
use schemars::generate::SchemaGenerator;
use serde_json::Value;

use super::{EnumTagging, Field, FieldSpec, Variant};

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
            super::keys::ERROR_KEY: { "path": e.path, "message": e.message }
        })),
    }
}
