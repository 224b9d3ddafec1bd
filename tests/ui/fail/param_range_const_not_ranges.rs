use std::ops::RangeInclusive;

use nalgebra::Point3;
use toolwright::tool;

/// How far the arm reaches, mm.
const REACH: RangeInclusive<f64> = -850.0..=850.0;

/// Move the tool point.
#[tool]
fn move_to(
    /// Where to go.
    #[param(unit = "mm", range = REACH)]
    target: Point3<f64>,
) {
    let _ = target;
}

fn main() {}
