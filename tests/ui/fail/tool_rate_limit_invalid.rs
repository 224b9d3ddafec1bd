use toolwright::{tool, toolbox};

/// Read the sensor.
#[tool(read_only, rate_limit = "10 per minute")]
fn read_sensor() -> f64 {
    0.0
}

struct Arm;

#[toolbox(client_rate_limit = "0/min")]
impl Arm {
    /// Where the arm is.
    #[tool(read_only)]
    fn state(&self) -> String {
        String::new()
    }
}

fn main() {}
