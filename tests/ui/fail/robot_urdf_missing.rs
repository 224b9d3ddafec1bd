use toolwright::toolbox;

struct Arm;

#[toolbox(resource(
    name = "arm",
    position = joints,
    robot(urdf = "robots/no_such.urdf", tip = "panda_hand"),
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
