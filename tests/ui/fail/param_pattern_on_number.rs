use toolwright::tool;

/// Select a joint.
#[tool]
fn select(
    /// Joint index.
    #[param(pattern = "^[0-5]$")]
    joint: u8,
) {
    let _ = joint;
}

fn main() {}
