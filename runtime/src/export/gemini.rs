//! Gemini function declarations (`gemini.json`): the value of the `tools` field of a
//! `generateContent` request, `[{"functionDeclarations": [..]}]`, one declaration per tool.
//!
//! # The rules, as [`check_gemini`] checks them
//!
//! A declaration's `parameters` is Gemini's `Schema`, "a select subset of an OpenAPI 3.0 schema
//! object" (<https://ai.google.dev/api/caching#Schema>,
//! <https://cloud.google.com/vertex-ai/docs/reference/rest/v1/Schema>). The Gemini API rejects
//! the whole request (every tool, not just the bad one) when one declaration breaks it, so the
//! export stays inside the part that every Gemini endpoint and SDK accepts: the fields listed
//! by Firebase's `SchemaShared`
//! (<https://firebase.google.com/docs/reference/js/ai.schemashared>) minus the ones the issues
//! below show refused.
//!
//! 1. The file is `[{"functionDeclarations": [..]}]`; a declaration has `name`,
//!    `description` and at most one of `parameters` / `parametersJsonSchema` (they are mutually
//!    exclusive). The name starts with a letter or `_`, uses `[A-Za-z0-9_.:-]`, at most 64
//!    characters ([cline/cline#7339](https://github.com/cline/cline/issues/7339): a digit first
//!    is refused); names are unique.
//! 2. `parameters` is `type: object` with a non-empty `properties`; a tool without parameters
//!    omits it ("should be non-empty for OBJECT type":
//!    [agno-agi/agno#2112](https://github.com/agno-agi/agno/issues/2112),
//!    [pipecat-ai/pipecat-flows#110](https://github.com/pipecat-ai/pipecat-flows/issues/110)).
//!    Every nested object has non-empty `properties` too, and `required` names only those.
//!    Property names start with a letter or `_` and use `[A-Za-z0-9_]`, at most 64 characters.
//! 3. Only these keywords in `parameters`: `type`, `description`, `properties`, `required`,
//!    `items`, `enum`, `anyOf`, `nullable`, `minimum`, `maximum`, `minItems`, `maxItems`
//!    (plus `format`, `title`, `example`, `propertyOrdering`, which the export does not write).
//!    Refused with `Unknown name ...: Cannot find field` or dropping the tool set:
//!    `additionalProperties` ([promptfoo/promptfoo#6902](https://github.com/promptfoo/promptfoo/issues/6902)),
//!    `exclusiveMinimum`/`exclusiveMaximum`
//!    ([ahmadrosid/nakama#292](https://github.com/ahmadrosid/nakama/issues/292)), `default`
//!    ([erikdarlingdata/PerformanceMonitor#1082](https://github.com/erikdarlingdata/PerformanceMonitor/pull/1082)),
//!    `examples`, `const`, `multipleOf`, `uniqueItems`, `propertyNames`, `patternProperties`
//!    ([danny-avila/LibreChat#13850](https://github.com/danny-avila/LibreChat/pull/13850),
//!    verified live on the Gemini API and Vertex AI), `$ref`/`$defs`
//!    ([google-gemini/gemini-cli#13326](https://github.com/google-gemini/gemini-cli/issues/13326)),
//!    `$schema` and `x-*` extensions. `pattern`, `minLength` and `maxLength` are in the Schema
//!    reference but not in Firebase's common subset, so the export says them in words too.
//!    (One proxy reports even `minimum`/`maximum` refused,
//!    [Mirrowel/LLM-API-Key-Proxy#86](https://github.com/Mirrowel/LLM-API-Key-Proxy/issues/86);
//!    the live probes of LibreChat#13850 found them accepted, and every Schema reference lists
//!    them, so ranges and item counts stay keywords.)
//! 4. `type` is one string (`string`, `number`, `integer`, `boolean`, `array`, `object`), never a
//!    union array ([google-gemini/gemini-cli#21094](https://github.com/google-gemini/gemini-cli/issues/21094):
//!    `["array", "null"]` → 400 "Proto field is not repeating"); nullability is `nullable:
//!    true`. Every array has `items`; `enum` holds strings on a `string`
//!    ([nanbingxyz/5ire#218](https://github.com/nanbingxyz/5ire/issues/218): "only allowed for
//!    STRING type"); every `anyOf` branch has a `type`.
//!
//! `parametersJsonSchema` (JSON Schema, mutually exclusive with `parameters`) is used only for
//! a tool that `parameters` cannot declare: a free-form map (`HashMap<String, T>`, which needs
//! `additionalProperties`), an empty nested object, a property name outside rule 2, or a value
//! of any type. It follows rules 3 and 4 except that it may carry `additionalProperties` and
//! union `type` arrays, and it never carries `$ref`/`$defs` or `x-*`.
//!
//! # What the export does to fit
//!
//! Dropped keywords are said in words in the description: `default` (`Default: 15 N.`),
//! `examples`, exclusive bounds (`At least 0 and less than 100 N.`; on integers they become the
//! equivalent inclusive bound instead), `pattern` and lengths, a non-string `enum`, and
//! `x-unit` when the description does not already name the unit. Enum meanings are already in
//! toolwright's descriptions. `oneOf` becomes `anyOf` and `const` a one-value string `enum`.

