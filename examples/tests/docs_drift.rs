//! The committed docs of the robot arm (examples/docs/robot_arm: tools.json, TOOLS.md and the
//! OpenAI, Anthropic and Gemini dialects) must match the code. They are the one reviewed copy of
//! the tools it publishes (tests/tests/robot_arm.rs and cli.rs compare with them too, and
//! export.rs runs the provider checks on them). The ROS arm's and the Panda's likewise.
//! After an intended change: `TOOLWRIGHT_SNAPSHOT=overwrite cargo test -p toolwright-examples --test
//! docs_drift`, then review the diff (or run
//! `cargo run --example robot_arm -- check --against examples/docs/robot_arm`).

use toolwright_examples::robot_arm::{SimConfig, server};

#[test]
fn committed_docs_match_the_code() {
    let toolbox = server(SimConfig {
        time_scale: 0.0,
        seed: 1,
        ..SimConfig::default()
    })
    .build()
    .unwrap();
    toolwright::assert_tools_snapshot!(toolbox, "docs/robot_arm");
}

/// The ROS arm's docs (examples/docs/ros_arm): the schemas toolwright builds from the vendored
/// `.msg` files. After an intended change: `TOOLWRIGHT_SNAPSHOT=overwrite cargo test -p
/// toolwright-examples --test docs_drift`, then review the diff.
#[test]
fn committed_ros_arm_docs_match_the_code() {
    let toolbox = toolwright_examples::ros_arm::server().build().unwrap();
    toolwright::assert_tools_snapshot!(toolbox, "docs/ros_arm");
}

/// The Panda's docs (examples/docs/panda): the tools as read from its URDF, limits file and
/// SRDF, the robot and its envelope in every export, the page with the arm drawn and its
/// joints, the operating skill. After an intended change (to the code or to a file under
/// examples/robots): `TOOLWRIGHT_SNAPSHOT=overwrite cargo test -p toolwright-examples --test
/// docs_drift`, then review the diff.
#[test]
fn committed_panda_docs_match_the_code() {
    let toolbox = toolwright_examples::panda::server(toolwright_examples::panda::PandaConfig {
        time_scale: 0.0,
    })
    .build()
    .unwrap();
    toolwright::assert_tools_snapshot!(toolbox, "docs/panda");
}
