//! OpenAI function tools in strict mode (`openai.json`): the value of the `tools` field of a
//! Chat Completions request, one `{"type": "function", "function": {name, description,
//! parameters, strict: true}}` per tool.
//!
//! # The rules, as [`check_openai`] checks them
//!
//! From OpenAI's *Structured Outputs → Supported schemas* guide
//! (<https://platform.openai.com/docs/guides/structured-outputs#supported-schemas>, which strict
//! function calling shares) and the issues where MCP clients hit them:
//!
//! 1. Each tool is `{"type": "function", "function": {..}}`; the name matches
//!    `^[a-zA-Z0-9_-]{1,64}$` and is unique.
//! 2. `strict: true`. With it, the root of `parameters` is `type: object` (not `anyOf`).
//! 3. Every object has `additionalProperties: false`
//!    ([github/github-mcp-server#376](https://github.com/github/github-mcp-server/issues/376),
//!    nested ones too: [vercel/ai#6704](https://github.com/vercel/ai/issues/6704)) and lists
//!    every property in `required`, even when empty
//!    ([modelcontextprotocol/typescript-sdk#1659](https://github.com/modelcontextprotocol/typescript-sdk/issues/1659)).
//!    An optional parameter is therefore required and nullable (`type: [T, "null"]`, or
//!    `anyOf: [T, {"type": "null"}]`), and its description says to pass `null` to leave it out
//!    ([moltis-org/moltis#283](https://github.com/moltis-org/moltis/pull/283): without that,
//!    models invent values such as `""`). toolwright's lax mode (the default) treats that `null`
//!    as absent and fills in the default, so such a call works unchanged through
//!    [`Toolbox::call`](crate::Toolbox::call).
//! 4. Only these keywords: `type`, `description`, `properties`, `required`,
//!    `additionalProperties`, `items`, `enum`, `anyOf`, `pattern`, `format` (`date-time`,
//!    `time`, `date`, `duration`, `email`, `hostname`, `ipv4`, `ipv6`, `uuid`), `multipleOf`,
//!    `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `minItems`, `maxItems`.
//!    Everything else is refused: `default`
//!    ([567-labs/instructor#1074](https://github.com/567-labs/instructor/issues/1074),
//!    [dotnet/extensions#6196](https://github.com/dotnet/extensions/issues/6196), and why
//!    [dotnet/extensions#6266](https://github.com/dotnet/extensions/issues/6266) turned strict
//!    off for MCP tools), `examples`, `minLength`/`maxLength`, `oneOf`, `allOf`, `not`,
//!    `if`/`then`/`else`, and extensions such as `x-unit`. Types are the JSON Schema ones.
//! 5. Size limits: at most 5000 properties and 10 levels of nesting, 1000 enum values, and
//!    120,000 characters of property names and enum values.
//!
//! # What the export does to fit
//!
//! Dropped keywords are said in words in the description: `x-unit` (unless the description
//! already names the unit), `default` (`Default: 15 N.`), `examples`, `minLength`/`maxLength`
//! (`1 to 32 characters.`). Ranges, `pattern`, `minItems`/`maxItems` and `enum` stay as
//! keywords, and enum meanings are already in toolwright's descriptions. `oneOf` becomes
//! `anyOf` (toolwright's variants are disjoint, so the two accept the same values) and `const`
//! a one-value `enum`.
//!
//! One thing strict mode cannot declare: a map with free-form keys (`HashMap<String, T>`, an
//! object whose `additionalProperties` is a schema). A tool with one is exported with
//! `strict: false` and the map kept as it is; everything else about it follows the rules above.

use std::collections::HashSet;

use regex::Regex;
use rmcp::model::Tool;
use serde_json::{Map, Value, json};

use super::words;

/// The keywords strict mode accepts (rule 4).
pub const KEYWORDS: [&str; 17] = [
    "type",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "anyOf",
    "pattern",
    "format",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
];

/// The string formats strict mode accepts.
pub const FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

const TYPES: [&str; 7] = [
    "string", "number", "integer", "boolean", "object", "array", "null",
];

