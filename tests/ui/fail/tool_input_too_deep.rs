use serde::Deserialize;
use toolwright::{ToolSchema, tool};

/// A position.
#[derive(Deserialize, ToolSchema)]
struct Position {
    /// X coordinate.
    x: f64,
    /// Y coordinate.
    y: f64,
}

/// A waypoint.
#[derive(Deserialize, ToolSchema)]
struct Waypoint {
    /// Where.
    at: Position,
    /// How long to stay, in ms.
    dwell: u32,
}

/// A path.
#[derive(Deserialize, ToolSchema)]
struct Path {
    /// The waypoints, in order.
    waypoints: Vec<Waypoint>,
}

/// Follow a path.
#[tool]
fn follow(
    /// The path to follow.
    path: Path,
    /// Alternative paths, tried in order.
    fallbacks: Vec<Vec<Position>>,
) {
    let _ = (path.waypoints.len(), fallbacks);
}

fn main() {}
