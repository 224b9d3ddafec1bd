//! The attributes as the user writes them, parsed by darling. Nothing is resolved here; darling
//! reports unknown keys with a did-you-mean.
//!
//! To add a key: add a field here (with a doc comment showing its syntax), then read it in
//! `tool/model.rs` (`ToolModel::from_fn`) or `property.rs` (`#[param]`, for tool parameters and
//! struct fields alike).

use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::util::{Flag, PreservedStrExpr, SpannedValue};

use crate::ctxt::Ctxt;

/// Parses `items` into `T`. On error, reports it, then parses again without the items that fail
/// on their own (an unknown key, a value of the wrong kind), so the other keys are still read and
/// checked in the same compile.
pub fn parse_lenient<T: FromMeta + Default>(cx: &Ctxt, items: &[NestedMeta]) -> T {
    match T::from_list(items) {
        Ok(t) => t,
        Err(e) => {
            cx.darling(e);
            let valid: Vec<NestedMeta> = items
                .iter()
                .filter(|item| T::from_list(std::slice::from_ref(*item)).is_ok())
                .cloned()
                .collect();
            T::from_list(&valid).unwrap_or_default()
        }
    }
}

/// Drops, with an error naming the `#[param]` key to write instead, the items keyed by JSON
/// Schema's (or another library's) name for something `#[param]` spells its own way: darling's
/// did-you-mean goes by spelling, and would answer `minimum` with `min_items`.
pub fn without_foreign_param_keys(cx: &Ctxt, items: Vec<NestedMeta>) -> Vec<NestedMeta> {
    items
        .into_iter()
        .filter(|item| {
            let NestedMeta::Meta(meta) = item else {
                return true;
            };
            let Some(key) = meta.path().get_ident().map(ToString::to_string) else {
                return true;
            };
            let Some(instead) = foreign_param_key(&key) else {
                return true;
            };
            cx.error_spanned_by(meta.path(), format!("`#[param]` has no `{key}`: {instead}"));
            false
        })
        .collect()
}

/// What to write instead of a key borrowed from JSON Schema, pydantic or zod.
fn foreign_param_key(key: &str) -> Option<&'static str> {
    Some(match key {
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "exclusive_minimum"
        | "exclusive_maximum" | "min" | "max" | "ge" | "le" | "gt" | "lt" => {
            "bounds are one Rust range, `range = 0.0..=1.0` (both), `range = 0.0..` (at least), \
             `range = ..=1.0` (at most), `range = 0.0..1.0` (upper bound excluded)"
        }
        "minLength" => "write `min_length = ..`",
        "maxLength" => "write `max_length = ..`",
        "minItems" => "write `min_items = ..`",
        "maxItems" => "write `max_items = ..`",
        "x_mcp_header" | "mcp_header" | "http_header" => {
            "write `header = \"Region\"` (published as `x-mcp-header`: the client sends the \
             argument as `Mcp-Param-Region`)"
        }
        "enum" | "choices" | "one_of" => {
            "a fixed set of values is a unit-only enum deriving `ToolSchema` (a doc comment on \
             each variant says what it means), used as the parameter's type"
        }
        _ => return None,
    })
}

/// The items of `#[name(..)]` (none for `#[name]`).
pub fn meta_items(cx: &Ctxt, meta: &syn::Meta) -> Vec<NestedMeta> {
    match meta {
        syn::Meta::Path(_) => Vec::new(),
        syn::Meta::List(list) => {
            NestedMeta::parse_meta_list(list.tokens.clone()).unwrap_or_else(|e| {
                cx.push(e);
                Vec::new()
            })
        }
        syn::Meta::NameValue(nv) => {
            cx.error_spanned_by(
                nv,
                "write the keys in parentheses: `#[param(key = value, ..)]`",
            );
            Vec::new()
        }
    }
}

/// `confirm = ".."` (the question) or `confirm = false` (no one confirms, with `because`).
pub enum Confirm {
    /// The question the user confirms each call with.
    Ask(String),
    /// `confirm = false`.
    No,
    /// `confirm = true`: a mistake, reported where the tool is checked (so that it is the only
    /// error: the tool is not also told it lacks a confirmation).
    True,
}

impl FromMeta for Confirm {
    fn from_string(value: &str) -> darling::Result<Self> {
        Ok(Confirm::Ask(value.to_owned()))
    }

