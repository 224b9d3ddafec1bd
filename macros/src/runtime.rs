//! The one token generated code reaches the runtime by: `::toolwright`, or the path an item names
//! with `crate = ".."` (for a renamed dependency or a re-export), set once per expansion.

use std::cell::RefCell;

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

thread_local! {
    static PATH: RefCell<Option<syn::Path>> = const { RefCell::new(None) };
}

/// The runtime crate's path: `::toolwright` unless the expansion set another.
pub fn krate() -> TokenStream {
    PATH.with(|p| match &*p.borrow() {
        Some(path) => path.to_token_stream(),
        None => quote!(::toolwright),
    })
}

/// `<runtime>::__private`, the only module generated code calls.
pub fn private() -> TokenStream {
    let k = krate();
    quote!(#k::__private)
}

/// [`private`] with every token at `span`, for `quote_spanned!`: a path left at the call site
/// would move a trait error from the user's type to the macro's name.
pub fn private_at(span: proc_macro2::Span) -> TokenStream {
    private()
        .into_iter()
        .map(|mut token| {
            token.set_span(span);
            token
        })
        .collect()
}

/// Runs `expand` with `path` as the runtime's path (when given), restoring the previous one
/// after (a `#[toolbox]` expands its `#[tool]`s inside its own expansion).
pub fn with_path<R>(path: Option<syn::Path>, expand: impl FnOnce() -> R) -> R {
    let Some(path) = path else {
        return expand();
    };
    let previous = PATH.with(|p| p.borrow_mut().replace(path));
    struct Restore(Option<syn::Path>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            PATH.with(|p| *p.borrow_mut() = previous);
        }
    }
    let _restore = Restore(previous);
    expand()
}

/// Takes `crate = ".."` out of `#[tool(..)]`'s or `#[toolwright::toolbox(..)]`'s arguments:
/// the path it names, and the other arguments (for darling, which never sees the key).
pub fn split_crate_key(args: TokenStream) -> syn::Result<(Option<syn::Path>, TokenStream)> {
    use syn::parse::Parser as _;
    let Ok(metas) = syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated
        .parse2(args.clone())
    else {
        return Ok((None, args)); // the attribute's own parser reports it
    };
    let mut path = None;
    let mut rest = Vec::new();
    for meta in metas {
        match &meta {
            syn::Meta::NameValue(nv) if nv.path.is_ident("crate") => {
                path = Some(crate_path(&nv.value)?)
            }
            _ => rest.push(meta),
        }
    }
    Ok((path, quote!(#(#rest),*)))
}

/// An attribute macro's expansion, with its `crate = ".."` taken out and applied.
pub fn expand_attribute(
    args: TokenStream,
    input: TokenStream,
    expand: fn(TokenStream, TokenStream) -> TokenStream,
) -> TokenStream {
    match split_crate_key(args) {
        Ok((path, args)) => with_path(path, || expand(args, input)),
        Err(e) => e.to_compile_error(),
    }
}

/// `#[toolwright(crate = "..")]` on a type deriving `ToolSchema`.
pub fn crate_attr(attrs: &[syn::Attribute]) -> syn::Result<Option<syn::Path>> {
    let mut path = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("toolwright")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                path = Some(crate_path(&meta.value()?.parse()?)?);
                Ok(())
            } else {
                Err(meta.error("`#[toolwright(..)]` takes only `crate = \"path::to::toolwright\"`"))
            }
        })?;
    }
    Ok(path)
}

/// `"path"` (a string, as serde's and schemars' `crate` keys take it).
fn crate_path(value: &syn::Expr) -> syn::Result<syn::Path> {
    match value {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => s.parse(),
        other => Err(syn::Error::new_spanned(
            other,
            "write the path as a string: `crate = \"path::to::toolwright\"`",
        )),
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    /// Given a `crate` path, no expansion names `::toolwright`: the path is one token.
    #[test]
    fn every_expansion_reaches_the_runtime_through_the_given_path() {
        let tool = super::with_path(Some(syn::parse_quote!(::tw)), || {
            crate::tool::expand(
                quote!(read_only),
                quote! {
                    /// Read a joint.
                    fn read(
                        /// Which joint.
                        #[param(range = 1..=6)]
                        joint: u8,
                    ) -> String {
                        String::new()
                    }
                },
            )
        });
        let toolbox = super::with_path(Some(syn::parse_quote!(::tw)), || {
            crate::toolbox::expand(
                quote!(timeout = "5s", resource(name = "arm", safe_stop = halt)),
                quote! {
                    impl Arm {
                        fn halt(&self) {}
                        /// Move.
                        #[tool(resource = "arm", confirm = "Move to {x}?")]
                        async fn go(
                            &self,
                            /// Where, mm.
                            #[param(unit = "mm", range = 0.0..=500.0)]
                            x: f64,
                        ) -> String {
                            String::new()
                        }
                    }
                },
            )
        });
        let derive = crate::derive::expand(quote! {
            /// A pose.
            #[toolwright(crate = "::tw")]
            #[serde(rename_all = "camelCase")]
            enum Pose {
                /// Here.
                Here {
                    /// X, mm.
                    #[param(unit = "mm", range = -850.0..=850.0)]
                    x_mm: f64,
                },
            }
        });
        let tools = super::with_path(Some(syn::parse_quote!(::tw)), || {
            crate::list::expand_toolbox(quote!(read, arm::go))
        });
        let tool_defs = super::with_path(Some(syn::parse_quote!(::tw)), || {
            crate::list::expand_defs(quote!(read, arm::go))
        });
        for (what, out) in [
            ("tool", tool),
            ("toolbox", toolbox),
            ("derive", derive),
            ("tools!", tools),
            ("tool_defs!", tool_defs),
        ] {
            let text = out.to_string();
            assert!(!text.contains("compile_error"), "{what}: {text}");
            assert!(!text.contains(":: toolwright ::"), "{what}: {text}");
            assert!(text.contains(":: tw :: __private ::"), "{what}: {text}");
        }
    }

    #[test]
    fn the_crate_key_is_taken_out_of_the_arguments() {
        let (path, rest) =
            super::split_crate_key(quote!(read_only, crate = "::tw", timeout = "1s")).unwrap();
        assert_eq!(quote!(#path).to_string(), ":: tw");
        assert_eq!(rest.to_string(), "read_only , timeout = \"1s\"");
        let e = super::split_crate_key(quote!(crate = tw)).unwrap_err();
        assert!(e.to_string().contains("write the path as a string"), "{e}");
    }
}
