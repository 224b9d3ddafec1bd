//! Exports (tools.json, TOOLS.md, OpenAI, Anthropic and Gemini dialects), the provider rule
//! checks, the drift classifier and the snapshot assertion.
//!
//! The reviewed exports are tests/snapshots/export/derived (rewrite them with
//! `TOOLWRIGHT_SNAPSHOT=overwrite cargo test -p toolwright-tests --test export` and read the diff)
//! and the robot arm's committed docs, examples/docs/robot_arm, which
//! examples/tests/docs_drift.rs compares with the code and the provider checks here read.

mod common;

use std::path::PathBuf;
use std::process::Command;

use rmcp::model::Tool;
use serde_json::{Map, Value, json};
use toolwright::Toolbox;
use toolwright::export::drift::{self, Compatibility, Report};
use toolwright::export::{self, Format, check_anthropic, check_gemini, check_openai};
use toolwright_examples::robot_arm::{RobotArm, SimConfig};

use Compatibility::{Breaking, Compatible};

fn arm() -> Toolbox<RobotArm> {
    Toolbox::builder(RobotArm::new(SimConfig {
        time_scale: 0.0,
        seed: 1,
        ..SimConfig::default()
    }))
    .with_confirmation(false)
    .build()
    .unwrap()
}

fn snapshots() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("snapshots")
}

