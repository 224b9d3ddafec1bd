//! A variant's `rename_all`, an enum's `rename_all_fields`, and a type wrapping another module's
//! type of the same name (not a recursion) compile, as tool parameters too.

use serde::{Deserialize, Serialize};
use toolwright::{ToolSchema, tool};

/// A command.
#[derive(Serialize, Deserialize, ToolSchema)]
#[serde(tag = "kind", rename_all_fields = "camelCase")]
enum Command {
    /// Move.
    #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
    MoveTo {
        /// Speed fraction.
        target_speed: f64,
    },
    /// Wait.
    Wait {
        /// Seconds.
        #[param(unit = "s")]
        wait_time: f64,
    },
}

mod geo {
    /// Another library's pose.
    #[derive(serde::Serialize, serde::Deserialize, toolwright::ToolSchema)]
    pub struct Pose {
        /// X, mm.
        #[param(unit = "mm")]
        pub x: f64,
    }
}

/// Our pose.
#[derive(Serialize, Deserialize, ToolSchema)]
struct Pose {
    /// The wrapped pose.
    inner: geo::Pose,
    /// More of them.
    path: Vec<self::geo::Pose>,
}

/// Run it.
#[tool]
fn run(
    /// The command.
    command: Command,
    /// Where.
    pose: Pose,
) {
    let _ = (command, pose);
}

fn main() {}
