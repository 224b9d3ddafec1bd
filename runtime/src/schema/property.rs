//! Property, object and enum schemas: a type's schema plus what its declaration says.

use std::fmt::Write as _;

use schemars::generate::SchemaGenerator;
use serde_json::{Map, Value, json};

use super::declare::{Bound, EnumTagging, Field, FieldSpec, Num, Unit, Variant, VariantShape};
use super::generate::{SchemaError, TypeInfo, is_object_schema, join_path, type_schema};
use super::keys::for_each_scalar;
use super::units::{settle_unit, si_unit};

/// Appends "…, in newtons (N)." to a description.
pub(crate) fn describe_unit(description: Option<&str>, unit: Unit) -> String {
    let unit_words = if unit.words == unit.symbol {
        unit.symbol.to_owned()
    } else {
        format!("{} ({})", unit.words, unit.symbol)
    };
    match description.map(str::trim).filter(|d| !d.is_empty()) {
        Some(d) => {
            let d = d.strip_suffix('.').unwrap_or(d);
            format!("{d}, in {unit_words}.")
        }
        None => {
            let mut s = format!("In {unit_words}.");
            if let Some(first) = s.get_mut(0..1) {
                first.make_ascii_uppercase();
            }
            s
        }
    }
}

fn bound_cmp(a: &Value, b: &Value) -> std::cmp::Ordering {
    match (a.as_i64(), b.as_i64(), a.as_u64(), b.as_u64()) {
        (Some(x), Some(y), _, _) => x.cmp(&y),
        (_, _, Some(x), Some(y)) => x.cmp(&y),
        _ => {
            let (x, y) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
            x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal)
        }
    }
}

/// Applies a declared bound, keeping the tighter of it and any bound the type already carries
/// (an integer's width).
fn tighten(obj: &mut Map<String, Value>, bound: Bound, lower: bool) {
    let (incl, excl) = if lower {
        ("minimum", "exclusiveMinimum")
    } else {
        ("maximum", "exclusiveMaximum")
    };
    let new = bound.value.to_json();
    let tighter = |old: &Value| {
        let ord = bound_cmp(&new, old);
        if lower { ord.is_gt() } else { ord.is_lt() }
    };
    let existing_incl = obj.get(incl).cloned();
    let existing_excl = obj.get(excl).cloned();
    if bound.exclusive {
        let keep_old_excl = existing_excl.as_ref().is_some_and(|old| !tighter(old));
        let old_incl_tighter = existing_incl.as_ref().is_some_and(|old| {
            let ord = bound_cmp(old, &new);
            if lower { ord.is_gt() } else { ord.is_lt() }
        });
        if !keep_old_excl && !old_incl_tighter {
            obj.insert(excl.to_owned(), new);
            obj.shift_remove(incl);
        }
    } else {
        let old_excl_tighter = existing_excl.as_ref().is_some_and(|old| {
            let ord = bound_cmp(old, &new);
            if lower { !ord.is_lt() } else { !ord.is_gt() }
        });
        let old_incl_tighter = existing_incl.as_ref().is_some_and(|old| !tighter(old));
        if !old_excl_tighter && !old_incl_tighter {
            obj.insert(incl.to_owned(), new);
            obj.shift_remove(excl);
        }
    }
}

/// Folds the variant meanings of an enum schema into a property description:
/// "Gripper strategy. Options: parallel: two-finger jaw; suction: vacuum cup."
pub(super) fn describe_enum(description: &str, options: &str) -> String {
    let d = description.trim();
    let d = d.strip_suffix('.').unwrap_or(d);
    let o = options.trim();
    let o = o.strip_suffix('.').unwrap_or(o);
    format!("{d}. Options: {o}.")
}