/// The tools of tests/snapshots/derived_schemas.json: every derived shape (renames, tagged
/// enums, a map, exclusive bounds, lengths, a pattern, flatten).
fn derived() -> Vec<Tool> {
    let text = std::fs::read_to_string(snapshots().join("derived_schemas.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn overwriting() -> bool {
    std::env::var(export::SNAPSHOT_ENV).is_ok_and(|v| v == "overwrite")
}

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = std::env::temp_dir().join(format!(
            "toolwright-export-{name}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn parsed(tools: &[Tool], format: Format) -> Value {
    serde_json::from_str(&export::render(tools, format)).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Formats
// ---------------------------------------------------------------------------------------------

#[test]
fn derived_export_matches_the_reviewed_snapshots() {
    let dir = snapshots().join("export/derived");
    if overwriting() {
        export::write_all(&derived(), &dir).unwrap();
    }
    export::assert_snapshot(&derived(), &dir);
}

#[test]
fn formats_have_names_files_and_render_deterministically() {
    let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
    assert_eq!(names, ["mcp", "markdown", "openai", "anthropic", "gemini"]);
    let files: Vec<&str> = Format::ALL.iter().map(|f| f.file_name()).collect();
    assert_eq!(
        files,
        [
            "tools.json",
            "TOOLS.md",
            "openai.json",
            "anthropic.json",
            "gemini.json"
        ]
    );
    for f in Format::ALL {
        assert_eq!(Format::from_name(f.name()), Some(f));
        assert_eq!(f.to_string(), f.name());
        let a = export::render(arm().tools(), f);
        assert_eq!(a, export::render(arm().tools(), f), "{f} is deterministic");
        assert!(
            a.ends_with('\n') && !a.ends_with("\n\n"),
            "{f} ends with one newline"
        );
    }
    assert_eq!(Format::from_name("yaml"), None);
    assert_eq!(Format::from_name("OpenAI"), None);
}

#[tokio::test]
async fn mcp_export_is_the_tools_list_payload() {
    let client = common::connect(arm()).await;
    let listed = serde_json::to_value(client.list_all_tools().await.unwrap()).unwrap();
    client.cancel().await.unwrap();
    let rendered = export::render(arm().tools(), Format::Mcp);
    assert_eq!(
        rendered,
        serde_json::to_string_pretty(&json!({ "tools": listed })).unwrap() + "\n"
    );
    assert_eq!(export::parse_mcp(&rendered).unwrap(), arm().tools());
    let bare = serde_json::to_string(arm().tools()).unwrap();
    assert_eq!(export::parse_mcp(&bare).unwrap(), arm().tools());
    assert!(export::parse_mcp("{\"tools\": 3}").is_err());
}

#[test]
fn markdown_documents_every_tool_in_declaration_order() {
    let md = export::render(arm().tools(), Format::Markdown);
    let headings: Vec<&str> = md.lines().filter(|l| l.starts_with("## ")).collect();
    let expected: Vec<String> = ["## Who changes what".to_owned()]
        .into_iter()
        .chain(arm().tools().iter().map(|t| format!("## `{}`", t.name)))
        .chain(["## Result arguments".to_owned()])
        .collect();
    assert_eq!(
        headings, expected,
        "who changes what, the tools, then their result arguments once"
    );
    assert!(
        md.contains(
            "### `arm`\n\n- Changes it once the user confirms: \
             [`move_arm_to_pose`](#move_arm_to_pose), \
             [`grasp_object_force_control`](#grasp_object_force_control), \
             [`release_object`](#release_object), [`follow_trajectory`](#follow_trajectory)\n\
             - Changes it without asking: none\n\
             - Only reads it: [`plan_trajectory`](#plan_trajectory)\n\
             - Stops it: [`stop_arm`](#stop_arm)\n"
        ),
        "{md}"
    );
    for needle in [
        "**Annotations:** read-only · not destructive · idempotent · closed world",
        "| `force` | number | no | `15` | N | 5 to 30 | Grip force to apply once the fingers touch, in newtons (N). |",
        "| `target_position.x` | number | yes |  | mm | -850 to 850 |",
        "`suction`: vacuum cup, for smooth flat tops (not for porous objects)",
        "| `waypoints[].z` | number | yes |  | mm | 15 to 950 |",
        "| `readings[].axis` | string | yes |  |",
        "| `gripper.held_object` | string | no |  | The object held, if any. |",
        "Also takes `jmespath` and `summary` for its result (see [Result arguments](#result-arguments)).",
        "Or, instead of the result: `{\"projection\": ..}`, `{\"_jmespath_error\": ..}`, `{\"summary\": ..}`, `{\"_budget_exceeded\": ..}`",
        "- `jmespath` (string, at most 512 characters): Optional JMESPath expression",
    ] {
        assert!(md.contains(needle), "TOOLS.md lacks {needle:?}:\n{md}");
    }
    let derived_md = export::render(&derived(), Format::Markdown);
    for needle in [
        "| `settings.maxForce` | number | no |  | N | ≥ 0 and < 100 |",
        "| `next` | one of | no |",
        "| `next.Go.target.name` | string | yes |  |  | 1 to 32 characters; pattern `^[a-z_]+$` | Pose name. (only in variant `kind` = `\"named\"`) |",
        "| `offsets` | map of number | yes |",
        "| `max_acceleration` | number | no |  | mm/s^2 |",
    ] {
        assert!(
            derived_md.contains(needle),
            "TOOLS.md lacks {needle:?}:\n{derived_md}"
        );
    }
}

/// The ```json blocks of a TOOLS.md: one example call per tool.
fn example_calls(md: &str) -> Vec<Value> {
    md.split("```json\n")
        .skip(1)
        .map(|block| serde_json::from_str(block.split("\n```").next().unwrap()).unwrap())
        .collect()
}

#[tokio::test]
async fn markdown_example_calls_are_valid() {
    for tools in [arm().tools().to_vec(), derived()] {
        let calls = example_calls(&export::render(&tools, Format::Markdown));
        assert_eq!(calls.len(), tools.len());
        for (tool, call) in tools.iter().zip(&calls) {
            assert_eq!(call["name"], json!(tool.name));
            let schema = Value::Object((*tool.input_schema).clone());
            let validator = jsonschema::draft202012::new(&schema).unwrap();
            assert!(
                validator.is_valid(&call["arguments"]),
                "{}: {:#}",
                tool.name,
                call["arguments"]
            );
        }
    }
    // And the robot arm itself accepts each one (some fail for reasons of state, not input).
    let calls = example_calls(&export::render(arm().tools(), Format::Markdown));
    for call in calls {
        let name = call["name"].as_str().unwrap();
        let result = arm()
            .call(name, call["arguments"].as_object().cloned())
            .await
            .unwrap();
        let text = result.content[0].as_text().unwrap().text.clone();
        assert!(!text.starts_with("Invalid arguments"), "{name}: {text}");
    }
}

// ---------------------------------------------------------------------------------------------
// Provider rules
// ---------------------------------------------------------------------------------------------

type Check = fn(&Value) -> Vec<String>;

const DIALECTS: [(Format, Check); 3] = [
    (Format::OpenAi, check_openai),
    (Format::Anthropic, check_anthropic),
    (Format::Gemini, check_gemini),
];

#[test]
fn every_dialect_file_follows_its_provider_rules() {
    for (set, tools) in [
        ("robot_arm", arm().tools().to_vec()),
        ("derived", derived()),
    ] {
        for (format, check) in DIALECTS {
            let violations = check(&parsed(&tools, format));
            assert!(violations.is_empty(), "{set} {format}: {violations:#?}");
        }
    }
    // The committed files too (they are what users paste into requests).
    for (set, dir) in [
        ("robot_arm", common::robot_arm_docs()),
        ("derived", snapshots().join("export/derived")),
    ] {
        for (format, check) in DIALECTS {
            let path = dir.join(format.file_name());
            let file: Value =
                serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            assert!(check(&file).is_empty(), "{set} {format}");
        }
    }
}

#[test]
fn dialects_fall_back_only_where_the_subset_cannot_declare_the_tool() {
    let openai = parsed(&derived(), Format::OpenAi);
    let strict: Vec<(&str, &Value)> = openai
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["function"]["name"].as_str().unwrap(),
                &t["function"]["strict"],
            )
        })
        .collect();
    assert_eq!(
        strict,
        [("configure", &json!(false)), ("apply_limits", &json!(true))],
        "only the tool with a map leaves strict mode"
    );
    let gemini = parsed(&derived(), Format::Gemini);
    let decls = gemini[0]["functionDeclarations"].as_array().unwrap();
    assert!(decls[0].get("parametersJsonSchema").is_some() && decls[0].get("parameters").is_none());
    assert!(decls[1].get("parameters").is_some() && decls[1].get("parametersJsonSchema").is_none());
    for t in parsed(arm().tools(), Format::OpenAi).as_array().unwrap() {
        assert_eq!(t["function"]["strict"], json!(true), "{t}");
    }
    let gemini = parsed(arm().tools(), Format::Gemini);
    for d in gemini[0]["functionDeclarations"].as_array().unwrap() {
        assert!(d.get("parametersJsonSchema").is_none(), "{d}");
    }
    // Anthropic gets the published schemas unchanged.
    let anthropic = parsed(arm().tools(), Format::Anthropic);
    for (t, tool) in anthropic.as_array().unwrap().iter().zip(arm().tools()) {
        assert_eq!(
            t["input_schema"],
            Value::Object((*tool.input_schema).clone())
        );
    }
}

fn violations_contain(violations: &[String], needle: &str) {
    assert!(
        violations.iter().any(|v| v.contains(needle)),
        "no violation mentions {needle:?}: {violations:#?}"
    );
}

#[test]
fn the_checks_fail_on_bad_input() {
    // The published MCP schemas, wrapped without the dialect rewrite, break OpenAI and Gemini
    // rules (and the checks say which).
    let tools = arm().tools().to_vec();
    let naive_openai = Value::Array(
        tools
            .iter()
            .map(|t| {
                json!({"type": "function", "function": {"name": t.name, "description": t.description,
                       "parameters": Value::Object((*t.input_schema).clone()), "strict": true}})
            })
            .collect(),
    );
    let v = check_openai(&naive_openai);
    violations_contain(
        &v,
        "`move_arm_to_pose`: parameters.properties.x: keyword `x-unit`",
    );
    violations_contain(
        &v,
        "parameters.properties.speed: keyword `default` is not supported",
    );
    violations_contain(&v, "property `speed` must be listed in `required`");
    let naive_gemini = json!([{"functionDeclarations": tools.iter().map(|t| json!({
        "name": t.name, "description": t.description,
        "parameters": Value::Object((*t.input_schema).clone())})).collect::<Vec<_>>()}]);
    let v = check_gemini(&naive_gemini);
    violations_contain(
        &v,
        "`move_arm_to_pose`: parameters: keyword `additionalProperties`",
    );
    violations_contain(&v, "parameters.properties.force: keyword `default`");
    violations_contain(
        &v,
        "`release_object`: `parameters` needs non-empty `properties`",
    );

    // Crafted OpenAI mistakes.
    let bad = json!([
        {"type": "function", "function": {"name": "move arm", "parameters": {"type": "object",
            "properties": {}, "required": [], "additionalProperties": false}, "strict": true}},
        {"type": "function", "function": {"name": "lax", "parameters": {"type": "object",
            "properties": {}, "required": [], "additionalProperties": false}, "strict": false}},
        {"type": "function", "function": {"name": "union_root", "parameters": {"anyOf": [
            {"type": "object", "properties": {}, "required": [], "additionalProperties": false}]},
            "strict": true}},
        {"type": "function", "function": {"name": "nested", "parameters": {"type": "object",
            "properties": {"p": {"type": "object", "properties": {"q": {"type": "string",
            "format": "uri"}}, "required": ["q"]}}, "required": ["p"],
            "additionalProperties": false}, "strict": true}},
        {"type": "function", "function": {"name": "nested", "parameters": {"type": "object",
            "properties": {}, "required": [], "additionalProperties": false}, "strict": true},
         "extra": 1},
    ]);
    let v = check_openai(&bad);
    violations_contain(&v, "name `move arm` must match");
    violations_contain(&v, "`lax`: `strict` must be true");
    violations_contain(
        &v,
        "`union_root`: the root of `parameters` must be `type: object`",
    );
    violations_contain(
        &v,
        "`nested`: parameters.properties.p: every object needs `additionalProperties: false`",
    );
    violations_contain(&v, "format `uri` is not supported");
    violations_contain(&v, "duplicate name `nested`");
    violations_contain(&v, "unexpected field `extra`");
    let mut deep = json!({"type": "string"});
    for _ in 0..11 {
        deep = json!({"type": "object", "properties": {"d": deep}, "required": ["d"],
                      "additionalProperties": false});
    }
    let v = check_openai(&json!([{"type": "function", "function": {"name": "deep",
        "parameters": deep, "strict": true}}]));
    violations_contain(&v, "11 levels of object nesting (at most 10)");

    // Crafted Anthropic mistakes.
    let bad = json!([
        {"name": "a b", "input_schema": {"type": "object"}},
        {"name": "root_union", "input_schema": {"type": "object", "anyOf": [{"required": ["x"]}]}},
        {"name": "refs", "input_schema": {"type": "object", "properties": {
            "p": {"$ref": "#/$defs/P"}, "q": {"type": "unknown"}, "bad key": {"type": "string"}}}},
        {"name": "strict", "strict": true, "input_schema": {"type": "object", "properties": {
            "n": {"type": "number", "minimum": 1}}, "additionalProperties": false}},
        {"name": "not_object", "input_schema": {"type": "string"}},
    ]);
    let v = check_anthropic(&bad);
    violations_contain(&v, "name `a b` must match");
    violations_contain(
        &v,
        "`root_union`: `input_schema` does not support `anyOf` at the top level",
    );
    violations_contain(
        &v,
        "`refs`: input_schema.properties.p: `$ref` is not accepted",
    );
    violations_contain(&v, "input_schema.properties.q: `type` \"unknown\"");
    violations_contain(&v, "property name `bad key`");
    violations_contain(
        &v,
        "`strict`: input_schema.properties.n: `minimum` is not supported with strict tool use",
    );
    violations_contain(&v, "`not_object`: `input_schema` must be `type: object`");

    // Crafted Gemini mistakes.
    let bad = json!([{"functionDeclarations": [
        {"name": "1st", "description": "digit first"},
        {"name": "nullable_union", "parameters": {"type": "object", "properties": {
            "a": {"type": ["string", "null"]}, "b": {"type": "integer", "enum": [1, 2]},
            "c": {"type": "array"}, "d": {"type": "object", "properties": {}},
            "e": {"type": "number", "exclusiveMinimum": 0}}, "required": ["zz"]}},
        {"name": "both", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}},
         "parametersJsonSchema": {"type": "object"}},
        {"name": "needless_json", "parametersJsonSchema": {"type": "object",
            "properties": {"a": {"type": "string"}}}},
    ]}]);
    let v = check_gemini(&bad);
    violations_contain(&v, "name `1st` must match");
    violations_contain(&v, "parameters.properties.a: `type` must be one string");
    violations_contain(
        &v,
        "parameters.properties.b: `enum` is only allowed on `type: string`",
    );
    violations_contain(&v, "parameters.properties.c: an array needs `items`");
    violations_contain(
        &v,
        "parameters.properties.d: an object needs non-empty `properties`",
    );
    violations_contain(&v, "parameters.properties.e: keyword `exclusiveMinimum`");
    violations_contain(&v, "`required` names \"zz\"");
    violations_contain(
        &v,
        "`both`: `parameters` and `parametersJsonSchema` are mutually exclusive",
    );
    violations_contain(&v, "`needless_json`: `parametersJsonSchema` is only for");
    assert!(!check_gemini(&json!({"functionDeclarations": []})).is_empty());
    assert!(!check_openai(&json!({"tools": []})).is_empty());
    assert!(!check_anthropic(&json!({})).is_empty());
}

