//! Validate and deserialize one argument document, the way a tools/call does:
//! toolwright's validator (in place, with defaults and lax coercion) and then `Args::take` per
//! argument, vs serde alone (`serde_json::from_value` into the typed parameters) vs the `jsonschema`
//! crate's compiled validator + serde. Every implementation clones the input document per
//! iteration (toolwright's call path takes the arguments by value).
//!
//! `cargo bench -p toolwright-tests --bench validate` (see BENCHMARKS.md). Documents: the
//! `grasp_object_force_control` arguments and a `plan_trajectory` document with 10 waypoints,
//! checked against the schemas the robot_arm example publishes.

mod common;

use std::hint::black_box;
use std::time::Instant;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use toolwright::__private::Args;
use toolwright::__private::{Coercion, Validator};
use toolwright::{Context, Toolbox};
use toolwright_examples::robot_arm::{GraspStrategy, RobotArm, SimConfig};

use common::{Ratio, Routine, Scenario};

fn default_force() -> f64 {
    15.0
}
fn default_timeout() -> f64 {
    10.0
}

/// A position as published (`{x, y, z}`). The tools take a nalgebra `Point3<f64>`, which serde
/// reads as `[x, y, z]`: the toolbox converts the object after validation (`adapt.rs`, not
/// measured here), so this measures the validator and serde on the document the model sends.
#[derive(Deserialize)]
#[allow(dead_code)]
struct Position {
    x: f64,
    y: f64,
    z: f64,
}

/// `grasp_object_force_control`'s parameters as one serde struct (the serde-alone baseline).
#[derive(Deserialize)]
#[allow(dead_code)]
struct GraspParams {
    target_position: Position,
    #[serde(default = "default_force")]
    force: f64,
    #[serde(default)]
    grasp_strategy: GraspStrategy,
    #[serde(default = "default_timeout")]
    timeout: f64,
}

/// `plan_trajectory`'s parameters as one serde struct.
#[derive(Deserialize)]
#[allow(dead_code)]
struct PlanParams {
    waypoints: Vec<Position>,
    #[serde(default)]
    execute: bool,
}

thread_local! {
    /// The call context every `Args` carries (made once: a call gets its own from the server).
    static CONTEXT: Context = Context::detached("bench");
}

/// What a tools/call does before the body: validate the document in place (lax, defaults), then
/// hand it to the generated handler as `Args`, which takes and deserializes each argument.
fn validated(validator: &Validator, doc: &Value) -> Args {
    let mut value = doc.clone();
    validator
        .validate(&mut value, Coercion::Lax)
        .expect("the document is valid");
    match value {
        Value::Object(map) => Args::new(map, CONTEXT.with(Context::clone)),
        _ => unreachable!("validated as an object"),
    }
}

fn take<T: DeserializeOwned>(args: &mut Args, name: &str) -> T {
    args.take(name).expect("deserializes")
}

fn grasp_toolwright(validator: &Validator, doc: &Value) -> (Position, f64, GraspStrategy, f64) {
    let mut args = validated(validator, doc);
    (
        take(&mut args, "target_position"),
        take(&mut args, "force"),
        take(&mut args, "grasp_strategy"),
        take(&mut args, "timeout"),
    )
}

fn plan_toolwright(validator: &Validator, doc: &Value) -> (Vec<Position>, bool) {
    let mut args = validated(validator, doc);
    (take(&mut args, "waypoints"), take(&mut args, "execute"))
}

fn serde_alone<T: DeserializeOwned>(doc: &Value) -> T {
    serde_json::from_value(doc.clone()).expect("deserializes")
}

fn jsonschema_and_serde<T: DeserializeOwned>(validator: &jsonschema::Validator, doc: &Value) -> T {
    let value = doc.clone();
    assert!(validator.is_valid(&value));
    serde_json::from_value(value).expect("deserializes")
}

/// Times `iters` runs of `f`.
fn timed<T>(mut f: impl FnMut() -> T + 'static) -> Routine {
    Box::new(move |iters| {
        let start = Instant::now();
        for _ in 0..iters {
            black_box(f());
        }
        start.elapsed()
    })
}

fn grasp_document() -> Value {
    json!({
        "target_position": {"x": 400.0, "y": 0.0, "z": 25.0},
        "force": 15.0,
        "grasp_strategy": "parallel",
        "timeout": 10.0
    })
}

fn plan_document() -> Value {
    let waypoints: Vec<Value> = (0..10)
        .map(|i| {
            let i = f64::from(i);
            json!({"x": 300.0 + 10.0 * i, "y": -50.0 + 10.0 * i, "z": 200.0 + 5.0 * i})
        })
        .collect();
    json!({ "waypoints": waypoints })
}

