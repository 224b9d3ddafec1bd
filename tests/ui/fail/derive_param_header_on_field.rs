use serde::Deserialize;
use toolwright::ToolSchema;

/// Where a query runs.
#[derive(ToolSchema, Deserialize)]
struct Placement {
    /// The region to run in.
    #[param(header = "Region")]
    region: String,
}

fn main() {}