    fn from_bool(value: bool) -> darling::Result<Self> {
        Ok(if value { Confirm::True } else { Confirm::No })
    }
}

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
    /// `grace = "500ms"`: how long the body has to return once told to stop (deadline, cancel)
    pub grace: Option<SpannedValue<String>>,
    /// `blocking = false`: a sync body that never blocks runs on the async runtime instead of
    /// tokio's blocking pool (sync fns only)
    pub blocking: Option<SpannedValue<bool>>,
    /// `scopes = ["arm:move"]`: OAuth scopes an access token needs to call the tool over HTTP
    pub scopes: Option<PreservedStrExpr>,
    /// `rate_limit = "10/min"`: calls one client may make to this tool (`/s`, `/min`, `/h`, `/day`)
    pub rate_limit: Option<SpannedValue<String>>,
    /// `confirm = "Move the arm to ({x}, {y}, {z})?"`: the user confirms each call before the
    /// body runs; `{param}` is the validated argument with its unit. `confirm = false` (with
    /// `because`): no one needs to confirm a tool that holds a resource and acts
    pub confirm: Option<SpannedValue<Confirm>>,
    /// `because = ".."` with `confirm = false`: why no one needs to confirm the tool (published)
    pub because: Option<SpannedValue<String>>,
    /// `stop_for = "arm"` or `stop_for = ["arm", "gripper"]`: a stop tool, never queued,
    /// rate-limited or confirmed, that stops every call on those resources of the toolbox
    pub stop_for: Option<PreservedStrExpr>,
    /// `task = "optional"` or `task = "required"` (default `"forbidden"`): the tool may (must)
    /// run as an MCP task, which the client polls, and which outlives its request
    pub task: Option<SpannedValue<String>>,
    /// `projection` / `projection = false`: the tool accepts `jmespath`, a projection of its
    /// result applied after it ran (`false` turns the toolbox's `projection` off for this tool)
    pub projection: Option<SpannedValue<bool>>,
    /// `summary`: the tool accepts `summary: true`, the lists of its result as counts and samples
    pub summary: Option<SpannedValue<bool>>,
    /// `over_budget = "envelope"` (or `"cut"`, the default): what a result over
    /// `max_output_bytes` becomes
    pub over_budget: Option<SpannedValue<String>>,
    /// `target = (x, y, z)` (three number parameters) or `target = position` (one point
    /// parameter): where the tool moves its resource, checked against the resource's envelope
    pub target: Option<syn::Expr>,
    /// `path = waypoints`: a list parameter of points the tool moves its resource through, each
    /// straight segment checked against the resource's envelope
    pub path: Option<syn::Expr>,
    /// `check = drive_limits`: a method of the `#[toolbox]` impl taking `&self` and some of the
    /// tool's parameters by name, returning `Result<(), E>`; run before the user is asked and
    /// again at the call's turn, its `Err` refuses the call
    pub check: Option<syn::Path>,
    // Compile-time check settings (see `Allow`).
    /// `allow(many_params, deep_nesting)`: checks turned off for this tool
    pub allow: Option<Allow>,
    /// `max_description_bytes = 2048` (default 1024): the tool description's budget
    pub max_description_bytes: Option<usize>,
    /// `max_param_description_bytes = 500` (default 300): each parameter description's budget
    pub max_param_description_bytes: Option<usize>,
}

/// `#[toolbox(..)]`: defaults for every tool of the impl block (each tool's own keys win).
#[derive(Default, FromMeta)]
#[darling(default)]
pub struct ToolboxAttr {
    /// `timeout = "30s"`: the deadline of tools that declare none
    pub timeout: Option<SpannedValue<String>>,
    /// `max_concurrency = 4`: calls running at once across all tools
    pub max_concurrency: Option<SpannedValue<usize>>,
    /// `grace = "2s"`: the grace period of tools that declare none
    pub grace: Option<SpannedValue<String>>,
    /// `client_rate_limit = "120/min"`: calls one client may make to all tools together
    pub client_rate_limit: Option<SpannedValue<String>>,
    /// `projection`: every tool accepts `jmespath` (a tool's `projection = false` opts out)
    pub projection: Flag,
    /// `resource(name = "arm", safe_stop = halt, max_waiting = 8)`, once per resource
    #[darling(multiple, rename = "resource")]
    pub resources: Vec<ResourceAttr>,
    /// `allow(..)`, as on `#[tool]`, for every tool
    pub allow: Option<Allow>,
    /// `max_description_bytes = 2048`, for every tool
    pub max_description_bytes: Option<usize>,
    /// `max_param_description_bytes = 500`, for every tool
    pub max_param_description_bytes: Option<usize>,
}

