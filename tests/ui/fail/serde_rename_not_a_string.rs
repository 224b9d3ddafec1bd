// A malformed serde attribute is serde's to report: toolwright adds no second error.
use serde::Deserialize;
use toolwright::ToolSchema;

/// A grip.
#[derive(Deserialize, ToolSchema)]
struct Grip {
    /// Width between the fingers.
    #[serde(rename = 1)]
    width: f64,
}

fn main() {}
