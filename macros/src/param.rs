//! One property (a fn argument or a struct field): its `#[param]`, doc comment and type, resolved
//! and turned into a `FieldSpec` expression.

use darling::FromMeta;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, ExprRange, ExprUnary, Lit, RangeLimits, Type, UnOp};

use crate::attr::ParamAttr;
use crate::ctxt::Ctxt;
use crate::doc::{self, Doc};
use crate::units;

/// A numeric bound as written.
pub enum BoundExpr {
    Int(i128),
    Float(f64),
    /// A non-literal expression (a `const`), converted at run time.
    Other(Expr),
}

/// A resolved property declaration.
pub struct ParamDecl {
    pub attr: ParamAttr,
    pub doc: Option<Doc>,
    pub unit: Option<&'static units::UnitDef>,
    pub min: Option<(BoundExpr, bool)>,
    pub max: Option<(BoundExpr, bool)>,
}

/// Whether an attribute is `#[param(..)]`.
pub fn is_param(attr: &Attribute) -> bool {
    attr.path().is_ident("param")
}

fn literal_number(expr: &Expr) -> Option<BoundExpr> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Int(i), ..
        }) => i.base10_parse::<i128>().ok().map(BoundExpr::Int),
        Expr::Lit(ExprLit {
            lit: Lit::Float(f), ..
        }) => f.base10_parse::<f64>().ok().map(BoundExpr::Float),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => match literal_number(expr)? {
            BoundExpr::Int(i) => Some(BoundExpr::Int(-i)),
            BoundExpr::Float(f) => Some(BoundExpr::Float(-f)),
            BoundExpr::Other(_) => None,
        },
        Expr::Group(g) => literal_number(&g.expr),
        Expr::Paren(p) => literal_number(&p.expr),
        _ => None,
    }
}

fn bound(expr: &Expr) -> BoundExpr {
    literal_number(expr).unwrap_or_else(|| BoundExpr::Other(expr.clone()))
}

impl BoundExpr {
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            BoundExpr::Int(i) => Some(*i as f64),
            BoundExpr::Float(f) => Some(*f),
            BoundExpr::Other(_) => None,
        }
    }

    fn to_tokens(&self) -> TokenStream {
        match self {
            BoundExpr::Int(i) => quote!(::toolwright::__private::Num::Int(#i)),
            BoundExpr::Float(f) => quote!(::toolwright::__private::Num::Float(#f)),
            BoundExpr::Other(e) => {
                quote_spanned!(e.span()=> ::toolwright::__private::Num::from(#e))
            }
        }
    }
}

impl ParamDecl {
    /// Parses the `#[param]` attributes and doc comments among `attrs`.
    pub fn parse(cx: &Ctxt, attrs: &[Attribute]) -> ParamDecl {
        let mut parsed: Option<ParamAttr> = None;
        for attr in attrs.iter().filter(|a| is_param(a)) {
            if parsed.is_some() {
                cx.error_spanned_by(
                    attr,
                    "duplicate `#[param]` attribute: put every key in one `#[param(..)]`",
                );
                continue;
            }
            match ParamAttr::from_meta(&attr.meta) {
                Ok(p) => parsed = Some(p),
                Err(e) => {
                    cx.darling(e);
                    parsed = Some(ParamAttr::default());
                }
            }
        }
        let attr = parsed.unwrap_or_default();
        let doc = doc::from_attrs(attrs);
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
        let (mut min, mut max) = (None, None);
        if let Some(range) = attr.range.as_ref().map(|r| &r.0) {
            match range {
                Expr::Range(ExprRange { start, limits, end, .. }) => {
                    min = start.as_deref().map(|e| (bound(e), false));
                    max = end.as_deref().map(|e| (bound(e), matches!(limits, RangeLimits::HalfOpen(_))));
                    if min.is_none() && max.is_none() {
                        cx.error_spanned_by(range, "`range = ..` has no bounds; write `a..=b`, `a..b`, `a..` or `..=b`");
                    }
                    if max.is_none() && matches!(limits, RangeLimits::Closed(_)) {
                        cx.error_spanned_by(range, "`a..=` needs an upper bound");
                    }
                }
                other => cx.error_spanned_by(
                    other,
                    "`range` takes a Rust range: `5.0..=30.0` (inclusive), `0.0..1.0` (upper bound excluded), `0.0..` or `..=1.0`",
                ),
            }
        }
        if let Some(examples) = attr.examples.as_ref().map(|e| &e.0)
            && !matches!(examples, Expr::Array(_))
        {
            {
                cx.error_spanned_by(
                    examples,
                    "`examples` takes an array: `examples = [10.0, 20.0]`",
                );
            }
        }
        if let (Some((lo, _)), Some((hi, hi_excl))) = (&min, &max)
            && let (Some(lo), Some(hi)) = (lo.as_f64(), hi.as_f64())
            && (lo > hi || (lo == hi && *hi_excl))
            && let Some(range) = attr.range.as_ref()
        {
            cx.error_spanned_by(
                &range.0,
                format!("empty range: no value is at least {lo} and below {}{hi}; write the smaller bound first", if *hi_excl { "" } else { "or equal to " }),
            );
        }
        ParamDecl {
            attr,
            doc,
            unit,
            min,
            max,
        }
    }

    /// The description: `description = ".."` wins over the doc comment.
    pub fn description_tokens(&self) -> TokenStream {
        match (&self.attr.description, &self.doc) {
            (Some(d), _) => {
                let d = d.as_str();
                quote!(::toolwright::__private::Some(#d))
            }
            (None, Some(doc)) => {
                let t = doc.to_tokens();
                quote!(::toolwright::__private::Some(#t))
            }
            (None, None) => quote!(::toolwright::__private::None),
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
        let p = quote!(::toolwright::__private);
        let description = self.description_tokens();
        let unit = match self.unit {
            Some(u) => {
                let (symbol, words) = (u.symbol, u.words);
                quote!(#p::Some(#p::Unit { symbol: #symbol, words: #words }))
            }
            None => quote!(#p::None),
        };
        let bound = |b: &Option<(BoundExpr, bool)>| match b {
            Some((value, exclusive)) => {
                let v = value.to_tokens();
                quote!(#p::Some(#p::Bound { value: #v, exclusive: #exclusive }))
            }
            None => quote!(#p::None),
        };
        let (minimum, maximum) = (bound(&self.min), bound(&self.max));
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
                ..::core::default::Default::default()
            }
        }
    }
}

/// A declared value (default or example) serialized as the parameter's type; a string literal
/// converts into the type (`"Ada"` for a `String`).
fn value_to_json(expr: &Expr, ty: &Type) -> TokenStream {
    if let Expr::Lit(ExprLit {
        lit: Lit::Str(_), ..
    }) = expr
    {
        quote_spanned!(expr.span()=> ::toolwright::__private::str_to_json::<#ty>(#expr))
    } else {
        quote_spanned!(expr.span()=> ::toolwright::__private::to_json::<#ty>(#expr))
    }
}

/// `(&Probe::<T>::new()).type_info()`, spanned at the type.
pub fn type_info_tokens(ty: &Type) -> TokenStream {
    quote_spanned! {ty.span()=>
        {
            #[allow(unused_imports)]
            use ::toolwright::__private::{ParamOptional as _, ParamContext as _, ParamPlain as _};
            (&::toolwright::__private::Probe::<#ty>::new()).type_info()
        }
    }
}
