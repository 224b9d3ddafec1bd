//! The opt-in `describe_tool` meta tool ([`ToolboxBuilder::with_describe_tool`]): its
//! definition, and its answer. A call pays for it only with a name comparison; the answer is made
//! here.

use std::sync::{Arc, RwLock};

use rmcp::model::{CallToolResult, ContentBlock, Tool, ToolAnnotations};
use serde_json::{Map, Value};

use super::{Entry, ToolboxBuilder, read};
use crate::contract::{Body, CallError, ToolMeta};
use crate::error::ToolError;
use crate::exec::policy::Policy;
use crate::output::{OutputMode, Results};
use crate::validate::Validator;

/// The name of the opt-in meta tool.
pub const DESCRIBE_TOOL: &str = "describe_tool";

impl<S: Send + Sync + 'static> ToolboxBuilder<S> {
    /// Adds the `describe_tool` meta tool: given a tool name it returns that tool's
    /// definition exactly as `tools/list` has it; an unknown name gets an `isError` result that
    /// lists the available tools.
    #[must_use]
    pub fn with_describe_tool(mut self) -> Self {
        self.settings.describe_tool = true;
        self
    }
}

/// The input schema of `describe_tool` when these tools are served: one of their names.
fn input_schema<'a>(names: impl IntoIterator<Item = &'a str>) -> Value {
    let names: Vec<Value> = names.into_iter().map(Value::from).collect();
    serde_json::json!({
        "type": "object",
        "properties": {
            "name": {
                "type": "string",
                "description": "The name of the tool to describe.",
                "enum": names,
            }
        },
        "required": ["name"],
        "additionalProperties": false,
    })
}

/// `describe_tool` as listed and checked while exactly the tools `names` are served (the
/// enabled groups; under `with_read_only`, the read-only tools): its `name` enum lists them
/// alone, so a hidden tool is named neither in `tools/list` nor in a refusal. Made again
/// whenever the served tools change ([`Inner::refresh_listed`](super::Inner)).
pub(super) fn served<'a>(
    template: &Tool,
    names: impl IntoIterator<Item = &'a str>,
) -> (Tool, Arc<Validator>) {
    let input = input_schema(names);
    let validator = Validator::compile(&input).expect("the describe_tool schema is valid");
    let Value::Object(input) = input else {
        unreachable!("built as an object")
    };
    let mut tool = template.clone();
    tool.input_schema = Arc::new(input);
    (tool, Arc::new(validator))
}

/// The `describe_tool` entry for these tools: its input is one of their names. What it lists
/// and checks while serving follows the tools served ([`served`]).
pub(super) fn describe_entry<S>(entries: &[Entry<S>]) -> Entry<S> {
    let input = input_schema(entries.iter().map(|e| &*e.name));
    let validator = Validator::compile(&input).expect("the describe_tool schema is valid");
    let Value::Object(input) = input else {
        unreachable!("built as an object")
    };
    let tool = Tool::new(
        DESCRIBE_TOOL,
        "Return the full definition of one tool (description, input and output schemas, \
         annotations), exactly as tools/list has it. Use it to check a tool's parameters before \
         calling it.",
        Arc::new(input),
    )
    .with_annotations(ToolAnnotations::from_raw(
        None,
        Some(true),
        Some(false),
        Some(true),
        Some(false),
    ))
    .with_raw_output_schema(Arc::new(
        match serde_json::json!({
            "type": "object",
            "description": "A tool definition, as in tools/list.",
            "properties": {
                "name": {"type": "string"},
                "title": {"type": "string"},
                "description": {"type": "string"},
                "inputSchema": {"type": "object"},
                "outputSchema": {"type": "object"},
                "annotations": {"type": "object"},
            },
            "required": ["name", "inputSchema"],
        }) {
            Value::Object(m) => m,
            _ => unreachable!("an object literal"),
        },
    ));
    let meta = ToolMeta {
        name: DESCRIBE_TOOL,
        read_only: Some(true),
        ..ToolMeta::default()
    };
    Entry {
        index: usize::MAX,
        name: Arc::from(DESCRIBE_TOOL),
        tool,
        validator,
        input_adapter: None,
        output_adapter: None,
        results: Results::plain(OutputMode::Structured),
        handler: |_, _| {
            Body::Async(Box::pin(async {
                Err(CallError::Tool(ToolError::new("unreachable")))
            }))
        },
        check: None,
        meta,
        policy: Policy::default(),
        target: None,
        #[cfg(feature = "robot")]
        speed: None,
    }
}

/// Answers a `describe_tool` call: the named tool's definition as `tools/list` has it now, or an
/// `isError` result listing the tools available. Returns the outcome's name for the span.
#[cold]
pub(super) fn answer(
    listed: &RwLock<Vec<Tool>>,
    map: &Map<String, Value>,
    read_only: bool,
) -> (&'static str, CallToolResult) {
    let wanted = map.get("name").and_then(Value::as_str).unwrap_or_default();
    let found = read(listed).iter().find(|t| t.name == wanted).cloned();
    match found.map(serde_json::to_value) {
        Some(Ok(definition)) => ("ok", CallToolResult::structured(definition)),
        _ => (
            "tool_error",
            CallToolResult::error(vec![ContentBlock::text(format!(
                "Tool `{wanted}` is not available right now{}; available tools: {}",
                if read_only {
                    " (this server is read-only: it serves only the tools that change nothing)"
                } else {
                    ""
                },
                read(listed)
                    .iter()
                    .map(|t| t.name.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))]),
        ),
    }
}
