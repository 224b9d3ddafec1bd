use toolwright::tool;

/// Move the arm along X.
#[tool]
fn move_x(
    /// Target X, in millimeters.
    #[param(header = "Target-X")]
    x: f64,
    /// Speed limit, if any.
    #[param(header = "Speed")]
    speed: Option<f32>,
) {
    let _ = (x, speed);
}

fn main() {}
