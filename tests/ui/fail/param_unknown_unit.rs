use toolwright::tool;

/// Close the gripper.
#[tool]
fn grasp(
    /// Grip force.
    #[param(unit = "newton")]
    force: f64,
    /// Opening width.
    #[param(unit = "furlongs")]
    width: f64,
) {
    let _ = (force, width);
}

fn main() {}
