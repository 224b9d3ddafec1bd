//! ROS 2 messages (the `ros` feature) as parameters, fields and outputs, through rmcp's client.
//! The message types are roslibrust's, generated from the vendored `.msg` files by the examples
//! crate (examples/build.rs); toolwright builds their schemas from the definitions the types
//! carry: the `.msg` comments as descriptions, REP-103 units, ROS 2 defaults, no extra property.

mod common;

use common::{call, connect, text};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolwright::export::{self, Format};
use toolwright::{ToolSchema, Toolbox, tool, tools};
use toolwright_examples::ros_arm::msgs::builtin_interfaces::Time;
use toolwright_examples::ros_arm::msgs::geometry_msgs::{Pose, Twist, Wrench};
use toolwright_examples::ros_arm::msgs::sensor_msgs::JointState;
use toolwright_examples::ros_arm::msgs::std_msgs::Header;

/// Send a pose back.
#[tool]
fn echo_pose(
    /// The pose.
    pose: Pose,
) -> Pose {
    pose
}

/// What `inspect` received.
#[derive(Debug, PartialEq, Serialize, Deserialize, ToolSchema)]
struct Report {
    /// The joint names.
    names: Vec<String>,
    /// The frame of the joint state.
    frame: String,
    /// The twist's linear x, if a twist was given.
    linear_x: Option<f64>,
    /// How many poses.
    poses: usize,
}

/// Inspect a joint state, an optional twist and poses.
#[tool]
fn inspect(
    /// The joints.
    state: JointState,
    /// A velocity, if any.
    twist: Option<Twist>,
    /// Some poses.
    poses: Vec<Pose>,
) -> Report {
    Report {
        names: state.name,
        frame: state.header.frame_id,
        linear_x: twist.map(|t| t.linear.x),
        poses: poses.len(),
    }
}

/// A goal made of ROS messages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
struct Goal {
    /// Where to go.
    pose: Pose,
    /// How fast, if it matters.
    twist: Option<Twist>,
    /// Contact wrenches to expect on the way.
    wrenches: Vec<Wrench>,
}

/// Send a goal back. (`goal.wrenches[].force.x` is 4 levels deep.)
#[tool(allow(deep_nesting))]
fn echo_goal(
    /// The goal.
    goal: Goal,
) -> Goal {
    goal
}

/// Send a goal back, with the default nesting limit.
#[tool]
fn echo_goal_strict(
    /// The goal.
    goal: Goal,
) -> Goal {
    goal
}

/// The joints at a time.
#[tool]
fn joints_at(
    /// Seconds since start.
    #[param(range = 0..=1000)]
    sec: i32,
) -> Result<JointState, toolwright::ToolError> {
    Ok(JointState {
        header: Header {
            stamp: Time { sec, nanosec: 5 },
            frame_id: "base_link".into(),
        },
        name: vec!["shoulder".into(), "elbow".into()],
        position: vec![0.5, -1.0],
        velocity: vec![],
        effort: vec![],
    })
}

fn toolbox() -> Toolbox {
    tools![echo_pose, inspect, echo_goal, joints_at]
        .build()
        .unwrap()
}

fn tool_json(toolbox: &Toolbox, name: &str) -> Value {
    let tool = toolbox.tools().iter().find(|t| t.name == name).unwrap();
    serde_json::to_value(tool).unwrap()
}

fn pose() -> Value {
    json!({
        "position": {"x": 0.5, "y": -0.25, "z": 0.125},
        "orientation": {"x": 0.0, "y": 0.0, "z": 0.6, "w": 0.8}
    })
}

fn joint_state() -> Value {
    json!({
        "header": {"stamp": {"sec": 12, "nanosec": 500}, "frame_id": "base_link"},
        "name": ["shoulder", "elbow"],
        "position": [0.5, -1.0],
        "velocity": [],
        "effort": []
    })
}