fn num(v: &Value) -> String {
    match v.as_f64() {
        Some(f) if f.fract() == 0.0 => format!("{}", f as i64),
        Some(f) => format!("{f}"),
        None => v.to_string(),
    }
}

/// The dialect node that carries an MCP property: through OpenAI's `anyOf: [T, null]`.
fn core(node: &Value) -> (&Value, String) {
    let description = node["description"].as_str().unwrap_or_default().to_owned();
    if let Some(variants) = node["anyOf"].as_array()
        && variants.len() == 2
        && variants[1] == json!({"type": "null"})
        && node.get("type").is_none()
    {
        return (&variants[0], description);
    }
    (node, description)
}

/// Walks an MCP schema and the matching dialect schema together and checks that every
/// keyword the dialect dropped is said in the description.
fn survives(mcp: &Value, dialect: &Value, path: &str, failures: &mut Vec<String>) {
    let (d, description) = core(dialect);
    let Some(m) = mcp.as_object() else { return };
    if let Some(original) = m.get("description").and_then(Value::as_str) {
        let original = original.trim_end_matches('.');
        if !description.starts_with(original) {
            failures.push(format!(
                "{path}: description {description:?} lost {original:?}"
            ));
        }
    }
    let said = |needle: &str| description.contains(needle);
    for (k, v) in m {
        let kept = d.get(k) == Some(v)
            || (k == "const" && d.get("enum") == Some(&json!([v])))
            || (k == "enum"
                && d.get("enum")
                    .and_then(Value::as_array)
                    .is_some_and(|e| v.as_array().unwrap().iter().all(|x| e.contains(x))))
            || (k == "exclusiveMaximum" && d["maximum"].as_f64() == v.as_f64().map(|x| x - 1.0));
        if kept {
            continue;
        }
        let ok = match k.as_str() {
            "x-unit" => said(v.as_str().unwrap()),
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "minLength"
            | "maxLength" | "minItems" | "maxItems" => said(&num(v)),
            "default" => said("Default: ") && said(&num(v)),
            "examples" => v.as_array().unwrap().iter().all(|e| said(&num(e))),
            "pattern" => said(v.as_str().unwrap()),
            "enum" => v.as_array().unwrap().iter().all(|e| said(&num(e))),
            // Structure (checked by recursing) and what a model needs no words for.
            "type"
            | "properties"
            | "required"
            | "items"
            | "additionalProperties"
            | "oneOf"
            | "anyOf"
            | "description" => true,
            other => {
                failures.push(format!("{path}: unexpected keyword {other}"));
                true
            }
        };
        if !ok {
            failures.push(format!(
                "{path}: `{k}: {v}` dropped without words: {description:?}"
            ));
        }
    }
    if let (Some(Value::Object(mp)), Some(Value::Object(dp))) =
        (m.get("properties"), d.get("properties"))
    {
        for (name, child) in mp {
            match dp.get(name) {
                Some(dc) => survives(child, dc, &format!("{path}.{name}"), failures),
                None => failures.push(format!("{path}.{name}: missing")),
            }
        }
    }
    if let (Some(mi), Some(di)) = (m.get("items"), d.get("items")) {
        survives(mi, di, &format!("{path}[]"), failures);
    }
    if let Some(Value::Array(mv)) = m.get("oneOf").or(m.get("anyOf")) {
        let dv = d["anyOf"].as_array().unwrap();
        for (i, variant) in mv.iter().enumerate() {
            survives(variant, &dv[i], &format!("{path}|{i}"), failures);
        }
    }
}

