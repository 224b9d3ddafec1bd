use toolwright::tool;

/// Label the held object.
#[tool]
fn label(
    /// The label to print.
    #[param(min_items = 1)]
    text: String,
    /// How many copies.
    #[param(max_items = 3)]
    copies: Option<u8>,
) {
    let _ = (text, copies);
}

fn main() {}
