//! What each client will refuse of a toolbox, before a user loses a server to it
//! (`check --clients`, [`assert_clients_accept!`](crate::assert_clients_accept)).
//!
//! Clients enforce rules of their own on the tools they list, often silently and often for the
//! whole server at once. Each rule below carries its source (an issue thread or a document) and
//! is checked against what that client receives:
//!
//! - **Claude Code**, **VS Code Copilot**, **Cursor** and the **Python SDK 2.x** read
//!   `tools/list`: they are checked against the tools as listed
//!   ([`Toolbox::listed_tools`](crate::Toolbox::listed_tools)).
//! - The **Anthropic**, **OpenAI (strict)** and **Gemini** APIs receive a dialect: they are
//!   checked against the export each would be sent ([`super::anthropic`], [`super::openai`],
//!   [`super::gemini`]), and for what that export can only say in words.
//!
//! Clients that prefix a tool's name with the server's (`mcp__arm__move` in Claude Code,
//! `mcp_arm_move` in VS Code) count the server's name in their name budgets: pass the name the
//! users give the server in their client's configuration (`check --clients --server-name arm`;
//! by default the toolbox's title, else the program's name).
//!
//! Each [`Finding`] names the client, the tool and the JSON pointer in what that client
//! receives (`/inputSchema/properties/level/enum`, `/name`), says what the client does with it,
//! what to change, and where the rule comes from. What every client refuses is a compile error
//! instead (a tool name outside `^[a-zA-Z0-9_-]{1,64}$`), not a finding.

use std::fmt;

use regex::Regex;
use rmcp::model::Tool;
use serde_json::{Map, Value};

/// A client whose rules a toolbox is held against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Client {
    /// Claude Code (Anthropic's CLI), reading `tools/list`.
    ClaudeCode,
    /// VS Code's Copilot agent mode, reading `tools/list`.
    VsCode,
    /// Cursor, reading `tools/list`.
    Cursor,
    /// The official Python SDK, 2.x line, validating `tools/list`.
    PythonSdk2,
    /// The Anthropic Messages API, sent `anthropic.json`.
    Anthropic,
    /// OpenAI function calling in strict mode, sent `openai.json`.
    OpenAiStrict,
    /// The Gemini API, sent `gemini.json`.
    Gemini,
}

impl Client {
    /// Every client, in the order findings are reported.
    pub const ALL: [Client; 7] = [
        Client::ClaudeCode,
        Client::VsCode,
        Client::Cursor,
        Client::PythonSdk2,
        Client::Anthropic,
        Client::OpenAiStrict,
        Client::Gemini,
    ];

    /// Its name, as findings say it.
    pub fn name(self) -> &'static str {
        match self {
            Client::ClaudeCode => "Claude Code",
            Client::VsCode => "VS Code Copilot",
            Client::Cursor => "Cursor",
            Client::PythonSdk2 => "Python SDK 2.x",
            Client::Anthropic => "Anthropic API",
            Client::OpenAiStrict => "OpenAI strict",
            Client::Gemini => "Gemini API",
        }
    }
}

impl fmt::Display for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One thing a client refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Which client.
    pub client: Client,
    /// The tool.
    pub tool: String,
    /// Where, as a JSON pointer into what the client receives: the tool as listed
    /// (`/inputSchema/properties/x`, `/name`) or its dialect declaration
    /// (`/parameters/properties/x`, `/input_schema`).
    pub pointer: String,
    /// What the client does with it.
    pub problem: String,
    /// What to change.
    pub fix: String,
    /// Where the rule comes from: an issue thread or a document.
    pub source: &'static str,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: `{}` at {}: {} Change: {} (source: {})",
            self.client, self.tool, self.pointer, self.problem, self.fix, self.source
        )
    }
}

/// What [`check`] found, in client order, then in tool order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// The server name the name budgets were counted with.
    pub server: String,
    /// Every finding.
    pub findings: Vec<Finding>,
}

impl Report {
    /// No client refuses anything.
    pub fn is_empty(&self) -> bool {
        self.findings.is_empty()
    }

