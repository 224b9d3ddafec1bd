//! Checks that need types, generated as `const` items the compiler evaluates (so they fail
//! `cargo check` too), each spanned at the user's token:
//!
//! - a key on a type it does not apply to (`range` on a `String`): the trait's own bound,
//!   `<T as RangeTarget>::CHECK`, whose `#[diagnostic::on_unimplemented]` says how to fix it,
//!   with the parameter's type respanned to the key's value so the error points at the key;
//! - a condition the compiler computes that needs no number in its message (a parameter without
//!   a description that is not the `Context`, a range or value against a `const` bound): lifted
//!   into a type, `<Holds<{ condition }> as Rule>::CHECK` (`toolwright::bounds`);
//! - a bound outside an integer type's width, the parameter count and the input's nesting depth,
//!   whose messages show numbers only the evaluation knows: `const` evaluation of
//!   `Probe::<T>::{WIDTH, DEPTH, PROPERTIES}`, panicking with a message built at compile time
//!   (E0080). `Probe`'s inherent consts fall back to a trait's (`__private::ProbeFallback`) for
//!   types without them.
//!
//! All of them go into one `const _: () = { .. };` emitted next to the item, also when the
//! macro reports syntax errors, so one compile shows every mistake. Inside, each user type is
//! named once by an alias (`type __TwT0 = ..;`), so a type that does not resolve adds no error
//! of its own.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::Type;

use crate::check::{self, respan};
use crate::property::{BoundExpr, Components, LiteralValue, Property, literal_value};

/// Where an error goes: from `start` to `end` (stable proc macros cannot join spans, but rustc
/// reports an expression from its first token's start to its last token's end).
#[derive(Clone, Copy)]
pub struct At {
    pub start: Span,
    end: Span,
}

impl At {
    /// The whole of `tokens`.
    pub fn of<T: ToTokens>(tokens: &T) -> At {
        let tokens = tokens.to_token_stream();
        let mut iter = tokens.into_iter();
        let start = iter.next().map_or_else(Span::call_site, |t| t.span());
        let end = iter.last().map_or(start, |t| t.span());
        At { start, end }
    }

    /// One token.
    pub fn span(span: Span) -> At {
        At {
            start: span,
            end: span,
        }
    }

    /// `tokens` respanned to cover this place: the first token at `start`, the last at `end`.
    pub fn respan(self, tokens: TokenStream) -> TokenStream {
        let mut out: Vec<TokenTree> = respan(tokens, self.start).into_iter().collect();
        if out.len() > 1
            && let Some(last) = out.last_mut()
        {
            last.set_span(self.end);
        }
        out.into_iter().collect()
    }

