use std::sync::Arc;

use toolwright::toolbox;

struct Arm;

#[toolbox]
impl Arm {
    /// Shut the arm down.
    #[tool]
    fn shutdown(self) {}

    /// Park the arm.
    #[tool]
    fn park(self: Arc<Self>) {}
}

fn main() {}
