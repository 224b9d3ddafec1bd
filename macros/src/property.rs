//! One property (a fn argument or a struct field): its `#[param]`, doc comment and type, resolved
//! and turned into a `FieldSpec` expression.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, ExprRange, ExprUnary, Lit, RangeLimits, Type, UnOp};

use crate::attr::ParamAttr;
use crate::ctxt::Ctxt;
use crate::doc::{self, Doc};
use crate::units;

/// A number written in a declaration.
#[derive(Clone, Copy, PartialEq)]
pub enum Number {
    Int(i128),
    Float(f64),
}

impl Number {
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        }
    }

    pub fn to_tokens(self) -> TokenStream {
        let p = crate::runtime::private();
        match self {
            Number::Int(i) => quote!(#p::Num::Int(#i)),
            Number::Float(f) => quote!(#p::Num::Float(#f)),
        }
    }
}

/// A numeric bound as written.
pub enum BoundExpr {
    Literal(Number),
    /// A non-literal expression (a `const`), converted at compile time by `as f64` for the checks
    /// and by `Num::from` for the schema.
    Other(Expr),
}

/// One end of a `range`.
pub struct RangeBound {
    pub value: BoundExpr,
    /// The bound as written, for messages and spans.
    pub expr: Expr,
    /// `a..b`'s upper end.
    pub exclusive: bool,
}

impl RangeBound {
    pub fn literal(&self) -> Option<Number> {
        match self.value {
            BoundExpr::Literal(n) => Some(n),
            BoundExpr::Other(_) => None,
        }
    }

    /// A `Num` expression for the schema (run time).
    fn schema_tokens(&self) -> TokenStream {
        match &self.value {
            BoundExpr::Literal(n) => n.to_tokens(),
            BoundExpr::Other(e) => {
                let p = crate::runtime::private_at(e.span());
                quote_spanned!(e.span()=> <#p::Num as ::core::convert::From<_>>::from(#e))
            }
        }
    }

    /// A `Num` expression usable in a `const` (compile-time checks).
    pub fn const_tokens(&self) -> TokenStream {
        match &self.value {
            BoundExpr::Literal(n) => n.to_tokens(),
            BoundExpr::Other(e) => {
                let p = crate::runtime::private_at(e.span());
                quote_spanned!(e.span()=> #p::Num::Float((#e) as f64))
            }
        }
    }

    /// The bound as written.
    pub fn text(&self) -> String {
        expr_text(&self.expr)
    }
}

/// An expression as the user wrote it (approximately: tokens joined by spaces where needed).
pub fn expr_text(expr: &Expr) -> String {
    let s = expr.to_token_stream().to_string();
    s.replace("- ", "-")
        .replace(" . ", ".")
        .replace(" :: ", "::")
}

/// A `default` or example value that the macro can read.
pub enum LiteralValue {
    Number(Number),
    Str(String),
}

/// A literal number (`15`, `-2.5`) or string.
pub fn literal_value(expr: &Expr) -> Option<LiteralValue> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Some(LiteralValue::Str(s.value())),
        other => literal_number(other).map(LiteralValue::Number),
    }
}

pub fn literal_number(expr: &Expr) -> Option<Number> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Int(i), ..
        }) => i.base10_parse::<i128>().ok().map(Number::Int),
        Expr::Lit(ExprLit {
            lit: Lit::Float(f), ..
        }) => f.base10_parse::<f64>().ok().map(Number::Float),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => match literal_number(expr)? {
            Number::Int(i) => Some(Number::Int(-i)),
            Number::Float(f) => Some(Number::Float(-f)),
        },
        Expr::Group(g) => literal_number(&g.expr),
        Expr::Paren(p) => literal_number(&p.expr),
        _ => None,
    }
}

fn bound(expr: &Expr, exclusive: bool) -> RangeBound {
    RangeBound {
        value: literal_number(expr)
            .map_or_else(|| BoundExpr::Other(expr.clone()), BoundExpr::Literal),
        expr: expr.clone(),
        exclusive,
    }
}

/// Per-component ranges (a nalgebra point's coordinates).
pub enum Components {
    /// `range = [a..=b, ..]`: written out, one range per component in component order.
    Listed(Vec<ComponentBounds>),
    /// `range = WORKSPACE`: a const array of inclusive ranges, declared once and named wherever
    /// the same bounds apply.
    Const(Expr),
}

