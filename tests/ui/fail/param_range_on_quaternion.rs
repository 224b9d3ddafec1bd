use nalgebra::{Isometry3, UnitQuaternion};
use toolwright::{ToolSchema, tool};

/// A pose.
#[derive(serde::Serialize, serde::Deserialize, ToolSchema)]
struct Pose {
    /// Where.
    #[param(unit = "mm", range = -1000.0..=1000.0)]
    at: Isometry3<f64>,
    /// How it is turned.
    #[param(range = -1.0..=1.0)]
    turned: UnitQuaternion<f64>,
}

/// Turn the wrist.
#[tool]
fn turn(
    /// The wrist's orientation.
    #[param(unit = "deg")]
    orientation: UnitQuaternion<f64>,
    /// Orientations to pass through.
    #[param(range = 0.0..=1.0)]
    through: Vec<UnitQuaternion<f64>>,
    /// The pose.
    pose: Pose,
) {
    let _ = (orientation, through, pose);
}

fn main() {}
