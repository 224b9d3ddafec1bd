use serde::{Deserialize, Serialize};
use toolwright::{ToolSchema, Toolbox, tool, toolbox, tools};

/// A point.
#[derive(Serialize, Deserialize, ToolSchema)]
struct Point {
    x: f64,
}

/// Move to a point.
#[tool(name = "move to")]
fn move_to(
    /// Where.
    #[param(unit = "mm", range = 10.0..=0.0)]
    target: Point,
) -> Point {
    target
}

/// Stop.
#[tool(read_only, destructive)]
fn stop() {}

struct Arm;

#[toolbox]
impl Arm {
    /// Home the arm.
    #[tool(naem = "home")]
    fn home(&self) -> Point {
        Point { x: 0.0 }
    }

    /// Park the arm.
    #[tool]
    fn park(&mut self) {}
}

fn main() {
    let free = tools![move_to, stop];
    let arm = Toolbox::new(Arm);
    let p = move_to(Point { x: 1.0 });
    let _: u32 = "type errors elsewhere are still reported";
    let _ = (free, arm, p.x);
}
