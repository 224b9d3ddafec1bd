use toolwright::tool;

/// Say something through the speaker.
#[tool]
fn say(
    /// The words to say.
    #[param(range = 1..=100)]
    text: String,
    /// Whether to shout.
    #[param(range = 0..=1)]
    loud: Option<bool>,
) {
    let _ = (text, loud);
}

fn main() {}
