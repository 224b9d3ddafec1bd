//! Tool names: an explicit name for a fn that is not snake_case, names with `-`, and exactly 64
//! characters (the most every client accepts).
use toolwright::{tool, tools};

/// Move the arm.
#[tool(name = "moveArm")]
#[allow(non_snake_case)]
fn moveArm() {}

/// Read the gripper state.
#[tool(name = "gripper-state_v2")]
fn gripper_state() {}

/// A name of exactly 64 characters.
#[tool(name = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")]
fn sixty_four() {}

fn main() {
    let toolbox = tools![moveArm, gripper_state, sixty_four].build().unwrap();
    assert_eq!(toolbox.tools().len(), 3);
    assert!(toolbox.tool("gripper-state_v2").is_some());
}
