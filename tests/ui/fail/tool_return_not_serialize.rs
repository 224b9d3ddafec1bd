use toolwright::tool;

struct Reading {
    value: f64,
}

/// Read the sensor.
#[tool(read_only)]
fn read_sensor() -> Reading {
    Reading { value: 0.0 }
}

fn main() {
    let _ = read_sensor().value;
}
