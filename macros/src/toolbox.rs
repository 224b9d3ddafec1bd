//! `#[toolbox] impl Type { #[tool] .. }`: the methods marked `#[tool]` become the tools of a
//! `ToolSet` implemented for `Type`.

use darling::ast::NestedMeta;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, ImplItem, ImplItemFn, ItemImpl, ReturnType, Type};

use crate::attr::{ResourceAttr, ToolboxAttr};
use crate::ctxt::Ctxt;
use crate::policy;
use crate::property;
use crate::tool::{self, Site, ToolModel};

pub fn expand(args: TokenStream, input: TokenStream) -> TokenStream {
    let (p, k) = (crate::runtime::private(), crate::runtime::krate());
    let cx = Ctxt::new();
    let toolbox_attr = match NestedMeta::parse_meta_list(args) {
        Ok(list) => crate::attr::parse_lenient(&cx, &list),
        Err(e) => {
            cx.push(e);
            ToolboxAttr::default()
        }
    };
    let default_timeout = policy::timeout_ms(&cx, &toolbox_attr.timeout);
    let default_grace = policy::grace_ms(&cx, &toolbox_attr.grace);
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
    // Whether a `ToolSet` impl can be generated for the type at all.
    let mut impl_ok = true;
    if let Some((path, _)) = &item.trait_ {
        impl_ok = false;
        cx.error_spanned_by(
            path,
            "`#[toolbox]` goes on an inherent `impl Type { .. }` block, not a trait impl",
        );
    }
    if !item.generics.params.is_empty() {
        impl_ok = false;
        cx.error_spanned_by(
            &item.generics,
            "a `#[toolbox]` impl cannot be generic yet: implement it for a concrete type",
        );
    }
    let mut models: Vec<ToolModel> = Vec::new();
    let mut checks = Vec::new();
    for impl_item in item.items.iter_mut() {
        let ImplItem::Fn(method) = impl_item else {
            continue;
        };
        let Some(pos) = method.attrs.iter().position(tool::is_tool_attr) else {
            // `#[param]` only means something on a tool: say so rather than let rustc report an
            // unknown attribute.
            for input in method.sig.inputs.iter_mut() {
                let attrs = match input {
                    FnArg::Typed(pt) => &mut pt.attrs,
                    FnArg::Receiver(r) => &mut r.attrs,
                };
                if let Some(a) = attrs.iter().find(|a| property::is_param(a)) {
                    cx.error_spanned_by(
                        a,
                        format!(
                            "`#[param]` only applies to the parameters of a tool: add `#[tool]` to `{}`, or remove `#[param]`",
                            method.sig.ident
                        ),
                    );
                }
                attrs.retain(|a| !property::is_param(a));
            }
            continue;
        };
        let tool_attr = method.attrs.remove(pos);
        if let Some(extra) = method.attrs.iter().find(|a| tool::is_tool_attr(a)) {
            cx.error_spanned_by(
                extra,
                "duplicate `#[tool]` attribute: put every key in one `#[tool(..)]`",
            );
        }
        method.attrs.retain(|a| !tool::is_tool_attr(a));
        let args = match tool::tool_attr_args(&tool_attr) {
            Ok(args) => args,
            Err(e) => {
                cx.push(e);
                TokenStream::new()
            }
        };
        let attr = tool::parse_tool_attr(&cx, args);
        let mut model = ToolModel::from_fn(
            &cx,
            attr,
            Some(&toolbox_attr),
            &method.attrs,
            &mut method.sig,
            Site::Method,
        );
        checks.push(model.take_checks());
        if let Some(first) = models.iter().find(|m| m.name() == model.name()) {
            cx.error_at(
                model.name_span(),
                format!(
                    "duplicate tool name `{}`: the method `{}` above already declares it; tool names must be unique in a toolbox (rename one of them, or set `#[tool(name = \"..\")]`)",
                    model.name(),
                    first.fn_ident()
                ),
            );
        }
        models.push(model);
    }
    let resources = resources(&cx, &toolbox_attr.resources, &models, &item);
    if models.is_empty() && !cx.has_errors() {
        cx.error_spanned_by(
            &item.self_ty,
            "this `#[toolbox]` impl has no `#[tool]` methods: mark the methods to publish with `#[tool]`",
        );
    }
    let errors = cx.check().err().map(|e| e.to_compile_error());
    let self_ty = &item.self_ty;
    let checks: Vec<TokenStream> = if impl_ok {
        checks
            .into_iter()
            .map(|c| c.into_tokens(Some(self_ty)))
            .collect()
    } else {
        Vec::new()
    };
    // The `ToolSet` impl is generated next to errors too (with the tools whose signature can be
    // served), so uses of the type add no error of their own.
    let tool_set = impl_ok.then(|| {
        let default_timeout = match default_timeout {
            Some(t) => quote!(::core::option::Option::Some(#t)),
            None => quote!(::core::option::Option::None),
        };
        let max_concurrency = match toolbox_attr.max_concurrency.as_ref().map(|m| **m) {
            Some(m) => quote!(::core::option::Option::Some(#m)),
            None => quote!(::core::option::Option::None),
        };
        let client_rate_limit = policy::rate_tokens(&toolbox_attr.client_rate_limit);
        let default_grace = match default_grace {
            Some(g) => quote!(::core::option::Option::Some(#g)),
            None => quote!(::core::option::Option::None),
        };
        let state = quote!(Self);
        let defs = models.iter().filter(|m| m.servable()).map(|m| {
            let ident = m.fn_ident();
            m.def_expr(&state, &quote!(Self::#ident), Some(self_ty))
        });
        quote! {
            #[allow(unused_qualifications, clippy::all)]
            impl #k::ToolSet for #self_ty {
                fn tools() -> #p::Vec<#p::ToolDef<Self>> {
                    #p::Vec::from([#(#defs),*])
                }
                fn server_info() -> (&'static str, &'static str) {
                    (::core::env!("CARGO_PKG_NAME"), ::core::env!("CARGO_PKG_VERSION"))
                }
                fn defaults() -> #k::ToolboxDefaults {
                    #k::ToolboxDefaults {
                        timeout_ms: #default_timeout,
                        max_concurrency: #max_concurrency,
                        grace_ms: #default_grace,
                        client_rate_limit: #client_rate_limit,
                        ..::core::default::Default::default()
                    }
                }
                fn resources() -> #p::Vec<#p::ResourceDef<Self>> {
                    #p::Vec::from([#(#resources),*])
                }
            }
        }
    });
    quote! {
        #errors
        #item
        #tool_set
        #(#checks)*
    }
}

/// The `resource(..)` declarations, checked, as `ResourceDef` expressions: each names a resource
/// a tool of the impl uses, once; a safe stop is a method of the impl taking only `&self`.
fn resources(
    cx: &Ctxt,
    attrs: &[ResourceAttr],
    models: &[ToolModel],
    item: &ItemImpl,
) -> Vec<TokenStream> {
    let p = crate::runtime::private();
    let used: Vec<&str> = {
        let mut used: Vec<&str> = models
            .iter()
            .flat_map(|m| m.resources().iter().map(String::as_str))
            .collect();
        used.sort_unstable();
        used.dedup();
        used
    };
    // What the tools use, for the errors naming a resource none uses.
    let tools_use = if used.is_empty() {
        "no tool of this impl declares a resource (`#[tool(resource = \"..\")]`)".to_owned()
    } else {
        format!(
            "the tools use {}",
            used.iter()
                .map(|u| format!("`{u}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    for (name, span) in models.iter().flat_map(|m| m.stop_for()) {
        if !used.contains(&name.as_str()) {
            cx.error_at(
                *span,
                format!("`stop_for`: no tool of this toolbox uses resource `{name}`: {tools_use}; a stop tool stops the calls on a resource the other tools use"),
            );
        }
    }
    let mut defs = Vec::new();
    for (i, attr) in attrs.iter().enumerate() {
        let name = &*attr.name;
        if attrs[..i].iter().any(|a| *a.name == *name) {
            cx.error_at(
                attr.name.span(),
                format!("resource `{name}` is declared twice: put every key in one `resource(name = \"{name}\", ..)`"),
            );
            continue;
        }
        if !used.contains(&name.as_str()) {
            cx.error_at(
                attr.name.span(),
                format!("no tool of this toolbox uses resource `{name}`: {tools_use}; declare a resource under the name the tools give it"),
            );
            continue;
        }
        let max_waiting = match &attr.max_waiting {
            Some(m) => {
                let m = **m;
                quote!(#p::Some(#m))
            }
            None => quote!(#p::None),
        };
        let safe_stop = match &attr.safe_stop {
            None => quote!(#p::None),
            Some(path) => match safe_stop(cx, path, item) {
                Some(f) => quote!({ let f: #p::SafeStop<Self> = #f; #p::Some(f) }),
                None => continue,
            },
        };
        defs.push(quote! {
            #p::ResourceDef { name: #name, max_waiting: #max_waiting, safe_stop: #safe_stop }
        });
    }
    defs
}

/// The safe stop `path` names: a method of the impl taking only `&self`, sync (run on the
/// blocking pool) or async. Its return type is checked by the `SafeStopOutput` bound, reported
/// at the type.
fn safe_stop(cx: &Ctxt, path: &syn::Path, item: &ItemImpl) -> Option<TokenStream> {
    let p = crate::runtime::private();
    let ident = match path.segments.iter().collect::<Vec<_>>().as_slice() {
        [one] if path.leading_colon.is_none() => &one.ident,
        [s, one] if s.ident == "Self" && path.leading_colon.is_none() => &one.ident,
        _ => {
            cx.error_spanned_by(
                path,
                "a safe stop is a method of this `#[toolbox] impl` taking only `&self`: write its name, `safe_stop = halt`",
            );
            return None;
        }
    };
    let method: Option<&ImplItemFn> = item.items.iter().find_map(|i| match i {
        ImplItem::Fn(f) if f.sig.ident == *ident => Some(f),
        _ => None,
    });
    let Some(method) = method else {
        cx.error_spanned_by(
            path,
            format!("no method `{ident}` in this `#[toolbox] impl`: a safe stop is a method of the impl taking only `&self`, e.g. `fn {ident}(&self) -> String`"),
        );
        return None;
    };
    let sig = &method.sig;
    let by_ref = matches!(
        sig.inputs.first(),
        Some(FnArg::Receiver(r)) if matches!(r.kind, syn::ReceiverKind::Reference(_, _, None))
    );
    if !by_ref || sig.inputs.len() != 1 || !sig.generics.params.is_empty() {
        cx.error_spanned_by(
            &sig.inputs,
            format!("the safe stop `{ident}` must take only `&self`: the runtime calls it with nothing else when a call holding the resource ends early"),
        );
        return None;
    }
    let call = quote_spanned!(path.span()=> Self::#ident(&*__tw_state));
    let ret_span = match &sig.output {
        ReturnType::Default => sig.ident.span(),
        ReturnType::Type(_, ty) => match &**ty {
            Type::Path(_) | Type::Tuple(_) | Type::Reference(_) => ty.span(),
            other => other.span(),
        },
    };
    let body = if sig.asyncness.is_some() {
        let p = crate::runtime::private_at(ret_span);
        quote_spanned!(ret_span=> #p::safe_stop_async(async move { #call.await }))
    } else {
        let p = crate::runtime::private_at(ret_span);
        quote_spanned!(ret_span=> #p::safe_stop_blocking(move || #call))
    };
    Some(quote!(|__tw_state: #p::Arc<Self>| #body))
}
