//! Checks that need only syntax (serde's `check.rs`): names, descriptions and their budgets,
//! annotations, and everything about a `#[param]` the macro can decide from literals. Each error
//! goes into the [`Ctxt`], spanned at the offending token, and says how to fix it.
//!
//! Checks that need types (is this a number? how deep does this struct nest?) are generated as
//! `const` items and trait bounds by `typecheck.rs`.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;

use crate::ctxt::Ctxt;
use crate::doc::Doc;
use crate::property::{Components, LiteralValue, Number, Property, RangeBound, literal_value};
use crate::typecheck::Checks;

/// Default budget of a tool description, in bytes.
pub const TOOL_DESCRIPTION_BYTES: usize = 1024;
/// Default budget of a parameter (or field) description, in bytes.
pub const PARAM_DESCRIPTION_BYTES: usize = 300;
/// The longest tool name every client accepts: the OpenAI and Anthropic APIs (and so Claude
/// Code and VS Code Copilot) take `^[a-zA-Z0-9_-]{1,64}$`, Gemini at most 64 characters.
pub const TOOL_NAME_CHARS: usize = 64;
/// What the runtime writes between a tool's description and its check's doc comment
/// (`runtime/src/contract/meta.rs`, `CHECK_PREFIX`, after a blank line): counted in the budget.
pub const CHECK_SEPARATOR: &str = "\n\nBefore it runs: ";
/// The most parameters a tool takes unless `allow(many_params)`.
pub const MAX_PARAMS: usize = 5;
/// The deepest nesting of a tool's input unless `allow(deep_nesting)`.
pub const MAX_DEPTH: usize = 3;

/// Whether every client accepts `s` as a tool name: `^[a-zA-Z0-9_-]{1,64}$`. MCP allows `.` and
/// 128 characters, but the model APIs behind the clients refuse them (a name a client prefixes
/// with its server's has less room still: `check --clients` counts that, per client).
pub fn valid_tool_name(s: &str) -> bool {
    (1..=TOOL_NAME_CHARS).contains(&s.len())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
}

/// Why no client accepts `name`, for the error.
fn refused_name(name: &str) -> String {
    let chars = name.chars().count();
    if chars > TOOL_NAME_CHARS {
        format!("it is {chars} characters")
    } else if name.is_empty() {
        "it is empty".to_owned()
    } else {
        let bad: String = name
            .chars()
            .filter(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-')))
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(" ");
        format!("it has {bad}")
    }
}

const EVERY_CLIENT: &str = "every client refuses a tool name outside ^[a-zA-Z0-9_-]{1,64}$ (the OpenAI and Anthropic APIs, so Claude Code and VS Code Copilot; Gemini takes at most 64 characters)";

fn is_snake_case(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Checks a tool's name. `explicit` is the span of `name = ".."` when given; otherwise the name
/// is the fn's and `fn_ident` is pointed at.
pub fn tool_name(cx: &Ctxt, name: &str, explicit: Option<Span>, fn_ident: &syn::Ident) {
    match explicit {
        Some(span) => {
            if !valid_tool_name(name) {
                cx.error_at(
                    span,
                    format!(
                        "invalid tool name `{name}`: {}, and {EVERY_CLIENT}",
                        refused_name(name)
                    ),
                );
            }
        }
        None => {
            if !is_snake_case(name) {
                let hint = if valid_tool_name(name) {
                    format!(
                        "rename the fn in snake_case, or publish this name on purpose with `#[tool(name = \"{name}\")]`"
                    )
                } else {
                    "name the tool with `#[tool(name = \"..\")]`, using A-Z a-z 0-9 _ -".to_owned()
                };
                cx.error_spanned_by(
                    fn_ident,
                    format!(
                        "the tool name defaults to the fn name, and `{name}` is not snake_case: {hint}"
                    ),
                );
            } else if !valid_tool_name(name) {
                cx.error_spanned_by(
                    fn_ident,
                    format!(
                        "the tool name defaults to the fn name, and {}: {EVERY_CLIENT}; set a shorter `#[tool(name = \"..\")]`",
                        refused_name(name)
                    ),
                );
            }
        }
    }
}

/// Why `text` is a placeholder rather than a description, if it is one: empty, a marker (`TODO`,
/// `FIXME: ..`, `...`), a bare word (`Description`, `Parameter`), or a generated label naming the
/// thing described (`Parameter force`, where `names` holds `force`).
pub fn placeholder(text: &str, names: &[&str]) -> Option<String> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Some("it is empty".to_owned());
    }
    let normalized = normalize(trimmed);
    const WORDS: &[&str] = &[
        "todo",
        "fixme",
        "tbd",
        "tba",
        "xxx",
        "wip",
        "placeholder",
        "description",
        "no description",
        "desc",
        "doc",
        "docs",
        "n/a",
        "na",
        "none",
        "lorem ipsum",
        "parameter",
        "param",
        "argument",
        "arg",
        "field",
        "value",
        "tool",
        "a tool",
        "the tool",
        "this tool",
        "function",
        "fn",
        "",
    ];
    if WORDS.contains(&normalized.as_str()) {
        return Some(format!("`{trimmed}` is a placeholder"));
    }
    for marker in ["todo", "fixme", "tbd", "xxx"] {
        if let Some(rest) = normalized.strip_prefix(marker)
            && rest.starts_with([' ', ':', '(', '-'])
        {
            return Some(format!("it starts with `{}`", marker.to_uppercase()));
        }
    }
    // "Parameter force", "Arg force": a generated placeholder naming the thing described.
    if names.iter().any(|n| {
        ["parameter", "param", "argument", "arg", "field"]
            .iter()
            .any(|w| normalized == format!("{w} {}", normalize(n)))
    }) {
        return Some(format!("`{trimmed}` is a placeholder"));
    }
    None
}

