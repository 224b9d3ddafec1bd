//! The user's items, read as far as the macros need them: attributes, visibility and signatures.
//! A fn's body is never parsed: its tokens pass through untouched (as a verbatim statement of a
//! `Block`), so a half-typed body (or rust-analyzer's `__ra_fixup` repairs of one) still
//! expands, and rustc reports the slip once, where it is.
//!
//! When even the signature or the impl's header does not parse, [`strip_helpers`] gives the
//! item back with our helper attributes (`#[tool]`, `#[param]`) and the doc comments of
//! parameters removed (rustc reports the syntax error itself), so one mistake never leaves the
//! rest of the item without its types (tokio's `#[tokio::main]` re-emits its item the same way).

use proc_macro2::{Delimiter, Group, Ident, Spacing, TokenStream, TokenTree};
use quote::ToTokens;
use syn::parse::discouraged::Speculative;
use syn::parse::{ParseStream, Parser};
use syn::token::Brace;
use syn::{
    Abi, Attribute, Block, FnModifiers, ImplItem, ImplItemFn, ItemFn, ItemImpl, Signature, Stmt,
    Token, Visibility,
};

/// A block that holds `body`, the group the user wrote, whole: [`print_fn`] and [`print_impl`]
/// give it back as it came (its braces' own spans too, so that rustc, parsing the expansion,
/// reports a syntax error in the body exactly as it did in the source, and only once).
fn verbatim_block(body: &Group) -> Block {
    Block {
        brace_token: Brace(body.delim_span()),
        stmts: vec![Stmt::Item(syn::Item::Verbatim(
            TokenTree::Group(body.clone()).into(),
        ))],
    }
}

/// The group the user wrote, if `block` is one of [`verbatim_block`]'s.
fn written_body(block: &Block) -> Option<Group> {
    let [Stmt::Item(syn::Item::Verbatim(tokens))] = block.stmts.as_slice() else {
        return None;
    };
    let mut trees = tokens.clone().into_iter();
    match (trees.next(), trees.next()) {
        (Some(TokenTree::Group(g)), None) if g.delimiter() == Delimiter::Brace => Some(g),
        _ => None,
    }
}

/// A fn as the user wrote it (without what the macro took out): its body untouched.
pub fn print_fn(item: &ItemFn) -> TokenStream {
    let mut tokens = TokenStream::new();
    for attr in &item.attrs {
        attr.to_tokens(&mut tokens);
    }
    item.vis.to_tokens(&mut tokens);
    item.sig.to_tokens(&mut tokens);
    match written_body(&item.block) {
        Some(body) => tokens.extend([TokenTree::Group(body)]),
        None => item.block.to_tokens(&mut tokens),
    }
    tokens
}

/// An impl block as the user wrote it (without what the macro took out): its fns' bodies
/// untouched.
pub fn print_impl(item: &ItemImpl) -> TokenStream {
    let mut item = item.clone();
    for impl_item in &mut item.items {
        let ImplItem::Fn(f) = impl_item else { continue };
        let Some(body) = written_body(&f.block) else {
            continue;
        };
        let mut tokens = TokenStream::new();
        for attr in &f.attrs {
            attr.to_tokens(&mut tokens);
        }
        f.vis.to_tokens(&mut tokens);
        f.modifiers.defaultness.to_tokens(&mut tokens);
        f.sig.to_tokens(&mut tokens);
        tokens.extend([TokenTree::Group(body)]);
        *impl_item = ImplItem::Verbatim(tokens);
    }
    item.into_token_stream()
}

/// What a fn declaration ends with: its body, or `;` (a method without a body is refused by
/// rustc in an inherent impl; it is kept as written).
enum FnEnd {
    Body(Group),
    Semi(Token![;]),
}

fn fn_end(input: ParseStream) -> syn::Result<FnEnd> {
    if input.peek(Token![;]) {
        return Ok(FnEnd::Semi(input.parse()?));
    }
    match input.parse::<TokenTree>()? {
        TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => Ok(FnEnd::Body(g)),
        other => Err(syn::Error::new(
            other.span(),
            "expected the fn's body `{ .. }`",
        )),
    }
}

