//! What a call gets: validation before the body, panics and errors as isError results, defaults,
//! free functions, sync and async, outputs of every shape.

mod common;

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{call, connect, text};
use serde::{Deserialize, Serialize};
use serde_json::json;
use toolwright::{ToolError, ToolSchema, Toolbox, tool, toolbox, tools};

/// Counts how many times each body ran.
#[derive(Default)]
struct Counted {
    runs: AtomicUsize,
}

/// A labelled sample.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
struct Sample {
    /// Sample label.
    #[param(min_length = 1, max_length = 8, pattern = "^[a-z_]+$")]
    label: String,
    /// Readings.
    #[param(unit = "V", range = -10.0..=10.0)]
    volts: Vec<f64>,
}

#[toolbox]
impl Counted {
    /// Record a sample.
    #[tool]
    fn record(
        &self,
        /// The sample.
        sample: Sample,
        /// How many copies to keep.
        #[param(range = 1..=5, default = 1)]
        copies: u8,
    ) -> usize {
        self.runs.fetch_add(1, Ordering::SeqCst);
        sample.volts.len() * usize::from(copies)
    }

    /// Always panics.
    #[tool]
    fn explode(&self) -> String {
        self.runs.fetch_add(1, Ordering::SeqCst);
        panic!("boom: the simulated driver crashed")
    }

    /// Fails politely.
    #[tool]
    async fn refuse(
        &self,
        /// Why.
        reason: Option<String>,
    ) -> Result<(), ToolError> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        Err(ToolError::new(reason.unwrap_or_else(|| "no reason".into())).with_hint("ask nicely"))
    }
}

