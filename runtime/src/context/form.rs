//! The elicitation form of a type: its input schema, as toolwright publishes it, cut down to
//! what an MCP elicitation `requestedSchema` allows (a flat object of strings, numbers,
//! integers, booleans and enums). Descriptions (which carry the units), defaults and enums are
//! kept; other keywords are dropped, and the answer is checked against the full schema instead.

use rmcp::model::JsonObject;
use serde_json::{Map, Value};

/// Keywords each kind of property keeps; the others are dropped.
const STRING_KEYS: &[&str] = &[
    "type",
    "title",
    "description",
    "minLength",
    "maxLength",
    "format",
    "default",
];
const ENUM_KEYS: &[&str] = &[
    "type",
    "title",
    "description",
    "enum",
    "enumNames",
    "oneOf",
    "default",
];
const NUMBER_KEYS: &[&str] = &[
    "type",
    "title",
    "description",
    "minimum",
    "maximum",
    "default",
];
const BOOLEAN_KEYS: &[&str] = &["type", "title", "description", "default"];
const MULTI_SELECT_KEYS: &[&str] = &[
    "type",
    "title",
    "description",
    "minItems",
    "maxItems",
    "items",
    "default",
];

/// The string formats an elicitation form knows; others are dropped.
const FORMATS: &[&str] = &["email", "uri", "date", "date-time"];

/// The elicitation form for `schema`, an object schema as toolwright publishes inputs. Fails,
/// naming the field, on a property a form cannot hold (a nested object, a list that is not a
/// multi-select of enum values, a union).
pub(super) fn form_schema(schema: &Value) -> Result<JsonObject, String> {
    let root = schema
        .as_object()
        .filter(|o| o.get("type").and_then(Value::as_str) == Some("object"))
        .ok_or("a form is a struct with named fields, and this type is not one")?;
    let mut form = Map::new();
    form.insert("type".into(), "object".into());
    for key in ["title", "description"] {
        if let Some(text) = root.get(key).filter(|v| v.is_string()) {
            form.insert(key.into(), text.clone());
        }
    }
    let mut properties = Map::new();
    if let Some(props) = root.get("properties").and_then(Value::as_object) {
        for (name, property) in props {
            let converted = form_property(property)
                .map_err(|why| format!("field `{name}` {why}; a form holds only strings, numbers, integers, booleans and enums"))?;
            properties.insert(name.clone(), converted);
        }
    }
    let required: Vec<Value> = root
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|name| name.as_str().is_some_and(|n| properties.contains_key(n)))
        .cloned()
        .collect();
    form.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        form.insert("required".into(), Value::Array(required));
    }
    Ok(form)
}

/// One property of the form; the error says what the property is, after "field `x` ".
fn form_property(schema: &Value) -> Result<Value, String> {
    let obj = schema
        .as_object()
        .ok_or("accepts any value (it has no schema)")?;
    match single_type(obj) {
        Some("string") if obj.contains_key("enum") || obj.contains_key("oneOf") => {
            Ok(Value::Object(keep(obj, ENUM_KEYS)))
        }
        Some("string") => {
            let mut kept = keep(obj, STRING_KEYS);
            kept.insert("type".into(), "string".into());
            if kept
                .get("format")
                .and_then(Value::as_str)
                .is_some_and(|f| !FORMATS.contains(&f))
            {
                kept.remove("format");
            }
            for key in ["minLength", "maxLength"] {
                clamp_u32(&mut kept, key);
            }
            Ok(Value::Object(kept))
        }
        Some(kind @ ("number" | "integer")) => {
            let mut kept = keep(obj, NUMBER_KEYS);
            kept.insert("type".into(), kind.into());
            // A form states inclusive bounds only; the answer is checked against the exclusive
            // ones (an integer's is the next integer in).
            for (exclusive, inclusive, step) in [
                ("exclusiveMinimum", "minimum", 1.0),
                ("exclusiveMaximum", "maximum", -1.0),
            ] {
                if let Some(bound) = obj.get(exclusive).and_then(Value::as_f64)
                    && !kept.contains_key(inclusive)
                {
                    let bound = if kind == "integer" {
                        if step > 0.0 {
                            bound.floor() + 1.0
                        } else {
                            bound.ceil() - 1.0
                        }
                    } else {
                        bound
                    };
                    kept.insert(inclusive.into(), Value::from(bound));
                }
            }
            if kind == "integer" {
                clamp_i64(&mut kept, "minimum", f64::ceil);
                clamp_i64(&mut kept, "maximum", f64::floor);
                clamp_i64(&mut kept, "default", f64::round);
            }
            Ok(Value::Object(kept))
        }
        Some("boolean") => {
            let mut kept = keep(obj, BOOLEAN_KEYS);
            kept.insert("type".into(), "boolean".into());
            Ok(Value::Object(kept))
        }
        Some("array") => {
            let items = obj.get("items").and_then(Value::as_object);
            let Some(items) = items.and_then(multi_select_items) else {
                return Err(
                    "is a list (a form takes a list only as a multi-select of enum values)".into(),
                );
            };
            let mut kept = keep(obj, MULTI_SELECT_KEYS);
            kept.insert("items".into(), Value::Object(items));
            Ok(Value::Object(kept))
        }
        Some("object") => Err("is a nested object".into()),
        Some(other) => Err(format!("has the type `{other}`")),
        None => Err("has no single type (a data-carrying enum or a union)".into()),
    }
}

/// The property's type: its `type`, or the one that is not `"null"` in a pair.
fn single_type(obj: &Map<String, Value>) -> Option<&str> {
    match obj.get("type")? {
        Value::String(t) => Some(t),
        Value::Array(types) => {
            let mut others = types.iter().filter(|t| t.as_str() != Some("null"));
            let only = others.next()?.as_str();
            others.next().is_none().then_some(only).flatten()
        }
        _ => None,
    }
}

