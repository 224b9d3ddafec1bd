//! The serde attributes a derived schema follows (serde_derive's `internals/attr.rs`, the part
//! toolwright needs): read once per container, variant and field, each direction apart. The
//! attributes that would give a value a JSON form toolwright cannot see are errors on their token.

use proc_macro2::TokenStream;
use quote::quote;
use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, ExprLit, Lit, Meta, Token};

use crate::case::RenameRule;
use crate::ctxt::Ctxt;

/// A name or rule serde may set apart for each direction: `rename = "x"` sets both,
/// `rename(serialize = "y", deserialize = "x")` each. Input schemas use the deserialize side,
/// output schemas the serialize side.
#[derive(Clone, Copy)]
pub struct Both<T> {
    pub ser: Option<T>,
    pub de: Option<T>,
}

impl<T> Default for Both<T> {
    fn default() -> Self {
        Both {
            ser: None,
            de: None,
        }
    }
}

impl<T: Clone> Both<T> {
    pub fn or(&self, other: &Both<T>) -> Both<T> {
        Both {
            ser: self.ser.clone().or_else(|| other.ser.clone()),
            de: self.de.clone().or_else(|| other.de.clone()),
        }
    }
}

/// A property's or variant's name in each direction.
pub struct Names {
    pub ser: String,
    pub de: String,
}

impl Names {
    /// `rename` wins, then the rule, then the Rust name.
    pub fn of(
        plain: &str,
        rename: &Both<String>,
        rule: &Both<RenameRule>,
        apply: fn(&RenameRule, &str) -> String,
    ) -> Names {
        let one = |rename: &Option<String>, rule: &Option<RenameRule>| {
            rename.clone().unwrap_or_else(|| {
                rule.as_ref()
                    .map_or_else(|| plain.to_owned(), |r| apply(r, plain))
            })
        };
        Names {
            ser: one(&rename.ser, &rule.ser),
            de: one(&rename.de, &rule.de),
        }
    }

    /// The name as an expression of the generated `__tw_serialize` (whether the schema being
    /// built describes output).
    pub fn tokens(&self) -> TokenStream {
        let (ser, de) = (&self.ser, &self.de);
        if ser == de {
            quote!(#de)
        } else {
            quote!(if __tw_serialize { #ser } else { #de })
        }
    }
}

/// The serde attributes toolwright follows. Others are accepted and ignored.
#[derive(Default)]
pub struct SerdeAttrs {
    pub rename: Both<String>,
    pub rename_all: Both<RenameRule>,
    /// `rename_all_fields` on an enum: the rule for the fields of every struct variant.
    pub rename_all_fields: Both<RenameRule>,
    pub tag: Option<String>,
    pub content: Option<String>,
    pub untagged: bool,
    /// Where `untagged` was written.
    pub untagged_at: Option<syn::Path>,
    pub default: bool,
    pub skip_serializing: bool,
    pub skip_deserializing: bool,
    pub skip_serializing_if: bool,
    pub flatten: bool,
    pub transparent: bool,
}

/// A string literal's value. Anything else is serde's to report: a `#[serde]` attribute only
/// compiles next to serde's own derive, which rejects it, so a second error would be noise.
fn lit_str(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Some(s.value()),
        _ => None,
    }
}

/// `rename = "x"` (both directions) or `rename(serialize = "y", deserialize = "x")` (each).
fn name_value(meta: &Meta) -> Both<String> {
    match meta {
        Meta::NameValue(nv) => {
            let s = lit_str(&nv.value);
            Both {
                ser: s.clone(),
                de: s,
            }
        }
        Meta::List(list) => {
            let mut both = Both::default();
            let Ok(nested) = list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
            else {
                return both; // serde reports its own syntax errors
            };
            for m in &nested {
                if let Meta::NameValue(nv) = m {
                    if nv.path.is_ident("serialize") {
                        both.ser = lit_str(&nv.value);
                    } else if nv.path.is_ident("deserialize") {
                        both.de = lit_str(&nv.value);
                    }
                }
            }
            both
        }
        Meta::Path(_) => Both::default(),
    }
}

/// The serde attributes among `attrs` (errors for the ones toolwright refuses).
pub fn parse(cx: &Ctxt, attrs: &[Attribute]) -> SerdeAttrs {
    let mut out = SerdeAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let Ok(list) = attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated) else {
            continue; // serde reports its own syntax errors
        };
        for meta in &list {
            let path = meta.path();
            if path.is_ident("rename") {
                out.rename = name_value(meta);
            } else if path.is_ident("rename_all") || path.is_ident("rename_all_fields") {
                let names = name_value(meta);
                // An unknown rule is serde's to report (its derive runs next to any `#[serde]`).
                let rule = |name: Option<String>| RenameRule::from_str(&name?);
                let rules = Both {
                    ser: rule(names.ser),
                    de: rule(names.de),
                };
                if path.is_ident("rename_all") {
                    out.rename_all = rules;
                } else {
                    out.rename_all_fields = rules;
                }
            } else if path.is_ident("tag") {
                out.tag = name_value(meta).de;
            } else if path.is_ident("content") {
                out.content = name_value(meta).de;
            } else if path.is_ident("untagged") {
                out.untagged = true;
                out.untagged_at = Some(path.clone());
            } else if path.is_ident("default") {
                out.default = true;
            } else if path.is_ident("skip") {
                out.skip_serializing = true;
                out.skip_deserializing = true;
            } else if path.is_ident("skip_serializing") {
                out.skip_serializing = true;
            } else if path.is_ident("skip_deserializing") {
                out.skip_deserializing = true;
            } else if path.is_ident("skip_serializing_if") {
                out.skip_serializing_if = true;
            } else if path.is_ident("flatten") {
                out.flatten = true;
            } else if path.is_ident("transparent") {
                out.transparent = true;
            } else if ["with", "serialize_with", "deserialize_with"]
                .iter()
                .any(|k| path.is_ident(k))
            {
                cx.error_spanned_by(
                    path,
                    format!(
                        "`#[serde({})]` gives this value a JSON form toolwright cannot see, so the published schema would not match what serde reads and writes; give the field a type that has that form on its own: a newtype whose `Serialize`/`Deserialize` write it and whose `schemars::JsonSchema` impl describes it",
                        path.get_ident().map(ToString::to_string).unwrap_or_default()
                    ),
                );
            } else if ["from", "try_from", "into"]
                .iter()
                .any(|k| path.is_ident(k))
            {
                cx.error_spanned_by(
                    path,
                    format!(
                        "`#[serde({})]` makes serde read or write this type as another one, so a schema derived from its fields would not match; derive `ToolSchema` on the other type and take that as the parameter (convert in the tool)",
                        path.get_ident().map(ToString::to_string).unwrap_or_default()
                    ),
                );
            }
        }
    }
    out
}
