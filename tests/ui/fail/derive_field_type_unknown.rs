use serde::Deserialize;
use toolwright::{ToolSchema, tool};

/// A sample.
#[derive(Deserialize, ToolSchema)]
struct Sample {
    /// The reading.
    #[param(unit = "V")]
    value: Volts,
    /// The readings.
    values: Vec<Volts>,
}

/// Record a sample.
#[tool]
fn record(
    /// The sample.
    sample: Sample,
) {
    let _ = sample.value;
}

fn main() {}
