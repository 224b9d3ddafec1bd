use toolwright::tool;

/// Label the held object.
#[tool]
fn label(
    /// The label to print.
    #[param(min_length = 10, max_length = 5)]
    text: String,
    /// Tags to attach.
    #[param(min_items = 4, max_items = 2)]
    tags: Vec<String>,
) {
    let _ = (text, tags);
}

fn main() {}
