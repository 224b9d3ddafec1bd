//! A `Context` parameter is not published, so it needs no description (and does not count as
//! a parameter).
use toolwright::{Context, Toolbox, tool, toolbox, tools};

/// Sweep through the waypoints.
#[tool]
async fn sweep(
    /// Number of waypoints.
    #[param(range = 1..=100)]
    steps: u32,
    ctx: Context,
) -> String {
    format!("{steps} steps, trace {}", ctx.trace_id())
}

struct Arm;

#[toolbox]
impl Arm {
    /// Home the arm.
    #[tool]
    async fn home(&self, ctx: Context) -> String {
        ctx.trace_id().to_owned()
    }
}

fn main() {
    let toolbox = tools![sweep].build().unwrap();
    let schema = serde_json::to_value(&toolbox.tool("sweep").unwrap().input_schema).unwrap();
    assert_eq!(schema["required"], serde_json::json!(["steps"]));
    assert_eq!(Toolbox::new(Arm).tools().len(), 1);
}
