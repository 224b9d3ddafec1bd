//! Every example call the robot arm's documentation shows (examples/docs/robot_arm/TOOLS.md, the
//! same calls as index.html's Copy buttons) runs as written against the server itself: nothing
//! the tool publishes refuses it (its schema, its envelope). A tool may still decline for the
//! state it finds (its own `check`, or its body), which is the call working as documented.
//! The motion tools' examples run (plan one, move along one, move to one).

mod common;

use common::{call, connect};
use serde_json::{Value, json};
use toolwright::export::{self, Format};
use toolwright::{Toolbox, toolbox};
use toolwright_examples::robot_arm::{self, SimConfig};

/// The `### Example call` blocks of a TOOLS.md: each tool's name and arguments.
fn example_calls(tools_md: &str) -> Vec<(String, Value)> {
    let mut calls = Vec::new();
    let mut rest = tools_md;
    while let Some(at) = rest.find("### Example call\n\n```json\n") {
        let block = &rest[at + "### Example call\n\n```json\n".len()..];
        let end = block.find("\n```").expect("a closed block");
        let call: Value = serde_json::from_str(&block[..end]).expect("the example is JSON");
        calls.push((
            call["name"].as_str().expect("a name").to_owned(),
            call["arguments"].clone(),
        ));
        rest = &block[end..];
    }
    calls
}

fn arm() -> Toolbox<robot_arm::RobotArm> {
    robot_arm::server(SimConfig {
        time_scale: 0.0,
        seed: 7,
        ..SimConfig::default()
    })
    .with_confirmation(false)
    .build()
    .unwrap()
}

#[tokio::test]
async fn every_documented_example_call_runs_as_written() {
    let tools_md = std::fs::read_to_string(common::robot_arm_docs().join("TOOLS.md")).unwrap();
    let calls = example_calls(&tools_md);
    assert!(calls.len() >= 8, "{} example calls", calls.len());
    let with_envelope: Vec<String> = {
        let client = connect(arm()).await;
        let tools = client.list_all_tools().await.unwrap();
        client.cancel().await.unwrap();
        tools
            .iter()
            .filter(|t| {
                t.meta
                    .as_ref()
                    .is_some_and(|m| m.0.contains_key(toolwright::ENVELOPE_META))
            })
            .map(|t| t.name.to_string())
            .collect()
    };
    assert_eq!(
        with_envelope,
        [
            "move_arm_to_pose",
            "grasp_object_force_control",
            "plan_trajectory",
            "follow_trajectory"
        ]
    );
    for (name, arguments) in calls {
        // A fresh arm at its home position for each, as a reader starts.
        let client = connect(arm()).await;
        let result = call(&client, &name, arguments.clone()).await;
        let said: String = result
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect();
        assert!(
            !said.starts_with("Invalid arguments"),
            "the example call of `{name}` ({arguments}) is refused by its schema: {said}"
        );
        assert!(
            !said.contains("refused by the envelope"),
            "the example call of `{name}` ({arguments}) is refused by its envelope: {said}"
        );
        if ["move_arm_to_pose", "plan_trajectory", "follow_trajectory"].contains(&name.as_str()) {
            assert_eq!(
                result.is_error,
                Some(false),
                "the example call of `{name}` ({arguments}) runs: {said}"
            );
        }
        client.cancel().await.unwrap();
    }
}

/// A pick-and-place cell whose pillar stands in the middle of the gripper's published ranges:
/// the middle of the ranges, where an example would go, is refused by the envelope.
struct Cell;

#[toolbox(resource(
    name = "gantry",
    position = at,
    envelope(
        frame = "cell",
        unit = "mm",
        tool_radius = 25,
        allow(box(min = (0, 0, 0), max = (1200, 800, 500))),
        keep_out(name = "pillar", cylinder(center = (600, 400), radius = 60, z = (0, 500)))
    )
))]
impl Cell {
    /// Where the gripper is: where a straight move to the example's point clears the pillar
    /// (which way the arm goes from where it is is the state's, not the example's).
    fn at(&self) -> [f64; 3] {
        [1100.0, 100.0, 400.0]
    }

    /// Move the gripper.
    #[tool(resource = "gantry", target = (x, y, z), confirm = "Move the gripper to ({x}, {y}, {z}) mm?")]
    async fn move_to(
        &self,
        /// X.
        #[param(unit = "mm", range = 25.0..=1175.0)]
        x: f64,
        /// Y.
        #[param(unit = "mm", range = 25.0..=775.0)]
        y: f64,
        /// Z.
        #[param(unit = "mm", range = 25.0..=475.0)]
        z: f64,
    ) -> String {
        format!("{x} {y} {z}")
    }

    /// Carry a part along waypoints.
    #[tool(resource = "gantry", path = waypoints, confirm = "Carry the part along {waypoints}?")]
    async fn carry(
        &self,
        /// The waypoints.
        #[param(min_items = 2)]
        waypoints: Vec<Waypoint>,
    ) -> String {
        format!("{}", waypoints.len())
    }
}

/// A point of the cell.
#[derive(serde::Serialize, serde::Deserialize, toolwright::ToolSchema)]
struct Waypoint {
    /// X.
    #[param(unit = "mm", range = 25.0..=1175.0)]
    x: f64,
    /// Y.
    #[param(unit = "mm", range = 25.0..=775.0)]
    y: f64,
    /// Z.
    #[param(unit = "mm", range = 25.0..=475.0)]
    z: f64,
}

#[tokio::test]
async fn an_example_whose_middle_is_in_a_keep_out_moves_clear_of_it() {
    let cell = || {
        Toolbox::builder(Cell)
            .with_confirmation(false)
            .build()
            .unwrap()
    };
    let tools_md = export::render(cell().tools(), Format::Markdown);
    let calls = example_calls(&tools_md);
    assert_eq!(calls.len(), 2);
    for (name, arguments) in calls {
        // Not the middle (600, 400, 250), which is in the pillar.
        let points: Vec<&Value> = match name.as_str() {
            "move_to" => vec![&arguments],
            _ => arguments["waypoints"].as_array().unwrap().iter().collect(),
        };
        for p in points {
            assert_ne!(
                (p["x"].clone(), p["y"].clone()),
                (json!(600.0), json!(400.0)),
                "{name}: {arguments}"
            );
        }
        let client = connect(cell()).await;
        let result = call(&client, &name, arguments.clone()).await;
        assert_eq!(
            result.is_error,
            Some(false),
            "the example call of `{name}` ({arguments}) is refused: {:?}",
            result.content
        );
        client.cancel().await.unwrap();
    }
}