    /// The exit status of `check --clients`: 0 when every client accepts every tool, 3 when
    /// one refuses something.
    pub fn exit_code(&self) -> i32 {
        if self.is_empty() { 0 } else { 3 }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return writeln!(
                f,
                "every client accepts every tool (server name `{}`: {})",
                self.server,
                Client::ALL
                    .iter()
                    .map(|c| c.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        let n = self.findings.len();
        writeln!(
            f,
            "{n} finding{} (server name `{}`):",
            if n == 1 { "" } else { "s" },
            self.server
        )?;
        for finding in &self.findings {
            writeln!(f, "- {finding}")?;
        }
        Ok(())
    }
}

/// The JSON Schema types; anything else in `type` is refused.
const TYPES: [&str; 7] = [
    "string", "number", "integer", "boolean", "object", "array", "null",
];

/// VS Code sends at most this many tools with a request.
pub const VS_CODE_MAX_TOOLS: usize = 128;
/// The longest tool name the model APIs behind Claude Code and VS Code take, their prefix
/// included.
pub const PREFIXED_NAME_CHARS: usize = 64;
/// Cursor's budget for the server's name and the tool's together.
pub const CURSOR_NAME_CHARS: usize = 60;

/// `/a/b` with `~` and `/` escaped (RFC 6901).
fn pointer(parts: &[String]) -> String {
    parts
        .iter()
        .map(|p| format!("/{}", p.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// Every schema node below `root` with its pointer (relative to `root`), depth first.
fn nodes<'a>(root: &'a Value, at: &mut Vec<String>, out: &mut Vec<(String, &'a Value)>) {
    out.push((pointer(at), root));
    let Some(n) = root.as_object() else {
        return;
    };
    for key in ["properties", "$defs", "definitions", "patternProperties"] {
        if let Some(Value::Object(children)) = n.get(key) {
            for (name, child) in children {
                at.push(key.to_owned());
                at.push(name.clone());
                nodes(child, at, out);
                at.pop();
                at.pop();
            }
        }
    }
    for key in ["items", "additionalProperties", "not", "contains"] {
        if let Some(child @ (Value::Object(_) | Value::Bool(_))) = n.get(key) {
            at.push(key.to_owned());
            nodes(child, at, out);
            at.pop();
        }
    }
    for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(list)) = n.get(key) {
            for (i, child) in list.iter().enumerate() {
                at.push(key.to_owned());
                at.push(i.to_string());
                nodes(child, at, out);
                at.pop();
                at.pop();
            }
        }
    }
}

fn schema_nodes(schema: &Value, base: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    nodes(schema, &mut Vec::new(), &mut out);
    out.into_iter()
        .map(|(p, v)| (format!("{base}{p}"), v.clone()))
        .collect()
}

struct Findings<'a> {
    tool: &'a str,
    out: Vec<Finding>,
}

impl Findings<'_> {
    fn push(
        &mut self,
        client: Client,
        pointer: impl Into<String>,
        problem: impl Into<String>,
        fix: impl Into<String>,
        source: &'static str,
    ) {
        self.out.push(Finding {
            client,
            tool: self.tool.to_owned(),
            pointer: pointer.into(),
            problem: problem.into(),
            fix: fix.into(),
            source,
        });
    }
}

/// Holds `tools` (as listed) against every client's rules, the server named `server` where a
/// client prefixes it. Each finding appears once.
pub fn check(tools: &[Tool], server: &str) -> Report {
    let mut findings = Vec::new();
    for client in Client::ALL {
        for tool in tools {
            let mut f = Findings {
                tool: &tool.name,
                out: Vec::new(),
            };
            match client {
                Client::ClaudeCode => claude_code(tool, server, &mut f),
                Client::VsCode => vs_code(tool, server, &mut f),
                Client::Cursor => cursor(tool, server, &mut f),
                Client::PythonSdk2 => python_sdk(tool, &mut f),
                Client::Anthropic => dialect(
                    tool,
                    client,
                    super::anthropic::check_anthropic(&super::anthropic::declarations(
                        std::slice::from_ref(tool),
                    )),
                    &mut f,
                ),
                Client::OpenAiStrict => dialect(
                    tool,
                    client,
                    super::openai::check_openai(&super::openai::declarations(
                        std::slice::from_ref(tool),
                    )),
                    &mut f,
                ),
                Client::Gemini => {
                    dialect(
                        tool,
                        client,
                        super::gemini::check_gemini(&super::gemini::declarations(
                            std::slice::from_ref(tool),
                        )),
                        &mut f,
                    );
                    gemini_enums(tool, &mut f);
                }
            }
            findings.extend(f.out);
        }
        if client == Client::VsCode && tools.len() > VS_CODE_MAX_TOOLS {
            // microsoft/vscode: a request carries at most 128 tools.
            let first = &tools[VS_CODE_MAX_TOOLS];
            findings.push(Finding {
                client,
                tool: first.name.to_string(),
                pointer: format!("/tools/{VS_CODE_MAX_TOOLS}"),
                problem: format!(
                    "{} tools are listed, and Copilot refuses a request with more than \
                     {VS_CODE_MAX_TOOLS} (\"You may not include more than 128 tools in your \
                     request\") until the user deselects `{}` and {} more.",
                    tools.len(),
                    first.name,
                    tools.len() - VS_CODE_MAX_TOOLS - 1
                ),
                fix: format!(
                    "list at most {VS_CODE_MAX_TOOLS} at once: put tools in groups \
                     (`#[tool(group = \"..\")]`) and serve the ones a task needs \
                     (`serve --groups ..`), or split the server"
                ),
                source: "microsoft/vscode-copilot-release#11653, microsoft/vscode#255585",
            });
        }
    }
    Report {
        server: server.to_owned(),
        findings,
    }
}

fn characters(n: usize) -> String {
    format!("{n} character{}", if n == 1 { "" } else { "s" })
}

fn input(tool: &Tool) -> Value {
    Value::Object((*tool.input_schema).clone())
}

fn name_budget(
    client: Client,
    prefixed: String,
    limit: usize,
    source: &'static str,
    f: &mut Findings<'_>,
) {
    let chars = prefixed.chars().count();
    if chars > limit {
        f.push(
            client,
            "/name",
            format!(
                "the name it gives the model, `{prefixed}`, is {chars} characters, over its \
                 {limit}: the tool is left out or the request fails."
            ),
            format!(
                "shorten the tool's name by {} (`#[tool(name = \"..\")]`), or tell users to give \
                 the server a shorter name",
                characters(chars - limit)
            ),
            source,
        );
    }
}

/// The root of an input schema must be an object, and every `type` a JSON Schema type.
fn root_and_types(
    client: Client,
    tool: &Tool,
    whole: &str,
    sources: (&'static str, &'static str),
    f: &mut Findings<'_>,
) {
    let schema = input(tool);
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        f.push(
            client,
            "/inputSchema/type",
            format!("the input schema is not `\"type\": \"object\"`: {whole}"),
            "publish the parameters as an object (toolwright always does; check a schema given \
             by hand)",
            sources.0,
        );
    }
    for (at, node) in schema_nodes(&schema, "/inputSchema") {
        match node.get("type") {
            Some(Value::String(t)) if TYPES.contains(&t.as_str()) => {}
            Some(Value::Array(list))
                if !list.is_empty()
                    && list
                        .iter()
                        .all(|t| t.as_str().is_some_and(|t| TYPES.contains(&t))) => {}
            None => {}
            Some(other) => f.push(
                client,
                format!("{at}/type"),
                format!("`type` {other} is not a JSON Schema type: {whole}"),
                format!("use one of {}", TYPES.join(", ")),
                sources.1,
            ),
        }
    }
}

