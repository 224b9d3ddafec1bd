use toolwright::tool;

/// Move to a point.
#[tool]
fn goto(
    /// The point, as (x, y).
    (x, y): (f64, f64),
) {
    let _ = (x, y);
}

fn main() {}