/// The input schema the robot_arm example publishes for `tool`.
fn published_schema(tool: &str) -> Value {
    let toolbox = Toolbox::new(RobotArm::new(SimConfig {
        time_scale: 0.0,
        ..SimConfig::default()
    }));
    let tool = toolbox
        .tool(tool)
        .expect("the robot_arm example has this tool");
    Value::Object((*tool.input_schema).clone())
}

struct Case {
    group: &'static str,
    tool: &'static str,
    document: fn() -> Value,
    ours: fn(&Validator, &Value) -> Value,
    serde: fn(&Value) -> Value,
    reference: fn(&jsonschema::Validator, &Value) -> Value,
}

fn ours_grasp(v: &Validator, doc: &Value) -> Value {
    let (p, f, s, t) = grasp_toolwright(v, doc);
    black_box((p, f, s, t));
    Value::Null
}
fn ours_plan(v: &Validator, doc: &Value) -> Value {
    black_box(plan_toolwright(v, doc));
    Value::Null
}
fn serde_grasp(doc: &Value) -> Value {
    black_box(serde_alone::<GraspParams>(doc));
    Value::Null
}
fn serde_plan(doc: &Value) -> Value {
    black_box(serde_alone::<PlanParams>(doc));
    Value::Null
}
fn reference_grasp(r: &jsonschema::Validator, doc: &Value) -> Value {
    black_box(jsonschema_and_serde::<GraspParams>(r, doc));
    Value::Null
}
fn reference_plan(r: &jsonschema::Validator, doc: &Value) -> Value {
    black_box(jsonschema_and_serde::<PlanParams>(r, doc));
    Value::Null
}

const CASES: [Case; 2] = [
    Case {
        group: "validate_grasp",
        tool: "grasp_object_force_control",
        document: grasp_document,
        ours: ours_grasp,
        serde: serde_grasp,
        reference: reference_grasp,
    },
    Case {
        group: "validate_plan_10",
        tool: "plan_trajectory",
        document: plan_document,
        ours: ours_plan,
        serde: serde_plan,
        reference: reference_plan,
    },
];

fn scenarios() -> Vec<Scenario> {
    let mut v = Vec::new();
    for case in CASES {
        let Case {
            group,
            tool,
            document,
            ours,
            serde,
            reference,
        } = case;
        v.push(Scenario::new(group, "toolwright", move || {
            let validator = Validator::compile(&published_schema(tool)).expect("compiles");
            let doc = document();
            timed(move || ours(&validator, &doc))
        }));
        v.push(Scenario::new(group, "serde", move || {
            let doc = document();
            timed(move || serde(&doc))
        }));
        v.push(Scenario::new(group, "jsonschema_serde", move || {
            let validator =
                jsonschema::draft202012::new(&published_schema(tool)).expect("compiles");
            let doc = document();
            assert!(validator.is_valid(&doc));
            timed(move || reference(&validator, &doc))
        }));
        // The parts: the clone every implementation pays, and each validator without serde.
        v.push(Scenario::new(group, "clone_only", move || {
            let doc = document();
            timed(move || doc.clone())
        }));
        v.push(Scenario::new(
            group,
            "toolwright_validate_only",
            move || {
                let validator = Validator::compile(&published_schema(tool)).expect("compiles");
                let doc = document();
                timed(move || {
                    let mut value = doc.clone();
                    let ok = validator.validate(&mut value, Coercion::Lax).is_ok();
                    assert!(ok);
                    value
                })
            },
        ));
        v.push(Scenario::new(
            group,
            "jsonschema_validate_only",
            move || {
                let validator =
                    jsonschema::draft202012::new(&published_schema(tool)).expect("compiles");
                let doc = document();
                timed(move || {
                    let value = doc.clone();
                    assert!(validator.is_valid(&value));
                    value
                })
            },
        ));
    }
    v
}

fn main() {
    let mut ratios = Vec::new();
    for case in CASES {
        let group = case.group;
        ratios.push(Ratio::new(group, "toolwright", "serde", Some(1.3)));
        ratios.push(Ratio::new(
            group,
            "toolwright",
            "jsonschema_serde",
            Some(0.2),
        ));
        ratios.push(Ratio::new(group, "jsonschema_serde", "serde", None));
        ratios.push(Ratio::new(
            group,
            "toolwright_validate_only",
            "jsonschema_validate_only",
            None,
        ));
    }
    common::run("validate", scenarios(), &ratios);
}