#[tokio::test]
async fn bodies_never_run_on_invalid_input() {
    let toolbox = Toolbox::new(Counted::default());
    let state = toolbox.state().clone();
    let client = connect(toolbox).await;
    let invalid = [
        json!({}),
        json!({"sample": {"label": "ok"}}),
        json!({"sample": {"label": "", "volts": []}}),
        json!({"sample": {"label": "waytoolonglabel", "volts": []}}),
        json!({"sample": {"label": "UPPER", "volts": []}}),
        json!({"sample": {"label": "ok", "volts": [11.0]}}),
        json!({"sample": {"label": "ok", "volts": ["x"]}}),
        json!({"sample": {"label": "ok", "volts": [], "extra": 1}}),
        json!({"sample": {"label": "ok", "volts": []}, "copies": 0}),
        json!({"sample": {"label": "ok", "volts": []}, "copies": 300}),
        json!({"sample": {"label": "ok", "volts": []}, "copies": 2.5}),
        json!({"sample": "ok"}),
    ];
    for args in &invalid {
        let r = call(&client, "record", args.clone()).await;
        assert_eq!(r.is_error, Some(true), "{args} should be refused");
    }
    assert_eq!(state.runs.load(Ordering::SeqCst), 0, "no body ran");

    let r = call(
        &client,
        "record",
        json!({"sample": {"label": "ok", "volts": [1, 2]}, "copies": "3"}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    assert_eq!(r.structured_content, Some(json!({"result": 6})));
    let r = call(
        &client,
        "record",
        json!({"sample": {"label": "ok", "volts": [1, 2]}}),
    )
    .await;
    assert_eq!(
        r.structured_content,
        Some(json!({"result": 2})),
        "default copies = 1"
    );
    assert_eq!(state.runs.load(Ordering::SeqCst), 2);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn all_violations_are_reported_together() {
    let client = connect(Toolbox::new(Counted::default())).await;
    let r = call(
        &client,
        "record",
        json!({"sample": {"label": "Bad Label!", "volts": [1, 20, "x"], "unit": "V"}, "copies": 9}),
    )
    .await;
    assert_eq!(
        text(&r),
        "Invalid arguments for tool `record` (6 problems):\n\
         - sample.label: must be at most 8 characters long, got 10\n\
         - sample.label: must match the pattern ^[a-z_]+$, got string \"Bad Label!\"\n\
         - sample.volts[1]: must be between -10 and 10 V, got 20\n\
         - sample.volts[2]: must be a number in V, got string \"x\"\n\
         - sample.unit: unknown field; allowed: label, volts\n\
         - copies: must be between 1 and 5, got 9\n\
         The tool did not run. Fix the arguments above and call it again."
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_panicking_tool_leaves_the_server_alive() {
    let client = connect(Toolbox::new(Counted::default())).await;
    for _ in 0..3 {
        let r = call(&client, "explode", json!({})).await;
        assert_eq!(r.is_error, Some(true));
        assert_eq!(
            text(&r),
            "Tool `explode` failed with an internal error and did not complete: boom: the simulated \
             driver crashed. The server is still running; do not retry with the same arguments."
        );
    }
    let r = call(&client, "refuse", json!({"reason": "busy"})).await;
    assert_eq!(r.is_error, Some(true));
    assert_eq!(text(&r), "busy\nHint: ask nicely");
    let r = call(&client, "refuse", json!({})).await;
    assert_eq!(text(&r), "no reason\nHint: ask nicely");
    client.cancel().await.unwrap();
}

// ---- free functions, every output shape ----

/// Add two integers.
#[tool(read_only)]
fn add(
    /// First addend.
    a: i32,
    /// Second addend.
    b: i32,
) -> i64 {
    i64::from(a) + i64::from(b)
}

/// Greet someone.
#[tool(name = "greet", title = "Greeter")]
async fn say_hello(
    /// Who to greet.
    #[param(min_length = 1, examples = ["Ada", "Linus"])]
    name: String,
) -> String {
    format!("Hello, {name}!")
}

/// Count words.
#[tool]
fn word_counts(
    /// The text.
    text: String,
) -> HashMap<String, u32> {
    let mut counts = HashMap::new();
    for w in text.split_whitespace() {
        *counts.entry(w.to_owned()).or_insert(0) += 1;
    }
    counts
}

/// Do nothing.
#[tool(idempotent)]
fn noop() {}

#[tokio::test]
async fn free_functions_and_output_shapes() {
    let toolbox = tools![add, say_hello, word_counts, noop].build().unwrap();
    let names: Vec<_> = toolbox.tools().iter().map(|t| t.name.to_string()).collect();
    assert_eq!(names, ["add", "greet", "word_counts", "noop"]);
    let greet = toolbox.tool("greet").unwrap();
    assert_eq!(greet.title.as_deref(), Some("Greeter"));
    assert!(greet.output_schema.is_none(), "String returns text only");
    assert_eq!(
        serde_json::to_value(&greet.input_schema).unwrap(),
        json!({"type": "object", "properties": {"name": {"type": "string", "description": "Who to greet.",
               "minLength": 1, "examples": ["Ada", "Linus"]}}, "required": ["name"], "additionalProperties": false})
    );
    let add_tool = toolbox.tool("add").unwrap();
    assert_eq!(
        serde_json::to_value(&add_tool.output_schema).unwrap(),
        json!({"type": "object", "properties": {"result": {"type": "integer"}},
               "required": ["result"]})
    );
    assert_eq!(
        serde_json::to_value(&add_tool.annotations).unwrap(),
        json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true})
    );

    let client = connect(toolbox).await;
    let r = call(&client, "add", json!({"a": 2, "b": "40"})).await;
    assert_eq!(r.structured_content, Some(json!({"result": 42})));
    assert_eq!(text(&r), r#"{"result":42}"#);
    let r = call(&client, "add", json!({"a": 2147483648_i64, "b": 1.5})).await;
    assert_eq!(
        text(&r),
        "Invalid arguments for tool `add` (2 problems):\n\
         - a: must be between -2147483648 and 2147483647, got 2147483648\n\
         - b: must be an integer, got 1.5\n\
         The tool did not run. Fix the arguments above and call it again."
    );
    let r = call(&client, "greet", json!({"name": "Ada"})).await;
    assert_eq!(r.structured_content, None);
    assert_eq!(text(&r), "Hello, Ada!");
    let r = call(&client, "word_counts", json!({"text": "a b a"})).await;
    assert_eq!(r.structured_content, Some(json!({"a": 2, "b": 1})));
    let r = call(&client, "noop", json!({})).await;
    assert_eq!((r.is_error, text(&r)), (Some(false), "ok".to_owned()));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn free_functions_join_a_stateful_toolbox_and_route_into_rmcp() {
    let toolbox = Toolbox::builder(Counted::default())
        .with_tools(toolwright::tool_defs![add])
        .build()
        .unwrap();
    assert_eq!(toolbox.tools().len(), 4);
    let r = toolbox
        .call("add", json!({"a": 1, "b": 2}).as_object().cloned())
        .await
        .unwrap();
    assert_eq!(r.structured_content, Some(json!({"result": 3})));

    let router = toolbox.into_tool_router::<()>();
    let listed: Vec<_> = router
        .list_all()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    assert!(listed.contains(&"add".to_owned()) && listed.contains(&"record".to_owned()));
}

#[test]
#[should_panic(expected = "tool `add` is declared twice")]
fn duplicate_names_across_sources_are_refused_at_build() {
    let _ = Toolbox::from_tools((), toolwright::tool_defs![add, add]);
}
