use toolwright::tool;

/// Poke a register.
#[tool]
unsafe fn poke(
    /// The value.
    value: u32,
) {
    let _ = value;
}

fn main() {}