/// The published schema of one property: the type's schema plus everything `spec` declares.
///
/// Returns the schema and whether the property is required.
pub(crate) fn property_schema(
    generator: &mut SchemaGenerator,
    spec: &FieldSpec,
    info: TypeInfo,
) -> Result<(Value, bool), SchemaError> {
    let mut schema = type_schema(generator, info).map_err(|mut e| {
        e.path = join_path(spec.name, &e.path);
        e
    })?;
    let serialize = generator.contract().is_serialize();
    if serialize && info.optional && !spec.skip_serializing_if {
        allow_null(&mut schema);
    }
    let Some(obj) = schema.as_object_mut() else {
        // `true`/`false` schemas: nothing to attach to; wrap so the declaration is not lost.
        let mut wrapper = Map::new();
        if let Some(d) = spec.description {
            wrapper.insert("description".into(), d.into());
        }
        return Ok((Value::Object(wrapper), required(spec, info, serialize)));
    };

    // A quantity (with the `uom` feature) is published in its SI unit unless one is declared.
    let unit = spec.unit.or_else(|| {
        let mut si = None;
        for_each_scalar(obj, &mut |_, _, scalar| {
            si = si.or_else(|| si_unit(scalar));
        });
        si
    });
    // A geometry type's unit goes into each component's description ("X coordinate, in
    // millimeters (mm)."), where its `x-unit` is, not into the property's.
    let components = for_each_scalar(obj, &mut |_, _, _| {});
    let type_description = obj
        .get("description")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let is_enum = obj.contains_key("enum");
    let mut description = match (spec.description, type_description) {
        (Some(d), Some(options)) if is_enum && d != options => Some(describe_enum(d, &options)),
        (Some(d), _) => Some(d.trim().to_owned()),
        (None, t) => t,
    };
    if let Some(unit) = unit.filter(|_| !components) {
        description = Some(describe_unit(description.as_deref(), unit));
    }
    if let Some(d) = description {
        obj.insert("description".into(), d.into());
    }
    for (key, v) in [("minItems", spec.min_items), ("maxItems", spec.max_items)] {
        if let Some(v) = v {
            obj.insert(key.into(), v.into());
        }
    }
    // Value constraints (unit, range, lengths, pattern) describe the scalar: on an array
    // (`Vec<f64>`, `Vec<Vec<String>>`) they apply to its items, on a geometry object (a
    // nalgebra point) to each of its components.
    let ranges = spec.component_ranges.map(|f| f());
    let mut problem = None;
    for_each_scalar(obj, &mut |index, component, scalar| {
        // After the description, wherever the type's own schema put it (a uom quantity's SI
        // unit), so a quantity publishes exactly what an `f64` with the same unit does.
        let own_unit = scalar.shift_remove("x-unit");
        if let Some(symbol) = unit.map(|u| Value::from(u.symbol)).or(own_unit) {
            scalar.insert("x-unit".into(), symbol);
        }
        if let Err(message) = settle_unit(scalar, spec.unit) {
            problem.get_or_insert(message);
        }
        let (minimum, maximum) = match &ranges {
            Some(ranges) => match ranges.get(index) {
                Some(r) => (r.minimum, r.maximum),
                None => {
                    problem.get_or_insert_with(|| {
                        let n = ranges.len();
                        let word = if n == 1 { "range" } else { "ranges" };
                        format!("`range` lists {n} {word}, fewer than the components of this type")
                    });
                    (None, None)
                }
            },
            None => (spec.minimum, spec.maximum),
        };
        if let Some(b) = minimum {
            tighten(scalar, b, true);
        }
        if let Some(b) = maximum {
            tighten(scalar, b, false);
        }
        for (key, v) in [
            ("minLength", spec.min_length),
            ("maxLength", spec.max_length),
        ] {
            if let Some(v) = v {
                scalar.insert(key.into(), v.into());
            }
        }
        if let Some(p) = spec.pattern {
            scalar.insert("pattern".into(), p.into());
        }
        if let Some(u) = unit.filter(|_| component) {
            let d = describe_unit(scalar.get("description").and_then(Value::as_str), u);
            scalar.insert("description".into(), d.into());
        }
    });
    if let Some(message) = problem {
        return Err(SchemaError {
            path: spec.name.to_owned(),
            message,
        });
    }
    if let Some(default) = spec.default {
        obj.insert("default".into(), default());
    }
    if let Some(examples) = spec.examples {
        obj.insert("examples".into(), Value::Array(examples()));
    }
    if let Some(header) = spec.header {
        mirror_in_header(obj, header);
    }
    Ok((schema, required(spec, info, serialize)))
}