#[test]
fn published_schemas_carry_the_msg_comments_and_rep103_units() {
    let toolbox = toolbox();
    let echo = tool_json(&toolbox, "echo_pose");
    let pose = &echo["inputSchema"]["properties"]["pose"];
    assert_eq!(pose["description"], "The pose.");
    assert_eq!(pose["additionalProperties"], false);
    assert_eq!(pose["required"], json!(["position", "orientation"]));
    assert_eq!(
        pose["properties"]["position"]["properties"]["x"],
        json!({"type": "number", "x-unit": "m", "description": "X coordinate, in meters (m)."})
    );
    let orientation = &pose["properties"]["orientation"];
    assert_eq!(orientation["properties"]["w"]["default"], json!(1.0));
    assert_eq!(orientation["required"], json!([]));
    // As an output every field is always there, defaulted or not.
    let out = &echo["outputSchema"];
    assert_eq!(
        out["properties"]["orientation"]["required"],
        json!(["x", "y", "z", "w"])
    );
    assert_eq!(out["additionalProperties"], false);

    let inspect = tool_json(&toolbox, "inspect");
    let props = &inspect["inputSchema"]["properties"];
    // A list's items are the message itself: Pose.msg's leading comment describes them.
    assert_eq!(
        props["poses"]["items"]["description"],
        "A representation of pose in free space, composed of position and orientation."
    );
    let header = &props["state"]["properties"]["header"];
    // Header.msg's leading comment, and the comments above its fields and Time's.
    assert!(
        header["description"]
            .as_str()
            .unwrap()
            .starts_with("Standard metadata for higher-level stamped data types."),
        "{header}"
    );
    let stamp = &header["properties"]["stamp"];
    assert_eq!(
        stamp["description"],
        "Two-integer timestamp that is expressed as seconds and nanoseconds."
    );
    assert_eq!(
        stamp["properties"]["sec"]["description"],
        "The seconds component, valid over all int32 values, in seconds (s)."
    );
    assert_eq!(stamp["properties"]["sec"]["x-unit"], "s");
    assert_eq!(stamp["properties"]["nanosec"]["x-unit"], "ns");
    assert_eq!(
        stamp["properties"]["nanosec"]["exclusiveMaximum"],
        1_000_000_000
    );
    assert_eq!(
        header["properties"]["frame_id"]["description"],
        "Transform frame with which this data is associated."
    );
    // JointState's arrays mix units: described, without `x-unit`.
    let position = &props["state"]["properties"]["position"];
    assert!(position.get("x-unit").is_none() && position["items"].get("x-unit").is_none());
    assert!(
        position["description"]
            .as_str()
            .unwrap()
            .contains("radians (rad) for a revolute joint"),
        "{position}"
    );
    // Twist: the field gives its Vector3 its unit.
    let twist = &props["twist"]["properties"];
    assert_eq!(twist["linear"]["properties"]["x"]["x-unit"], "m/s");
    assert_eq!(twist["angular"]["properties"]["z"]["x-unit"], "rad/s");
    assert_eq!(
        inspect["inputSchema"]["required"],
        json!(["state", "poses"])
    );

    // As struct fields: Wrench units, an optional message, a list of them.
    let goal = tool_json(&toolbox, "echo_goal");
    let fields = &goal["inputSchema"]["properties"]["goal"]["properties"];
    let wrench = &fields["wrenches"]["items"]["properties"];
    assert_eq!(wrench["force"]["properties"]["x"]["x-unit"], "N");
    assert_eq!(
        wrench["torque"]["properties"]["y"]["description"],
        "Y component, in newton-meters (N·m)."
    );
    assert_eq!(
        goal["inputSchema"]["properties"]["goal"]["required"],
        json!(["pose", "wrenches"])
    );
    // Every property at every level has a description.
    fn described(path: &str, s: &Value) {
        for (name, p) in s["properties"].as_object().into_iter().flatten() {
            let path = format!("{path}.{name}");
            assert!(p["description"].is_string(), "{path} has no description");
            described(&path, p);
            described(&format!("{path}[]"), &p["items"]);
        }
    }
    for tool in toolbox.tools() {
        let tool = serde_json::to_value(tool).unwrap();
        described(tool["name"].as_str().unwrap(), &tool["inputSchema"]);
        described(tool["name"].as_str().unwrap(), &tool["outputSchema"]);
    }
}

