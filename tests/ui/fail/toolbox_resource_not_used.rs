use toolwright::toolbox;

struct Arm;

#[toolbox(resource(name = "amr", max_waiting = 4), resource(name = "arm"), resource(name = "arm"))]
impl Arm {
    /// Move the arm home.
    #[tool(resource = "arm", confirm = "Run it?")]
    async fn home(&self) -> String {
        String::new()
    }
}

fn main() {}
