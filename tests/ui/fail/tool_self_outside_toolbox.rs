use toolwright::tool;

struct Arm;

impl Arm {
    /// Stop.
    #[tool]
    fn stop(&self) {}
}

fn main() {}
