use toolwright::toolbox;

struct Gripper;

#[toolbox(resource(name = "gripper"))]
impl Gripper {
    /// Open the gripper.
    #[tool(resource = "gripper", confirm = false)]
    fn open_gripper(&self) -> String {
        "open".into()
    }

    /// Close the gripper.
    #[tool(resource = "gripper", confirm = false, because = "safe")]
    fn close_gripper(&self) -> String {
        "closed".into()
    }

    /// Read the gripper's width.
    #[tool(read_only, resource = "gripper", confirm = false, because = "it only reads the encoder")]
    fn gripper_width(&self) -> f64 {
        0.0
    }

    /// Close the gripper hard.
    #[tool(resource = "gripper", confirm = true)]
    fn squeeze(&self) -> String {
        "squeezed".into()
    }

    /// Close the gripper softly.
    #[tool(resource = "gripper", confirm = "Close softly?", because = "it is soft")]
    fn close_softly(&self) -> String {
        "closed".into()
    }
}

fn main() {}
