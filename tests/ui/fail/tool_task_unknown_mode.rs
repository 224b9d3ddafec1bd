use toolwright::tool;

/// Move the arm to a pose (minutes on a real arm).
#[tool(task = "background")]
fn move_arm(
    /// Target height.
    #[param(unit = "mm", range = 0.0..=500.0)]
    z: f64,
) -> f64 {
    z
}

fn main() {}