#[tokio::test]
async fn a_pose_arrives_as_sent_and_a_missing_w_as_its_default() {
    let client = connect(toolbox()).await;
    let result = call(&client, "echo_pose", json!({"pose": pose()})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert_eq!(result.structured_content, Some(pose()));

    let result = call(
        &client,
        "echo_pose",
        json!({"pose": {"position": {"x": 1, "y": 2, "z": 3}, "orientation": {"z": 0.0}}}),
    )
    .await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert_eq!(
        result.structured_content,
        Some(json!({
            "position": {"x": 1.0, "y": 2.0, "z": 3.0},
            "orientation": {"x": 0.0, "y": 0.0, "z": 0.0, "w": 1.0}
        }))
    );

    let result = call(
        &client,
        "inspect",
        json!({"state": joint_state(), "twist": {"linear": {"x": 0.25, "y": 0, "z": 0}, "angular": {"x": 0, "y": 0, "z": 0.5}}, "poses": [pose(), pose()]}),
    )
    .await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let report: Report = serde_json::from_value(result.structured_content.unwrap()).unwrap();
    assert_eq!(
        report,
        Report {
            names: vec!["shoulder".into(), "elbow".into()],
            frame: "base_link".into(),
            linear_x: Some(0.25),
            poses: 2,
        }
    );
    let result = call(
        &client,
        "inspect",
        json!({"state": joint_state(), "poses": []}),
    )
    .await;
    let report: Report = serde_json::from_value(result.structured_content.unwrap()).unwrap();
    assert_eq!(report.linear_x, None);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn unknown_fields_wrong_types_and_missing_fields_are_refused_by_path() {
    let client = connect(toolbox()).await;
    let mut extra = pose();
    extra["position"]["q"] = json!(1);
    let mut wrong = pose();
    wrong["orientation"]["w"] = json!("one");
    let mut missing = pose();
    missing["position"].as_object_mut().unwrap().remove("z");
    for (pose, path) in [
        (extra, "pose.position.q"),
        (wrong, "pose.orientation.w"),
        (missing, "pose.position.z"),
    ] {
        let result = call(&client, "echo_pose", json!({"pose": pose})).await;
        assert_eq!(result.is_error, Some(true), "{result:?}");
        let refused = text(&result);
        assert!(
            refused.contains(&format!("- {path}: ")),
            "{path:?} not in {refused}"
        );
        assert!(refused.contains("(1 problem)"), "{refused}");
    }
    let mut state = joint_state();
    state["header"]["stamp"]["nanosec"] = json!(1_000_000_000u64);
    let result = call(&client, "inspect", json!({"state": state, "poses": []})).await;
    let refused = text(&result);
    assert!(
        refused.contains("- state.header.stamp.nanosec: "),
        "{refused}"
    );
    let mut goal = json!({"pose": pose(), "wrenches": [{"force": {"x": 1, "y": 0, "z": 0}, "torque": {"x": 0, "y": 0}}]});
    let result = call(&client, "echo_goal", json!({"goal": goal.clone()})).await;
    let refused = text(&result);
    assert!(
        refused.contains(
            "- goal.wrenches[0].torque.z: required field is missing; expected a number in N·m"
        ),
        "{refused}"
    );
    goal["wrenches"][0]["torque"]["z"] = json!(0.5);
    let result = call(&client, "echo_goal", json!({"goal": goal})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_non_unit_quaternion_is_refused_with_its_norm() {
    let client = connect(toolbox()).await;
    let mut doubled = pose();
    doubled["orientation"] = json!({"x": 0.0, "y": 0.0, "z": 1.2, "w": 1.6});
    let result = call(&client, "echo_pose", json!({"pose": doubled})).await;
    assert_eq!(result.is_error, Some(true), "{result:?}");
    let refused = text(&result);
    assert!(
        refused.contains(
            "- pose.orientation: must have unit norm (x² + y² + z² + w² = 1), got norm 2"
        ),
        "{refused}"
    );
    assert!(refused.contains("divide each component by 2"), "{refused}");
    // Within the tolerance (0.001) it passes, divided by its norm before the body gets it.
    let mut close = pose();
    close["orientation"] = json!({"x": 0.0, "y": 0.0, "z": 0.6, "w": 0.8004});
    let result = call(&client, "echo_pose", json!({"pose": close})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let q = &result.structured_content.unwrap()["orientation"];
    let norm = ["x", "y", "z", "w"]
        .map(|c| q[c].as_f64().unwrap().powi(2))
        .iter()
        .sum::<f64>()
        .sqrt();
    assert!((norm - 1.0).abs() < 1e-12, "{q}");
    assert_ne!(q["w"], json!(0.8004));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn output_messages_match_their_output_schema() {
    let toolbox = toolbox();
    let schemas: Vec<(String, Value)> = toolbox
        .tools()
        .iter()
        .map(|t| {
            let t = serde_json::to_value(t).unwrap();
            (
                t["name"].as_str().unwrap().to_owned(),
                t["outputSchema"].clone(),
            )
        })
        .collect();
    let schema = |name: &str| schemas.iter().find(|(n, _)| n == name).unwrap().1.clone();
    let client = connect(toolbox).await;
    let goal = json!({"pose": pose(), "twist": null, "wrenches": []});
    let mut outputs = vec![];
    for (tool, args) in [
        ("joints_at", json!({"sec": 7})),
        ("echo_pose", json!({"pose": pose()})),
        (
            "echo_goal",
            json!({"goal": {"pose": pose(), "wrenches": []}}),
        ),
    ] {
        // Output checks are on in debug builds: a result that did not match would be an error.
        let result = call(&client, tool, args).await;
        assert_eq!(result.is_error, Some(false), "{tool}: {result:?}");
        outputs.push((tool, result.structured_content.unwrap()));
    }
    assert_eq!(
        outputs[0].1,
        json!({"header": {"stamp": {"sec": 7, "nanosec": 5}, "frame_id": "base_link"}, "name": ["shoulder", "elbow"], "position": [0.5, -1.0], "velocity": [], "effort": []})
    );
    assert_eq!(outputs[2].1, goal);
    for (tool, output) in &outputs {
        let schema = schema(tool);
        let validator = jsonschema::validator_for(&schema).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(output)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{tool}: {errors:?}");
        let mut tampered = output.clone();
        let target = match *tool {
            "joints_at" => &mut tampered["header"],
            "echo_goal" => &mut tampered["pose"],
            _ => &mut tampered,
        };
        target["extra"] = json!(1);
        assert!(
            !validator.is_valid(&tampered),
            "{tool}: an extra property passed"
        );
    }
    client.cancel().await.unwrap();
}

#[test]
fn a_message_nesting_past_three_levels_is_refused_at_build_unless_allowed() {
    // The compile-time check sees `Goal`'s fields but not inside the messages; the build does.
    let err = Toolbox::try_from_tools((), toolwright::tool_defs![echo_goal_strict]).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains(
            "tool `echo_goal_strict`: input `goal` nests 4 levels deep, ROS messages included"
        ),
        "{text}"
    );
    assert!(text.contains("`#[tool(allow(deep_nesting))]`"), "{text}");
    assert!(Toolbox::try_from_tools((), toolwright::tool_defs![echo_goal]).is_ok());
    // A message as a whole parameter (JointState: 3 levels) passes.
    assert!(Toolbox::try_from_tools((), toolwright::tool_defs![inspect]).is_ok());
}

#[test]
fn exports_pass_their_dialect_checks_without_private_keywords() {
    let toolbox = tools![echo_pose, inspect, echo_goal, joints_at]
        .with_describe_tool()
        .build()
        .unwrap();
    let tools = toolbox.tools();
    let listed = serde_json::to_string(tools).unwrap();
    assert!(!listed.contains("x-toolwright-"), "{listed}");
    for (format, text) in common::checked_dialect_exports(tools) {
        assert!(text.contains("X coordinate, in meters (m)."), "{format:?}");
    }
    let markdown = export::render(tools, Format::Markdown);
    assert!(
        markdown.contains("in meters per second (m/s)"),
        "{markdown}"
    );
    assert!(!markdown.contains("x-toolwright-"));
}

#[tokio::test]
async fn the_ros_arm_example_moves_to_a_pose_and_reports_its_joints() {
    use toolwright_examples::ros_arm;
    // A simulation: no one confirms its motions.
    let client = connect(ros_arm::server().with_confirmation(false).build().unwrap()).await;
    let target = json!({
        "position": {"x": 0.45, "y": 0.2, "z": 0.3},
        "orientation": {"x": 0, "y": 0, "z": 0.0, "w": 1}
    });
    let result = call(&client, "move_to_pose", json!({"target": target})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let motion = result.structured_content.unwrap();
    let reached = &motion["pose"]["position"];
    for (axis, want) in [("x", 0.45), ("y", 0.2), ("z", 0.3)] {
        let got = reached[axis].as_f64().unwrap();
        assert!((got - want).abs() < 1e-9, "{axis}: {got} != {want}");
    }
    assert_eq!(
        motion["joints"]["name"],
        json!(["shoulder", "elbow", "lift", "wrist"])
    );
    assert!(
        motion["joints"]["header"]["stamp"]["nanosec"]
            .as_u64()
            .unwrap()
            < 1_000_000_000
    );
    let state = call(&client, "joint_state", json!({})).await;
    assert_eq!(
        state.structured_content.unwrap()["position"],
        motion["joints"]["position"]
    );

    let tilted = json!({"position": {"x": 0.45, "y": 0.2, "z": 0.3}, "orientation": {"x": 1, "y": 0, "z": 0, "w": 0}});
    let result = call(&client, "move_to_pose", json!({"target": tilted})).await;
    assert_eq!(result.is_error, Some(true));
    assert!(text(&result).contains("only turn about z"), "{result:?}");

    let goal = json!({"header": {"stamp": {"sec": 0, "nanosec": 0}, "frame_id": ""}, "name": ["lift"], "position": [0.05], "velocity": [], "effort": []});
    let result = call(&client, "move_joints", json!({"goal": goal})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let z = result.structured_content.unwrap()["pose"]["position"]["z"]
        .as_f64()
        .unwrap();
    assert!((z - (ros_arm::BASE_HEIGHT + 0.05)).abs() < 1e-9, "{z}");
    client.cancel().await.unwrap();
}
