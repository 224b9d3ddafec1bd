use toolwright::tool;

/// Scan the workspace and list every point seen (long: a task).
#[tool(
    read_only,
    task = "required",
    max_output_bytes = 4096,
    over_budget = "envelope"
)]
fn scan_workspace(
    /// Points per metre.
    #[param(range = 1..=100)]
    density: u32,
) -> Vec<f64> {
    vec![f64::from(density)]
}

fn main() {}
