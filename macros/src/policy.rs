//! Execution-policy keys of `#[tool]` and `#[toolbox]`: `timeout`, `resource`, `retry`,
//! `max_output_bytes`, `over_budget`, `group`, `max_concurrency`.

use darling::util::{PreservedStrExpr, SpannedValue};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::{Expr, ExprLit, Lit};

use crate::ctxt::Ctxt;

/// Parses "3s", "250ms", "1.5s", "2min" into milliseconds (`None` for anything else, and for
/// durations under 1 ms unless `zero` allows them: `"0s"`).
pub fn parse_duration(text: &str, zero: bool) -> Option<u64> {
    let t = text.trim();
    let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let (number, unit) = t.split_at(split);
    let value: f64 = number.parse().ok()?;
    let factor = match unit.trim() {
        "ms" => 1.0,
        "s" | "sec" => 1000.0,
        "m" | "min" => 60_000.0,
        "h" => 3_600_000.0,
        _ => return None,
    };
    let ms = value * factor;
    let least = if zero { 0.0 } else { 1.0 };
    (ms >= least && ms.is_finite()).then(|| ms.round() as u64)
}

/// `timeout = "3s"` → milliseconds, or an error on the value.
pub fn timeout_ms(cx: &Ctxt, value: &Option<SpannedValue<String>>) -> Option<u64> {
    duration_ms(
        cx,
        value,
        false,
        "invalid timeout `{}`: write a positive duration with a unit, e.g. \"3s\", \"500ms\", \"1.5s\" or \"2min\"",
    )
}

/// `over_budget = "envelope"` → true (`"cut"`, the default, → false), or an error on the value;
/// it needs a budget (`has_budget`: `max_output_bytes` is declared).
pub fn over_budget(cx: &Ctxt, value: &Option<SpannedValue<String>>, has_budget: bool) -> bool {
    let Some(v) = value else {
        return false;
    };
    let envelope = match v.as_str() {
        "envelope" => true,
        "cut" => false,
        other => {
            cx.error_at(
                v.span(),
                format!(
                    "unknown `over_budget = \"{other}\"`: write \"cut\" (the default: the result cut \
                     on items of its largest list, with a note) or \"envelope\" (a \
                     `_budget_exceeded` envelope in its place, so the model asks for less)"
                ),
            );
            return false;
        }
    };
    if !has_budget {
        cx.error_at(
            v.span(),
            "`over_budget` says what a result over `max_output_bytes` becomes: declare the budget \
             too, e.g. `max_output_bytes = 16384`",
        );
    }
    envelope
}

/// `grace = "500ms"` → milliseconds (zero allowed: abandon at once), or an error on the value.
pub fn grace_ms(cx: &Ctxt, value: &Option<SpannedValue<String>>) -> Option<u64> {
    duration_ms(
        cx,
        value,
        true,
        "invalid grace period `{}`: write a duration with a unit, e.g. \"500ms\", \"2s\" (\"0s\" abandons the body as soon as it is told to stop)",
    )
}

/// A duration key's value in milliseconds, or `error` (its `{}` replaced by the value) at it.
fn duration_ms(
    cx: &Ctxt,
    value: &Option<SpannedValue<String>>,
    zero: bool,
    error: &str,
) -> Option<u64> {
    let v = value.as_ref()?;
    let parsed = parse_duration(v, zero);
    if parsed.is_none() {
        cx.error_at(v.span(), error.replacen("{}", v, 1));
    }
    parsed
}

/// `resource = "arm"` or `resource = ["arm", "gripper"]`.
pub fn resources(cx: &Ctxt, value: &Option<PreservedStrExpr>) -> Vec<(String, proc_macro2::Span)> {
    let Some(expr) = value.as_ref().map(|v| &v.0) else {
        return Vec::new();
    };
    let one = |e: &Expr| match e {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) if !s.value().trim().is_empty() => Some((s.value(), s.span())),
        other => {
            cx.error_spanned_by(
                other,
                "a resource is a non-empty string: `resource = \"arm\"`",
            );
            None
        }
    };
    match expr {
        Expr::Array(array) => array.elems.iter().filter_map(one).collect(),
        other => one(other).into_iter().collect(),
    }
}

/// `stop_for = "arm"` or `stop_for = ["arm", "gripper"]`: the resources, each where it is written.
pub fn stop_for(cx: &Ctxt, value: &Option<PreservedStrExpr>) -> Vec<(String, proc_macro2::Span)> {
    let Some(expr) = value.as_ref().map(|v| &v.0) else {
        return Vec::new();
    };
    let one = |e: &Expr| match e {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) if !s.value().trim().is_empty() => Some((s.value(), s.span())),
        other => {
            cx.error_spanned_by(
                other,
                "`stop_for` names the resources the tool stops: `stop_for = \"arm\"`",
            );
            None
        }
    };
    match expr {
        Expr::Array(array) => array.elems.iter().filter_map(one).collect(),
        other => one(other).into_iter().collect(),
    }
}

/// `&["arm", "gripper"]`.
pub fn resources_tokens(resources: &[(String, proc_macro2::Span)]) -> TokenStream {
    let names = resources.iter().map(|(n, _)| n);
    quote!(&[#(#names),*])
}

/// `rate_limit = "10/min"` as a `Rate` expression, evaluated in `const` (a rate that does not
/// parse is a compile error at the literal, from `Rate::parse`, the one parser of rates).
pub fn rate_tokens(value: &Option<SpannedValue<String>>) -> TokenStream {
    match value {
        Some(v) => {
            let text = &**v;
            let p = crate::runtime::private_at(v.span());
            quote_spanned!(v.span()=> ::core::option::Option::Some({
                const RATE: #p::Rate =
                    #p::Rate::declared(#text);
                RATE
            }))
        }
        None => quote!(::core::option::Option::None),
    }
}

/// `scopes = ["arm:move", "arm:read"]`: OAuth scope tokens (RFC 6749 §3.3: printable ASCII but
/// space, `"` and `\\`), each once.
pub fn scopes(cx: &Ctxt, value: &Option<PreservedStrExpr>) -> Vec<String> {
    let Some(expr) = value.as_ref().map(|v| &v.0) else {
        return Vec::new();
    };
    let Expr::Array(array) = expr else {
        cx.error_spanned_by(
            expr,
            "scopes are a list of strings: `scopes = [\"arm:move\"]`",
        );
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for e in &array.elems {
        match e {
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => {
                let v = s.value();
                let valid = !v.is_empty()
                    && v.bytes().all(|b| {
                        b == 0x21 || (0x23..=0x5b).contains(&b) || (0x5d..=0x7e).contains(&b)
                    });
                if !valid {
                    cx.error_spanned_by(
                        s,
                        format!("`{v}` is not an OAuth scope: a scope is printable ASCII without spaces, quotes or backslashes (RFC 6749 §3.3), e.g. \"arm:move\""),
                    );
                } else if out.contains(&v) {
                    cx.error_spanned_by(s, format!("scope `{v}` is listed twice"));
                } else {
                    out.push(v);
                }
            }
            other => cx.error_spanned_by(
                other,
                "a scope is a string literal: `scopes = [\"arm:move\"]`",
            ),
        }
    }
    out
}
