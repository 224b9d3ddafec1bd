use toolwright::tool;

/// Say something.
#[tool]
fn say(
    /// The words.
    text: impl Into<String>,
) -> String {
    text.into()
}

fn main() {}
