//! Bounds and defaults given by `const`s are checked when the crate compiles.
use toolwright::{tool, tools};

const MIN_FORCE: f64 = 5.0;
const MAX_FORCE: f64 = 30.0;
const DEFAULT_FORCE: f64 = 15.0;
const MAX_RETRIES: u8 = 5;

mod limits {
    pub const MAX_SPEED: u32 = 500;
}

/// Close the gripper.
#[tool]
fn grasp(
    /// Grip force.
    #[param(unit = "N", range = MIN_FORCE..=MAX_FORCE, default = DEFAULT_FORCE, examples = [10.0])]
    force: f64,
    /// Retries.
    #[param(range = 0..=MAX_RETRIES, default = 2)]
    retries: u8,
    /// Approach speed.
    #[param(unit = "mm/s", range = 1..=limits::MAX_SPEED)]
    speed: u32,
) {
    let _ = (force, retries, speed);
}

fn main() {
    let toolbox = tools![grasp].build().unwrap();
    let tool = toolbox.tool("grasp").unwrap();
    let schema = serde_json::to_value(&tool.input_schema).unwrap();
    assert_eq!(schema["properties"]["force"]["maximum"], serde_json::json!(30.0));
    assert_eq!(schema["properties"]["speed"]["maximum"], serde_json::json!(500));
}
