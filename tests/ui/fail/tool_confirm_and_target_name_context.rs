//! `confirm` placeholders and `target` coordinates name the arguments the model sends: the
//! call's `Context` is not one, and a misspelt name gets a did-you-mean (the `Context` is never
//! among the names offered).
use toolwright::{Context, toolbox};

struct Cell;

#[toolbox(resource(
    name = "gantry",
    position = at,
    envelope(frame = "cell", unit = "mm", allow(box(min = (0, 0, 0), max = (1200, 800, 500))))
))]
impl Cell {
    /// Where the gripper is.
    fn at(&self) -> [f64; 3] {
        [600.0, 400.0, 300.0]
    }

    /// Move the gripper.
    #[tool(
        resource = "gantry",
        target = (x, y, hieght),
        confirm = "Move the gripper to ({x}, {y}, {height}) for {ctx}?"
    )]
    async fn move_to(
        &self,
        /// X.
        #[param(unit = "mm", range = 0.0..=1200.0)]
        x: f64,
        /// Y.
        #[param(unit = "mm", range = 0.0..=800.0)]
        y: f64,
        /// Height.
        #[param(unit = "mm", range = 0.0..=500.0)]
        height: f64,
        ctx: Context,
    ) -> String {
        let _ = ctx;
        format!("{x} {y} {height}")
    }

    /// Lower the gripper.
    #[tool(resource = "gantry", target = (x, y, ctx), confirm = "Run it?")]
    async fn lower(
        &self,
        /// X.
        #[param(unit = "mm", range = 0.0..=1200.0)]
        x: f64,
        /// Y.
        #[param(unit = "mm", range = 0.0..=800.0)]
        y: f64,
        ctx: Context,
    ) -> String {
        let _ = ctx;
        format!("{x} {y}")
    }
}

fn main() {}