/// Whether a property is in its object's `required`. An input's is unless it is an `Option` or
/// has a default. An output's is unless serde may leave it out (`skip_serializing_if`): serde
/// writes an `Option` field as `null` when it is `None`, so it is always there (its schema
/// allows `null`), and a page must not call it optional.
fn required(spec: &FieldSpec, info: TypeInfo, serialize: bool) -> bool {
    if serialize {
        !spec.skip_serializing_if
    } else {
        !info.optional && spec.default.is_none() && !spec.serde_default
    }
}

/// The largest integer a header may carry: MCP bounds integers mirrored into `Mcp-Param-*`
/// headers to those an IEEE 754 double represents exactly (2^53 − 1), as JavaScript clients read
/// them.
const HEADER_SAFE_INTEGER: i128 = (1 << 53) - 1;

/// Publishes `x-mcp-header` on a property (a string, integer or boolean: the macro checks the
/// type), and bounds an integer to what a header may carry, so the validator refuses the rest.
fn mirror_in_header(property: &mut Map<String, Value>, header: &str) {
    if property.get("type").and_then(Value::as_str) == Some("integer") {
        for (value, lower) in [(-HEADER_SAFE_INTEGER, true), (HEADER_SAFE_INTEGER, false)] {
            let bound = Bound {
                value: Num::Int(value),
                exclusive: false,
            };
            tighten(property, bound, lower);
        }
    }
    property.insert("x-mcp-header".into(), header.into());
}

/// Makes a schema accept `null` too (an `Option` on output, which serde writes as `null`).
fn allow_null(schema: &mut Value) {
    let Some(obj) = schema.as_object_mut() else {
        return;
    };
    match obj.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let t = std::mem::take(t);
            obj.insert("type".into(), json!([t, "null"]));
            if let Some(Value::Array(values)) = obj.get_mut("enum") {
                values.push(Value::Null);
            }
        }
        Some(Value::Array(types)) => {
            if !types.iter().any(|t| t == "null") {
                types.push("null".into());
            }
        }
        _ => {
            let inner = std::mem::take(obj);
            obj.insert(
                "anyOf".into(),
                json!([Value::Object(inner), {"type": "null"}]),
            );
        }
    }
}

/// Builds an object schema: `properties` in declaration order, `required`, and
/// `additionalProperties: false` unless `allow_unknown`.
pub(crate) fn object_schema(
    generator: &mut SchemaGenerator,
    description: Option<&str>,
    fields: &[Field],
    allow_unknown: bool,
) -> Result<Value, SchemaError> {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for field in fields {
        if field.info.context {
            continue;
        }
        if field.flatten {
            let inner = type_schema(generator, field.info)?;
            merge_flattened(&inner, &mut properties, &mut required).map_err(|message| {
                SchemaError {
                    path: field.spec.name.to_owned(),
                    message,
                }
            })?;
            continue;
        }
        let (schema, is_required) = property_schema(generator, &field.spec, field.info)?;
        if properties
            .insert(field.spec.name.to_owned(), schema)
            .is_some()
        {
            return Err(SchemaError {
                path: field.spec.name.to_owned(),
                message: "two properties have this name".into(),
            });
        }
        if is_required {
            required.push(Value::from(field.spec.name));
        }
    }
    let mut obj = Map::new();
    obj.insert("type".into(), "object".into());
    if let Some(d) = description.map(str::trim).filter(|d| !d.is_empty()) {
        obj.insert("description".into(), d.into());
    }
    obj.insert("properties".into(), Value::Object(properties));
    obj.insert("required".into(), Value::Array(required));
    // Inputs refuse unknown properties (and the validator enforces it); outputs stay open so a
    // server can add result fields without breaking clients that validate structuredContent.
    if !allow_unknown && generator.contract().is_deserialize() {
        obj.insert("additionalProperties".into(), false.into());
    }
    Ok(Value::Object(obj))
}

fn merge_flattened(
    inner: &Value,
    properties: &mut Map<String, Value>,
    required: &mut Vec<Value>,
) -> Result<(), String> {
    if !is_object_schema(inner) {
        return Err(
            "a flattened type must have an object schema (a struct with named fields)".into(),
        );
    }
    if let Some(Value::Object(props)) = inner.get("properties") {
        for (k, v) in props {
            if properties.insert(k.clone(), v.clone()).is_some() {
                return Err(format!("flattened property `{k}` is declared twice"));
            }
        }
    }
    if let Some(Value::Array(req)) = inner.get("required") {
        required.extend(req.iter().cloned());
    }
    Ok(())
}