#[test]
fn units_ranges_defaults_and_meanings_survive_in_words() {
    for tools in [arm().tools().to_vec(), derived()] {
        let openai = parsed(&tools, Format::OpenAi);
        let gemini = parsed(&tools, Format::Gemini);
        for (i, tool) in tools.iter().enumerate() {
            let mcp = Value::Object((*tool.input_schema).clone());
            let mut failures = Vec::new();
            survives(
                &mcp,
                &openai[i]["function"]["parameters"],
                &format!("openai {}", tool.name),
                &mut failures,
            );
            let decl = &gemini[0]["functionDeclarations"][i];
            if let Some(p) = decl.get("parameters").or(decl.get("parametersJsonSchema")) {
                survives(&mcp, p, &format!("gemini {}", tool.name), &mut failures);
            } else {
                assert_eq!(mcp["properties"], json!({}), "{}", tool.name);
            }
            assert!(failures.is_empty(), "{failures:#?}");
        }
    }
    // Spot checks of the words themselves.
    let gemini = export::render(&derived(), Format::Gemini);
    assert!(gemini.contains("Grip force limit, in newtons (N). At least 0 and less than 100 N."));
    assert!(
        gemini.contains(
            "Pose name. 1 to 32 characters. Must match the regular expression `^[a-z_]+$`."
        )
    );
    let openai = export::render(arm().tools(), Format::OpenAi);
    assert!(openai.contains(
        "Grip force to apply once the fingers touch, in newtons (N). Default: 15 N. Optional: pass null to use the default."
    ));
    assert!(
        openai.contains("Axes to read; all six when omitted. Optional: pass null to leave it out.")
    );
}

#[tokio::test]
async fn calls_shaped_by_each_dialect_are_accepted_by_the_toolbox() {
    let tools = arm().tools().to_vec();
    let openai = parsed(&tools, Format::OpenAi);
    let gemini = parsed(&tools, Format::Gemini);
    for (i, tool) in tools.iter().enumerate() {
        let mcp_required = tool
            .input_schema
            .get("required")
            .cloned()
            .unwrap_or(json!([]));
        let openai_args = export::markdown::example(&openai[i]["function"]["parameters"]);
        // Every property present (strict mode), optional ones as null.
        let mut nulls = openai_args.as_object().unwrap().clone();
        for (k, v) in nulls.iter_mut() {
            if !mcp_required.as_array().unwrap().contains(&json!(k)) {
                *v = Value::Null;
            }
        }
        let gemini_args = gemini[0]["functionDeclarations"][i]
            .get("parameters")
            .map(export::markdown::example)
            .unwrap_or(json!({}));
        for (dialect, args) in [
            ("openai", openai_args.as_object().unwrap().clone()),
            ("openai with nulls", nulls),
            ("gemini", gemini_args.as_object().unwrap().clone()),
        ] {
            let result = arm().call(&tool.name, Some(args.clone())).await.unwrap();
            let text = result.content[0].as_text().unwrap().text.clone();
            assert!(
                !text.starts_with("Invalid arguments"),
                "{dialect} {}: {}: {text}",
                tool.name,
                Value::Object(args)
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Drift
// ---------------------------------------------------------------------------------------------

fn published() -> Value {
    serde_json::to_value(arm().tools()).unwrap()
}

fn tool_mut<'a>(tools: &'a mut Value, name: &str) -> &'a mut Value {
    tools
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|t| t["name"] == name)
        .unwrap()
}

fn props<'a>(tools: &'a mut Value, name: &str) -> &'a mut Map<String, Value> {
    tool_mut(tools, name)["inputSchema"]["properties"]
        .as_object_mut()
        .unwrap()
}

