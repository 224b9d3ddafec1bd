use toolwright::tool;

/// Move the arm: the placeholder is never closed.
#[tool(confirm = "Move the arm to {x mm?")]
fn move_arm(
    /// Target.
    #[param(unit = "mm")]
    x: f64,
) {
    let _ = x;
}

fn main() {}
