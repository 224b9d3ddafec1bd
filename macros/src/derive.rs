//! `#[derive(ToolSchema)]`: a struct or enum gets a `schemars::JsonSchema` impl built from its
//! doc comments, `#[param(..)]` declarations and serde attributes, plus the `ToolSchema` marker.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::punctuated::Punctuated;
use syn::{Attribute, Data, DeriveInput, Expr, ExprLit, Fields, Lit, Meta, Token};

use crate::case::RenameRule;
use crate::ctxt::Ctxt;
use crate::doc;
use crate::param::{self, ParamDecl};

/// The serde attributes toolwright follows. Others are accepted and ignored.
#[derive(Default)]
struct SerdeAttrs {
    rename: Option<String>,
    rename_all: Option<RenameRule>,
    tag: Option<String>,
    content: Option<String>,
    untagged: bool,
    default: bool,
    skip_serializing: bool,
    skip_deserializing: bool,
    skip_serializing_if: bool,
    flatten: bool,
    transparent: bool,
}

fn lit_str(cx: &Ctxt, expr: &Expr) -> Option<String> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Some(s.value()),
        other => {
            cx.error_spanned_by(other, "expected a string literal");
            None
        }
    }
}

/// `rename = "x"` or `rename(deserialize = "x", serialize = "y")`: the deserialize name wins, as
/// tool schemas describe inputs.
fn name_value(cx: &Ctxt, meta: &Meta) -> Option<(String, Span)> {
    match meta {
        Meta::NameValue(nv) => lit_str(cx, &nv.value).map(|s| (s, Span::call_site())),
        Meta::List(list) => {
            let nested = list
                .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
                .ok()?;
            nested.iter().find_map(|m| match m {
                Meta::NameValue(nv) if nv.path.is_ident("deserialize") => {
                    lit_str(cx, &nv.value).map(|s| (s, Span::call_site()))
                }
                _ => None,
            })
        }
        Meta::Path(_) => None,
    }
}

fn serde_attrs(cx: &Ctxt, attrs: &[Attribute]) -> SerdeAttrs {
    let mut out = SerdeAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let Ok(list) = attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated) else {
            continue; // serde reports its own syntax errors
        };
        for meta in &list {
            let path = meta.path();
            if path.is_ident("rename") {
                out.rename = name_value(cx, meta).map(|(s, _)| s);
            } else if path.is_ident("rename_all") {
                if let Some((rule, _)) = name_value(cx, meta) {
                    match RenameRule::from_str(&rule) {
                        Some(r) => out.rename_all = Some(r),
                        None => cx.error_spanned_by(
                            meta,
                            format!(
                                "unknown rename rule `{rule}`; serde accepts {}",
                                RenameRule::NAMES.join(", ")
                            ),
                        ),
                    }
                }
            } else if path.is_ident("tag") {
                out.tag = name_value(cx, meta).map(|(s, _)| s);
            } else if path.is_ident("content") {
                out.content = name_value(cx, meta).map(|(s, _)| s);
            } else if path.is_ident("untagged") {
                out.untagged = true;
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
            }
        }
    }
    out
}

struct FieldModel {
    tokens: TokenStream,
    skip_ser: bool,
    skip_de: bool,
}