/// Whether `input` starts a fn's signature (`const`, `async`, `unsafe`, `extern "C"`, `fn`).
fn peek_signature(input: ParseStream) -> bool {
    let fork = input.fork();
    fork.parse::<Option<Token![const]>>().is_ok()
        && fork.parse::<Option<Token![async]>>().is_ok()
        && fork.parse::<Option<Token![unsafe]>>().is_ok()
        && fork.parse::<Option<Abi>>().is_ok()
        && fork.peek(Token![fn])
}

/// A free fn: attributes, visibility and signature parsed, the body kept as tokens.
pub fn parse_fn(input: TokenStream) -> syn::Result<ItemFn> {
    let parser = |input: ParseStream| -> syn::Result<ItemFn> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis: Visibility = input.parse()?;
        let sig: Signature = input.parse()?;
        let body = match fn_end(input)? {
            FnEnd::Body(body) => body,
            FnEnd::Semi(semi) => {
                return Err(syn::Error::new_spanned(semi, "a tool fn needs a body"));
            }
        };
        if !input.is_empty() {
            return Err(input.error("unexpected tokens after the fn"));
        }
        Ok(ItemFn {
            attrs,
            vis,
            modifiers: FnModifiers::default(),
            sig,
            block: Box::new(verbatim_block(&body)),
        })
    };
    parser.parse2(input)
}

/// An impl block: its header parsed by syn, then each item; a fn's body is kept as tokens.
///
/// An item that does not parse (a signature being typed) is kept as written, without our helper
/// attributes, and its name (if it is a fn) is returned among the broken ones, so that the
/// checks of the whole impl (which tools use which resource, which method a `safe_stop` names)
/// do not report what only looks wrong because that item could not be read.
pub fn parse_impl(input: TokenStream) -> syn::Result<(ItemImpl, Broken)> {
    let mut tokens: Vec<TokenTree> = input.into_iter().collect();
    let body = match tokens.pop() {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => g,
        Some(other) => {
            return Err(syn::Error::new(
                other.span(),
                "expected an impl block `impl Type { .. }`",
            ));
        }
        None => {
            return Err(syn::Error::new(
                proc_macro2::Span::call_site(),
                "expected an impl block `impl Type { .. }`",
            ));
        }
    };
    // The header, parsed by syn with an empty body in place of the real one.
    let mut empty = Group::new(Delimiter::Brace, TokenStream::new());
    empty.set_span(body.span());
    tokens.push(TokenTree::Group(empty));
    let mut item: ItemImpl = syn::parse2(tokens.into_iter().collect())?;
    item.brace_token = Brace(body.delim_span());
    let mut broken = Broken::default();
    let parser = |input: ParseStream| -> syn::Result<()> {
        item.attrs.extend(input.call(Attribute::parse_inner)?);
        while !input.is_empty() {
            let ahead = input.fork();
            match impl_item(&ahead) {
                Ok(parsed) => {
                    input.advance_to(&ahead);
                    item.items.push(parsed);
                }
                Err(_) => {
                    let tokens = skip_item(input);
                    broken.note(&tokens);
                    item.items.push(ImplItem::Verbatim(strip_helpers(tokens)));
                }
            }
        }
        Ok(())
    };
    parser.parse2(body.stream())?;
    Ok((item, broken))
}

/// The fns of an impl that could not be read.
#[derive(Default)]
pub struct Broken {
    /// Their names, where the tokens tell (`fn NAME`).
    pub fns: Vec<Ident>,
    /// Some item could not be read at all.
    pub any: bool,
}

