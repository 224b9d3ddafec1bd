//! A corpus of bad input for the robot arm: every case is refused with an `isError` result naming
//! the offending field, no tool body runs (the arm's state is unchanged), and the server answers
//! the next call.
//!
//! Most cases go through rmcp's in-process client, so their arguments are what a JSON parser can
//! produce (`serde_json::Value`). Input that no JSON value can hold (1e400, invalid escapes, lone
//! surrogates, invalid UTF-8, 10,000-deep nesting, duplicate keys) is written as raw JSON-RPC
//! lines to the server's transport by [`Raw`], which records what actually happens to them.
//! The argument size limit ([`Toolbox::with_max_argument_bytes`]) is covered at the end.

mod common;

use common::raw::Raw;
use common::{Client, call, connect, text};
use serde_json::{Value, json};
use toolwright::DEFAULT_MAX_ARGUMENT_BYTES;
use toolwright::{Toolbox, ToolboxBuilder};
use toolwright_examples::robot_arm::{RobotArm, SimConfig};

const FIX: &str = "The tool did not run. Fix the arguments above and call it again.";

fn arm() -> Toolbox<RobotArm> {
    arm_builder().build().unwrap()
}

fn arm_builder() -> ToolboxBuilder<RobotArm> {
    Toolbox::builder(RobotArm::new(SimConfig {
        time_scale: 0.0,
        seed: 3,
        ..SimConfig::default()
    }))
    .with_confirmation(false)
}

const CUBE: fn() -> Value = || json!({"x": 400, "y": 0, "z": 25});

fn wp(x: f64, y: f64, z: f64) -> Value {
    json!({"x": x, "y": y, "z": z})
}

/// `depth` nested arrays around `inner`, built without recursion.
fn nested_arrays(depth: usize, inner: Value) -> Value {
    let mut v = inner;
    for _ in 0..depth {
        v = Value::Array(vec![v]);
    }
    v
}

/// `depth` nested `{"x": ...}` objects around `inner`.
fn nested_objects(depth: usize, inner: Value) -> Value {
    let mut v = inner;
    for _ in 0..depth {
        v = json!({ "x": v });
    }
    v
}

/// One bad call: the tool, its arguments, and the paths that must be named (each as a line
/// `- PATH: ...` of the isError text).
struct Case {
    tool: &'static str,
    args: Value,
    paths: Vec<&'static str>,
}

fn case(tool: &'static str, args: Value, paths: &[&'static str]) -> Case {
    Case {
        tool,
        args,
        paths: paths.to_vec(),
    }
}

fn grasp(extra: Value) -> Value {
    let mut args = json!({"target_position": CUBE()});
    if let (Value::Object(a), Value::Object(e)) = (&mut args, extra) {
        a.extend(e);
    }
    args
}

