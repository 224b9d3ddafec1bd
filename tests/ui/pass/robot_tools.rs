//! Tools with every kind of parameter compile, and the toolbox builds.
use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use toolwright::{ToolError, ToolSchema, Toolbox, tool, toolbox, tools};

/// A waypoint.
#[derive(Serialize, Deserialize, ToolSchema)]
#[serde(rename_all = "camelCase")]
struct Waypoint {
    /// Height.
    #[param(unit = "mm", range = 0.0..)]
    height_above_table: f64,
    /// Dwell time.
    #[serde(default)]
    #[param(unit = "ms", range = ..=10_000)]
    dwell: u32,
}

/// Sensor filter.
#[derive(Serialize, Deserialize, ToolSchema)]
#[serde(rename_all = "snake_case")]
enum Filter {
    /// no filtering
    Raw,
    /// running mean
    MovingAverage,
}

/// A shape.
#[derive(Serialize, Deserialize, ToolSchema)]
#[serde(tag = "kind")]
enum Shape {
    /// A circle.
    Circle {
        /// Radius.
        #[param(unit = "mm", range = 0.0..1000.0)]
        radius: f64,
    },
    /// A square.
    Square {
        /// Side.
        side: f64,
    },
}

/// Follow waypoints.
#[tool(name = "follow", title = "Follow waypoints", idempotent, open_world = false)]
async fn follow(
    /// The waypoints.
    #[param(min_items = 1, max_items = 50)]
    waypoints: Vec<Waypoint>,
    /// Filter.
    filter: Option<Filter>,
    /// Labels.
    labels: HashMap<String, String>,
    /// Shape.
    shape: Shape,
    /// Name.
    #[param(rename = "displayName", pattern = "^[a-z]+$", default = "arm")]
    name: String,
) -> Result<Vec<f64>, ToolError> {
    let _ = (filter, labels, shape, name);
    Ok(waypoints.iter().map(|w| w.height_above_table + f64::from(w.dwell)).collect())
}

struct Arm;

#[toolbox]
impl Arm {
    /// Where the arm is.
    #[tool(read_only)]
    fn where_is(&self) -> String {
        "home".into()
    }

    /// A static helper tool.
    #[tool]
    fn version() -> String {
        "1".into()
    }
}

fn main() {
    let free = tools![follow].build().unwrap();
    assert_eq!(free.tools().len(), 1);
    let arm = Toolbox::new(Arm);
    assert_eq!(arm.tools().len(), 2);
}
