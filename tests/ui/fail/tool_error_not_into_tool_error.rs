use toolwright::tool;

#[derive(Debug)]
struct DriverError;

/// Read the sensor.
#[tool(read_only)]
fn read_sensor() -> Result<f64, DriverError> {
    Err(DriverError)
}

fn main() {}
