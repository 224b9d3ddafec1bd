use toolwright::tool;

/// Look up an object by id.
#[tool]
fn find(
    /// Object id.
    #[param(pattern = "^(obj-[0-9]+$")]
    id: String,
    /// Shelf code.
    #[param(pattern = "^[z-a]{2}$")]
    shelf: String,
) {
    let _ = (id, shelf);
}

fn main() {}
