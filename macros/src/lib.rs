//! Procedural macros of [toolwright](https://docs.rs/toolwright). This crate is an
//! implementation detail: depend on `toolwright`, which re-exports these macros and documents
//! them.

mod attr;
mod case;
mod ctxt;
mod derive;
mod doc;
mod list;
mod param;
mod policy;
mod tool;
mod toolbox;
mod units;
mod util;

use proc_macro::TokenStream;

/// Turns a fn into an MCP tool. See `toolwright::tool` for the attribute reference.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, input: TokenStream) -> TokenStream {
    tool::expand(args.into(), input.into()).into()
}

/// Turns the `#[tool]` methods of an impl block into the tools of its type.
#[proc_macro_attribute]
pub fn toolbox(args: TokenStream, input: TokenStream) -> TokenStream {
    toolbox::expand(args.into(), input.into()).into()
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
#[proc_macro_derive(ToolSchema, attributes(param))]
pub fn derive_tool_schema(input: TokenStream) -> TokenStream {
    derive::expand(input.into()).into()
}
