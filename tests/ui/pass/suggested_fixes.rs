//! What the compile errors suggest, applied, compiles (and the toolbox builds): each fix below
//! is written as the error of the named `tests/ui/fail` file says.
use nalgebra::Point3;
use toolwright::{Toolbox, ToolError, toolbox};

/// An error of the crate's own.
#[derive(Debug)]
struct DriverError;

impl std::fmt::Display for DriverError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the driver did not answer")
    }
}

impl std::error::Error for DriverError {}

// tool_error_not_into_tool_error: "implement `From<DriverError> for ToolError`".
impl From<DriverError> for ToolError {
    fn from(e: DriverError) -> Self {
        ToolError::new(e.to_string())
    }
}

fn read_driver() -> Result<f64, DriverError> {
    Err(DriverError)
}

struct Cell;

#[toolbox(
    // toolbox_named_method_misspelt: "did you mean `halt_conveyor`?", "`gripper_point`?"
    resource(name = "conveyor", safe_stop = halt_conveyor),
    resource(
        name = "gantry",
        safe_stop = park,
        position = gripper_point,
        envelope(
            frame = "cell",
            unit = "mm",
            tool_radius = 25,
            allow(box(min = (0, 0, 0), max = (1200, 800, 500))),
            // envelope_shape_min_above_max: "`keep_out(name = \"camera_mast\", box(..))`".
            keep_out(name = "camera_mast", box(min = (550, 350, 0), max = (650, 450, 500)))
        )
    )
)]
impl Cell {
    /// Stops the conveyor.
    fn halt_conveyor(&self) -> String {
        "stopped".into()
    }

    /// Parks the gripper where it is.
    // toolbox_safe_stop_unknown_method, without a near name: "e.g. `fn park(&self) -> String`".
    fn park(&self) -> String {
        "parked".into()
    }

    // A position, as `position = ..` wants: "e.g. `fn gripper_point(&self) -> [f64; 3]`".
    /// Where the gripper is.
    fn gripper_point(&self) -> [f64; 3] {
        [300.0, 200.0, 300.0]
    }

    /// Whether the vacuum may be switched off.
    fn vacuum_off(&self, speed: f64) -> Result<(), String> {
        let _ = speed;
        Ok(())
    }

    /// Run the conveyor.
    #[tool(resource = "conveyor", check = vacuum_off, confirm = "Run it?")]
    async fn run_conveyor(
        &self,
        /// Belt speed.
        #[param(unit = "mm/s", range = 0.0..=500.0)]
        speed: f64,
    ) -> String {
        format!("{speed}")
    }

    // tool_check_param_wrong_type: "write `f64` here".
    /// The check of `lower`.
    fn low_enough(&self, z: f64) -> Result<(), String> {
        let _ = z;
        Ok(())
    }

    // param_range_wider_than_envelope: "narrow it to `range = 25.0..=1175.0`" (and so on);
    // tool_target_unit_not_envelope_unit: "write `unit = \"mm\"`, with its range in mm".
    /// Lower the gripper.
    #[tool(resource = "gantry", target = (x, y, z), check = low_enough, confirm = "Run it?")]
    async fn lower(
        &self,
        /// X.
        #[param(unit = "mm", range = 25.0..=1175.0)]
        x: f64,
        /// Y.
        #[param(unit = "mm", range = 25.0..=775.0)]
        y: f64,
        /// Z.
        #[param(unit = "mm", range = 25.0..=475.0)]
        z: f64,
    ) -> String {
        format!("{x} {y} {z}")
    }

    /// Place a part: "narrow it to `range = 25.0..=475.0`".
    #[tool(resource = "gantry", target = at_point, confirm = "Run it?")]
    async fn place(
        &self,
        /// Where.
        #[param(unit = "mm", range = 25.0..=475.0)]
        at_point: Point3<f64>,
    ) -> String {
        format!("{at_point}")
    }

    /// Pick a part: y "narrow it to `range = 25.0..=775.0`".
    #[tool(resource = "gantry", target = from, confirm = "Run it?")]
    async fn pick(
        &self,
        /// Where.
        #[param(unit = "mm", range = [25.0..=1175.0, 25.0..=775.0, 25.0..=475.0])]
        from: Point3<f64>,
    ) -> String {
        format!("{from}")
    }

    // tool_check_wrong_signature: "`fn spin_ok(&self) -> Result<(), String>`".
    /// The check of `spin`.
    fn spin_ok(&self) -> Result<(), String> {
        Ok(())
    }

    /// Spin the base.
    #[tool(resource = "conveyor", check = spin_ok, confirm = "Run it?")]
    async fn spin(&self) -> String {
        String::new()
    }

    // tool_error_not_into_tool_error: "`.map_err(|e| ToolError::new(e.to_string()))?`".
    /// Read the driver.
    #[tool(read_only)]
    fn read_converted(&self) -> Result<f64, ToolError> {
        let value = read_driver().map_err(|e| ToolError::new(e.to_string()))?;
        Ok(value)
    }

    /// Read the driver, its error converted by the `From` above.
    #[tool(read_only)]
    fn read_from(&self) -> Result<f64, DriverError> {
        read_driver()
    }

    /// A boxed error converts into `ToolError` as it is.
    #[tool(read_only)]
    fn read_boxed(&self) -> Result<f64, Box<dyn std::error::Error + Send + Sync>> {
        Ok(read_driver()?)
    }
}

fn main() {
    let toolbox = Toolbox::new(Cell);
    assert_eq!(toolbox.listed_tools().len(), 8);
}
