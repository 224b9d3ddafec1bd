//! A toolbox of 200 tools, for measuring what `export` and its page cost at that scale
//! (`examples/many_tools.rs`, BENCHMARKS.md "Export and the page"). Four shapes of tool a
//! device server commonly has, 50 of each, numbered: a motion of one axis (a range with a unit,
//! a default, an enum with meanings, a resource, a deadline, an object result), a sensor read
//! (read-only, an integer channel, an enum with a default), a digital output (an integer and a
//! boolean) and a status read without parameters.

use serde::{Deserialize, Serialize};
use toolwright::{ToolDef, ToolError, ToolSchema, ToolboxBuilder, tool, tool_defs};

/// How an axis moves.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToolSchema)]
#[serde(rename_all = "snake_case")]
pub enum Profile {
    /// Trapezoidal velocity, the fastest.
    Fast,
    /// S-curve velocity, smoother and slower.
    Smooth,
}

/// Where an axis stopped.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
pub struct Reached {
    /// Position after the motion.
    #[param(unit = "mm")]
    pub position: f64,
    /// How long the motion took.
    #[param(unit = "s")]
    pub duration: f64,
}

/// Move a linear axis to an absolute position and wait until it stops there.
#[tool(
    destructive = false,
    idempotent,
    resource = "axis",
    timeout = "10s",
    confirm = "Move the axis to {position} at {speed} of top speed ({profile} profile)?"
)]
fn move_axis(
    /// Target position along the axis.
    #[param(unit = "mm", range = -500.0..=500.0)]
    position: f64,
    /// Fraction of the axis's top speed.
    #[param(range = 0.1..=1.0, default = 0.5)]
    speed: f64,
    /// Velocity profile.
    #[param(default = Profile::Fast)]
    profile: Profile,
) -> Result<Reached, ToolError> {
    let _ = profile;
    Ok(Reached {
        position,
        duration: position.abs() / (200.0 * speed),
    })
}

/// How a reading is filtered.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToolSchema)]
#[serde(rename_all = "snake_case")]
pub enum Filter {
    /// The last sample as measured.
    Raw,
    /// The mean of the last 16 samples.
    Mean,
}

/// A sensor reading.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
pub struct Reading {
    /// The channel read.
    pub channel: u8,
    /// The value.
    #[param(unit = "V")]
    pub value: f64,
}

/// Read one analog input channel of the controller.
#[tool(read_only)]
fn read_sensor(
    /// The channel to read.
    #[param(range = 0..=15)]
    channel: u8,
    /// Filtering applied to the samples.
    #[param(default = Filter::Mean)]
    filter: Filter,
) -> Reading {
    let _ = filter;
    Reading {
        channel,
        value: 0.0,
    }
}

/// Switch one digital output of the controller on or off.
#[tool(
    destructive = false,
    idempotent,
    confirm = "Set digital output {pin} of the controller (on: {on})?"
)]
fn set_output(
    /// The output pin.
    #[param(range = 0..=31)]
    pin: u8,
    /// Whether the output is on.
    on: bool,
) -> String {
    format!("output {pin} is {}", if on { "on" } else { "off" })
}

/// The controller's status.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
pub struct Status {
    /// Whether the controller accepts motions.
    pub ready: bool,
    /// Cabinet temperature.
    #[param(unit = "°C")]
    pub temperature: f64,
}

/// Report whether the controller is ready and how warm its cabinet is.
#[tool(read_only)]
fn get_status() -> Status {
    Status {
        ready: true,
        temperature: 31.5,
    }
}

/// `n` tools (a multiple of 4 is even): the four shapes in turn, each named with its number
/// (`move_axis_000`, `read_sensor_001`, ..).
pub fn tools(n: usize) -> Vec<ToolDef<()>> {
    (0..n)
        .map(|i| {
            let mut def = match i % 4 {
                0 => tool_defs![move_axis],
                1 => tool_defs![read_sensor],
                2 => tool_defs![set_output],
                _ => tool_defs![get_status],
            }
            .pop()
            .expect("one definition");
            // The definition's name is `&'static`: a name made here lives as long as the process.
            def.meta.name = Box::leak(format!("{}_{i:03}", def.meta.name).into_boxed_str());
            def
        })
        .collect()
}

/// The 200-tool server.
pub fn server() -> ToolboxBuilder<()> {
    ToolboxBuilder::new(())
        .with_tools(tools(200))
        .with_server_info("many-tools", env!("CARGO_PKG_VERSION"))
        .with_title("200 tools of a device controller")
        .with_resource("axis")
}
