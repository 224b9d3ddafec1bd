//! `allow(deep_nesting)` keeps deeper inputs (and leaves recursive types to the toolbox build).
use serde::Deserialize;
use toolwright::{ToolSchema, ToolSet, Toolbox, tool, tool_defs, toolbox};

/// A position.
#[derive(Deserialize, ToolSchema)]
struct Position {
    /// X coordinate.
    x: f64,
}

/// A waypoint.
#[derive(Deserialize, ToolSchema)]
struct Waypoint {
    /// Where.
    at: Position,
}

/// A plan.
#[derive(Deserialize, ToolSchema)]
struct Plan {
    /// Waypoints.
    waypoints: Vec<Waypoint>,
}

/// Follow a plan.
#[tool(allow(deep_nesting))]
fn follow(
    /// The plan (4 levels).
    plan: Plan,
) {
    let _ = plan.waypoints.len();
}

/// A tree.
#[derive(Deserialize, ToolSchema)]
struct Tree {
    /// Sub-trees.
    children: Vec<Tree>,
}

struct Planner;

#[toolbox(allow(deep_nesting))]
impl Planner {
    /// Check a list of plans.
    #[tool]
    fn check(
        &self,
        /// The plans (5 levels).
        plans: Vec<Plan>,
    ) {
        let _ = plans.len();
    }

    /// Walk a tree.
    #[tool]
    fn walk(
        &self,
        /// The tree.
        tree: Tree,
    ) {
        let _ = tree.children;
    }
}

fn main() {
    let follow = Toolbox::try_from_tools((), tool_defs![follow]).map(|t| t.tools().len());
    assert_eq!(follow.ok(), Some(1));
    // A recursive type still cannot be published: the toolbox build says so.
    assert!(Toolbox::try_from_tools(Planner, Planner::tools()).is_err());
}
