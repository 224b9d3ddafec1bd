use serde::{Deserialize, Serialize};
use toolwright::{ToolSchema, tool};

/// Gripper mode.
#[derive(Serialize, Deserialize, ToolSchema)]
enum Mode {
    /// fast and firm
    Fast,
    /// slow and gentle
    Gentle,
}

/// Close the gripper.
#[tool]
fn grasp(
    /// Grip force.
    #[param(unit = "N", default = "strong")]
    force: f64,
    /// How to grip.
    #[param(default = "fast")]
    mode: Mode,
    /// Retries.
    #[param(default = 1.5)]
    retries: Option<u8>,
) {
    let _ = (force, mode, retries);
}

fn main() {}
