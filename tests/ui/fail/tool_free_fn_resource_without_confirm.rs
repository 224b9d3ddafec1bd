use toolwright::{tool, tools};

/// Spin the spindle up to a speed.
#[tool(resource = "spindle")]
fn spin_up(
    /// Target speed.
    #[param(range = 0.0..=24000.0)]
    speed: f64,
) -> f64 {
    speed
}

fn main() {
    let _ = tools![spin_up].with_resource("spindle").build();
}