/// Claude Code.
fn claude_code(tool: &Tool, server: &str, f: &mut Findings<'_>) {
    root_and_types(
        Client::ClaudeCode,
        tool,
        "over HTTP Claude Code drops every tool of the server.",
        (
            "anthropics/claude-code#88049",
            "Kuadrant/mcp-gateway#689 (\"type\": \"int\" made Claude refuse every tool)",
        ),
        f,
    );
    let schema = input(tool);
    for key in ["oneOf", "anyOf", "allOf"] {
        if schema.get(key).is_some() {
            f.push(
                Client::ClaudeCode,
                format!("/inputSchema/{key}"),
                format!(
                    "`{key}` at the top of the input schema: the API refuses the tool \
                     (\"input_schema does not support oneOf, allOf, or anyOf at the top level\")."
                ),
                "make the parameters one object and move the alternatives into a parameter",
                "anthropics/claude-code#27337, #5973",
            );
        }
    }
    name_budget(
        Client::ClaudeCode,
        format!("mcp__{server}__{}", tool.name),
        PREFIXED_NAME_CHARS,
        "anthropics/claude-code#19882 (mcp__server__tool, at most 64 characters)",
        f,
    );
}

/// VS Code's Copilot: an invalid tool fails the session.
fn vs_code(tool: &Tool, server: &str, f: &mut Findings<'_>) {
    let whole = "VS Code fails the chat session on one invalid tool.";
    let schema = input(tool);
    for (at, node) in schema_nodes(&schema, "/inputSchema") {
        let Some(n) = node.as_object() else {
            continue;
        };
        let is_array = match n.get("type") {
            Some(Value::String(t)) => t == "array",
            Some(Value::Array(list)) => list.iter().any(|t| t == "array"),
            _ => false,
        };
        if is_array && !n.contains_key("items") && !n.contains_key("prefixItems") {
            f.push(
                Client::VsCode,
                at.clone(),
                format!("an array without `items`: {whole}"),
                "give the array an item type (a `Vec<T>` parameter always has one)",
                "microsoft/vscode#246119",
            );
        }
        for problem in keyword_types(n) {
            f.push(
                Client::VsCode,
                format!("{at}/{}", problem.0),
                format!("{}: {whole}", problem.1),
                "write the keyword as JSON Schema defines it",
                "microsoft/vscode#325618",
            );
        }
    }
    name_budget(
        Client::VsCode,
        format!("mcp_{server}_{}", tool.name),
        PREFIXED_NAME_CHARS,
        "microsoft/vscode#243602 (the 64-character limit counts VS Code's mcp_server_ prefix)",
        f,
    );
}

