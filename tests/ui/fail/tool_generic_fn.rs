use toolwright::tool;

/// Echo a value back.
#[tool]
fn echo<T: serde::Serialize>(
    /// The value.
    value: T,
) -> T {
    value
}

fn main() {}
