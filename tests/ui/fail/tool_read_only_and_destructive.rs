use toolwright::tool;

/// Read the force/torque sensor.
#[tool(read_only, destructive)]
fn read_sensor() {}

fn main() {}
