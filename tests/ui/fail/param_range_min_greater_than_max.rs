use toolwright::tool;

/// Close the gripper.
#[tool]
fn grasp(
    /// Grip force.
    #[param(unit = "N", range = 30.0..=5.0)]
    force: f64,
    /// Finger opening.
    #[param(unit = "mm", range = 10..10)]
    opening: u32,
) {
    let _ = (force, opening);
}

fn main() {}