fn required<'a>(tools: &'a mut Value, name: &str) -> &'a mut Vec<Value> {
    tool_mut(tools, name)["inputSchema"]["required"]
        .as_array_mut()
        .unwrap()
}

fn tools_of(v: Value) -> Vec<Tool> {
    serde_json::from_value(v).unwrap()
}

const GRASP: &str = "grasp_object_force_control";

type Edit = fn(&mut Value);

/// (kind, edit of the robot arm's published tools, expected compatibility, tool, path, words).
fn robot_cases() -> Vec<(
    &'static str,
    Edit,
    Compatibility,
    &'static str,
    &'static str,
    &'static str,
)> {
    vec![
        (
            "an argument now mirrored into an HTTP header",
            |t| {
                tool_mut(t, "read_ft_sensor")["inputSchema"]["properties"]["filter"]["x-mcp-header"] =
                    json!("Filter");
            },
            Breaking,
            "read_ft_sensor",
            "filter",
            "now mirrored into the HTTP header `Mcp-Param-Filter`",
        ),
        (
            "a scope added",
            |t| {
                tool_mut(t, "get_arm_state")["_meta"]["io.toolwright/scopes"] =
                    json!(["arm:read", "arm:admin"]);
            },
            Breaking,
            "get_arm_state",
            "",
            "now needs scope `arm:admin`: tokens without it are refused",
        ),
        (
            "a check added (with its words at the end of the description)",
            |t| {
                let tool = tool_mut(t, "move_arm_to_pose");
                let words = "Below 100 mm the speed is at most 0.5.";
                tool["_meta"]["io.toolwright/check"] = json!(words);
                let description = tool["description"].as_str().unwrap().to_owned();
                tool["description"] = json!(format!("{description}\n\nBefore it runs: {words}"));
            },
            Breaking,
            "move_arm_to_pose",
            "",
            "now runs a check before each call, which may refuse calls that passed: Below 100 mm",
        ),
        (
            "a check dropped (and its words)",
            |t| {
                let tool = tool_mut(t, "release_object");
                tool["_meta"]
                    .as_object_mut()
                    .unwrap()
                    .remove("io.toolwright/check");
                let description = tool["description"].as_str().unwrap().to_owned();
                let own = description.split("\n\nBefore it runs: ").next().unwrap();
                tool["description"] = json!(own);
            },
            Compatible,
            "release_object",
            "",
            "no longer runs its check",
        ),
        (
            "a scope dropped",
            |t| {
                tool_mut(t, "get_arm_state")["_meta"]["io.toolwright/scopes"] = json!([]);
            },
            Compatible,
            "get_arm_state",
            "",
            "no longer needs scope `arm:read`",
        ),
        (
            "new tool",
            |t| {
                let mut wave = tool_mut(t, "stop_arm").clone();
                wave["name"] = json!("wave");
                wave["inputSchema"]["properties"] = json!({"times": {"type": "integer"}});
                t.as_array_mut().unwrap().push(wave);
            },
            Compatible,
            "wave",
            "",
            "new tool",
        ),
        (
            "removed tool",
            |t| {
                t.as_array_mut()
                    .unwrap()
                    .retain(|x| x["name"] != "stop_arm");
            },
            Breaking,
            "stop_arm",
            "",
            "tool removed",
        ),
        (
            "renamed tool",
            |t| {
                tool_mut(t, "stop_arm")["name"] = json!("halt_arm");
            },
            Breaking,
            "stop_arm",
            "",
            "renamed to `halt_arm`",
        ),
        (
            "new optional parameter",
            |t| {
                props(t, GRASP)
                    .insert("approach".into(), json!({"type": "number", "minimum": 0.0}));
            },
            Compatible,
            GRASP,
            "approach",
            "new optional parameter",
        ),
        (
            "new required parameter",
            |t| {
                props(t, GRASP).insert("approach".into(), json!({"type": "number"}));
                required(t, GRASP).push(json!("approach"));
            },
            Breaking,
            GRASP,
            "approach",
            "new required parameter",
        ),
        (
            "optional parameter becomes required",
            |t| {
                required(t, GRASP).push(json!("force"));
            },
            Breaking,
            GRASP,
            "force",
            "now required",
        ),
        (
            "required parameter becomes optional",
            |t| {
                required(t, "move_arm_to_pose").retain(|r| r != "z");
            },
            Compatible,
            "move_arm_to_pose",
            "z",
            "now optional",
        ),
        (
            "removed parameter",
            |t| {
                props(t, GRASP).shift_remove("timeout");
            },
            Breaking,
            GRASP,
            "timeout",
            "parameter removed",
        ),
        (
            "renamed parameter",
            |t| {
                let p = props(t, GRASP);
                let timeout = p.shift_remove("timeout").unwrap();
                p.insert("grasp_timeout".into(), timeout);
            },
            Breaking,
            GRASP,
            "timeout",
            "renamed to `grasp_timeout`",
        ),
        (
            "wider range",
            |t| {
                props(t, GRASP)["force"]["maximum"] = json!(40.0);
            },
            Compatible,
            GRASP,
            "force",
            "maximum raised from 30 N to 40 N",
        ),
        (
            "narrower range",
            |t| {
                props(t, GRASP)["force"]["maximum"] = json!(25.0);
            },
            Breaking,
            GRASP,
            "force",
            "maximum lowered from 30 N to 25 N",
        ),
        (
            "narrower nested range",
            |t| {
                props(t, GRASP)["target_position"]["properties"]["x"]["minimum"] = json!(-800.0);
            },
            Breaking,
            GRASP,
            "target_position.x",
            "minimum raised from -850 mm to -800 mm",
        ),
        (
            "added enum value",
            |t| {
                props(t, GRASP)["grasp_strategy"]["enum"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!("magnetic"));
            },
            Compatible,
            GRASP,
            "grasp_strategy",
            "enum value \"magnetic\" added",
        ),
        (
            "removed enum value",
            |t| {
                props(t, GRASP)["grasp_strategy"]["enum"]
                    .as_array_mut()
                    .unwrap()
                    .retain(|v| v != "suction");
            },
            Breaking,
            GRASP,
            "grasp_strategy",
            "enum value \"suction\" removed",
        ),
        (
            "type change",
            |t| {
                props(t, "move_arm_to_pose")["x"]["type"] = json!("string");
            },
            Breaking,
            "move_arm_to_pose",
            "x",
            "type changed from number to string",
        ),
        (
            "confirmation removed",
            |t| {
                tool_mut(t, "move_arm_to_pose")["_meta"]
                    .as_object_mut()
                    .unwrap()
                    .remove("io.toolwright/confirm");
            },
            Breaking,
            "move_arm_to_pose",
            "",
            "no longer asks the user before each call: calls now run unasked.",
        ),
        (
            "confirmation added",
            |t| {
                tool_mut(t, "plan_trajectory")["_meta"]["io.toolwright/confirm"] =
                    json!("Plan {waypoints}?");
            },
            Breaking,
            "plan_trajectory",
            "",
            "now asks the user before each call (\"Plan {waypoints}?\")",
        ),
        (
            "confirmation question reworded",
            |t| {
                tool_mut(t, "move_arm_to_pose")["_meta"]["io.toolwright/confirm"] =
                    json!("Move to ({x}, {y}, {z})?");
            },
            Compatible,
            "move_arm_to_pose",
            "",
            "the confirmation question changed (text only).",
        ),
        (
            "tool description change",
            |t| {
                tool_mut(t, "move_arm_to_pose")["description"] = json!("Move the arm.");
            },
            Compatible,
            "move_arm_to_pose",
            "",
            "description changed",
        ),
        (
            "parameter description change",
            |t| {
                props(t, "move_arm_to_pose")["x"]["description"] = json!("X, in mm.");
            },
            Compatible,
            "move_arm_to_pose",
            "x",
            "description changed",
        ),
        (
            "relaxed item limit",
            |t| {
                props(t, "plan_trajectory")["waypoints"]["maxItems"] = json!(200);
            },
            Compatible,
            "plan_trajectory",
            "waypoints",
            "relaxed item-count limit `maxItems` 100 → 200",
        ),
        (
            "tighter item limit",
            |t| {
                props(t, "plan_trajectory")["waypoints"]["minItems"] = json!(3);
            },
            Breaking,
            "plan_trajectory",
            "waypoints",
            "tighter item-count limit `minItems` 1 → 3",
        ),
        (
            "changed unit",
            |t| {
                props(t, GRASP)["force"]["x-unit"] = json!("kN");
            },
            Breaking,
            GRASP,
            "force",
            "unit changed from \"N\" to \"kN\"",
        ),
        (
            "changed default",
            |t| {
                props(t, GRASP)["force"]["default"] = json!(20.0);
            },
            Compatible,
            GRASP,
            "force",
            "default changed from 15 to 20",
        ),
        (
            "changed annotation",
            |t| {
                tool_mut(t, "move_arm_to_pose")["annotations"]["destructiveHint"] = json!(true);
            },
            Compatible,
            "move_arm_to_pose",
            "",
            "annotation `destructiveHint` changed from false to true",
        ),
        (
            "removed output field",
            |t| {
                let out = &mut tool_mut(t, "move_arm_to_pose")["outputSchema"];
                out["properties"]
                    .as_object_mut()
                    .unwrap()
                    .shift_remove("duration");
                out["required"]
                    .as_array_mut()
                    .unwrap()
                    .retain(|r| r != "duration");
            },
            Breaking,
            "move_arm_to_pose",
            "output.duration",
            "output field removed",
        ),
        (
            "output field may be absent",
            |t| {
                let out = &mut tool_mut(t, "move_arm_to_pose")["outputSchema"];
                out["required"]
                    .as_array_mut()
                    .unwrap()
                    .retain(|r| r != "duration");
            },
            Breaking,
            "move_arm_to_pose",
            "output.duration",
            "may now be absent",
        ),
        (
            "new output field",
            |t| {
                let out = &mut tool_mut(t, "move_arm_to_pose")["outputSchema"];
                out["properties"]
                    .as_object_mut()
                    .unwrap()
                    .insert("energy".into(), json!({"type": "number"}));
            },
            Compatible,
            "move_arm_to_pose",
            "output.energy",
            "new output field",
        ),
        (
            "new output enum value",
            |t| {
                let out = &mut tool_mut(t, GRASP)["outputSchema"];
                out["properties"]["strategy"]["enum"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!("magnetic"));
            },
            Breaking,
            GRASP,
            "output.strategy",
            "enum value \"magnetic\" added",
        ),
    ]
}

