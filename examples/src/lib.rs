//! Example toolboxes built with toolwright. The flagship is [`robot_arm`]: a simulated 6-axis arm
//! with a force/torque sensor, served as an MCP server by `examples/robot_arm.rs`.

pub mod robot_arm;
