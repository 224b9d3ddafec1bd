//! Schemas generated from declarations: derive(ToolSchema) with serde attributes, enums in every
//! representation, containers, integer widths, flatten, and what cannot be published.

mod common;

use std::collections::HashMap;

use common::assert_snapshot;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolwright::{ToolSchema, Toolbox, tool, tool_defs, tools};

/// Gripper settings.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
#[serde(rename_all = "camelCase")]
pub struct GripperSettings {
    /// Opening width.
    #[param(unit = "mm", range = 0.0..=120.0, default = 80.0)]
    pub opening_width: f64,
    /// Finger material.
    #[serde(default)]
    pub finger_material: Material,
    /// Grip force limit.
    #[serde(rename = "maxForce")]
    #[param(unit = "N", range = 0.0..100.0)]
    pub force_limit: Option<f32>,
    /// Internal, never published.
    #[serde(skip)]
    pub calibration: u8,
}

/// Finger pad material.
#[derive(Debug, Default, Serialize, Deserialize, ToolSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Material {
    /// hard plastic pads
    #[default]
    HardPlastic,
    /// soft silicone pads
    SoftSilicone,
    /// bare metal jaws
    #[serde(rename = "steel")]
    Metal,
}

/// A motion target.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Target {
    /// A named pose from the pose library.
    Named {
        /// Pose name.
        #[param(min_length = 1, max_length = 32, pattern = "^[a-z_]+$")]
        name: String,
    },
    /// A joint configuration.
    Joints {
        /// Six joint angles.
        #[param(unit = "deg", range = -180.0..=180.0, min_items = 6, max_items = 6)]
        angles: Vec<f64>,
    },
    /// The home pose.
    Home,
}

/// An externally tagged command.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
pub enum Command {
    /// Stop.
    Stop,
    /// Wait some time.
    Wait(u16),
    /// Go somewhere.
    Go {
        /// Where.
        target: Target,
    },
}

/// Speed limits shared by several tools.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
pub struct Limits {
    /// Maximum speed.
    #[param(unit = "mm/s", range = 1..=500)]
    pub max_speed: u32,
    /// Maximum acceleration.
    #[param(unit = "mm/s^2")]
    pub max_acceleration: Option<f64>,
}

/// Configure the gripper.
#[tool(allow(deep_nesting))]
fn configure(
    /// New settings.
    settings: GripperSettings,
    /// What to do next.
    next: Option<Command>,
    /// Per-joint offsets by joint name.
    offsets: HashMap<String, f64>,
    /// Retry count.
    #[param(range = 0..=3)]
    retries: u8,
    /// Sequence number.
    sequence: i64,
) -> GripperSettings {
    let _ = (next, offsets, retries, sequence);
    settings
}

/// Apply limits.
#[tool]
fn apply_limits(#[param(flatten)] limits: Limits) -> Vec<u16> {
    vec![limits.max_speed as u16]
}

#[test]
fn derived_schemas_match_the_reviewed_snapshot() {
    let toolbox = tools![configure, apply_limits].build().unwrap();
    let listed = serde_json::to_value(toolbox.tools()).unwrap();
    assert_snapshot("derived_schemas", &listed);
}

#[test]
fn derived_schemas_follow_serde() {
    let toolbox = tools![configure].build().unwrap();
    let input = serde_json::to_value(&toolbox.tool("configure").unwrap().input_schema).unwrap();
    let settings = &input["properties"]["settings"];
    let names: Vec<&str> = settings["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        names,
        ["openingWidth", "fingerMaterial", "maxForce"],
        "rename_all, rename, skip"
    );
    assert_eq!(
        settings["required"],
        json!([]),
        "defaults (param and serde) and Option are optional"
    );
    assert_eq!(
        settings["properties"]["fingerMaterial"]["enum"],
        json!(["hard-plastic", "soft-silicone", "steel"])
    );
    assert_eq!(
        settings["properties"]["maxForce"],
        json!({"type": "number", "description": "Grip force limit, in newtons (N).", "x-unit": "N",
               "minimum": 0.0, "exclusiveMaximum": 100.0}),
        "Option<f32> is optional and not nullable on input"
    );
    assert_eq!(
        input["properties"]["retries"],
        json!({"type": "integer", "description": "Retry count.", "minimum": 0, "maximum": 3})
    );
    assert_eq!(
        input["properties"]["sequence"],
        json!({"type": "integer", "description": "Sequence number."})
    );
    assert_eq!(
        input["properties"]["offsets"]["additionalProperties"],
        json!({"type": "number"})
    );
    assert_eq!(
        input["required"],
        json!(["settings", "offsets", "retries", "sequence"])
    );

    // Output: the same type under the serialize contract; the Option becomes nullable since serde
    // writes `null`, and objects stay open.
    let output = serde_json::to_value(&toolbox.tool("configure").unwrap().output_schema).unwrap();
    assert_eq!(
        output["properties"]["maxForce"]["type"],
        json!(["number", "null"])
    );
    assert!(output.get("additionalProperties").is_none());
}

