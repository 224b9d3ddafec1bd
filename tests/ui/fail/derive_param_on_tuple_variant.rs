use serde::Deserialize;
use toolwright::ToolSchema;

/// A command.
#[derive(Deserialize, ToolSchema)]
enum Command {
    /// Wait some time.
    Wait(#[param(unit = "ms")] u32),
    /// Stop.
    Stop,
}

fn main() {}
