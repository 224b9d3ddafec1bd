use toolwright::tool;

/// Label the held object.
#[tool]
fn label(
    /// The label to print.
    #[param(unit = "mm")]
    text: String,
    /// Labels for each side.
    #[param(unit = "mm")]
    sides: Vec<String>,
) {
    let _ = (text, sides);
}

fn main() {}