/// Lowercase, `_`/`-` as spaces, trailing punctuation and backticks removed.
fn normalize(s: &str) -> String {
    let s = s.to_lowercase().replace(['_', '-'], " ").replace('`', "");
    let s = s.trim().trim_end_matches(['.', ':', '!', '?', '…']).trim();
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What a description belongs to, for messages and budgets.
pub struct Described<'a> {
    /// `tool `move_arm``, `parameter `force``, `field `x``.
    pub what: String,
    /// Names a placeholder would repeat.
    pub names: Vec<&'a str>,
    /// The byte budget.
    pub limit: usize,
    /// How to raise the budget, e.g. `#[tool(max_description_bytes = N)]`.
    pub raise: &'a str,
}

/// Checks a description the macro can read: not a placeholder, within its budget.
pub fn description(cx: &Ctxt, text: &str, at: &TokenStream, d: &Described<'_>) {
    if let Some(why) = placeholder(text, &d.names) {
        cx.error_spanned_by(
            at,
            format!(
                "the description of {} is not a description ({why}): say what it is for and when to use it; this is what the model reads",
                d.what
            ),
        );
        return;
    }
    let bytes = text.len();
    if bytes > d.limit {
        cx.error_spanned_by(
            at,
            format!(
                "the description of {} is {bytes} bytes, over the budget of {} bytes: the model reads it on every turn and clients truncate long ones; shorten it, or raise the budget with {}",
                d.what, d.limit, d.raise
            ),
        );
    }
}

/// Checks a property's description (a tool parameter's or a field's): read now when the macro
/// can read it, or (a doc written as an expression, `#[doc = concat!(..)]`) its budget checked at
/// compile time through `checks`.
pub fn property_description(cx: &Ctxt, checks: &mut Checks, decl: &Property, d: &Described<'_>) {
    match (decl.description_text(), &decl.doc, &decl.doc_span) {
        (Some((text, at)), _, _) => description(cx, &text, &at, d),
        (None, Some(doc @ Doc::Expr(_)), Some(at)) => {
            checks.description_budget(&doc.to_tokens(), at, &d.what, d.limit, d.raise);
        }
        _ => {}
    }
}

/// `read_only` with `destructive`, or with `idempotent = false`.
pub fn annotations(
    cx: &Ctxt,
    read_only: Option<(bool, Span)>,
    destructive: Option<(bool, Span)>,
    idempotent: Option<(bool, Span)>,
) {
    let Some((true, _)) = read_only else {
        return;
    };
    if let Some((true, span)) = destructive {
        cx.error_at(
            span,
            "a `read_only` tool cannot be `destructive`: a tool that only reads changes nothing; remove one of the two",
        );
    }
    if let Some((false, span)) = idempotent {
        cx.error_at(
            span,
            "`read_only` implies `idempotent` (reading twice has the same effect as reading once); remove `idempotent = false`",
        );
    }
}

