use toolwright::tool;

/// Close the gripper.
#[tool]
fn grasp(
    /// Grip force.
    #[param(unit = "N", range = 5.0..=30.0, default = 40.0)]
    force: f64,
    /// Retries.
    #[param(range = 0..3, default = 3)]
    retries: u8,
) {
    let _ = (force, retries);
}

fn main() {}
