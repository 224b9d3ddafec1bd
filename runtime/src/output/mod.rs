//! How a tool's return value becomes a `tools/call` result: the output schema published for its
//! type (made once per type and shared) and the [`OutputMode`] that shapes its results.
//!
//! Depends on [`crate::schema`] for the type's schema; the schema module knows nothing of outputs.
//!
//! - `results.rs`: a tool's results as published and answered, with the options around them;
//! - `projection.rs` (`jmespath`) and `summary.rs` (`summary: true`): the two ways a model asks
//!   for less;
//! - `budget.rs`: a result's size budget (`max_output_bytes`) and what happens over it.
//!
//! Content types (`crate::content`) are recognised by their schema's marker: their results are
//! content blocks, with no `outputSchema` (or `T`'s, for `WithContent<T>`).

use rmcp::model::{CallToolResult, ContentBlock};
use schemars::generate::Contract;
use serde_json::{Map, Value, json};

use crate::content::ContentKind;
use crate::schema::keys::CONTENT_KEY;
use crate::schema::{self, SchemaError, TypeInfo};

pub(crate) mod budget;
pub(crate) mod projection;
mod projection_types;
mod results;
pub(crate) mod summary;

pub(crate) use results::{Refused, Request as ResultRequest, Results, split_published};

/// The shape of a tool's successful results, decided once from its output schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OutputMode {
    /// An object: `structuredContent` plus the same JSON as a text block; `outputSchema` is the
    /// type's schema.
    Structured,
    /// Anything else serializable: wrapped as `{"result": ..}` (and published that way).
    Wrapped,
    /// A string: a text block only, no `outputSchema`.
    Text,
    /// `()`: a short text block, no `outputSchema`.
    Unit,
    /// Content blocks ([`Image`](crate::Image), [`Content`](crate::Content), `Vec<Content>`, …),
    /// no `outputSchema`.
    Content(ContentKind),
    /// [`WithContent<T>`](crate::WithContent): `T` as `Structured` (or, `wrapped`, as
    /// `Wrapped`), then the blocks.
    WithContent {
        /// `T` is wrapped as `{"result": ..}`.
        wrapped: bool,
    },
}

