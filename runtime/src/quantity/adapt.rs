//! Between the numbers a model reads and writes (in the published unit) and the values serde
//! reads and writes (uom quantities serialize their SI value): compiled once per tool and
//! direction from the `x-toolwright-scale` keywords of its schema, applied to the arguments after
//! validation and to the result before it is checked and answered.

use serde_json::Value;

use super::SCALE_KEY;

/// Where the scaled numbers of a value are.
#[derive(Debug, PartialEq)]
enum Node {
    /// A number in a unit that is not SI: SI = (value + offset) × factor.
    Scale { factor: f64, offset: f64 },
    /// An object: some of its properties, and (a map's) other values.
    Object {
        properties: Vec<(String, Node)>,
        rest: Option<Box<Node>>,
    },
    /// Each item of an array.
    Items(Box<Node>),
}

/// The scaled numbers of one schema.
#[derive(Debug, PartialEq)]
pub(crate) struct Adapter(Node);

/// Keywords whose subschemas a value may or may not take: a scale inside them is refused when
/// the toolbox is built (which branch a value took is not known after validation).
const BRANCHING: &[&str] = &[
    "oneOf",
    "anyOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "prefixItems",
    "patternProperties",
    "dependentSchemas",
];

impl Adapter {
    /// The adapter of `schema`, or `None` when it has no scaled number (the common case: no
    /// work per call). Errs with the path of a scale it cannot apply.
    pub(crate) fn compile(schema: &Value) -> Result<Option<Adapter>, String> {
        Ok(compile(schema, "")?.map(Adapter))
    }

    /// Published unit to SI, on validated arguments.
    pub(crate) fn published_to_si(&self, value: &mut Value) {
        apply(&self.0, value, true);
    }

    /// SI to the published unit, on a serialized result.
    pub(crate) fn si_to_published(&self, value: &mut Value) {
        apply(&self.0, value, false);
    }
}

fn compile(schema: &Value, path: &str) -> Result<Option<Node>, String> {
    let Some(obj) = schema.as_object() else {
        return Ok(None);
    };
    if let Some(scale) = obj.get(SCALE_KEY) {
        let pair = scale
            .as_array()
            .map(|a| a.iter().map(Value::as_f64).collect::<Vec<_>>());
        return match pair.as_deref() {
            Some([Some(factor), Some(offset)]) => Ok(Some(Node::Scale {
                factor: *factor,
                offset: *offset,
            })),
            _ => Err(format!("{}: malformed `{SCALE_KEY}`", shown(path))),
        };
    }
    for keyword in BRANCHING {
        if let Some(sub) = obj.get(*keyword)
            && has_scale(sub)
        {
            return Err(format!(
                "{}: a quantity in a unit other than its SI unit cannot be inside `{keyword}` \
                 (an enum's variants, an untagged or nullable type) yet; declare it without \
                 `unit` there, so it is published in its SI unit",
                shown(path)
            ));
        }
    }
    let mut properties = Vec::new();
    if let Some(props) = obj.get("properties").and_then(Value::as_object) {
        for (name, sub) in props {
            if let Some(node) = compile(sub, &join(path, name))? {
                properties.push((name.clone(), node));
            }
        }
    }
    let rest = match obj.get("additionalProperties") {
        Some(sub) => compile(sub, &join(path, "*"))?.map(Box::new),
        None => None,
    };
    if !properties.is_empty() || rest.is_some() {
        return Ok(Some(Node::Object { properties, rest }));
    }
    match obj.get("items") {
        Some(items) => Ok(compile(items, &format!("{path}[]"))?.map(|n| Node::Items(Box::new(n)))),
        None => Ok(None),
    }
}

