use toolwright::tool;

/// Read the force/torque sensor.
#[tool(read_only, idempotent = false)]
fn read_sensor() {}

fn main() {}
