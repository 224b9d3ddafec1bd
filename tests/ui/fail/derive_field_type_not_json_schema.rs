use serde::Deserialize;
use toolwright::ToolSchema;

#[derive(Deserialize)]
struct Raw {
    value: f64,
}

/// A sample.
#[derive(Deserialize, ToolSchema)]
struct Sample {
    /// The raw reading.
    raw: Raw,
}

fn main() {}
