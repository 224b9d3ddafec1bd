use toolwright::tool;

/// Close the gripper.
#[tool]
fn grasp(
    /// Grip force.
    #[param(unit = "N", range = 5.0..=30.0, examples = [10.0, 50.0, -1.0])]
    force: f64,
) {
    let _ = force;
}

fn main() {}
