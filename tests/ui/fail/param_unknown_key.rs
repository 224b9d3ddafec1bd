use toolwright::tool;

/// Close the gripper.
#[tool]
fn grasp(
    /// Grip force.
    #[param(units = "N", rnage = 5.0..=30.0)]
    force: f64,
) {
    let _ = force;
}

fn main() {}
