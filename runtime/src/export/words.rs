//! Shared pieces of the dialects: walking a schema, and saying in words what a keyword said when
//! a provider makes us drop it, so units, ranges, defaults and allowed values survive.

use serde_json::{Map, Number, Value};

/// A number as a person writes it: `850` for `850.0`, `0.1`, `-180`.
pub(crate) fn num(n: &Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    match n.as_f64() {
        Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
        Some(f) => format!("{f}"),
        None => n.to_string(),
    }
}

/// A JSON value in a sentence: numbers as [`num`], strings quoted, the rest as compact JSON.
pub(crate) fn value(v: &Value) -> String {
    match v {
        Value::Number(n) => num(n),
        other => other.to_string(),
    }
}

/// `" N"` for a node with `x-unit: "N"`, else `""`.
pub(crate) fn unit_suffix(node: &Map<String, Value>) -> String {
    match node.get("x-unit").and_then(Value::as_str) {
        Some(u) => format!(" {u}"),
        None => String::new(),
    }
}

fn bound(node: &Map<String, Value>, key: &str) -> Option<String> {
    node.get(key).and_then(Value::as_number).map(num)
}

/// The numeric range of a node in words (`Between 5 and 30 N.`), if it has one.
pub(crate) fn range(node: &Map<String, Value>) -> Option<String> {
    let u = unit_suffix(node);
    let lower = bound(node, "minimum")
        .map(|v| (v, false))
        .or_else(|| bound(node, "exclusiveMinimum").map(|v| (v, true)));
    let upper = bound(node, "maximum")
        .map(|v| (v, false))
        .or_else(|| bound(node, "exclusiveMaximum").map(|v| (v, true)));
    Some(match (lower, upper) {
        (Some((a, false)), Some((b, false))) => format!("Between {a} and {b}{u}."),
        (Some((a, false)), Some((b, true))) => format!("At least {a} and less than {b}{u}."),
        (Some((a, true)), Some((b, false))) => format!("Greater than {a} and at most {b}{u}."),
        (Some((a, true)), Some((b, true))) => format!("Greater than {a} and less than {b}{u}."),
        (Some((a, false)), None) => format!("At least {a}{u}."),
        (Some((a, true)), None) => format!("Greater than {a}{u}."),
        (None, Some((b, false))) => format!("At most {b}{u}."),
        (None, Some((b, true))) => format!("Less than {b}{u}."),
        (None, None) => return None,
    })
}

fn count(node: &Map<String, Value>, min: &str, max: &str, what: &str) -> Option<String> {
    let plural = |n: &str| {
        if n == "1" {
            what.to_owned()
        } else {
            format!("{what}s")
        }
    };
    match (bound(node, min), bound(node, max)) {
        (Some(a), Some(b)) if a == b => Some(format!("Exactly {a} {}.", plural(&a))),
        (Some(a), Some(b)) => Some(format!("{a} to {b} {}.", plural(&b))),
        (Some(a), None) => Some(format!("At least {a} {}.", plural(&a))),
        (None, Some(b)) => Some(format!("At most {b} {}.", plural(&b))),
        (None, None) => None,
    }
}

/// The keywords of a numeric range.
pub(crate) const RANGE: [&str; 4] = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];

/// Sentences saying what the `dropped` keywords of `node` said. Keywords that carry nothing a
/// model needs (`title` when there is a description, `$comment`, `x-*` other than `x-unit`) give
/// none. The unit is added last, only if no other sentence or the description already names it.
pub(crate) fn sentences(node: &Map<String, Value>, dropped: &[&str]) -> Vec<String> {
    let has = |k: &str| dropped.contains(&k);
    let u = unit_suffix(node);
    let mut out = Vec::new();
    if RANGE.iter().any(|k| has(k)) {
        out.extend(range(node));
    }
    if let Some(m) = node.get("multipleOf").filter(|_| has("multipleOf")) {
        out.push(format!("A multiple of {}{u}.", value(m)));
    }
    if has("minLength") || has("maxLength") {
        out.extend(count(node, "minLength", "maxLength", "character"));
    }
    if let Some(p) = node
        .get("pattern")
        .and_then(Value::as_str)
        .filter(|_| has("pattern"))
    {
        out.push(format!("Must match the regular expression `{p}`."));
    }
    if has("minItems") || has("maxItems") {
        out.extend(count(node, "minItems", "maxItems", "item"));
    }
    if node.get("uniqueItems") == Some(&Value::Bool(true)) && has("uniqueItems") {
        out.push("Items must be unique.".to_owned());
    }
    if has("minProperties") || has("maxProperties") {
        out.extend(count(node, "minProperties", "maxProperties", "entry"));
    }
    if let Some(f) = node
        .get("format")
        .and_then(Value::as_str)
        .filter(|_| has("format"))
    {
        out.push(format!("Format: {f}."));
    }
    if let Some(values) = node
        .get("enum")
        .and_then(Value::as_array)
        .filter(|_| has("enum"))
    {
        let list: Vec<String> = values.iter().map(value).collect();
        out.push(format!("One of: {}.", list.join(", ")));
    }
    if let Some(c) = node.get("const").filter(|_| has("const")) {
        out.push(format!("Always {}.", value(c)));
    }
    if let Some(d) = node.get("default").filter(|_| has("default")) {
        out.push(format!(
            "Default: {}{}.",
            value(d),
            if d.is_number() { &u } else { "" }
        ));
    }
    if let Some(list) = node
        .get("examples")
        .and_then(Value::as_array)
        .filter(|_| has("examples"))
    {
        let numeric = list.iter().all(Value::is_number);
        let items: Vec<String> = list.iter().map(value).collect();
        let label = if items.len() == 1 {
            "Example"
        } else {
            "Examples"
        };
        let unit = if numeric { u.as_str() } else { "" };
        if !items.is_empty() {
            out.push(format!("{label}: {}{unit}.", items.join(", ")));
        }
    }
    if node.get("deprecated") == Some(&Value::Bool(true)) && has("deprecated") {
        out.push("Deprecated.".to_owned());
    }
    if let Some(unit) = node
        .get("x-unit")
        .and_then(Value::as_str)
        .filter(|_| has("x-unit"))
    {
        let said = node
            .get("description")
            .and_then(Value::as_str)
            .is_some_and(|d| d.contains(unit))
            || out.iter().any(|s| s.contains(unit));
        if !said {
            out.push(format!("Unit: {unit}."));
        }
    }
    out
}