impl Broken {
    fn note(&mut self, tokens: &TokenStream) {
        self.any = true;
        let mut iter = tokens.clone().into_iter();
        while let Some(t) = iter.next() {
            if matches!(&t, TokenTree::Ident(i) if i == "fn") {
                if let Some(TokenTree::Ident(name)) = iter.next() {
                    self.fns.push(name);
                }
                return;
            }
        }
    }

    /// Whether a fn named `name` is among them.
    pub fn has_fn(&self, name: &Ident) -> bool {
        self.fns.iter().any(|f| f == name)
    }
}

/// One item of an impl: a fn read up to its body (kept as tokens), anything else by syn.
fn impl_item(input: ParseStream) -> syn::Result<ImplItem> {
    let begin = input.fork();
    let attrs = input.call(Attribute::parse_outer)?;
    let ahead = input.fork();
    let vis: Visibility = ahead.parse()?;
    let defaultness: Option<Token![default]> =
        if ahead.peek(Token![default]) && !ahead.peek2(Token![!]) {
            Some(ahead.parse()?)
        } else {
            None
        };
    if !peek_signature(&ahead) {
        // A const, a type, a macro: syn reads it whole (from the start, attributes included).
        let item: ImplItem = begin.parse()?;
        input.advance_to(&begin);
        return Ok(item);
    }
    input.advance_to(&ahead);
    let sig: Signature = input.parse()?;
    let mut modifiers = FnModifiers::default();
    modifiers.defaultness = defaultness;
    match fn_end(input)? {
        FnEnd::Body(body) => Ok(ImplItem::Fn(ImplItemFn {
            attrs,
            vis,
            modifiers,
            sig,
            block: verbatim_block(&body),
        })),
        FnEnd::Semi(semi) => {
            let mut tokens = TokenStream::new();
            for a in &attrs {
                a.to_tokens(&mut tokens);
            }
            vis.to_tokens(&mut tokens);
            defaultness.to_tokens(&mut tokens);
            sig.to_tokens(&mut tokens);
            semi.to_tokens(&mut tokens);
            Ok(ImplItem::Verbatim(tokens))
        }
    }
}

/// The tokens of an item that did not parse: up to its first `;` or `{ .. }` (a fn's body), or
/// to the end.
fn skip_item(input: ParseStream) -> TokenStream {
    input
        .step(|cursor| {
            let mut rest = *cursor;
            let mut tokens = Vec::new();
            while let Some((tt, next)) = rest.token_tree() {
                rest = next;
                let end = match &tt {
                    TokenTree::Punct(p) => p.as_char() == ';' && p.spacing() == Spacing::Alone,
                    TokenTree::Group(g) => g.delimiter() == Delimiter::Brace,
                    _ => false,
                };
                tokens.push(tt);
                if end {
                    break;
                }
            }
            Ok((tokens.into_iter().collect::<TokenStream>(), rest))
        })
        .unwrap_or_default()
}

/// `tokens` (a fn, or an impl block) without our helper attributes (`#[tool]`,
/// `#[toolwright::tool]`, `#[param]`) and without the doc comments of fn parameters, which
/// rustc refuses; bodies are left as they are.
pub fn strip_helpers(tokens: TokenStream) -> TokenStream {
    let is_impl = looks_like_impl(&tokens);
    strip_item(tokens, is_impl)
}

/// One item (`is_impl`: an impl block, whose last group holds items) without helpers.
fn strip_item(tokens: TokenStream, is_impl: bool) -> TokenStream {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    // After `fn`, the next parenthesized group holds the parameters.
    let mut in_signature = false;
    let last = tokens.len().saturating_sub(1);
    while i < tokens.len() {
        if let Some(skip) = helper_attribute(&tokens[i..], false) {
            i += skip;
            continue;
        }
        match &tokens[i] {
            TokenTree::Ident(ident) if ident == "fn" => in_signature = true,
            TokenTree::Group(g) if in_signature && g.delimiter() == Delimiter::Parenthesis => {
                in_signature = false;
                out.push(TokenTree::Group(with_stream(g, strip_params(g.stream()))));
                i += 1;
                continue;
            }
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
                in_signature = false;
                if is_impl && i == last {
                    // The impl's items.
                    out.push(TokenTree::Group(with_stream(
                        g,
                        strip_item(g.stream(), false),
                    )));
                    i += 1;
                    continue;
                }
            }
            TokenTree::Punct(p) if p.as_char() == ';' => in_signature = false,
            _ => {}
        }
        out.push(tokens[i].clone());
        i += 1;
    }
    out.into_iter().collect()
}

