// An unknown rename rule is serde's to report: toolwright adds no second error.
use serde::Deserialize;
use toolwright::ToolSchema;

/// A grip.
#[derive(Deserialize, ToolSchema)]
#[serde(rename_all = "camel_case")]
struct Grip {
    /// Width between the fingers.
    grip_width: f64,
}

fn main() {}
