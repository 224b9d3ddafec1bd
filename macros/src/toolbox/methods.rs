//! The methods of a `#[toolbox]` impl that its attributes name: a resource's `safe_stop` and
//! `position`, a tool's `check`. Each is found by name (with a did-you-mean), its signature
//! checked, and called from generated code through a trait bound reported at the user's token.

use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, ImplItem, ImplItemFn, ItemImpl, ReturnType};

use crate::ctxt::Ctxt;
use crate::doc::Doc;
use crate::item::Broken;
use crate::tool::{CheckDef, ToolModel};

/// The impl block as read: its items, and those that could not be read.
pub(super) struct Impl<'a> {
    pub(super) item: &'a ItemImpl,
    pub(super) broken: &'a Broken,
}

/// What a named method is for, in messages.
pub(super) struct Role {
    /// `a safe stop`, for "`{what}` is a method of the impl".
    what: &'static str,
    /// The key, `safe_stop = halt`, for "write its name".
    key: &'static str,
    /// A signature to write when no method is near the name (`{}`: the name).
    example: &'static str,
}

const SAFE_STOP: Role = Role {
    what: "a safe stop",
    key: "safe_stop",
    example: "fn {}(&self) -> String",
};
const POSITION: Role = Role {
    what: "a position",
    key: "position",
    example: "fn {}(&self) -> [f64; 3]",
};
const CHECK: Role = Role {
    what: "a check",
    key: "check",
    example: "",
};

/// The method of the impl that `path` names. When there is none: a did-you-mean among the
/// impl's methods, else the signature to write; nothing when the method is one being typed.
fn method<'i>(cx: &Ctxt, path: &syn::Path, imp: &Impl<'i>, role: &Role) -> Option<&'i ImplItemFn> {
    let ident = match path.segments.iter().collect::<Vec<_>>().as_slice() {
        [one] if path.leading_colon.is_none() && one.arguments.is_none() => &one.ident,
        [s, one]
            if s.ident == "Self" && path.leading_colon.is_none() && one.arguments.is_none() =>
        {
            &one.ident
        }
        _ => {
            cx.error_spanned_by(
                path,
                format!(
                    "{} is a method of this `#[toolbox] impl`: write its name, `{} = name`",
                    role.what, role.key
                ),
            );
            return None;
        }
    };
    let fns = || {
        imp.item.items.iter().filter_map(|i| match i {
            ImplItem::Fn(f) => Some(f),
            _ => None,
        })
    };
    if let Some(found) = fns().find(|f| f.sig.ident == *ident) {
        return Some(found);
    }
    if imp.broken.has_fn(ident) {
        return None;
    }
    let names: Vec<String> = fns()
        .map(|f| f.sig.ident.to_string())
        .chain(imp.broken.fns.iter().map(ToString::to_string))
        .collect();
    let fix = match crate::util::closest(&ident.to_string(), names.iter().map(String::as_str)) {
        Some(near) => format!("did you mean `{near}`?"),
        None if role.example.is_empty() => format!("{} is a method of the impl", role.what),
        None => format!(
            "{} is a method of the impl, e.g. `{}`",
            role.what,
            role.example.replace("{}", &ident.to_string())
        ),
    };
    cx.error_spanned_by(
        path,
        format!("no method `{ident}` in this `#[toolbox] impl`: {fix}"),
    );
    None
}

