use toolwright::tool;

/// Move at a speed.
#[tool]
fn go(
    /// Fraction of the maximum speed.
    #[param(max_length = 4)]
    speed: f64,
) {
    let _ = speed;
}

fn main() {}
