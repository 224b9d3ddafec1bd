use toolwright::tool;

/// Stop the arm immediately.
#[tool(allow(many_parms))]
fn stop() {}

fn main() {}