/// Appends sentences to a description (adding a full stop to it when it has none).
pub(crate) fn append(description: Option<&str>, sentences: &[String]) -> Option<String> {
    if sentences.is_empty() {
        return description.map(str::to_owned);
    }
    let extra = sentences.join(" ");
    match description.map(str::trim_end).filter(|d| !d.is_empty()) {
        None => Some(extra),
        Some(d) if d.ends_with(['.', '!', '?', ':']) => Some(format!("{d} {extra}")),
        Some(d) => Some(format!("{d}. {extra}")),
    }
}

/// Removes the `dropped` keywords from `node` and says in its description what they said.
/// A `title` becomes the description when there is none.
pub(crate) fn drop_keywords(node: &mut Map<String, Value>, dropped: &[&str]) {
    if dropped.is_empty() {
        return;
    }
    let said = sentences(node, dropped);
    if dropped.contains(&"title")
        && !node.contains_key("description")
        && let Some(Value::String(t)) = node.get("title").cloned()
    {
        node.insert("description".to_owned(), Value::String(t));
    }
    for k in dropped {
        node.shift_remove(*k);
    }
    set_description(node, &said);
}

/// Appends sentences to the node's description (creating it when absent).
pub(crate) fn set_description(node: &mut Map<String, Value>, said: &[String]) {
    if said.is_empty() {
        return;
    }
    let description = append(node.get("description").and_then(Value::as_str), said);
    if let Some(d) = description {
        node.insert("description".to_owned(), Value::String(d));
    }
}

/// Whether a node describes an object (`type: object`, or `properties` without a type).
pub(crate) fn is_object_node(node: &Map<String, Value>) -> bool {
    node.get("type").and_then(Value::as_str) == Some("object") || node.contains_key("properties")
}

/// Every (path, node) in a schema, depth first, for the checks: `properties.x`, `items`,
/// `anyOf[1]`, `additionalProperties`.
pub(crate) fn nodes<'a>(
    root: &'a Value,
    path: &str,
    out: &mut Vec<(String, &'a Map<String, Value>)>,
) {
    let Some(node) = root.as_object() else {
        return;
    };
    out.push((path.to_owned(), node));
    let join = |k: &str| {
        if path.is_empty() {
            k.to_owned()
        } else {
            format!("{path}.{k}")
        }
    };
    if let Some(Value::Object(props)) = node.get("properties") {
        for (name, child) in props {
            nodes(child, &join(&format!("properties.{name}")), out);
        }
    }
    for key in ["items", "additionalProperties", "not"] {
        if let Some(child @ Value::Object(_)) = node.get(key) {
            nodes(child, &join(key), out);
        }
    }
    for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(list)) = node.get(key) {
            for (i, child) in list.iter().enumerate() {
                nodes(child, &join(&format!("{key}[{i}]")), out);
            }
        }
    }
    for key in ["$defs", "definitions"] {
        if let Some(Value::Object(defs)) = node.get(key) {
            for (name, child) in defs {
                nodes(child, &join(&format!("{key}.{name}")), out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn ranges_in_words() {
        let n = obj(json!({"minimum": 5.0, "maximum": 30.0, "x-unit": "N"}));
        assert_eq!(range(&n).unwrap(), "Between 5 and 30 N.");
        let n = obj(json!({"minimum": 0.0, "exclusiveMaximum": 100.0}));
        assert_eq!(range(&n).unwrap(), "At least 0 and less than 100.");
        let n = obj(json!({"exclusiveMinimum": 0.5}));
        assert_eq!(range(&n).unwrap(), "Greater than 0.5.");
        assert!(range(&obj(json!({}))).is_none());
    }

    #[test]
    fn dropped_keywords_become_sentences() {
        let mut n = obj(json!({
            "type": "number", "description": "Grip force, in newtons (N).", "x-unit": "N",
            "minimum": 5.0, "maximum": 30.0, "default": 15.0, "examples": [10.0, 20.0]
        }));
        drop_keywords(
            &mut n,
            &["x-unit", "minimum", "maximum", "default", "examples"],
        );
        assert_eq!(
            Value::Object(n),
            json!({"type": "number", "description":
                "Grip force, in newtons (N). Between 5 and 30 N. Default: 15 N. Examples: 10, 20 N."})
        );
        let mut n = obj(json!({"type": "number", "x-unit": "deg"}));
        drop_keywords(&mut n, &["x-unit"]);
        assert_eq!(n["description"], "Unit: deg.");
        let mut n = obj(
            json!({"type": "string", "description": "Pose name", "minLength": 1,
                               "maxLength": 32, "pattern": "^[a-z_]+$"}),
        );
        drop_keywords(&mut n, &["minLength", "maxLength", "pattern"]);
        assert_eq!(
            n["description"],
            "Pose name. 1 to 32 characters. Must match the regular expression `^[a-z_]+$`."
        );
    }
}
