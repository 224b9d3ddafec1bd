use toolwright::tool;

/// Look up an object by id.
#[tool]
fn find(
    /// Object id.
    #[param(pattern = "^obj-[0-9]+$", default = "obj-x", examples = ["obj-1", "cup"])]
    id: String,
) {
    let _ = id;
}

fn main() {}
