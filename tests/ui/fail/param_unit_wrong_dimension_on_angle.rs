use nalgebra::{Isometry2, UnitComplex};
use toolwright::tool;

/// Turn the base.
#[tool]
fn turn(
    /// How far to turn.
    #[param(unit = "mm")]
    by: UnitComplex<f64>,
    /// Headings to try.
    #[param(unit = "s")]
    headings: Vec<UnitComplex<f64>>,
    /// Where the base is (`px` fits: it applies to the translation; one range too many).
    #[param(unit = "px", range = [0.0..=640.0, 0.0..=480.0, 0.0..=1.0])]
    pose: Isometry2<f64>,
) {
    let _ = (by, headings, pose);
}

fn main() {}
