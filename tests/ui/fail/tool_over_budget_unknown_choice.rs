use toolwright::tool;

/// List the readings.
#[tool(read_only, max_output_bytes = 4096, over_budget = "truncate")]
fn list_readings() -> Vec<f64> {
    Vec::new()
}

fn main() {}
