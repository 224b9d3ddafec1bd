use serde::Deserialize;
use toolwright::ToolSchema;

/// A point in the robot base frame.
#[derive(Deserialize, ToolSchema)]
struct Position {
    /// X coordinate.
    x: f64,
    y: f64,
    /// FIXME
    z: f64,
}

fn main() {}
