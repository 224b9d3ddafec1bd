//! Parsing `robot(..)`'s keys from tokens (with syn, not darling: a package map's names are
//! strings, `packages("example-robot-data" = "robots")`, which is not `syn::Meta`), into a
//! [`Decl`] and the span of each key, so that every problem lands on the token that caused it.
//!
//! ```text
//! robot(urdf = "robots/panda.urdf", tip = "panda_hand", joints = PandaJoints,
//!       tip_offset = (0, 0, 0.1034),
//!       margin = "0.02 rad", linear_margin = "5 mm", padding = "5 mm",
//!       limits = "robots/joint_limits.yaml", srdf = "robots/panda.srdf", home = "ready",
//!       packages("example-robot-data" = "robots/example-robot-data", franka = "robots/f"),
//!       link("panda_hand", capsule(a = (0, -0.1, 0.02), b = (0, 0.1, 0.02), radius = 0.05)))
//! ```

use proc_macro2::{Span, TokenStream};
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Ident, LitStr, Token};

use super::capsule::Capsule;
use super::decl::{Decl, LinkDecl, Site};

/// A declaration and where each of its keys is.
pub struct RobotAttr {
    pub decl: Decl,
    /// `joints = PandaJoints`: the joint-position type to generate.
    pub joints: Option<Ident>,
    /// The span of the whole `robot(..)`.
    pub span: Span,
    spans: Vec<(Site, Span)>,
}

impl RobotAttr {
    /// Where a problem of `site` goes: that key's token, else the whole declaration.
    pub fn span_of(&self, site: Site) -> Span {
        let fallback = match site {
            Site::Packages | Site::Package(_) => Site::Urdf,
            _ => site,
        };
        self.spans
            .iter()
            .find(|(s, _)| *s == site)
            .or_else(|| self.spans.iter().find(|(s, _)| *s == fallback))
            .map_or(self.span, |(_, span)| *span)
    }
}

/// One `key = value` or `key(..)`.
enum Item {
    Value(Ident, Expr),
    List(Ident, TokenStream, Span),
}

impl Parse for Item {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let key: Ident = input.parse()?;
        if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            Ok(Item::Value(key, input.parse()?))
        } else if input.peek(syn::token::Paren) {
            let content;
            let paren = syn::parenthesized!(content in input);
            Ok(Item::List(key, content.parse()?, paren.span.join()))
        } else {
            Err(syn::Error::new(
                key.span(),
                format!("`{key}` needs a value: `{key} = ..` or `{key}(..)`"),
            ))
        }
    }
}

/// A package entry: `"name" = "path"` or `name = "path"`.
struct PackageItem {
    name: String,
    span: Span,
    path: LitStr,
}

impl Parse for PackageItem {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let (name, span) = if input.peek(LitStr) {
            let s: LitStr = input.parse()?;
            (s.value(), s.span())
        } else {
            let i: Ident = input.parse().map_err(|e| {
                syn::Error::new(
                    e.span(),
                    "a package is `\"name\" = \"path\"`: the name `package://NAME/..` uses, the \
                     folder it is in (relative to the crate's folder)",
                )
            })?;
            (i.to_string(), i.span())
        };
        input.parse::<Token![=]>()?;
        let path: LitStr = input.parse()?;
        Ok(PackageItem { name, span, path })
    }
}

const KEYS: &[&str] = &[
    "urdf",
    "joints",
    "tip",
    "tip_offset",
    "margin",
    "linear_margin",
    "padding",
    "limits",
    "srdf",
    "home",
    "packages",
    "link",
];

