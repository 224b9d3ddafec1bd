//! A published range must not promise what the envelope refuses. The error is at the bound that
//! is out (the first one, in the order written) and gives the interval the envelope allows: one
//! error per parameter, also when one range covers the three coordinates of a point.
use nalgebra::Point3;
use toolwright::toolbox;

struct Gantry;

#[toolbox(resource(
    name = "gantry",
    position = at,
    envelope(
        frame = "cell",
        unit = "mm",
        tool_radius = 25,
        allow(box(min = (0, 0, 0), max = (1200, 800, 500)))
    )
))]
impl Gantry {
    /// Where the gripper is.
    fn at(&self) -> [f64; 3] {
        [600.0, 400.0, 300.0]
    }

    /// Move the gripper.
    #[tool(resource = "gantry", target = (x, y, z), confirm = "Run it?")]
    async fn move_to(
        &self,
        /// X: its upper end is past the cell (1175 mm, the box less the tool's radius).
        #[param(unit = "mm", range = 25.0..=1500.0)]
        x: f64,
        /// Y: its lower end is below the cell.
        #[param(unit = "mm", range = -100.0..=775.0)]
        y: f64,
        /// Z: both ends are out; the first is reported.
        #[param(unit = "mm", range = 0.0..=600.0)]
        z: f64,
    ) -> String {
        format!("{x} {y} {z}")
    }

    /// Place a part: one range for the three coordinates.
    #[tool(resource = "gantry", target = at_point, confirm = "Run it?")]
    async fn place(
        &self,
        /// Where.
        #[param(unit = "mm", range = 0.0..=1500.0)]
        at_point: Point3<f64>,
    ) -> String {
        format!("{at_point}")
    }

    /// Pick a part: a range per coordinate, y's too wide.
    #[tool(resource = "gantry", target = from, confirm = "Run it?")]
    async fn pick(
        &self,
        /// Where.
        #[param(unit = "mm", range = [25.0..=1175.0, 25.0..=900.0, 25.0..=475.0])]
        from: Point3<f64>,
    ) -> String {
        format!("{from}")
    }
}

fn main() {}