fn assert_one(
    report: &Report,
    kind: &str,
    compatibility: Compatibility,
    tool: &str,
    path: &str,
    words: &str,
) {
    assert_eq!(report.changes.len(), 1, "{kind}: {report}");
    let c = &report.changes[0];
    assert_eq!(
        (c.compatibility, c.tool.as_str(), c.path.as_str()),
        (compatibility, tool, path),
        "{kind}: {report}"
    );
    assert!(
        c.description.contains(words),
        "{kind}: {:?} lacks {words:?}",
        c.description
    );
    let code = if compatibility == Breaking { 1 } else { 2 };
    assert_eq!(report.exit_code(), code, "{kind}");
    let shown = report.to_string();
    assert_eq!(
        shown.contains(&format!("`{}`", drift::next_version(tool))),
        compatibility == Breaking && !tool.is_empty(),
        "{kind}: {shown}"
    );
}

#[test]
fn classifier_on_the_robot_arm() {
    let before = tools_of(published());
    let same = drift::compare(&before, &before);
    assert!(same.is_empty() && same.exit_code() == 0, "{same}");
    assert_eq!(
        same.to_string(),
        "no changes: the tools match the published definitions\n"
    );
    let cases = robot_cases();
    assert!(cases.len() >= 12);
    for (kind, edit, compatibility, tool, path, words) in cases {
        let mut after = published();
        edit(&mut after);
        let report = drift::compare(&before, &tools_of(after));
        assert_one(&report, kind, compatibility, tool, path, words);
    }
}