/// The tools as OpenAI strict function tools (the array [`render`](super::render) writes).
pub fn declarations(tools: &[Tool]) -> Value {
    Value::Array(tools.iter().map(declaration).collect())
}

fn declaration(tool: &Tool) -> Value {
    let mut map = false;
    let mut parameters = Value::Object((*tool.input_schema).clone());
    transform(&mut parameters, &mut map);
    if let Value::Object(root) = &mut parameters
        && !root.contains_key("type")
    {
        root.insert("type".to_owned(), json!("object"));
    }
    let mut function = Map::new();
    function.insert("name".to_owned(), json!(tool.name));
    if let Some(d) = super::dialect_description(tool) {
        function.insert("description".to_owned(), json!(d));
    }
    function.insert("parameters".to_owned(), parameters);
    function.insert("strict".to_owned(), json!(!map));
    json!({"type": "function", "function": function})
}

/// Rewrites one schema node for strict mode; sets `map` when it meets a free-form map.
fn transform(node: &mut Value, map: &mut bool) {
    let Value::Object(n) = node else {
        // `true`/`false` schemas: strict mode has no way to say "anything".
        *map = true;
        return;
    };
    if let Some(variants) = n.shift_remove("oneOf")
        && !n.contains_key("anyOf")
    {
        n.insert("anyOf".to_owned(), variants);
    }
    if let Some(c) = n.shift_remove("const")
        && !n.contains_key("enum")
    {
        n.insert("enum".to_owned(), Value::Array(vec![c]));
    }
    if let Some(Value::Array(variants)) = n.get_mut("anyOf") {
        for v in variants {
            transform(v, map);
        }
    }
    if let Some(items) = n.get_mut("items") {
        transform(items, map);
    }
    if words::is_object_node(n) {
        object(n, map);
    }
    let format_ok = n
        .get("format")
        .and_then(Value::as_str)
        .is_none_or(|f| FORMATS.contains(&f));
    let dropped: Vec<String> = n
        .keys()
        .filter(|k| !KEYWORDS.contains(&k.as_str()) || (k.as_str() == "format" && !format_ok))
        .cloned()
        .collect();
    let dropped: Vec<&str> = dropped.iter().map(String::as_str).collect();
    words::drop_keywords(n, &dropped);
}

fn object(n: &mut Map<String, Value>, map: &mut bool) {
    if !n.contains_key("type") {
        n.insert("type".to_owned(), json!("object"));
    }
    if let Some(extra @ Value::Object(_)) = n.get_mut("additionalProperties") {
        // A free-form map: strict mode cannot declare it (see the module docs).
        transform(extra, map);
        *map = true;
        if !n.contains_key("properties") {
            return;
        }
    } else {
        n.insert("additionalProperties".to_owned(), json!(false));
    }
    let required = super::required_names(n);
    let mut names = Vec::new();
    if let Some(Value::Object(props)) = n.get_mut("properties") {
        for (name, child) in props.iter_mut() {
            let had_default = child.get("default").is_some();
            transform(child, map);
            if !required.contains(name) {
                nullable(child, had_default);
            }
            names.push(json!(name));
        }
    } else {
        n.insert("properties".to_owned(), json!({}));
    }
    n.insert("required".to_owned(), Value::Array(names));
    // Keep `required` and `additionalProperties` last, as toolwright publishes them.
    for k in ["required", "additionalProperties"] {
        if let Some(v) = n.shift_remove(k) {
            n.insert(k.to_owned(), v);
        }
    }
}

