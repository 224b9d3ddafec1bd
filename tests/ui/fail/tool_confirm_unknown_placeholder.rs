use toolwright::tool;

/// Move the arm: the question names `{speed}`, which is not a parameter (it is `velocity`).
#[tool(resource = "arm", confirm = "Move the arm to {x} mm at {speed} of full speed?")]
fn move_arm(
    /// Target.
    #[param(unit = "mm")]
    x: f64,
    /// Fraction of full speed.
    velocity: f64,
) {
    let _ = (x, velocity);
}

fn main() {}
