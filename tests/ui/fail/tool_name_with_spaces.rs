use toolwright::tool;

/// Move the arm to a pose.
#[tool(name = "move arm")]
fn move_arm() {}

fn main() {}
