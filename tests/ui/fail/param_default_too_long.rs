use toolwright::tool;

/// Label the held object.
#[tool]
fn label(
    /// The label to print.
    #[param(max_length = 8, default = "fragile glassware")]
    text: String,
    /// Operator initials.
    #[param(min_length = 2, examples = ["A", "BC"])]
    initials: String,
) {
    let _ = (text, initials);
}

fn main() {}
