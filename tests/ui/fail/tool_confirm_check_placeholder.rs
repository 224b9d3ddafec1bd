use toolwright::toolbox;

struct Conveyor;

#[toolbox(resource(name = "belt"))]
impl Conveyor {
    /// The check of `run_belt`: says nothing for the question.
    fn belt_clear(&self, metres: f64) -> Result<(), String> {
        let _ = metres;
        Ok(())
    }

    /// Run the belt forward.
    #[tool(resource = "belt", confirm = "Run the belt {metres} ({check})?", check = belt_clear)]
    fn run_belt(
        &self,
        /// How far.
        #[param(unit = "m", range = 0.0..=10.0)]
        metres: f64,
    ) -> String {
        format!("ran {metres} m")
    }

    /// Run the belt backward.
    #[tool(resource = "belt", confirm = "Reverse the belt {metres} ({check})?")]
    fn reverse_belt(
        &self,
        /// How far.
        #[param(unit = "m", range = 0.0..=10.0)]
        metres: f64,
    ) -> String {
        format!("reversed {metres} m")
    }
}

fn main() {}
