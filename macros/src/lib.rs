//! Procedural macros of [toolwright](https://docs.rs/toolwright). This crate is an
//! implementation detail: depend on `toolwright`, which re-exports these macros and documents
//! them.

// Each macro runs the same pipeline: parse, model, check, generate; every mistake is collected
// in a `Ctxt` and reported together, and the item is still emitted without our attributes.

// Parse: the user's items (signatures, never bodies), our attributes (darling) and their policy
// keys, serde's with its rename rules, doc comments.
mod attr;
mod case;
mod doc;
mod item;
mod policy;
mod serde_attr;

// Model: one property type for tool parameters and struct fields; the tool's and the derived
// type's models live with their macros (`tool/model.rs`, `derive/model.rs`).
mod property;

// Check: what the macro can see (`check`, errors gathered in `ctxt`), what needs the types
// (`typecheck`, as `const` items), the unit vocabulary.
mod check;
mod ctxt;
mod typecheck;
mod units;

// The macros, each parse → model → check → codegen.
mod derive;
mod envelope;
mod list;
mod tool;
mod toolbox;

// A robot's description (URDF, limits, SRDF, meshes) read at compile time.
#[cfg(feature = "robot")]
mod robot;
mod robot_hook;

// Shared: the runtime path token, small helpers.
#[cfg(test)]
mod editing;
mod runtime;
#[cfg(test)]
mod snapshots;
mod util;

use proc_macro::TokenStream;

/// Turns a fn into an MCP tool. See `toolwright::reference` for every key.
///
/// # Compile-time checks
///
/// A definition that would mislead a model, or publish a limit the code does not enforce, does
/// not compile; the list, each check with its UI test, is in `toolwright::reference` ("What
/// the compiler checks").
///
/// # Keys that relax the checks
///
/// | key | effect |
/// |---|---|
/// | `allow(many_params)` | more than 5 parameters |
/// | `allow(deep_nesting)` | input nested deeper than 3 levels |
/// | `max_description_bytes = 2048` | the tool description's budget (default 1024) |
/// | `max_param_description_bytes = 500` | each parameter description's budget (default 300) |
///
/// The same keys on `#[toolbox(..)]` apply to every tool of the impl; a tool's own keys win. On a
/// single parameter, `#[param(max_description_bytes = 500)]` raises its budget alone.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, input: TokenStream) -> TokenStream {
    runtime::expand_attribute(args.into(), input.into(), tool::expand).into()
}

/// Turns the `#[tool]` methods of an impl block into the tools of its type.
///
/// Takes the check keys of `#[tool]` as defaults for every tool of the impl:
/// `#[toolbox(allow(many_params, deep_nesting), max_description_bytes = 2048,
/// max_param_description_bytes = 500)]`; each tool's own keys win.
///
/// On top of the checks of each `#[tool]`, two tools with the same name are an error at the
/// second (naming the first), `#[param]` on a method without `#[tool]` is an error, and the impl
/// must be an inherent, non-generic `impl Type`.
#[proc_macro_attribute]
pub fn toolbox(args: TokenStream, input: TokenStream) -> TokenStream {
    runtime::expand_attribute(args.into(), input.into(), toolbox::expand).into()
}

/// The builder of a `Toolbox<()>` of free `#[tool]` fns, named after the calling crate:
/// `tools![move_arm, sensors::read]`, then its `with_*` settings and `.build()` (or
/// `.run_cli()`).
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
/// Compile-time checks of `#[param]` and the serde attributes the schema follows or refuses:
/// `toolwright::reference` ("What the compiler checks").
///
/// The derive also computes the type's nesting depth and property count for `#[tool]`'s checks.
#[proc_macro_derive(ToolSchema, attributes(param, toolwright))]
pub fn derive_tool_schema(input: TokenStream) -> TokenStream {
    derive::expand(input.into()).into()
}

/// A robot read from its URDF at compile time, as a `RobotDef` expression (toolwright's own
/// tests and benchmarks; `#[toolbox]`'s `resource(robot(..))` reads the same keys).
#[doc(hidden)]
#[proc_macro]
pub fn __robot_def(input: TokenStream) -> TokenStream {
    #[cfg(feature = "robot")]
    {
        robot::codegen::expand(input.into()).into()
    }
    #[cfg(not(feature = "robot"))]
    {
        let _ = input;
        quote::quote!(::core::compile_error!(
            "reading a robot's URDF needs toolwright's `robot` feature"
        ))
        .into()
    }
}
