//! Six mistakes in one `#[toolbox]`, six errors, each at its token: a misspelt key, a misspelt
//! resource, a misspelt safe stop, a check taking another type, `&mut self`, and a range wider
//! than the envelope.
use toolwright::toolbox;

struct Cell;

#[toolbox(
    resource(name = "conveyor", safe_stop = halt_conveyer),
    resource(
        name = "gantry",
        position = at,
        envelope(frame = "cell", unit = "mm", allow(box(min = (0, 0, 0), max = (1200, 800, 500))))
    )
)]
impl Cell {
    /// Stops the conveyor.
    fn halt_conveyor(&self) -> String {
        "stopped".into()
    }

    /// Where the gripper is.
    fn at(&self) -> [f64; 3] {
        [600.0, 400.0, 300.0]
    }

    /// Run the conveyor.
    #[tool(resource = "conveyor", timout = "5s", confirm = "Run it?")]
    async fn run_conveyor(
        &self,
        /// Belt speed.
        #[param(unit = "mm/s", range = 0.0..=500.0)]
        speed: f64,
    ) -> String {
        format!("{speed}")
    }

    /// Stop the conveyor's belt.
    #[tool(resource = "conveyer", idempotent, confirm = "Run it?")]
    async fn stop_belt(&self) -> String {
        String::new()
    }

    /// The check of `lower`.
    fn low_enough(&self, z: u32) -> Result<(), String> {
        let _ = z;
        Ok(())
    }

    /// Lower the gripper.
    #[tool(resource = "gantry", target = (x, y, z), check = low_enough, confirm = "Run it?")]
    async fn lower(
        &self,
        /// X.
        #[param(unit = "mm", range = 0.0..=1200.0)]
        x: f64,
        /// Y.
        #[param(unit = "mm", range = 0.0..=800.0)]
        y: f64,
        /// Z.
        #[param(unit = "mm", range = 0.0..=1500.0)]
        z: f64,
    ) -> String {
        format!("{x} {y} {z}")
    }

    /// Reset the cell.
    #[tool(destructive)]
    fn reset(&mut self) -> String {
        String::new()
    }
}

fn main() {}