/// Cases whose arguments fit in the default 1 MiB limit.
fn cases() -> Vec<Case> {
    const G: &str = "grasp_object_force_control";
    const M: &str = "move_arm_to_pose";
    const P: &str = "plan_trajectory";
    const R: &str = "read_ft_sensor";
    let two = || vec![wp(400.0, 0.0, 200.0), wp(400.0, 300.0, 200.0)];
    let with_wp = |i: usize, w: Value| {
        let mut ws = two();
        ws[i] = w;
        json!({ "waypoints": ws })
    };
    vec![
        // Numbers beyond f64 and i64 as they arrive after JSON parsing, extremes, -0, bounds.
        case(G, grasp(json!({"force": 1e308})), &["force"]),
        case(G, grasp(json!({"force": -1e308})), &["force"]),
        case(G, grasp(json!({"force": f64::MAX})), &["force"]),
        case(G, grasp(json!({"force": 5e-324})), &["force"]),
        case(G, grasp(json!({"force": u64::MAX})), &["force"]),
        case(G, grasp(json!({"force": i64::MIN})), &["force"]),
        // 18446744073709551616 (u64::MAX + 1) parses as a float.
        case(
            G,
            grasp(json!({"force": 18_446_744_073_709_551_616.0})),
            &["force"],
        ),
        case(G, grasp(json!({"force": -0.0})), &["force"]),
        case(G, grasp(json!({"force": 30.0_f64.next_up()})), &["force"]),
        case(G, grasp(json!({"force": 5.0_f64.next_down()})), &["force"]),
        case(G, grasp(json!({"timeout": 1e-300})), &["timeout"]),
        case(M, json!({"x": 1e20, "y": 0, "z": 300}), &["x"]),
        case(
            M,
            json!({"x": 400, "y": 0, "z": 300, "speed": 0.1_f64.next_down()}),
            &["speed"],
        ),
        case(
            G,
            json!({"target_position": {"x": 400, "y": 0, "z": -1e-300}}),
            &["target_position.z"],
        ),
        case(P, with_wp(1, wp(400.0, 0.0, 1e300)), &["waypoints[1].z"]),
        // Strings where numbers belong.
        case(G, grasp(json!({"force": "15N"})), &["force"]),
        case(G, grasp(json!({"force": "fifteen"})), &["force"]),
        case(G, grasp(json!({"force": " 15"})), &["force"]),
        case(G, grasp(json!({"force": "1e400"})), &["force"]),
        case(G, grasp(json!({"force": "NaN"})), &["force"]),
        case(G, grasp(json!({"force": "Infinity"})), &["force"]),
        case(G, grasp(json!({"force": "0x0F"})), &["force"]),
        case(G, grasp(json!({"force": "\u{ff11}\u{ff15}"})), &["force"]),
        case(M, json!({"x": "", "y": 0, "z": 300}), &["x"]),
        case(
            G,
            json!({"target_position": {"x": "400mm", "y": 0, "z": 25}}),
            &["target_position.x"],
        ),
        // Booleans.
        case(G, grasp(json!({"force": true})), &["force"]),
        case(M, json!({"x": false, "y": 0, "z": 300}), &["x"]),
        case(G, json!({"target_position": true}), &["target_position"]),
        case(P, json!({"waypoints": false}), &["waypoints"]),
        // Nulls everywhere (null is "absent" only for optional arguments).
        case(G, json!({"target_position": null}), &["target_position"]),
        case(
            G,
            json!({"target_position": {"x": null, "y": 0, "z": 25}}),
            &["target_position.x"],
        ),
        case(
            M,
            json!({"x": null, "y": null, "z": null}),
            &["x", "y", "z"],
        ),
        case(P, json!({"waypoints": null}), &["waypoints"]),
        case(P, with_wp(0, Value::Null), &["waypoints[0]"]),
        case(R, json!({"axes": [null]}), &["axes[0]"]),
        case(
            P,
            json!({"waypoints": [null, null, null]}),
            &["waypoints[0]", "waypoints[1]", "waypoints[2]"],
        ),
        // Arrays where objects belong, objects where arrays or numbers belong.
        case(
            G,
            json!({"target_position": [400, 0, 25]}),
            &["target_position"],
        ),
        case(G, json!({"target_position": []}), &["target_position"]),
        case(
            P,
            json!({"waypoints": [[400, 0, 200], [400, 300, 200]]}),
            &["waypoints[0]", "waypoints[1]"],
        ),
        case(
            P,
            json!({"waypoints": {"0": wp(400.0, 0.0, 200.0), "1": wp(400.0, 300.0, 200.0)}}),
            &["waypoints"],
        ),
        case(R, json!({"axes": {"Fx": true}}), &["axes"]),
        case(
            G,
            grasp(json!({"force": {"value": 15, "unit": "N"}})),
            &["force"],
        ),
        // Unicode look-alikes of enum values.
        case(
            G,
            grasp(json!({"grasp_strategy": "p\u{430}rallel"})),
            &["grasp_strategy"],
        ),
        case(
            G,
            grasp(
                json!({"grasp_strategy": "\u{ff50}\u{ff41}\u{ff52}\u{ff41}\u{ff4c}\u{ff4c}\u{ff45}\u{ff4c}"}),
            ),
            &["grasp_strategy"],
        ),
        case(
            G,
            grasp(json!({"grasp_strategy": "parallel "})),
            &["grasp_strategy"],
        ),
        case(
            G,
            grasp(json!({"grasp_strategy": "para\u{200d}llel"})),
            &["grasp_strategy"],
        ),
        case(
            G,
            grasp(json!({"grasp_strategy": "parallel\u{200b}"})),
            &["grasp_strategy"],
        ),
        case(
            G,
            grasp(json!({"grasp_strategy": "\u{feff}parallel"})),
            &["grasp_strategy"],
        ),
        case(
            G,
            grasp(json!({"grasp_strategy": "Parallel"})),
            &["grasp_strategy"],
        ),
        case(R, json!({"filter": "k\u{430}lman"}), &["filter"]),
        case(R, json!({"axes": ["F\u{445}"]}), &["axes[0]"]),
        case(R, json!({"axes": ["fx", "FX"]}), &["axes[0]", "axes[1]"]),
        // Look-alike and odd argument names.
        case(G, grasp(json!({"f\u{43e}rce": 10})), &["[\"f\u{43e}rce\"]"]),
        case("get_arm_state", json!({"": 1}), &["[\"\"]"]),
        case("stop_arm", json!({"now": true}), &["now"]),
        // Huge arrays (within the size limit).
        case(
            P,
            json!({"waypoints": vec![wp(400.0, 0.0, 200.0); 10_000]}),
            &["waypoints"],
        ),
        case(R, json!({"axes": vec!["Fx"; 100_000]}), &["axes"]),
        case(
            R,
            json!({"axes": ["Fx", "Fy", "Fz", "Mx", "My", "Mz", "Fx"]}),
            &["axes"],
        ),
        case(P, json!({"waypoints": []}), &["waypoints"]),
        // Deep nesting (as deep as the JSON-RPC layer parses: see `raw_lines_*` for 10,000).
        case(
            G,
            grasp(json!({"force": nested_arrays(100, json!(15))})),
            &["force"],
        ),
        case(
            G,
            json!({"target_position": {"x": nested_objects(100, json!(1)), "y": 0, "z": 25}}),
            &["target_position.x"],
        ),
        case(
            P,
            json!({"waypoints": [nested_arrays(100, json!(1)), wp(400.0, 300.0, 200.0)]}),
            &["waypoints[0]"],
        ),
        // Nested wrong types.
        case(
            P,
            with_wp(1, json!({"x": 400, "y": 300, "z": "high"})),
            &["waypoints[1].z"],
        ),
        case(
            P,
            with_wp(1, json!({"x": 400, "y": 300, "z": 200, "w": 1})),
            &["waypoints[1].w"],
        ),
        case(
            P,
            with_wp(1, json!({"x": 400, "y": 300})),
            &["waypoints[1].z"],
        ),
        case(
            G,
            json!({"target_position": {"x": [400], "y": {"v": 0}, "z": true}}),
            &[
                "target_position.x",
                "target_position.y",
                "target_position.z",
            ],
        ),
        case(R, json!({"axes": [["Fx"]]}), &["axes[0]"]),
        case(P, json!({"waypoints": two(), "speed": 2}), &["speed"]),
        // Several problems at once, at several depths.
        case(
            G,
            json!({"target_position": {"x": "a", "z": 1e9}, "force": [], "grasp_strategy": null, "timeout": "0", "grip": 1}),
            &[
                "target_position.x",
                "target_position.y",
                "target_position.z",
                "force",
                "timeout",
                "grip",
            ],
        ),
    ]
}