/// Keywords whose value is not of the kind JSON Schema defines: (keyword, what is wrong).
fn keyword_types(n: &Map<String, Value>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut bad = |k: &str, what: &str| out.push((k.to_owned(), format!("`{k}` {what}")));
    for k in [
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ] {
        if n.get(k).is_some_and(|v| !v.is_number()) {
            bad(k, "must be a number");
        }
    }
    for k in [
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
    ] {
        if n.get(k).is_some_and(|v| v.as_u64().is_none()) {
            bad(k, "must be a non-negative integer");
        }
    }
    if n.get("required")
        .is_some_and(|v| !v.as_array().is_some_and(|a| a.iter().all(Value::is_string)))
    {
        bad("required", "must be an array of property names");
    }
    if n.get("properties").is_some_and(|v| !v.is_object()) {
        bad("properties", "must be an object");
    }
    if n.get("enum").is_some_and(|v| !v.is_array()) {
        bad("enum", "must be an array");
    }
    for k in ["items", "additionalProperties", "not"] {
        if n.get(k).is_some_and(|v| !v.is_object() && !v.is_boolean()) {
            bad(k, "must be a schema");
        }
    }
    if let Some(p) = n.get("pattern") {
        match p.as_str() {
            Some(p) if Regex::new(p).is_err() => bad("pattern", "is not a regular expression"),
            None => bad("pattern", "must be a string"),
            _ => {}
        }
    }
    out
}

/// Cursor filters out a tool whose name, with the server's, is too long.
fn cursor(tool: &Tool, server: &str, f: &mut Findings<'_>) {
    let chars = server.chars().count() + tool.name.chars().count();
    if chars > CURSOR_NAME_CHARS {
        f.push(
            Client::Cursor,
            "/name",
            format!(
                "the server's name and the tool's are {chars} characters together, over \
                 Cursor's {CURSOR_NAME_CHARS}: Cursor filters the tool out without a word."
            ),
            format!(
                "shorten the tool's name by {} (`#[tool(name = \"..\")]`), or tell users to give \
                 the server a shorter name",
                characters(chars - CURSOR_NAME_CHARS)
            ),
            "ComposioHQ/composio#2788",
        );
    }
}

