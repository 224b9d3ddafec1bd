use toolwright::toolbox;

struct Arm {
    name: String,
}

#[toolbox]
impl Arm {
    /// The arm's name.
    #[tool(read_only)]
    fn name(&self) -> &str {
        &self.name
    }
}

fn main() {}