/// Parses the inside of `robot(..)`: every key read, every mistake in `errors`.
pub fn parse(tokens: TokenStream, span: Span, errors: &mut Vec<syn::Error>) -> Option<RobotAttr> {
    let items = match Punctuated::<Item, Token![,]>::parse_terminated.parse2(tokens) {
        Ok(items) => items,
        Err(e) => {
            errors.push(e);
            return None;
        }
    };
    let mut decl = Decl::new("", "");
    let mut spans: Vec<(Site, Span)> = Vec::new();
    let (mut urdf, mut tip) = (false, false);
    let mut joints = None;
    let mut seen: Vec<String> = Vec::new();
    for item in items {
        let key = match &item {
            Item::Value(k, _) | Item::List(k, _, _) => k.clone(),
        };
        let name = key.to_string();
        if name != "link" && seen.contains(&name) {
            errors.push(syn::Error::new(
                key.span(),
                format!("`{name}` is given twice"),
            ));
            continue;
        }
        seen.push(name.clone());
        match (name.as_str(), item) {
            ("urdf", Item::Value(_, e)) => {
                if let Some((s, sp)) = string(&e, "urdf", errors) {
                    decl.urdf = s;
                    spans.push((Site::Urdf, sp));
                    urdf = true;
                }
            }
            ("joints", Item::Value(_, e)) => match &e {
                Expr::Path(p) if p.path.get_ident().is_some() => {
                    joints = p.path.get_ident().cloned();
                }
                other => errors.push(syn::Error::new_spanned(
                    other,
                    "`joints` names the joint-position type to generate: `joints = PandaJoints`",
                )),
            },
            ("tip", Item::Value(_, e)) => {
                if let Some((s, sp)) = string(&e, "tip", errors) {
                    decl.tip = s;
                    spans.push((Site::Tip, sp));
                    tip = true;
                }
            }
            ("limits", Item::Value(_, e)) => {
                if let Some((s, sp)) = string(&e, "limits", errors) {
                    decl.limits = Some(s);
                    spans.push((Site::Limits, sp));
                }
            }
            ("srdf", Item::Value(_, e)) => {
                if let Some((s, sp)) = string(&e, "srdf", errors) {
                    decl.srdf = Some(s);
                    spans.push((Site::Srdf, sp));
                }
            }
            ("home", Item::Value(_, e)) => {
                if let Some((s, sp)) = string(&e, "home", errors) {
                    decl.home = Some(s);
                    spans.push((Site::Home, sp));
                }
            }
            ("tip_offset", Item::Value(_, e)) => {
                if let Some(p) = point(&e, errors) {
                    decl.tip_offset = p;
                    spans.push((Site::TipOffset, e.span()));
                }
            }
            ("margin", Item::Value(_, e)) => {
                if let Some(m) = quantity(&e, Angle, errors) {
                    decl.margin = m;
                    spans.push((Site::Margin, e.span()));
                }
            }
            ("linear_margin", Item::Value(_, e)) => {
                if let Some(m) = quantity(&e, Length, errors) {
                    decl.linear_margin = m;
                    spans.push((Site::LinearMargin, e.span()));
                }
            }
            ("padding", Item::Value(_, e)) => {
                if let Some(m) = quantity(&e, Length, errors) {
                    decl.padding = m;
                    spans.push((Site::Padding, e.span()));
                }
            }
            ("packages", Item::List(_, inner, span)) => {
                spans.push((Site::Packages, span));
                match Punctuated::<PackageItem, Token![,]>::parse_terminated.parse2(inner) {
                    Ok(list) => {
                        for p in list {
                            if decl.packages.iter().any(|(n, _)| *n == p.name) {
                                errors.push(syn::Error::new(
                                    p.span,
                                    format!("package `{}` is declared twice", p.name),
                                ));
                                continue;
                            }
                            spans.push((Site::Package(decl.packages.len()), p.span));
                            decl.packages.push((p.name, p.path.value()));
                        }
                    }
                    Err(e) => errors.push(e),
                }
            }
            ("link", Item::List(_, inner, span)) => {
                if let Some(link) = link(inner, span, errors) {
                    spans.push((Site::Link(decl.links.len()), span));
                    decl.links.push(link);
                }
            }
            (known, _) if KEYS.contains(&known) => {
                let how = match known {
                    "packages" => "`packages(\"name\" = \"path\", ..)`",
                    "link" => "`link(\"name\", capsule(a = (x, y, z), b = (x, y, z), radius = r))`",
                    _ => "`key = value`",
                };
                errors.push(syn::Error::new(
                    key.span(),
                    format!("`{known}` is written {how}"),
                ));
            }
            (unknown, _) => {
                let hint = crate::util::closest(unknown, KEYS.iter().copied())
                    .map(|k| format!("did you mean `{k}`? "))
                    .unwrap_or_default();
                errors.push(syn::Error::new(
                    key.span(),
                    format!(
                        "`robot(..)` has no `{unknown}`: {hint}its keys are {}",
                        KEYS.iter()
                            .map(|k| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
        }
    }
    if !urdf {
        errors.push(syn::Error::new(
            span,
            "`robot(..)` needs `urdf = \"path/to/robot.urdf\"` (relative to the crate's folder)",
        ));
    }
    if !tip {
        errors.push(syn::Error::new(
            span,
            "`robot(..)` needs `tip = \"link\"`: the link at the arm's end (its flange or tool), \
             where the chain from the URDF's root ends",
        ));
    }
    (urdf && tip).then_some(RobotAttr {
        decl,
        joints,
        span,
        spans,
    })
}

/// A string literal.
fn string(e: &Expr, key: &str, errors: &mut Vec<syn::Error>) -> Option<(String, Span)> {
    match e {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some((s.value(), s.span())),
        other => {
            errors.push(syn::Error::new_spanned(
                other,
                format!("`{key}` is a string: `{key} = \"..\"`"),
            ));
            None
        }
    }
}

/// A number literal (an integer or a float, maybe negated).
fn number(e: &Expr) -> Option<f64> {
    match e {
        Expr::Lit(syn::ExprLit { lit, .. }) => match lit {
            syn::Lit::Float(f) => f.base10_parse::<f64>().ok(),
            syn::Lit::Int(i) => i.base10_parse::<f64>().ok(),
            _ => None,
        },
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => number(expr).map(|x| -x),
        Expr::Paren(p) => number(&p.expr),
        Expr::Group(g) => number(&g.expr),
        _ => None,
    }
}

/// `(x, y, z)`, metres, written out.
fn point(e: &Expr, errors: &mut Vec<syn::Error>) -> Option<[f64; 3]> {
    let elems: Vec<&Expr> = match e {
        Expr::Tuple(t) => t.elems.iter().collect(),
        Expr::Array(a) => a.elems.iter().collect(),
        _ => Vec::new(),
    };
    let numbers: Vec<Option<f64>> = elems.iter().map(|e| number(e)).collect();
    match numbers.as_slice() {
        [Some(x), Some(y), Some(z)] if [x, y, z].iter().all(|v| v.is_finite()) => {
            Some([*x, *y, *z])
        }
        _ => {
            errors.push(syn::Error::new_spanned(
                e,
                "a point is `(x, y, z)`: three numbers written out, in metres (the URDF's unit; \
                 it is read when the crate compiles, so a `const` cannot be used here)",
            ));
            None
        }
    }
}

/// What a quantity string measures.
#[derive(Clone, Copy)]
enum Kind {
    Angle,
    Length,
}
use Kind::{Angle, Length};

/// `"0.02 rad"`, `"1 deg"` (radians) or `"5 mm"`, `"0.005 m"`, `"1 cm"` (metres).
fn quantity(e: &Expr, kind: Kind, errors: &mut Vec<syn::Error>) -> Option<f64> {
    let Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Str(s),
        ..
    }) = e
    else {
        errors.push(syn::Error::new_spanned(e, usage(kind)));
        return None;
    };
    let text = s.value();
    let mut parts = text.split_whitespace();
    let (Some(value), Some(unit), None) = (parts.next(), parts.next(), parts.next()) else {
        errors.push(syn::Error::new(s.span(), usage(kind)));
        return None;
    };
    let Ok(value) = value.parse::<f64>() else {
        errors.push(syn::Error::new(s.span(), usage(kind)));
        return None;
    };
    let factor = match (kind, unit) {
        (Angle, "rad") => 1.0,
        (Angle, "deg" | "°") => std::f64::consts::PI / 180.0,
        (Length, "m") => 1.0,
        (Length, "cm") => 0.01,
        (Length, "mm") => 0.001,
        _ => {
            errors.push(syn::Error::new(s.span(), usage(kind)));
            return None;
        }
    };
    if !(value >= 0.0 && value.is_finite()) {
        errors.push(syn::Error::new(
            s.span(),
            "a margin or padding is a finite amount, 0 or more",
        ));
        return None;
    }
    Some(value * factor)
}

fn usage(kind: Kind) -> &'static str {
    match kind {
        Angle => "an angle with its unit: `\"0.02 rad\"` or `\"1 deg\"`",
        Length => "a length with its unit: `\"5 mm\"`, `\"0.5 cm\"` or `\"0.005 m\"`",
    }
}

/// `link("name", capsule(a = (..), b = (..), radius = r), ..)`.
fn link(tokens: TokenStream, span: Span, errors: &mut Vec<syn::Error>) -> Option<LinkDecl> {
    type Shapes = Vec<(Ident, TokenStream, Span)>;
    let parser = |input: ParseStream| -> syn::Result<(LitStr, Shapes)> {
        let name: LitStr = input.parse()?;
        let mut shapes = Vec::new();
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let kind: Ident = input.parse()?;
            let content;
            let paren = syn::parenthesized!(content in input);
            shapes.push((kind, content.parse()?, paren.span.join()));
        }
        Ok((name, shapes))
    };
    let (name, shapes) = match parser.parse2(tokens) {
        Ok(parsed) => parsed,
        Err(e) => {
            errors.push(syn::Error::new(
                e.span(),
                format!(
                    "{e}: a link's capsules are `link(\"name\", capsule(a = (x, y, z), b = (x, y, \
                     z), radius = r))`, in metres in the link's frame"
                ),
            ));
            return None;
        }
    };
    let mut capsules = Vec::new();
    for (kind, inner, at) in shapes {
        if kind != "capsule" && kind != "sphere" {
            errors.push(syn::Error::new(
                kind.span(),
                "a link's shapes are `capsule(a = (x, y, z), b = (x, y, z), radius = r)` or \
                 `sphere(center = (x, y, z), radius = r)`",
            ));
            continue;
        }
        let items = match Punctuated::<Item, Token![,]>::parse_terminated.parse2(inner) {
            Ok(items) => items,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let (mut a, mut b, mut radius) = (None, None, None);
        for item in items {
            match item {
                Item::Value(k, e) if k == "a" || k == "center" => a = point(&e, errors),
                Item::Value(k, e) if k == "b" => b = point(&e, errors),
                Item::Value(k, e) if k == "radius" => match number(&e) {
                    Some(r) if r >= 0.0 && r.is_finite() => radius = Some(r),
                    _ => errors.push(syn::Error::new_spanned(
                        e,
                        "`radius` is a number, 0 or more, in metres",
                    )),
                },
                Item::Value(k, _) | Item::List(k, _, _) => {
                    errors.push(syn::Error::new(k.span(), format!("a {kind} has no `{k}`")))
                }
            }
        }
        let b = if kind == "sphere" { a } else { b };
        match (a, b, radius) {
            (Some(a), Some(b), Some(radius)) => capsules.push(Capsule { a, b, radius }),
            _ => errors.push(syn::Error::new(
                at,
                if kind == "sphere" {
                    "a sphere needs `center = (x, y, z)` and `radius = r`"
                } else {
                    "a capsule needs `a = (x, y, z)`, `b = (x, y, z)` and `radius = r`"
                },
            )),
        }
    }
    if capsules.is_empty() {
        errors.push(syn::Error::new(
            span,
            "declare at least one capsule: `link(\"name\", capsule(a = (x, y, z), b = (x, y, z), \
             radius = r))`",
        ));
        return None;
    }
    Some(LinkDecl {
        name: name.value(),
        capsules,
    })
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;

    #[test]
    fn reads_every_key() {
        let mut errors = Vec::new();
        let attr = parse(
            quote!(
                urdf = "robots/panda.urdf",
                tip = "panda_hand",
                tip_offset = (0, 0, 0.1034),
                margin = "1 deg",
                linear_margin = "5 mm",
                padding = "1 cm",
                limits = "l.yaml",
                srdf = "p.srdf",
                home = "ready",
                packages("example-robot-data" = "robots/erd", franka = "robots/f"),
                link(
                    "panda_hand",
                    capsule(a = (0, -0.1, 0.02), b = (0, 0.1, 0.02), radius = 0.05)
                )
            ),
            Span::call_site(),
            &mut errors,
        )
        .unwrap();
        assert!(errors.is_empty(), "{errors:?}");
        let d = &attr.decl;
        assert_eq!(d.urdf, "robots/panda.urdf");
        assert_eq!(d.tip_offset, [0.0, 0.0, 0.1034]);
        assert!((d.margin - 0.017453292519943295).abs() < 1e-15);
        assert_eq!((d.linear_margin, d.padding), (0.005, 0.01));
        assert_eq!(
            d.packages,
            [
                ("example-robot-data".to_owned(), "robots/erd".to_owned()),
                ("franka".to_owned(), "robots/f".to_owned())
            ]
        );
        assert_eq!(d.links[0].capsules[0].a, [0.0, -0.1, 0.02]);
    }

    #[test]
    fn mistakes_are_each_reported() {
        let mut errors = Vec::new();
        let attr = parse(
            quote!(
                urdf = 3,
                margin = "2 furlongs",
                tipp = "x",
                link("a", cube(size = 1))
            ),
            Span::call_site(),
            &mut errors,
        );
        assert!(attr.is_none());
        let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(messages.len(), 7, "{messages:#?}");
        assert!(messages[0].contains("`urdf` is a string"));
        assert!(messages[1].contains("an angle with its unit"));
        assert!(messages[2].contains("`robot(..)` has no `tipp`: did you mean `tip`?"));
        assert!(messages[3].contains("a link's shapes are"));
        assert!(messages[4].contains("declare at least one capsule"));
        assert!(messages[5].contains("`robot(..)` needs `urdf = "));
        assert!(messages[6].contains("`robot(..)` needs `tip = \"link\"`"));
    }
}
