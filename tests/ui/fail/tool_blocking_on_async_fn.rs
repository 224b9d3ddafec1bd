use toolwright::tool;

/// Read the encoders.
#[tool(read_only, blocking = false)]
async fn read_encoders() -> u32 {
    0
}

fn main() {}
