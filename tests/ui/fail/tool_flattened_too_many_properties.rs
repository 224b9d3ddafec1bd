use serde::Deserialize;
use toolwright::{ToolSchema, tool};

/// A pose.
#[derive(Deserialize, ToolSchema)]
struct Pose {
    /// X coordinate.
    x: f64,
    /// Y coordinate.
    y: f64,
    /// Z coordinate.
    z: f64,
    /// Roll angle.
    roll: f64,
    /// Pitch angle.
    pitch: f64,
    /// Yaw angle.
    yaw: f64,
}

/// Move the arm's tool point to a pose.
#[tool]
fn move_arm(#[param(flatten)] pose: Pose) {
    let _ = (pose.x, pose.y, pose.z, pose.roll, pose.pitch, pose.yaw);
}

fn main() {}
