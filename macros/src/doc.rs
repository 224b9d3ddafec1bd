//! Doc comments to descriptions.
//!
//! Literal doc comments are joined at compile time (so their length and content can be checked):
//! lines of a paragraph are joined with a space, paragraphs with a blank line, and list items and
//! indented lines keep their line breaks. A `#[doc = include_str!(..)]` cannot be read by the
//! macro; it is emitted as a `concat!` expression instead (as schemars does).

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// A description gathered from doc comments.
pub enum Doc {
    /// Every doc attribute was a literal: the joined text.
    Text(String),
    /// Some doc attribute is an expression: the pieces, for `concat!`.
    Expr(Vec<TokenStream>),
}

impl Doc {
    /// An expression of type `&'static str`.
    pub fn to_tokens(&self) -> TokenStream {
        match self {
            Doc::Text(s) => quote!(#s),
            Doc::Expr(parts) => quote!(::core::concat!(#(#parts),*)),
        }
    }
}

/// Whether this attribute is a doc comment.
pub fn is_doc(attr: &Attribute) -> bool {
    attr.path().is_ident("doc")
}

/// The doc attributes among `attrs`, first and last, for an error spanning the doc comment.
pub fn span_tokens(attrs: &[Attribute]) -> Option<TokenStream> {
    let mut docs = attrs.iter().filter(|a| is_doc(a));
    let first = docs.next()?;
    let last = docs.next_back().unwrap_or(first);
    Some(quote!(#first #last))
}

/// The description of the doc comments among `attrs`; `None` when there are none (or only blank).
pub fn from_attrs(attrs: &[Attribute]) -> Option<Doc> {
    let mut lines = Vec::new();
    let mut exprs = Vec::new();
    let mut literal_only = true;
    for attr in attrs.iter().filter(|a| is_doc(a)) {
        let Meta::NameValue(nv) = &attr.meta else {
            continue;
        };
        match &nv.value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => {
                let value = s.value();
                for line in value.split('\n') {
                    lines.push(line.to_owned());
                }
                exprs.push(quote!(#s, "\n"));
            }
            other => {
                literal_only = false;
                exprs.push(quote!(#other, "\n"));
            }
        }
    }
    if literal_only {
        let text = join(&lines);
        (!text.is_empty()).then_some(Doc::Text(text))
    } else {
        Some(Doc::Expr(exprs))
    }
}

fn join(lines: &[String]) -> String {
    let mut out = String::new();
    let mut paragraph_break = false;
    for raw in lines {
        let line = raw.strip_prefix(' ').unwrap_or(raw).trim_end();
        if line.trim().is_empty() {
            paragraph_break = !out.is_empty();
            continue;
        }
        let starts_block = {
            let t = line.trim_start();
            t.starts_with("- ")
                || t.starts_with("* ")
                || t.split_once(". ")
                    .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
                || line.starts_with("    ")
        };
        if out.is_empty() {
        } else if paragraph_break {
            out.push_str("\n\n");
        } else if starts_block {
            out.push('\n');
        } else {
            out.push(' ');
        }
        paragraph_break = false;
        out.push_str(if starts_block {
            line
        } else {
            line.trim_start()
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(lines: &[&str]) -> String {
        join(&lines.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn paragraphs_and_lists() {
        assert_eq!(
            doc(&[" Move the arm", " to a pose."]),
            "Move the arm to a pose."
        );
        assert_eq!(doc(&[" One.", "", " Two."]), "One.\n\nTwo.");
        assert_eq!(
            doc(&[" Use it:", " - to grasp", " - to place"]),
            "Use it:\n- to grasp\n- to place"
        );
        assert_eq!(doc(&["", " ", ""]), "");
    }
}
