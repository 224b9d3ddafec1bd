use serde::Deserialize;
use toolwright::ToolSchema;

/// A point.
#[derive(Deserialize, schemars::JsonSchema)]
struct Point {
    /// X coordinate.
    #[param(unit = "mm")]
    x: f64,
}

/// Also a point.
#[derive(Deserialize, ToolSchema)]
struct Point2 {
    /// X coordinate.
    x: f64,
}

fn main() {}
