use toolwright::tool;

/// Move at a speed.
#[tool]
fn go(
    /// Fraction of the maximum speed.
    #[param(range = 1.0)]
    speed: f64,
    /// Acceleration.
    #[param(range = ..)]
    accel: f64,
) {
    let _ = (speed, accel);
}

fn main() {}
