//! The only tool of a resource names it misspelt: one error, on the misspelling, with the
//! did-you-mean (not a second one saying that no tool uses the resource).
use toolwright::{Toolbox, toolbox};

struct Cell;

#[toolbox(resource(name = "belt"))]
impl Cell {
    /// Run the conveyor belt.
    #[tool(resource = "blet", confirm = "Run the belt?")]
    async fn run_belt(&self) -> String {
        String::new()
    }
}

fn main() {
    let _ = Toolbox::new(Cell);
}
