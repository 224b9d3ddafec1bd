//! The Panda example end to end, in-process (confirmation off: nobody to ask): the elbow leaning
//! back into the shelf while the tool point stays well in front is refused naming the link and
//! nothing moves; a clear motion runs and takes at least what the joints' caps allow; a
//! Cartesian target is reached; the stop tool; the robot published on the moving tools.

use serde_json::{Value, json};
use toolwright::{ROBOT_META, Toolbox};
use toolwright_examples::panda::{Panda, PandaConfig, PandaJoints, server};

fn panda() -> Toolbox<Panda> {
    server(PandaConfig { time_scale: 0.0 })
        .with_confirmation(false)
        .build()
        .unwrap()
}

async fn call(toolbox: &Toolbox<Panda>, tool: &str, args: Value) -> rmcp::model::CallToolResult {
    let Value::Object(args) = args else {
        unreachable!()
    };
    toolbox.call(tool, Some(args)).await.expect("answered")
}

fn text(result: &rmcp::model::CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn joints(values: [f64; 7]) -> Value {
    serde_json::to_value(PandaJoints::from_values(&values).unwrap()).unwrap()
}

/// The shelf's box, in millimetres (as the example declares it).
const SHELF: ([f64; 3], [f64; 3]) = ([-600.0, -400.0, 450.0], [-330.0, 400.0, 900.0]);

fn distance_to_shelf(p: [f64; 3]) -> f64 {
    let (min, max) = SHELF;
    (0..3)
        .map(|i| (min[i] - p[i]).max(p[i] - max[i]).max(0.0).powi(2))
        .sum::<f64>()
        .sqrt()
}

#[tokio::test]
async fn the_elbow_leaning_into_the_shelf_is_refused_while_the_tool_point_stays_clear() {
    let toolbox = panda();
    let home = PandaJoints::HOME.values();
    let mut lean = home;
    lean[1] = -1.3; // the upper arm leans back
    lean[3] = -2.6; // and the elbow folds
    // The tool point, at the end of that motion, is far from the shelf: checking it alone
    // would let the motion through.
    let (tool, _) = PandaJoints::from_values(&lean).unwrap().tool_pose();
    let tool_mm = tool.map(|x| x * 1000.0);
    assert!(distance_to_shelf(tool_mm) > 400.0, "{tool_mm:?}");
    let result = call(&toolbox, "move_joints", json!({"positions": joints(lean)})).await;
    assert_eq!(result.is_error, Some(true));
    let t = text(&result);
    assert!(t.starts_with("Robot `arm`: link `panda_link"), "{t}");
    assert!(t.contains("of keep-out `shelf`"), "{t}");
    assert_eq!(toolbox.state().joints(), home.to_vec());
}

#[tokio::test]
async fn a_clear_motion_runs_and_takes_what_the_caps_allow() {
    let toolbox = panda();
    let mut to = PandaJoints::HOME.values();
    to[1] = -0.3;
    to[3] = -2.0;
    to[5] = 1.9;
    let result = call(
        &toolbox,
        "move_joints",
        json!({"positions": joints(to), "speed": 1.0}),
    )
    .await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    let out = result.structured_content.unwrap();
    assert_eq!(out["positions"], joints(to));
    // Joint 2 turns 0.485 rad at most 2.175 rad/s.
    let duration = out["duration"].as_f64().unwrap();
    assert!(duration >= 0.485398 / 2.175, "{duration}");
    assert_eq!(toolbox.state().joints(), to.to_vec());
    // The state reports the same.
    let state = call(&toolbox, "get_state", json!({})).await;
    assert_eq!(state.structured_content.unwrap()["joints"], joints(to));
}

#[tokio::test]
async fn a_cartesian_target_is_reached() {
    let toolbox = panda();
    let result = call(
        &toolbox,
        "move_to",
        json!({"target": {"x": 450.0, "y": -100.0, "z": 300.0}}),
    )
    .await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    let q = toolbox.state().joints();
    let (p, _) = PandaJoints::from_values(&q).unwrap().tool_pose();
    let d = ((p[0] * 1000.0 - 450.0).powi(2)
        + (p[1] * 1000.0 + 100.0).powi(2)
        + (p[2] * 1000.0 - 300.0).powi(2))
    .sqrt();
    assert!(d < 0.1, "{p:?}");
}

#[tokio::test]
async fn the_stop_tool_answers_when_idle() {
    let toolbox = panda();
    let result = call(&toolbox, "stop_arm", json!({})).await;
    let out = result.structured_content.unwrap();
    assert_eq!(out["interrupted_motion"], false);
}

#[test]
fn the_moving_tools_publish_the_robot() {
    let toolbox = panda();
    for name in ["move_joints", "move_to"] {
        let tools = toolbox.listed_tools();
        let tool = tools.iter().find(|t| t.name == name).unwrap();
        let robot = &tool.meta.as_ref().unwrap().0[ROBOT_META];
        assert_eq!(robot["resource"], "arm");
        assert_eq!(robot["joints"].as_array().unwrap().len(), 7);
        // The margin narrows the URDF's range.
        assert_eq!(robot["joints"][0]["upper"], 2.8873);
    }
}

#[test]
fn the_page_draws_the_arm_and_lists_every_joint() {
    let toolbox = panda();
    let dir = std::env::temp_dir().join(format!("toolwright-panda-page-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    toolbox.export().write(&dir).unwrap();
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    for i in 1..=7 {
        let id = format!("id=\":joint.arm.panda_joint{i}\"");
        assert!(page.contains(&id), "no {id}");
    }
    // Every link with capsules, drawn in both views.
    assert!(
        page.matches("class=\"ln\"").count() >= 2 * 10,
        "the arm is not drawn"
    );
    assert!(page.contains("is drawn at its home configuration"));
}
