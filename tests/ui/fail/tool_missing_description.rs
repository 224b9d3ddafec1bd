use toolwright::tool;

#[tool]
fn stop_arm(
    force: f64,
) {
    let _ = force;
}

fn main() {}
