//! Tool names: an explicit name for a fn that is not snake_case, names with `.` and `-`, exactly
//! 64 characters, and longer ones with `allow(long_name)`.
use toolwright::{tool, tools};

/// Move the arm.
#[tool(name = "moveArm")]
#[allow(non_snake_case)]
fn moveArm() {}

/// Read the gripper state.
#[tool(name = "gripper.state-v2")]
fn gripper_state() {}

/// A name of exactly 64 characters.
#[tool(name = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")]
fn sixty_four() {}

/// A long name, on purpose.
#[tool(allow(long_name))]
fn move_the_robot_arm_tool_point_in_a_straight_line_to_a_cartesian_pose_in_the_base_frame_keeping_the_gripper_down() {}

fn main() {
    let toolbox = tools![moveArm, gripper_state, sixty_four, move_the_robot_arm_tool_point_in_a_straight_line_to_a_cartesian_pose_in_the_base_frame_keeping_the_gripper_down].build().unwrap();
    assert_eq!(toolbox.tools().len(), 4);
    assert!(toolbox.tool("gripper.state-v2").is_some());
}
