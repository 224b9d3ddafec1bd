use toolwright::tool;

/// Move the arm.
#[tool(read_onyl, timeout_s = 3)]
fn move_arm() {}

fn main() {}
