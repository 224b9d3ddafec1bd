//! `tools![a, b]` (a toolbox's builder) and `tool_defs![a, b]`: free `#[tool]` fns by path.

use proc_macro2::TokenStream;
use quote::quote;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Path, Token};

use crate::tool::def_fn_ident;

fn def_paths(input: TokenStream) -> syn::Result<Vec<Path>> {
    let paths = Punctuated::<Path, Token![,]>::parse_terminated.parse2(input)?;
    Ok(paths
        .into_iter()
        .map(|mut path| {
            if let Some(last) = path.segments.last_mut() {
                last.ident = def_fn_ident(&last.ident);
            }
            path
        })
        .collect())
}

/// `tool_defs![a, m::b]`: a `Vec<ToolDef<S>>`, `S` inferred.
pub fn expand_defs(input: TokenStream) -> TokenStream {
    let p = crate::runtime::private();
    match def_paths(input) {
        Ok(paths) => quote!(#p::Vec::from([#(#paths()),*])),
        Err(e) => e.to_compile_error(),
    }
}

/// `tools![a, m::b]`: a `ToolboxBuilder<()>` of these tools, named after the calling crate.
pub fn expand_toolbox(input: TokenStream) -> TokenStream {
    let k = crate::runtime::krate();
    let p = crate::runtime::private();
    match def_paths(input) {
        Ok(paths) => quote! {
            #k::ToolboxBuilder::<()>::new(())
                .with_tools(#p::Vec::from([#(#paths()),*]))
                .with_server_info(::core::env!("CARGO_PKG_NAME"), ::core::env!("CARGO_PKG_VERSION"))
        },
        Err(e) => e.to_compile_error(),
    }
}
