use toolwright::toolbox;

struct Arm;

#[toolbox(resource(
    name = "arm",
    position = at,
    envelope(
        frame = "base",
        unit = "mm",
        tool_radius = 10,
        allow(box(min = (-500, -500, 0), max = (500, 500, 800)))
    )
))]
impl Arm {
    /// Where the arm is.
    fn at(&self) -> [f64; 3] {
        [0.0, 0.0, 400.0]
    }

    /// Move the arm.
    #[tool(resource = "arm", target = (x, y, z), confirm = "Run it?")]
    async fn move_to(
        &self,
        /// X: wider than the envelope allows (490 mm, the box less the tool's radius).
        #[param(unit = "mm", range = -600.0..=600.0)]
        x: f64,
        /// Y: within it.
        #[param(unit = "mm", range = -490.0..=490.0)]
        y: f64,
        /// Z: its lower end below the table the envelope allows (10 mm).
        #[param(unit = "mm", range = 0.0..=790.0)]
        z: f64,
    ) -> String {
        format!("{x} {y} {z}")
    }
}

fn main() {}
