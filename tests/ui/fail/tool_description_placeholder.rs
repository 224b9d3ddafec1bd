use toolwright::tool;

/// TODO: describe
#[tool]
fn stop_arm() {}

/// Read the sensor.
#[tool(description = "...")]
fn read_sensor() {}

fn main() {}
