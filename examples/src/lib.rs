//! Example toolboxes built with toolwright. The flagship is [`robot_arm`]: a simulated 6-axis arm
//! with a force/torque sensor, served as an MCP server by `examples/robot_arm.rs`.
//! [`parts_catalog`] is a stateless, read-only catalogue that runs as several replicas
//! (`examples/parts_catalog.rs`).

pub mod parts_catalog;
pub mod robot_arm;
