use toolwright::tool;

/// Read the sensor.
#[tool(read_only, projection, summary)]
fn read_sensor(
    /// A filter of the caller's own, named like the argument `projection` adds.
    jmespath: String,
    /// Also taken.
    summary: bool,
) -> Vec<f64> {
    let _ = (jmespath, summary);
    Vec::new()
}

fn main() {}
