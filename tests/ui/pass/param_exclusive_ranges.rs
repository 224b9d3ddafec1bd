//! Every form of `range`, bounds at the exact width of integer types, and values at the edges.
use std::num::NonZeroU8;

use toolwright::{tool, tools};

/// Configure the sensor sampling.
#[tool]
fn configure(
    /// Fraction of the full scale, 1.0 excluded.
    #[param(range = 0.0..1.0, default = 0.0)]
    fraction: f64,
    /// Channel index.
    #[param(range = 0..8, default = 7, examples = [0, 7])]
    channel: u8,
    /// Gain, at most 1.
    #[param(range = ..=1.0, examples = [-2.5, 1.0])]
    gain: f32,
    /// Brightness over the whole width of a `u8`.
    #[param(unit = "%", range = 0..=255)]
    brightness: u8,
    /// Offset over the whole width of an `i8`.
    #[param(range = -128..=127)]
    offset: Option<i8>,
) {
    let _ = (fraction, channel, gain, brightness, offset);
}

/// Sample some channels.
#[tool]
fn sample(
    /// Samples to average, at least 1.
    #[param(range = 1..=10)]
    average: NonZeroU8,
    /// Sample period.
    #[param(unit = "ms", range = 1..)]
    period: u64,
    /// Thresholds per channel.
    #[param(unit = "V", range = -10.0..=10.0, min_items = 1, max_items = 8)]
    thresholds: Vec<f64>,
) {
    let _ = (average, period, thresholds);
}

fn main() {
    assert_eq!(tools![configure, sample].build().unwrap().tools().len(), 2);
}
