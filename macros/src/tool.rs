//! `#[tool]`: a fn (free, or a method in a `#[toolbox]` impl) becomes a `ToolDef`.
//!
//! Pipeline (as thiserror's `try_expand`): parse the attribute and signature into [`ToolModel`]
//! (stripping our attributes from the fn as we go), check, then generate. Syntax-only mistakes are
//! collected in the [`Ctxt`]; type-dependent ones become `const` checks emitted next to the fn.
//! On error the fn is still emitted, without our attributes, next to the errors and the checks,
//! with its definition when the signature allows (so type errors show in the same compile) or a
//! stub, so the rest of the crate keeps compiling and `tools![f]` adds no error of its own.

use darling::ast::NestedMeta;
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, FnArg, Ident, ItemFn, Pat, ReturnType, Signature, Type};

use crate::attr::{Allow, ToolAttr, ToolboxAttr};
use crate::check;
use crate::ctxt::Ctxt;
use crate::doc::{self, Doc};
use crate::param::{self, ParamDecl};
use crate::policy;
use crate::typecheck::Checks;

/// Where the fn is declared.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Site {
    /// A free fn: `tools![f]` finds its definition.
    Free,
    /// A method in a `#[toolbox]` impl.
    Method,
}

enum Receiver {
    None,
    Ref,
}

struct ParamModel {
    ident: Ident,
    ty: Type,
    json_name: String,
    decl: ParamDecl,
}

