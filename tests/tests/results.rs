//! What a model can ask of a result (`#[tool(projection, summary, over_budget = "envelope")]`),
//! and results checked against their own `outputSchema`, through rmcp's client. Every
//! structured result is checked against the tool's published `outputSchema` here, as strict
//! clients (the official SDKs) do.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};

use common::{Client, call, connect, text};
use rmcp::model::CallToolResult;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolwright::__private::Validator;
use toolwright::{ToolSchema, Toolbox, ToolboxBuilder, tool, toolbox, tools};

/// One force/torque sample.
#[derive(Debug, Clone, Serialize, ToolSchema)]
struct Reading {
    /// The axis.
    axis: String,
    /// The value.
    #[param(unit = "N")]
    value: f64,
}

/// A sensor frame.
#[derive(Debug, Clone, Serialize, ToolSchema)]
struct Frame {
    /// The filter applied.
    filter: String,
    /// One reading per axis.
    readings: Vec<Reading>,
    /// Where the sensor is.
    pose: Pose,
}

/// A position.
#[derive(Debug, Clone, Serialize, ToolSchema)]
struct Pose {
    /// Forward.
    #[param(unit = "mm")]
    x: f64,
    /// Up.
    #[param(unit = "mm")]
    z: f64,
}

fn frame(count: usize) -> Frame {
    let axes = ["Fx", "Fy", "Fz", "Mx", "My", "Mz"];
    Frame {
        filter: "kalman".into(),
        readings: (0..count)
            .map(|i| Reading {
                axis: axes[i % 6].into(),
                value: i as f64 - 2.5,
            })
            .collect(),
        pose: Pose { x: 400.0, z: 200.0 },
    }
}

/// Read the sensor.
#[tool(read_only, projection, summary)]
fn read_sensor(
    /// Readings to take.
    #[param(range = 0..=10_000)]
    count: usize,
) -> Frame {
    frame(count)
}

/// List sample ids.
#[tool(
    read_only,
    summary,
    projection,
    max_output_bytes = 300,
    over_budget = "envelope"
)]
fn list_ids(
    /// How many.
    #[param(range = 0..=10_000)]
    count: u32,
) -> Vec<u32> {
    (0..count).collect()
}

/// A reading checked against its declared range.
#[derive(Debug, Clone, Serialize, ToolSchema)]
struct Ratio {
    /// A fraction.
    #[param(range = 0.0..=1.0)]
    value: f64,
}

/// Compute a ratio (the body has a bug: it can return more than 1).
#[tool(read_only)]
fn ratio(
    /// Numerator.
    a: f64,
    /// Denominator.
    b: f64,
) -> Ratio {
    Ratio { value: a / b }
}

/// List sample ids, cut to the budget (the default over it).
#[tool(read_only, projection, max_output_bytes = 100)]
fn cut_ids(
    /// How many.
    #[param(range = 0..=10_000)]
    count: u32,
) -> Vec<u32> {
    (0..count).collect()
}

fn toolbox() -> Toolbox<()> {
    builder().build().unwrap()
}

fn builder() -> ToolboxBuilder<()> {
    tools![read_sensor, list_ids, ratio, cut_ids]
}

/// Checks `result`'s `structuredContent` against the tool's published `outputSchema`.
fn check_against_schema(toolbox: &Toolbox<()>, tool: &str, result: &CallToolResult) {
    let schema = toolbox.tool(tool).unwrap().output_schema.clone().unwrap();
    let validator = Validator::compile(&Value::Object((*schema).clone())).unwrap();
    let mut structured = result
        .structured_content
        .clone()
        .expect("structuredContent");
    assert_eq!(
        validator.check_output(&mut structured),
        Ok(()),
        "{structured}"
    );
}

async fn ask(client: &Client, toolbox: &Toolbox<()>, tool: &str, args: Value) -> CallToolResult {
    let result = call(client, tool, args).await;
    check_against_schema(toolbox, tool, &result);
    result
}

