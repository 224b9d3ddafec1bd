//! `summary: true`: each list at the top of a tool's result as a count and three samples (first,
//! middle, last) instead of every item, with the other top-level values kept; and the schema of
//! that shape, derived from the result's own.

use serde_json::{Map, Value, json};

/// The injected argument's name.
pub(crate) const ARGUMENT: &str = "summary";

/// The key the summary is wrapped in.
pub(crate) const KEY: &str = "summary";

/// Samples kept of each list.
pub(crate) const SAMPLES: usize = 3;

/// The argument's description: what a model reads.
pub(crate) const DESCRIPTION: &str = "Set to true to get a summary instead of the full result: each of \
    its lists as {\"count\": number of items, \"samples\": up to 3 of them (first, middle, last)}, \
    the other values as they are, returned as {\"summary\": ..}. Use it to see how large a result \
    is before asking for all of it.";

/// The top-level properties of a result schema that are lists (possibly nullable).
pub(crate) fn list_properties(payload: &Value) -> Vec<String> {
    payload
        .get("properties")
        .and_then(Value::as_object)
        .map(|props| {
            props
                .iter()
                .filter(|(_, s)| is_list(s))
                .map(|(k, _)| k.clone())
                .collect()
        })
        .unwrap_or_default()
}

fn is_list(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "array",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "array"),
        _ => false,
    }
}

/// The summary of a result (an object): its `lists` (the list properties its schema declares,
/// [`list_properties`]) summarized, the rest kept as is, wrapped as `{"summary": ..}`.
pub(crate) fn summarize(payload: Value, lists: &[String]) -> Value {
    let summary = match payload {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| match v {
                    Value::Array(items) if lists.contains(&k) => (k, list(items)),
                    other => (k, other),
                })
                .collect(),
        ),
        other => other,
    };
    let mut map = Map::new();
    map.insert(KEY.to_owned(), summary);
    Value::Object(map)
}

fn list(mut items: Vec<Value>) -> Value {
    let count = items.len();
    let samples = if count <= SAMPLES {
        items
    } else {
        let last = items.pop().unwrap_or_default();
        let middle = std::mem::take(&mut items[count / 2]);
        let first = std::mem::take(&mut items[0]);
        vec![first, middle, last]
    };
    json!({"count": count, "samples": samples})
}

/// The `outputSchema` branch of a summary, derived from the result's schema: the same object
/// with each list property replaced by its count and samples (`None` when it has no list).
pub(crate) fn branch(payload: &Value) -> Option<Value> {
    let props = payload.get("properties")?.as_object()?;
    if !props.values().any(is_list) {
        return None;
    }
    let props: Map<String, Value> = props
        .iter()
        .map(|(k, s)| {
            if !is_list(s) {
                return (k.clone(), s.clone());
            }
            let nullable =
                matches!(s.get("type"), Some(Value::Array(ts)) if ts.iter().any(|t| t == "null"));
            let mut samples = json!({"type": "array", "maxItems": SAMPLES});
            if let Some(items) = s.get("items") {
                samples["items"] = items.clone();
            }
            let mut summarized = json!({
                "type": if nullable { json!(["object", "null"]) } else { json!("object") },
                "properties": {
                    "count": {"type": "integer", "minimum": 0, "description": "Items in the list."},
                    "samples": samples,
                },
                "required": ["count", "samples"],
                "additionalProperties": false,
            });
            if let Some(d) = s.get("description").and_then(Value::as_str) {
                summarized["description"] = Value::from(format!("{d} (summarized)"));
            }
            (k.clone(), summarized)
        })
        .collect();
    let mut inner = json!({"type": "object", "properties": props});
    for key in ["required", "additionalProperties"] {
        if let Some(v) = payload.get(key) {
            inner[key] = v.clone();
        }
    }
    Some(json!({
        "type": "object",
        "properties": {KEY: inner},
        "required": [KEY],
        "additionalProperties": false,
    }))
}

/// The argument's schema.
pub(crate) fn argument_schema(description: String) -> Value {
    json!({"type": "boolean", "default": false, "description": description})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::Validator;

    fn payload_schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "filter": {"type": "string"},
                "readings": {"type": "array", "items": {"type": "integer"}, "description": "Samples."},
                "tags": {"type": ["array", "null"], "items": {"type": "string"}}
            },
            "required": ["filter", "readings"],
            "additionalProperties": false
        })
    }

    fn lists() -> Vec<String> {
        list_properties(&payload_schema())
    }

    #[test]
    fn only_the_declared_lists_are_summarized() {
        // An array the schema does not declare as a list property (a flattened map's values,
        // an untagged enum) is kept as is, so the summary matches its published branch.
        let s = summarize(
            json!({"filter": "raw", "readings": [1, 2, 3, 4], "extra": [1, 2, 3, 4]}),
            &lists(),
        );
        assert_eq!(s["summary"]["readings"]["count"], 4);
        assert_eq!(s["summary"]["extra"], json!([1, 2, 3, 4]));
    }

    #[test]
    fn empty_short_and_long_lists() {
        let s = summarize(
            json!({"filter": "raw", "readings": [], "tags": null}),
            &lists(),
        );
        assert_eq!(
            s,
            json!({"summary": {"filter": "raw", "readings": {"count": 0, "samples": []}, "tags": null}})
        );
        let s = summarize(
            json!({"filter": "raw", "readings": [1, 2], "tags": ["a", "b", "c"]}),
            &lists(),
        );
        assert_eq!(
            s["summary"]["readings"],
            json!({"count": 2, "samples": [1, 2]})
        );
        assert_eq!(
            s["summary"]["tags"],
            json!({"count": 3, "samples": ["a", "b", "c"]})
        );
        let long: Vec<u32> = (0..100).collect();
        let s = summarize(json!({"filter": "raw", "readings": long}), &lists());
        assert_eq!(
            s["summary"]["readings"],
            json!({"count": 100, "samples": [0, 50, 99]})
        );
    }

    #[test]
    fn summaries_match_the_derived_branch() {
        let derived = branch(&payload_schema()).unwrap();
        assert_eq!(
            derived["properties"]["summary"]["properties"]["readings"]["description"],
            "Samples. (summarized)"
        );
        let validator = Validator::compile(&derived).unwrap();
        for doc in [
            json!({"filter": "raw", "readings": []}),
            json!({"filter": "raw", "readings": (0..10).collect::<Vec<_>>(), "tags": ["x"]}),
            json!({"filter": "raw", "readings": [1], "tags": null}),
        ] {
            let mut s = summarize(doc, &lists());
            assert_eq!(validator.check_output(&mut s), Ok(()), "{s}");
        }
        let mut wrong = json!({"summary": {"filter": "raw", "readings": [1, 2]}});
        assert!(validator.check_output(&mut wrong).is_err());
        assert_eq!(list_properties(&payload_schema()), ["readings", "tags"]);
        assert_eq!(
            branch(&json!({"type": "object", "properties": {"a": {"type": "string"}}})),
            None
        );
    }
}
