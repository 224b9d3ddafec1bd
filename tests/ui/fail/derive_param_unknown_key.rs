use serde::Deserialize;
use toolwright::ToolSchema;

/// A point.
#[derive(Deserialize, ToolSchema)]
struct Point {
    /// X coordinate.
    #[param(unit = "mm", minimum = 0.0)]
    x: f64,
}

fn main() {}
