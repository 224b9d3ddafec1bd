use toolwright::toolbox;

struct Arm;

#[toolbox]
impl Arm {
    /// Stop the arm immediately.
    #[tool]
    fn stop(&self) {}

    /// Stop the arm after the current motion.
    #[tool(name = "stop")]
    fn stop_soon(&self) {}
}

fn main() {}
