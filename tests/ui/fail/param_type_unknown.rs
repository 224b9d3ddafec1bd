use toolwright::tool;

/// Move the arm to a pose.
#[tool]
fn move_to(
    /// Where.
    #[param(unit = "mm", range = 0.0..=10.0)]
    pose: Pse,
    /// How fast.
    speed: Option<Speeed>,
) {
    let _ = (pose, speed);
}

fn main() {}