fn field_tokens(cx: &Ctxt, field: &syn::Field, name: String, container: &SerdeAttrs) -> FieldModel {
    let decl = ParamDecl::parse(cx, &field.attrs);
    let serde = serde_attrs(cx, &field.attrs);
    if let Some(r) = &decl.attr.rename {
        cx.error_at(
            r.span(),
            "on a struct field, write `#[serde(rename = \"..\")]` instead of `#[param(rename = \"..\")]`, so serde and the published schema agree",
        );
    }
    if decl.attr.flatten.is_present() {
        cx.error_at(
            decl.attr.flatten.span(),
            "on a struct field, write `#[serde(flatten)]` instead of `#[param(flatten)]`, so serde and the published schema agree",
        );
    }
    let ty = &field.ty;
    let spec = decl.spec_tokens(
        &name,
        ty,
        serde.default || container.default,
        serde.skip_serializing_if,
    );
    let info = param::type_info_tokens(ty);
    let flatten = serde.flatten;
    FieldModel {
        tokens: quote!(::toolwright::__private::Field { spec: #spec, info: #info, flatten: #flatten }),
        skip_ser: serde.skip_serializing,
        skip_de: serde.skip_deserializing,
    }
}

/// `vec![fields]` for the generator's contract, leaving out skipped fields.
fn fields_expr(
    cx: &Ctxt,
    fields: &syn::FieldsNamed,
    container: &SerdeAttrs,
    rule: Option<RenameRule>,
) -> TokenStream {
    let mut pushes = Vec::new();
    for field in &fields.named {
        let ident = field.ident.as_ref().expect("named field");
        let serde = serde_attrs(cx, &field.attrs);
        let plain = ident.to_string().trim_start_matches("r#").to_owned();
        let name = serde
            .rename
            .clone()
            .unwrap_or_else(|| rule.map_or(plain.clone(), |r| r.apply_to_field(&plain)));
        let model = field_tokens(cx, field, name, container);
        let (tokens, skip_ser, skip_de) = (model.tokens, model.skip_ser, model.skip_de);
        pushes.push(quote! {
            if !((#skip_ser && __tw_serialize) || (#skip_de && !__tw_serialize)) {
                __tw_fields.push(#tokens);
            }
        });
    }
    quote! {
        {
            let __tw_serialize = generator.contract().is_serialize();
            let mut __tw_fields = ::toolwright::__private::Vec::new();
            #(#pushes)*
            __tw_fields
        }
    }
}

pub fn expand(input: TokenStream) -> TokenStream {
    let input: DeriveInput = match syn::parse2(input) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    let cx = Ctxt::new();
    let container = serde_attrs(&cx, &input.attrs);
    if !input.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.generics,
            "`#[derive(ToolSchema)]` does not support generic types yet",
        );
    }
    if let Some(attr) = input.attrs.iter().find(|a| param::is_param(a)) {
        cx.error_spanned_by(attr, "`#[param]` goes on fields, not on the type");
    }
    let ident = &input.ident;
    let name = container
        .rename
        .clone()
        .unwrap_or_else(|| ident.to_string());
    let description = match doc::from_attrs(&input.attrs) {
        Some(d) => {
            let t = d.to_tokens();
            quote!(::toolwright::__private::Some(#t))
        }
        None => quote!(::toolwright::__private::None),
    };
    let p = quote!(::toolwright::__private);
    let body = match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(named) => {
                let fields = fields_expr(&cx, named, &container, container.rename_all);
                quote!(#p::struct_schema(generator, #description, &#fields))
            }
            Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => {
                let field = &unnamed.unnamed[0];
                let model = field_tokens(&cx, field, String::new(), &container);
                let tokens = model.tokens;
                quote!(#p::newtype_schema(generator, #description, #tokens))
            }
            Fields::Unnamed(unnamed) => {
                cx.error_spanned_by(
                    unnamed,
                    "a tuple struct has no property names to publish: use named fields",
                );
                quote!(#p::struct_schema(generator, #description, &[]))
            }
            Fields::Unit => {
                cx.error_spanned_by(
                    ident,
                    "a unit struct carries no data: use a struct with named fields, or an enum",
                );
                quote!(#p::struct_schema(generator, #description, &[]))
            }
        },
        Data::Enum(data) => {
            let rule = container.rename_all;
            let mut unit_only = true;
            let mut variants = Vec::new();
            let mut unit_variants = Vec::new();
            for v in &data.variants {
                let serde = serde_attrs(&cx, &v.attrs);
                if serde.skip_deserializing {
                    continue;
                }
                if let Some(attr) = v.attrs.iter().find(|a| param::is_param(a)) {
                    cx.error_spanned_by(attr, "`#[param]` goes on fields, not on enum variants");
                }
                let vname = serde.rename.clone().unwrap_or_else(|| {
                    let plain = v.ident.to_string();
                    rule.map_or(plain.clone(), |r| r.apply_to_variant(&plain))
                });
                let vdoc = match doc::from_attrs(&v.attrs) {
                    Some(d) => {
                        let t = d.to_tokens();
                        quote!(#p::Some(#t))
                    }
                    None => quote!(#p::None),
                };
                let shape = match &v.fields {
                    Fields::Unit => quote!(#p::VariantShape::Unit),
                    Fields::Unnamed(u) if u.unnamed.len() == 1 => {
                        unit_only = false;
                        let info = param::type_info_tokens(&u.unnamed[0].ty);
                        quote!(#p::VariantShape::Newtype(#info))
                    }
                    Fields::Unnamed(u) => {
                        unit_only = false;
                        cx.error_spanned_by(u, "a tuple variant with several fields has no property names to publish: use named fields");
                        quote!(#p::VariantShape::Unit)
                    }
                    Fields::Named(named) => {
                        unit_only = false;
                        let fields = fields_expr(&cx, named, &SerdeAttrs::default(), None);
                        quote!(#p::VariantShape::Struct(#fields))
                    }
                };
                unit_variants.push(quote!((#vname, #vdoc)));
                variants
                    .push(quote!(#p::Variant { name: #vname, description: #vdoc, shape: #shape }));
            }
            let tagging = match (&container.tag, &container.content, container.untagged) {
                (_, _, true) => quote!(#p::EnumTagging::Untagged),
                (Some(t), Some(c), _) => quote!(#p::EnumTagging::Adjacent(#t, #c)),
                (Some(t), None, _) => quote!(#p::EnumTagging::Internal(#t)),
                (None, _, _) => quote!(#p::EnumTagging::External),
            };
            if data.variants.is_empty() {
                cx.error_spanned_by(ident, "an enum without variants has no values to publish");
            }
            if unit_only && !container.untagged && container.tag.is_none() {
                quote!(#p::unit_enum_schema(#description, &[#(#unit_variants),*]))
            } else {
                quote!(#p::data_enum_schema(generator, #description, #tagging, &[#(#variants),*]))
            }
        }
        Data::Union(u) => {
            cx.error_spanned_by(u.union_token, "`ToolSchema` cannot be derived for a union");
            quote!(#p::struct_schema(generator, #description, &[]))
        }
    };
    if let Err(e) = cx.check() {
        // Still implement the traits (as thiserror's fallback does) so uses of the type do not
        // add a cascade of missing-trait errors.
        let e = e.to_compile_error();
        return quote! {
            #e
            const _: () = {
                impl #p::schemars::JsonSchema for #ident {
                    fn schema_name() -> #p::Cow<'static, str> { #p::Cow::Borrowed(#name) }
                    fn json_schema(_: &mut #p::schemars::SchemaGenerator) -> #p::schemars::Schema {
                        #p::schemars::Schema::from(true)
                    }
                }
                impl ::toolwright::ToolSchema for #ident {}
            };
        };
    }
    quote! {
        const _: () = {
            #[automatically_derived]
            #[allow(clippy::needless_update)]
            impl #p::schemars::JsonSchema for #ident {
                fn schema_name() -> #p::Cow<'static, str> {
                    #p::Cow::Borrowed(#name)
                }
                fn schema_id() -> #p::Cow<'static, str> {
                    #p::Cow::Borrowed(::core::concat!(::core::module_path!(), "::", #name))
                }
                fn json_schema(generator: &mut #p::schemars::SchemaGenerator) -> #p::schemars::Schema {
                    #body
                }
            }
            #[automatically_derived]
            impl ::toolwright::ToolSchema for #ident {}
        };
    }
}