#[test]
fn an_argument_s_http_header_renamed_or_dropped_is_breaking_and_its_case_is_not() {
    let with_header = |name: Option<&str>| {
        let mut tools = published();
        let filter =
            &mut tool_mut(&mut tools, "read_ft_sensor")["inputSchema"]["properties"]["filter"];
        if let Some(name) = name {
            filter["x-mcp-header"] = json!(name);
        }
        tools_of(tools)
    };
    let before = with_header(Some("Filter"));
    assert!(drift::compare(&before, &with_header(Some("FILTER"))).is_empty());
    for (after, words) in [
        (
            with_header(Some("Smoothing")),
            "HTTP header changed from `Mcp-Param-Filter` to `Mcp-Param-Smoothing`",
        ),
        (
            with_header(None),
            "no longer mirrored into the HTTP header `Mcp-Param-Filter`",
        ),
    ] {
        let report = drift::compare(&before, &after);
        assert_one(&report, words, Breaking, "read_ft_sensor", "filter", words);
    }
}

#[test]
fn classifier_on_derived_shapes() {
    let before = serde_json::to_value(derived()).unwrap();
    type DerivedEdit = fn(&mut Value);
    let cases: Vec<(&str, DerivedEdit, Compatibility, &str, &str)> = vec![
        (
            "tighter length",
            |t| {
                t[0]["inputSchema"]["properties"]["next"]["oneOf"][2]["properties"]["Go"]["properties"]
                    ["target"]["oneOf"][0]["properties"]["name"]["maxLength"] = json!(16);
            },
            Breaking,
            "next.Go.target.name",
            "tighter length limit `maxLength` 32 → 16",
        ),
        (
            "relaxed length",
            |t| {
                t[0]["inputSchema"]["properties"]["next"]["oneOf"][2]["properties"]["Go"]["properties"]
                    ["target"]["oneOf"][0]["properties"]["name"]["minLength"] = json!(0);
            },
            Compatible,
            "next.Go.target.name",
            "relaxed length limit `minLength` 1 → 0",
        ),
        (
            "changed pattern",
            |t| {
                t[0]["inputSchema"]["properties"]["next"]["oneOf"][2]["properties"]["Go"]["properties"]
                    ["target"]["oneOf"][0]["properties"]["name"]["pattern"] = json!("^[a-z]+$");
            },
            Breaking,
            "next.Go.target.name",
            "pattern changed",
        ),
        (
            "removed variant",
            |t| {
                t[0]["inputSchema"]["properties"]["next"]["oneOf"]
                    .as_array_mut()
                    .unwrap()
                    .remove(0);
            },
            Breaking,
            "next",
            "variant \"Stop\" removed",
        ),
        (
            "exclusive bound becomes inclusive",
            |t| {
                let f =
                    &mut t[0]["inputSchema"]["properties"]["settings"]["properties"]["maxForce"];
                f.as_object_mut().unwrap().shift_remove("exclusiveMaximum");
                f["maximum"] = json!(100.0);
            },
            Compatible,
            "settings.maxForce",
            "maximum raised from exclusive 100 N to 100 N",
        ),
        (
            "integer widened to number",
            |t| {
                t[1]["inputSchema"]["properties"]["max_speed"]["type"] = json!("number");
            },
            Compatible,
            "max_speed",
            "type changed from integer to number",
        ),
        (
            "map value type change",
            |t| {
                t[0]["inputSchema"]["properties"]["offsets"]["additionalProperties"]["type"] =
                    json!("integer");
            },
            Breaking,
            "offsets.*",
            "type changed from number to integer",
        ),
    ];
    let old = tools_of(before.clone());
    for (kind, edit, compatibility, path, words) in cases {
        let mut after = before.clone();
        edit(&mut after);
        let tool = after[if path == "max_speed" { 1 } else { 0 }]["name"]
            .as_str()
            .unwrap()
            .to_owned();
        let report = drift::compare(&old, &tools_of(after));
        assert_one(&report, kind, compatibility, &tool, path, words);
    }
}

#[test]
fn report_lists_breaking_changes_first_and_suggests_a_v2_tool() {
    let mut after = published();
    tool_mut(&mut after, "move_arm_to_pose")["description"] = json!("Move the arm.");
    props(&mut after, GRASP)["force"]["maximum"] = json!(25.0);
    let report = drift::compare(&tools_of(published()), &tools_of(after));
    assert_eq!(report.exit_code(), 1);
    assert!(report.is_breaking());
    assert_eq!(
        report.changes[0].compatibility, Breaking,
        "sorted: {report}"
    );
    let text = report.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "1 breaking change, 1 compatible change to the published tools:"
    );
    assert_eq!(
        lines[1],
        "- breaking: `grasp_object_force_control` force: maximum lowered from 30 N to 25 N: calls that were valid before can now be refused. Instead, keep `grasp_object_force_control` as published and add the new version as `grasp_object_force_control_v2`."
    );
    assert_eq!(
        lines[2],
        "- compatible: `move_arm_to_pose`: description changed (text only)."
    );
    assert_eq!(lines.len(), 3);
    assert_eq!(drift::next_version("grasp"), "grasp_v2");
    assert_eq!(drift::next_version("grasp_v2"), "grasp_v3");
    assert_eq!(drift::next_version("v2"), "v2_v2");
}

