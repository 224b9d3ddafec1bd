use toolwright::toolbox;

struct Arm;

#[toolbox(resource(name = "arm", safe_stop = halt))]
impl Arm {
    /// Halt any motion; returns the number of joints braked.
    async fn halt(&self) -> u32 {
        6
    }

    /// Move the arm home.
    #[tool(resource = "arm", confirm = "Run it?")]
    async fn home(&self) -> String {
        String::new()
    }
}

fn main() {}
