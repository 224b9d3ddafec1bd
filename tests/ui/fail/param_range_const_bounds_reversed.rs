use toolwright::tool;

const MAX_SPEED: f64 = 1.0;
const MIN_SPEED: f64 = 2.0;

/// Move at a speed.
#[tool]
fn go(
    /// Fraction of the maximum speed.
    #[param(range = MIN_SPEED..=MAX_SPEED, default = 0.5)]
    speed: f64,
) {
    let _ = speed;
}

fn main() {}