/// The `items` of a multi-select: string values in an `enum`, or `anyOf` titled values.
fn multi_select_items(items: &Map<String, Value>) -> Option<Map<String, Value>> {
    if single_type(items) == Some("string") && items.get("enum").is_some_and(Value::is_array) {
        return Some(keep(items, &["type", "enum"]));
    }
    let titled = items.get("anyOf").or_else(|| items.get("oneOf"))?;
    let mut kept = Map::new();
    kept.insert("anyOf".into(), titled.clone());
    Some(kept)
}

fn keep(obj: &Map<String, Value>, keys: &[&str]) -> Map<String, Value> {
    obj.iter()
        .filter(|(k, _)| keys.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// A length bound as a form states it (a `u32`).
fn clamp_u32(obj: &mut Map<String, Value>, key: &str) {
    if let Some(n) = obj.get(key).and_then(Value::as_u64) {
        obj.insert(key.into(), Value::from(n.min(u64::from(u32::MAX))));
    }
}

/// An integer keyword as a form states it (an `i64`): a larger bound is clamped, a fractional
/// one rounded inward with `round`.
fn clamp_i64(obj: &mut Map<String, Value>, key: &str, round: fn(f64) -> f64) {
    let Some(value) = obj.get(key) else {
        return;
    };
    let clamped = if let Some(n) = value.as_i64() {
        n
    } else if value.as_u64().is_some() {
        i64::MAX
    } else if let Some(f) = value.as_f64() {
        // `as` saturates at the ends of the range.
        round(f) as i64
    } else {
        obj.remove(key);
        return;
    };
    obj.insert(key.into(), Value::from(clamped));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn primitives_keep_descriptions_defaults_and_enums_and_lose_the_rest() {
        let schema = json!({
            "type": "object",
            "description": "Where to put the part.",
            "properties": {
                "name": {"type": "string", "description": "Label.", "pattern": "^[a-z]+$", "maxLength": 20, "examples": ["bin"], "default": "bin"},
                "email": {"type": "string", "format": "email"},
                "id": {"type": "string", "format": "uuid"},
                "speed": {"type": "number", "description": "Speed, in millimetres per second (mm/s).", "x-unit": "mm/s", "minimum": 1.0, "maximum": 250.0, "default": 50.0},
                "count": {"type": "integer", "minimum": 0, "maximum": 18_446_744_073_709_551_615_u64, "default": 3},
                "slot": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10},
                "gripper": {"type": "string", "enum": ["parallel", "suction"], "description": "parallel: jaws; suction: cup", "default": "parallel"},
                "careful": {"type": "boolean", "default": true},
                "axes": {"type": "array", "items": {"type": "string", "enum": ["x", "y"], "description": "An axis."}, "maxItems": 2, "uniqueItems": true},
            },
            "required": ["name", "speed"],
            "additionalProperties": false,
        });
        let form = form_schema(&schema).unwrap();
        assert_eq!(
            Value::Object(form.clone()),
            json!({
                "type": "object",
                "description": "Where to put the part.",
                "properties": {
                    "name": {"type": "string", "description": "Label.", "maxLength": 20, "default": "bin"},
                    "email": {"type": "string", "format": "email"},
                    "id": {"type": "string"},
                    "speed": {"type": "number", "description": "Speed, in millimetres per second (mm/s).", "minimum": 1.0, "maximum": 250.0, "default": 50.0},
                    "count": {"type": "integer", "minimum": 0, "maximum": i64::MAX, "default": 3},
                    "slot": {"type": "integer", "minimum": 1, "maximum": 9},
                    "gripper": {"type": "string", "enum": ["parallel", "suction"], "description": "parallel: jaws; suction: cup", "default": "parallel"},
                    "careful": {"type": "boolean", "default": true},
                    "axes": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}, "maxItems": 2},
                },
                "required": ["name", "speed"],
            })
        );
        // rmcp accepts it as an elicitation schema, and keeps every property.
        let parsed = rmcp::model::ElicitationSchema::from_json_schema(form).unwrap();
        assert_eq!(parsed.properties.len(), 9);
    }

    #[test]
    fn fields_a_form_cannot_hold_are_named() {
        let cases = [
            (
                json!({"type": "object", "properties": {"x": {"type": "number"}}}),
                "is a nested object",
            ),
            (
                json!({"type": "array", "items": {"type": "number"}}),
                "is a list (a form takes a list only as a multi-select of enum values)",
            ),
            (
                json!({"oneOf": [{"type": "string"}, {"type": "number"}]}),
                "has no single type (a data-carrying enum or a union)",
            ),
        ];
        for (property, why) in cases {
            let schema = json!({"type": "object", "properties": {"target": property}});
            assert_eq!(
                form_schema(&schema).unwrap_err(),
                format!(
                    "field `target` {why}; a form holds only strings, numbers, integers, booleans and enums"
                )
            );
        }
        assert_eq!(
            form_schema(&json!({"type": "string"})).unwrap_err(),
            "a form is a struct with named fields, and this type is not one"
        );
    }

    #[test]
    fn fractional_integer_bounds_are_rounded_inward() {
        let schema = json!({"type": "object", "properties": {
            "n": {"type": "integer", "minimum": 0.5, "maximum": 9.5, "default": -1e300},
        }});
        let form = form_schema(&schema).unwrap();
        assert_eq!(
            form["properties"]["n"],
            json!({"type": "integer", "minimum": 1, "maximum": 9, "default": i64::MIN})
        );
    }
}