/// Makes an optional property required-but-nullable (rule 3) and says so.
fn nullable(node: &mut Value, had_default: bool) {
    let Value::Object(n) = node else {
        return;
    };
    let null = json!("null");
    match n.get("type").cloned() {
        Some(Value::String(t)) if t != "object" && t != "array" => {
            n.insert("type".to_owned(), json!([t, "null"]));
            push_null_enum(n);
        }
        Some(Value::Array(mut types)) => {
            if !types.contains(&null) {
                types.push(null);
            }
            n.insert("type".to_owned(), Value::Array(types));
            push_null_enum(n);
        }
        _ if !n.contains_key("type") && n.contains_key("anyOf") => {
            if let Some(Value::Array(variants)) = n.get_mut("anyOf") {
                variants.push(json!({"type": "null"}));
            }
        }
        _ => {
            let description = n.shift_remove("description");
            let inner = std::mem::take(n);
            n.insert(
                "anyOf".to_owned(),
                json!([Value::Object(inner), {"type": "null"}]),
            );
            if let Some(d) = description {
                n.insert("description".to_owned(), d);
            }
        }
    }
    let sentence = if had_default {
        "Optional: pass null to use the default."
    } else {
        "Optional: pass null to leave it out."
    };
    words::set_description(n, &[sentence.to_owned()]);
}

fn push_null_enum(n: &mut Map<String, Value>) {
    if let Some(Value::Array(values)) = n.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
}

/// The violations of the rules above in a rendered `openai.json` (empty when it follows them).
/// Each names the tool and the schema path.
pub fn check_openai(rendered: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(tools) = rendered.as_array() else {
        return vec!["openai: the file must be a JSON array of tools (a request's `tools`)".into()];
    };
    let name_re = Regex::new("^[a-zA-Z0-9_-]{1,64}$").expect("valid regex");
    let mut seen = HashSet::new();
    for (i, tool) in tools.iter().enumerate() {
        let at = format!("openai: tools[{i}]");
        if tool.get("type") != Some(&json!("function")) {
            out.push(format!("{at}: `type` must be \"function\""));
        }
        unknown_keys(tool, &["type", "function"], &at, &mut out);
        let Some(f) = tool.get("function").filter(|f| f.is_object()) else {
            out.push(format!("{at}: `function` must be an object"));
            continue;
        };
        unknown_keys(
            f,
            &["name", "description", "parameters", "strict"],
            &at,
            &mut out,
        );
        let at = check_name(f, &name_re, "openai", at, &mut seen, &mut out);
        let Some(params) = f.get("parameters").filter(|p| p.is_object()) else {
            out.push(format!("{at}: `parameters` must be an object schema"));
            continue;
        };
        if params.get("type") != Some(&json!("object")) || params.get("anyOf").is_some() {
            out.push(format!(
                "{at}: the root of `parameters` must be `type: object`, not anyOf"
            ));
        }
        let mut nodes = Vec::new();
        words::nodes(params, "parameters", &mut nodes);
        let has_map = nodes
            .iter()
            .any(|(_, n)| matches!(n.get("additionalProperties"), Some(Value::Object(_))));
        let strict = f.get("strict") == Some(&json!(true));
        if !strict && !has_map {
            out.push(format!(
                "{at}: `strict` must be true (only a tool with a free-form map may fall back to false)"
            ));
        }
        if strict && has_map {
            out.push(format!(
                "{at}: a free-form map (additionalProperties schema) needs `strict: false`"
            ));
        }
        let mut properties = 0usize;
        let mut enum_values = 0usize;
        let mut chars = 0usize;
        for (path, node) in &nodes {
            for key in node.keys() {
                if !KEYWORDS.contains(&key.as_str()) {
                    out.push(format!(
                        "{at}: {path}: keyword `{key}` is not supported in strict mode"
                    ));
                }
            }
            check_type(node.get("type"), &TYPES, &format!("{at}: {path}"), &mut out);
            if let Some(f) = node.get("format").and_then(Value::as_str)
                && !FORMATS.contains(&f)
            {
                out.push(format!("{at}: {path}: format `{f}` is not supported"));
            }
            if let Some(Value::Object(props)) = node.get("properties") {
                properties += props.len();
                chars += props.keys().map(|k| k.chars().count()).sum::<usize>();
            }
            if let Some(Value::Array(values)) = node.get("enum") {
                enum_values += values.len();
                chars += values
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|s| s.chars().count())
                    .sum::<usize>();
            }
            let is_object = node.get("properties").is_some()
                || node.get("type") == Some(&json!("object"))
                || node
                    .get("type")
                    .and_then(Value::as_array)
                    .is_some_and(|t| t.contains(&json!("object")));
            let map_node = matches!(node.get("additionalProperties"), Some(Value::Object(_)));
            // A free-form map (only with `strict: false`, checked above) needs neither.
            if is_object && !(map_node && node.get("properties").is_none()) {
                if !map_node && node.get("additionalProperties") != Some(&json!(false)) {
                    out.push(format!(
                        "{at}: {path}: every object needs `additionalProperties: false`"
                    ));
                }
                let keys: Vec<&str> = node
                    .get("properties")
                    .and_then(Value::as_object)
                    .map(|p| p.keys().map(String::as_str).collect())
                    .unwrap_or_default();
                let required: Vec<&str> = node
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                if node.get("required").is_none() {
                    out.push(format!(
                        "{at}: {path}: `required` must be present (even when empty)"
                    ));
                }
                for k in &keys {
                    if !required.contains(k) {
                        out.push(format!(
                            "{at}: {path}: property `{k}` must be listed in `required` (make it nullable instead)"
                        ));
                    }
                }
            }
        }
        if properties > 5000 {
            out.push(format!("{at}: {properties} properties (at most 5000)"));
        }
        if enum_values > 1000 {
            out.push(format!("{at}: {enum_values} enum values (at most 1000)"));
        }
        if chars > 120_000 {
            out.push(format!(
                "{at}: {chars} characters of names and enum values (at most 120000)"
            ));
        }
        let depth = object_depth(params);
        if depth > 10 {
            out.push(format!(
                "{at}: {depth} levels of object nesting (at most 10)"
            ));
        }
    }
    out
}