/// The Python SDK 2.x validates a `tools/list` page as a whole.
fn python_sdk(tool: &Tool, f: &mut Findings<'_>) {
    let whole = "the SDK refuses the whole tools/list page, so the client loses every tool of it.";
    let mut roots = vec![("/inputSchema", input(tool))];
    if let Some(output) = &tool.output_schema {
        roots.push(("/outputSchema", Value::Object((**output).clone())));
    }
    for (base, schema) in roots {
        if schema.get("type").and_then(Value::as_str) != Some("object") {
            f.push(
                Client::PythonSdk2,
                format!("{base}/type"),
                format!("not `\"type\": \"object\"`: {whole}"),
                "publish an object schema",
                "modelcontextprotocol/python-sdk#3353 (the wire model types the root)",
            );
        }
        if let Some(Value::Object(props)) = schema.get("properties") {
            for (name, child) in props {
                if !child.is_object() {
                    f.push(
                        Client::PythonSdk2,
                        format!("{base}{}", pointer(&["properties".into(), name.clone()])),
                        format!("a boolean sub-schema where the SDK wants an object: {whole}"),
                        "give the property a schema object (`{}` accepts anything)",
                        "modelcontextprotocol/python-sdk#3353, NousResearch/hermes-agent#101669 \
                         (one tool of 312 cost them all)",
                    );
                }
            }
        }
        if schema
            .get("required")
            .is_some_and(|v| !v.as_array().is_some_and(|a| a.iter().all(Value::is_string)))
        {
            f.push(
                Client::PythonSdk2,
                format!("{base}/required"),
                format!("`required` is not a list of names: {whole}"),
                "list the required property names",
                "modelcontextprotocol/python-sdk#3353",
            );
        }
    }
}

/// The check of a dialect's export for one tool: its messages are `provider: `name`: path:
/// problem`, the path dotted (`parameters.properties.x`).
fn dialect(tool: &Tool, client: Client, messages: Vec<String>, f: &mut Findings<'_>) {
    let source = match client {
        Client::Anthropic => "toolwright::export::anthropic (the rules and their sources)",
        Client::OpenAiStrict => "toolwright::export::openai (the rules and their sources)",
        _ => "toolwright::export::gemini (the rules and their sources)",
    };
    for message in messages {
        let rest = message
            .split_once(&format!("`{}`: ", tool.name))
            .map_or(message.as_str(), |(_, rest)| rest);
        let (at, problem) = match rest.split_once(": ") {
            Some((path, problem))
                if ["parameters", "input_schema", "parametersJsonSchema"]
                    .iter()
                    .any(|root| path.starts_with(root)) =>
            {
                (dotted_to_pointer(path), problem.to_owned())
            }
            _ => (String::new(), rest.to_owned()),
        };
        f.push(
            client,
            if at.is_empty() { "/".to_owned() } else { at },
            format!("{problem}: the API refuses the request."),
            "change the declaration so the export fits (see the rule's source)",
            source,
        );
    }
}

/// `parameters.properties.x.anyOf[1]` as `/parameters/properties/x/anyOf/1`.
fn dotted_to_pointer(path: &str) -> String {
    let mut parts = Vec::new();
    for piece in path.split('.') {
        match piece.split_once('[') {
            Some((key, index)) => {
                parts.push(key.to_owned());
                parts.push(index.trim_end_matches(']').to_owned());
            }
            None => parts.push(piece.to_owned()),
        }
    }
    pointer(&parts)
}

/// Gemini takes only string enums: the export says other values in words, and the model may
/// then send any value of the type.
fn gemini_enums(tool: &Tool, f: &mut Findings<'_>) {
    let schema = input(tool);
    for (at, node) in schema_nodes(&schema, "/inputSchema") {
        for key in ["enum", "const"] {
            let values: Vec<&Value> = match node.get(key) {
                Some(Value::Array(list)) if key == "enum" => list.iter().collect(),
                Some(v) if key == "const" => vec![v],
                _ => continue,
            };
            let others: Vec<String> = values
                .iter()
                .filter(|v| !v.is_string() && !v.is_null())
                .map(|v| v.to_string())
                .collect();
            if !others.is_empty() {
                f.push(
                    Client::Gemini,
                    format!("{at}/{key}"),
                    format!(
                        "Gemini refuses an `{key}` of {}: the export can only say them in \
                         words, so Gemini's model may send any value, which the server then \
                         refuses.",
                        others.join(", ")
                    ),
                    "make it a string enum (a unit-only Rust enum, published as its variants' \
                     names)",
                    "nanbingxyz/5ire#218, CherryHQ/cherry-studio#20939 (\"only allowed for \
                     STRING type\")",
                );
            }
        }
    }
}

