//! `#[toolbox] impl Type { #[tool] .. }`: the methods marked `#[tool]` become the tools of a
//! `ToolSet` implemented for `Type`.

use darling::ast::NestedMeta;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::{FnArg, ImplItem};

use crate::attr::ToolboxAttr;
use crate::ctxt::Ctxt;
use crate::policy;
use crate::property;
use crate::tool::{self, Site, ToolModel};

mod methods;
mod resources;

use methods::{Impl, check_fn};
use resources::resources;

pub fn expand(args: TokenStream, input: TokenStream) -> TokenStream {
    let (p, k) = (crate::runtime::private(), crate::runtime::krate());
    // `resource(.., robot(..))`: taken out before darling reads the rest (robot/resource.rs).
    let (args, robots) = crate::robot_hook::take(args);
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
    // The header and the signatures are parsed, never the bodies (`crate::item`).
    let (mut item, broken) = match crate::item::parse_impl(input.clone()) {
        Ok(parsed) => parsed,
        Err(e) => {
            let item = crate::item::strip_helpers(input.clone());
            if !crate::item::looks_like_impl(&input) {
                cx.push(syn::Error::new(
                    e.span(),
                    "`#[toolbox]` goes on an inherent `impl Type { .. }` block",
                ));
            }
            // An impl whose header is being typed: rustc reports the syntax error.
            let errors = cx.check().err().map(|e| e.to_compile_error());
            return quote!(#errors #item);
        }
    };
    let robots = crate::robot_hook::expand(&cx, robots, &mut item);
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
    let imp = Impl {
        item: &item,
        broken: &broken,
    };
    let resources = resources(&cx, &toolbox_attr.resources, &models, &imp);
    let checks_of: Vec<Option<tool::CheckDef>> = models
        .iter()
        .map(|m| m.check().and_then(|path| check_fn(&cx, path, m, &imp)))
        .collect();
    let mut envelope_checks = resources.checks;
    for model in &models {
        // The one resource of the tool with an envelope (the runtime's build says when it has
        // none or several).
        let mut with = model
            .resources()
            .iter()
            .filter_map(|(name, _)| resources.envelopes.iter().find(|e| e.resource == *name));
        if let (Some(envelope), None) = (with.next(), with.next()) {
            target_units(&cx, model, envelope);
            envelope_checks.extend(crate::envelope::range_checks(
                model,
                &item.self_ty,
                &envelope.ident,
                &envelope.resource,
            ));
        }
        // A struct of joint positions with ranges of its own, against the robot it moves.
        envelope_checks.extend(robots.target_checks(model, &item.self_ty));
    }
    let envelope_items = resources.items;
    let resources = resources.defs;
    if models.is_empty() && !cx.has_errors() && !broken.any {
        cx.error_spanned_by(
            &item.self_ty,
            "this `#[toolbox]` impl has no `#[tool]` methods: mark the methods to publish with `#[tool]`",
        );
    }
    let errors = cx.check().err().map(|e| e.to_compile_error());
    let self_ty = &item.self_ty;
    let printed = crate::item::print_impl(&item);
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
        let robots_fn = &robots.robots_fn;
        // One hidden fn per tool, spanned at its method: editing one tool's body leaves the
        // others' definitions as they were for rustc's incremental type checking (one fn holding
        // every definition was checked again whole after any edit above its end).
        let (def_fns, def_calls): (Vec<TokenStream>, Vec<TokenStream>) = models
            .iter()
            .zip(&checks_of)
            .filter(|(m, _)| m.servable())
            .map(|(m, check)| {
                let ident = m.fn_ident();
                let def = m.def_expr(&state, &quote!(Self::#ident), Some(self_ty), check.as_ref());
                let name = ident.to_string();
                let def_ident = syn::Ident::new(
                    &format!("__tw_def_{}", name.trim_start_matches("r#")),
                    ident.span(),
                );
                let span = ident.span();
                (
                    quote_spanned! {span=>
                        #[doc(hidden)]
                        #[allow(non_snake_case, unused_qualifications, clippy::all)]
                        fn #def_ident() -> #p::ToolDef<Self> {
                            #def
                        }
                    },
                    quote!(Self::#def_ident()),
                )
            })
            .unzip();
        quote! {
            #[allow(unused_qualifications, clippy::all)]
            impl #self_ty {
                #(#def_fns)*
            }
            #[allow(unused_qualifications, clippy::all)]
            impl #k::ToolSet for #self_ty {
                fn tools() -> #p::Vec<#p::ToolDef<Self>> {
                    #p::Vec::from([#(#def_calls),*])
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
                #robots_fn
            }
        }
    });
    let envelope_items = impl_ok.then_some(envelope_items);
    let envelope_checks = if impl_ok { envelope_checks } else { Vec::new() };
    let robot_items = impl_ok.then_some(robots.items);
    quote! {
        #errors
        #printed
        #tool_set
        #robot_items
        #envelope_items
        #(#checks)*
        #(#envelope_checks)*
    }
}

/// The target's coordinates are declared in the unit of the envelope they are checked against
/// (the envelope has no unit conversion: a `cm` target in a `mm` envelope would be off tenfold).
fn target_units(cx: &Ctxt, model: &ToolModel, envelope: &resources::Envelope) {
    let canonical =
        |unit: &str| crate::units::lookup(unit).map_or(unit.to_owned(), |u| u.symbol.to_owned());
    let expected = canonical(&envelope.unit);
    for name in model.target_params() {
        let Some((_, decl)) = model.param(name) else {
            continue;
        };
        // An unknown unit is reported where it is read.
        let (Some(unit), Some(known)) = (&decl.attr.unit, decl.unit) else {
            continue;
        };
        let declared = known.symbol;
        if declared != expected {
            cx.error_at(
                unit.span(),
                format!(
                    "`{name}` is in {declared}, but the envelope of resource `{}` is in {expected}, and a \
                     target is checked in its envelope's unit: write `unit = \"{expected}\"`, with its \
                     range in {expected}",
                    envelope.resource
                ),
            );
        }
    }
}
