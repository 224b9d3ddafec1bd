use toolwright::tool;

/// Move the arm (a write: retrying could move it twice).
#[tool(retry = 2, timeout = "30s")]
fn move_arm(
    /// Target.
    #[param(unit = "mm")]
    x: f64,
) {
    let _ = x;
}

fn main() {}