/// Panics with the report when a client refuses something of `tools`; what
/// [`assert_clients_accept!`](crate::assert_clients_accept) runs.
#[track_caller]
pub fn assert_accepted(tools: &[Tool], server: &str) {
    let report = check(tools, server);
    assert!(
        report.is_empty(),
        "a client refuses some of these tools:\n{report}"
    );
}

/// Asserts that every client accepts a toolbox's tools as listed ([`check`]): beside
/// [`assert_tools_snapshot!`](crate::assert_tools_snapshot) in a test. The server's name in
/// the name budgets is the toolbox's title, else its name, unless given:
///
/// ```no_run
/// # fn toolbox() -> toolwright::Toolbox<()> { toolwright::Toolbox::from_tools((), Vec::new()) }
/// # fn main() {
/// toolwright::assert_clients_accept!(toolbox());
/// toolwright::assert_clients_accept!(toolbox(), server = "robot-arm");
/// # }
/// ```
#[macro_export]
macro_rules! assert_clients_accept {
    ($toolbox:expr $(,)?) => {{
        let toolbox = &($toolbox);
        $crate::export::clients::assert_accepted(
            &toolbox.listed_tools(),
            &toolbox.server_name_for_clients(),
        )
    }};
    ($toolbox:expr, server = $server:expr $(,)?) => {{
        let toolbox = &($toolbox);
        $crate::export::clients::assert_accepted(&toolbox.listed_tools(), $server)
    }};
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn tool(value: Value) -> Tool {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn pointers_escape_and_dotted_paths_convert() {
        assert_eq!(pointer(&["a/b".into(), "c~d".into()]), "/a~1b/c~0d");
        assert_eq!(
            dotted_to_pointer("parameters.properties.x.anyOf[1]"),
            "/parameters/properties/x/anyOf/1"
        );
    }

    #[test]
    fn each_rule_finds_its_case_once() {
        let long = "a".repeat(58);
        let tools = vec![
            tool(json!({"name": long, "inputSchema": {"type": "object"}})),
            tool(
                json!({"name": "level", "inputSchema": {"type": "object", "properties": {
                    "level": {"type": "integer", "enum": [1, 2, 3]},
                    "raw": true,
                    "list": {"type": "array"},
                    "n": {"type": "int"}
                }}}),
            ),
        ];
        let report = check(&tools, "arm");
        let found: Vec<(Client, &str, &str)> = report
            .findings
            .iter()
            .map(|f| (f.client, f.tool.as_str(), f.pointer.as_str()))
            .collect();
        for expected in [
            (Client::Cursor, long.as_str(), "/name"),
            (Client::ClaudeCode, long.as_str(), "/name"),
            (Client::VsCode, long.as_str(), "/name"),
            (
                Client::Gemini,
                "level",
                "/inputSchema/properties/level/enum",
            ),
            (Client::PythonSdk2, "level", "/inputSchema/properties/raw"),
            (Client::VsCode, "level", "/inputSchema/properties/list"),
            (
                Client::ClaudeCode,
                "level",
                "/inputSchema/properties/n/type",
            ),
        ] {
            assert_eq!(
                found.iter().filter(|f| **f == expected).count(),
                1,
                "{expected:?} in {report}"
            );
        }
        assert_eq!(report.exit_code(), 3);
        // `arm` and 58 are 61 for Cursor's 60; `ab` and 58 are 60.
        let fits = check(&tools[..1], "ab");
        assert!(
            !fits.findings.iter().any(|f| f.client == Client::Cursor),
            "{fits}"
        );
    }
}
