use toolwright::tool;

/// Close the gripper on the object in front of it.
#[tool]
fn grasp(
    /// Parameter force
    force: f64,
    #[param(description = "")]
    width: f64,
    /// TBD
    speed: f64,
) {
    let _ = (force, width, speed);
}

fn main() {}