fn has_scale(schema: &Value) -> bool {
    match schema {
        Value::Object(obj) => obj.contains_key(SCALE_KEY) || obj.values().any(has_scale),
        Value::Array(items) => items.iter().any(has_scale),
        _ => false,
    }
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

fn shown(path: &str) -> &str {
    if path.is_empty() { "the value" } else { path }
}

fn apply(node: &Node, value: &mut Value, to_si: bool) {
    match (node, value) {
        (&Node::Scale { factor, offset }, Value::Number(n)) => {
            let Some(v) = n.as_f64() else { return };
            // uom's own formulas (uom/src/system.rs `to_base`/`from_base` with SI base units),
            // so a value converted here equals the quantity's `get::<unit>()`.
            let converted = if to_si {
                (v + offset) * factor
            } else if factor < 1.0 {
                v * (1.0 / factor) - offset
            } else {
                v / factor - offset
            };
            if let Some(c) = serde_json::Number::from_f64(converted) {
                *n = c;
            }
        }
        (Node::Object { properties, rest }, Value::Object(map)) => {
            for (name, v) in map.iter_mut() {
                match properties.iter().find(|(p, _)| p == name) {
                    Some((_, sub)) => apply(sub, v, to_si),
                    None => {
                        if let Some(rest) = rest {
                            apply(rest, v, to_si);
                        }
                    }
                }
            }
        }
        (Node::Items(sub), Value::Array(items)) => {
            for item in items {
                apply(sub, item, to_si);
            }
        }
        // `null` for an absent `Option` on output; anything else was refused by validation.
        _ => {}
    }
}

/// The prefix of toolwright's private keywords (`x-toolwright-quantity`, `x-toolwright-scale`,
/// `x-toolwright-unit-norm`, ..): they drive the toolbox and are never published.
pub(crate) const PRIVATE_PREFIX: &str = "x-toolwright-";

/// Removes the private keywords (every `x-toolwright-*` key) from a schema before it is
/// published; returns whether there were any. Property names and values (`default`, `enum`, ..)
/// are data, not keywords, and are left alone.
pub(crate) fn strip(schema: &mut Value) -> bool {
    match schema {
        Value::Object(obj) => {
            let before = obj.len();
            obj.retain(|k, _| !k.starts_with(PRIVATE_PREFIX));
            let mut found = obj.len() != before;
            for (k, v) in obj.iter_mut() {
                match (k.as_str(), v) {
                    ("default" | "examples" | "example" | "const" | "enum", _) => {}
                    (
                        "properties" | "patternProperties" | "$defs" | "definitions",
                        Value::Object(m),
                    ) => {
                        for sub in m.values_mut() {
                            found |= strip(sub);
                        }
                    }
                    (_, v) => found |= strip(v),
                }
            }
            found
        }
        Value::Array(items) => items.iter_mut().fold(false, |found, v| strip(v) | found),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantity::QUANTITY_KEY;
    use serde_json::json;

    fn mm() -> Value {
        json!({"type": "number", "x-unit": "mm", SCALE_KEY: [0.001, 0.0]})
    }

    #[test]
    fn no_scale_no_adapter() {
        let schema = json!({"type": "object", "properties": {"x": {"type": "number", QUANTITY_KEY: "length"}}});
        assert_eq!(Adapter::compile(&schema), Ok(None));
    }

    #[test]
    fn scales_properties_items_and_maps_both_ways() {
        let schema = json!({
            "type": "object",
            "properties": {
                "reach": mm(),
                "plain": {"type": "number"},
                "path": {"type": "array", "items": mm()},
                "named": {"type": "object", "additionalProperties": mm()},
                "temperature": {"type": "number", SCALE_KEY: [1.0, 273.15]},
            },
        });
        let adapter = Adapter::compile(&schema).unwrap().unwrap();
        let published = json!({
            "reach": 250, "plain": 250, "path": [1000, 300], "named": {"a": 5},
            "temperature": 25.0,
        });
        let mut v = published.clone();
        adapter.published_to_si(&mut v);
        assert_eq!(
            v,
            json!({
                "reach": 0.25, "plain": 250, "path": [1.0, 0.3], "named": {"a": 0.005},
                "temperature": 298.15,
            })
        );
        adapter.si_to_published(&mut v);
        assert_eq!(
            v,
            json!({
                "reach": 250.0, "plain": 250, "path": [1000.0, 300.0], "named": {"a": 5.0},
                "temperature": 25.0,
            })
        );
    }

    #[test]
    fn null_is_left_alone() {
        let adapter = Adapter::compile(&mm()).unwrap().unwrap();
        let mut v = Value::Null;
        adapter.si_to_published(&mut v);
        assert_eq!(v, Value::Null);
    }

    #[test]
    fn a_scale_inside_a_branch_is_refused_with_its_path() {
        let schema = json!({"type": "object", "properties": {"grip": {"oneOf": [{"type": "object", "properties": {"width": mm()}}]}}});
        let err = Adapter::compile(&schema).unwrap_err();
        assert!(
            err.starts_with(
                "grip: a quantity in a unit other than its SI unit cannot be inside `oneOf`"
            ),
            "{err}"
        );
    }

    #[test]
    fn strip_removes_every_private_keyword() {
        let mut schema = json!({"type": "object", "properties": {"reach": mm(), "f": {"type": "number", "x-unit": "N", QUANTITY_KEY: "force"}}});
        assert!(strip(&mut schema));
        assert_eq!(
            schema,
            json!({"type": "object", "properties": {"reach": {"type": "number", "x-unit": "mm"}, "f": {"type": "number", "x-unit": "N"}}})
        );
        assert!(!strip(&mut schema));
    }

    #[test]
    fn strip_removes_any_private_keyword_but_not_data_or_names() {
        let mut schema = json!({
            "type": "object",
            "x-toolwright-unit-norm": 0.001,
            "properties": {"x-toolwright-name": {"type": "array", "items": {"x-toolwright-other": 1}}},
            "default": {"x-toolwright-data": 1}
        });
        assert!(strip(&mut schema));
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {"x-toolwright-name": {"type": "array", "items": {}}},
                "default": {"x-toolwright-data": 1}
            })
        );
    }
}