#[test]
fn check_against_an_export_directory() {
    let dir = TempDir::new("check");
    let tools = arm().tools().to_vec();
    let written = export::write_all(&tools, &dir.0).unwrap();
    let names: Vec<String> = written
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "tools.json",
            "TOOLS.md",
            "openai.json",
            "anthropic.json",
            "gemini.json"
        ]
    );
    assert!(drift::check_against(&tools, &dir.0).unwrap().is_empty());

    // A hand edit to a doc file: compatible, "out of date", naming the line.
    let md = dir.0.join("TOOLS.md");
    let text = std::fs::read_to_string(&md).unwrap();
    std::fs::write(&md, text.replacen("# Tools", "# My tools", 1)).unwrap();
    std::fs::remove_file(dir.0.join("gemini.json")).unwrap();
    let report = drift::check_against(&tools, &dir.0).unwrap();
    assert_eq!(report.exit_code(), 2, "{report}");
    let files: Vec<(&str, &str)> = report
        .changes
        .iter()
        .map(|c| (c.path.as_str(), c.description.as_str()))
        .collect();
    assert_eq!(files.len(), 2, "{report}");
    assert_eq!(files[0].0, "TOOLS.md");
    assert!(
        files[0]
            .1
            .starts_with("out of date (line 1 is \"# My tools\" but should be \"# Tools\")"),
        "{report}"
    );
    assert_eq!(files[1], ("gemini.json", "missing; regenerate the export."));

    // When the tools changed, only the tool changes are reported.
    let mut after = published();
    props(&mut after, GRASP)["force"]["maximum"] = json!(25.0);
    let report = drift::check_against(&tools_of(after), &dir.0).unwrap();
    assert_eq!(report.changes.len(), 1, "{report}");
    assert_eq!(report.exit_code(), 1);

    // Windows checkouts (CRLF) are not drift.
    export::write_all(&tools, &dir.0).unwrap();
    let crlf = std::fs::read_to_string(&md).unwrap().replace('\n', "\r\n");
    std::fs::write(&md, crlf).unwrap();
    assert!(drift::check_against(&tools, &dir.0).unwrap().is_empty());

    // No export at all is an error, not an empty report.
    let empty = TempDir::new("empty");
    let err = drift::check_against(&tools, &empty.0).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    std::fs::write(empty.0.join("tools.json"), "not json").unwrap();
    let err = drift::check_against(&tools, &empty.0).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
}

fn panic_message(result: std::thread::Result<()>) -> String {
    let payload = result.expect_err("expected a panic");
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

#[test]
fn assert_tools_snapshot_passes_on_identical_and_panics_on_drift() {
    let dir = TempDir::new("assert");
    export::write_all(arm().tools(), &dir.0).unwrap();
    // The macro holds everything `export` writes: the page and llms.txt too.
    let result = std::panic::catch_unwind(|| toolwright::assert_tools_snapshot!(arm(), &dir.0));
    if !overwriting() {
        let message = panic_message(result);
        assert!(
            message.contains("- compatible: index.html: missing; regenerate the export."),
            "{message}"
        );
        assert!(
            message.contains("- compatible: llms.txt: missing; regenerate the export."),
            "{message}"
        );
    }
    arm().export().write(&dir.0).unwrap();
    // An absolute directory is used as is.
    toolwright::assert_tools_snapshot!(arm(), &dir.0);

    let mut after = published();
    props(&mut after, GRASP)["force"]["maximum"] = json!(25.0);
    let changed = tools_of(after);
    let result = std::panic::catch_unwind(|| export::assert_snapshot(&changed, &dir.0));
    if overwriting() {
        // Run with TOOLWRIGHT_SNAPSHOT=overwrite: the snapshot is rewritten instead.
        assert!(result.is_ok());
        assert!(drift::check_against(&changed, &dir.0).unwrap().is_empty());
        return;
    }
    let message = panic_message(result);
    assert!(
        message.contains("the tools differ from the snapshot in"),
        "{message}"
    );
    assert!(
        message.contains("1 breaking change, 0 compatible changes"),
        "{message}"
    );
    assert!(
        message.contains("grasp_object_force_control_v2"),
        "{message}"
    );
    assert!(
        message.contains("rerun with TOOLWRIGHT_SNAPSHOT=overwrite"),
        "{message}"
    );

    let empty = TempDir::new("missing");
    let message = panic_message(std::panic::catch_unwind(|| {
        export::assert_snapshot(arm().tools(), &empty.0)
    }));
    assert!(message.contains("no tool snapshot in"), "{message}");
    assert!(
        message.contains("create it with TOOLWRIGHT_SNAPSHOT=overwrite"),
        "{message}"
    );
}

/// Set in the child process of the test below: the directory to overwrite.
const CHILD_DIR: &str = "TOOLWRIGHT_EXPORT_TEST_DIR";

#[test]
fn snapshot_env_overwrite_rewrites_the_export() {
    if let Some(dir) = std::env::var_os(CHILD_DIR) {
        // The child: runs with TOOLWRIGHT_SNAPSHOT=overwrite.
        toolwright::assert_tools_snapshot!(arm(), PathBuf::from(dir));
        return;
    }
    let dir = TempDir::new("overwrite");
    let mut stale = published();
    props(&mut stale, GRASP)["force"]["maximum"] = json!(25.0);
    export::write_all(&tools_of(stale), &dir.0).unwrap();
    std::fs::write(dir.0.join("TOOLS.md"), "edited by hand\n").unwrap();
    assert!(
        !drift::check_against(arm().tools(), &dir.0)
            .unwrap()
            .is_empty()
    );

    let status = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "snapshot_env_overwrite_rewrites_the_export",
            "--test-threads=1",
        ])
        .env(CHILD_DIR, &dir.0)
        .env(export::SNAPSHOT_ENV, "overwrite")
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stdout)
    );
    assert!(
        String::from_utf8_lossy(&status.stdout).contains("1 passed"),
        "the child ran the test: {}",
        String::from_utf8_lossy(&status.stdout)
    );
    assert!(
        drift::check_against(arm().tools(), &dir.0)
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        std::fs::read_to_string(dir.0.join("TOOLS.md")).unwrap(),
        export::render(arm().tools(), Format::Markdown)
    );
}

#[test]
fn write_all_creates_the_directory() {
    let dir = TempDir::new("nested");
    let target = dir.0.join("docs/tools");
    let paths = export::write_all(&derived(), &target).unwrap();
    assert_eq!(paths.len(), 5);
    for (path, format) in paths.iter().zip(Format::ALL) {
        assert_eq!(path, &target.join(format.file_name()));
        assert_eq!(
            std::fs::read_to_string(path).unwrap(),
            export::render(&derived(), format)
        );
    }
}
