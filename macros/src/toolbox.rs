//! `#[toolbox] impl Type { #[tool] .. }`: the methods marked `#[tool]` become the tools of a
//! `ToolSet` implemented for `Type`.

use darling::ast::NestedMeta;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
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
    let checks_of: Vec<Option<TokenStream>> = models
        .iter()
        .map(|m| m.check().and_then(|path| check_fn(&cx, path, m, &item)))
        .collect();
    let mut envelope_checks = resources.checks;
    for model in &models {
        // The one resource of the tool with an envelope (the runtime's build says when it has
        // none or several).
        let mut with = model
            .resources()
            .iter()
            .filter_map(|(name, _)| resources.envelopes.iter().find(|(n, _)| n == name));
        if let (Some((_, ident)), None) = (with.next(), with.next()) {
            envelope_checks.extend(crate::envelope::range_checks(model, &item.self_ty, ident));
        }
    }
    let envelope_items = resources.items;
    let resources = resources.defs;
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
        let defs = models
            .iter()
            .zip(&checks_of)
            .filter(|(m, _)| m.servable())
            .map(|(m, check)| {
                let ident = m.fn_ident();
                m.def_expr(&state, &quote!(Self::#ident), Some(self_ty), check.clone())
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
    let envelope_items = impl_ok.then_some(envelope_items);
    let envelope_checks = if impl_ok { envelope_checks } else { Vec::new() };
    quote! {
        #errors
        #item
        #tool_set
        #envelope_items
        #(#checks)*
        #(#envelope_checks)*
    }
}

/// What the `resource(..)` declarations make: the `ResourceDef` expressions, the envelopes'
/// constants (by resource name) and their compile-time checks.
struct Resources {
    defs: Vec<TokenStream>,
    envelopes: Vec<(String, syn::Ident)>,
    items: TokenStream,
    checks: Vec<TokenStream>,
}

/// The `resource(..)` declarations, checked, as `ResourceDef` expressions: each names a resource
/// a tool of the impl uses, once; every resource a tool names (`resource`, `stop_for`) is
/// declared; a safe stop and a position are methods of the impl taking only `&self`.
fn resources(
    cx: &Ctxt,
    attrs: &[ResourceAttr],
    models: &[ToolModel],
    item: &ItemImpl,
) -> Resources {
    let p = crate::runtime::private();
    let used: Vec<&str> = {
        let mut used: Vec<&str> = models
            .iter()
            .flat_map(|m| m.resources().iter().map(|(n, _)| n.as_str()))
            .collect();
        used.sort_unstable();
        used.dedup();
        used
    };
    let declared: Vec<&str> = attrs.iter().map(|a| a.name.as_str()).collect();
    // Every name a tool gives must be declared: a misspelt one would make a queue of its own,
    // which no stop tool stops.
    let undeclared = |name: &str, span: proc_macro2::Span, key: &str| {
        if declared.contains(&name) {
            return;
        }
        let known = if declared.is_empty() {
            "this toolbox declares no resource".to_owned()
        } else {
            format!(
                "this toolbox declares {}",
                declared
                    .iter()
                    .map(|d| format!("`{d}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let fix = match crate::util::closest(name, declared.iter().copied()) {
            Some(near) => format!("did you mean `{near}`?"),
            None => format!(
                "declare it with `#[toolbox(resource(name = \"{name}\", safe_stop = ..))]`, or \
                 name a declared one"
            ),
        };
        cx.error_at(
            span,
            format!("`{key} = \"{name}\"` names a resource that is not declared ({known}): {fix}"),
        );
    };
    for model in models {
        for (name, span) in model.resources() {
            undeclared(name, *span, "resource");
        }
        for (name, span) in model.stop_for() {
            undeclared(name, *span, "stop_for");
        }
    }
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
    let mut out = Resources {
        defs: Vec::new(),
        envelopes: Vec::new(),
        items: TokenStream::new(),
        checks: Vec::new(),
    };
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
        let position = match &attr.position {
            None => quote!(#p::None),
            Some(path) => match position(cx, path, item) {
                Some(f) => quote!({ let f: #p::Position<Self> = #f; #p::Some(f) }),
                None => continue,
            },
        };
        let envelope = match &attr.envelope {
            None => quote!(#p::None),
            Some(envelope) => {
                if attr.position.is_none() {
                    cx.error_at(
                        envelope.span(),
                        format!(
                            "an envelope needs to know where resource `{name}` is: a motion's first \
                             straight segment starts there. Add `position = method` naming a method \
                             of this impl that takes `&self` and returns `[f64; 3]`, \
                             `(f64, f64, f64)`, a nalgebra `Point3<f64>` or an `Option` of one"
                        ),
                    );
                }
                let tokens = crate::envelope::declare(cx, envelope, i, &item.self_ty);
                let ident = tokens.ident;
                out.items.extend(tokens.item);
                out.checks.extend(tokens.checks);
                out.envelopes.push((name.clone(), ident.clone()));
                quote!(#p::Some(Self::#ident))
            }
        };
        out.defs.push(quote! {
            #p::ResourceDef {
                name: #name,
                max_waiting: #max_waiting,
                safe_stop: #safe_stop,
                position: #position,
                envelope: #envelope,
            }
        });
    }
    out
}

/// The method of the impl that `path` names, with what must be said when there is none.
fn method<'i>(
    cx: &Ctxt,
    path: &syn::Path,
    item: &'i ItemImpl,
    what: &str,
) -> Option<&'i ImplItemFn> {
    let ident = match path.segments.iter().collect::<Vec<_>>().as_slice() {
        [one] if path.leading_colon.is_none() => &one.ident,
        [s, one] if s.ident == "Self" && path.leading_colon.is_none() => &one.ident,
        _ => {
            cx.error_spanned_by(
                path,
                format!("{what} is a method of this `#[toolbox] impl`: write its name"),
            );
            return None;
        }
    };
    let found = item.items.iter().find_map(|i| match i {
        ImplItem::Fn(f) if f.sig.ident == *ident => Some(f),
        _ => None,
    });
    if found.is_none() {
        cx.error_spanned_by(
            path,
            format!(
                "no method `{ident}` in this `#[toolbox] impl`: {what} is a method of the impl"
            ),
        );
    }
    found
}

/// The position `path` names: a sync method of the impl taking only `&self`, whose return
/// type says where the resource is (checked by the `IntoPosition` bound, at the name).
fn position(cx: &Ctxt, path: &syn::Path, item: &ItemImpl) -> Option<TokenStream> {
    let p = crate::runtime::private();
    let method = method(cx, path, item, "a position (`position = tool_point`)")?;
    let sig = &method.sig;
    let by_ref = matches!(
        sig.inputs.first(),
        Some(FnArg::Receiver(r)) if matches!(r.kind, syn::ReceiverKind::Reference(_, _, None))
    );
    if !by_ref
        || sig.inputs.len() != 1
        || !sig.generics.params.is_empty()
        || sig.asyncness.is_some()
    {
        cx.error_spanned_by(
            &sig.inputs,
            format!(
                "the position `{}` must be a sync method taking only `&self`: the runtime asks it \
                 where the resource is before each motion, and again when the motion gets its turn",
                sig.ident
            ),
        );
        return None;
    }
    let ident = &sig.ident;
    let at = crate::runtime::private_at(path.span());
    let read = quote_spanned!(path.span()=> #at::position_of(Self::#ident(__tw_state)));
    Some(quote!(|__tw_state: &Self| -> #p::Option<[f64; 3]> { #read }))
}

/// The `Check` of a tool's `check = ..`: a sync method of the impl taking `&self` and some of
/// the tool's parameters, by name (each read from the validated arguments), and returning a
/// `Result<(), E>` (checked by the `CheckOutput` bound, at its return type).
fn check_fn(
    cx: &Ctxt,
    path: &syn::Path,
    model: &ToolModel,
    item: &ItemImpl,
) -> Option<TokenStream> {
    let p = crate::runtime::private();
    let method = method(cx, path, item, "a check (`check = limits`)")?;
    let sig = &method.sig;
    let mut ok = true;
    let by_ref = matches!(
        sig.inputs.first(),
        Some(FnArg::Receiver(r)) if matches!(r.kind, syn::ReceiverKind::Reference(_, _, None))
    );
    if !by_ref || sig.asyncness.is_some() || !sig.generics.params.is_empty() {
        cx.error_spanned_by(
            &sig.ident,
            format!(
                "the check `{}` must be a sync method taking `&self`, then parameters of the tool \
                 `{}` by name (`fn {}(&self, speed: f64) -> Result<(), String>`): it runs before the \
                 user is asked, and again at the call's turn",
                sig.ident,
                model.name(),
                sig.ident
            ),
        );
        return None;
    }
    let mut reads = Vec::new();
    let mut idents = Vec::new();
    for input in sig.inputs.iter().skip(1) {
        let FnArg::Typed(pt) = input else { continue };
        let syn::Pat::Ident(pi) = &*pt.pat else {
            cx.error_spanned_by(
                &pt.pat,
                "a check's parameters are the tool's, by name: write a plain name",
            );
            ok = false;
            continue;
        };
        let ident = &pi.ident;
        let Some(json) = model.param_named(&ident.to_string()) else {
            let names = model.param_idents();
            cx.error_spanned_by(
                ident,
                format!(
                    "`{ident}` is not a parameter of the tool `{}`: a check takes the tool's \
                     parameters by name ({})",
                    model.name(),
                    if names.is_empty() {
                        "it has none".to_owned()
                    } else {
                        names
                            .iter()
                            .map(|n| format!("`{n}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    }
                ),
            );
            ok = false;
            continue;
        };
        let ty = &pt.ty;
        let at = crate::runtime::private_at(ty.span());
        let local = format_ident!("__tw_check_{}", idents.len());
        reads.push(quote_spanned!(ty.span()=> let #local: #ty = #at::check_arg(__tw_map, #json)?;));
        idents.push(local);
    }
    if !ok {
        return None;
    }
    let ident = &sig.ident;
    let ret_span = match &sig.output {
        ReturnType::Default => sig.ident.span(),
        ReturnType::Type(_, ty) => ty.span(),
    };
    let at = crate::runtime::private_at(ret_span);
    // A question that shows `{check}` needs a check that says something (`Result<String, E>`).
    let answer = if model.question_shows_check() {
        quote_spanned!(ret_span=> check_note)
    } else {
        quote_spanned!(ret_span=> check_result)
    };
    let call = quote_spanned!(ret_span=> #at::#answer(Self::#ident(__tw_state, #(#idents),*)));
    Some(quote! {
        |__tw_state: &Self, __tw_map: &#p::serde_json::Map<#p::String, #p::serde_json::Value>| -> #p::CheckResult {
            let _ = __tw_map;
            #(#reads)*
            #call
        }
    })
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
