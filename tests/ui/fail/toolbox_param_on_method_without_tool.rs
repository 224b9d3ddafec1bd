use toolwright::toolbox;

struct Arm;

#[toolbox]
impl Arm {
    /// Stop the arm immediately.
    #[tool]
    fn stop(&self) {}

    fn helper(&self, #[param(range = 0..=10)] level: u8) -> u8 {
        level
    }
}

fn main() {}
