//! The robot-arm MCP server over stdio: `cargo run --example robot_arm`.
//!
//! Connect any MCP client that launches stdio servers (see the README for a configuration
//! snippet). Logs go to stderr; set `RUST_LOG=debug` for more. `ROBOT_ARM_TIME_SCALE=0` makes
//! motions instantaneous.

use std::io::IsTerminal as _;

use toolwright::Toolbox;
use toolwright_examples::robot_arm::{RobotArm, SimConfig};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();

    let time_scale = std::env::var("ROBOT_ARM_TIME_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let arm = RobotArm::new(SimConfig {
        time_scale,
        ..SimConfig::default()
    });
    let toolbox = Toolbox::new(arm).with_instructions(
        "A simulated 6-axis robot arm over a table. Positions are in millimeters in the robot base \
         frame (x forward, y left, z up from the table). Call get_arm_state first: it lists the \
         objects on the table with their grasp points.",
    );

    if std::io::stdin().is_terminal() {
        let tools: Vec<&str> = toolbox.tools().iter().map(|t| t.name.as_ref()).collect();
        eprintln!(
            "robot_arm: a simulated robot arm served as an MCP server over stdio (toolwright {}).\n\
             tools: {}\n\
             This process speaks MCP (JSON-RPC) on stdin/stdout: start it from an MCP client instead\n\
             of a terminal, e.g. with the client command `cargo run --example robot_arm`.\n\
             Waiting for a client on stdin; press Ctrl-D to quit.",
            env!("CARGO_PKG_VERSION"),
            tools.join(", ")
        );
    }
    tracing::info!(
        tools = toolbox.tools().len(),
        "robot_arm MCP server starting on stdio"
    );
    toolbox.serve_stdio().await?;
    Ok(())
}
