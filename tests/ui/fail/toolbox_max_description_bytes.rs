use toolwright::toolbox;

struct Arm;

#[toolbox(max_description_bytes = 40, max_param_description_bytes = 20)]
impl Arm {
    /// Report where the arm is and what the gripper holds.
    #[tool(read_only)]
    fn get_state(&self) -> String {
        String::new()
    }

    /// Stop the arm immediately, interrupting any motion.
    #[tool(max_description_bytes = 100)]
    fn stop(
        &self,
        /// Whether to also open the gripper.
        release: bool,
    ) {
        let _ = release;
    }
}

fn main() {}
