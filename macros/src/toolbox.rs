//! `#[toolbox] impl Type { #[tool] .. }`: the methods marked `#[tool]` become the tools of a
//! `ToolSet` implemented for `Type`.

use darling::FromMeta;
use darling::ast::NestedMeta;
use proc_macro2::TokenStream;
use quote::quote;
use syn::{ImplItem, ItemImpl};

use crate::attr::ToolboxAttr;
use crate::ctxt::Ctxt;
use crate::policy;
use crate::tool::{self, Site, ToolModel};

pub fn expand(args: TokenStream, input: TokenStream) -> TokenStream {
    let cx = Ctxt::new();
    let toolbox_attr = match NestedMeta::parse_meta_list(args) {
        Ok(list) => ToolboxAttr::from_list(&list).unwrap_or_else(|e| {
            cx.darling(e);
            ToolboxAttr::default()
        }),
        Err(e) => {
            cx.push(e);
            ToolboxAttr::default()
        }
    };
    let default_timeout = policy::timeout_ms(&cx, &toolbox_attr.timeout);
    if let Some(m) = &toolbox_attr.max_concurrency
        && **m == 0
    {
        cx.error_at(m.span(), "`max_concurrency` must be at least 1");
    }
    let mut item: ItemImpl = match syn::parse2(input.clone()) {
        Ok(item) => item,
        Err(e) => {
            let _ = cx.check();
            let mut err = syn::Error::new(
                e.span(),
                "`#[toolbox]` goes on an inherent `impl Type { .. }` block",
            );
            err.combine(e);
            let err = err.to_compile_error();
            return quote!(#err #input);
        }
    };
    if let Some((path, _)) = &item.trait_ {
        cx.error_spanned_by(
            path,
            "`#[toolbox]` goes on an inherent `impl Type { .. }` block, not a trait impl",
        );
    }
    if !item.generics.params.is_empty() {
        cx.error_spanned_by(
            &item.generics,
            "a `#[toolbox]` impl cannot be generic yet: implement it for a concrete type",
        );
    }
    let mut models: Vec<ToolModel> = Vec::new();
    for impl_item in item.items.iter_mut() {
        let ImplItem::Fn(method) = impl_item else {
            continue;
        };
        let Some(pos) = method.attrs.iter().position(tool::is_tool_attr) else {
            continue;
        };
        let tool_attr = method.attrs.remove(pos);
        if let Some(extra) = method.attrs.iter().find(|a| tool::is_tool_attr(a)) {
            cx.error_spanned_by(extra, "duplicate `#[tool]` attribute");
        }
        let args = match tool::tool_attr_args(&tool_attr) {
            Ok(args) => args,
            Err(e) => {
                cx.push(e);
                TokenStream::new()
            }
        };
        let attr = tool::parse_tool_attr(&cx, args);
        let model = ToolModel::from_fn(&cx, attr, &method.attrs, &mut method.sig, Site::Method);
        if let Some(first) = models.iter().find(|m| m.name() == model.name()) {
            cx.error_spanned_by(
                &method.sig.ident,
                format!(
                    "duplicate tool name `{}`: `{}` already declares it; tool names must be unique in a toolbox",
                    model.name(),
                    first.fn_ident()
                ),
            );
        }
        models.push(model);
    }
    if models.is_empty() && !cx.has_errors() {
        cx.error_spanned_by(
            &item.self_ty,
            "this `#[toolbox]` impl has no `#[tool]` methods",
        );
    }
    match cx.check() {
        Ok(()) => {
            let self_ty = &item.self_ty;
            let default_timeout = match default_timeout {
                Some(t) => quote!(::core::option::Option::Some(#t)),
                None => quote!(::core::option::Option::None),
            };
            let max_concurrency = match toolbox_attr.max_concurrency.as_ref().map(|m| **m) {
                Some(m) => quote!(::core::option::Option::Some(#m)),
                None => quote!(::core::option::Option::None),
            };
            let state = quote!(Self);
            let defs = models.iter().map(|m| {
                let ident = m.fn_ident();
                m.def_expr(&state, &quote!(Self::#ident))
            });
            quote! {
                #item
                #[allow(clippy::needless_update)]
                impl ::toolwright::ToolSet for #self_ty {
                    fn tools() -> ::toolwright::__private::Vec<::toolwright::__private::ToolDef<Self>> {
                        ::toolwright::__private::Vec::from([#(#defs),*])
                    }
                    fn server_info() -> (&'static str, &'static str) {
                        (::core::env!("CARGO_PKG_NAME"), ::core::env!("CARGO_PKG_VERSION"))
                    }
                    fn defaults() -> ::toolwright::ToolboxDefaults {
                        ::toolwright::ToolboxDefaults {
                            timeout_ms: #default_timeout,
                            max_concurrency: #max_concurrency,
                            ..::core::default::Default::default()
                        }
                    }
                }
            }
        }
        Err(e) => {
            let e = e.to_compile_error();
            quote!(#e #item)
        }
    }
}
