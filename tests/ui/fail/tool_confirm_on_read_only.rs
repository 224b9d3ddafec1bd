use toolwright::tool;

/// Read the arm's position: a read changes nothing, so there is nothing to confirm.
#[tool(read_only, confirm = "Read the arm's position?")]
fn arm_position() -> String {
    "home".into()
}

fn main() {}
