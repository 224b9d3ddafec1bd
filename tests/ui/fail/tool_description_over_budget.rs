use toolwright::tool;

/// Move the arm's tool point in a straight line to a Cartesian position in the robot base
/// frame. Move the arm's tool point in a straight line to a Cartesian position in the robot
/// base frame. Move the arm's tool point in a straight line to a Cartesian position in the
/// robot base frame. Move the arm's tool point in a straight line to a Cartesian position in
/// the robot base frame. Move the arm's tool point in a straight line to a Cartesian position
/// in the robot base frame. Move the arm's tool point in a straight line to a Cartesian
/// position in the robot base frame. Move the arm's tool point in a straight line to a
/// Cartesian position in the robot base frame. Move the arm's tool point in a straight line
/// to a Cartesian position in the robot base frame. Move the arm's tool point in a straight
/// line to a Cartesian position in the robot base frame. Move the arm's tool point in a
/// straight line to a Cartesian position in the robot base frame. Move the arm's tool point
/// in a straight line to a Cartesian position in the robot base frame. Move the arm's tool
/// point in a straight line to a Cartesian position in the robot base frame.
#[tool]
fn move_arm() {}

fn main() {}
