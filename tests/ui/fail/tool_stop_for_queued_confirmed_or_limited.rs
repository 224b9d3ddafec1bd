use toolwright::toolbox;

struct Arm;

#[toolbox(resource(name = "arm"))]
impl Arm {
    /// Move the arm home.
    #[tool(resource = "arm", confirm = "Run it?")]
    async fn home(&self) -> String {
        String::new()
    }

    /// Stop the arm. A stop must get through when everything else is stuck: it cannot wait in
    /// the arm's queue, for a person, or for a rate limit, and it is not a read.
    #[tool(
        stop_for = "arm",
        resource = "arm",
        confirm = "Stop the arm?",
        rate_limit = "10/min",
        read_only
    )]
    fn stop(&self) -> String {
        String::new()
    }
}

fn main() {}
