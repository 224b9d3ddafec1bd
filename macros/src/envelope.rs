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
use crate::property::{Components, RangeBound};
use crate::tool::{TargetModel, ToolModel};
use crate::typecheck::At;

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
    let env = quote!(<#self_ty>::#ident);
    // `const _: () = <Holds<{ #cond }> as #rule>::CHECK;` at `span`: the rule's message.
    let holding = |span: Span, cond: TokenStream, rule: &str| {
        let at = crate::runtime::private_at(span);
        let rule = Ident::new(rule, span);
        quote_spanned! {span=>
            #[allow(clippy::all)]
            const _: () = <#at::Holds<{ #cond }> as #at::#rule>::CHECK;
        }
    };
    if attr.allow.is_empty() {
        cx.error_at(
            attr.span(),
            "this envelope allows nothing: declare where the tool may be with at least one \
             `allow(box(..))`, `allow(sphere(..))` or `allow(cylinder(..))`",
        );
    }
    let mut shapes = |list: &[darling::util::SpannedValue<ShapeAttr>], keep_out: bool| {
        let field = if keep_out {
            quote!(keep_out)
        } else {
            quote!(allow)
        };
        list.iter()
            .enumerate()
            .filter_map(|(k, shape)| {
                let (solid, solid_span) = solid(cx, shape)?;
                let name = match &shape.name {
                    Some(n) => {
                        let n = &**n;
                        quote!(#p::Some(#n))
                    }
                    None => {
                        if keep_out {
                            cx.error_at(
                                shape.span(),
                                "a keep-out needs a name, so that a refused motion can say what \
                                 it would hit: `keep_out(name = \"camera_mast\", box(..))`",
                            );
                        }
                        quote!(#p::None)
                    }
                };
                let at = crate::runtime::private_at(solid_span);
                checks.push(holding(
                    solid_span,
                    quote_spanned!(solid_span=> #at::solid_valid(&#env.#field[#k])),
                    "ValidSolid",
                ));
                if keep_out {
                    checks.push(holding(
                        solid_span,
                        quote_spanned!(solid_span=> #at::keep_out_meets_the_envelope(&#env, #k)),
                        "KeepOutMeetsTheEnvelope",
                    ));
                }
                Some(quote!(#p::ShapeDef { name: #name, solid: #solid }))
            })
            .collect::<Vec<_>>()
    };
    let allow = shapes(&attr.allow, false);
    let keep_out = shapes(&attr.keep_out, true);
    let numbers_span = attr
        .tool_radius
        .as_ref()
        .or(attr.max_step.as_ref())
        .map_or_else(|| attr.span(), |e| e.span());
    let at = crate::runtime::private_at(numbers_span);
    checks.push(holding(
        numbers_span,
        quote_spanned!(numbers_span=> #at::envelope_numbers_valid(&#env)),
        "EnvelopeNumbers",
    ));
    let span = attr.span();
    let at = crate::runtime::private_at(span);
    checks.push(holding(
        span,
        quote_spanned!(span=> #at::allow_shapes_overlap(&#env)),
        "AllowShapesOverlap",
    ));
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

/// The solid of one shape, and where it is written: exactly one of `box`, `sphere` and
/// `cylinder`.
fn solid(cx: &Ctxt, shape: &darling::util::SpannedValue<ShapeAttr>) -> Option<(TokenStream, Span)> {
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
        return Some((quote!(#p::Solid::Box { min: #min, max: #max }), b.span()));
    }
    if let Some(s) = &shape.sphere {
        let center = point(cx, &s.center, 3)?;
        let radius = number(&s.radius);
        return Some((
            quote!(#p::Solid::Sphere { center: #center, radius: #radius }),
            s.span(),
        ));
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
    Some((
        quote!(#p::Solid::Cylinder { center: #center, radius: #radius, z_min: #z_min, z_max: #z_max }),
        c.span(),
    ))
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
/// within the envelope `ident` of `self_ty` (the box its allow shapes leave the tool, less the
/// tool radius), for the resource `resource`: one error per parameter at most, at the first of
/// its bounds (in the order written) that the envelope does not allow, giving the interval it
/// does (a `const` panic, E0080: the interval is computed from the envelope).
pub fn range_checks(
    model: &ToolModel,
    self_ty: &Type,
    ident: &Ident,
    resource: &str,
) -> Vec<TokenStream> {
    /// One bound: where it is written, the axes it bounds, which end, its value as `f64`.
    struct Bound {
        at: At,
        axes: [bool; 3],
        upper: bool,
        value: TokenStream,
    }
    let of = |b: &RangeBound, axes: [bool; 3], upper: bool| {
        let e = &b.expr;
        Bound {
            at: At::of(e),
            axes,
            upper,
            value: quote_spanned!(e.span()=> ((#e) as f64)),
        }
    };
    let ends = |min: &Option<RangeBound>, max: &Option<RangeBound>, axes: [bool; 3]| {
        let mut out = Vec::new();
        if let Some(b) = min {
            out.push(of(b, axes, false));
        }
        if let Some(b) = max {
            out.push(of(b, axes, true));
        }
        out
    };
    let axis = |i: usize| {
        let mut axes = [false; 3];
        axes[i] = true;
        axes
    };
    // Each parameter with its bounds, in the order written.
    let mut params: Vec<(&str, Vec<Bound>)> = Vec::new();
    match model.target() {
        None => {}
        Some(TargetModel::Params(names)) => {
            for (i, name) in names.iter().enumerate() {
                if let Some((_, decl)) = model.param(name) {
                    params.push((name, ends(&decl.min, &decl.max, axis(i))));
                }
            }
        }
        Some(TargetModel::Point(name) | TargetModel::Path(name)) => {
            if let Some((_, decl)) = model.param(name) {
                let bounds = match &decl.components {
                    Some(Components::Listed(ranges)) => ranges
                        .iter()
                        .take(3)
                        .enumerate()
                        .flat_map(|(i, r)| ends(&r.min, &r.max, axis(i)))
                        .collect(),
                    Some(Components::Const(e)) => (0..3)
                        .flat_map(|i| {
                            [false, true].map(|upper| {
                                let end = if upper { quote!(end) } else { quote!(start) };
                                Bound {
                                    at: At::of(e),
                                    axes: axis(i),
                                    upper,
                                    value: quote_spanned!(e.span()=> *(#e)[#i].#end()),
                                }
                            })
                        })
                        .collect(),
                    None => ends(&decl.min, &decl.max, [true; 3]),
                };
                params.push((name, bounds));
            }
        }
    }
    let mut checks = Vec::new();
    for (name, bounds) in &params {
        let bound_tokens = |b: &Bound, at: &TokenStream| {
            let (axes, upper, value) = (b.axes, b.upper, &b.value);
            quote!(#at::TargetBound { axes: [#(#axes),*], upper: #upper, value: #value })
        };
        for (j, b) in bounds.iter().enumerate() {
            let span = b.at.start;
            let at = crate::runtime::private_at(span);
            let this = bound_tokens(b, &at);
            let panic = b.at.panic(quote_spanned!(span=>
                "{}",
                #at::target_bound_message(&<#self_ty>::#ident, #resource, #name, __TW_BOUND).as_str()
            ));
            let earlier = bounds[..j].iter().map(|e| {
                let e = bound_tokens(e, &at);
                quote!(#at::target_bound_outside(&<#self_ty>::#ident, #e))
            });
            checks.push(quote_spanned! {span=>
                #[allow(clippy::all)]
                const _: () = {
                    const __TW_BOUND: #at::TargetBound = #this;
                    if #at::target_bound_outside(&<#self_ty>::#ident, __TW_BOUND)
                        #(&& !#earlier)*
                    {
                        #panic
                    }
                };
            });
        }
    }
    checks
}
