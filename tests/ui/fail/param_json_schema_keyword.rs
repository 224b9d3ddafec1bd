use toolwright::tool;

/// Close the gripper on an object.
#[tool]
fn grasp(
    /// Grip force.
    #[param(unit = "N", minimum = 5.0, maximum = 30.0)]
    force: f64,
    /// Object label, as printed on the bin.
    #[param(minLength = 1)]
    label: String,
    /// Grip mode.
    #[param(enum = ["soft", "firm"])]
    mode: String,
) {
    let _ = (force, label, mode);
}

fn main() {}
