//! Five published parameters (a `Context` does not count), and a flattened struct with five.
use serde::Deserialize;
use toolwright::{Context, ToolSchema, tool, tools};

/// Move the arm's tool point to a position at a speed.
#[tool]
async fn move_arm(
    /// X coordinate.
    #[param(unit = "mm")]
    x: f64,
    /// Y coordinate.
    #[param(unit = "mm")]
    y: f64,
    /// Z coordinate.
    #[param(unit = "mm")]
    z: f64,
    /// Fraction of the maximum speed.
    #[param(range = 0.1..=1.0, default = 0.5)]
    speed: f64,
    /// Whether to stop at the first contact.
    stop_on_contact: Option<bool>,
    ctx: Context,
) -> String {
    let _ = (x, y, z, speed, stop_on_contact, ctx.trace_id());
    String::new()
}

/// Where to grasp and how hard.
#[derive(Deserialize, ToolSchema)]
struct Grasp {
    /// X coordinate.
    x: f64,
    /// Y coordinate.
    y: f64,
    /// Z coordinate.
    z: f64,
    /// Grip force.
    #[param(unit = "N", range = 5.0..=30.0)]
    force: f64,
    /// Give up after this long.
    #[param(unit = "s", range = 1.0..=60.0)]
    timeout: f64,
}

/// Close the gripper at a point.
#[tool]
fn grasp(#[param(flatten)] grasp: Grasp) {
    let _ = (grasp.x, grasp.y, grasp.z, grasp.force, grasp.timeout);
}

fn main() {
    assert_eq!(tools![move_arm, grasp].build().unwrap().tools().len(), 2);
}