/// A tool, resolved.
pub struct ToolModel {
    fn_ident: Ident,
    name: String,
    /// Where the name was written (`name = ".."`), or the fn's ident.
    name_span: Span,
    title: Option<String>,
    description: Option<Doc>,
    hints: [(&'static str, Option<bool>); 4],
    timeout_ms: Option<u64>,
    resources: Vec<String>,
    retry: u32,
    max_output_bytes: Option<usize>,
    group: Option<String>,
    grace_ms: Option<u64>,
    scopes: Vec<String>,
    rate_limit: Option<darling::util::SpannedValue<String>>,
    /// A sync fn run on tokio's blocking pool (every sync fn but those declared
    /// `blocking = false`).
    blocking: bool,
    params: Vec<ParamModel>,
    flatten: bool,
    receiver: Receiver,
    is_async: bool,
    ret: Type,
    /// The signature can be served: a real definition can be generated (also next to other
    /// errors, so type errors show in the same compile).
    servable: bool,
    /// Type-dependent checks, as `const` items.
    checks: Checks,
}

/// The check settings of a tool: its own keys, else its toolbox's, else the defaults.
pub struct Settings {
    pub many_params: bool,
    pub deep_nesting: bool,
    pub long_name: bool,
    pub max_description_bytes: usize,
    pub max_param_description_bytes: usize,
}

impl Settings {
    /// `tool`'s keys over `toolbox`'s over the defaults.
    pub fn resolve(tool: &ToolAttr, toolbox: Option<&ToolboxAttr>) -> Settings {
        let allows = [tool.allow.as_ref(), toolbox.and_then(|t| t.allow.as_ref())];
        let allow = |f: fn(&Allow) -> bool| allows.iter().flatten().any(|a| f(a));
        Settings {
            many_params: allow(|a| a.many_params.is_present()),
            deep_nesting: allow(|a| a.deep_nesting.is_present()),
            long_name: allow(|a| a.long_name.is_present()),
            max_description_bytes: tool
                .max_description_bytes
                .or(toolbox.and_then(|t| t.max_description_bytes))
                .unwrap_or(check::TOOL_DESCRIPTION_BYTES),
            max_param_description_bytes: tool
                .max_param_description_bytes
                .or(toolbox.and_then(|t| t.max_param_description_bytes))
                .unwrap_or(check::PARAM_DESCRIPTION_BYTES),
        }
    }
}

/// Parses `#[tool(..)]` arguments.
pub fn parse_tool_attr(cx: &Ctxt, args: TokenStream) -> ToolAttr {
    match NestedMeta::parse_meta_list(args) {
        Ok(list) => crate::attr::parse_lenient(cx, &list),
        Err(e) => {
            cx.push(e);
            ToolAttr::default()
        }
    }
}

impl ToolModel {
    /// Builds the model from the fn's attributes and signature, stripping `#[param]` and doc
    /// comments from its arguments, and checks it: syntax-only mistakes go into `cx`,
    /// type-dependent ones into `const` checks (`typecheck.rs`).
    pub fn from_fn(
        cx: &Ctxt,
        attr: ToolAttr,
        toolbox: Option<&ToolboxAttr>,
        attrs: &[Attribute],
        sig: &mut Signature,
        site: Site,
    ) -> ToolModel {
        let settings = Settings::resolve(&attr, toolbox);
        let mut checks = Checks::default();
        let fn_ident = sig.ident.clone();
        let fn_name = fn_ident.to_string().trim_start_matches("r#").to_owned();
        let (name, name_span) = match &attr.name {
            Some(n) => ((**n).clone(), n.span()),
            None => (fn_name.clone(), fn_ident.span()),
        };
        check::tool_name(
            cx,
            &name,
            attr.name.as_ref().map(|n| n.span()),
            &fn_ident,
            settings.long_name,
        );
        let description = tool_description(
            cx,
            &mut checks,
            &attr,
            attrs,
            &sig.ident,
            &name,
            &fn_name,
            &settings,
        );
        let spanned =
            |v: &Option<darling::util::SpannedValue<bool>>| v.as_ref().map(|b| (**b, b.span()));
        check::annotations(
            cx,
            spanned(&attr.read_only),
            spanned(&attr.destructive),
            spanned(&attr.idempotent),
        );
        let hint = |v: &Option<darling::util::SpannedValue<bool>>| v.as_ref().map(|b| **b);
        let hints = [
            ("read_only", hint(&attr.read_only)),
            ("destructive", hint(&attr.destructive)),
            ("idempotent", hint(&attr.idempotent)),
            ("open_world", hint(&attr.open_world)),
        ];
        let timeout_ms = policy::timeout_ms(cx, &attr.timeout);
        let resources = policy::resources(cx, &attr.resource);
        let retry = attr.retry.as_ref().map_or(0, |r| **r);
        if let Some(r) = &attr.retry
            && **r > 0
            && hint(&attr.read_only) != Some(true)
            && hint(&attr.idempotent) != Some(true)
        {
            cx.error_at(
                r.span(),
                format!(
                    "`retry` repeats the call, so it is allowed only on tools marked `read_only` or `idempotent`: \
                     retrying a write can repeat it. Mark `{name}` idempotent if calling it twice has the same effect as once, \
                     or remove `retry`"
                ),
            );
        }
        if let Some(m) = &attr.max_output_bytes
            && **m == 0
        {
            cx.error_at(m.span(), "`max_output_bytes` must be positive");
        }
        let group = attr.group.as_ref().map(|g| (**g).clone());
        let grace_ms = policy::grace_ms(cx, &attr.grace);
        let scopes = policy::scopes(cx, &attr.scopes);
        if let Some(b) = &attr.blocking
            && sig.asyncness.is_some()
        {
            cx.error_at(
                b.span(),
                "`blocking` is for sync fns (which run on tokio's blocking pool unless `blocking = false`): \
                 an `async fn` runs on the async runtime and must not block; move blocking work into \
                 `tokio::task::spawn_blocking`, or make the tool a sync fn",
            );
        }
        let blocking = sig.asyncness.is_none() && attr.blocking.as_ref().is_none_or(|b| **b);

        let generic = !sig.generics.params.is_empty() || sig.generics.where_clause.is_some();
        let mut servable = check_fn_header(cx, sig) && !generic;
        let mut receiver = Receiver::None;
        let mut params = Vec::new();
        let mut flatten = false;
        for input in sig.inputs.iter_mut() {
            match input {
                FnArg::Receiver(r) => {
                    servable &= check_receiver(cx, r, site);
                    receiver = Receiver::Ref;
                }
                FnArg::Typed(pt) => {
                    let (param, ok) =
                        param_model(cx, &mut checks, pt, params.len(), &settings, generic);
                    servable &= ok;
                    flatten |= param.decl.attr.flatten.is_present();
                    params.push(param);
                }
            }
        }
        if flatten && params.len() != 1 {
            cx.error_spanned_by(
                &sig.inputs,
                "`#[param(flatten)]` must be the tool's only parameter: that struct supplies every property",
            );
        }
        for (i, p) in params.iter().enumerate() {
            if let Some(first) = params[..i].iter().find(|q| q.json_name == p.json_name) {
                cx.error_spanned_by(
                    &p.ident,
                    format!(
                        "two parameters are named `{}` (the first is `{}`): rename one, or publish it under another name with `#[param(rename = \"..\")]`",
                        p.json_name, first.ident
                    ),
                );
            }
        }
        // Size checks need every type (a `Context` does not count, a flattened struct counts its
        // properties).
        if servable {
            if flatten && params.len() == 1 {
                if !settings.many_params {
                    checks.flattened_count(&name, &params[0].ty);
                }
                if !settings.deep_nesting {
                    checks.depth(&name, &params[0].json_name, &params[0].ty, true);
                }
            } else {
                if !settings.many_params && params.len() > check::MAX_PARAMS {
                    let types: Vec<&Type> = params.iter().map(|p| &p.ty).collect();
                    checks.param_count(&name, &fn_ident, &types);
                }
                if !settings.deep_nesting {
                    for p in &params {
                        checks.depth(&name, &p.json_name, &p.ty, false);
                    }
                }
            }
        }
        let (ret, ret_ok) = return_type(cx, &sig.output);
        ToolModel {
            fn_ident,
            name,
            name_span,
            title: attr.title.as_ref().map(|t| (**t).clone()),
            description,
            hints,
            timeout_ms,
            resources,
            retry,
            max_output_bytes: attr.max_output_bytes.as_ref().map(|m| **m),
            group,
            grace_ms,
            scopes,
            rate_limit: attr.rate_limit.clone(),
            blocking,
            params,
            flatten,
            receiver,
            is_async: sig.asyncness.is_some(),
            ret,
            servable: servable && ret_ok,
            checks,
        }
    }

    /// Whether a real definition can be generated (the signature has no mistakes).
    pub fn servable(&self) -> bool {
        self.servable
    }

    /// Takes the type-dependent checks out of the model.
    pub fn take_checks(&mut self) -> Checks {
        std::mem::take(&mut self.checks)
    }

    /// Where the tool's name was written.
    pub fn name_span(&self) -> Span {
        self.name_span
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The resources the tool declares (`resource = ".."`).
    pub fn resources(&self) -> &[String] {
        &self.resources
    }

    /// The fn's ident.
    pub fn fn_ident(&self) -> &Ident {
        &self.fn_ident
    }

    /// A `ToolDef<#state>` expression; `callee` is the path that calls the fn; `self_ty` is the
    /// type of a `#[toolbox]` impl (it replaces `Self` in the types).
    pub fn def_expr(
        &self,
        state: &TokenStream,
        callee: &TokenStream,
        self_ty: Option<&Type>,
    ) -> TokenStream {
        let p = crate::runtime::private();
        // Each type is named once, by an alias (`type __TwT0 = ..;`), and the code below uses the
        // alias spanned at the type: a type that does not resolve is one error, not one per use.
        let mut aliases = Vec::new();
        let mut alias = |ty: &Type| -> Type {
            let ident = format_ident!("__TwT{}", aliases.len());
            let tokens = match self_ty {
                Some(s) => {
                    crate::typecheck::replace_self(ty.to_token_stream(), &s.to_token_stream())
                }
                None => ty.to_token_stream(),
            };
            aliases.push(quote!(#[allow(non_camel_case_types)] type #ident = #tokens;));
            let used = Ident::new(&ident.to_string(), ty.span());
            syn::parse_quote!(#used)
        };
        let tys: Vec<Type> = self.params.iter().map(|p| alias(&p.ty)).collect();
        let ret = &alias(&self.ret);
        let name = &self.name;
        let title = match &self.title {
            Some(t) => quote!(#p::Some(#t)),
            None => quote!(#p::None),
        };
        let description = self
            .description
            .as_ref()
            .map_or_else(|| quote!(""), Doc::to_tokens);
        let hints = self.hints.iter().map(|(k, v)| {
            let k = format_ident!("{k}");
            match v {
                Some(b) => quote!(#k: #p::Some(#b)),
                None => quote!(#k: #p::None),
            }
        });
        let opt = |v: Option<TokenStream>| match v {
            Some(v) => quote!(#p::Some(#v)),
            None => quote!(#p::None),
        };
        let timeout_ms = opt(self.timeout_ms.map(|t| quote!(#t)));
        let resources = policy::resources_tokens(&self.resources);
        let retry = self.retry;
        let max_output_bytes = opt(self.max_output_bytes.map(|m| quote!(#m)));
        let group = opt(self.group.as_ref().map(|g| quote!(#g)));
        let grace_ms = opt(self.grace_ms.map(|g| quote!(#g)));
        let scopes = &self.scopes;
        let rate_limit = policy::rate_tokens(&self.rate_limit);
        let params = if self.flatten {
            let info = param::type_info_tokens(&tys[0]);
            quote!(#p::Params::Flatten(#info))
        } else {
            let fields = self.params.iter().zip(&tys).map(|(param, ty)| {
                let spec = param.decl.spec_tokens(&param.json_name, ty, false, false);
                let info = param::type_info_tokens(ty);
                quote!(#p::Field { spec: #spec, info: #info, flatten: false })
            });
            quote!(#p::Params::Fields(#p::Vec::from([#(#fields),*])))
        };
        let output = {
            let p = crate::runtime::private_at(ret.span());
            quote_spanned! {ret.span()=>
                {
                    #[allow(unused_imports)]
                    use #p::{ReturnResult as _, ReturnPlain as _};
                    (&#p::Probe::<#ret>::new()).output_info()
                }
            }
        };
        // Generated names, so a parameter named like the fn does not shadow it.
        let idents: Vec<Ident> = (0..self.params.len())
            .map(|i| format_ident!("__tw_arg_{i}"))
            .collect();
        let receiver = match self.receiver {
            Receiver::Ref => quote!(&*__tw_state,),
            Receiver::None => quote!(),
        };
        let await_ = if self.is_async {
            quote!(.await)
        } else {
            quote!()
        };
        let output_value = {
            let p = crate::runtime::private_at(ret.span());
            quote_spanned! {ret.span()=>
                {
                    #[allow(unused_imports)]
                    use #p::{ReturnResult as _, ReturnPlain as _};
                    (&#p::Probe::<#ret>::new()).output_value(__tw_ret)
                }
            }
        };
        let call = quote! {
            let __tw_ret: #ret = #callee(#receiver #(#idents),*) #await_;
            #output_value
        };
        let body = if self.params.is_empty() {
            quote!({ let _ = __tw_args; #call })
        } else {
            let takes = self.params.iter().zip(&tys).map(|(param, ty)| {
                if self.flatten {
                    {
                        let p = crate::runtime::private_at(ty.span());
                        quote_spanned!(ty.span()=> #p::take_flattened::<#ty>(&mut __tw_args))
                    }
                } else {
                    let json = &param.json_name;
                    {
                        let p = crate::runtime::private_at(ty.span());
                        quote_spanned! {ty.span()=>
                            {
                                #[allow(unused_imports)]
                                use #p::{ParamOptional as _, ParamContext as _, ParamPlain as _};
                                (&#p::Probe::<#ty>::new()).take_arg(&mut __tw_args, #json)
                            }
                        }
                    }
                }
            });
            quote! {
                match (#(#takes,)*) {
                    (#(#p::Ok(#idents),)*) => { #call }
                    _ => #p::Err(__tw_args.into_error()),
                }
            }
        };
        let run = if self.blocking {
            quote!(#p::run_blocking(move || { #body }))
        } else {
            quote!(#p::run_async(async move { #body }))
        };
        quote! {
            {
                #(#aliases)*
                #p::ToolDef::<#state> {
                    meta: #p::ToolMeta {
                        name: #name,
                        title: #title,
                        description: #description,
                        #(#hints,)*
                        timeout_ms: #timeout_ms,
                        resources: #resources,
                        retry: #retry,
                        max_output_bytes: #max_output_bytes,
                        group: #group,
                        grace_ms: #grace_ms,
                        scopes: &[#(#scopes),*],
                        rate_limit: #rate_limit,
                        ..::core::default::Default::default()
                    },
                    params: #params,
                    output: #output,
                    handler: |__tw_state: #p::Arc<#state>, #[allow(unused_mut)] mut __tw_args: #p::Args| {
                        let _ = &__tw_state;
                        #run
                    },
                }
            }
        }
    }
}

/// The tool's description (`description = ".."` or the doc comment), checked: present, not a
/// placeholder, within its budget (measured by a `const` check for `#[doc = include_str!(..)]`).
#[allow(clippy::too_many_arguments)]
fn tool_description(
    cx: &Ctxt,
    checks: &mut Checks,
    attr: &ToolAttr,
    attrs: &[Attribute],
    fn_ident: &Ident,
    name: &str,
    fn_name: &str,
    settings: &Settings,
) -> Option<Doc> {
    let (description, at) = match &attr.description {
        Some(d) => {
            let span = d.span();
            (
                Some(Doc::Text((**d).clone())),
                Some(quote_spanned!(span=> description)),
            )
        }
        None => (doc::from_attrs(attrs), doc::span_tokens(attrs)),
    };
    let described = check::Described {
        what: format!("tool `{name}`"),
        names: vec![name, fn_name],
        limit: settings.max_description_bytes,
        raise: "`#[tool(max_description_bytes = ..)]` (or on the `#[toolbox]`)",
    };
    match (&description, &at) {
        (None, _) => cx.error_spanned_by(
            fn_ident,
            format!(
                "tool `{name}` has no description: add a doc comment (`/// Moves the arm to …`) \
                 saying what the tool does and when to use it, or `#[tool(description = \"..\")]`"
            ),
        ),
        (Some(Doc::Text(text)), Some(at)) => check::description(cx, text, at, &described),
        (Some(doc @ Doc::Expr(_)), Some(at)) => checks.description_budget(
            &doc.to_tokens(),
            at,
            &described.what,
            described.limit,
            described.raise,
        ),
        (Some(_), None) => {}
    }
    description
}

/// `const`, `unsafe`, `extern` and variadic fns; `false` when no definition can be generated.
fn check_fn_header(cx: &Ctxt, sig: &Signature) -> bool {
    let mut servable = true;
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        cx.error_spanned_by(
            &sig.generics,
            "a tool fn cannot be generic: its parameter types are published as a JSON Schema, so they must be concrete",
        );
    }
    if let Some(c) = &sig.constness {
        cx.error_spanned_by(c, "a tool fn cannot be `const`: remove `const`");
    }
    if let syn::Safety::Unsafe(u) = &sig.safety {
        servable = false;
        cx.error_spanned_by(
            u,
            "a tool fn cannot be `unsafe`: a model decides its arguments; make the fn safe and keep `unsafe` blocks inside it",
        );
    }
    if let Some(abi) = &sig.abi {
        cx.error_spanned_by(abi, "a tool fn cannot have an ABI: remove `extern`");
    }
    if let Some(v) = &sig.variadic {
        servable = false;
        cx.error_spanned_by(v, "a tool fn cannot be variadic");
    }
    servable
}

/// Only `&self`, and only in a `#[toolbox]` impl; `false` when refused.
fn check_receiver(cx: &Ctxt, r: &mut syn::Receiver, site: Site) -> bool {
    if let Some(a) = r.attrs.iter().find(|a| param::is_param(a)) {
        cx.error_spanned_by(a, "`#[param]` goes on the tool's parameters, not on `self`");
    }
    r.attrs.retain(|a| !param::is_param(a) && !doc::is_doc(a));
    let by_ref = match &r.kind {
        syn::ReceiverKind::Reference(_, _, None) => true,
        // `self: &Self`
        syn::ReceiverKind::Typed(_, ty) => matches!(
            &**ty,
            Type::Reference(t) if t.mutability.is_none()
                && matches!(&*t.elem, Type::Path(p) if p.path.is_ident("Self"))
        ),
        _ => false,
    };
    let message = if site == Site::Free {
        "`self` is only available to tools declared inside a `#[toolwright::toolbox] impl` block"
    } else if matches!(r.kind, syn::ReceiverKind::Reference(_, _, Some(_))) {
        "a tool method takes `&self`, not `&mut self`: calls run concurrently; keep mutable state behind a `Mutex` or `RwLock`"
    } else if !by_ref {
        "a tool method takes `&self`: the state is shared between concurrent calls, so it cannot be taken by value (or as `Box<Self>`, `Arc<Self>`)"
    } else {
        return true;
    };
    cx.error_spanned_by(&*r, message);
    false
}

/// One typed argument: its `#[param]` and doc comment (stripped from the fn), checked. `false`
/// when no definition can be generated for it.
fn param_model(
    cx: &Ctxt,
    checks: &mut Checks,
    pt: &mut syn::PatType,
    index: usize,
    settings: &Settings,
    generic: bool,
) -> (ParamModel, bool) {
    let decl = ParamDecl::parse(cx, &pt.attrs);
    pt.attrs.retain(|a| !param::is_param(a) && !doc::is_doc(a));
    let mut servable = true;
    let ident = match &*pt.pat {
        Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => pi.ident.clone(),
        other => {
            servable = false;
            cx.error_spanned_by(
                other,
                "tool parameters must be plain names (`force: f64`): each name becomes a property of the tool's input",
            );
            format_ident!("__tw_invalid_{index}")
        }
    };
    let type_ok = check_param_type(cx, &pt.ty);
    let plain = ident.to_string().trim_start_matches("r#").to_owned();
    let json_name = decl
        .attr
        .rename
        .as_ref()
        .map_or(plain.clone(), |r| (**r).clone());
    let is_flatten = decl.attr.flatten.is_present();
    check::param_keys(cx, &decl);
    let described = check::Described {
        what: format!("parameter `{json_name}`"),
        names: vec![&json_name, &plain],
        limit: decl
            .attr
            .max_description_bytes
            .as_ref()
            .map_or(settings.max_param_description_bytes, |v| **v),
        raise: "`#[param(max_description_bytes = ..)]`, or `#[tool(max_param_description_bytes = ..)]` for every parameter",
    };
    check::property_description(cx, checks, &decl, &described);
    if type_ok && !generic {
        // A `Context` is not published and needs no description: decided by its type.
        if !is_flatten && !decl.has_description() {
            checks.param_description(&ident, &pt.ty, &json_name);
        }
        checks.param(&decl, &pt.ty);
    } else if !is_flatten && !decl.has_description() {
        cx.error_spanned_by(
            &ident,
            format!(
                "parameter `{json_name}` has no description: add a doc comment on it (`/// Grip force …`) or `#[param(description = \"..\")]`"
            ),
        );
    }
    let param = ParamModel {
        ident,
        ty: (*pt.ty).clone(),
        json_name,
        decl,
    };
    (param, servable && type_ok)
}

/// The return type (`()` when none); `false` when it cannot be served.
fn return_type(cx: &Ctxt, output: &ReturnType) -> (Type, bool) {
    let ty = match output {
        ReturnType::Default => return (syn::parse_quote!(()), true),
        ReturnType::Type(_, ty) => ty,
    };
    match &**ty {
        Type::ImplTrait(t) => cx.error_spanned_by(
            t,
            "a tool must return a concrete type (its JSON Schema is published as the outputSchema), not `impl Trait`",
        ),
        Type::Reference(r) if r.lifetime.as_ref().is_none_or(|l| l.ident != "static") => cx
            .error_spanned_by(
                r,
                "a tool returns an owned value (the result outlives the call): return `String` instead of `&str`, `Vec<T>` instead of `&[T]`",
            ),
        _ => return ((**ty).clone(), true),
    }
    ((**ty).clone(), false)
}

/// Refuses parameter types a call's JSON arguments cannot produce; `false` when refused.
fn check_param_type(cx: &Ctxt, ty: &Type) -> bool {
    match ty {
        Type::Reference(r) => cx.error_spanned_by(
            r,
            "tool parameters are deserialized from the call's JSON arguments, so they must be owned: use `String` instead of `&str`, `Vec<T>` instead of `&[T]`",
        ),
        Type::ImplTrait(t) => cx.error_spanned_by(
            t,
            "a tool parameter cannot be `impl Trait`: its JSON Schema is published, so the type must be concrete",
        ),
        Type::TraitObject(t) => cx.error_spanned_by(
            t,
            "a tool parameter cannot be a trait object: its JSON Schema is published, so the type must be concrete",
        ),
        Type::Infer(t) => cx.error_spanned_by(t, "a tool parameter needs a concrete type"),
        other if !check::type_is_servable(other) => cx.error_spanned_by(
            other,
            "tool parameters are deserialized from the call's JSON arguments, so they must own their data: no references, lifetimes or `impl Trait` inside (`Vec<String>`, not `Vec<&str>`)",
        ),
        _ => return true,
    }
    false
}

/// `#[tool]` on a free fn.
pub fn expand(args: TokenStream, input: TokenStream) -> TokenStream {
    let p = crate::runtime::private();
    let cx = Ctxt::new();
    let attr = parse_tool_attr(&cx, args);
    let mut item: ItemFn = match syn::parse2(input.clone()) {
        Ok(item) => item,
        Err(e) => {
            let _ = cx.check();
            let mut err = syn::Error::new(
                e.span(),
                "`#[tool]` goes on a fn, or on a method inside a `#[toolwright::toolbox] impl` block",
            );
            err.combine(e);
            let err = err.to_compile_error();
            return quote!(#err #input);
        }
    };
    if let Some(extra) = item.attrs.iter().find(|a| is_tool_attr(a)) {
        cx.error_spanned_by(
            extra,
            "duplicate `#[tool]` attribute: put every key in one `#[tool(..)]`",
        );
    }
    item.attrs.retain(|a| !is_tool_attr(a));
    let mut model = ToolModel::from_fn(&cx, attr, None, &item.attrs, &mut item.sig, Site::Free);
    let checks = model.take_checks().into_tokens(None);
    let vis = &item.vis;
    let def_ident = def_fn_ident(&item.sig.ident);
    let fn_ident = model.fn_ident();
    let doc = format!(
        "The toolwright definition of the tool `{}` (generated by `#[tool]`; use `tools![{}]`).",
        model.name(),
        fn_ident
    );
    let errors = cx.check().err().map(|e| e.to_compile_error());
    // On error, the definition is still generated when the signature allows it (so type errors
    // show in the same compile), else a stub, so `tools![f]` adds no error of its own.
    let def = if model.servable() {
        model.def_expr(&quote!(__TwState), &quote!(#fn_ident), None)
    } else {
        let name = model.name();
        quote!(::core::unreachable!(
            ::core::concat!("the tool `", #name, "` did not compile")
        ))
    };
    quote! {
        #errors
        #item
        #[doc = #doc]
        #[doc(hidden)]
        #[allow(non_snake_case, unused_qualifications, clippy::all)]
        #vis fn #def_ident<__TwState: ::core::marker::Send + ::core::marker::Sync + 'static>() -> #p::ToolDef<__TwState> {
            #def
        }
        #checks
    }
}

/// The name of the hidden fn that returns a free tool's definition.
pub fn def_fn_ident(fn_ident: &Ident) -> Ident {
    let name = fn_ident.to_string();
    let name = name.trim_start_matches("r#");
    Ident::new(&format!("__toolwright_tool_{name}"), fn_ident.span())
}

/// Whether an attribute is `#[tool]` / `#[toolwright::tool]`.
pub fn is_tool_attr(attr: &Attribute) -> bool {
    let path = attr.path();
    path.is_ident("tool")
        || (path.segments.len() == 2
            && path.segments[0].ident == "toolwright"
            && path.segments[1].ident == "tool")
}

/// The arguments of a `#[tool]` / `#[tool(..)]` attribute.
pub fn tool_attr_args(attr: &Attribute) -> syn::Result<TokenStream> {
    match &attr.meta {
        syn::Meta::Path(_) => Ok(TokenStream::new()),
        syn::Meta::List(list) => Ok(list.tokens.clone()),
        syn::Meta::NameValue(nv) => Err(syn::Error::new_spanned(
            nv,
            "write `#[tool]` or `#[tool(key = value, ..)]`",
        )),
    }
}
