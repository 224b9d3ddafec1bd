use toolwright::toolbox;

struct Arm;

#[toolbox(resource(name = "arm", safe_stop = hlat))]
impl Arm {
    /// Halt any motion.
    fn halt(&self) -> String {
        "halted".into()
    }

    /// Move the arm home.
    #[tool(resource = "arm", confirm = "Run it?")]
    async fn home(&self) -> String {
        String::new()
    }
}

fn main() {}