#[test]
fn no_refs_and_no_formats_anywhere() {
    let toolbox = tools![configure, apply_limits].build().unwrap();
    let text = serde_json::to_string(toolbox.tools()).unwrap();
    for banned in ["$ref", "$defs", "definitions", "\"format\"", "$schema"] {
        assert!(!text.contains(banned), "{banned} in {text}");
    }
}

#[tokio::test]
async fn tagged_enums_validate_and_deserialize() {
    let toolbox = tools![configure].build().unwrap();
    let base =
        json!({"settings": {"openingWidth": 50}, "offsets": {}, "retries": 1, "sequence": 7});
    let with = |next: Value| {
        let mut args = base.clone();
        args["next"] = next;
        args.as_object().cloned()
    };
    let ok = toolbox
        .call(
            "configure",
            with(json!({"Go": {"target": {"kind": "joints", "angles": [0, 0, 0, 0, 0, 90]}}})),
        )
        .await
        .unwrap();
    assert_eq!(ok.is_error, Some(false), "{ok:?}");
    assert_eq!(
        ok.structured_content.unwrap()["fingerMaterial"],
        "hard-plastic",
        "serde default applied"
    );
    let ok = toolbox
        .call("configure", with(json!("Stop")))
        .await
        .unwrap();
    assert_eq!(ok.is_error, Some(false), "{ok:?}");
    let ok = toolbox
        .call("configure", with(json!({"Wait": 300})))
        .await
        .unwrap();
    assert_eq!(ok.is_error, Some(false), "{ok:?}");

    let bad = toolbox
        .call(
            "configure",
            with(json!({"Go": {"target": {"kind": "joints", "angles": [0, 0, 0, 0, 0, 270]}}})),
        )
        .await
        .unwrap();
    let text = bad.content[0].as_text().unwrap().text.clone();
    assert!(
        text.contains("- next.Go.target.angles[5]: must be between -180 and 180 deg, got 270"),
        "{text}"
    );
    let bad = toolbox
        .call(
            "configure",
            with(json!({"Go": {"target": {"kind": "orbit"}}})),
        )
        .await
        .unwrap();
    let text = bad.content[0].as_text().unwrap().text.clone();
    assert!(
        text.contains(
            "- next.Go.target.kind: must be one of \"named\", \"joints\", \"home\", got \"orbit\""
        ),
        "{text}"
    );
}

#[tokio::test]
async fn flattened_struct_supplies_every_property() {
    let toolbox = tools![apply_limits].build().unwrap();
    let tool = toolbox.tool("apply_limits").unwrap();
    let input = serde_json::to_value(&tool.input_schema).unwrap();
    assert_eq!(input["required"], json!(["max_speed"]));
    assert_eq!(input["additionalProperties"], json!(false));
    let r = toolbox
        .call(
            "apply_limits",
            json!({"max_speed": 200}).as_object().cloned(),
        )
        .await
        .unwrap();
    assert_eq!(r.structured_content, Some(json!({"result": [200]})));
    let r = toolbox
        .call(
            "apply_limits",
            json!({"max_speed": 900}).as_object().cloned(),
        )
        .await
        .unwrap();
    assert_eq!(
        r.content[0].as_text().unwrap().text,
        "Invalid arguments for tool `apply_limits` (1 problem):\n- max_speed: must be between 1 and 500 mm/s, got 900\n\
         The tool did not run. Fix the arguments above and call it again."
    );
}

/// A tree node: recursive, so it cannot be inlined.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
pub struct TreeNode {
    /// Children.
    pub children: Vec<TreeNode>,
}

/// Walk a tree.
#[tool(allow(deep_nesting))]
fn walk(
    /// The root.
    root: TreeNode,
) -> usize {
    root.children.len()
}

#[test]
fn recursive_types_are_a_clear_build_error() {
    let err = Toolbox::try_from_tools((), tool_defs![walk]).unwrap_err();
    let toolwright::BuildError::Tools { problems } = &err else {
        panic!("{err}")
    };
    assert_eq!(problems.len(), 1);
    let problem = &problems[0];
    assert!(
        problem
            .starts_with("tool `walk`: input: root.children[]: type `TreeNode` refers to itself"),
        "{problem}"
    );
    assert!(problem.contains("refers to itself"), "{problem}");
    assert!(
        problem.contains("recursive types cannot be tool parameters"),
        "{problem}"
    );
}
