use nalgebra::{Isometry3, Point3, Vector2};
use toolwright::tool;

const MAX_REACH: f64 = 850.0;

/// Move the tool point.
#[tool]
fn move_to(
    /// Where to go.
    #[param(unit = "mm", range = [-MAX_REACH..=MAX_REACH, 0.0..=950.0])]
    target: Point3<f64>,
    /// Where to look, in the image.
    #[param(unit = "px", range = [0.0..=640.0, 0.0..=480.0, 0.0..=1.0])]
    look_at: Vector2<f64>,
    /// Poses to pass through.
    #[param(unit = "mm", range = [-1000.0..=1000.0])]
    through: Vec<Isometry3<f64>>,
    /// Speed.
    #[param(range = [0.0..=1.0, 0.0..=1.0])]
    speed: f64,
    /// An empty per-component range.
    #[param(range = [0.0..=1.0, 2.0..=1.0, 0.0..=1.0])]
    empty: Point3<f64>,
) {
    let _ = (target, look_at, through, speed, empty);
}

fn main() {}
