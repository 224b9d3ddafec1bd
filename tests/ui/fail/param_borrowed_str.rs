use toolwright::tool;

/// Say hello.
#[tool]
fn greet(
    /// Who to greet.
    name: &str,
) -> String {
    format!("hello {name}")
}

fn main() {}
