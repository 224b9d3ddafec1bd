use toolwright::tool;

/// Copy a table between regions.
#[tool]
fn copy_table(
    /// The region to copy from.
    #[param(header = "Region")]
    from: String,
    /// The region to copy to.
    #[param(header = "region")]
    to: String,
    /// The table.
    #[param(header = "Table")]
    table: String,
    /// The table's new name.
    #[param(header = "TABLE")]
    rename: Option<String>,
) {
    let _ = (from, to, table, rename);
}

/// Another tool may use the same header names: they are unique within one tool.
#[tool]
fn drop_table(
    /// The region.
    #[param(header = "Region")]
    region: String,
    /// The table.
    #[param(header = "Table")]
    table: String,
) {
    let _ = (region, table);
}

fn main() {}
