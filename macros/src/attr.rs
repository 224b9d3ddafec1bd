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
