use toolwright::tool;

const MAX_FORCE: f64 = 30.0;
const DEFAULT_FORCE: f64 = 45.0;

/// Close the gripper.
#[tool]
fn grasp(
    /// Grip force.
    #[param(unit = "N", range = 5.0..=MAX_FORCE, default = DEFAULT_FORCE)]
    force: f64,
    /// Hold time.
    #[param(unit = "s", range = 1.0..=MAX_FORCE, examples = [0.5, 45.0])]
    hold: f64,
) {
    let _ = (force, hold);
}

fn main() {}
