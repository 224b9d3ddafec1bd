use std::ops::RangeInclusive;

use nalgebra::Point3;
use toolwright::tool;

/// The table's extent, per coordinate (x, y).
const TABLE: [RangeInclusive<f64>; 2] = [-500.0..=500.0, -300.0..=300.0];

/// Move the tool point.
#[tool]
fn move_to(
    /// Where to go.
    #[param(unit = "mm", range = TABLE)]
    target: Point3<f64>,
) {
    let _ = target;
}

fn main() {}