/// The arm's state, for "nothing changed" checks.
async fn state(client: &Client) -> Value {
    let r = call(client, "get_arm_state", json!({})).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    r.structured_content
        .expect("get_arm_state has structured output")
}

/// Asserts an invalid-arguments result naming every path.
fn assert_refused(tool: &str, args: &Value, paths: &[&str], r: &rmcp::model::CallToolResult) {
    let shown = || {
        let s = args.to_string();
        if s.len() > 200 {
            format!("{}… ({} bytes)", &s[..s.floor_char_boundary(200)], s.len())
        } else {
            s
        }
    };
    assert_eq!(
        r.is_error,
        Some(true),
        "{tool} {} should be refused",
        shown()
    );
    assert_eq!(r.structured_content, None);
    let text = text(r);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with(&format!("Invalid arguments for tool `{tool}` (")),
        "{text}"
    );
    assert_eq!(lines.last(), Some(&FIX), "{text}");
    for path in paths {
        assert!(
            lines.iter().any(|l| l.starts_with(&format!("- {path}: "))),
            "{tool} {}: no problem reported at `{path}`:\n{text}",
            shown()
        );
    }
    assert!(
        text.len() < 4_000,
        "the message stays short whatever came in: {} bytes",
        text.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_arguments_are_refused_naming_the_field() {
    let cases = cases();
    assert!(cases.len() >= 60, "{} cases", cases.len());
    let client = connect(arm()).await;
    let initial = state(&client).await;
    for Case { tool, args, paths } in &cases {
        let r = call(&client, tool, args.clone()).await;
        assert_refused(tool, args, paths, &r);
        // The server answers the next call, and no body ran: the arm is where it was.
        assert_eq!(state(&client).await, initial, "after {tool} {args}");
    }
    println!(
        "bad input: {} cases refused, naming their fields",
        cases.len()
    );
    // The same server still works.
    let r = call(
        &client,
        "move_arm_to_pose",
        json!({"x": 400, "y": 0, "z": 200}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn negative_zero_is_zero() {
    // -0 is a number equal to 0: inside `z`'s range [0, 950], outside `force`'s [5, 30].
    let client = connect(arm()).await;
    let r = call(
        &client,
        "move_arm_to_pose",
        json!({"x": 400, "y": -0.0, "z": 300}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let r = call(
        &client,
        "grasp_object_force_control",
        grasp(json!({"force": -0.0})),
    )
    .await;
    assert_eq!(
        text(&r).lines().nth(1),
        Some("- force: must be between 5 and 30 N, got -0")
    );
    client.cancel().await.unwrap();
}

// ---------------------------------------------------------------------------------------------
// 10 MB strings, and the argument size limit
// ---------------------------------------------------------------------------------------------

const TEN_MB: usize = 10 * 1024 * 1024;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_megabyte_strings_are_refused_by_size_by_default() {
    let client = connect(arm()).await;
    let initial = state(&client).await;
    for (tool, args) in [
        (
            "grasp_object_force_control",
            grasp(json!({"force": "7".repeat(TEN_MB)})),
        ),
        (
            "grasp_object_force_control",
            grasp(json!({"grasp_strategy": "a".repeat(TEN_MB)})),
        ),
        (
            "move_arm_to_pose",
            json!({"x": 400, "y": 0, "z": 200, "note": "é".repeat(TEN_MB / 2)}),
        ),
    ] {
        let size = serde_json::to_string(&args).unwrap().len();
        assert!(size > TEN_MB);
        let r = call(&client, tool, args).await;
        assert_eq!(r.is_error, Some(true));
        assert_eq!(
            text(&r),
            format!(
                "Arguments for tool `{tool}` are too large: {size} bytes, over the limit of \
                 1048576 bytes. Send smaller arguments (for example fewer items per call)."
            )
        );
        assert_eq!(state(&client).await, initial);
    }
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_megabyte_strings_name_the_field_when_the_limit_allows_them() {
    let client = connect(
        arm_builder()
            .with_max_argument_bytes(usize::MAX)
            .build()
            .unwrap(),
    )
    .await;
    let initial = state(&client).await;
    let cases = [
        (
            "grasp_object_force_control",
            grasp(json!({"force": "7".repeat(TEN_MB)})),
            "- force: must be a number in N, got string \"7777777777777777777777777777777777777777…\" (10485760 characters)",
        ),
        (
            "grasp_object_force_control",
            grasp(json!({"grasp_strategy": "a".repeat(TEN_MB)})),
            "- grasp_strategy: must be one of \"parallel\", \"suction\", \"adaptive\", got \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…\" (10485760 characters)",
        ),
        (
            "move_arm_to_pose",
            json!({"x": 400, "y": 0, "z": 200, "note": "é".repeat(TEN_MB / 2)}),
            "- note: unknown argument; allowed: x, y, z, speed",
        ),
    ];
    for (tool, args, line) in cases {
        let r = call(&client, tool, args).await;
        assert_eq!(r.is_error, Some(true));
        let text = text(&r);
        assert!(
            text.len() < 500,
            "the message is short: {}… ({} bytes)",
            &text[..text.floor_char_boundary(300)],
            text.len()
        );
        assert_eq!(text.lines().nth(1), Some(line), "{text}");
        assert_eq!(state(&client).await, initial);
    }
    client.cancel().await.unwrap();
}

/// `{"target_position":{"x":400,"y":0,"z":25},"force":"aaa…"}` of exactly `size` bytes.
fn grasp_of_size(size: usize) -> Value {
    let empty = serde_json::to_string(&grasp(json!({"force": ""})))
        .unwrap()
        .len();
    let args = grasp(json!({"force": "a".repeat(size - empty)}));
    assert_eq!(serde_json::to_string(&args).unwrap().len(), size);
    args
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_size_limit_is_exact_and_configurable() {
    assert_eq!(DEFAULT_MAX_ARGUMENT_BYTES, 1_048_576);
    let client = connect(arm()).await;
    // At the limit: validated (and refused for its content, naming the field).
    let r = call(
        &client,
        "grasp_object_force_control",
        grasp_of_size(1_048_576),
    )
    .await;
    assert!(
        text(&r).contains("\n- force: must be a number in N, got string \"aaaa"),
        "{}",
        text(&r)
    );
    // One byte over: refused by size.
    let r = call(
        &client,
        "grasp_object_force_control",
        grasp_of_size(1_048_577),
    )
    .await;
    assert_eq!(
        text(&r),
        "Arguments for tool `grasp_object_force_control` are too large: 1048577 bytes, over the \
         limit of 1048576 bytes. Send smaller arguments (for example fewer items per call)."
    );
    client.cancel().await.unwrap();

    // A small limit refuses even valid arguments, before validation, and the arm does not move.
    let args = json!({"x": 400.000_000_1, "y": 0.000_000_1, "z": 200.000_000_1});
    let size = serde_json::to_string(&args).unwrap().len();
    let client = connect(
        arm_builder()
            .with_max_argument_bytes(size - 1)
            .build()
            .unwrap(),
    )
    .await;
    let initial = state(&client).await;
    let r = call(&client, "move_arm_to_pose", args.clone()).await;
    assert_eq!(
        text(&r),
        format!(
            "Arguments for tool `move_arm_to_pose` are too large: {size} bytes, over the limit \
             of {} bytes. Send smaller arguments (for example fewer items per call).",
            size - 1
        )
    );
    assert_eq!(state(&client).await, initial);
    // Calls without arguments are 2 bytes (`{}`) and still fit.
    let r = call(&client, "stop_arm", json!({})).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    client.cancel().await.unwrap();

    // With the limit at the exact size, the same call runs and the arm moves.
    let client = connect(arm_builder().with_max_argument_bytes(size).build().unwrap()).await;
    let r = call(&client, "move_arm_to_pose", args).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    assert_ne!(
        state(&client).await["position"],
        json!({"x": 300.0, "y": 0.0, "z": 400.0})
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn huge_arrays_are_refused_by_size() {
    let client = connect(arm()).await;
    let initial = state(&client).await;
    let args = json!({"waypoints": vec![wp(400.0, 0.0, 200.0); 100_000]});
    let size = serde_json::to_string(&args).unwrap().len();
    let r = call(&client, "plan_trajectory", args).await;
    assert_eq!(
        text(&r),
        format!(
            "Arguments for tool `plan_trajectory` are too large: {size} bytes, over the limit of \
             1048576 bytes. Send smaller arguments (for example fewer items per call)."
        )
    );
    assert_eq!(state(&client).await, initial);
    client.cancel().await.unwrap();
}

// ---------------------------------------------------------------------------------------------
// Raw JSON-RPC lines: input no `serde_json::Value` can hold
// ---------------------------------------------------------------------------------------------

fn grasp_raw(extra: &str) -> Vec<u8> {
    format!(r#"{{"target_position":{{"x":400,"y":0,"z":25}},{extra}}}"#).into_bytes()
}

/// Lines a JSON parser refuses, each a whole request around the bad part: rmcp would drop them
/// without a word (as the other MCP SDKs do); the line transport answers each with `-32700`
/// (`-32600` past 128 levels of nesting) and the request's id, read from its top level, and
/// keeps serving.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raw_lines_that_are_not_json_get_a_parse_error_with_their_id() {
    let deep_arrays = format!(
        r#"{{"target_position":{{"x":400,"y":0,"z":25}},"force":{}15{}}}"#,
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    let deep_objects = format!(
        r#"{{"target_position":{}1{}}}"#,
        r#"{"x":"#.repeat(10_000),
        "}".repeat(10_000)
    );
    let mut invalid_utf8 = grasp_raw(r#""grasp_strategy":"par"#);
    invalid_utf8.extend_from_slice(b"\xff\xfe");
    invalid_utf8.extend_from_slice(b"allel\"}");
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("1e400", grasp_raw(r#""force":1e400"#)),
        ("-1e400", grasp_raw(r#""force":-1e400"#)),
        (
            "a 400-digit integer",
            grasp_raw(&format!(r#""force":1{}"#, "0".repeat(400))),
        ),
        ("1.8e308", grasp_raw(r#""force":1.8e308"#)),
        ("10,000 nested arrays", deep_arrays.into_bytes()),
        ("10,000 nested objects", deep_objects.into_bytes()),
        (
            "an invalid escape",
            grasp_raw(r#""grasp_strategy":"par\xallel""#),
        ),
        (
            "a lone surrogate",
            grasp_raw(r#""grasp_strategy":"\ud800allel""#),
        ),
        ("invalid UTF-8", invalid_utf8),
        ("NaN", grasp_raw(r#""force":NaN"#)),
        ("a trailing comma", grasp_raw(r#""force":15,"#)),
        ("a leading zero", grasp_raw(r#""force":015"#)),
        (
            "a single-quoted string",
            grasp_raw(r#""grasp_strategy":'parallel'"#),
        ),
    ];
    let mut raw = Raw::connect(arm()).await;
    let (initial, _) = raw.state(1).await;
    assert_eq!(initial["objects"].as_array().map(Vec::len), Some(3));
    let mut id = 100;
    for (what, arguments) in &cases {
        id += 2;
        raw.call_raw(id, "grasp_object_force_control", arguments)
            .await;
        let mut replies = raw.until(id).await;
        let reply = replies.pop().expect("the reply");
        assert!(replies.is_empty(), "{what}: {replies:?}");
        // Nesting past serde_json's 128 levels may be valid JSON: it is an invalid request.
        let (code, start) = if what.contains("nested") {
            (
                -32600,
                "Invalid Request: the message is nested more than 128 levels deep",
            )
        } else {
            (-32700, "Parse error: ")
        };
        assert_eq!(reply["error"]["code"], json!(code), "{what}: {reply}");
        let message = reply["error"]["message"].as_str().unwrap_or_default();
        assert!(message.starts_with(start), "{what}: {reply}");
        // The next call is answered, and the arm did not move.
        let (state, before) = raw.state(id + 1).await;
        assert!(before.is_empty(), "{what}: unexpected replies {before:?}");
        assert_eq!(state, initial, "{what}");
    }
    // A string that never ends: no bracket closes after it, so no id can be trusted.
    raw.call_raw(
        900,
        "grasp_object_force_control",
        &grasp_raw(r#""grasp_strategy":"parallel}"#),
    )
    .await;
    let replies = answers_before_calls(&mut raw, 901, &initial).await;
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert_eq!(replies[0]["id"], Value::Null, "{replies:?}");
    assert_eq!(replies[0]["error"]["code"], json!(-32700), "{replies:?}");
}

/// The replies that come besides the next calls' (an error reply and the next call's reply may
/// come in either order): calls are made until one has come, a bounded number of times, each
/// checking the arm did not move.
async fn answers_before_calls(raw: &mut Raw, first_id: u64, initial: &Value) -> Vec<Value> {
    let mut replies = Vec::new();
    for round in 0..50 {
        let (state, before) = raw.state(first_id + 1000 * round).await;
        assert_eq!(&state, initial);
        replies.extend(before);
        if !replies.is_empty() {
            break;
        }
    }
    replies
}

/// Lines that parse as JSON but hold odd input: they reach validation like any call.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raw_lines_that_parse_reach_validation() {
    let nested_120 = grasp_raw(&format!(
        r#""force":{}15{}"#,
        "[".repeat(120),
        "]".repeat(120)
    ));
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        // The last of duplicate keys wins (serde_json's maps), and is validated.
        (
            "duplicate keys",
            grasp_raw(r#""force":10,"force":100"#),
            "- force: must be between 5 and 30 N, got 100",
        ),
        (
            "1e-400 (underflows to 0)",
            grasp_raw(r#""force":1e-400"#),
            "- force: must be between 5 and 30 N, got 0",
        ),
        (
            "u64::MAX + 1",
            grasp_raw(r#""force":18446744073709551616"#),
            "- force: must be between 5 and 30 N, got 18446744073709552000",
        ),
        (
            "i64::MIN - 1",
            grasp_raw(r#""force":-9223372036854775809"#),
            "- force: must be between 5 and 30 N, got -9223372036854776000",
        ),
        (
            "-0",
            grasp_raw(r#""force":-0"#),
            "- force: must be between 5 and 30 N, got -0",
        ),
        (
            "an escaped look-alike",
            grasp_raw(r#""grasp_strategy":"p\u0430rallel""#),
            "- grasp_strategy: must be one of \"parallel\", \"suction\", \"adaptive\", got \"pаrallel\" (hint: did you mean \"parallel\"?)",
        ),
        (
            "an escaped NUL",
            grasp_raw(r#""grasp_strategy":"parallel\u0000""#),
            "- grasp_strategy: must be one of \"parallel\", \"suction\", \"adaptive\", got \"parallel\\u0000\" (hint: did you mean \"parallel\"?)",
        ),
        (
            "120 nested arrays",
            nested_120,
            "- force: must be a number in N, got an array",
        ),
    ];
    let mut raw = Raw::connect(arm()).await;
    let (initial, _) = raw.state(1).await;
    let mut id = 100;
    for (what, arguments, line) in &cases {
        id += 2;
        raw.call_raw(id, "grasp_object_force_control", arguments)
            .await;
        let mut replies = raw.until(id).await;
        let reply = replies.pop().expect("the reply");
        assert!(replies.is_empty(), "{what}: {replies:?}");
        let result = &reply["result"];
        assert_eq!(result["isError"], json!(true), "{what}: {reply}");
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        assert_eq!(text.lines().nth(1), Some(*line), "{what}: {text}");
        let (state, before) = raw.state(id + 1).await;
        assert!(before.is_empty(), "{what}: {before:?}");
        assert_eq!(state, initial, "{what}");
    }
}

/// Well-formed JSON that is not a valid request gets a JSON-RPC error with the request's id when
/// it has a usable one, and the server goes on. A `tools/call` whose params rmcp cannot read as
/// `CallToolRequestParams` reaches the toolbox as a custom request, which answers `-32602`
/// (rmcp alone answered `-32601` there); a message rmcp cannot read at all is answered by the
/// line transport (rmcp alone answered `-32600` with a null id, which no client can match).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raw_lines_that_are_not_requests_get_a_json_rpc_error() {
    // `ID` is replaced by the case's request id; `echoes_id` false: the reply's id is null.
    let cases: Vec<(&str, &str, bool, i64, &str)> = vec![
        (
            "arguments as an array",
            r#"{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"stop_arm","arguments":[1,2]}}"#,
            true,
            -32602,
            "Invalid params for `tools/call`: invalid type: sequence, expected a map",
        ),
        (
            "arguments as a string",
            r#"{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"stop_arm","arguments":"{}"}}"#,
            true,
            -32602,
            "Invalid params for `tools/call`: invalid type: string",
        ),
        (
            "a tool name that is a number",
            r#"{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":5}}"#,
            true,
            -32602,
            "Invalid params for `tools/call`: invalid type: integer `5`",
        ),
        (
            "params as null",
            r#"{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":null}"#,
            true,
            -32602,
            "Invalid params for `tools/call`",
        ),
        (
            "params as a string",
            r#"{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":"x"}"#,
            true,
            -32602,
            "Invalid params for `tools/call`",
        ),
        (
            "no jsonrpc version",
            r#"{"id":ID,"method":"tools/call","params":{"name":"stop_arm"}}"#,
            true,
            -32600,
            "Invalid Request: `jsonrpc` must be \"2.0\"",
        ),
        (
            "jsonrpc 1.0",
            r#"{"jsonrpc":"1.0","id":ID,"method":"ping"}"#,
            true,
            -32600,
            "Invalid Request: `jsonrpc` must be \"2.0\"",
        ),
        (
            "an id and no method",
            r#"{"jsonrpc":"2.0","id":ID}"#,
            true,
            -32600,
            "Invalid Request: no `method`",
        ),
        (
            "a method that is a number",
            r#"{"jsonrpc":"2.0","id":ID,"method":7}"#,
            true,
            -32600,
            "Invalid Request: `method` must be a string",
        ),
        (
            "a JSON array",
            "[1,2,3]",
            false,
            -32600,
            "Invalid Request: a batch (JSON array)",
        ),
        (
            "an empty batch",
            "[]",
            false,
            -32600,
            "Invalid Request: an empty batch",
        ),
    ];
    let mut raw = Raw::connect(arm()).await;
    let (initial, _) = raw.state(1).await;
    let mut id = 100;
    for (what, template, echoes_id, code, message) in &cases {
        id += 2;
        let bad_id = id;
        let reply_id = if *echoes_id {
            json!(bad_id)
        } else {
            Value::Null
        };
        raw.send(template.replace("ID", &bad_id.to_string()).as_bytes())
            .await;
        let replies = answers_before_calls(&mut raw, id + 1, &initial).await;
        assert_eq!(replies.len(), 1, "{what}: {replies:?}");
        assert_eq!(replies[0]["id"], reply_id, "{what}: {replies:?}");
        assert_eq!(
            replies[0]["error"]["code"],
            json!(code),
            "{what}: {replies:?}"
        );
        let said = replies[0]["error"]["message"].as_str().unwrap_or_default();
        assert!(said.starts_with(message), "{what}: {said}");
    }
    // A response (our own error echoed back, say) and a notification are never answered.
    for silent in [
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid Request"}}"#,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"},}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}"#,
    ] {
        raw.send(silent.as_bytes()).await;
        for round in 0..3 {
            let (state, before) = raw.state(5000 + round).await;
            assert_eq!(state, initial);
            assert!(before.is_empty(), "{silent}: answered {before:?}");
        }
    }
}
