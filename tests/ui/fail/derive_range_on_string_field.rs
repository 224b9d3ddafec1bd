use serde::Deserialize;
use toolwright::ToolSchema;

/// A label.
#[derive(Deserialize, ToolSchema)]
struct Label {
    /// The text.
    #[param(range = 0..=10, unit = "mm")]
    text: String,
    /// Font size.
    #[param(range = 0..=1000)]
    size: u8,
}

fn main() {}
