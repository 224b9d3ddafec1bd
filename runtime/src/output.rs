//! How a tool's return value becomes a `tools/call` result.

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Map, Value, json};

/// The shape of a tool's successful results, decided once from its output schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputMode {
    /// An object: `structuredContent` plus the same JSON as a text block; `outputSchema` is the
    /// type's schema.
    Structured,
    /// Anything else serializable: wrapped as `{"result": ..}` (and published that way).
    Wrapped,
    /// A string: a text block only, no `outputSchema`.
    Text,
    /// `()`: a short text block, no `outputSchema`.
    Unit,
}

impl OutputMode {
    /// Chooses the mode for an output type's schema and returns the `outputSchema` to publish.
    pub fn for_schema(schema: Value) -> (Option<Value>, OutputMode) {
        let ty = schema.get("type");
        let plain = |t: &str| {
            ty == Some(&Value::from(t))
                && schema.as_object().is_some_and(|o| {
                    o.keys()
                        .all(|k| matches!(k.as_str(), "type" | "description" | "title"))
                })
        };
        if plain("string") {
            (None, OutputMode::Text)
        } else if plain("null") {
            (None, OutputMode::Unit)
        } else if crate::schema::is_object_schema(&schema) {
            (Some(schema), OutputMode::Structured)
        } else {
            let wrapped = json!({
                "type": "object",
                "properties": { "result": schema },
                "required": ["result"],
            });
            (Some(wrapped), OutputMode::Wrapped)
        }
    }

    /// Builds the result of a successful call.
    pub fn result(self, value: Value) -> CallToolResult {
        match (self, value) {
            (OutputMode::Text, Value::String(s)) => {
                CallToolResult::success(vec![ContentBlock::text(s)])
            }
            (OutputMode::Unit, _) => CallToolResult::success(vec![ContentBlock::text("ok")]),
            (OutputMode::Wrapped, v) => {
                let mut m = Map::new();
                m.insert("result".into(), v);
                CallToolResult::structured(Value::Object(m))
            }
            (_, v) => CallToolResult::structured(v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_follow_the_schema() {
        assert_eq!(
            OutputMode::for_schema(json!({"type": "string"})).1,
            OutputMode::Text
        );
        assert_eq!(
            OutputMode::for_schema(json!({"type": "null"})).1,
            OutputMode::Unit
        );
        let (schema, mode) = OutputMode::for_schema(json!({"type": "object", "properties": {}}));
        assert_eq!(mode, OutputMode::Structured);
        assert_eq!(schema, Some(json!({"type": "object", "properties": {}})));
        let (schema, mode) =
            OutputMode::for_schema(json!({"type": "array", "items": {"type": "number"}}));
        assert_eq!(mode, OutputMode::Wrapped);
        assert_eq!(
            schema,
            Some(
                json!({"type": "object", "properties": {"result": {"type": "array", "items": {"type": "number"}}}, "required": ["result"]})
            )
        );
        let enum_schema = json!({"type": "string", "enum": ["a"]});
        assert_eq!(OutputMode::for_schema(enum_schema).1, OutputMode::Wrapped);
    }

    #[test]
    fn wrapped_results_are_structured() {
        let r = OutputMode::Wrapped.result(json!([1, 2]));
        assert_eq!(r.structured_content, Some(json!({"result": [1, 2]})));
        assert_eq!(r.is_error, Some(false));
        let r = OutputMode::Text.result(json!("hello"));
        assert_eq!(r.structured_content, None);
    }
}
