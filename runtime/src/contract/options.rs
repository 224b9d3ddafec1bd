//! What a tool declares about its results (`#[tool(projection, summary, over_budget = "..")]`):
//! part of what generated code builds ([`ToolMeta::results`](super::ToolMeta::results)), which
//! `crate::output` honours.

/// What a tool offers around its results, as `#[tool(projection, summary, over_budget = "..")]`
/// (or `#[toolbox(projection)]`) declares it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ResultOptions {
    /// `projection`: the tool accepts `jmespath`, applied to its result after it ran.
    pub projection: bool,
    /// `summary`: the tool accepts `summary: true`, its lists as counts and samples.
    pub summary: bool,
    /// `over_budget = "envelope"`: what a result over `max_output_bytes` becomes.
    pub over_budget: OverBudget,
    /// `projection` comes from the toolbox (`#[toolbox(projection)]`): it is left off, without
    /// a problem, for tools whose result cannot be projected (text, `()`, content blocks).
    pub projection_from_toolbox: bool,
}

/// What a tool answers when its result is over its `max_output_bytes`
/// (`#[tool(over_budget = "envelope")]`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OverBudget {
    /// Cut the result on items of its largest array (or a text at a line), with a note (the
    /// default). The result keeps its shape.
    #[default]
    Cut,
    /// Answer `{"_budget_exceeded": true, "budget_bytes": .., "actual_bytes": .., "hint": ..}`
    /// instead, so the model asks for less (with `jmespath` or `summary` when the tool accepts
    /// them).
    Envelope,
}