/// One range of a per-component `range = [a..=b, ..]` (a nalgebra point's coordinates).
pub struct ComponentBounds {
    /// The range as written.
    pub expr: Expr,
    pub min: Option<RangeBound>,
    pub max: Option<RangeBound>,
}

/// The bounds of a range expression; an error at it when it is not a range.
fn range_bounds(cx: &Ctxt, range: &Expr) -> (Option<RangeBound>, Option<RangeBound>) {
    match range {
        Expr::Range(ExprRange {
            start, limits, end, ..
        }) => {
            let min = start.as_deref().map(|e| bound(e, false));
            let max = end
                .as_deref()
                .map(|e| bound(e, matches!(limits, RangeLimits::HalfOpen(_))));
            if min.is_none() && max.is_none() {
                cx.error_spanned_by(
                    range,
                    "`range = ..` has no bounds; write `a..=b`, `a..b`, `a..` or `..=b`",
                );
            }
            (min, max)
        }
        other => {
            cx.error_spanned_by(
                other,
                "`range` takes a Rust range: `5.0..=30.0` (inclusive), `0.0..1.0` (upper bound excluded), `0.0..` or `..=1.0`; or, on a nalgebra point, vector or isometry, one range per coordinate: `[-1.0..=1.0, -1.0..=1.0, 0.0..=2.0]`, or the name of a const array of them",
            );
            (None, None)
        }
    }
}

/// A resolved property declaration.
pub struct Property {
    pub attr: ParamAttr,
    pub doc: Option<Doc>,
    /// The doc comment's attributes, to point at it.
    pub doc_span: Option<TokenStream>,
    pub unit: Option<&'static units::UnitDef>,
    pub min: Option<RangeBound>,
    pub max: Option<RangeBound>,
    /// `range = [a..=b, ..]` or `range = CONST`: one range per component, in component order.
    pub components: Option<Components>,
}

/// Whether an attribute is `#[param(..)]`.
pub fn is_param(attr: &Attribute) -> bool {
    attr.path().is_ident("param")
}