/// The position `path` names: a sync method of the impl taking only `&self`, whose return
/// type says where the resource is (checked by the `IntoPosition` bound, at the name).
pub(super) fn position(cx: &Ctxt, path: &syn::Path, imp: &Impl) -> Option<TokenStream> {
    let p = crate::runtime::private();
    let method = method(cx, path, imp, &POSITION)?;
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
    let span = return_span(sig);
    let at = crate::runtime::private_at(span);
    let ident = syn::Ident::new(&ident.to_string(), span);
    let read =
        quote_spanned!(span=> <_ as #at::IntoPosition>::into_position(Self::#ident(__tw_state)));
    Some(quote!(|__tw_state: &Self| -> #p::Option<[f64; 3]> { #read }))
}

/// Where an error about what a method returns goes: its return type's first token (one line),
/// or its name when it returns `()`.
fn return_span(sig: &syn::Signature) -> proc_macro2::Span {
    match &sig.output {
        ReturnType::Default => sig.ident.span(),
        ReturnType::Type(_, ty) => ty
            .to_token_stream()
            .into_iter()
            .next()
            .map_or_else(|| ty.span(), |t| t.span()),
    }
}

/// The signature a check of `model` takes: `&self`, then the tool's published parameters as
/// the tool declares them (a `Context` is not an argument).
fn check_signature(name: &syn::Ident, model: &ToolModel) -> String {
    let mut params = vec!["&self".to_owned()];
    params.extend(
        model
            .arguments()
            .map(|(ident, ty)| format!("{ident}: {}", crate::typecheck::type_text(ty))),
    );
    format!("fn {name}({}) -> Result<(), String>", params.join(", "))
}

/// The `Check` of a tool's `check = ..`: a sync method of the impl taking `&self` and some of
/// the tool's parameters, by name (each read from the validated arguments), and returning a
/// `Result<(), E>` (checked by the `CheckOutput` bound, at its return type).
pub(super) fn check_fn(
    cx: &Ctxt,
    path: &syn::Path,
    model: &ToolModel,
    imp: &Impl,
) -> Option<CheckDef> {
    let p = crate::runtime::private();
    let method = method(cx, path, imp, &CHECK)?;
    let sig = &method.sig;
    let mut ok = true;
    let by_ref = matches!(
        sig.inputs.first(),
        Some(FnArg::Receiver(r)) if matches!(r.kind, syn::ReceiverKind::Reference(_, _, None))
    );
    if !by_ref || sig.asyncness.is_some() || !sig.generics.params.is_empty() {
        let at: &dyn ToTokens = match sig.inputs.first() {
            Some(FnArg::Receiver(r)) if !by_ref => r,
            _ if sig.asyncness.is_some() => &sig.asyncness,
            _ if !sig.generics.params.is_empty() => &sig.generics,
            _ => &sig.ident,
        };
        cx.error_spanned_by(
            at,
            format!(
                "the check `{}` must be a sync method taking `&self`, then parameters of the tool \
                 `{}` by name: `{}`; it runs before the user is asked, and again at the call's turn",
                sig.ident,
                model.name(),
                check_signature(&sig.ident, model),
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
        let Some((json, tool_ty)) = model.argument(&ident.to_string()) else {
            let names: Vec<String> = model.arguments().map(|(i, _)| i.to_string()).collect();
            let fix =
                match crate::util::closest(&ident.to_string(), names.iter().map(String::as_str)) {
                    Some(near) => format!("did you mean `{near}`?"),
                    None if names.is_empty() => format!(
                        "it has none, so its check takes only `&self`: `{}`",
                        check_signature(&sig.ident, model)
                    ),
                    None => format!(
                        "a check takes the tool's parameters by name ({})",
                        names
                            .iter()
                            .map(|n| format!("`{n}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
            cx.error_spanned_by(
                ident,
                format!(
                    "`{ident}` is not a parameter of the tool `{}`: {fix}",
                    model.name()
                ),
            );
            ok = false;
            continue;
        };
        // Read as the tool's type, converted into the check's (`CheckArgument`, required at
        // the check's type: the same type, or `From` the tool's).
        let ty = &pt.ty;
        let span = ty
            .to_token_stream()
            .into_iter()
            .next()
            .map_or_else(|| ty.span(), |t| t.span());
        let at = crate::runtime::private_at(span);
        let local = format_ident!("__tw_check_{}", idents.len());
        reads.push(quote_spanned!(span=>
            let #local: #ty = <#ty as #at::CheckArgument<#tool_ty>>::read(__tw_map, #json)?;
        ));
        idents.push(local);
    }
    if !ok {
        return None;
    }
    let span = return_span(sig);
    let ident = syn::Ident::new(&sig.ident.to_string(), span);
    let at = crate::runtime::private_at(span);
    // A question that shows `{check}` needs a check that says something (`Result<String, E>`).
    let call = if model.question_shows_check() {
        quote_spanned!(span=>
            <_ as #at::CheckNote>::into_note(Self::#ident(__tw_state, #(#idents),*))
        )
    } else {
        quote_spanned!(span=>
            <_ as #at::CheckOutput>::into_refusal(Self::#ident(__tw_state, #(#idents),*))
        )
    };
    let doc = check_doc(cx, method, model)?;
    Some(CheckDef {
        call: quote! {
            |__tw_state: &Self, __tw_map: &#p::serde_json::Map<#p::String, #p::serde_json::Value>| -> #p::CheckResult {
                let _ = __tw_map;
                #(#reads)*
                #call
            }
        },
        doc,
    })
}

/// A check's doc comment: what it refuses, published at the end of its tool's description
/// (`Before it runs: ..`), so it is required and counts in the description's budget.
fn check_doc(cx: &Ctxt, method: &ImplItemFn, model: &ToolModel) -> Option<Doc> {
    let Some(doc) = crate::doc::from_attrs(&method.attrs) else {
        cx.error_spanned_by(
            &method.sig.ident,
            format!(
                "the check `{}` has no doc comment: say what it refuses (`/// Below 100 mm the \
                 speed is at most 0.5.`); it ends the description of the tool `{}`, so the model \
                 knows before it calls",
                method.sig.ident,
                model.name()
            ),
        );
        return None;
    };
    if let (Doc::Text(text), Some(own)) = (&doc, model.description_text()) {
        let bytes = own.trim().len() + crate::check::CHECK_SEPARATOR.len() + text.trim().len();
        let limit = model.description_limit();
        if bytes > limit
            && let Some(at) = crate::doc::span_tokens(&method.attrs)
        {
            cx.error_spanned_by(
                at,
                format!(
                    "the description of tool `{}` ends with its check's doc comment, and together \
                     they are {bytes} bytes, over the budget of {limit} bytes: the model reads both \
                     on every turn; shorten them, or raise the budget with \
                     `#[tool(max_description_bytes = ..)]` (or on the `#[toolbox]`)",
                    model.name()
                ),
            );
        }
    }
    Some(doc)
}

/// The safe stop `path` names: a method of the impl taking only `&self`, sync (run on the
/// blocking pool) or async. Its return type is checked by the `SafeStopOutput` bound, reported
/// at the type.
pub(super) fn safe_stop(cx: &Ctxt, path: &syn::Path, imp: &Impl) -> Option<TokenStream> {
    let p = crate::runtime::private();
    let method = method(cx, path, imp, &SAFE_STOP)?;
    let ident = &method.sig.ident;
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
    // What it returns is reported through `SafeStopOutput`, required at its return type.
    let span = return_span(sig);
    let ident = syn::Ident::new(&ident.to_string(), span);
    let p_at = crate::runtime::private_at(span);
    let body = if sig.asyncness.is_some() {
        quote_spanned!(span=> #p_at::safe_stop_async(async move {
            <_ as #p_at::SafeStopOutput>::report(Self::#ident(&*__tw_state).await)
        }))
    } else {
        quote_spanned!(span=> #p_at::safe_stop_blocking(move || {
            <_ as #p_at::SafeStopOutput>::report(Self::#ident(&*__tw_state))
        }))
    };
    Some(quote!(|__tw_state: #p::Arc<Self>| #body))
}
