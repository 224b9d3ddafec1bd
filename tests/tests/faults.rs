//! The fault paths of a call on the robot-arm example, through rmcp's client: a refusal with
//! thousands of problems stays bounded.

mod common;

use common::{call, connect, text};
use serde_json::{Map, Value, json};
use toolwright::Toolbox;
use toolwright_examples::robot_arm::{RobotArm, SimConfig};

fn arm(time_scale: f64) -> Toolbox<RobotArm> {
    Toolbox::new(RobotArm::new(SimConfig {
        time_scale,
        ..SimConfig::default()
    }))
}

#[tokio::test]
async fn ten_thousand_unknown_keys_give_a_bounded_refusal() {
    let client = connect(arm(0.0)).await;
    let mut args: Map<String, Value> = (0..10_000)
        .map(|i| (format!("unknown_{i:05}"), json!(i)))
        .collect();
    args.insert("x".into(), json!(400));
    args.insert("y".into(), json!(0));
    args.insert("z".into(), json!(200));
    let r = call(&client, "move_arm_to_pose", Value::Object(args)).await;
    assert_eq!(r.is_error, Some(true));
    let text = text(&r);
    assert!(text.len() < 4_096, "{} bytes:\n{text}", text.len());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "Invalid arguments for tool `move_arm_to_pose` (10,000 problems):"
    );
    assert!(
        lines[1].starts_with("- unknown_00000: unknown argument; allowed: x, y, z, speed"),
        "{}",
        lines[1]
    );
    assert_eq!(
        lines.len(),
        23,
        "20 problems, the count of the rest, the fix:\n{text}"
    );
    assert!(lines[21].starts_with("- … and 9,980 more"), "{}", lines[21]);
    assert_eq!(
        lines[22],
        "The tool did not run. Fix the arguments above and call it again."
    );
    let state = call(&client, "get_arm_state", json!({})).await;
    assert_eq!(
        state.structured_content.unwrap()["position"],
        json!({"x": 300.0, "y": 0.0, "z": 400.0}),
        "the arm did not move"
    );
    client.cancel().await.unwrap();
}
