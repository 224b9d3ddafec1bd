use toolwright::tool;

struct Pose {
    x: f64,
}

/// Move.
#[tool]
fn move_to(
    /// Where.
    pose: Pose,
) {
    let _ = pose.x;
}

fn main() {}
