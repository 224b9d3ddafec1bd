//! Generated code reaches the runtime only through the one path it is given (`crate = ".."`,
//! here a re-export), names nothing from the prelude that a crate may shadow, and passes
//! `deny(warnings, unused_qualifications)`.
#![deny(warnings, unused_qualifications)]

// Prelude names, shadowed: generated code must not rely on them.
#[allow(dead_code)]
struct Option;
#[allow(dead_code)]
struct Result;
#[allow(dead_code)]
struct Vec;
#[allow(dead_code)]
struct String;
#[allow(dead_code)]
struct Box;

mod rt {
    pub use ::toolwright::*;
}

use serde::{Deserialize, Serialize};

/// A position.
#[derive(Serialize, Deserialize, rt::ToolSchema)]
#[toolwright(crate = "crate::rt")]
#[serde(rename_all = "camelCase")]
struct Target {
    /// Height above the table.
    #[param(unit = "mm", range = 0.0..=500.0, default = 10.0)]
    height_above_table: f64,
    /// The gripper's state on arrival.
    gripper: Gripper,
}

/// The gripper.
#[derive(Serialize, Deserialize, rt::ToolSchema)]
#[toolwright(crate = "crate::rt")]
enum Gripper {
    /// Opened.
    Open,
    /// Closed on an object.
    Closed {
        /// Grip force.
        #[param(unit = "N", range = 5.0..=30.0)]
        force: f64,
    },
}

/// Move to a target.
#[rt::tool(crate = "crate::rt", idempotent)]
fn go_to(
    /// Where.
    target: Target,
    /// Fraction of the maximum speed.
    #[param(range = 0.1..=1.0, default = 0.5)]
    speed: f64,
) -> ::std::result::Result<::std::string::String, rt::ToolError> {
    ::std::result::Result::Ok(::std::format!("{} at {speed}", target.height_above_table))
}

struct Arm;

#[rt::toolbox(crate = "crate::rt", timeout = "5s", resource(name = "arm", safe_stop = halt))]
impl Arm {
    fn halt(&self) {}

    /// Report the arm's state.
    #[tool(read_only, resource = "arm")]
    async fn state(
        &self,
        /// Which joint; all when left out.
        #[param(range = 1..=6)]
        joint: ::std::option::Option<u8>,
    ) -> ::std::string::String {
        ::std::format!("{joint:?}")
    }

    /// List the joint angles, in degrees.
    #[tool(read_only, projection, summary, max_output_bytes = 4096, over_budget = "envelope")]
    fn joints(&self) -> [f64; 6] {
        [0.0; 6]
    }
}

fn main() {
    let arm = rt::Toolbox::builder(Arm).with_tools(rt::tool_defs![go_to]).build().unwrap();
    assert_eq!(arm.tools().len(), 3);
}