use std::collections::HashSet;

use regex::Regex;
use rmcp::model::Tool;
use serde_json::{Map, Value, json};

use super::openai::{check_name, check_type, unknown_keys};
use super::words;

/// The keywords the export writes into `parameters` (rule 3).
pub const KEYWORDS: [&str; 12] = [
    "type",
    "description",
    "properties",
    "required",
    "items",
    "enum",
    "anyOf",
    "nullable",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
];

/// Documented `Schema` fields the check also accepts (the export does not write them).
const ALSO_DOCUMENTED: [&str; 4] = ["format", "title", "example", "propertyOrdering"];

const TYPES: [&str; 6] = ["string", "number", "integer", "boolean", "array", "object"];

const DECLARATION_KEYS: [&str; 7] = [
    "name",
    "description",
    "parameters",
    "parametersJsonSchema",
    "response",
    "responseJsonSchema",
    "behavior",
];

/// Compiled once: the export and the check ask it of every property of every tool.
fn property_name_re() -> &'static Regex {
    static RE: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
        Regex::new("^[A-Za-z_][A-Za-z0-9_]{0,63}$").expect("valid regex")
    });
    &RE
}

/// The tools as Gemini function declarations (the value [`render`](super::render) writes).
pub fn declarations(tools: &[Tool]) -> Value {
    let list: Vec<Value> = tools.iter().map(declaration).collect();
    json!([{"functionDeclarations": list}])
}

struct Ctx {
    /// Writing `parametersJsonSchema` rather than `parameters`.
    json: bool,
    /// Why `parameters` cannot declare this tool.
    inexpressible: Vec<String>,
    names: &'static Regex,
}

fn declaration(tool: &Tool) -> Value {
    let source = Value::Object((*tool.input_schema).clone());
    let mut ctx = Ctx {
        json: false,
        inexpressible: Vec::new(),
        names: property_name_re(),
    };
    let mut params = source.clone();
    transform(&mut params, true, &mut ctx);
    let mut key = "parameters";
    if !ctx.inexpressible.is_empty() {
        ctx.json = true;
        params = source;
        transform(&mut params, true, &mut ctx);
        key = "parametersJsonSchema";
    }
    let mut d = Map::new();
    d.insert("name".to_owned(), json!(tool.name));
    if let Some(description) = super::dialect_description(tool) {
        d.insert("description".to_owned(), json!(description));
    }
    let empty = params
        .get("properties")
        .and_then(Value::as_object)
        .is_none_or(Map::is_empty)
        && params
            .get("additionalProperties")
            .is_none_or(|a| !a.is_object());
    if !empty {
        d.insert(key.to_owned(), params);
    }
    Value::Object(d)
}

