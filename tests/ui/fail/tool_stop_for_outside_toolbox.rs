use toolwright::tool;

/// Stop the arm: a free fn does not know the resources of any toolbox.
#[tool(stop_for = "arm")]
fn stop_arm() -> String {
    String::new()
}

fn main() {}
