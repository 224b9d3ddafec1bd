//! The attributes as the user writes them, parsed by darling. Nothing is resolved here.

use darling::FromMeta;
use darling::util::{PreservedStrExpr, SpannedValue};

/// `#[tool(..)]`.
#[derive(Default, FromMeta)]
#[darling(default)]
pub struct ToolAttr {
    /// `name = "move_arm"`
    pub name: Option<SpannedValue<String>>,
    /// `title = "Move arm"`
    pub title: Option<SpannedValue<String>>,
    /// `description = ".."` (instead of a doc comment)
    pub description: Option<SpannedValue<String>>,
    /// `read_only` / `read_only = false`
    pub read_only: Option<SpannedValue<bool>>,
    /// `destructive`
    pub destructive: Option<SpannedValue<bool>>,
    /// `idempotent`
    pub idempotent: Option<SpannedValue<bool>>,
    /// `open_world`
    pub open_world: Option<SpannedValue<bool>>,
    /// `timeout = "3s"`: deadline for waiting for resources and running
    pub timeout: Option<SpannedValue<String>>,
    /// `resource = "arm"` or `resource = ["arm", "gripper"]`: calls sharing one run one at a time
    pub resource: Option<PreservedStrExpr>,
    /// `retry = 2`: extra attempts on timeout or retryable errors (read_only/idempotent tools only)
    pub retry: Option<SpannedValue<u32>>,
    /// `max_output_bytes = 65536`: larger results are cut on structure
    pub max_output_bytes: Option<SpannedValue<usize>>,
    /// `group = "arm"`: served and enabled together
    pub group: Option<SpannedValue<String>>,
}

/// `#[toolbox(..)]`: defaults for every tool of the impl block.
#[derive(Default, FromMeta)]
#[darling(default)]
pub struct ToolboxAttr {
    /// `timeout = "30s"`: the deadline of tools that declare none
    pub timeout: Option<SpannedValue<String>>,
    /// `max_concurrency = 4`: calls running at once across all tools
    pub max_concurrency: Option<SpannedValue<usize>>,
}

/// `#[param(..)]` on a fn argument or a struct field.
#[derive(Default, FromMeta)]
#[darling(default)]
pub struct ParamAttr {
    /// `unit = "mm"`
    pub unit: Option<SpannedValue<String>>,
    /// `range = 5.0..=30.0`, `0..10`, `0.0..`, `..=1.0`
    pub range: Option<PreservedStrExpr>,
    /// `default = 15.0`
    pub default: Option<PreservedStrExpr>,
    /// `examples = [10.0, 20.0]`
    pub examples: Option<PreservedStrExpr>,
    /// `min_length = 1`
    pub min_length: Option<SpannedValue<u64>>,
    /// `max_length = 64`
    pub max_length: Option<SpannedValue<u64>>,
    /// `pattern = "^[a-z]+$"`
    pub pattern: Option<SpannedValue<String>>,
    /// `min_items = 2`
    pub min_items: Option<SpannedValue<u64>>,
    /// `max_items = 100`
    pub max_items: Option<SpannedValue<u64>>,
    /// `rename = "targetPosition"`
    pub rename: Option<SpannedValue<String>>,
    /// `description = ".."`
    pub description: Option<SpannedValue<String>>,
    /// `flatten`: this struct argument supplies all properties
    pub flatten: darling::util::Flag,
}