/// A fn's parameters without `#[param]` and doc comments.
fn strip_params(tokens: TokenStream) -> TokenStream {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if let Some(skip) = helper_attribute(&tokens[i..], true) {
            i += skip;
            continue;
        }
        out.push(tokens[i].clone());
        i += 1;
    }
    out.into_iter().collect()
}

/// How many tokens the helper attribute at the start of `tokens` takes (`#` and its brackets),
/// if it is one: `#[tool..]`, `#[toolwright::tool..]`, `#[param..]`, and (on parameters)
/// `#[doc..]`.
fn helper_attribute(tokens: &[TokenTree], parameter: bool) -> Option<usize> {
    let [TokenTree::Punct(hash), TokenTree::Group(g), ..] = tokens else {
        return None;
    };
    if hash.as_char() != '#' || g.delimiter() != Delimiter::Bracket {
        return None;
    }
    let path: Vec<String> = g
        .stream()
        .into_iter()
        .take_while(|t| match t {
            TokenTree::Ident(_) => true,
            TokenTree::Punct(p) => p.as_char() == ':',
            _ => false,
        })
        .filter_map(|t| match t {
            TokenTree::Ident(i) => Some(i.to_string()),
            _ => None,
        })
        .collect();
    let helper = match path
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["tool"] | ["toolwright", "tool"] | ["param"] => true,
        ["doc"] => parameter,
        _ => false,
    };
    helper.then_some(2)
}

fn with_stream(g: &Group, stream: TokenStream) -> Group {
    let mut out = Group::new(g.delimiter(), stream);
    out.set_span(g.span());
    out
}

/// The visibility and name of a fn whose signature does not parse, when the tokens tell.
pub fn fn_head(tokens: &TokenStream) -> Option<(Visibility, Ident)> {
    let parser = |input: ParseStream| -> syn::Result<Option<(Visibility, Ident)>> {
        input.call(Attribute::parse_outer)?;
        let vis: Visibility = input.parse()?;
        let mut name = None;
        while !input.is_empty() {
            if input.peek(Token![fn]) {
                input.parse::<Token![fn]>()?;
                name = input.parse::<Ident>().ok();
                break;
            }
            input.parse::<TokenTree>()?;
        }
        input.parse::<TokenStream>()?;
        Ok(name.map(|n| (vis, n)))
    };
    parser.parse2(tokens.clone()).ok().flatten()
}

/// Whether `tokens` look like a fn (a `fn` keyword before any body), as opposed to another item.
pub fn looks_like_fn(tokens: &TokenStream) -> bool {
    for t in tokens.clone() {
        match t {
            TokenTree::Ident(i) if i == "fn" => return true,
            TokenTree::Ident(i)
                if [
                    "struct", "enum", "impl", "trait", "mod", "static", "type", "union", "use",
                ]
                .contains(&i.to_string().as_str()) =>
            {
                return false;
            }
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => return false,
            _ => {}
        }
    }
    false
}

/// Whether `tokens` look like an impl block (an `impl` keyword before its body).
pub fn looks_like_impl(tokens: &TokenStream) -> bool {
    for t in tokens.clone() {
        match t {
            TokenTree::Ident(i) if i == "impl" => return true,
            TokenTree::Ident(i)
                if [
                    "struct", "enum", "fn", "trait", "mod", "static", "type", "union", "use",
                ]
                .contains(&i.to_string().as_str()) =>
            {
                return false;
            }
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => return false,
            _ => {}
        }
    }
    false
}
