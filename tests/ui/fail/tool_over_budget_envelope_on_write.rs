use toolwright::tool;

/// Run a trajectory and report every waypoint reached (a write: calling again moves the arm
/// again, so its result must not be withheld).
#[tool(max_output_bytes = 4096, over_budget = "envelope")]
fn run_trajectory(
    /// Waypoints to pass through.
    #[param(min_items = 2)]
    waypoints: Vec<f64>,
) -> Vec<f64> {
    waypoints
}

fn main() {}
