//! # Attribute reference
//!
//! Everything a declaration can say, and what each key becomes in the published schema and in
//! the run-time check. Every published constraint is enforced before the function body runs.
//!
//! ## `#[tool]` — on a fn or on a method in a `#[toolbox] impl`
//!
//! | key | example | effect |
//! |---|---|---|
//! | *(doc comment)* | `/// Move the arm to …` | the tool's `description` (required) |
//! | `description` | `description = "…"` | instead of the doc comment |
//! | `name` | `name = "move_arm"` | the tool name (default: the fn name) |
//! | `title` | `title = "Move arm"` | `title`, and `annotations.title` |
//! | `read_only` | `read_only` or `read_only = false` | `annotations.readOnlyHint`; implies `idempotentHint: true`, `destructiveHint: false` |
//! | `destructive` | `destructive = false` | `annotations.destructiveHint` |
//! | `idempotent` | `idempotent` | `annotations.idempotentHint` |
//! | `open_world` | `open_world = false` | `annotations.openWorldHint` |
//! | `timeout` | `timeout = "3s"` (`ms`, `s`, `min`, `h`) | the call's deadline, waiting for resources included: past it the call's future is dropped and the result is `isError` "timed out after 3 s" (saying whether it was still waiting for a resource); the server keeps serving |
//! | `resource` | `resource = "arm"`, `resource = ["arm", "gripper"]` | calls that share a resource run one at a time, in arrival order; calls with no shared resource run concurrently |
//! | `retry` | `retry = 2` | extra attempts after a timeout or an error marked [`ToolError::retryable`](crate::ToolError::retryable); only on `read_only` or `idempotent` tools (a compile error otherwise: retrying a write can repeat it) |
//! | `max_output_bytes` | `max_output_bytes = 65536` | a larger result is cut on structure (items of its largest array, never bytes inside a value), with a note saying what was cut and how to ask for the rest, and `_meta["io.toolwright/truncated"]` |
//! | `group` | `group = "arm"` | tools of a group are served, listed and enabled together ([`Toolbox::only_groups`](crate::Toolbox::only_groups), [`Toolbox::enable_group`](crate::Toolbox::enable_group)) |
//!
//! | `allow(..)` | `allow(many_params, deep_nesting, long_name)` | lifts a compile-time limit: more than 5 parameters, input nested deeper than 3 levels, a name of 65 to 128 characters |
//! | `max_description_bytes` | `max_description_bytes = 2048` | the tool description's budget (default 1,024 bytes; over it is a compile error with the size) |
//! | `max_param_description_bytes` | `max_param_description_bytes = 500` | each parameter description's budget (default 300 bytes) |
//!
//! `#[param(max_description_bytes = N)]` raises the budget of one parameter or field.
//!
//! ## `#[toolbox]` — on an inherent `impl` block
//!
//! | key | example | effect |
//! |---|---|---|
//! | `allow(..)`, `max_description_bytes`, `max_param_description_bytes` | as on `#[tool]` | defaults for its tools (a tool's own keys win) |
//! | `timeout` | `timeout = "30s"` | the deadline of its tools that declare none |
//! | `max_concurrency` | `max_concurrency = 4` | at most this many calls run at once across all tools; the others wait in arrival order |
//!
//! Every call runs in a `tracing` span `tool_call` with the tool name, a trace id, the outcome and
//! the duration; the trace id is also returned in the result's `_meta["io.toolwright/traceId"]`
//! (a client's W3C `traceparent` is adopted when it sends one). A [`Context`](crate::Context)
//! parameter gives the trace id, progress notifications and cancellation to the body.
//!
//! Parameters are plain typed arguments. A sync tool runs on the server's task (keep it short;
//! use `async` for anything that waits). A method takes `&self`: the toolbox's shared state.
//! A parameter of type [`Context`](crate::Context) is filled from the call and not published.
//!
//! The return type `T` or `Result<T, E>` (`E: Into<ToolError>`) decides the output: an object
//! `T` (a struct) gives `outputSchema` and `structuredContent` plus the same JSON as text; any
//! other serializable `T` is wrapped as `{"result": …}`; a `String` is returned as text only;
//! `()` returns the text `ok`. `Err` and panics become `isError` results.
//!
//! ## `#[param]` — on a tool's arguments and on fields of `#[derive(ToolSchema)]` types
//!
//! | key | example | schema | checked at run time |
//! |---|---|---|---|
//! | *(doc comment)* | `/// Grip force.` | `description` | – |
//! | `description` | `description = "…"` | `description` | – |
//! | `unit` | `unit = "N"` | `x-unit`, and the unit in words in `description` | in messages (`must be between 5 and 30 N`) |
//! | `range` | `5.0..=30.0`, `0.0..1.0`, `0..`, `..=10` | `minimum`, `maximum` / `exclusiveMaximum`, intersected with the integer type's width | yes |
//! | `default` | `default = 15.0` | `default`; the property is not `required` | the default is filled in when absent |
//! | `examples` | `examples = [10.0, 20.0]` | `examples` | – |
//! | `min_length`, `max_length` | `max_length = 64` | `minLength`, `maxLength` (characters) | yes |
//! | `pattern` | `pattern = "^[a-z_]+$"` | `pattern` (unanchored, as JSON Schema) | yes |
//! | `min_items`, `max_items` | `min_items = 2` | `minItems`, `maxItems` | yes |
//! | `rename` | `rename = "targetPosition"` | the property name (fn arguments only; on fields use `#[serde(rename)]`) | – |
//! | `flatten` | `#[param(flatten)] args: MoveArgs` | the struct's fields are the tool's properties (only parameter) | yes |
//!
//! `unit`, `range`, `min_length`, `max_length` and `pattern` describe the value: on a `Vec<T>`
//! (or `Option<Vec<T>>`) they apply to each item, while `min_items`/`max_items` apply to the
//! array. Units come from a fixed vocabulary (SI and robotics: `mm`, `m`, `deg`, `rad`, `N`,
//! `N·m`, `s`, `ms`, `Hz`, `mm/s`, `rad/s`, `%`, `°C`, `V`, `A`, `W`, `Pa`, `kg`, …); an unknown
//! unit is a compile error with a did-you-mean.
//!
//! ## Types
//!
//! - `Option<T>`: optional, not nullable (in lax mode an explicit `null` counts as absent).
//! - Integers: `type: integer` with the width as `minimum`/`maximum` (`u8` → 0..255; 64-bit types
//!   publish only the bounds a JSON number states exactly), intersected with `range`. No
//!   `format`s are published.
//! - `Vec<T>`: `array` with `items`; `HashMap<String, T>`: `object` with `additionalProperties`.
//! - `#[derive(ToolSchema)]` structs: inline objects (`additionalProperties: false` on input),
//!   properties in declaration order, honouring serde's `rename`, `rename_all`, `default`, `skip`,
//!   `skip_serializing_if` and `flatten`.
//! - `#[derive(ToolSchema)]` unit-only enums: `type: string` + `enum` with serde's names, the
//!   variants' doc comments folded into the description (`Options: parallel: two-finger jaw; …`).
//!   Data-carrying enums follow serde's representation (external, `tag`, `tag` + `content`,
//!   `untagged`) as `oneOf`/`anyOf`.
//! - Any other type implementing `schemars::JsonSchema + DeserializeOwned` is accepted: its
//!   schema is inlined and normalized, and every keyword toolwright knows is enforced; anything
//!   else about it is checked by serde only.
//! - Recursive types cannot be inlined and are refused when the toolbox is built, naming the path.
//!
//! ## Calls
//!
//! Arguments are validated against the published schema first; all violations come back in one
//! `isError` result naming each path, the expectation with its unit, and the value received.
//! Lax mode (the default; [`Toolbox::strict`](crate::Toolbox::strict) turns it off) accepts
//! `"15"` for a number, `5.0` for an integer, `"true"` for a boolean and `null` for an optional
//! argument. An unknown tool is a JSON-RPC error `-32602` naming the available tools. Arguments
//! larger than 1 MiB of JSON (configurable with
//! [`Toolbox::with_max_argument_bytes`](crate::Toolbox::with_max_argument_bytes)) are refused
//! with an `isError` result before validation.
