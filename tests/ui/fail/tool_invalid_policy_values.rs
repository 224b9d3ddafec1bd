use toolwright::{tool, toolbox};

/// Read the sensor.
#[tool(read_only, timeout = "3 seconds", resource = ["arm", 7], max_output_bytes = 0)]
fn read_sensor() -> f64 {
    0.0
}

struct Arm;

#[toolbox(timeout = "fast", max_concurrency = 0)]
impl Arm {
    /// Where the arm is.
    #[tool(read_only)]
    fn state(&self) -> String {
        String::new()
    }
}

fn main() {}
