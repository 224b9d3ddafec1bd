//! The checks of a tool's signature (header, receiver, parameter and return types) and of its
//! description, run as the model reads them. (Checks shared with fields are in `crate::check`;
//! type-dependent ones are `const` items, `crate::typecheck`.)

use quote::quote_spanned;
use syn::{Attribute, Ident, ReturnType, Signature, Type};

use crate::attr::ToolAttr;
use crate::check;
use crate::ctxt::Ctxt;
use crate::doc::{self, Doc};
use crate::property;
use crate::typecheck::Checks;

use super::Site;
use super::model::Settings;

/// The tool's description (`description = ".."` or the doc comment), checked: present, not a
/// placeholder, within its budget (measured by a `const` check for `#[doc = include_str!(..)]`).
#[allow(clippy::too_many_arguments)]
pub(super) fn tool_description(
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
pub(super) fn check_fn_header(cx: &Ctxt, sig: &Signature) -> bool {
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
pub(super) fn check_receiver(cx: &Ctxt, r: &mut syn::Receiver, site: Site) -> bool {
    if let Some(a) = r.attrs.iter().find(|a| property::is_param(a)) {
        cx.error_spanned_by(a, "`#[param]` goes on the tool's parameters, not on `self`");
    }
    r.attrs
        .retain(|a| !property::is_param(a) && !doc::is_doc(a));
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

/// The return type (`()` when none); `false` when it cannot be served.
pub(super) fn return_type(cx: &Ctxt, output: &ReturnType) -> (Type, bool) {
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
pub(super) fn check_param_type(cx: &Ctxt, ty: &Type) -> bool {
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