/// Flags keys of `v` outside `allowed`.
/// Checks a declaration's `name` against a provider's name pattern and for duplicates; returns
/// the location to use for the declaration's other problems (`"openai: `move_arm`"`).
pub(crate) fn check_name(
    decl: &Value,
    pattern: &Regex,
    provider: &str,
    at: String,
    seen: &mut HashSet<String>,
    out: &mut Vec<String>,
) -> String {
    match decl.get("name").and_then(Value::as_str) {
        Some(name) => {
            if !pattern.is_match(name) {
                out.push(format!(
                    "{at}: name `{name}` must match {}",
                    pattern.as_str()
                ));
            }
            if !seen.insert(name.to_owned()) {
                out.push(format!("{at}: duplicate name `{name}`"));
            }
            format!("{provider}: `{name}`")
        }
        None => {
            out.push(format!("{at}: `name` must be a string"));
            at
        }
    }
}

pub(crate) fn unknown_keys(v: &Value, allowed: &[&str], at: &str, out: &mut Vec<String>) {
    if let Some(m) = v.as_object() {
        for k in m.keys() {
            if !allowed.contains(&k.as_str()) {
                out.push(format!("{at}: unexpected field `{k}`"));
            }
        }
    }
}

/// Checks that `type` is one of `types` or an array of them.
pub(crate) fn check_type(t: Option<&Value>, types: &[&str], at: &str, out: &mut Vec<String>) {
    let ok = |v: &Value| v.as_str().is_some_and(|s| types.contains(&s));
    match t {
        None => {}
        Some(Value::Array(list)) if !list.is_empty() && list.iter().all(ok) => {}
        Some(v) if ok(v) => {}
        Some(v) => out.push(format!(
            "{at}: `type` {v} is not one of {}",
            types.join(", ")
        )),
    }
}

/// Levels of nested objects (the root object is level 1).
pub(crate) fn object_depth(v: &Value) -> usize {
    let Some(n) = v.as_object() else {
        return 0;
    };
    let mut deepest = 0;
    if let Some(Value::Object(props)) = n.get("properties") {
        for child in props.values() {
            deepest = deepest.max(object_depth(child));
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(child) = n.get(key) {
            deepest = deepest.max(object_depth(child));
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(list)) = n.get(key) {
            for child in list {
                deepest = deepest.max(object_depth(child));
            }
        }
    }
    let own = usize::from(n.contains_key("properties") || n.get("type") == Some(&json!("object")));
    own + deepest
}
