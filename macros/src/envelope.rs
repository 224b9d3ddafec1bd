//! `#[toolbox(resource(.., envelope(..)))]`: the envelope as an `EnvelopeDef` constant (an
//! associated const of the toolbox's type, so the runtime and the checks share one value), the
//! compile-time checks of each shape and of the whole (a `const` per check, reported at the
//! token that made the mistake), and the checks that a target's declared ranges lie within it.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Expr, Ident, Type};

use crate::attr::{EnvelopeAttr, ShapeAttr};
use crate::ctxt::Ctxt;
use crate::property::{Components, Property, RangeBound};
use crate::tool::{TargetModel, ToolModel};

/// One declared envelope: the name of its constant and the items to emit.
pub struct EnvelopeTokens {
    /// `__TW_ENVELOPE_<n>`, an associated const of the toolbox's type.
    pub ident: Ident,
    /// `impl Type { const __TW_ENVELOPE_<n>: EnvelopeDef = ..; }`.
    pub item: TokenStream,
    /// The compile-time checks, as `const _: () = ..;` items.
    pub checks: Vec<TokenStream>,
}

/// The constant and checks of `attr`, the envelope of resource number `index`.
pub fn declare(
    cx: &Ctxt,
    attr: &darling::util::SpannedValue<EnvelopeAttr>,
    index: usize,
    self_ty: &Type,
) -> EnvelopeTokens {
    let p = crate::runtime::private();
    let ident = format_ident!("__TW_ENVELOPE_{index}");
    let (frame, unit) = (&*attr.frame, &*attr.unit);
    if frame.trim().is_empty() {
        cx.error_at(
            attr.frame.span(),
            "`frame` names the frame the coordinates are in, e.g. `frame = \"base_link\"`",
        );
    }
    if unit.trim().is_empty() {
        cx.error_at(
            attr.unit.span(),
            "`unit` is the unit of every coordinate, e.g. `unit = \"mm\"`",
        );
    }
    let tool_radius = attr
        .tool_radius
        .as_ref()
        .map_or_else(|| quote!(0.0), number);
    let max_step = match &attr.max_step {
        Some(e) => {
            let n = number(e);
            quote!(#p::Some(#n))
        }
        None => quote!(#p::None),
    };
    let mut checks = Vec::new();
    let mut shapes = |list: &[darling::util::SpannedValue<ShapeAttr>], keep_out: bool| {
        let field = if keep_out {
            quote!(keep_out)
        } else {
            quote!(allow)
        };
        list.iter()
            .enumerate()
            .filter_map(|(k, shape)| {
                let solid = solid(cx, shape)?;
                let name = match &shape.name {
                    Some(n) => {
                        let n = &**n;
                        quote!(#p::Some(#n))
                    }
                    None => quote!(#p::None),
                };
                let span = shape.span();
                let at = crate::runtime::private_at(span);
                checks.push(quote_spanned! {span=>
                    const _: () = if let ::core::option::Option::Some(__tw_msg) =
                        #at::shape_problem(&<#self_ty>::#ident.#field[#k])
                    {
                        ::core::panic!("{}", __tw_msg.as_str())
                    };
                });
                if keep_out {
                    checks.push(quote_spanned! {span=>
                        const _: () = if let ::core::option::Option::Some(__tw_msg) =
                            #at::keep_out_name_problem(&<#self_ty>::#ident.#field[#k])
                        {
                            ::core::panic!("{}", __tw_msg.as_str())
                        };
                    });
                }
                Some(quote!(#p::ShapeDef { name: #name, solid: #solid }))
            })
            .collect::<Vec<_>>()
    };
    let allow = shapes(&attr.allow, false);
    let keep_out = shapes(&attr.keep_out, true);
    let span = attr.span();
    let at = crate::runtime::private_at(span);
    checks.push(quote_spanned! {span=>
        const _: () = if let ::core::option::Option::Some(__tw_msg) =
            #at::envelope_problem(&<#self_ty>::#ident)
        {
            ::core::panic!("{}", __tw_msg.as_str())
        };
    });
    let item = quote! {
        #[allow(clippy::all, non_upper_case_globals)]
        impl #self_ty {
            #[doc(hidden)]
            const #ident: #p::EnvelopeDef = #p::EnvelopeDef {
                frame: #frame,
                unit: #unit,
                tool_radius: #tool_radius,
                allow: &[#(#allow),*],
                keep_out: &[#(#keep_out),*],
                max_step: #max_step,
            };
        }
    };
    EnvelopeTokens {
        ident,
        item,
        checks,
    }
}

/// The solid of one shape: exactly one of `box`, `sphere` and `cylinder`.
fn solid(cx: &Ctxt, shape: &darling::util::SpannedValue<ShapeAttr>) -> Option<TokenStream> {
    let p = crate::runtime::private();
    let given = [
        shape.cuboid.is_some(),
        shape.sphere.is_some(),
        shape.cylinder.is_some(),
    ];
    if given.iter().filter(|g| **g).count() != 1 {
        cx.error_at(
            shape.span(),
            "a shape is one solid: `box(min = (x, y, z), max = (x, y, z))`, \
             `sphere(center = (x, y, z), radius = r)` or \
             `cylinder(center = (x, y), radius = r, z = (bottom, top))` (vertical)",
        );
        return None;
    }
    if let Some(b) = &shape.cuboid {
        let min = point(cx, &b.min, 3)?;
        let max = point(cx, &b.max, 3)?;
        return Some(quote!(#p::Solid::Box { min: #min, max: #max }));
    }
    if let Some(s) = &shape.sphere {
        let center = point(cx, &s.center, 3)?;
        let radius = number(&s.radius);
        return Some(quote!(#p::Solid::Sphere { center: #center, radius: #radius }));
    }
    let c = shape.cylinder.as_ref()?;
    let center = point(cx, &c.center, 2)?;
    let radius = number(&c.radius);
    let (z_min, z_max) = match &c.z {
        Expr::Tuple(t) if t.elems.len() == 2 => (number(&t.elems[0]), number(&t.elems[1])),
        other => {
            cx.error_spanned_by(
                other,
                "`z = (bottom, top)`: the heights the vertical cylinder spans",
            );
            return None;
        }
    };
    Some(
        quote!(#p::Solid::Cylinder { center: #center, radius: #radius, z_min: #z_min, z_max: #z_max }),
    )
}

/// A number as `f64`, spanned at the expression (a literal, or a `const` in the unit).
fn number(e: &Expr) -> TokenStream {
    quote_spanned!(e.span()=> ((#e) as f64))
}

/// A point of `n` coordinates: `(x, y, z)` or `[x, y, z]` written out (each as `f64`), or an
/// expression of type `[f64; n]` (a `const`).
fn point(cx: &Ctxt, e: &Expr, n: usize) -> Option<TokenStream> {
    let elems: Vec<&Expr> = match e {
        Expr::Tuple(t) => t.elems.iter().collect(),
        Expr::Array(a) => a.elems.iter().collect(),
        Expr::Paren(_) | Expr::Lit(_) => {
            cx.error_spanned_by(
                e,
                if n == 3 {
                    "a point is `(x, y, z)`: three numbers in the envelope's unit"
                } else {
                    "`center = (x, y)`: the cylinder's axis, two numbers in the envelope's unit"
                },
            );
            return None;
        }
        other => return Some(quote_spanned!(other.span()=> (#other))),
    };
    if elems.len() != n {
        cx.error_spanned_by(
            e,
            if n == 3 {
                "a point is `(x, y, z)`: three numbers in the envelope's unit"
            } else {
                "`center = (x, y)`: the cylinder's axis, two numbers in the envelope's unit"
            },
        );
        return None;
    }
    let elems = elems.into_iter().map(number);
    Some(quote!([#(#elems),*]))
}

/// The compile-time checks that the ranges a tool declares on its target's coordinates lie
/// within the envelope `ident` of `self_ty` (shrunk by the tool radius): one `const` per
/// coordinate with a declared range, reported at that range.
pub fn range_checks(model: &ToolModel, self_ty: &Type, ident: &Ident) -> Vec<TokenStream> {
    let mut checks = Vec::new();
    let mut check = |axis: usize, span: Span, min: TokenStream, max: TokenStream| {
        let at = crate::runtime::private_at(span);
        checks.push(quote_spanned! {span=>
            #[allow(clippy::all)]
            const _: () = if #at::range_wider(&<#self_ty>::#ident, #axis, #min, #max) {
                ::core::panic!("{}", #at::range_wider_message(#axis).as_str())
            };
        });
    };
    let bound = |b: &Option<RangeBound>| match b {
        Some(b) => {
            let e = &b.expr;
            quote_spanned!(e.span()=> ::core::option::Option::Some((#e) as f64))
        }
        None => quote!(::core::option::Option::None),
    };
    let scalar = |decl: &Property| -> Option<(Span, TokenStream, TokenStream)> {
        let span = decl
            .min
            .as_ref()
            .map(|b| b.expr.span())
            .or(decl.max.as_ref().map(|b| b.expr.span()))?;
        Some((span, bound(&decl.min), bound(&decl.max)))
    };
    match model.target() {
        None => {}
        Some(TargetModel::Params(names)) => {
            for (axis, name) in names.iter().enumerate() {
                if let Some((_, decl)) = model.param(name)
                    && let Some((span, min, max)) = scalar(decl)
                {
                    check(axis, span, min, max);
                }
            }
        }
        Some(TargetModel::Point(name) | TargetModel::Path(name)) => {
            let Some((_, decl)) = model.param(name) else {
                return checks;
            };
            match &decl.components {
                Some(Components::Listed(ranges)) => {
                    for (axis, range) in ranges.iter().enumerate().take(3) {
                        check(
                            axis,
                            range.expr.span(),
                            bound(&range.min),
                            bound(&range.max),
                        );
                    }
                }
                Some(Components::Const(e)) => {
                    for axis in 0..3 {
                        check(
                            axis,
                            e.span(),
                            quote_spanned!(e.span()=> ::core::option::Option::Some(*(#e)[#axis].start())),
                            quote_spanned!(e.span()=> ::core::option::Option::Some(*(#e)[#axis].end())),
                        );
                    }
                }
                None => {
                    if let Some((span, min, max)) = scalar(decl) {
                        for axis in 0..3 {
                            check(axis, span, min.clone(), max.clone());
                        }
                    }
                }
            }
        }
    }
    checks
}
