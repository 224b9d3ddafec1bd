use toolwright::toolbox;

struct Arm {
    moves: u32,
}

#[toolbox]
impl Arm {
    /// Move.
    #[tool]
    fn step(&mut self) {
        self.moves += 1;
    }
}

fn main() {}
