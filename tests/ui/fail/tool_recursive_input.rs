use serde::Deserialize;
use toolwright::{ToolSchema, tool};

/// A tree of tasks.
#[derive(Deserialize, ToolSchema)]
struct Task {
    /// What to do.
    name: String,
    /// Sub-tasks, done first.
    subtasks: Vec<Task>,
}

/// Run a task tree.
#[tool]
fn run(
    /// The root task.
    task: Task,
) {
    let _ = (task.name, task.subtasks);
}

fn main() {}
