use serde::Deserialize;
use toolwright::ToolSchema;

/// A sample.
#[derive(Deserialize, ToolSchema)]
struct Sample {
    /// The reading.
    value: f64,
    /// Calibration, set by the driver.
    #[serde(skip)]
    #[param(range = 0..=10)]
    calibration: u8,
}

fn main() {}
