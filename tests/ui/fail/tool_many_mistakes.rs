use toolwright::tool;

/// TODO
#[tool(name = "move arm", read_only, destructive, max_descripton_bytes = 10)]
fn move_arm(
    /// Target X.
    #[param(unit = "milimeters", range = 850.0..=-850.0, default = 900.0)]
    x: f64,
    #[param(range = 0..=300)]
    speed: u8,
    /// Label.
    #[param(range = 1..=3, pattern = "(")]
    label: String,
    /// Retries.
    retries: &u32,
) {
    let _ = (x, speed, label, retries);
}

fn main() {}
