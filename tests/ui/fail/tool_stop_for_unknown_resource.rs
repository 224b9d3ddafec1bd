use toolwright::toolbox;

struct Arm;

#[toolbox(resource(name = "arm"))]
impl Arm {
    /// Move the arm home.
    #[tool(resource = "arm", confirm = "Run it?")]
    async fn home(&self) -> String {
        String::new()
    }

    /// Stop the arm: `amr` is a typo, and no tool uses `gripper`.
    #[tool(stop_for = ["amr", "gripper"])]
    fn stop(&self) -> String {
        String::new()
    }
}

fn main() {}
