use toolwright::{tool, toolbox};

/// Move home.
#[tool(timeout = "5s", grace = "soon")]
async fn home() -> String {
    String::new()
}

struct Arm;

#[toolbox(grace = "-1s")]
impl Arm {
    /// Where the arm is.
    #[tool(read_only)]
    fn state(&self) -> String {
        String::new()
    }
}

fn main() {}