/// Whether `s` is a portable property name (what strict clients accept).
fn valid_property_name(s: &str) -> bool {
    (1..=64).contains(&s.len())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// The syntactic checks of one `#[param]`: key combinations, lengths, items, the pattern, and
/// literal defaults and examples against the declared limits.
pub fn param_keys(cx: &Ctxt, decl: &Property) {
    let attr = &decl.attr;
    if let Some(r) = &attr.rename
        && !valid_property_name(r)
    {
        cx.error_at(
            r.span(),
            format!(
                "invalid property name `{}`: use 1 to 64 of the characters A-Z a-z 0-9 _ . - (strict clients refuse others)",
                &**r
            ),
        );
    }
    if attr.flatten.is_present() {
        let others = [
            ("unit", attr.unit.is_some()),
            ("range", attr.range.is_some()),
            ("default", attr.default.is_some()),
            ("examples", attr.examples.is_some()),
            ("min_length", attr.min_length.is_some()),
            ("max_length", attr.max_length.is_some()),
            ("pattern", attr.pattern.is_some()),
            ("min_items", attr.min_items.is_some()),
            ("max_items", attr.max_items.is_some()),
            ("rename", attr.rename.is_some()),
            ("description", attr.description.is_some()),
            ("header", attr.header.is_some()),
        ];
        let others: Vec<_> = others
            .iter()
            .filter(|(_, set)| *set)
            .map(|(k, _)| *k)
            .collect();
        if !others.is_empty() {
            cx.error_at(
                attr.flatten.span(),
                format!(
                    "`flatten` cannot be combined with `{}`: the flattened struct's fields carry their own `#[param]`s",
                    others.join("`, `")
                ),
            );
        }
    }
    if let Some(header) = &attr.header {
        header_name(cx, header);
    }
    range(cx, decl);
    if let (Some(min), Some(max)) = (&attr.min_length, &attr.max_length)
        && **min > **max
    {
        cx.error_at(
            min.span(),
            format!(
                "`min_length = {}` is above `max_length = {}`: no string fits; swap them",
                **min, **max
            ),
        );
    }
    if let (Some(min), Some(max)) = (&attr.min_items, &attr.max_items)
        && **min > **max
    {
        cx.error_at(
            min.span(),
            format!(
                "`min_items = {}` is above `max_items = {}`: no list fits; swap them",
                **min, **max
            ),
        );
    }
    let regex = attr
        .pattern
        .as_ref()
        .and_then(|p| match regex::Regex::new(p) {
            Ok(re) => Some(re),
            Err(e) => {
                cx.error_at(
                    p.span(),
                    format!(
                        "`pattern` is not a valid regular expression: {}",
                        regex_error(p, &e)
                    ),
                );
                None
            }
        });
    for (kind, expr) in decl.declared_values() {
        match literal_value(expr) {
            Some(LiteralValue::Number(n)) => {
                if let Some(problem) = outside_range(n, decl.min.as_ref(), decl.max.as_ref()) {
                    cx.error_spanned_by(expr, format!("this {kind} is {problem}: the published {kind} would be refused; pick a value inside the range, or widen the range"));
                }
            }
            Some(LiteralValue::Str(s)) => {
                let chars = s.chars().count();
                if let Some(min) = &attr.min_length
                    && (chars as u64) < **min
                {
                    cx.error_spanned_by(expr, format!("this {kind} is {} long, shorter than `min_length = {}`: the published {kind} would be refused; lengthen it, or lower `min_length`", plural(chars, "character"), **min));
                }
                if let Some(max) = &attr.max_length
                    && (chars as u64) > **max
                {
                    cx.error_spanned_by(expr, format!("this {kind} is {} long, longer than `max_length = {}`: the published {kind} would be refused; shorten it, or raise `max_length`", plural(chars, "character"), **max));
                }
                if let (Some(re), Some(p)) = (&regex, &attr.pattern)
                    && !re.is_match(&s)
                {
                    cx.error_spanned_by(
                        expr,
                        format!("this {kind} does not match `pattern = \"{}\"`: the published {kind} would be refused; fix the value or the pattern", p.as_str()),
                    );
                }
            }
            None => {}
        }
    }
}

/// RFC 9110 `tchar`: what an HTTP field name (a token) is made of.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// The prefix a client puts before a mirrored parameter's header name.
const HEADER_PREFIX: &str = "Mcp-Param-";

/// `header = ".."`: a header name (an RFC 9110 token, as `x-mcp-header` must be), written
/// without the `Mcp-Param-` prefix the client adds.
fn header_name(cx: &Ctxt, header: &darling::util::SpannedValue<String>) {
    let name = header.as_str();
    let example = "e.g. `header = \"Region\"` for `Mcp-Param-Region`";
    if name.is_empty() {
        cx.error_at(
            header.span(),
            format!(
                "`header = \"\"` names no header: write the name the client sends after `{HEADER_PREFIX}`, {example}"
            ),
        );
        return;
    }
    if let Some(bad) = name.chars().find(|c| !is_tchar(*c)) {
        let what = match bad {
            ' ' => "a space".to_owned(),
            c if c.is_control() => format!("the control character {c:?}"),
            c => format!("`{c}`"),
        };
        // Each run of other characters becomes one `-`.
        let mut fixed = String::new();
        for c in name.chars() {
            if is_tchar(c) {
                fixed.push(c);
            } else if !fixed.is_empty() && !fixed.ends_with('-') {
                fixed.push('-');
            }
        }
        let fixed = fixed.trim_end_matches('-');
        let instead = if fixed.is_empty() {
            example.to_owned()
        } else {
            format!("`header = \"{fixed}\"`")
        };
        cx.error_at(
            header.span(),
            format!(
                "`header = {name:?}` is not an HTTP header name: it contains {what}, and a header name is only letters, digits and ! # $ % & ' * + - . ^ _ ` | ~ (an RFC 9110 token); write {instead}"
            ),
        );
        return;
    }
    if let Some(prefix) = name.get(..HEADER_PREFIX.len())
        && prefix.eq_ignore_ascii_case(HEADER_PREFIX)
    {
        let rest = &name[HEADER_PREFIX.len()..];
        let instead = if rest.is_empty() {
            example.to_owned()
        } else {
            format!("`header = \"{rest}\"`")
        };
        cx.error_at(
            header.span(),
            format!(
                "`header` is the name after the `{HEADER_PREFIX}` prefix, which the client adds: write {instead}"
            ),
        );
    }
}

/// `1 character`, `2 characters`.
fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// A concise message for an invalid pattern: regex-syntax's error kind and the part at fault.
fn regex_error(pattern: &str, error: &regex::Error) -> String {
    let located = |kind: String, span: &regex_syntax::ast::Span| {
        let at = pattern
            .get(span.start.offset..span.end.offset)
            .unwrap_or("");
        if at.is_empty() {
            format!("{kind} (at character {})", span.start.column)
        } else {
            format!("{kind}: `{at}`")
        }
    };
    match regex_syntax::Parser::new().parse(pattern) {
        Err(regex_syntax::Error::Parse(e)) => located(e.kind().to_string(), e.span()),
        Err(regex_syntax::Error::Translate(e)) => located(e.kind().to_string(), e.span()),
        Err(e) => e.to_string(),
        Ok(_) => match error {
            regex::Error::CompiledTooBig(limit) => {
                format!("it compiles to more than {limit} bytes; simplify it")
            }
            other => other.to_string(),
        },
    }
}

/// The range checks the macro can decide: empty ranges with literal bounds, and `a..=`.
fn range(cx: &Ctxt, decl: &Property) {
    let Some(range) = decl.attr.range.as_ref().map(|r| &r.0) else {
        return;
    };
    match &decl.components {
        Some(Components::Listed(components)) => {
            for c in components {
                range_bounds(cx, &c.expr, c.min.as_ref(), c.max.as_ref());
            }
        }
        // A const's ranges are checked where they are declared (by the compiler's types).
        Some(Components::Const(_)) => {}
        None => range_bounds(cx, range, decl.min.as_ref(), decl.max.as_ref()),
    }
}

/// The checks of one range (`range`, or one of a per-component `range = [..]`).
fn range_bounds(cx: &Ctxt, range: &syn::Expr, min: Option<&RangeBound>, max: Option<&RangeBound>) {
    if let syn::Expr::Range(r) = range
        && r.end.is_none()
        && matches!(r.limits, syn::RangeLimits::Closed(_))
    {
        cx.error_spanned_by(
            range,
            "`a..=` needs an upper bound: write `a..=b`, or `a..` for no upper bound",
        );
        return;
    }
    if let (Some(lo), Some(hi)) = (min, max)
        && let (Some(l), Some(h)) = (lo.literal(), hi.literal())
        && (l.as_f64() > h.as_f64() || (hi.exclusive && l.as_f64() >= h.as_f64()))
    {
        let written = range_text(range);
        let hint = if l.as_f64() > h.as_f64() {
            "write the smaller bound first"
        } else {
            "`a..a` excludes its only value; write `a..=a`"
        };
        cx.error_spanned_by(
            range,
            format!("empty range: no value satisfies `range = {written}`; {hint}"),
        );
    }
}

/// A range as written, without spaces (`5.0..=30.0`).
pub fn range_text(range: &syn::Expr) -> String {
    range.to_token_stream().to_string().replace(' ', "")
}

/// Why `n` is outside the literal bounds, if it is (`None` when a bound is not a literal).
pub fn outside_range(
    n: Number,
    min: Option<&RangeBound>,
    max: Option<&RangeBound>,
) -> Option<String> {
    let v = n.as_f64();
    if let Some(lo) = min
        && let Some(l) = lo.literal()
        && v < l.as_f64()
    {
        return Some(format!("below the range's lower bound `{}`", lo.text()));
    }
    if let Some(hi) = max
        && let Some(h) = hi.literal()
        && (v > h.as_f64() || (hi.exclusive && v >= h.as_f64()))
    {
        let what = if hi.exclusive {
            "excluded upper bound"
        } else {
            "upper bound"
        };
        return Some(format!(
            "{} the range's {what} `{}`",
            if v > h.as_f64() { "above" } else { "at" },
            hi.text()
        ));
    }
    None
}

/// Respans every token of `tokens` to `span`, so an error about them points at `span`.
pub fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut t| {
            if let proc_macro2::TokenTree::Group(g) = &t {
                let mut group = proc_macro2::Group::new(g.delimiter(), respan(g.stream(), span));
                group.set_span(span);
                t = proc_macro2::TokenTree::Group(group);
            } else {
                t.set_span(span);
            }
            t
        })
        .collect()
}

