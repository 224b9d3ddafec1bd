use toolwright::tool;

/// Say several things.
#[tool]
fn say_all(
    /// The lines to say.
    lines: Vec<&'static str>,
) {
    let _ = lines;
}

fn main() {}