fn transform(node: &mut Value, root: bool, ctx: &mut Ctx) {
    let Value::Object(n) = node else {
        ctx.inexpressible.push("a boolean schema".into());
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
        if c.is_string() && !n.contains_key("type") {
            n.insert("type".to_owned(), json!("string"));
        }
        n.insert("enum".to_owned(), Value::Array(vec![c]));
    }
    // Union type arrays: one type plus `nullable` (rule 4); JSON Schema keeps them.
    if let Some(Value::Array(types)) = n.get("type").cloned()
        && !ctx.json
    {
        let real: Vec<&Value> = types
            .iter()
            .filter(|t| t.as_str() != Some("null"))
            .collect();
        if real.len() == 1 {
            n.insert("type".to_owned(), real[0].clone());
            if real.len() < types.len() {
                n.insert("nullable".to_owned(), json!(true));
            }
        } else {
            ctx.inexpressible.push("a value of several types".into());
        }
    }
    if !n.contains_key("type") && !n.contains_key("anyOf") {
        if n.contains_key("properties") {
            n.insert("type".to_owned(), json!("object"));
        } else if n.contains_key("items") {
            n.insert("type".to_owned(), json!("array"));
        } else if n
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|e| e.iter().all(Value::is_string))
        {
            n.insert("type".to_owned(), json!("string"));
        } else if !ctx.json {
            ctx.inexpressible.push("a value of any type".into());
        }
    }
    // Exclusive integer bounds are inclusive ones one step in.
    if n.get("type") == Some(&json!("integer")) {
        for (exclusive, inclusive, step) in [
            ("exclusiveMinimum", "minimum", 1),
            ("exclusiveMaximum", "maximum", -1),
        ] {
            if let Some(e) = n.get(exclusive).and_then(Value::as_i64) {
                let b = e + step;
                let tighter = match n.get(inclusive).and_then(Value::as_i64) {
                    Some(existing) => (step > 0 && b > existing) || (step < 0 && b < existing),
                    None => true,
                };
                n.shift_remove(exclusive);
                if tighter {
                    n.insert(inclusive.to_owned(), json!(b));
                }
            }
        }
    }
    let string_enum = n
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|e| e.iter().all(Value::is_string))
        && n.get("type") == Some(&json!("string"));
    if let Some(Value::Array(variants)) = n.get_mut("anyOf") {
        for v in variants {
            transform(v, false, ctx);
        }
    }
    if let Some(items) = n.get_mut("items") {
        transform(items, false, ctx);
    }
    if n.get("type") == Some(&json!("object")) {
        let mut map = false;
        if let Some(extra @ Value::Object(_)) = n.get_mut("additionalProperties") {
            map = true;
            if ctx.json {
                transform(extra, false, ctx);
            } else {
                ctx.inexpressible.push("a map with free-form keys".into());
            }
        }
        let props = n.get_mut("properties").and_then(Value::as_object_mut);
        match props {
            Some(props) if !props.is_empty() => {
                for (name, child) in props.iter_mut() {
                    if !ctx.names.is_match(name) && !ctx.json {
                        ctx.inexpressible.push(format!("property name `{name}`"));
                    }
                    transform(child, false, ctx);
                }
            }
            _ if root || map => {}
            _ if !ctx.json => ctx.inexpressible.push("an empty object".into()),
            _ => {}
        }
    }
    // A non-string `enum` goes into words (rule 4).
    let keep = |k: &str| match k {
        "enum" => string_enum,
        "additionalProperties" => ctx.json,
        _ => KEYWORDS.contains(&k),
    };
    let dropped: Vec<String> = n.keys().filter(|k| !keep(k)).cloned().collect();
    let dropped: Vec<&str> = dropped.iter().map(String::as_str).collect();
    words::drop_keywords(n, &dropped);
}

/// The violations of the rules above in a rendered `gemini.json` (empty when it follows them).
/// Each names the declaration and the schema path.
pub fn check_gemini(rendered: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some([tool]) = rendered.as_array().map(Vec::as_slice) else {
        return vec!["gemini: the file must be `[{\"functionDeclarations\": [..]}]`".into()];
    };
    unknown_keys(
        tool,
        &["functionDeclarations"],
        "gemini: tools[0]",
        &mut out,
    );
    let Some(decls) = tool.get("functionDeclarations").and_then(Value::as_array) else {
        out.push("gemini: tools[0]: `functionDeclarations` must be an array".into());
        return out;
    };
    let name_re = Regex::new("^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$").expect("valid regex");
    let prop_re = property_name_re();
    let mut seen = HashSet::new();
    for (i, d) in decls.iter().enumerate() {
        let at = format!("gemini: functionDeclarations[{i}]");
        unknown_keys(d, &DECLARATION_KEYS, &at, &mut out);
        let at = check_name(d, &name_re, "gemini", at, &mut seen, &mut out);
        if d.get("parameters").is_some() && d.get("parametersJsonSchema").is_some() {
            out.push(format!(
                "{at}: `parameters` and `parametersJsonSchema` are mutually exclusive"
            ));
        }
        if let Some(p) = d.get("parameters") {
            check_schema(p, false, &at, prop_re, &mut out);
        }
        if let Some(p) = d.get("parametersJsonSchema") {
            check_schema(p, true, &at, prop_re, &mut out);
            // Only when `parameters` cannot declare the tool.
            let mut nodes = Vec::new();
            words::nodes(p, "", &mut nodes);
            let needed = nodes.iter().any(|(_, n)| {
                matches!(n.get("additionalProperties"), Some(Value::Object(_)))
                    || n.get("type").is_some_and(Value::is_array)
                    || (n.get("type").is_none() && n.get("anyOf").is_none())
                    || n.get("properties")
                        .and_then(Value::as_object)
                        .is_some_and(|p| p.is_empty() || p.keys().any(|k| !prop_re.is_match(k)))
            });
            if !needed {
                out.push(format!(
                    "{at}: `parametersJsonSchema` is only for what `parameters` cannot declare; use `parameters`"
                ));
            }
        }
    }
    out
}

