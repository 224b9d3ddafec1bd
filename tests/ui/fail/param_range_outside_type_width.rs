use toolwright::tool;

/// Blink the status light.
#[tool]
fn blink(
    /// Brightness.
    #[param(unit = "%", range = 0..=300)]
    brightness: u8,
    /// Offset from now.
    #[param(unit = "ms", range = -100..=100)]
    delay: Option<u32>,
    /// Blink lengths.
    #[param(unit = "ms", range = 0.5..=10.0)]
    pattern: Vec<u16>,
) {
    let _ = (brightness, delay, pattern);
}

fn main() {}