/// Builds the schema of a unit-only enum: `{"type": "string", "enum": [..]}`, with the variants'
/// doc comments folded into the description ("parallel: two-finger jaw; suction: vacuum cup").
pub(crate) fn unit_enum_schema(
    type_description: Option<&str>,
    variants: &[(&'static str, Option<&'static str>)],
) -> Value {
    let mut obj = Map::new();
    obj.insert("type".into(), "string".into());
    obj.insert(
        "enum".into(),
        Value::Array(variants.iter().map(|(n, _)| Value::from(*n)).collect()),
    );
    let mut meanings = String::new();
    for (name, doc) in variants {
        if let Some(doc) = doc.map(str::trim).filter(|d| !d.is_empty()) {
            if !meanings.is_empty() {
                meanings.push_str("; ");
            }
            let doc = doc.strip_suffix('.').unwrap_or(doc);
            let _ = write!(meanings, "{name}: {doc}");
        }
    }
    if !meanings.is_empty() {
        obj.insert("description".into(), meanings.into());
    } else if let Some(d) = type_description.map(str::trim).filter(|d| !d.is_empty()) {
        obj.insert("description".into(), d.into());
    }
    Value::Object(obj)
}

/// Builds the schema of a data-carrying enum following serde's representation, as `oneOf`.
pub(crate) fn data_enum_schema(
    generator: &mut SchemaGenerator,
    type_description: Option<&str>,
    tagging: EnumTagging,
    variants: &[Variant],
) -> Result<Value, SchemaError> {
    let mut branches = Vec::new();
    for v in variants {
        let content = match &v.shape {
            VariantShape::Unit => None,
            VariantShape::Newtype(info) => {
                Some(type_schema(generator, *info).map_err(|mut e| {
                    e.path = join_path(v.name, &e.path);
                    e
                })?)
            }
            VariantShape::Struct(fields) => Some(object_schema(generator, None, fields, false)?),
        };
        let tag_schema = json!({"type": "string", "const": v.name});
        let mut branch = match (tagging, content) {
            (EnumTagging::External, None) => tag_schema,
            (EnumTagging::External, Some(c)) => json!({
                "type": "object",
                "properties": { v.name: c },
                "required": [v.name],
                "additionalProperties": false,
            }),
            (EnumTagging::Internal(tag), None) => json!({
                "type": "object",
                "properties": { tag: tag_schema },
                "required": [tag],
                "additionalProperties": false,
            }),
            (EnumTagging::Internal(tag), Some(mut c)) => {
                let Some(obj) = c
                    .as_object_mut()
                    .filter(|o| o.get("type") == Some(&json!("object")))
                else {
                    return Err(SchemaError {
                        path: v.name.to_owned(),
                        message: "an internally tagged variant must hold an object".into(),
                    });
                };
                if let Some(Value::Object(props)) = obj.get_mut("properties") {
                    props.shift_insert(0, tag.to_owned(), tag_schema);
                }
                if let Some(Value::Array(req)) = obj.get_mut("required") {
                    req.insert(0, Value::from(tag));
                }
                c
            }
            (EnumTagging::Adjacent(tag, _), None) => json!({
                "type": "object",
                "properties": { tag: tag_schema },
                "required": [tag],
                "additionalProperties": false,
            }),
            (EnumTagging::Adjacent(tag, content), Some(c)) => json!({
                "type": "object",
                "properties": { tag: tag_schema, content: c },
                "required": [tag, content],
                "additionalProperties": false,
            }),
            (EnumTagging::Untagged, None) => json!({"type": "null"}),
            (EnumTagging::Untagged, Some(c)) => c,
        };
        if let (Some(d), Some(obj)) = (v.description, branch.as_object_mut()) {
            obj.insert("description".into(), d.trim().into());
        }
        branches.push(branch);
    }
    let mut obj = Map::new();
    if let Some(d) = type_description.map(str::trim).filter(|d| !d.is_empty()) {
        obj.insert("description".into(), d.into());
    }
    let key = if tagging == EnumTagging::Untagged {
        "anyOf"
    } else {
        "oneOf"
    };
    obj.insert(key.into(), Value::Array(branches));
    Ok(Value::Object(obj))
}