/// `resource(..)` on `#[toolbox]`: what the toolbox knows about a resource its tools share.
#[derive(FromMeta)]
pub struct ResourceAttr {
    /// `name = "arm"`: the name tools give in `resource = ".."`
    pub name: SpannedValue<String>,
    /// `safe_stop = halt`: a method of the impl, taking only `&self`, that brings the resource
    /// to a known state; run when a call holding it ends early
    #[darling(default)]
    pub safe_stop: Option<syn::Path>,
    /// `max_waiting = 8` (default 16): calls that may wait for it behind the one using it
    #[darling(default)]
    pub max_waiting: Option<SpannedValue<usize>>,
    /// `position = tool_point`: a method of the impl taking only `&self` that says where the
    /// resource is now, in its envelope's frame and unit
    #[darling(default)]
    pub position: Option<syn::Path>,
    /// `envelope(frame = "base", unit = "mm", allow(..), keep_out(..), ..)`: where it may go
    #[darling(default)]
    pub envelope: Option<SpannedValue<EnvelopeAttr>>,
}

/// `envelope(..)` on a `resource(..)`.
#[derive(FromMeta)]
pub struct EnvelopeAttr {
    /// `frame = "base"`: the frame every coordinate is in
    pub frame: SpannedValue<String>,
    /// `unit = "mm"`: the unit of every coordinate, radius and length
    pub unit: SpannedValue<String>,
    /// `tool_radius = 15`: the radius of the ball around the tool point that must stay inside
    /// (default 0, a point)
    #[darling(default)]
    pub tool_radius: Option<syn::Expr>,
    /// `allow(box(..))`, `allow(name = "reach", sphere(..))`: the tool must be inside every one
    #[darling(multiple)]
    pub allow: Vec<SpannedValue<ShapeAttr>>,
    /// `keep_out(name = "camera_mast", cylinder(..))`: the tool must not meet any
    #[darling(multiple)]
    pub keep_out: Vec<SpannedValue<ShapeAttr>>,
    /// `max_step = 600`: the longest one straight motion may be
    #[darling(default)]
    pub max_step: Option<syn::Expr>,
}

/// One shape of an envelope: its name and one solid.
#[derive(FromMeta)]
pub struct ShapeAttr {
    /// `name = "camera_mast"` (required on a keep-out)
    #[darling(default)]
    pub name: Option<SpannedValue<String>>,
    /// `box(min = (x, y, z), max = (x, y, z))`: an axis-aligned box
    #[darling(default, rename = "box")]
    pub cuboid: Option<SpannedValue<BoxAttr>>,
    /// `sphere(center = (x, y, z), radius = r)`
    #[darling(default)]
    pub sphere: Option<SpannedValue<SphereAttr>>,
    /// `cylinder(center = (x, y), radius = r, z = (bottom, top))`: a vertical cylinder
    #[darling(default)]
    pub cylinder: Option<SpannedValue<CylinderAttr>>,
}

/// `box(min = (x, y, z), max = (x, y, z))`.
#[derive(FromMeta)]
pub struct BoxAttr {
    /// The corner with the smallest coordinates.
    pub min: syn::Expr,
    /// The corner with the largest coordinates.
    pub max: syn::Expr,
}

/// `sphere(center = (x, y, z), radius = r)`.
#[derive(FromMeta)]
pub struct SphereAttr {
    /// Its centre.
    pub center: syn::Expr,
    /// Its radius.
    pub radius: syn::Expr,
}

/// `cylinder(center = (x, y), radius = r, z = (bottom, top))`.
#[derive(FromMeta)]
pub struct CylinderAttr {
    /// Its axis's x and y.
    pub center: syn::Expr,
    /// Its radius.
    pub radius: syn::Expr,
    /// Its bottom and top.
    pub z: syn::Expr,
}

/// `allow(..)`: compile-time checks turned off on purpose.
#[derive(Default, FromMeta)]
#[darling(default)]
pub struct Allow {
    /// More than 5 parameters.
    pub many_params: Flag,
    /// Input nested deeper than 3 levels.
    pub deep_nesting: Flag,
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
    pub flatten: Flag,
    /// `header = "Region"`: over HTTP, the client mirrors the argument into the header
    /// `Mcp-Param-Region` (published as `x-mcp-header`; tool parameters only)
    pub header: Option<SpannedValue<String>>,
    /// `max_description_bytes = 500` (default: the tool's `max_param_description_bytes`, 300)
    pub max_description_bytes: Option<SpannedValue<usize>>,
}
