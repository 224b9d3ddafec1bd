use toolwright::tool;

/// Read the gripper state. MCP allows the dot; the OpenAI and Anthropic APIs do not.
#[tool(name = "gripper.state")]
fn gripper_state() {}

/// `allow(long_name)` is gone: no client takes a name over 64 characters.
#[tool(allow(long_name))]
fn move_arm() {}

fn main() {}
