//! Procedural macros of [toolwright](https://docs.rs/toolwright). This crate is an
//! implementation detail: depend on `toolwright`, which re-exports these macros and documents
//! them.

mod attr;
mod case;
mod check;
mod ctxt;
mod derive;
mod doc;
mod list;
mod param;
mod policy;
mod runtime;
#[cfg(test)]
mod snapshots;
mod tool;
mod toolbox;
mod typecheck;
mod units;
mod util;

use proc_macro::TokenStream;

/// Turns a fn into an MCP tool. See `toolwright::reference` for every key.
///
/// # Compile-time checks
///
/// A definition that would mislead a model, or publish a limit the code does not enforce, does
/// not compile. Every mistake in the item is reported in the same build, each at the token at
/// fault; the fn itself is still emitted, so the rest of the crate keeps type-checking.
///
/// - **Descriptions**: the tool and each published parameter need a doc comment (or
///   `description = ".."`); empty or placeholder text (`TODO`, `FIXME: ..`, `...`,
///   `Parameter force`) is refused. A `Context` parameter is not published and needs none.
/// - **Budgets**: the tool description is at most 1024 bytes and each parameter description at
///   most 300 bytes (the error gives the actual size). `#[doc = include_str!(..)]` descriptions
///   are measured too, by a `const` check.
/// - **Names**: `name` matches `^[A-Za-z0-9_.-]{1,128}$` and is at most 64 characters (clients
///   prefix tool names); without `name`, the fn name must be snake_case.
/// - **Annotations**: `read_only` cannot be combined with `destructive` or `idempotent = false`.
/// - **Size**: at most 5 published parameters (a `#[param(flatten)]` struct counts its
///   properties), and the input nests at most 3 levels (each struct, list or map is a level; a
///   type that contains itself nests without end). A `JsonSchema` type not derived with
///   `ToolSchema` (such as `serde_json::Value`) counts as one level.
/// - **Signature**: no generics, `unsafe`, variadics or patterns; `&self` only (in a
///   `#[toolbox]` impl); owned parameter types (no references, lifetimes, `impl Trait` or trait
///   objects); a concrete, owned return type. A parameter type must implement `JsonSchema` and
///   `Deserialize`, a return type `JsonSchema` and `Serialize`, and the `Err` of a `Result`
///   must convert into `ToolError`: each missing trait is one error at the type.
/// - **`#[param]` keys**: see `ToolSchema`.
///
/// # Keys that relax the checks
///
/// | key | effect |
/// |---|---|
/// | `allow(many_params)` | more than 5 parameters |
/// | `allow(deep_nesting)` | input nested deeper than 3 levels |
/// | `allow(long_name)` | a tool name of 65 to 128 characters |
/// | `max_description_bytes = 2048` | the tool description's budget (default 1024) |
/// | `max_param_description_bytes = 500` | each parameter description's budget (default 300) |
///
/// The same keys on `#[toolbox(..)]` apply to every tool of the impl; a tool's own keys win. On a
/// single parameter, `#[param(max_description_bytes = 500)]` raises its budget alone.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, input: TokenStream) -> TokenStream {
    match runtime::split_crate_key(args.into()) {
        Ok((path, args)) => runtime::with_path(path, || tool::expand(args, input.into())).into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// Turns the `#[tool]` methods of an impl block into the tools of its type.
///
/// Takes the check keys of `#[tool]` as defaults for every tool of the impl:
/// `#[toolbox(allow(many_params, deep_nesting, long_name), max_description_bytes = 2048,
/// max_param_description_bytes = 500)]`; each tool's own keys win.
///
/// On top of the checks of each `#[tool]`, two tools with the same name are an error at the
/// second (naming the first), `#[param]` on a method without `#[tool]` is an error, and the impl
/// must be an inherent, non-generic `impl Type`.
#[proc_macro_attribute]
pub fn toolbox(args: TokenStream, input: TokenStream) -> TokenStream {
    match runtime::split_crate_key(args.into()) {
        Ok((path, args)) => runtime::with_path(path, || toolbox::expand(args, input.into())).into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// A `Toolbox<()>` from free `#[tool]` fns: `tools![move_arm, sensors::read]`.
#[proc_macro]
pub fn tools(input: TokenStream) -> TokenStream {
    list::expand_toolbox(input.into()).into()
}

/// The definitions of free `#[tool]` fns, to add to any toolbox: `tool_defs![move_arm]`.
#[proc_macro]
pub fn tool_defs(input: TokenStream) -> TokenStream {
    list::expand_defs(input.into()).into()
}

/// Derives `schemars::JsonSchema` and `toolwright::ToolSchema` from doc comments, `#[param]` and
/// serde attributes.
///
/// # Compile-time checks of `#[param]` (on fields here, and on `#[tool]` parameters)
///
/// - Every field (not `#[serde(skip)]`ped or flattened) needs a description, as tool parameters
///   do, within 300 bytes unless `#[param(max_description_bytes = N)]`; placeholders are refused.
/// - `unit` and `range` need a numeric type; `min_length`, `max_length` and `pattern` a string
///   type; `min_items` and `max_items` a list. Value keys apply through `Option` and to the items
///   of lists (`Vec<f64>` with `unit = "V"`), item keys to the list itself; a newtype deriving
///   `ToolSchema` takes the keys of its field. The error names the key and the type.
/// - `unit` must be a known unit (with a did-you-mean).
/// - `range`: no empty range (`30.0..=5.0`, `3..3`); each bound must fit the integer type
///   (`0..=300` on a `u8`, `-1..` on a `u32`, `0.5` on an integer). Bounds given by `const`s are
///   checked by `const` evaluation.
/// - `min_length <= max_length`, `min_items <= max_items`; `pattern` must be a valid regular
///   expression (the `regex` dialect the run-time validator uses).
/// - A literal `default` or example must be inside the range, within the lengths and match the
///   pattern; a `default` must have the parameter's type (`T` for an `Option<T>`), and a string
///   literal needs a type built from `&str`.
/// - Unknown keys are errors, with a did-you-mean.
/// - `#[param]` on a skipped field, on a tuple variant's field, or (as `rename`/`flatten`) where
///   serde's attribute is meant, is refused. `#[param]` on a type that does not derive
///   `ToolSchema` is an unknown attribute.
///
/// # serde attributes
///
/// The published schema follows serde's own attributes, so it describes exactly what serde
/// reads (input schemas) and writes (output schemas): `rename` and `rename_all` (each side of
/// `rename(serialize = .., deserialize = ..)` in its direction) on the type, its variants and
/// fields, `rename_all_fields`, `tag`, `content` and `untagged` on the enum, `default`, `skip`,
/// `skip_serializing`, `skip_deserializing` and `skip_serializing_if` on fields and variants,
/// `flatten` of a struct, and `transparent`. `alias` and `other` widen what serde accepts and are
/// left out of the schema; `deny_unknown_fields` changes nothing (input schemas refuse other
/// properties already). Attributes that give a value a form the fields do not show are compile
/// errors: `with`, `serialize_with` and `deserialize_with`, `from`, `try_from` and `into`, and
/// `untagged` on a single variant. A test derives a corpus of types over these attributes and
/// checks both directions on generated values (`tests/tests/serde_corpus.rs`).
///
/// The derive also computes the type's nesting depth and property count for `#[tool]`'s checks.
#[proc_macro_derive(ToolSchema, attributes(param, toolwright))]
pub fn derive_tool_schema(input: TokenStream) -> TokenStream {
    derive::expand(input.into()).into()
}
