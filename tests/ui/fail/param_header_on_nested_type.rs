use serde::Deserialize;
use toolwright::{ToolSchema, tool};

/// Where the arm goes.
#[derive(ToolSchema, Deserialize)]
struct Target {
    /// Which cell.
    cell: String,
}

/// Pick the listed parts.
#[tool]
fn pick(
    /// Part numbers, in order.
    #[param(header = "Parts")]
    parts: Vec<String>,
    /// Where to put them.
    #[param(header = "Target")]
    target: Target,
) {
    let _ = (parts, target);
}

fn main() {}
