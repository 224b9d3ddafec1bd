use toolwright::tool;

/// Move the arm's tool point to a pose.
#[tool]
fn move_arm(
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
) {
    let _ = (x, y, z, roll, pitch, yaw);
}

fn main() {}
