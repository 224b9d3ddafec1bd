//! `#[tool]`: a fn (free, or a method in a `#[toolbox]` impl) becomes a `ToolDef`.
//!
//! Pipeline (as thiserror's `try_expand`): parse the attribute and signature into [`ToolModel`]
//! (stripping our attributes from the fn as we go), check, then generate. On error the fn is still
//! emitted, without our attributes, next to the errors, so the rest of the crate keeps compiling.

use darling::FromMeta;
use darling::ast::NestedMeta;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, FnArg, Ident, ItemFn, Pat, ReturnType, Signature, Type};

use crate::attr::ToolAttr;
use crate::ctxt::Ctxt;
use crate::doc::{self, Doc};
use crate::param::{self, ParamDecl};
use crate::policy;

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
    title: Option<String>,
    description: Option<Doc>,
    hints: [(&'static str, Option<bool>); 4],
    timeout_ms: Option<u64>,
    resources: Vec<String>,
    retry: u32,
    max_output_bytes: Option<usize>,
    group: Option<String>,
    params: Vec<ParamModel>,
    flatten: bool,
    receiver: Receiver,
    is_async: bool,
    ret: Type,
}

/// Parses `#[tool(..)]` arguments.
pub fn parse_tool_attr(cx: &Ctxt, args: TokenStream) -> ToolAttr {
    match NestedMeta::parse_meta_list(args) {
        Ok(list) => ToolAttr::from_list(&list).unwrap_or_else(|e| {
            cx.darling(e);
            ToolAttr::default()
        }),
        Err(e) => {
            cx.push(e);
            ToolAttr::default()
        }
    }
}

fn valid_tool_name(s: &str) -> bool {
    (1..=128).contains(&s.len())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

impl ToolModel {
    /// Builds the model from the fn's attributes and signature, stripping `#[param]` and doc
    /// comments from its arguments.
    pub fn from_fn(
        cx: &Ctxt,
        attr: ToolAttr,
        attrs: &[Attribute],
        sig: &mut Signature,
        site: Site,
    ) -> ToolModel {
        let fn_ident = sig.ident.clone();
        let fn_name = fn_ident.to_string().trim_start_matches("r#").to_owned();
        let name = match &attr.name {
            Some(n) => {
                if !valid_tool_name(n) {
                    cx.error_at(
                        n.span(),
                        format!(
                            "invalid tool name `{}`: use 1 to 128 of the characters A-Z a-z 0-9 _ . - (no spaces)",
                            &**n
                        ),
                    );
                }
                (**n).clone()
            }
            None => fn_name.clone(),
        };
        let description = match &attr.description {
            Some(d) => Some(Doc::Text((**d).clone())),
            None => doc::from_attrs(attrs),
        };
        if description.is_none() {
            cx.error_spanned_by(
                &sig.ident,
                format!(
                    "tool `{name}` has no description: add a doc comment (`/// Moves the arm to …`) \
                     saying what the tool does and when to use it, or `#[tool(description = \"..\")]`"
                ),
            );
        }
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

        if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
            cx.error_spanned_by(
                &sig.generics,
                "a tool fn cannot be generic: its parameter types are published as a JSON Schema, so they must be concrete",
            );
        }
        if let Some(c) = &sig.constness {
            cx.error_spanned_by(c, "a tool fn cannot be `const`");
        }
        if let syn::Safety::Unsafe(u) = &sig.safety {
            cx.error_spanned_by(u, "a tool fn cannot be `unsafe`");
        }
        if let Some(v) = &sig.variadic {
            cx.error_spanned_by(v, "a tool fn cannot be variadic");
        }

        let mut receiver = Receiver::None;
        let mut params = Vec::new();
        let mut flatten = false;
        for input in sig.inputs.iter_mut() {
            match input {
                FnArg::Receiver(r) => {
                    if site == Site::Free {
                        cx.error_spanned_by(
                            &*r,
                            "`self` is only available to tools declared inside a `#[toolwright::toolbox] impl` block",
                        );
                    } else if !matches!(r.kind, syn::ReceiverKind::Reference(..)) {
                        cx.error_spanned_by(
                            &*r,
                            "a tool method takes `&self`: the state is shared between concurrent calls, so it cannot be taken by value",
                        );
                    } else if matches!(r.kind, syn::ReceiverKind::Reference(_, _, Some(_))) {
                        cx.error_spanned_by(
                            &*r,
                            "a tool method takes `&self`, not `&mut self`: calls run concurrently; keep mutable state behind a `Mutex` or `RwLock`",
                        );
                    }
                    receiver = Receiver::Ref;
                }
                FnArg::Typed(pt) => {
                    let decl = ParamDecl::parse(cx, &pt.attrs);
                    pt.attrs.retain(|a| !param::is_param(a) && !doc::is_doc(a));
                    let ident = match &*pt.pat {
                        Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                            pi.ident.clone()
                        }
                        other => {
                            cx.error_spanned_by(
                                other,
                                "tool parameters must be plain names (`force: f64`): each name becomes a property of the tool's input",
                            );
                            format_ident!("__tw_invalid_{}", params.len())
                        }
                    };
                    check_param_type(cx, &pt.ty);
                    let plain = ident.to_string().trim_start_matches("r#").to_owned();
                    let json_name = decl.attr.rename.as_ref().map_or(plain, |r| (**r).clone());
                    if decl.attr.flatten.is_present() {
                        flatten = true;
                    } else if decl.attr.description.is_none()
                        && decl.doc.is_none()
                        && !is_context_type(&pt.ty)
                    {
                        cx.error_spanned_by(
                            &ident,
                            format!(
                                "parameter `{json_name}` has no description: add a doc comment on it (`/// Grip force …`) or `#[param(description = \"..\")]`"
                            ),
                        );
                    }
                    params.push(ParamModel {
                        ident,
                        ty: (*pt.ty).clone(),
                        json_name,
                        decl,
                    });
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
                        "two parameters are named `{}` (the first is `{}`)",
                        p.json_name, first.ident
                    ),
                );
            }
        }
        let ret = match &sig.output {
            ReturnType::Default => syn::parse_quote!(()),
            ReturnType::Type(_, ty) => {
                if let Type::ImplTrait(t) = &**ty {
                    cx.error_spanned_by(t, "a tool must return a concrete type (its JSON Schema is published as the outputSchema), not `impl Trait`");
                }
                (**ty).clone()
            }
        };
        ToolModel {
            fn_ident,
            name,
            title: attr.title.as_ref().map(|t| (**t).clone()),
            description,
            hints,
            timeout_ms,
            resources,
            retry,
            max_output_bytes: attr.max_output_bytes.as_ref().map(|m| **m),
            group,
            params,
            flatten,
            receiver,
            is_async: sig.asyncness.is_some(),
            ret,
        }
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The fn's ident.
    pub fn fn_ident(&self) -> &Ident {
        &self.fn_ident
    }

    /// A `ToolDef<#state>` expression; `callee` is the path that calls the fn.
    pub fn def_expr(&self, state: &TokenStream, callee: &TokenStream) -> TokenStream {
        let p = quote!(::toolwright::__private);
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
        let params = if self.flatten {
            let ty = &self.params[0].ty;
            let info = param::type_info_tokens(ty);
            quote!(#p::Params::Flatten(#info))
        } else {
            let fields = self.params.iter().map(|param| {
                let spec = param
                    .decl
                    .spec_tokens(&param.json_name, &param.ty, false, false);
                let info = param::type_info_tokens(&param.ty);
                quote!(#p::Field { spec: #spec, info: #info, flatten: false })
            });
            quote!(#p::Params::Fields(#p::Vec::from([#(#fields),*])))
        };
        let ret = &self.ret;
        let output = quote_spanned! {ret.span()=>
            {
                #[allow(unused_imports)]
                use ::toolwright::__private::{ReturnResult as _, ReturnPlain as _};
                (&::toolwright::__private::Probe::<#ret>::new()).output_info()
            }
        };
        let idents: Vec<_> = self.params.iter().map(|p| &p.ident).collect();
        let receiver = match self.receiver {
            Receiver::Ref => quote!(&*__tw_state,),
            Receiver::None => quote!(),
        };
        let await_ = if self.is_async {
            quote!(.await)
        } else {
            quote!()
        };
        let call = quote! {
            let __tw_ret: #ret = #callee(#receiver #(#idents),*) #await_;
            #[allow(unused_imports)]
            use ::toolwright::__private::{ReturnResult as _, ReturnPlain as _};
            (&::toolwright::__private::Probe::<#ret>::new()).output_value(__tw_ret)
        };
        let body = if self.params.is_empty() {
            quote!({ let _ = __tw_args; #call })
        } else {
            let takes = self.params.iter().map(|param| {
                let ty = &param.ty;
                if self.flatten {
                    quote!(__tw_args.take_all::<#ty>())
                } else {
                    let json = &param.json_name;
                    quote_spanned! {ty.span()=>
                        {
                            #[allow(unused_imports)]
                            use ::toolwright::__private::{ParamOptional as _, ParamContext as _, ParamPlain as _};
                            (&::toolwright::__private::Probe::<#ty>::new()).take_arg(&mut __tw_args, #json)
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
        quote! {
            {
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
                        ..::core::default::Default::default()
                    },
                    params: #params,
                    output: #output,
                    handler: |__tw_state: #p::Arc<#state>, #[allow(unused_mut)] mut __tw_args: #p::Args| {
                        let _ = &__tw_state;
                        #p::boxed(async move { #body })
                    },
                }
            }
        }
    }
}

/// Whether a parameter is spelled as toolwright's `Context` (filled from the call, never
/// published, so it needs no description). Only the description requirement looks at the
/// spelling; what the parameter *is* is decided by trait resolution on its type.
fn is_context_type(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.segments.last().is_some_and(|s| s.ident == "Context"))
}

fn check_param_type(cx: &Ctxt, ty: &Type) {
    match ty {
        Type::Reference(r) => cx.error_spanned_by(
            r,
            "tool parameters are deserialized from the call's JSON arguments, so they must be owned: use `String` instead of `&str`, `Vec<T>` instead of `&[T]`",
        ),
        Type::ImplTrait(t) => cx.error_spanned_by(
            t,
            "a tool parameter cannot be `impl Trait`: its JSON Schema is published, so the type must be concrete",
        ),
        Type::Infer(t) => cx.error_spanned_by(t, "a tool parameter needs a concrete type"),
        _ => {}
    }
}

/// `#[tool]` on a free fn.
pub fn expand(args: TokenStream, input: TokenStream) -> TokenStream {
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
    let model = ToolModel::from_fn(&cx, attr, &item.attrs, &mut item.sig, Site::Free);
    match cx.check() {
        Ok(()) => {
            let vis = &item.vis;
            let def_ident = def_fn_ident(&item.sig.ident);
            let fn_ident = model.fn_ident();
            let def = model.def_expr(&quote!(__TwState), &quote!(#fn_ident));
            let doc = format!(
                "The toolwright definition of the tool `{}` (generated by `#[tool]`; use `tools![{}]`).",
                model.name(),
                fn_ident
            );
            quote! {
                #item
                #[doc = #doc]
                #[doc(hidden)]
                #[allow(non_snake_case, clippy::all)]
                #vis fn #def_ident<__TwState: ::core::marker::Send + ::core::marker::Sync + 'static>() -> ::toolwright::__private::ToolDef<__TwState> {
                    #def
                }
            }
        }
        Err(e) => {
            let e = e.to_compile_error();
            quote!(#e #item)
        }
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