    /// The type `ty`, written `Id<ty>` and respanned to cover this place (so even a one-token
    /// type spans the whole place).
    pub fn respan_type(self, ty: &Type) -> TokenStream {
        let p = crate::runtime::private();
        self.respan(quote!(#p::Id<#ty>))
    }

    /// `::core::panic!(#args)`, reported over this place.
    pub fn panic(self, args: TokenStream) -> TokenStream {
        let path = quote_spanned!(self.start=> ::core::panic!);
        let mut group = proc_macro2::Group::new(proc_macro2::Delimiter::Parenthesis, args);
        group.set_span(self.end);
        quote!(#path #group)
    }
}

/// The `const` checks of one item.
#[derive(Default)]
pub struct Checks {
    items: Vec<TokenStream>,
    /// `type __TwT0 = <the user's type>;`: each type is named once, where the user wrote it, so
    /// a type that does not resolve is one error there (the same as the signature's), not one
    /// per check.
    aliases: Vec<(String, TokenStream)>,
}

/// `const _: () = <Holds<{ #cond }> as #rule>::CHECK;`: the rule `toolwright::bounds::#rule`
/// requires `cond` to hold, reported over `at` with the rule's message.
fn holding(at: At, cond: TokenStream, rule: &str) -> TokenStream {
    let p = crate::runtime::private();
    let holds = at.respan(quote!(#p::Holds<{ #cond }>));
    let rule = syn::Ident::new(rule, at.start);
    let p = crate::runtime::private_at(at.start);
    quote_spanned!(at.start=> const _: () = <#holds as #p::#rule>::CHECK;)
}

/// `const _: () = if #cond { panic!("{}", #msg) };`, reported at `at`. `msg` is a `&str`
/// literal, or a `Msg` expression when `built`.
fn failing_if(at: At, cond: TokenStream, msg: TokenStream, built: bool) -> TokenStream {
    let span = at.start;
    if built {
        let panic = at.panic(quote_spanned!(span=> "{}", __TW_MSG.as_str()));
        let p = crate::runtime::private_at(span);
        quote_spanned! {span=>
            const _: () = if #cond {
                const __TW_MSG: #p::Msg = #msg;
                #panic
            };
        }
    } else {
        let panic = at.panic(msg);
        quote_spanned! {span=>
            const _: () = if #cond { #panic };
        }
    }
}

/// `const _: () = { const #name: usize = #value; if #name > #max { panic!(prefix, #name, suffix) } };`
fn failing_above(
    at: At,
    value: TokenStream,
    max: usize,
    prefix: &str,
    suffix: &str,
) -> TokenStream {
    let span = at.start;
    let panic = at.panic(quote_spanned!(span=> "{}", __TW_MSG.as_str()));
    let p = crate::runtime::private_at(span);
    quote_spanned! {span=>
        const _: () = {
            const __TW_N: usize = #value;
            if __TW_N > #max {
                const __TW_MSG: #p::Msg = #p::Msg::new().str(#prefix).int(__TW_N as i128).str(#suffix);
                #panic
            }
        };
    }
}

/// A screaming-case path (`MAX_SPEED`, `limits::MAX`): by convention a `const`, which a check
/// can cast with `as f64`. Other expressions (`Mode::Fast`, calls) are left to the type checker.
fn is_const_path(expr: &syn::Expr) -> bool {
    match expr {
        syn::Expr::Path(p) => p.path.segments.last().is_some_and(|s| {
            let s = s.ident.to_string();
            s.chars().any(|c| c.is_ascii_uppercase())
                && s.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        }),
        syn::Expr::Unary(u) => is_const_path(&u.expr),
        syn::Expr::Paren(p) => is_const_path(&p.expr),
        syn::Expr::Group(g) => is_const_path(&g.expr),
        _ => false,
    }
}

impl Checks {
    fn push(&mut self, item: TokenStream) {
        self.items.push(item);
    }

    /// The alias naming `ty` in the checks.
    fn alias(&mut self, ty: &Type) -> Type {
        let key = ty.to_token_stream().to_string();
        let index = match self.aliases.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                let ident = quote::format_ident!("__TwT{}", self.aliases.len());
                self.aliases.push((key, quote!(type #ident = #ty;)));
                self.aliases.len() - 1
            }
        };
        let ident = quote::format_ident!("__TwT{index}");
        syn::parse_quote!(#ident)
    }

    /// The checks of one property's `#[param]` keys against its type `ty`.
    pub fn param(&mut self, decl: &Property, ty: &Type) {
        let attr = &decl.attr;
        let typed_keys = [
            attr.unit.is_some(),
            attr.range.is_some(),
            attr.min_length.is_some() || attr.max_length.is_some(),
            attr.pattern.is_some(),
            attr.min_items.is_some() || attr.max_items.is_some(),
            attr.header.is_some(),
        ];
        if !typed_keys.contains(&true) {
            return;
        }
        let ty = &self.alias(ty);
        // `const _: () = <#ty as __private::#rule>::CHECK;` with the type respanned to the key's
        // value, so the unsatisfied bound is reported there.
        let target = |at: At, rule: &str| {
            let rule = syn::Ident::new(rule, at.start);
            let ty = at.respan_type(ty);
            let p = crate::runtime::private_at(at.start);
            quote_spanned!(at.start=> const _: () = <#ty as #p::#rule>::CHECK;)
        };
        if let Some(unit) = &attr.unit {
            let at = At::span(unit.span());
            self.push(target(at, "UnitTarget"));
            // A uom quantity (`uom` feature) takes only units of its quantity; any unit fits a
            // plain number (`Probe::<T>::QUANTITY` is `None`). An unknown unit is reported once,
            // by the macro.
            if let Some(known) = decl.unit {
                let symbol = known.symbol;
                let quantity = {
                    let ty = at.respan_type(ty);
                    let p = crate::runtime::private_at(at.start);
                    quote_spanned!(at.start=> <#p::Probe<#ty>>::QUANTITY)
                };
                let p = crate::runtime::private_at(at.start);
                self.push(failing_if(
                    at,
                    quote_spanned!(at.start=> !#p::unit_fits(#quantity, #symbol)),
                    quote_spanned!(at.start=> #p::unit_mismatch(#quantity, #symbol)),
                    true,
                ));
            }
        }
        if let Some(span) = attr
            .min_length
            .as_ref()
            .map(|v| v.span())
            .or_else(|| attr.max_length.as_ref().map(|v| v.span()))
        {
            self.push(target(At::span(span), "LengthTarget"));
        }
        if let Some(pattern) = &attr.pattern {
            self.push(target(At::span(pattern.span()), "PatternTarget"));
        }
        if let Some(span) = attr
            .min_items
            .as_ref()
            .map(|v| v.span())
            .or_else(|| attr.max_items.as_ref().map(|v| v.span()))
        {
            self.push(target(At::span(span), "ItemsTarget"));
        }
        if let Some(header) = &attr.header {
            self.push(target(At::span(header.span()), "HeaderTarget"));
        }
        let Some(range) = attr.range.as_ref().map(|r| &r.0) else {
            return;
        };
        let range_at = At::of(range);
        self.push(target(range_at, "RangeTarget"));
        if let Some(components) = &decl.components {
            // One range per component of a geometry type (`Probe::<T>::COMPONENTS`; none for
            // any other type), each bounding a float.
            let n = match components {
                Components::Listed(listed) => {
                    let n = listed.len();
                    quote_spanned!(range_at.start=> #n)
                }
                Components::Const(path) => {
                    let p = crate::runtime::private_at(range_at.start);
                    quote_spanned!(range_at.start=> #p::component_count(&#path))
                }
            };
            let probe = {
                let ty = range_at.respan_type(ty);
                let p = crate::runtime::private_at(range_at.start);
                quote_spanned!(range_at.start=> <#p::Probe<#ty>>::COMPONENTS)
            };
            self.push(failing_if(
                range_at,
                quote_spanned!(range_at.start=> #probe.mismatch(#n)),
                quote_spanned!(range_at.start=> #probe.message(#n)),
                true,
            ));
            if let Components::Listed(listed) = components {
                for c in listed {
                    self.empty_const_range(&c.expr, c.min.as_ref(), c.max.as_ref());
                }
            }
            return;
        }
        // `Probe::<T>::WIDTH` never fails: for a non-numeric type it is unbounded, and
        // `RangeTarget` above reports the mistake once.
        let ty_at_range = range_at.respan_type(ty);
        let width = {
            let p = crate::runtime::private_at(range_at.start);
            quote_spanned!(range_at.start=> <#p::Probe<#ty_at_range>>::WIDTH)
        };
        // Bounds against the integer type's width.
        for (which, b) in [("lower", &decl.min), ("upper", &decl.max)] {
            let Some(b) = b else { continue };
            if matches!(b.value, BoundExpr::Other(_)) && !is_const_path(&b.expr) {
                continue;
            }
            let at = At::of(&b.expr);
            let num = b.const_tokens();
            let prefix = format!(
                "the {which} bound `{}` of this `range` does not fit",
                b.text()
            );
            let suffix = "; the parameter can never reach it: change the bound, or widen the type";
            self.push(failing_if(
                at,
                quote_spanned!(at.start=> #width.excludes(#num)),
                quote_spanned!(at.start=> #width.message(#prefix, #suffix)),
                true,
            ));
        }
        self.empty_const_range(range, decl.min.as_ref(), decl.max.as_ref());
        // Literal (or `const`) defaults and examples against `const` bounds (literal bounds are
        // checked by the macro).
        let has_const_bound = [&decl.min, &decl.max].iter().any(|b| {
            b.as_ref()
                .is_some_and(|b| matches!(b.value, BoundExpr::Other(_)))
        });
        for (_, expr) in decl.declared_values() {
            let at = At::of(expr);
            // A literal value against a literal bound is checked by the macro already.
            let (value, literal) = match literal_value(expr) {
                Some(LiteralValue::Number(n)) if has_const_bound => (n.to_tokens(), true),
                None if is_const_path(expr) => (
                    {
                        let p = crate::runtime::private_at(at.start);
                        quote_spanned!(at.start=> #p::Num::Float((#expr) as f64))
                    },
                    false,
                ),
                _ => continue,
            };
            let checked = |b: &crate::property::RangeBound| {
                if literal {
                    b.literal().is_none() && is_const_path(&b.expr)
                } else {
                    b.literal().is_some() || is_const_path(&b.expr)
                }
            };
            let mut conds = Vec::new();
            if let Some(lo) = &decl.min
                && checked(lo)
            {
                let l = lo.const_tokens();
                conds.push({
                    let p = crate::runtime::private_at(at.start);
                    quote_spanned!(at.start=> #p::num_above(#l, #value, false))
                });
            }
            if let Some(hi) = &decl.max
                && checked(hi)
            {
                let (h, excl) = (hi.const_tokens(), hi.exclusive);
                conds.push({
                    let p = crate::runtime::private_at(at.start);
                    quote_spanned!(at.start=> #p::num_above(#value, #h, !#excl))
                });
            }
            if conds.is_empty() {
                continue;
            }
            self.push(holding(
                at,
                quote_spanned!(at.start=> !(#(#conds)||*)),
                "WithinRange",
            ));
        }
    }

    /// An empty range with a `const` bound (literal ones are checked by the macro).
    fn empty_const_range(
        &mut self,
        range: &syn::Expr,
        min: Option<&crate::property::RangeBound>,
        max: Option<&crate::property::RangeBound>,
    ) {
        let (Some(lo), Some(hi)) = (min, max) else {
            return;
        };
        if !(matches!(lo.value, BoundExpr::Other(_)) || matches!(hi.value, BoundExpr::Other(_)))
            || ![lo, hi]
                .iter()
                .all(|b| b.literal().is_some() || is_const_path(&b.expr))
        {
            return;
        }
        let range_at = At::of(range);
        let (l, h, excl) = (lo.const_tokens(), hi.const_tokens(), hi.exclusive);
        let p = crate::runtime::private_at(range_at.start);
        self.push(holding(
            range_at,
            quote_spanned!(range_at.start=> !#p::num_above(#l, #h, #excl)),
            "NonEmptyRange",
        ));
    }

    /// A tool parameter without a description is an error unless its type is not published
    /// (`Context`).
    pub fn param_description(&mut self, ident: &syn::Ident, ty: &Type) {
        let at = At::span(ident.span());
        let ty = at.respan_type(&self.alias(ty));
        let p = crate::runtime::private_at(at.start);
        self.push(holding(
            at,
            quote_spanned!(at.start=> !<#p::Probe<#ty>>::PUBLISHED),
            "Described",
        ));
    }

    /// A name in `confirm = ".."` or `target = ..` that must be an argument of the call, not
    /// its `Context` (decided by its type).
    pub fn an_argument(&mut self, at: proc_macro2::Span, ty: &Type) {
        let at = At::span(at);
        let ty = at.respan_type(&self.alias(ty));
        let p = crate::runtime::private_at(at.start);
        self.push(holding(
            at,
            quote_spanned!(at.start=> <#p::Probe<#ty>>::PUBLISHED),
            "AnArgument",
        ));
    }

    /// More than `MAX_PARAMS` published parameters (a `Context` does not count).
    pub fn param_count(&mut self, tool: &str, fn_ident: &syn::Ident, types: &[&Type]) {
        let at = At::span(fn_ident.span());
        let types: Vec<Type> = types.iter().map(|ty| self.alias(ty)).collect();
        let terms = types.iter().map(|ty| {
            let ty = at.respan_type(ty);
            let p = crate::runtime::private_at(at.start);
            quote_spanned!(at.start=> (<#p::Probe<#ty>>::PUBLISHED as usize))
        });
        let max = check::MAX_PARAMS;
        let prefix = format!("tool `{tool}` takes ");
        let suffix = format!(
            " parameters; past {max}, models fill arguments less reliably: group related ones into a `#[derive(ToolSchema)]` struct, or split the tool; to keep them, add `#[tool(allow(many_params))]`"
        );
        self.push(failing_above(
            at,
            quote_spanned!(at.start=> 0 #(+ #terms)*),
            max,
            &prefix,
            &suffix,
        ));
    }

    /// A flattened struct giving the tool more than `MAX_PARAMS` properties.
    pub fn flattened_count(&mut self, tool: &str, ty: &Type) {
        let at = At::of(ty);
        let written = type_text(ty);
        let ty = &at.respan_type(&self.alias(ty));
        let max = check::MAX_PARAMS;
        let prefix = format!("the flattened `{written}` gives tool `{tool}` ");
        let suffix = format!(
            " parameters; past {max}, models fill arguments less reliably: group related fields into nested structs, or split the tool; to keep them, add `#[tool(allow(many_params))]`"
        );
        self.push(failing_above(
            at,
            {
                let p = crate::runtime::private_at(at.start);
                quote_spanned!(at.start=> <#p::Probe<#ty>>::PROPERTIES)
            },
            max,
            &prefix,
            &suffix,
        ));
    }

    /// A parameter whose type nests deeper than `MAX_DEPTH` levels (`flattened`: its own object
    /// level merges into the tool's input).
    pub fn depth(&mut self, tool: &str, name: &str, ty: &Type, flattened: bool) {
        let at = At::of(ty);
        let span = at.start;
        let max = check::MAX_DEPTH;
        let written = type_text(ty);
        let ty = &at.respan_type(&self.alias(ty));
        let depth = if flattened {
            let p = crate::runtime::private_at(span);
            quote_spanned!(span=> <#p::Probe<#ty>>::DEPTH.saturating_sub(1))
        } else {
            let p = crate::runtime::private_at(span);
            quote_spanned!(span=> <#p::Probe<#ty>>::DEPTH)
        };
        let prefix = format!("the input of tool `{tool}` nests `{name}: {written}` ");
        let suffix = format!(
            " levels deep (each struct, list or map is a level); past {max}, models build arguments less reliably: flatten the structure or split the tool; to keep it, add `#[tool(allow(deep_nesting))]`"
        );
        let recursive = format!(
            "the input of tool `{tool}` nests `{name}: {written}` without end: the type contains itself, and toolwright inlines every schema (clients do not follow `$ref`); bound the nesting with a separate type per level"
        );
        let recursive = at.panic(quote_spanned!(span=> #recursive));
        let panic = at.panic(quote_spanned!(span=> "{}", __TW_MSG.as_str()));
        self.push({ let p = crate::runtime::private_at(span); quote_spanned! {span=>
            const _: () = {
                const __TW_DEPTH: usize = #depth;
                if __TW_DEPTH >= #p::RECURSIVE {
                    #recursive
                } else if __TW_DEPTH > #max {
                    const __TW_MSG: #p::Msg = #p::Msg::new().str(#prefix).int(__TW_DEPTH as i128).str(#suffix);
                    #panic
                }
            };
        } });
    }

    /// A description from `#[doc = include_str!(..)]` (which the macro cannot read) against its
    /// budget, with the actual size.
    pub fn description_budget(
        &mut self,
        doc: &TokenStream,
        at: &TokenStream,
        what: &str,
        limit: usize,
        raise: &str,
    ) {
        let at = At::of(at);
        let prefix = format!("the description of {what} is ");
        let suffix = format!(
            " bytes, over the budget of {limit} bytes: the model reads it on every turn and clients truncate long ones; shorten it, or raise the budget with {raise}"
        );
        self.push(failing_above(
            at,
            quote_spanned!(at.start=> #doc.trim_ascii().len()),
            limit,
            &prefix,
            &suffix,
        ));
    }

    /// The checks as one item; `self_ty` replaces `Self` (in a `#[toolbox]` impl).
    pub fn into_tokens(self, self_ty: Option<&Type>) -> TokenStream {
        let p = crate::runtime::private();
        if self.items.is_empty() {
            return TokenStream::new();
        }
        let items = self.items;
        let aliases = self.aliases.into_iter().map(|(_, a)| a);
        let tokens = quote! {
            #[allow(non_upper_case_globals, non_camel_case_types, unused_qualifications, clippy::all)]
            const _: () = {
                #[allow(unused_imports)]
                use #p::ProbeFallback as _;
                #(#aliases)*
                #(#items)*
            };
        };
        match self_ty {
            Some(ty) => replace_self(tokens, &ty.to_token_stream()),
            None => tokens,
        }
    }
}

/// A type as written, for messages.
pub fn type_text(ty: &Type) -> String {
    let s = ty.to_token_stream().to_string();
    s.replace(" < ", "<")
        .replace("< ", "<")
        .replace(" <", "<")
        .replace(" >", ">")
        .replace(" ,", ",")
        .replace(" :: ", "::")
        .replace("& ", "&")
}

/// Replaces the `Self` type in `tokens` with `self_ty` (checks live outside the impl).
pub fn replace_self(tokens: TokenStream, self_ty: &TokenStream) -> TokenStream {
    tokens
        .into_iter()
        .flat_map(|t| -> Vec<TokenTree> {
            match t {
                TokenTree::Ident(i) if i == "Self" => {
                    let span = i.span();
                    respan(self_ty.clone(), span).into_iter().collect()
                }
                TokenTree::Group(g) => {
                    let mut group =
                        proc_macro2::Group::new(g.delimiter(), replace_self(g.stream(), self_ty));
                    group.set_span(g.span());
                    vec![TokenTree::Group(group)]
                }
                other => vec![other],
            }
        })
        .collect()
}
