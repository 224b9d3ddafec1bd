//! The robot-arm MCP server: `cargo run --example robot_arm` serves it over stdio.
//!
//! Every toolwright server gets the same command line:
//! `cargo run --example robot_arm -- --help`, `… -- tools --format markdown`,
//! `… -- call get_arm_state`, `… -- serve --http 127.0.0.1:8080`, `… -- export --out DIR`,
//! `… -- check --against examples/docs/robot_arm`.
//! Logs go to stderr (`run_cli` installs the logger: `RUST_LOG=debug` for more, `serve
//! --log-format json` for one JSON object a line). `ROBOT_ARM_TIME_SCALE=0` makes motions
//! instantaneous, `ROBOT_ARM_TIME_SCALE=0.1` ten times faster (deadlines too);
//! `ROBOT_ARM_MOTOR_LAG=3` makes every motion take three times its estimate (a fault to inject:
//! long motions then overrun their deadline and are halted).

use toolwright_examples::robot_arm::{self, SimConfig};

fn main() {
    let env = |name: &str| std::env::var(name).ok().and_then(|s| s.parse::<f64>().ok());
    let defaults = SimConfig::default();
    let server = robot_arm::server(SimConfig {
        time_scale: env("ROBOT_ARM_TIME_SCALE").unwrap_or(defaults.time_scale),
        motor_lag: env("ROBOT_ARM_MOTOR_LAG").unwrap_or(defaults.motor_lag),
        ..defaults
    });
    // Reads the command line, gives its flags to the builder, builds the toolbox and runs it on
    // the runtime its transport serves best: current-thread over stdio, multi-thread over HTTP.
    std::process::exit(server.run_cli_main());
}