/// Whether a type mentions something a tool parameter cannot be (a reference, `impl Trait`, `_`,
/// a lifetime): checks on it would only repeat the signature error.
pub fn type_is_servable(ty: &syn::Type) -> bool {
    fn tokens_ok(tokens: TokenStream) -> bool {
        let mut prev_apostrophe = false;
        for t in tokens {
            match t {
                proc_macro2::TokenTree::Group(g) => {
                    if !tokens_ok(g.stream()) {
                        return false;
                    }
                }
                proc_macro2::TokenTree::Punct(p) => {
                    if p.as_char() == '&' || p.as_char() == '\'' {
                        return false;
                    }
                    prev_apostrophe = p.as_char() == '\'';
                }
                proc_macro2::TokenTree::Ident(i) => {
                    if i == "impl" || i == "dyn" || prev_apostrophe {
                        return false;
                    }
                }
                proc_macro2::TokenTree::Literal(_) => {}
            }
        }
        true
    }
    !matches!(ty, syn::Type::Infer(_)) && tokens_ok(ty.to_token_stream()) && !contains_infer(ty)
}

fn contains_infer(ty: &syn::Type) -> bool {
    ty.to_token_stream()
        .into_iter()
        .any(|t| matches!(&t, proc_macro2::TokenTree::Ident(i) if i == "_"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders() {
        for text in [
            "",
            "  ",
            "TODO",
            "todo.",
            "FIXME: say more",
            "TBD",
            "...",
            "…",
            "-",
        ] {
            assert!(placeholder(text, &["force"]).is_some(), "{text:?}");
        }
        for text in [
            "Description.",
            "Parameter force",
            "param force",
            "Field `force`",
        ] {
            assert!(placeholder(text, &["force"]).is_some(), "{text:?}");
        }
        for text in [
            "Grip force.",
            "The force.",
            "Force.",
            "Why.",
            "Todos to run, in order.",
        ] {
            assert!(placeholder(text, &["force"]).is_none(), "{text:?}");
        }
    }

    #[test]
    fn tool_names() {
        assert!(valid_tool_name("move_arm-v2"));
        assert!(valid_tool_name(&"a".repeat(64)));
        assert!(!valid_tool_name("move_arm.v2"));
        assert!(!valid_tool_name("move arm"));
        assert!(!valid_tool_name(""));
        assert!(!valid_tool_name(&"a".repeat(65)));
        assert_eq!(refused_name("a.b c"), "it has `.` ` `");
        assert!(is_snake_case("move_arm2"));
        assert!(!is_snake_case("moveArm"));
    }
}