fn check_schema(
    schema: &Value,
    json_schema: bool,
    at: &str,
    prop_re: &Regex,
    out: &mut Vec<String>,
) {
    let field = if json_schema {
        "parametersJsonSchema"
    } else {
        "parameters"
    };
    if schema.get("type") != Some(&json!("object")) {
        out.push(format!("{at}: `{field}` must be `type: object`"));
    }
    let root_props = schema.get("properties").and_then(Value::as_object);
    if !json_schema && root_props.is_none_or(Map::is_empty) {
        out.push(format!(
            "{at}: `{field}` needs non-empty `properties` (omit it for a tool without parameters)"
        ));
    }
    let mut nodes = Vec::new();
    words::nodes(schema, field, &mut nodes);
    for (path, node) in &nodes {
        for key in node.keys() {
            let ok = KEYWORDS.contains(&key.as_str())
                || ALSO_DOCUMENTED.contains(&key.as_str())
                || (json_schema && key == "additionalProperties");
            if !ok {
                out.push(format!(
                    "{at}: {path}: keyword `{key}` is not accepted by Gemini"
                ));
            }
        }
        let here = format!("{at}: {path}");
        match node.get("type") {
            Some(Value::Array(_)) if json_schema => {
                check_type(node.get("type"), &TYPES_AND_NULL, &here, out)
            }
            Some(Value::Array(_)) => out.push(format!(
                "{here}: `type` must be one string, not a union array (use `nullable`)"
            )),
            Some(t) => check_type(Some(t), &TYPES, &here, out),
            None if node.get("anyOf").is_none() && !json_schema => {
                out.push(format!("{here}: `type` is required"));
            }
            None => {}
        }
        let t = node.get("type").and_then(Value::as_str);
        if t == Some("array") && node.get("items").is_none() {
            out.push(format!("{here}: an array needs `items`"));
        }
        if let Some(values) = node.get("enum") {
            let strings = values
                .as_array()
                .is_some_and(|v| v.iter().all(Value::is_string));
            if t != Some("string") || !strings {
                out.push(format!(
                    "{here}: `enum` is only allowed on `type: string`, with string values"
                ));
            }
        }
        if t == Some("object") && path != field {
            let props = node.get("properties").and_then(Value::as_object);
            let map = matches!(node.get("additionalProperties"), Some(Value::Object(_)));
            if props.is_none_or(Map::is_empty) && !(json_schema && map) {
                out.push(format!("{here}: an object needs non-empty `properties`"));
            }
        }
        if let Some(props) = node.get("properties").and_then(Value::as_object) {
            if !json_schema {
                for k in props.keys() {
                    if !prop_re.is_match(k) {
                        out.push(format!(
                            "{here}: property name `{k}` must match ^[A-Za-z_][A-Za-z0-9_]{{0,63}}$"
                        ));
                    }
                }
            }
            if let Some(required) = node.get("required").and_then(Value::as_array) {
                for r in required {
                    if !r.as_str().is_some_and(|r| props.contains_key(r)) {
                        out.push(format!(
                            "{here}: `required` names {r}, which is not a property"
                        ));
                    }
                }
            }
        }
    }
}

const TYPES_AND_NULL: [&str; 7] = [
    "string", "number", "integer", "boolean", "array", "object", "null",
];