impl OutputMode {
    /// Chooses the mode for an output type's schema and returns the `outputSchema` to publish.
    pub(crate) fn for_schema(schema: Value) -> (Option<Value>, OutputMode) {
        if let Some(kind) = ContentKind::of(&schema) {
            if schema.get(CONTENT_KEY).and_then(Value::as_str) != Some("with") {
                return (None, OutputMode::Content(kind));
            }
            let value = schema
                .get("properties")
                .and_then(|p| p.get("value"))
                .cloned()
                .unwrap_or_default();
            return match OutputMode::for_schema(value) {
                (published, OutputMode::Structured) => {
                    (published, OutputMode::WithContent { wrapped: false })
                }
                (published, OutputMode::Wrapped) => {
                    (published, OutputMode::WithContent { wrapped: true })
                }
                // Text or nothing with blocks: all blocks (the text first).
                _ => (None, OutputMode::Content(ContentKind::Mixed)),
            };
        }
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
        } else if schema::is_object_schema(&schema) {
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

    /// The payload of a result: what `structuredContent` carries (`{"result": ..}` when
    /// wrapped), or the text (a JSON string) or `null` of text and `()` results.
    pub(crate) fn payload(self, value: Value) -> Value {
        match self {
            OutputMode::Wrapped | OutputMode::WithContent { wrapped: true } => {
                let mut m = Map::new();
                m.insert("result".into(), value);
                Value::Object(m)
            }
            _ => value,
        }
    }

    /// The result of a payload ([`OutputMode::payload`]).
    pub(crate) fn result_of(self, payload: Value) -> CallToolResult {
        match (self, payload) {
            (OutputMode::Text, Value::String(s)) => {
                CallToolResult::success(vec![ContentBlock::text(s)])
            }
            (OutputMode::Unit, _) => CallToolResult::success(vec![ContentBlock::text("ok")]),
            (_, v) => CallToolResult::structured(v),
        }
    }
}

/// The published output schema of a tool returning `info`'s type, and how results are shaped.
pub(crate) fn output_schema(info: TypeInfo) -> Result<(Option<Value>, OutputMode), SchemaError> {
    let mut generator = schema::generator(Contract::Serialize);
    let schema = schema::type_schema(&mut generator, info)?;
    check_content_shape(&schema)?;
    Ok(OutputMode::for_schema(schema))
}

/// Refuses content types where they cannot be sent as content blocks: inside an `Option`, a
/// struct field, a map or a `Vec` of anything but `Content`, or as `WithContent`'s value. (Such
/// a result could not become blocks, and would publish the private marker.)
fn check_content_shape(schema: &Value) -> Result<(), SchemaError> {
    fn marked(v: &Value) -> bool {
        match v {
            Value::Object(map) => map.contains_key(CONTENT_KEY) || map.values().any(marked),
            Value::Array(items) => items.iter().any(marked),
            _ => false,
        }
    }
    let is_object = |v: &Value| v.get("type") == Some(&Value::from("object"));
    let kind = |v: &Value| {
        v.get(CONTENT_KEY)
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let fits = match kind(schema) {
        Some(k) if k == "with" => {
            is_object(schema)
                && !schema
                    .get("properties")
                    .and_then(|p| p.get("value"))
                    .is_some_and(marked)
        }
        Some(_) => is_object(schema),
        None => match schema.get("items") {
            Some(items)
                if schema.get("type") == Some(&Value::from("array")) && kind(items).is_some() =>
            {
                kind(items).as_deref() != Some("with") && is_object(items)
            }
            _ => !marked(schema),
        },
    };
    if fits {
        return Ok(());
    }
    Err(SchemaError {
        path: String::new(),
        message: "content types (`Image`, `Audio`, `EmbeddedResource`, `ResourceLink`, \
                  `Content`) are sent as content blocks only as the return type itself, in a \
                  `Vec<Content>`, or after a value with `WithContent<T>`; not inside an `Option`, \
                  a struct field, a map or another collection, nor as `WithContent`'s value"
            .to_owned(),
    })
}

/// An output schema as a toolbox publishes it (objects only), shared between tools.
pub(crate) type SharedOutput = (Option<std::sync::Arc<Map<String, Value>>>, OutputMode);

/// [`output_schema`], made once per type and shared: many tools return one type (every motion
/// of an arm its `MoveResult`), and its schema is generated once and published by reference.
/// Keyed by the address of the function that generates the type's schema; the key is sound even
/// where two such functions share an address (the linker folds identical code), since identical
/// code generates identical schemas.
pub(crate) fn shared_output_schema(info: TypeInfo) -> Result<SharedOutput, SchemaError> {
    type Made = std::collections::HashMap<(usize, bool), Result<SharedOutput, SchemaError>>;
    static MADE: std::sync::OnceLock<std::sync::Mutex<Made>> = std::sync::OnceLock::new();
    let key = (info.schema as usize, info.optional);
    let made = MADE.get_or_init(Default::default);
    if let Some(shared) = made.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return shared.clone();
    }
    let shared = output_schema(info).map(|(schema, mode)| {
        let schema = match schema {
            Some(Value::Object(map)) => Some(std::sync::Arc::new(map)),
            _ => None,
        };
        (schema, mode)
    });
    made.lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(key, shared.clone());
    shared
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
        let r = OutputMode::Wrapped.result_of(OutputMode::Wrapped.payload(json!([1, 2])));
        assert_eq!(r.structured_content, Some(json!({"result": [1, 2]})));
        assert_eq!(r.is_error, Some(false));
        let r = OutputMode::Text.result_of(json!("hello"));
        assert_eq!(r.structured_content, None);
    }
}
