//! A target declared in `cm` against an envelope in `mm`: the envelope checks a target in its
//! own unit, so the compiler refuses it where the macro sees both. (An unknown unit is
//! reported once, as unknown.)
use toolwright::toolbox;

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
    #[tool(resource = "gantry", target = (x, y, z), confirm = "Run it?")]
    async fn move_to(
        &self,
        /// X.
        #[param(unit = "cm", range = 0.0..=120.0)]
        x: f64,
        /// Y.
        #[param(unit = "millimeters", range = 0.0..=800.0)]
        y: f64,
        /// Z.
        #[param(unit = "mm", range = 0.0..=500.0)]
        z: f64,
    ) -> String {
        format!("{x} {y} {z}")
    }
}

fn main() {}
