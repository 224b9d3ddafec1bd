//! Inputs nested exactly three levels deep (each struct, list or map is a level) compile, in
//! every shape: structs, lists, maps, options, and enums in each serde representation.
use std::collections::HashMap;

use serde::Deserialize;
use toolwright::{ToolSchema, tool, tools};

/// A position.
#[derive(Deserialize, ToolSchema)]
struct Position {
    /// X coordinate.
    x: f64,
    /// Y coordinate.
    y: f64,
}

/// A path.
#[derive(Deserialize, ToolSchema)]
struct Path {
    /// The positions, in order.
    points: Vec<Position>,
}

/// A target, externally tagged: `{"At": {"x": .., "y": ..}}` is two levels.
#[derive(Deserialize, ToolSchema)]
enum Target {
    /// A position.
    At(Position),
    /// Home.
    Home,
}

/// A command, internally tagged: the tag shares the variant's object.
#[derive(Deserialize, ToolSchema)]
#[serde(tag = "kind")]
enum Command {
    /// Follow positions.
    Follow {
        /// The positions, in order.
        points: Vec<Position>,
    },
    /// Stop.
    Stop,
}

/// Follow paths.
#[tool]
fn follow(
    /// The path (3 levels: the path, its list, each position).
    path: Path,
    /// Named paths (3 levels: the map, each list, each position).
    named: HashMap<String, Vec<Position>>,
    /// Targets (3 levels: the list, the tag's object, the position).
    targets: Option<Vec<Target>>,
    /// The next command (3 levels: the command with its tag, the list, each position).
    next: Command,
) {
    let _ = (path.points.len(), named.len(), targets.is_some(), matches!(next, Command::Stop));
}

fn main() {
    assert_eq!(tools![follow].build().unwrap().tools().len(), 1);
}
