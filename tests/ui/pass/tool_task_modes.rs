use toolwright::{Context, ToolError, tool, tools};

/// Home the arm: every call is a task.
#[tool(task = "required", timeout = "5m")]
async fn home_arm(ctx: Context) -> Result<String, ToolError> {
    ctx.progress(1.0, Some(1.0), Some("homed".into())).await;
    Ok("homed".into())
}

/// Plan a path: a task when the client takes tasks.
#[tool(read_only, task = "optional")]
fn plan(
    /// Waypoints.
    #[param(range = 2..=50)]
    waypoints: u32,
) -> u32 {
    waypoints
}

/// Read a sensor (never a task, written out).
#[tool(read_only, task = "forbidden")]
fn read_sensor() -> f64 {
    0.0
}

fn main() {
    let _ = tools![home_arm, plan, read_sensor].build().unwrap();
}
