use toolwright::toolbox;

struct Arm;

#[toolbox(resource(name = "arm", safe_stop = halt))]
impl Arm {
    /// Halt any motion, slowly.
    fn halt(&self, deceleration: f64) -> String {
        format!("halted at {deceleration}")
    }

    /// Move the arm home.
    #[tool(resource = "arm", confirm = "Run it?")]
    async fn home(&self) -> String {
        String::new()
    }
}

fn main() {}
