//! Misspelt names of methods: a check, a safe stop and a position each get a did-you-mean, and
//! a check naming a parameter the tool does not have gets one too.
use toolwright::toolbox;

struct Cell;

#[toolbox(
    resource(name = "conveyor", safe_stop = halt_conveyer),
    resource(
        name = "gantry",
        position = gripper_pont,
        envelope(frame = "cell", unit = "mm", allow(box(min = (0, 0, 0), max = (1200, 800, 500))))
    )
)]
impl Cell {
    /// Stops the conveyor.
    fn halt_conveyor(&self) -> String {
        "stopped".into()
    }

    /// Where the gripper is.
    fn gripper_point(&self) -> [f64; 3] {
        [600.0, 400.0, 300.0]
    }

    /// Whether the vacuum may be switched off.
    fn vacuum_off(&self, speed: f64) -> Result<(), String> {
        let _ = speed;
        Ok(())
    }

    /// Run the conveyor.
    #[tool(resource = "conveyor", check = vacum_off, confirm = "Run it?")]
    async fn run_conveyor(
        &self,
        /// Belt speed.
        #[param(unit = "mm/s", range = 0.0..=500.0)]
        speed: f64,
    ) -> String {
        format!("{speed}")
    }

    /// The check of `lower`: `hieght` is misspelt.
    fn low_enough(&self, hieght: f64) -> Result<(), String> {
        let _ = hieght;
        Ok(())
    }

    /// Lower the gripper.
    #[tool(resource = "gantry", target = (x, y, height), check = low_enough, confirm = "Run it?")]
    async fn lower(
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
    ) -> String {
        format!("{x} {y} {height}")
    }
}

fn main() {}