impl Property {
    /// Parses the `#[param]` attributes and doc comments among `attrs`.
    pub fn parse(cx: &Ctxt, attrs: &[Attribute]) -> Property {
        let mut parsed: Option<ParamAttr> = None;
        for attr in attrs.iter().filter(|a| is_param(a)) {
            if parsed.is_some() {
                cx.error_spanned_by(
                    attr,
                    "duplicate `#[param]` attribute: put every key in one `#[param(..)]`",
                );
                continue;
            }
            let items = crate::attr::meta_items(cx, &attr.meta);
            let items = crate::attr::without_foreign_param_keys(cx, items);
            parsed = Some(crate::attr::parse_lenient(cx, &items));
        }
        let attr = parsed.unwrap_or_default();
        let doc = doc::from_attrs(attrs);
        let doc_span = doc::span_tokens(attrs);
        let unit = attr.unit.as_ref().and_then(|u| {
            let found = units::lookup(u);
            if found.is_none() {
                let hint = match units::suggest(u) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!(
                        "known units: {}",
                        units::UNITS
                            .iter()
                            .map(|u| u.symbol)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                cx.error_at(u.span(), format!("unknown unit `{}`; {hint}", &**u));
            }
            found
        });
        let (mut min, mut max, mut components) = (None, None, None);
        match attr.range.as_ref().map(|r| &r.0) {
            None => {}
            Some(Expr::Array(array)) => {
                if array.elems.is_empty() {
                    cx.error_spanned_by(
                        array,
                        "`range = []` lists no ranges: write one range per coordinate, `[-1.0..=1.0, -1.0..=1.0, 0.0..=2.0]`, or one range for all",
                    );
                }
                components = Some(Components::Listed(
                    array
                        .elems
                        .iter()
                        .map(|e| {
                            let (min, max) = range_bounds(cx, e);
                            ComponentBounds {
                                expr: e.clone(),
                                min,
                                max,
                            }
                        })
                        .collect(),
                ));
            }
            Some(path @ Expr::Path(_)) => components = Some(Components::Const(path.clone())),
            Some(range) => (min, max) = range_bounds(cx, range),
        }
        if let Some(examples) = attr.examples.as_ref().map(|e| &e.0)
            && !matches!(examples, Expr::Array(_))
        {
            cx.error_spanned_by(
                examples,
                "`examples` takes an array: `examples = [10.0, 20.0]`",
            );
        }
        Property {
            attr,
            doc,
            doc_span,
            unit,
            min,
            max,
            components,
        }
    }

    /// Whether the declaration has a description (doc comment or `description = ".."`).
    pub fn has_description(&self) -> bool {
        self.attr.description.is_some() || self.doc.is_some()
    }

    /// The description as text when the macro can read it, with tokens to point at.
    pub fn description_text(&self) -> Option<(String, TokenStream)> {
        match (&self.attr.description, &self.doc) {
            (Some(d), _) => {
                let span = d.span();
                Some(((**d).clone(), quote_spanned!(span=> description)))
            }
            (None, Some(Doc::Text(t))) => Some((t.clone(), self.doc_span.clone()?)),
            _ => None,
        }
    }

    /// The declared examples (when written as an array).
    pub fn examples(&self) -> Vec<&Expr> {
        match self.attr.examples.as_ref().map(|e| &e.0) {
            Some(Expr::Array(array)) => array.elems.iter().collect(),
            _ => Vec::new(),
        }
    }

    /// The default, then the examples: every declared value.
    pub fn declared_values(&self) -> Vec<(&'static str, &Expr)> {
        let mut out = Vec::new();
        if let Some(d) = &self.attr.default {
            out.push(("default", &d.0));
        }
        out.extend(self.examples().into_iter().map(|e| ("example", e)));
        out
    }

    /// The description: `description = ".."` wins over the doc comment.
    pub fn description_tokens(&self) -> TokenStream {
        let p = crate::runtime::private();
        match (&self.attr.description, &self.doc) {
            (Some(d), _) => {
                let d = d.as_str();
                quote!(#p::Some(#d))
            }
            (None, Some(doc)) => {
                let t = doc.to_tokens();
                quote!(#p::Some(#t))
            }
            (None, None) => quote!(#p::None),
        }
    }

    /// A `FieldSpec { .. }` expression for a property named `name` of type `ty`.
    pub fn spec_tokens(
        &self,
        name: &str,
        ty: &Type,
        serde_default: bool,
        skip_serializing_if: bool,
    ) -> TokenStream {
        let p = crate::runtime::private();
        let description = self.description_tokens();
        let unit = match self.unit {
            Some(u) => {
                let (symbol, words) = (u.symbol, u.words);
                quote!(#p::Some(#p::Unit { symbol: #symbol, words: #words }))
            }
            None => quote!(#p::None),
        };
        let bound = |b: &Option<RangeBound>| match b {
            Some(b) => {
                let v = b.schema_tokens();
                let exclusive = b.exclusive;
                quote!(#p::Some(#p::Bound { value: #v, exclusive: #exclusive }))
            }
            None => quote!(#p::None),
        };
        let (minimum, maximum) = (bound(&self.min), bound(&self.max));
        let component_ranges = self.components.as_ref().map(|components| match components {
            Components::Listed(ranges) => {
                let ranges = ranges.iter().map(|r| {
                    let (minimum, maximum) = (bound(&r.min), bound(&r.max));
                    quote!(#p::ComponentRange { minimum: #minimum, maximum: #maximum })
                });
                quote!(component_ranges: #p::Some(|| #p::Vec::from([#(#ranges),*])),)
            }
            Components::Const(path) => {
                // Once through the count check's trait error, if the const is of the wrong type.
                let from = quote_spanned!(path.span()=> {
                    #[allow(unused_imports)]
                    use #p::{NamedRangesFallback as _, NamedRangesOf as _};
                    (&#p::NamedRanges(&#path)).component_ranges()
                });
                quote!(component_ranges: #p::Some(|| #from),)
            }
        });
        let opt_u64 = |v: &Option<darling::util::SpannedValue<u64>>| match v {
            Some(v) => {
                let v = **v;
                quote!(#p::Some(#v))
            }
            None => quote!(#p::None),
        };
        let (min_length, max_length) = (
            opt_u64(&self.attr.min_length),
            opt_u64(&self.attr.max_length),
        );
        let (min_items, max_items) = (opt_u64(&self.attr.min_items), opt_u64(&self.attr.max_items));
        let pattern = match &self.attr.pattern {
            Some(pat) => {
                let pat = pat.as_str();
                quote!(#p::Some(#pat))
            }
            None => quote!(#p::None),
        };
        let default = match self.attr.default.as_ref().map(|d| &d.0) {
            Some(expr) => {
                let value = value_to_json(expr, ty);
                quote!(#p::Some(|| #value))
            }
            None => quote!(#p::None),
        };
        let examples = match self.attr.examples.as_ref().map(|e| &e.0) {
            Some(Expr::Array(array)) => {
                let items = array.elems.iter().map(|e| value_to_json(e, ty));
                quote!(#p::Some(|| #p::Vec::from([#(#items),*])))
            }
            _ => quote!(#p::None),
        };
        // Only when declared, so the expansion of every other property stays as it was.
        let header = self.attr.header.as_ref().map(|h| {
            let h = h.as_str();
            quote!(header: #p::Some(#h),)
        });
        quote! {
            #p::FieldSpec {
                name: #name,
                description: #description,
                unit: #unit,
                minimum: #minimum,
                maximum: #maximum,
                min_length: #min_length,
                max_length: #max_length,
                min_items: #min_items,
                max_items: #max_items,
                pattern: #pattern,
                default: #default,
                examples: #examples,
                serde_default: #serde_default,
                skip_serializing_if: #skip_serializing_if,
                #component_ranges
                #header
                ..::core::default::Default::default()
            }
        }
    }
}

/// A declared value (default or example) serialized as the parameter's type (`T` for an
/// `Option<T>`); a string literal converts into the type (`"Ada"` for a `String`). Spanned at the
/// value, so a value of the wrong type is reported there; the bound the conversion needs is
/// required first, by its own trait (`DeclaredValue`, `FromStrLiteral`), so it is reported once,
/// in words, at the value.
pub fn value_to_json(expr: &Expr, ty: &Type) -> TokenStream {
    let string = matches!(
        expr,
        Expr::Lit(ExprLit {
            lit: Lit::Str(_),
            ..
        })
    );
    let span = expr.span();
    let (marker, rule, method) = if string {
        (
            quote_spanned!(span=> str_marker),
            quote_spanned!(span=> FromStrLiteral),
            quote_spanned!(span=> str_json),
        )
    } else {
        (
            quote_spanned!(span=> schema_marker),
            quote_spanned!(span=> DeclaredValue),
            quote_spanned!(span=> value_json),
        )
    };
    let p = crate::runtime::private_at(span);
    quote_spanned! {span=>
        {
            #[allow(unused_imports)]
            use #p::prelude::values::*;
            let __tw_probe = &#p::Probe::<#ty>::new();
            <_ as #p::#rule>::check(__tw_probe.#marker());
            __tw_probe.#method(#expr)
        }
    }
}

/// `(&Probe::<T>::new()).type_info()` for a tool parameter, spanned at the type.
pub fn type_info_tokens(ty: &Type) -> TokenStream {
    info_tokens(ty, "type_info", "ParamType")
}

/// `(&Probe::<T>::new()).field_info()` for a field of a `ToolSchema` type, spanned at the type.
pub fn field_info_tokens(ty: &Type) -> TokenStream {
    info_tokens(ty, "field_info", "FieldType")
}

/// The type information, after requiring the type's role (`ParamType`, `FieldType`) with the
/// role's own bound at the type: rustc reports that one, in words, and not again the same bound
/// of the method.
fn info_tokens(ty: &Type, method: &str, rule: &str) -> TokenStream {
    let span = ty.span();
    let method = syn::Ident::new(method, span);
    let rule = syn::Ident::new(rule, span);
    let p = crate::runtime::private_at(span);
    quote_spanned! {span=>
        {
            #[allow(unused_imports)]
            use #p::prelude::params::*;
            let __tw_probe = &#p::Probe::<#ty>::new();
            <_ as #p::#rule>::check(__tw_probe.schema_marker());
            __tw_probe.#method()
        }
    }
}
