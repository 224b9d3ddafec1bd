use toolwright::{Context, ToolError, toolbox};

struct Gantry;

#[toolbox(resource(name = "gantry"))]
impl Gantry {
    /// Move the gantry's carriage to a position along its rail.
    #[tool(resource = "gantry")]
    async fn move_carriage(
        &self,
        /// Where to, from the rail's left end.
        #[param(unit = "mm", range = 0.0..=1200.0)]
        x: f64,
        ctx: Context,
    ) -> Result<String, ToolError> {
        let _ = ctx;
        Ok(format!("at {x} mm"))
    }

    /// Read where the carriage is: reading needs no confirmation.
    #[tool(read_only, resource = "gantry")]
    fn carriage_position(&self) -> f64 {
        0.0
    }
}

fn main() {}
