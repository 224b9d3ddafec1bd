//! Descriptions exactly at the budget (1024 bytes for a tool, 300 for a parameter) compile, and
//! the budgets can be raised on the tool, the toolbox or the parameter.
use toolwright::{Toolbox, tool, toolbox, tools};

/// Move the arm's tool point in a straight line to a position in the robot base frame; use it to approach, retreat or carry a held object. Move the arm's tool point in a straight line to a position in the robot base frame; use it to approach, retreat or carry a held object. Move the arm's tool point in a straight line to a position in the robot base frame; use it to approach, retreat or carry a held object. Move the arm's tool point in a straight line to a position in the robot base frame; use it to approach, retreat or carry a held object. Move the arm's tool point in a straight line to a position in the robot base frame; use it to approach, retreat or carry a held object. Move the arm's tool point in a straight line to a position in the robot base frame; use it to approach, retreat or carry a held object. Move the arm's tool point in a straight line to a position in the robot base frame; use it to approach, retreat or carry a held object. Move the arm's tool point in a straight line to a position in the robotx
#[tool]
fn move_arm(
    #[param(description = "Grip force to apply once the fingers touch the object. Grip force to apply once the fingers touch the object. Grip force to apply once the fingers touch the object. Grip force to apply once the fingers touch the object. Grip force to apply once the fingers touch the object. Grip force to apply oncey")]
    force: f64,
) {
    let _ = force;
}

#[doc = concat!("Stop the arm. ", "Use it when something unexpected happens.")]
#[tool(max_description_bytes = 2048, max_param_description_bytes = 400)]
fn stop(
    /// Grip force to apply once the fingers touch the object. Grip force to apply once the fingers touch the object. Grip force to apply once the fingers touch the object. Grip force to apply once the fingers touch the object. Grip force to apply once the fingers touch the object. Grip force to apply oncey And a little more, allowed by the tool's budget.
    hard: bool,
    /// Grip force to apply once the fingers touch the object. Grip force to apply once the fingers touch the object. Grip force to apply once the fingers touch the object. Grip force to apply once the fingers touch the object. Grip force to apply once the fingers touch the object. Grip force to apply oncey And a little more, allowed by this parameter's budget.
    #[param(max_description_bytes = 500)]
    reason: Option<String>,
) {
    let _ = (hard, reason);
}

struct Arm;

#[toolbox(max_description_bytes = 1200)]
impl Arm {
    /// Move the arm's tool point in a straight line to a position in the robot base frame; use it to approach, retreat or carry a held object. Move the arm's tool point in a straight line to a position in the robot base frame; use it to approach, retreat or carry a held object. Move the arm's tool point in a straight line to a position in the robot base frame; use it to approach, retreat or carry a held object. Move the arm's tool point in a straight line to a position in the robot base frame; use it to approach, retreat or carry a held object. Move the arm's tool point in a straight line to a position in the robot base frame; use it to approach, retreat or carry a held object. Move the arm's tool point in a straight line to a position in the robot base frame; use it to approach, retreat or carry a held object. Move the arm's tool point in a straight line to a position in the robot base frame; use it to approach, retreat or carry a held object. Move the arm's tool point in a straight line to a position in the robotx And more, allowed by the toolbox's budget.
    #[tool]
    fn park(&self) {}
}

fn main() {
    let toolbox = tools![move_arm, stop].build().unwrap();
    assert_eq!(toolbox.tool("move_arm").unwrap().description.as_deref().map(str::len), Some(1024));
    assert_eq!(Toolbox::new(Arm).tools().len(), 1);
}
