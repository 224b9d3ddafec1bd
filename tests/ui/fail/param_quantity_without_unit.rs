use toolwright::{ToolSchema, tool};
use uom::si::f64::{Length, MagneticFluxDensity};

/// A magnetometer reading.
#[derive(serde::Serialize, serde::Deserialize, ToolSchema)]
struct Reading {
    /// Where it was taken.
    height: Length,
    /// The field strength.
    field: MagneticFluxDensity,
}

/// Calibrate the magnetometer.
#[tool]
fn calibrate(
    /// The expected field.
    expected: MagneticFluxDensity,
    /// The last reading.
    last: Reading,
) {
    let _ = (expected, last);
}

fn main() {}
