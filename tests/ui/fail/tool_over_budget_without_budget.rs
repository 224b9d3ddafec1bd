use toolwright::tool;

/// List the readings.
#[tool(read_only, over_budget = "envelope")]
fn list_readings() -> Vec<f64> {
    Vec::new()
}

fn main() {}
