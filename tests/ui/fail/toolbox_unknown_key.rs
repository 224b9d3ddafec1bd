use toolwright::toolbox;

struct Arm;

#[toolbox(max_desc_bytes = 2048)]
impl Arm {
    /// Stop the arm immediately.
    #[tool]
    fn stop(&self) {}
}

fn main() {}