#[tokio::test]
async fn projections_select_nested_fields_and_filter() {
    let toolbox = toolbox();
    let client = connect(toolbox.clone()).await;
    let r = ask(
        &client,
        &toolbox,
        "read_sensor",
        json!({"count": 6, "jmespath": "readings[?axis=='Fz'].value"}),
    )
    .await;
    assert_eq!(r.is_error, Some(false));
    assert_eq!(r.structured_content, Some(json!({"projection": [-0.5]})));
    assert_eq!(text(&r), "[-0.5]", "the text carries the projected value");

    // A scalar, an object built from the result, and nothing at all.
    for (expression, expected) in [
        ("pose.x", json!(400.0)),
        (
            "{filter: filter, n: length(readings)}",
            json!({"filter": "kalman", "n": 6}),
        ),
        ("readings[].axis | [0]", json!("Fx")),
        ("no_such_key", Value::Null),
    ] {
        let r = ask(
            &client,
            &toolbox,
            "read_sensor",
            json!({"count": 6, "jmespath": expression}),
        )
        .await;
        assert_eq!(
            r.structured_content,
            Some(json!({"projection": expected})),
            "{expression}"
        );
        assert_eq!(text(&r), expected.to_string());
    }

    // A list result is projected as published: wrapped in `result`.
    let r = ask(
        &client,
        &toolbox,
        "list_ids",
        json!({"count": 10, "jmespath": "result[-2:]"}),
    )
    .await;
    assert_eq!(r.structured_content, Some(json!({"projection": [8, 9]})));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn an_expression_that_does_not_parse_is_answered_before_the_tool_runs() {
    let toolbox = toolbox();
    let client = connect(toolbox.clone()).await;
    let r = ask(
        &client,
        &toolbox,
        "read_sensor",
        json!({"count": 6, "jmespath": "readings[?axis=='Fz'.value"}),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
    let e = r.structured_content.clone().unwrap();
    assert!(
        e["_jmespath_error"]
            .as_str()
            .unwrap()
            .starts_with("Parse error"),
        "{e}"
    );
    assert_eq!(e["expression"], "readings[?axis=='Fz'.value");
    assert_eq!(e["original_keys"], json!(["filter", "readings", "pose"]));
    assert!(
        e["hint"]
            .as_str()
            .unwrap()
            .starts_with("The tool did not run."),
        "{e}"
    );

    // Wrong for every result the schema allows (`filter` is a string): refused before the
    // tool runs (issue 43), naming the function and the type.
    let r = ask(
        &client,
        &toolbox,
        "read_sensor",
        json!({"count": 2, "jmespath": "abs(filter)"}),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
    let e = r.structured_content.unwrap();
    assert!(
        e["_jmespath_error"].as_str().unwrap().contains(
            "cannot apply to any result of this tool: `abs` takes a number as its argument 1, \
             and it is always a string here"
        ),
        "{e}"
    );
    assert!(
        e["hint"]
            .as_str()
            .unwrap()
            .starts_with("The tool did not run.")
    );

    // Wrong for this result only (`to_number` of the filter's name is null): evaluated after the
    // read-only tool ran, the envelope with the result's keys replaces it.
    let r = ask(
        &client,
        &toolbox,
        "read_sensor",
        json!({"count": 2, "jmespath": "abs(to_number(filter))"}),
    )
    .await;
    assert_eq!(r.is_error, Some(false));
    let e = r.structured_content.unwrap();
    assert!(
        e["_jmespath_error"]
            .as_str()
            .unwrap()
            .contains("expects type number"),
        "{e}"
    );
    assert!(
        e["hint"]
            .as_str()
            .unwrap()
            .starts_with("The tool ran (it is read-only")
    );

    // An expression that could multiply the result (2^85 copies here) is refused before it runs.
    let r = call(
        &client,
        "read_sensor",
        json!({"count": 1, "jmespath": format!("@{}", "|[@,@]".repeat(85))}),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
    let e = r.structured_content.unwrap();
    assert!(
        e["_jmespath_error"]
            .as_str()
            .unwrap()
            .contains("could repeat the result"),
        "{e}"
    );

    // Too long, or not a string: refused like any other argument.
    let r = call(
        &client,
        "read_sensor",
        json!({"count": 1, "jmespath": "a".repeat(513)}),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("jmespath"), "{}", text(&r));
    let r = call(&client, "read_sensor", json!({"count": 1, "jmespath": 5})).await;
    assert!(
        text(&r).contains("- jmespath: must be a string, got 5"),
        "{}",
        text(&r)
    );
    client.cancel().await.unwrap();
}

/// Many samples.
#[derive(Debug, Clone, Serialize, ToolSchema)]
struct Samples {
    /// The samples, in the order taken.
    values: Vec<u32>,
}

#[tokio::test(start_paused = true)]
async fn a_projection_is_held_to_the_call_deadline() {
    /// Takes its samples at once, then has 5 s to answer.
    #[tool(read_only, projection, timeout = "5s")]
    async fn samples() -> Samples {
        Samples {
            values: (0..200_000).rev().collect(),
        }
    }
    let client = connect(tools![samples].build().unwrap()).await;
    let started = tokio::time::Instant::now();
    // Sorting 200,000 numbers takes milliseconds on the projection's thread; the paused clock
    // reaches the deadline as soon as the call only waits for it.
    let r = call(&client, "samples", json!({"jmespath": "sort(values)"})).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let e = r.structured_content.unwrap();
    assert!(
        e["_jmespath_error"]
            .as_str()
            .unwrap()
            .contains("did not finish before the call's deadline"),
        "{e}"
    );
    assert!(
        e["hint"].as_str().unwrap().starts_with("The tool ran"),
        "{e}"
    );
    assert_eq!(e["original_keys"], json!(["values"]));
    let waited = started.elapsed();
    assert!(
        waited >= std::time::Duration::from_secs(5) && waited < std::time::Duration::from_secs(6),
        "answered after {waited:?}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn an_unparsable_expression_never_runs_the_body() {
    static COUNTED: AtomicUsize = AtomicUsize::new(0);
    /// Counts its runs.
    #[tool(read_only, projection)]
    fn counted() -> Pose {
        COUNTED.fetch_add(1, Ordering::SeqCst);
        Pose { x: 1.0, z: 2.0 }
    }
    let toolbox = tools![counted].build().unwrap();
    for expression in ["[", "x ||", "`not json`", "foo(", "a.[b"] {
        let r = toolbox
            .call(
                "counted",
                json!({"jmespath": expression}).as_object().cloned(),
            )
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(true), "{expression}");
    }
    assert_eq!(COUNTED.load(Ordering::SeqCst), 0);
    let r = toolbox
        .call("counted", json!({"jmespath": "x"}).as_object().cloned())
        .await
        .unwrap();
    assert_eq!(r.structured_content, Some(json!({"projection": 1.0})));
    assert_eq!(COUNTED.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn summaries_of_empty_short_and_long_lists() {
    let toolbox = toolbox();
    let client = connect(toolbox.clone()).await;
    let r = ask(
        &client,
        &toolbox,
        "read_sensor",
        json!({"count": 0, "summary": true}),
    )
    .await;
    assert_eq!(
        r.structured_content,
        Some(json!({"summary": {
            "filter": "kalman",
            "readings": {"count": 0, "samples": []},
            "pose": {"x": 400.0, "z": 200.0}
        }}))
    );
    let r = ask(
        &client,
        &toolbox,
        "read_sensor",
        json!({"count": 2, "summary": true}),
    )
    .await;
    assert_eq!(
        r.structured_content.unwrap()["summary"]["readings"],
        json!({"count": 2, "samples": [{"axis": "Fx", "value": -2.5}, {"axis": "Fy", "value": -1.5}]})
    );
    let r = ask(
        &client,
        &toolbox,
        "list_ids",
        json!({"count": 5000, "summary": true}),
    )
    .await;
    assert_eq!(
        r.structured_content,
        Some(json!({"summary": {"result": {"count": 5000, "samples": [0, 2500, 4999]}}}))
    );
    // `summary: false` is the whole result.
    let r = ask(
        &client,
        &toolbox,
        "read_sensor",
        json!({"count": 1, "summary": false}),
    )
    .await;
    assert_eq!(r.structured_content.unwrap()["readings"][0]["axis"], "Fx");
    // Both at once: refused before the tool runs, saying which to send.
    let r = call(
        &client,
        "read_sensor",
        json!({"count": 1, "summary": true, "jmespath": "pose"}),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
    assert!(
        text(&r).contains("summary: cannot be combined with `jmespath`"),
        "{}",
        text(&r)
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn over_budget_results_become_an_envelope_that_says_how_to_ask_for_less() {
    let toolbox = toolbox();
    let client = connect(toolbox.clone()).await;
    let r = ask(&client, &toolbox, "list_ids", json!({"count": 1000})).await;
    assert_eq!(r.is_error, Some(false));
    let e = r.structured_content.unwrap();
    assert_eq!(e["_budget_exceeded"], true);
    assert_eq!(e["budget_bytes"], 300);
    let whole = serde_json::to_string(&json!({"result": (0..1000).collect::<Vec<_>>()})).unwrap();
    assert_eq!(e["actual_bytes"], whole.len());
    let hint = e["hint"].as_str().unwrap();
    assert!(
        hint.contains("`summary` and `jmespath`") || hint.contains("`jmespath` and `summary`"),
        "{hint}"
    );
    // Within the budget: the result itself.
    let r = ask(&client, &toolbox, "list_ids", json!({"count": 3})).await;
    assert_eq!(r.structured_content, Some(json!({"result": [0, 1, 2]})));
    // Asking for less fits.
    let r = ask(
        &client,
        &toolbox,
        "list_ids",
        json!({"count": 1000, "jmespath": "length(result)"}),
    )
    .await;
    assert_eq!(r.structured_content, Some(json!({"projection": 1000})));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_projection_is_held_to_the_budget_too() {
    let toolbox = toolbox();
    let client = connect(toolbox.clone()).await;
    let r = ask(
        &client,
        &toolbox,
        "cut_ids",
        json!({"count": 1000, "jmespath": "result[?@ > `500`]"}),
    )
    .await;
    let kept = r.structured_content.as_ref().unwrap()["projection"]
        .as_array()
        .unwrap()
        .clone();
    assert!(!kept.is_empty() && kept.len() < 499, "{}", kept.len());
    assert_eq!(kept[0], 501, "the first items are kept");
    assert_eq!(r.content.len(), 2, "the value, then the note");
    assert_eq!(
        r.content[0].as_text().unwrap().text,
        Value::Array(kept.clone()).to_string(),
        "the text block is the projected value, cut the same way"
    );
    assert!(
        r.content[1]
            .as_text()
            .unwrap()
            .text
            .contains("`projection` kept the first"),
        "{:?}",
        r.content[1]
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_result_that_breaks_its_own_output_schema_is_caught() {
    // On by default in debug builds (so in these tests); said explicitly for release test runs.
    let toolbox = builder().with_output_checks(true).build().unwrap();
    let client = connect(toolbox.clone()).await;
    let r = call(&client, "ratio", json!({"a": 1.0, "b": 4.0})).await;
    assert_eq!(r.structured_content, Some(json!({"value": 0.25})));
    let r = call(&client, "ratio", json!({"a": 3.0, "b": 2.0})).await;
    assert_eq!(r.is_error, Some(true));
    assert_eq!(r.structured_content, None, "the broken result is not sent");
    let t = text(&r);
    assert!(
        t.starts_with(
            "Tool `ratio` produced a result that does not match its published outputSchema"
        ),
        "{t}"
    );
    assert!(t.contains("bug in the tool"), "{t}");
    assert!(t.contains("- value: "), "names the path: {t}");
    assert!(t.contains("1.5"), "says what it got: {t}");
    // Division by zero: an infinity serializes as null, which the schema does not allow.
    let r = call(&client, "ratio", json!({"a": 1.0, "b": 0.0})).await;
    assert_eq!(r.is_error, Some(true), "{r:?}");
    client.cancel().await.unwrap();

    // Off (as in release builds by default), the result goes out as the body made it.
    let unchecked = toolbox_unchecked();
    let r = unchecked
        .call("ratio", json!({"a": 3.0, "b": 2.0}).as_object().cloned())
        .await
        .unwrap();
    assert_eq!(r.structured_content, Some(json!({"value": 1.5})));
}

fn toolbox_unchecked() -> Toolbox<()> {
    builder().with_output_checks(false).build().unwrap()
}

/// Arguments of a flattened tool: unknown fields are refused by serde.
#[derive(Debug, Deserialize, ToolSchema)]
#[serde(deny_unknown_fields)]
struct Query {
    /// Readings to take.
    #[param(range = 0..=100)]
    count: usize,
}

#[tokio::test]
async fn result_arguments_never_reach_the_body() {
    /// Read with a flattened query.
    #[tool(read_only, projection, summary)]
    fn flat_read(#[param(flatten)] q: Query) -> Frame {
        frame(q.count)
    }
    let toolbox = tools![flat_read].build().unwrap();
    let r = toolbox
        .call(
            "flat_read",
            json!({"count": 3, "jmespath": "length(readings)"})
                .as_object()
                .cloned(),
        )
        .await
        .unwrap();
    assert_eq!(r.structured_content, Some(json!({"projection": 3})));
    let r = toolbox
        .call(
            "flat_read",
            json!({"count": 3, "summary": true}).as_object().cloned(),
        )
        .await
        .unwrap();
    assert_eq!(
        r.structured_content.unwrap()["summary"]["readings"]["count"],
        3
    );
}

#[tokio::test]
async fn the_schemas_publish_every_shape_a_result_can_take() {
    let toolbox = toolbox();
    let tool = toolbox.tool("read_sensor").unwrap();
    let input = &tool.input_schema;
    let jmespath = &input["properties"]["jmespath"];
    assert_eq!(jmespath["type"], "string");
    assert_eq!(jmespath["maxLength"], 512);
    assert!(
        jmespath["description"]
            .as_str()
            .unwrap()
            .ends_with("Top-level keys of this tool's result: `filter`, `readings`, `pose`."),
        "{jmespath}"
    );
    let summary = &input["properties"]["summary"];
    assert_eq!(summary["type"], "boolean");
    assert_eq!(summary["default"], false);
    assert!(
        summary["description"]
            .as_str()
            .unwrap()
            .ends_with("Lists in this tool's result: `readings`.")
    );
    assert_eq!(input["required"], json!(["count"]));
    assert_eq!(
        tool.meta.as_ref().unwrap().0[toolwright::RESULT_ARGUMENTS_META],
        json!(["jmespath", "summary"])
    );
    let output = tool.output_schema.as_ref().unwrap();
    assert_eq!(output["type"], "object");
    let branches = output["anyOf"].as_array().unwrap();
    assert_eq!(branches.len(), 4);
    assert_eq!(
        branches[0]["required"],
        json!(["filter", "readings", "pose"]),
        "the first branch is the result's own shape"
    );
    let required: Vec<&Value> = branches[1..].iter().map(|b| &b["required"][0]).collect();
    assert_eq!(
        required,
        [
            &json!("projection"),
            &json!("_jmespath_error"),
            &json!("summary")
        ]
    );
    // A tool without options publishes its result's schema as before.
    let plain = toolbox.tool("ratio").unwrap();
    assert!(plain.output_schema.as_ref().unwrap().get("anyOf").is_none());
    assert!(plain.input_schema["properties"].get("jmespath").is_none());
    assert!(plain.meta.is_none());
}

/// A toolbox whose tools all take `jmespath`; one opts out.
#[derive(Default)]
struct Sensors;

#[toolbox(projection)]
impl Sensors {
    /// Where the sensor is.
    #[tool(read_only)]
    fn pose(&self) -> Pose {
        Pose { x: 1.0, z: 2.0 }
    }

    /// The sensor's state, never projected.
    #[tool(read_only, projection = false)]
    fn state(&self) -> Pose {
        Pose { x: 3.0, z: 4.0 }
    }

    /// The sensor's name: text, which no projection applies to (left off without a word).
    #[tool(read_only)]
    fn name(&self) -> String {
        "ft-1".to_owned()
    }
}

#[tokio::test]
async fn a_toolbox_opts_every_tool_in() {
    let toolbox = Toolbox::new(Sensors);
    assert!(
        toolbox.tool("pose").unwrap().input_schema["properties"]
            .get("jmespath")
            .is_some()
    );
    assert!(
        toolbox.tool("state").unwrap().input_schema["properties"]
            .get("jmespath")
            .is_none()
    );
    let r = toolbox
        .call("pose", json!({"jmespath": "z"}).as_object().cloned())
        .await
        .unwrap();
    assert_eq!(r.structured_content, Some(json!({"projection": 2.0})));
    assert!(
        toolbox.tool("name").unwrap().input_schema["properties"]
            .get("jmespath")
            .is_none()
    );
    // Not a known argument of `state`: refused like any unknown argument.
    let r = toolbox
        .call("state", json!({"jmespath": "z"}).as_object().cloned())
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
}

#[test]
fn options_the_result_cannot_honour_stop_the_build() {
    /// Say hello.
    #[tool(read_only, projection)]
    fn hello() -> String {
        "hi".into()
    }
    /// A pose has no lists.
    #[tool(read_only, summary)]
    fn no_lists() -> Pose {
        Pose { x: 0.0, z: 0.0 }
    }
    /// A flattened struct with a field named like the argument.
    #[derive(Debug, Deserialize, ToolSchema)]
    struct Clash {
        /// A field that takes the name.
        jmespath: String,
    }
    /// Clashes.
    #[tool(read_only, projection)]
    fn clash(#[param(flatten)] c: Clash) -> Pose {
        let _ = c.jmespath;
        Pose { x: 0.0, z: 0.0 }
    }
    let e =
        Toolbox::try_from_tools((), toolwright::tool_defs![hello, no_lists, clash]).unwrap_err();
    let toolwright::BuildError::Tools { problems } = &e else {
        panic!("{e}")
    };
    assert_eq!(
        *problems,
        [
            "tool `hello`: `projection` needs a structured result (an object or a list), and the tool returns text (a `String`)",
            "tool `no_lists`: `summary` shows the lists at the top of a result as counts and samples, and this tool's result has none; remove `summary`",
            "tool `clash`: a parameter is named `jmespath`, like the argument its result options add; rename the parameter",
        ]
    );
}

/// What a dispenser did: each call drops one part (a tool that changes the world).
#[derive(Debug, Clone, Serialize, ToolSchema)]
struct Dispensed {
    /// Parts dropped so far.
    total: u32,
    /// The bin.
    bin: String,
}

static DISPENSED: AtomicUsize = AtomicUsize::new(0);

/// Drop one part from the bin.
#[tool(projection)]
fn dispense() -> Dispensed {
    let total = DISPENSED.fetch_add(1, Ordering::SeqCst) as u32 + 1;
    Dispensed {
        total,
        bin: "B-7".to_owned(),
    }
}

/// Issue 43: a projection never causes a second run of a tool that changes the world. One that
/// can be seen to fail from the output schema is refused before the tool runs; one that fails on
/// the result is answered with the tool's whole result and the error beside it, never "call
/// again" (the model called a motion a second time to see its result).
#[tokio::test]
async fn a_failing_projection_on_a_tool_that_changes_the_world_keeps_its_result() {
    let toolbox = tools![dispense].build().unwrap();
    let client = connect(toolbox.clone()).await;
    let ran = || DISPENSED.load(Ordering::SeqCst);

    // Refused before it runs: `bin` is a string in every result.
    let r = ask(
        &client,
        &toolbox,
        "dispense",
        json!({"jmespath": "abs(bin)"}),
    )
    .await;
    assert_eq!(r.is_error, Some(true), "{r:?}");
    assert_eq!(ran(), 0, "refused before the body ran");
    let e = r.structured_content.clone().unwrap();
    assert!(
        e["hint"]
            .as_str()
            .unwrap()
            .starts_with("The tool did not run."),
        "{e}"
    );

    // Fails on the result only: the tool ran once; its whole result is the answer.
    let r = ask(
        &client,
        &toolbox,
        "dispense",
        json!({"jmespath": "abs(to_number(bin))"}),
    )
    .await;
    assert_eq!(ran(), 1);
    assert_eq!(r.is_error, Some(false), "the tool ran and succeeded: {r:?}");
    assert_eq!(
        r.structured_content,
        Some(json!({"total": 1, "bin": "B-7"})),
        "the tool's own result"
    );
    let said: Vec<&str> = r
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
        .collect();
    assert_eq!(said.len(), 2, "{said:?}");
    assert_eq!(
        serde_json::from_str::<Value>(said[0]).unwrap(),
        json!({"total": 1, "bin": "B-7"})
    );
    let note = said[1];
    assert!(
        note.contains("could not be applied to the result"),
        "{note}"
    );
    assert!(note.contains("expects type number"), "{note}");
    assert!(note.contains("`dispense` ran once"), "{note}");
    assert!(note.contains("Do not call `dispense` again"), "{note}");
    assert!(!note.contains("and call again"), "{note}");
    assert!(!note.contains("Fix the JMESPath expression"), "{note}");

    // A projection that works still projects.
    let r = ask(&client, &toolbox, "dispense", json!({"jmespath": "total"})).await;
    assert_eq!(r.structured_content, Some(json!({"projection": 2})));
    assert_eq!(ran(), 2);
    client.cancel().await.unwrap();
}
