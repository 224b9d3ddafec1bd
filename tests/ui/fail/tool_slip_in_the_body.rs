//! A half-typed statement in the body of a free `#[tool]` fn: rustc's syntax error, and
//! nothing else.
use toolwright::{tool, tools};

/// Read the vacuum gripper's pressure.
#[tool(read_only)]
fn read_vacuum(
    /// Which suction cup.
    #[param(range = 0..=3)]
    cup: u8,
) -> f64 {
    let pressure = cup as f64 *
    pressure
}

fn main() {
    let _ = tools![read_vacuum];
}
