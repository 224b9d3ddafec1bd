use toolwright::tool;

/// Run a query in a region.
#[tool]
fn run_query(
    /// The region to run in.
    #[param(header = "Mcp-Param-Region")]
    region: String,
) {
    let _ = region;
}

fn main() {}
