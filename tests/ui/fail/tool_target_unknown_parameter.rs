use toolwright::toolbox;

struct Arm;

#[toolbox(resource(
    name = "arm",
    position = at,
    envelope(frame = "base", unit = "mm", allow(sphere(center = (0, 0, 0), radius = 800)))
))]
impl Arm {
    /// Where the arm is.
    fn at(&self) -> [f64; 3] {
        [0.0, 0.0, 400.0]
    }

    /// Move the arm: `w` is not a parameter.
    #[tool(resource = "arm", target = (x, y, w), confirm = "Run it?")]
    async fn move_to(
        &self,
        /// X.
        #[param(unit = "mm")]
        x: f64,
        /// Y.
        #[param(unit = "mm")]
        y: f64,
        /// Z.
        #[param(unit = "mm")]
        z: f64,
    ) -> String {
        format!("{x} {y} {z}")
    }

    /// Move along a path, without saying which resource.
    #[tool(path = waypoints)]
    async fn follow(
        &self,
        /// The path.
        #[param(unit = "mm")]
        waypoints: Vec<[f64; 3]>,
    ) -> String {
        format!("{}", waypoints.len())
    }
}

fn main() {}
