//! A half-typed statement in one tool method of a `#[toolbox]` impl: rustc's syntax error, and
//! nothing else (the macro never parses bodies, so every tool keeps its definition).
use toolwright::{Toolbox, toolbox};

struct Sim;

impl Sim {
    fn belt_speed(&self) -> f64 {
        120.0
    }
}

struct Cell {
    sim: Sim,
}

#[toolbox(resource(name = "belt", safe_stop = halt_belt))]
impl Cell {
    /// Stops the belt.
    fn halt_belt(&self) -> String {
        "belt stopped".into()
    }

    /// Run the conveyor belt at a speed.
    #[tool(resource = "belt", confirm = "Run it?")]
    async fn run_belt(
        &self,
        /// Belt speed.
        #[param(unit = "mm/s", range = 0.0..=500.0)]
        speed: f64,
    ) -> String {
        let half = self.sim.
        format!("{speed}")
    }

    /// The belt's speed now.
    #[tool(read_only)]
    fn belt_state(&self) -> f64 {
        self.sim.belt_speed()
    }
}

fn main() {
    let _ = Toolbox::new(Cell { sim: Sim });
}
