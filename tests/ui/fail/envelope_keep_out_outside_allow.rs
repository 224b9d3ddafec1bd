//! A keep-out that lies outside an allow shape protects nothing (the tool never leaves the allow
//! shape): almost always a typo in its coordinates. Two such keep-outs, one error each; the
//! keep-out that can be met compiles.
use toolwright::toolbox;

struct Cell;

#[toolbox(resource(
    name = "gantry",
    position = at,
    envelope(
        frame = "cell",
        unit = "mm",
        tool_radius = 25,
        allow(box(min = (0, 0, 0), max = (1200, 800, 500))),
        // Met: the conveyor runs through the cell.
        keep_out(name = "conveyor", box(min = (0, 300, 0), max = (1200, 500, 120))),
        // A typo: 3000 for 300, so the pillar lies outside the cell.
        keep_out(name = "pillar", cylinder(center = (3000, 600), radius = 60, z = (0, 500))),
        // Below the floor.
        keep_out(name = "drain", sphere(center = (600, 400, -200), radius = 50))
    )
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
}

fn main() {}
