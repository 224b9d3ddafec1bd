//! The Franka Panda MCP server: `cargo run --example panda` serves it over stdio.
//!
//! The Panda is read from its URDF when the crate compiles (`examples/robots/`), every motion
//! checked link by link before anything moves. The command line is every toolwright server's:
//! `cargo run --example panda -- tools --format markdown`, `… -- call get_state`, `… -- serve
//! --http 127.0.0.1:8080`, `… -- export --out DIR`. `PANDA_TIME_SCALE=0` makes motions
//! instantaneous, `PANDA_TIME_SCALE=0.1` ten times faster.

use toolwright_examples::panda::{self, PandaConfig};

fn main() {
    let time_scale = std::env::var("PANDA_TIME_SCALE")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(PandaConfig::default().time_scale);
    let server = panda::server(PandaConfig { time_scale });
    std::process::exit(server.run_cli_main());
}
