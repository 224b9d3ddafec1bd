use toolwright::{ToolSchema, tool};
use uom::si::f64::{Angle, Length, Torque};

/// The wrist's limits.
#[derive(serde::Serialize, serde::Deserialize, ToolSchema)]
struct Wrist {
    /// Largest torque.
    #[param(unit = "J")]
    max_torque: Torque,
    /// Largest angle.
    #[param(unit = "px")]
    max_angle: Angle,
}

/// Reach out.
#[tool]
fn reach(
    /// How far to reach.
    #[param(unit = "N", range = 0.0..=500.0)]
    reach: Length,
    /// Heights of the waypoints.
    #[param(unit = "deg")]
    heights: Vec<Length>,
    /// The wrist's limits.
    wrist: Wrist,
) {
    let _ = (reach, heights, wrist);
}

fn main() {}
