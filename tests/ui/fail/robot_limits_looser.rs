use toolwright::toolbox;

struct Arm;

#[toolbox(resource(
    name = "arm",
    position = joints,
    robot(urdf = "../../../../examples/robots/example-robot-data/robots/panda_description/urdf/panda.urdf", tip = "panda_hand", limits = "../../../../tests/ui/robots/looser_limits.yaml", packages("example-robot-data" = "../../../../examples/robots/example-robot-data")),
    envelope(frame = "base", unit = "mm", allow(box(min = (-900, -900, -150), max = (900, 900, 1200))))
))]
impl Arm {
    /// Where the joints are.
    fn joints(&self) -> Vec<f64> {
        Vec::new()
    }

    /// Move the arm home.
    #[tool(resource = "arm", confirm = false, because = "a test: nothing moves")]
    async fn home(&self) -> String {
        String::new()
    }
}

fn main() {}
