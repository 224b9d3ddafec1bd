//! `#[toolbox(resource(..))]`: the resources the tools share, each declared once, with its safe
//! stop, position and envelope. Every key of `resource(..)` is read here (its syntax is
//! `crate::attr::ResourceAttr`).

use proc_macro2::TokenStream;
use quote::quote;

use crate::attr::ResourceAttr;
use crate::ctxt::Ctxt;
use crate::tool::ToolModel;

use super::methods::{Impl, position, safe_stop};

/// What the `resource(..)` declarations make: the `ResourceDef` expressions, the envelopes'
/// constants (by resource name) and their compile-time checks.
/// A resource's envelope, as the tools' checks need it.
pub(super) struct Envelope {
    pub(super) resource: String,
    pub(super) ident: syn::Ident,
    pub(super) unit: String,
}

pub(super) struct Resources {
    pub(super) defs: Vec<TokenStream>,
    /// Each envelope: its resource, its constant and its unit as declared.
    pub(super) envelopes: Vec<Envelope>,
    pub(super) items: TokenStream,
    pub(super) checks: Vec<TokenStream>,
}

/// The `resource(..)` declarations, checked, as `ResourceDef` expressions: each names a resource
/// a tool of the impl uses, once; every resource a tool names (`resource`, `stop_for`) is
/// declared; a safe stop and a position are methods of the impl taking only `&self`.
pub(super) fn resources(
    cx: &Ctxt,
    attrs: &[ResourceAttr],
    models: &[ToolModel],
    imp: &Impl,
) -> Resources {
    let item = imp.item;
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
            // A tool that uses it may be the item being typed, or name it misspelt (that error,
            // with its did-you-mean, says it all).
            let misspelt = used.iter().any(|u| {
                !declared.contains(u) && crate::util::closest(u, [name.as_str()]).is_some()
            });
            if imp.broken.any || misspelt {
                continue;
            }
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
            Some(path) => match safe_stop(cx, path, imp) {
                Some(f) => quote!({ let f: #p::SafeStop<Self> = #f; #p::Some(f) }),
                None => continue,
            },
        };
        let position = match &attr.position {
            None => quote!(#p::None),
            Some(path) => match position(cx, path, imp) {
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
                out.envelopes.push(Envelope {
                    resource: name.clone(),
                    ident: ident.clone(),
                    unit: envelope.unit.as_str().to_owned(),
                });
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
