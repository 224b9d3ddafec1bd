//! nalgebra geometry (the `nalgebra` feature) as parameters, fields and outputs, through rmcp's
//! client: published as objects with units and ranges on every coordinate, converted to and from
//! nalgebra's serde arrays, quaternions checked for unit norm, exported like any other type.

mod common;

use common::{call, connect, text};
use nalgebra::{
    Isometry2, Isometry3, Point3, Translation3, UnitComplex, UnitQuaternion, Vector2, Vector3,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolwright::export::{self, Format, drift};
use toolwright::{ToolSchema, Toolbox, ToolboxBuilder, tool, tools};

const MAX_REACH: f64 = 850.0;

/// What a body received.
#[derive(Debug, PartialEq, Serialize, Deserialize, ToolSchema)]
struct Seen {
    /// The numbers, in the order the tool lists them.
    numbers: Vec<f64>,
}

/// Move the tool point.
#[tool]
fn move_to(
    /// Where to go, in the robot base frame.
    #[param(unit = "mm", range = [-MAX_REACH..=MAX_REACH, -MAX_REACH..=MAX_REACH, 0.0..=950.0])]
    target: Point3<f64>,
    /// Approach direction, if not straight down.
    approach: Option<Vector3<f64>>,
) -> Seen {
    let mut numbers = target.coords.as_slice().to_vec();
    if let Some(a) = approach {
        numbers.extend(a.as_slice());
    }
    Seen { numbers }
}

/// A pose to reach.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
struct Goal {
    /// The tool point's pose.
    #[param(unit = "mm", range = -1000.0..=1000.0)]
    pose: Isometry3<f64>,
    /// The gripper's orientation after the move, if it changes.
    wrist: Option<UnitQuaternion<f64>>,
}

/// Reach a pose.
#[tool]
fn reach_pose(
    /// The goal.
    goal: Goal,
) -> Seen {
    let mut numbers = goal.pose.translation.vector.as_slice().to_vec();
    numbers.extend(goal.pose.rotation.coords.as_slice());
    numbers.push(goal.pose.rotation.norm());
    if let Some(w) = goal.wrist {
        numbers.extend(w.coords.as_slice());
    }
    Seen { numbers }
}

/// Follow a path.
#[tool]
fn follow(
    /// Points to pass through, in order.
    #[param(unit = "mm", range = -1000.0..=1000.0, min_items = 2)]
    waypoints: Vec<Point3<f64>>,
    /// Offset applied to every point.
    #[param(unit = "mm", default = Vector2::new(0.0, 5.0))]
    shift: Vector2<f64>,
) -> Vec<Point3<f64>> {
    waypoints
        .into_iter()
        .map(|p| Point3::new(p.x + shift.x, p.y + shift.y, p.z))
        .collect()
}

/// Where the arm is.
#[derive(Debug, Serialize, ToolSchema)]
struct ArmPose {
    /// The tool point's pose in the base frame.
    #[param(unit = "mm")]
    pose: Isometry3<f64>,
    /// The last target, if any.
    #[param(unit = "mm")]
    target: Option<Point3<f64>>,
    /// Offset of the tool from the flange.
    #[param(unit = "mm")]
    tool_offset: Translation3<f64>,
}

/// Report the arm's pose.
#[tool]
fn arm_pose(
    /// Whether a target is set.
    with_target: bool,
) -> ArmPose {
    ArmPose {
        pose: Isometry3::new(
            Vector3::new(400.0, -20.0, 200.0),
            Vector3::z() * std::f64::consts::FRAC_PI_2,
        ),
        target: with_target.then(|| Point3::new(1.0, 2.0, 3.0)),
        tool_offset: Translation3::new(0.0, 0.0, 120.0),
    }
}

/// The flange pose alone.
#[tool]
fn flange() -> Isometry3<f64> {
    Isometry3::translation(0.0, 0.0, 100.0)
}

fn toolbox() -> Toolbox {
    builder().build().unwrap()
}

fn builder() -> ToolboxBuilder {
    tools![move_to, reach_pose, follow, arm_pose, flange]
}

fn tool_json(toolbox: &Toolbox, name: &str) -> Value {
    let tool = toolbox.tools().iter().find(|t| t.name == name).unwrap();
    serde_json::to_value(tool).unwrap()
}

#[tokio::test]
async fn a_point_in_mm_arrives_as_the_numbers_sent() {
    let client = connect(toolbox()).await;
    let result = call(
        &client,
        "move_to",
        json!({"target": {"x": 400.5, "y": -20, "z": 0}, "approach": {"x": 0, "y": 0, "z": -1}}),
    )
    .await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert_eq!(
        result.structured_content,
        Some(json!({"numbers": [400.5, -20.0, 0.0, 0.0, 0.0, -1.0]}))
    );
    let result = call(
        &client,
        "move_to",
        json!({"target": {"z": 3, "y": 2, "x": 1}}),
    )
    .await;
    assert_eq!(
        result.structured_content,
        Some(json!({"numbers": [1.0, 2.0, 3.0]}))
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn out_of_range_components_are_named_by_path() {
    let client = connect(toolbox()).await;
    let result = call(
        &client,
        "move_to",
        json!({"target": {"x": 900, "y": 0, "z": -5}}),
    )
    .await;
    assert_eq!(result.is_error, Some(true));
    let refused = text(&result);
    for line in [
        "- target.x: must be between -850 and 850 mm, got 900",
        "- target.z: must be between 0 and 950 mm, got -5",
    ] {
        assert!(refused.contains(line), "{line:?} not in {refused}");
    }
    assert!(!refused.contains("target.y"), "{refused}");
    let result = call(&client, "move_to", json!({"target": {"x": 1, "y": 2}})).await;
    let refused = text(&result);
    assert!(
        refused.contains("- target.z: required field is missing; expected a number in mm"),
        "{refused}"
    );
    let result = call(
        &client,
        "follow",
        json!({"waypoints": [{"x": 0, "y": 0, "z": 0}, {"x": 0, "y": 1200, "z": 0}]}),
    )
    .await;
    let refused = text(&result);
    assert!(
        refused.contains("- waypoints[1].y: must be between -1000 and 1000 mm, got 1200"),
        "{refused}"
    );
    client.cancel().await.unwrap();
}

fn goal(rotation: Value) -> Value {
    json!({"goal": {"pose": {"translation": {"x": 100, "y": 0, "z": 50}, "rotation": rotation}}})
}

#[tokio::test]
async fn a_non_unit_quaternion_is_refused_with_its_norm() {
    let client = connect(toolbox()).await;
    let result = call(
        &client,
        "reach_pose",
        goal(json!({"x": 1, "y": 1, "z": 0, "w": 0})),
    )
    .await;
    assert_eq!(result.is_error, Some(true));
    let refused = text(&result);
    assert!(
        refused.contains(
            "- goal.pose.rotation: must have unit norm (x² + y² + z² + w² = 1), got norm 1.4142 \
             (hint: divide each component by 1.4142)"
        ),
        "{refused}"
    );
    let result = call(
        &client,
        "reach_pose",
        json!({"goal": {
            "pose": {"translation": {"x": 0, "y": 0, "z": 0}, "rotation": {"x": 0, "y": 0, "z": 0, "w": 1}},
            "wrist": {"x": 0, "y": 0, "z": 0, "w": 0.5},
        }}),
    )
    .await;
    let refused = text(&result);
    assert!(
        refused.contains("- goal.wrist: must have unit norm (x² + y² + z² + w² = 1), got norm 0.5"),
        "{refused}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_nearly_unit_quaternion_is_normalized_before_the_body_gets_it() {
    let client = connect(toolbox()).await;
    let result = call(
        &client,
        "reach_pose",
        goal(json!({"x": 0, "y": 0, "z": 0.7072, "w": 0.7072})),
    )
    .await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let seen: Seen = serde_json::from_value(result.structured_content.unwrap()).unwrap();
    assert_eq!(seen.numbers[..3], [100.0, 0.0, 50.0]);
    let q = &seen.numbers[3..7];
    assert_eq!(q[..2], [0.0, 0.0]);
    assert!(
        (q[2] - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-12,
        "{q:?}"
    );
    assert_eq!(q[2], q[3]);
    assert!(
        (seen.numbers[7] - 1.0).abs() < 1e-15,
        "norm {}",
        seen.numbers[7]
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn an_isometry_output_round_trips_and_matches_its_output_schema() {
    let toolbox = toolbox();
    let listed = tool_json(&toolbox, "arm_pose");
    let output_schema = listed["outputSchema"].clone();
    let validator = jsonschema::validator_for(&output_schema).unwrap();
    let client = connect(toolbox).await;
    for with_target in [true, false] {
        // Output checks are on in debug builds: a result not matching the schema is an error.
        let result = call(&client, "arm_pose", json!({"with_target": with_target})).await;
        assert_eq!(result.is_error, Some(false), "{result:?}");
        let out = result.structured_content.unwrap();
        assert!(validator.is_valid(&out), "{out:#}");
        let rotation = &out["pose"]["rotation"];
        let s = std::f64::consts::FRAC_1_SQRT_2;
        assert_eq!(
            out["pose"]["translation"],
            json!({"x": 400.0, "y": -20.0, "z": 200.0})
        );
        assert_eq!(
            (rotation["x"].as_f64(), rotation["y"].as_f64()),
            (Some(0.0), Some(0.0))
        );
        assert!(
            (rotation["z"].as_f64().unwrap() - s).abs() < 1e-12,
            "{rotation}"
        );
        assert!(
            (rotation["w"].as_f64().unwrap() - s).abs() < 1e-12,
            "{rotation}"
        );
        assert_eq!(out["tool_offset"], json!({"x": 0.0, "y": 0.0, "z": 120.0}));
        let target = if with_target {
            json!({"x": 1.0, "y": 2.0, "z": 3.0})
        } else {
            Value::Null
        };
        assert_eq!(out["target"], target);
        // What was answered is what the body returned.
        let pose = json!({"rotation": [rotation["x"], rotation["y"], rotation["z"], rotation["w"]],
                          "translation": [400.0, -20.0, 200.0]});
        let back: Isometry3<f64> = serde_json::from_value(pose).unwrap();
        assert_eq!(back.translation.vector, Vector3::new(400.0, -20.0, 200.0));
        assert!((back.rotation.angle() - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
    }
    // An object output is the structured content itself (not wrapped in `result`).
    let result = call(&client, "flange", json!({})).await;
    assert_eq!(
        result.structured_content,
        Some(json!({
            "rotation": {"x": 0.0, "y": 0.0, "z": 0.0, "w": 1.0},
            "translation": {"x": 0.0, "y": 0.0, "z": 100.0},
        }))
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_list_of_points_goes_in_and_out() {
    let client = connect(toolbox()).await;
    let result = call(
        &client,
        "follow",
        json!({"waypoints": [{"x": 0, "y": 0, "z": 10}, {"x": 100, "y": -50, "z": 20}]}),
    )
    .await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert_eq!(
        result.structured_content,
        Some(json!({"result": [
            {"x": 0.0, "y": 5.0, "z": 10.0},
            {"x": 100.0, "y": -45.0, "z": 20.0},
        ]}))
    );
    client.cancel().await.unwrap();
}

#[test]
fn geometry_is_published_as_objects_with_units_and_ranges_per_coordinate() {
    let toolbox = toolbox();
    let move_to = tool_json(&toolbox, "move_to");
    let props = &move_to["inputSchema"]["properties"];
    assert_eq!(
        props["target"],
        json!({
            "type": "object",
            "properties": {
                "x": {"type": "number", "description": "X coordinate, in millimeters (mm).", "x-unit": "mm", "minimum": -850.0, "maximum": 850.0},
                "y": {"type": "number", "description": "Y coordinate, in millimeters (mm).", "x-unit": "mm", "minimum": -850.0, "maximum": 850.0},
                "z": {"type": "number", "description": "Z coordinate, in millimeters (mm).", "x-unit": "mm", "minimum": 0.0, "maximum": 950.0},
            },
            "required": ["x", "y", "z"],
            "additionalProperties": false,
            "description": "Where to go, in the robot base frame.",
        })
    );
    assert_eq!(
        props["approach"]["properties"]["x"],
        json!({"type": "number", "description": "X component."})
    );
    assert_eq!(move_to["inputSchema"]["required"], json!(["target"]));

    let reach = tool_json(&toolbox, "reach_pose");
    let pose = &reach["inputSchema"]["properties"]["goal"]["properties"]["pose"];
    assert_eq!(pose["required"], json!(["translation", "rotation"]));
    assert_eq!(
        pose["properties"]["translation"]["properties"]["z"],
        json!({"type": "number", "description": "Offset along Z, in millimeters (mm).", "x-unit": "mm", "minimum": -1000.0, "maximum": 1000.0})
    );
    let rotation = &pose["properties"]["rotation"];
    assert_eq!(rotation["required"], json!(["x", "y", "z", "w"]));
    assert_eq!(rotation["additionalProperties"], json!(false));
    assert_eq!(
        rotation["properties"]["w"],
        // No per-component bounds: the unit norm bounds them, within its tolerance.
        json!({"type": "number", "description": "W (scalar) component."})
    );
    assert!(rotation["properties"]["x"].get("x-unit").is_none());

    let follow = tool_json(&toolbox, "follow");
    let props = &follow["inputSchema"]["properties"];
    assert_eq!(props["waypoints"]["minItems"], json!(2));
    assert_eq!(
        props["waypoints"]["items"]["properties"]["y"]["maximum"],
        json!(1000.0)
    );
    assert_eq!(props["shift"]["default"], json!({"x": 0.0, "y": 5.0}));
    assert_eq!(
        follow["outputSchema"]["properties"]["result"]["items"]["required"],
        json!(["x", "y", "z"])
    );

    let arm_pose = tool_json(&toolbox, "arm_pose");
    let out = &arm_pose["outputSchema"]["properties"];
    assert_eq!(out["target"]["type"], json!(["object", "null"]));
    assert_eq!(out["tool_offset"]["properties"]["x"]["x-unit"], json!("mm"));
}

#[test]
fn no_private_keyword_is_published_or_exported() {
    let toolbox = toolbox();
    let tools = toolbox.tools();
    let listed = serde_json::to_string(tools).unwrap();
    assert!(!listed.contains("x-toolwright-"), "{listed}");
    for (format, text) in common::checked_dialect_exports(tools) {
        assert!(
            text.contains("X coordinate, in millimeters (mm)."),
            "{format:?}: {text}"
        );
    }
    for format in [Format::Markdown, Format::Mcp] {
        let rendered = export::render(tools, format);
        assert!(
            !rendered.contains("x-toolwright-"),
            "{format:?}: {rendered}"
        );
    }
}

#[tokio::test]
async fn describe_tool_shows_the_published_schemas() {
    let client = connect(builder().with_describe_tool().build().unwrap()).await;
    let result = call(&client, "describe_tool", json!({"name": "reach_pose"})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let described = serde_json::to_string(&result.structured_content).unwrap();
    assert!(described.contains("W (scalar) component."), "{described}");
    assert!(!described.contains("x-toolwright-"), "{described}");
    client.cancel().await.unwrap();
}

mod wider {
    use super::*;

    /// Move the tool point.
    #[tool]
    pub fn move_to(
        /// Where to go, in the robot base frame.
        #[param(unit = "mm", range = [-MAX_REACH..=MAX_REACH, -MAX_REACH..=MAX_REACH, -100.0..=950.0])]
        target: Point3<f64>,
        /// Approach direction, if not straight down.
        approach: Option<Vector3<f64>>,
    ) -> Seen {
        super::move_to(target, approach)
    }
}

#[test]
fn a_widened_coordinate_range_is_a_compatible_change() {
    let before = tools![move_to].build().unwrap().tools().to_vec();
    let after = tools![wider::move_to].build().unwrap().tools().to_vec();
    let report = drift::compare(&before, &after);
    assert!(!report.is_breaking(), "{report}");
    let text = report.to_string();
    assert!(text.contains("target.z"), "{text}");
    let narrower = drift::compare(&after, &before);
    assert!(narrower.is_breaking(), "{narrower}");
}

/// Where to go.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Goto {
    /// A point.
    Point {
        /// The point.
        #[param(unit = "mm")]
        at: Point3<f64>,
    },
    /// Home.
    Home,
}

/// Go somewhere.
#[tool]
fn go(
    /// Where.
    goto: Goto,
) -> String {
    format!("{goto:?}")
}

#[test]
fn a_point_inside_an_enum_is_refused_when_the_toolbox_is_built_naming_its_path() {
    let err = Toolbox::try_from_tools((), toolwright::tool_defs![go]).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains(
            "tool `go`: input: goto.at: a nalgebra point, vector, rotation or isometry cannot be inside `oneOf`"
        ),
        "{text}"
    );
}

/// Aim at a point.
#[tool]
fn aim(
    /// The point.
    #[param(flatten)]
    at: Point3<f64>,
) -> String {
    format!("{at:?}")
}

#[test]
fn a_flattened_point_is_refused_when_the_toolbox_is_built() {
    let err = Toolbox::try_from_tools((), toolwright::tool_defs![aim]).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains(
            "tool `aim`: input: a `#[param(flatten)]` argument must be a struct with named fields"
        ),
        "{text}"
    );
}

/// Turn a pose in the plane.
#[tool]
fn steer(
    /// The pose of the base on the floor.
    #[param(unit = "mm", range = [-5000.0..=5000.0, -5000.0..=5000.0])]
    pose: Isometry2<f64>,
    /// How far to turn, counterclockwise.
    #[param(unit = "deg", range = -180.0..=180.0, default = 90.0)]
    turn: UnitComplex<f64>,
    /// Headings to try.
    #[param(unit = "deg")]
    headings: Vec<UnitComplex<f64>>,
) -> Isometry2<f64> {
    let mut pose = pose;
    pose.append_rotation_wrt_center_mut(&turn);
    let _ = headings;
    pose
}

#[tokio::test]
async fn angles_in_degrees_arrive_as_unit_complex_numbers_and_poses_in_the_plane_round_trip() {
    let toolbox = tools![steer].build().unwrap();
    let listed = tool_json(&toolbox, "steer");
    let props = &listed["inputSchema"]["properties"];
    assert_eq!(
        props["turn"],
        json!({"type": "number", "description": "How far to turn, counterclockwise, in degrees (deg).", "x-unit": "deg", "minimum": -180.0, "maximum": 180.0, "default": 90.0})
    );
    assert_eq!(props["headings"]["items"]["x-unit"], json!("deg"));
    assert_eq!(
        props["pose"]["properties"]["translation"]["properties"]["y"]["maximum"],
        json!(5000.0)
    );
    assert_eq!(
        props["pose"]["properties"]["rotation"],
        json!({"type": "number", "description": "Rotation angle, counterclockwise, in radians (rad).", "x-unit": "rad"})
    );
    let client = connect(toolbox).await;
    let result = call(
        &client,
        "steer",
        json!({"pose": {"translation": {"x": 100, "y": 0}, "rotation": 0.5}, "headings": [0, 45]}),
    )
    .await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let out = result.structured_content.unwrap();
    assert_eq!(out["translation"], json!({"x": 100.0, "y": 0.0}));
    let rotation = out["rotation"].as_f64().unwrap();
    assert!(
        (rotation - (0.5 + std::f64::consts::FRAC_PI_2)).abs() < 1e-12,
        "{out}"
    );
    let result = call(
        &client,
        "steer",
        json!({"pose": {"translation": {"x": 0, "y": 0}, "rotation": 0}, "turn": 200, "headings": []}),
    )
    .await;
    let refused = text(&result);
    assert!(
        refused.contains("- turn: must be between -180 and 180 deg, got 200"),
        "{refused}"
    );
    client.cancel().await.unwrap();
}

/// The workspace of `move_to`, declared once.
const WORKSPACE: [std::ops::RangeInclusive<f64>; 3] =
    [-MAX_REACH..=MAX_REACH, -MAX_REACH..=MAX_REACH, 0.0..=950.0];

/// Move the tool point.
#[tool]
fn move_within(
    /// Where to go, in the robot base frame.
    #[param(unit = "mm", range = WORKSPACE)]
    target: Point3<f64>,
    /// Approach direction, if not straight down.
    approach: Option<Vector3<f64>>,
) -> Seen {
    move_to(target, approach)
}

#[tokio::test]
async fn per_coordinate_ranges_named_by_a_const_are_the_ranges_written_out() {
    let toolbox = tools![move_to, move_within].build().unwrap();
    assert_eq!(
        tool_json(&toolbox, "move_within")["inputSchema"],
        tool_json(&toolbox, "move_to")["inputSchema"]
    );
    let client = connect(toolbox).await;
    let result = call(
        &client,
        "move_within",
        json!({"target": {"x": 900, "y": 0, "z": -5}}),
    )
    .await;
    assert_eq!(result.is_error, Some(true));
    let refused = text(&result);
    for line in [
        "- target.x: must be between -850 and 850 mm, got 900",
        "- target.z: must be between 0 and 950 mm, got -5",
    ] {
        assert!(refused.contains(line), "{line:?} not in {refused}");
    }
    let result = call(
        &client,
        "move_within",
        json!({"target": {"x": 400, "y": 0, "z": 120}}),
    )
    .await;
    assert_eq!(result.is_error, Some(false), "{}", text(&result));
    assert_eq!(
        result.structured_content.unwrap(),
        json!({"numbers": [400.0, 0.0, 120.0]})
    );
    client.cancel().await.unwrap();
}

/// A rotation composed from others: its `w` can exceed 1 in the last bit.
#[tool]
fn composed() -> UnitQuaternion<f64> {
    UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(
        1.000_000_000_000_000_2,
        0.0,
        0.0,
        0.0,
    ))
}

#[tokio::test]
async fn quaternions_within_the_norm_tolerance_pass_in_and_out() {
    let toolbox = tools![reach_pose, composed].build().unwrap();
    let client = connect(toolbox).await;
    // In: w = 1.0005 is within the tolerance, so it is normalized, not refused for w > 1.
    let result = call(
        &client,
        "reach_pose",
        goal(json!({"x": 0, "y": 0, "z": 0, "w": 1.0005})),
    )
    .await;
    assert_eq!(result.is_error, Some(false), "{}", text(&result));
    let numbers = result.structured_content.unwrap()["numbers"].clone();
    assert_eq!(
        numbers.as_array().unwrap()[3..7],
        [0.0, 0.0, 0.0, 1.0].map(|c| json!(c))
    );
    // Out: the composed rotation's w = 1.0000000000000002 matches the outputSchema (output
    // checks are on in tests).
    let result = call(&client, "composed", json!({})).await;
    assert_eq!(result.is_error, Some(false), "{}", text(&result));
    assert_eq!(
        result.structured_content.unwrap(),
        json!({"x": 0.0, "y": 0.0, "z": 0.0, "w": 1.000_000_000_000_000_2})
    );
    client.cancel().await.unwrap();
}
