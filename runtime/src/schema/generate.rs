//! Type schemas from schemars, inlined and normalized for publication.

use schemars::generate::{Contract, SchemaGenerator, SchemaSettings};
use schemars::{JsonSchema, Schema};
use serde_json::{Map, Value, json};

use super::keys::ERROR_KEY;

/// How a Rust type appears as a property: its schema, and whether it may be left out.
#[derive(Clone, Copy)]
pub struct TypeInfo {
    /// `Option<T>`: the property is optional, and the schema is `T`'s (not nullable on input).
    pub optional: bool,
    /// A [`Context`](crate::Context) parameter: filled from the call, not published.
    pub context: bool,
    /// Generates the (inner) type's schema.
    pub schema: fn(&mut SchemaGenerator) -> Schema,
}

impl TypeInfo {
    /// The information of a parameter, field or return type `T` (not a `Context`).
    pub fn of<T: JsonSchema>(optional: bool) -> Self {
        Self::made_by(optional, subschema::<T>)
    }

    /// The information of a type whose schema `schema` makes (uom quantities, nalgebra
    /// geometry, ROS messages: types that cannot implement `JsonSchema`).
    pub(crate) fn made_by(optional: bool, schema: fn(&mut SchemaGenerator) -> Schema) -> Self {
        TypeInfo {
            optional,
            context: false,
            schema,
        }
    }
}

impl std::fmt::Debug for TypeInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TypeInfo")
            .field("optional", &self.optional)
            .field("context", &self.context)
            .finish_non_exhaustive()
    }
}

/// The schema of `T` through `generator`, inlined unless `T` is recursive.
pub(crate) fn subschema<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

/// Settings of the generator used for inputs (`deserialize` contract) or outputs (`serialize`).
pub(crate) fn generator(contract: Contract) -> SchemaGenerator {
    SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
            s.contract = contract;
        })
        .into_generator()
}

/// Why a schema could not be published.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SchemaError {
    /// Where, as a path of property names (`target_position.x`).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Formats that JSON Schema 2020-12 defines; any other `format` is dropped (clients such as Ajv
/// reject unknown formats).
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

fn integer_width(format: &str) -> Option<(Value, Value)> {
    Some(match format {
        "int8" => (json!(i8::MIN), json!(i8::MAX)),
        "int16" => (json!(i16::MIN), json!(i16::MAX)),
        "int32" => (json!(i32::MIN), json!(i32::MAX)),
        "uint8" => (json!(0), json!(u8::MAX)),
        "uint16" => (json!(0), json!(u16::MAX)),
        "uint32" => (json!(0), json!(u32::MAX)),
        _ => return None,
    })
}

/// 64-bit widths exceed what a JSON number states exactly (2^53), so they publish only the
/// lower bound of unsigned types; serde still refuses values that do not fit.
fn integer_width_64(format: &str) -> Option<Value> {
    matches!(format, "uint64" | "uint").then(|| json!(0))
}

/// Cleans a schemars schema for publication, in place.
///
/// Drops `$schema` and empty `$defs`, turns integer `format`s into width bounds, drops non-standard
/// formats, and refuses any `$ref` left over (a recursive type: toolwright inlines every subschema).
pub(crate) fn normalize(schema: &mut Value) -> Result<(), SchemaError> {
    normalize_at(schema, &mut String::new())
}

fn normalize_at(schema: &mut Value, path: &mut String) -> Result<(), SchemaError> {
    let Some(obj) = schema.as_object_mut() else {
        return Ok(());
    };
    obj.shift_remove("$schema");
    // `type` first: easier to read in tools/list and diffs.
    if let Some(ty) = obj.shift_remove("type") {
        obj.shift_insert(0, "type".to_owned(), ty);
    }
    if let Some(carried) = obj.get(ERROR_KEY) {
        let inner = carried
            .get("path")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let message = carried
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or_default();
        return Err(SchemaError {
            path: join_path(path, inner),
            message: message.to_owned(),
        });
    }
    if let Some(reference) = obj.get("$ref").and_then(Value::as_str) {
        let name = reference.rsplit('/').next().unwrap_or(reference);
        return Err(SchemaError {
            path: path.clone(),
            message: format!(
                "type `{name}` refers to itself; toolwright publishes fully inlined schemas \
                 (no `$ref`), so recursive types cannot be tool parameters. Use a bounded, \
                 non-recursive type (for example a `Vec` of flat items)"
            ),
        });
    }
    for defs in ["$defs", "definitions"] {
        if obj
            .get(defs)
            .and_then(Value::as_object)
            .is_some_and(Map::is_empty)
        {
            obj.shift_remove(defs);
        }
    }
    if let Some(format) = obj.get("format").and_then(Value::as_str).map(str::to_owned) {
        if let Some((min, max)) = integer_width(&format) {
            obj.entry("minimum").or_insert(min);
            obj.entry("maximum").or_insert(max);
        } else if let Some(min) = integer_width_64(&format) {
            obj.entry("minimum").or_insert(min);
        }
        if matches!(format.as_str(), "int64" | "int" | "uint64" | "uint") {
            // schemars only sets these for widths it can state; drop u64::MAX if present.
            if obj
                .get("maximum")
                .is_some_and(|m| m.as_u64() == Some(u64::MAX))
            {
                obj.shift_remove("maximum");
            }
        }
        if !STANDARD_FORMATS.contains(&format.as_str()) {
            obj.shift_remove("format");
        }
    }
    for key in ["items", "additionalProperties", "not", "contains"] {
        if let Some(sub) = obj.get_mut(key) {
            let len = path.len();
            if key == "items" {
                path.push_str("[]");
            }
            normalize_at(sub, path)?;
            path.truncate(len);
        }
    }
    for key in ["prefixItems", "anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(subs)) = obj.get_mut(key) {
            for sub in subs {
                normalize_at(sub, path)?;
            }
        }
    }
    if let Some(Value::Object(props)) = obj.get_mut("properties") {
        for (name, sub) in props.iter_mut() {
            let len = path.len();
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(name);
            normalize_at(sub, path)?;
            path.truncate(len);
        }
    }
    if let Some(defs) = obj.get("$defs").or_else(|| obj.get("definitions")) {
        let names: Vec<&String> = defs
            .as_object()
            .map(|m| m.keys().collect())
            .unwrap_or_default();
        return Err(SchemaError {
            path: path.clone(),
            message: format!(
                "schema still has definitions ({}) after inlining; toolwright publishes \
                 fully inlined schemas",
                names
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    Ok(())
}

/// Whether a schema's root is an object schema.
pub(crate) fn is_object_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// Generates and normalizes the schema of a [`TypeInfo`].
pub(crate) fn type_schema(
    generator: &mut SchemaGenerator,
    info: TypeInfo,
) -> Result<Value, SchemaError> {
    let mut schema = (info.schema)(generator).to_value();
    normalize(&mut schema)?;
    Ok(schema)
}

/// Converts a published schema into a [`schemars::Schema`] (for `JsonSchema` impls).
pub(crate) fn to_schemars(value: Value) -> Schema {
    Schema::try_from(value).unwrap_or_else(|_| Schema::from(true))
}

/// `head.tail`, or `head[0]` for an index.
pub(super) fn join_path(head: &str, tail: &str) -> String {
    match (head.is_empty(), tail.is_empty()) {
        (true, _) => tail.to_owned(),
        (_, true) => head.to_owned(),
        _ if tail.starts_with('[') => format!("{head}{tail}"),
        _ => format!("{head}.{tail}"),
    }
}
