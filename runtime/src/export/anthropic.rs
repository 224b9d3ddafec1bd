//! Anthropic tools (`anthropic.json`): the value of the `tools` field of a Messages API
//! request, one `{name, description, input_schema}` per tool.
//!
//! The Messages API takes the JSON Schema keywords MCP servers commonly emit, including
//! `additionalProperties`, `default`, `examples` and extensions such as `x-unit`, so
//! `input_schema` is the published `inputSchema` unchanged: Claude sees through this file
//! exactly what it sees through an MCP client. The export does not turn on strict tool use
//! (`strict: true`, <https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use>):
//! its grammar has no numeric or length bounds, so it would have to drop every range that
//! toolwright publishes and enforces.
//!
//! # The rules, as [`check_anthropic`] checks them
//!
//! From Anthropic's tool definition reference
//! (<https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools>) and the errors
//! MCP clients hit:
//!
//! 1. Each tool is an object with `name` and `input_schema` (and optionally `description`,
//!    `strict`, `cache_control`); the name matches `^[a-zA-Z0-9_-]{1,64}$` and is unique
//!    ([anthropics/claude-code#19882](https://github.com/anthropics/claude-code/issues/19882):
//!    the 64-character limit).
//! 2. `input_schema` is `type: object`, with no `oneOf`, `anyOf` or `allOf` at the top level
//!    ("input_schema does not support oneOf, allOf, or anyOf at the top level":
//!    [anthropics/claude-code#27337](https://github.com/anthropics/claude-code/issues/27337)).
//! 3. No `$ref` anywhere, and property names use letters, digits, `_`, `.` and `-`, 1 to 64
//!    characters (Anthropic's documentation, quoted in
//!    [diegosouzapw/OmniRoute#13552](https://github.com/diegosouzapw/OmniRoute/issues/13552)).
//! 4. Every `type` is a JSON Schema type (a derive that wrote `"type": "unknown"` got a 400:
//!    [rust-mcp-stack/rust-mcp-sdk#201](https://github.com/rust-mcp-stack/rust-mcp-sdk/pull/201)).
//! 5. A tool with `strict: true` also follows strict tool use's limits: `additionalProperties:
//!    false` on every object; no `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`,
//!    `multipleOf`, `minLength`, `maxLength`, `maxItems`; `minItems` only 0 or 1
//!    (<https://platform.claude.com/docs/en/build-with-claude/structured-outputs>, "JSON Schema
//!    limitations").

use std::collections::HashSet;

use regex::Regex;
use rmcp::model::Tool;
use serde_json::{Map, Value, json};

use super::openai::{check_name, check_type, unknown_keys};
use super::words;

const TYPES: [&str; 7] = [
    "string", "number", "integer", "boolean", "object", "array", "null",
];

const STRICT_UNSUPPORTED: [&str; 8] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "maxItems",
];

/// The tools as Anthropic tool definitions (the array [`render`](super::render) writes).
pub fn declarations(tools: &[Tool]) -> Value {
    let list = tools
        .iter()
        .map(|tool| {
            let mut t = Map::new();
            t.insert("name".to_owned(), json!(tool.name));
            if let Some(d) = super::dialect_description(tool) {
                t.insert("description".to_owned(), json!(d));
            }
            t.insert(
                "input_schema".to_owned(),
                Value::Object((*tool.input_schema).clone()),
            );
            Value::Object(t)
        })
        .collect();
    Value::Array(list)
}

/// The violations of the rules above in a rendered `anthropic.json` (empty when it follows
/// them). Each names the tool and the schema path.
pub fn check_anthropic(rendered: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(tools) = rendered.as_array() else {
        return vec![
            "anthropic: the file must be a JSON array of tools (a request's `tools`)".into(),
        ];
    };
    let name_re = Regex::new("^[a-zA-Z0-9_-]{1,64}$").expect("valid regex");
    let prop_re = Regex::new("^[a-zA-Z0-9_.-]{1,64}$").expect("valid regex");
    let mut seen = HashSet::new();
    for (i, tool) in tools.iter().enumerate() {
        let at = format!("anthropic: tools[{i}]");
        unknown_keys(
            tool,
            &[
                "name",
                "description",
                "input_schema",
                "strict",
                "cache_control",
            ],
            &at,
            &mut out,
        );
        let at = check_name(tool, &name_re, "anthropic", at, &mut seen, &mut out);
        if tool.get("description").is_some_and(|d| !d.is_string()) {
            out.push(format!("{at}: `description` must be a string"));
        }
        let Some(schema) = tool.get("input_schema").filter(|s| s.is_object()) else {
            out.push(format!("{at}: `input_schema` must be an object schema"));
            continue;
        };
        if schema.get("type") != Some(&json!("object")) {
            out.push(format!("{at}: `input_schema` must be `type: object`"));
        }
        for k in ["oneOf", "anyOf", "allOf"] {
            if schema.get(k).is_some() {
                out.push(format!(
                    "{at}: `input_schema` does not support `{k}` at the top level"
                ));
            }
        }
        let strict = tool.get("strict") == Some(&json!(true));
        let mut nodes = Vec::new();
        words::nodes(schema, "input_schema", &mut nodes);
        for (path, node) in &nodes {
            let here = format!("{at}: {path}");
            if node.contains_key("$ref") {
                out.push(format!("{here}: `$ref` is not accepted; inline the schema"));
            }
            check_type(node.get("type"), &TYPES, &here, &mut out);
            if let Some(Value::Object(props)) = node.get("properties") {
                for k in props.keys() {
                    if !prop_re.is_match(k) {
                        out.push(format!(
                            "{here}: property name `{k}` must match ^[a-zA-Z0-9_.-]{{1,64}}$"
                        ));
                    }
                }
            }
            if strict {
                for k in STRICT_UNSUPPORTED {
                    if node.contains_key(k) {
                        out.push(format!(
                            "{here}: `{k}` is not supported with strict tool use"
                        ));
                    }
                }
                if node
                    .get("minItems")
                    .and_then(Value::as_u64)
                    .is_some_and(|m| m > 1)
                {
                    out.push(format!(
                        "{here}: strict tool use supports `minItems` 0 or 1 only"
                    ));
                }
                if words::is_object_node(node)
                    && node.get("additionalProperties") != Some(&json!(false))
                {
                    out.push(format!(
                        "{here}: strict tool use needs `additionalProperties: false`"
                    ));
                }
            }
        }
    }
    out
}
