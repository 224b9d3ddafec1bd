use toolwright::toolbox;

struct Arm;

#[toolbox(resource(
    name = "arm",
    envelope(frame = "base", unit = "mm", allow(sphere(center = (0, 0, 0), radius = 800)))
))]
impl Arm {
    /// Move the arm.
    #[tool(resource = "arm", confirm = "Run it?")]
    async fn move_home(&self) -> String {
        String::new()
    }
}

fn main() {}
