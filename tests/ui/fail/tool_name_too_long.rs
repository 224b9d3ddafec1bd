use toolwright::tool;

/// Move the arm to a pose.
#[tool(name = "move_the_robot_arm_tool_point_in_a_straight_line_to_a_cartesian_pose")]
fn move_arm() {}

/// Move the arm to a pose, slowly.
#[tool]
fn move_the_robot_arm_tool_point_slowly_in_a_straight_line_to_a_cartesian_pose() {}

fn main() {}
