use toolwright::tool;

/// Move the arm home.
#[tool(scopes = ["arm move", "arm:move", "arm:move", 7])]
async fn home() -> String {
    String::new()
}

/// Read the arm's state.
#[tool(read_only, scopes = "arm:read")]
fn state() -> String {
    String::new()
}

fn main() {}
