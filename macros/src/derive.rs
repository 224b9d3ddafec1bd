//! `#[derive(ToolSchema)]`: a struct or enum gets a `schemars::JsonSchema` impl built from its
//! doc comments, `#[param(..)]` declarations and serde attributes, plus the `ToolSchema` marker.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields};

use crate::case::RenameRule;
use crate::check;
use crate::ctxt::Ctxt;
use crate::doc::{self, Doc};
use crate::param::{self, ParamDecl};
use crate::serde_attr::{self, Both, Names, SerdeAttrs};
use crate::typecheck::Checks;

struct FieldModel {
    tokens: TokenStream,
    skip_ser: bool,
    skip_de: bool,
}

/// A field's `#[param]`, doc comment and serde attributes, checked; its `Field` expression.
/// `name` is the property name; `None` for a newtype's field (described by the type's doc).
fn field_tokens(
    cx: &Ctxt,
    checks: &mut Checks,
    field: &syn::Field,
    name: Option<String>,
    container: &SerdeAttrs,
) -> FieldModel {
    let p = crate::runtime::private();
    let decl = ParamDecl::parse(cx, &field.attrs);
    let serde = serde_attr::parse(cx, &field.attrs);
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
    let skipped = serde.skip_serializing && serde.skip_deserializing;
    if skipped && let Some(a) = field.attrs.iter().find(|a| param::is_param(a)) {
        cx.error_spanned_by(
            a,
            "this field is `#[serde(skip)]`: it is never published, so its `#[param]` has no effect; remove one of them",
        );
    }
    check::param_keys(cx, &decl);
    let ident_text = field
        .ident
        .as_ref()
        .map(|i| i.to_string().trim_start_matches("r#").to_owned());
    if let Some(name) = &name {
        let what = format!("field `{name}`");
        let mut names = vec![name.as_str()];
        if let Some(i) = &ident_text {
            names.push(i);
        }
        let described = check::Described {
            what,
            names,
            limit: decl
                .attr
                .max_description_bytes
                .as_ref()
                .map_or(check::PARAM_DESCRIPTION_BYTES, |v| **v),
            raise: "`#[param(max_description_bytes = ..)]` on the field",
        };
        match (decl.description_text(), &decl.doc) {
            (Some((text, at)), _) => check::description(cx, &text, &at, &described),
            (None, Some(doc @ Doc::Expr(_))) => {
                if let Some(at) = &decl.doc_span {
                    checks.description_budget(
                        &doc.to_tokens(),
                        at,
                        &described.what,
                        described.limit,
                        described.raise,
                    );
                }
            }
            (None, None) if !skipped && !serde.flatten => cx.error_spanned_by(
                field.ident.as_ref().map_or_else(|| quote!(#field), |i| quote!(#i)),
                format!(
                    "field `{name}` has no description: add a doc comment on it (`/// Grip force …`) or `#[param(description = \"..\")]`; the model reads it to fill the value"
                ),
            ),
            _ => {}
        }
    }
    let ty = &field.ty;
    if check::type_is_servable(ty) {
        checks.param(&decl, ty);
    }
    let spec = decl.spec_tokens(
        name.as_deref().unwrap_or(""),
        ty,
        serde.default || container.default,
        serde.skip_serializing_if,
    );
    let info = param::field_info_tokens(ty);
    let flatten = serde.flatten;
    FieldModel {
        tokens: quote!(#p::Field { spec: #spec, info: #info, flatten: #flatten }),
        skip_ser: serde.skip_serializing,
        skip_de: serde.skip_deserializing,
    }
}

/// Whether `ty` is or contains the type being derived: `Self`, or the type's own name as a path
/// of one segment (`Pose`, `Box<Pose>`, `Vec<Option<Pose>>`) or `self::Pose`. Another module's
/// type of the same name (`geo::Pose`) is another type. (A path to the type itself through its
/// module, `crate::x::Pose`, is not recognized here; it is then a cycle that the compiler
/// reports while evaluating the nesting depth, still at compile time.)
fn mentions(ty: &syn::Type, ident: &syn::Ident) -> bool {
    use syn::{GenericArgument, PathArguments, Type};
    let args = |path: &syn::Path| -> bool {
        path.segments.iter().any(|seg| match &seg.arguments {
            PathArguments::AngleBracketed(a) => a.args.iter().any(|arg| match arg {
                GenericArgument::Type(t) => mentions(t, ident),
                _ => false,
            }),
            _ => false,
        })
    };
    match ty {
        Type::Path(p) => {
            let segs: Vec<&syn::Ident> = p.path.segments.iter().map(|s| &s.ident).collect();
            let itself = p.qself.is_none()
                && p.path.leading_colon.is_none()
                && match segs.as_slice() {
                    [one] => *one == ident || *one == "Self",
                    [first, one] => *first == "self" && *one == ident,
                    _ => false,
                };
            itself || segs.iter().any(|s| *s == "Self") || args(&p.path)
        }
        Type::Reference(r) => mentions(&r.elem, ident),
        Type::Array(a) => mentions(&a.elem, ident),
        Type::Slice(s) => mentions(&s.elem, ident),
        Type::Ptr(p) => mentions(&p.elem, ident),
        Type::Paren(p) => mentions(&p.elem, ident),
        Type::Group(g) => mentions(&g.elem, ident),
        Type::Tuple(t) => t.elems.iter().any(|e| mentions(e, ident)),
        _ => false,
    }
}

/// How a struct's fields nest: `(DEPTH, PROPERTIES)` expressions, seen as input (fields skipped
/// on deserialization do not count; a flattened field's object merges into this one).
fn fields_shape(
    cx: &Ctxt,
    fields: &syn::FieldsNamed,
    this: &syn::Ident,
) -> (TokenStream, TokenStream) {
    let p = crate::runtime::private();
    let mut depths = Vec::new();
    let mut flat_depths = Vec::new();
    let mut properties = Vec::new();
    for field in &fields.named {
        let serde = serde_attr::parse(cx, &field.attrs);
        if serde.skip_deserializing {
            continue;
        }
        let ty = &field.ty;
        if mentions(ty, this) {
            // A field of the type itself: unbounded depth (evaluating it would be a cycle).
            depths.push(quote!(#p::RECURSIVE));
            properties.push(quote!(1));
        } else if serde.flatten {
            flat_depths.push(quote!(<#p::Probe<#ty>>::DEPTH));
            properties.push(quote!(<#p::Probe<#ty>>::PROPERTIES));
        } else {
            depths.push(quote!(<#p::Probe<#ty>>::DEPTH));
            properties.push(quote!(1));
        }
    }
    let max_of = |items: &[TokenStream]| {
        items
            .iter()
            .fold(quote!(0), |acc, d| quote!(#p::max(#acc, #d)))
    };
    let (inner, flat) = (max_of(&depths), max_of(&flat_depths));
    (
        quote!(#p::max(1 + #inner, #flat)),
        quote!(0 #(+ #properties)*),
    )
}

/// The condition for a field or variant serde skips in one direction: present only in the
/// other direction's schema (`None`: in both).
fn keep_tokens(skip_ser: bool, skip_de: bool) -> Option<TokenStream> {
    match (skip_ser, skip_de) {
        (false, false) => None,
        (true, false) => Some(quote!(!__tw_serialize)),
        (false, true) => Some(quote!(__tw_serialize)),
        (true, true) => Some(quote!(false)),
    }
}

/// `vec![fields]` for the generator's contract, leaving out skipped fields and naming each as
/// serde does in that direction.
fn fields_expr(
    cx: &Ctxt,
    checks: &mut Checks,
    fields: &syn::FieldsNamed,
    container: &SerdeAttrs,
    rule: Both<RenameRule>,
) -> TokenStream {
    let p = crate::runtime::private();
    let mut pushes = Vec::new();
    for field in &fields.named {
        let ident = field.ident.as_ref().expect("named field");
        let serde = serde_attr::parse(cx, &field.attrs);
        let plain = ident.to_string().trim_start_matches("r#").to_owned();
        let names = Names::of(&plain, &serde.rename, &rule, |r, f| r.apply_to_field(f));
        let model = field_tokens(cx, checks, field, Some(names.de.clone()), container);
        let (tokens, skip_ser, skip_de) = (model.tokens, model.skip_ser, model.skip_de);
        let rename = (names.ser != names.de).then(|| {
            let ser = &names.ser;
            quote!(if __tw_serialize { __tw_field.spec.name = #ser; })
        });
        let push = quote! {
            #[allow(unused_mut)]
            let mut __tw_field = #tokens;
            #rename
            __tw_fields.push(__tw_field);
        };
        pushes.push(match keep_tokens(skip_ser, skip_de) {
            Some(keep) => quote!(if #keep { #push }),
            None => quote!({ #push }),
        });
    }
    quote! {
        {
            let mut __tw_fields = #p::Vec::new();
            #(#pushes)*
            __tw_fields
        }
    }
}

/// A newtype's schema (a one-field tuple struct, or a `transparent` struct): its field's, with
/// the type's description; `shape` gets the field's; also returns the field's type.
fn newtype(
    cx: &Ctxt,
    checks: &mut Checks,
    field: &syn::Field,
    container: &SerdeAttrs,
    ident: &syn::Ident,
    description: &TokenStream,
    shape: &mut (TokenStream, TokenStream),
) -> (TokenStream, syn::Type) {
    let p = crate::runtime::private();
    let tokens = field_tokens(cx, checks, field, None, container).tokens;
    let ty = &field.ty;
    *shape = if mentions(ty, ident) {
        (quote!(#p::RECURSIVE), quote!(0))
    } else {
        (
            quote!(<#p::Probe<#ty>>::DEPTH),
            quote!(<#p::Probe<#ty>>::PROPERTIES),
        )
    };
    (
        quote!(#p::newtype_schema(generator, #description, #tokens)),
        ty.clone(),
    )
}

pub fn expand(input: TokenStream) -> TokenStream {
    let input: DeriveInput = match syn::parse2(input) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    match crate::runtime::crate_attr(&input.attrs) {
        Ok(path) => crate::runtime::with_path(path, || expand_type(&input)),
        Err(e) => e.to_compile_error(),
    }
}

fn expand_type(input: &DeriveInput) -> TokenStream {
    let (p, k) = (crate::runtime::private(), crate::runtime::krate());
    let cx = Ctxt::new();
    let container = serde_attr::parse(&cx, &input.attrs);
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
        .de
        .clone()
        .unwrap_or_else(|| ident.to_string());
    let description = match doc::from_attrs(&input.attrs) {
        Some(d) => {
            let t = d.to_tokens();
            quote!(#p::Some(#t))
        }
        None => quote!(#p::None),
    };
    let mut checks = Checks::default();
    // `(DEPTH, PROPERTIES)` of the type as a tool input.
    let mut shape = (quote!(0), quote!(0));
    // A newtype's field type: the key checks (`range`, `unit`, ..) see through it.
    let mut newtype_of = None;
    let newtype_field = match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(named) if container.transparent => named.named.iter().find(|f| {
                let serde = serde_attr::parse(&cx, &f.attrs);
                !(serde.skip_serializing && serde.skip_deserializing)
            }),
            Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => unnamed.unnamed.first(),
            _ => None,
        },
        _ => None,
    };
    let body = match &input.data {
        Data::Struct(data) => match &data.fields {
            // A newtype: a one-field tuple struct, or a `transparent` struct, whose one field
            // that is not skipped serde writes as the whole value (serde refuses any other
            // number of fields itself).
            _ if let Some(field) = newtype_field => {
                let (body, of) = newtype(
                    &cx,
                    &mut checks,
                    field,
                    &container,
                    ident,
                    &description,
                    &mut shape,
                );
                newtype_of = Some(of);
                body
            }
            Fields::Named(named) => {
                let fields = fields_expr(&cx, &mut checks, named, &container, container.rename_all);
                shape = fields_shape(&cx, named, ident);
                quote!(#p::struct_schema(generator, #description, &#fields))
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
            // Per variant: (depth of a unit variant, of a newtype variant's field, of a struct
            // variant's fields) under the enum's representation.
            let tagged = container.tag.is_some() && !container.untagged;
            let wrapped =
                !container.untagged && (container.tag.is_none() || container.content.is_some());
            let mut depths = Vec::new();
            for v in &data.variants {
                let serde = serde_attr::parse(&cx, &v.attrs);
                let (skip_ser, skip_de) = (serde.skip_serializing, serde.skip_deserializing);
                if skip_ser && skip_de {
                    continue;
                }
                if let Some(at) = &serde.untagged_at {
                    cx.error_spanned_by(
                        at,
                        "`#[serde(untagged)]` on one variant is not supported: toolwright cannot publish a mix of tagged and untagged variants yet; make the whole enum `#[serde(untagged)]`, or give the variant a tag",
                    );
                }
                if let Some(attr) = v.attrs.iter().find(|a| param::is_param(a)) {
                    cx.error_spanned_by(attr, "`#[param]` goes on fields, not on enum variants");
                }
                let vname = Names::of(&v.ident.to_string(), &serde.rename, &rule, |r, v| {
                    r.apply_to_variant(v)
                })
                .tokens();
                // Depths describe input: a variant never deserialized adds none.
                let depths_before = depths.len();
                let vdoc = match doc::from_attrs(&v.attrs) {
                    Some(d) => {
                        let t = d.to_tokens();
                        quote!(#p::Some(#t))
                    }
                    None => quote!(#p::None),
                };
                let shape = match &v.fields {
                    Fields::Unit => {
                        depths.push(if tagged { quote!(1) } else { quote!(0) });
                        quote!(#p::VariantShape::Unit)
                    }
                    Fields::Unnamed(u) if u.unnamed.len() == 1 => {
                        unit_only = false;
                        let field = &u.unnamed[0];
                        if let Some(a) = field.attrs.iter().find(|a| param::is_param(a)) {
                            cx.error_spanned_by(
                                a,
                                format!(
                                    "`#[param]` is not supported on a tuple variant's field: use a struct variant (`{} {{ value: .. }}`) with a documented field",
                                    v.ident
                                ),
                            );
                        }
                        let ty = &field.ty;
                        let inner = if mentions(ty, ident) {
                            quote!(#p::RECURSIVE)
                        } else {
                            quote!(<#p::Probe<#ty>>::DEPTH)
                        };
                        depths.push(match (tagged, wrapped) {
                            // internally tagged: the newtype's object takes the tag
                            (true, false) => quote!(#p::max(1, #inner)),
                            (_, true) => quote!(1 + #inner),
                            (false, false) => inner,
                        });
                        let info = param::field_info_tokens(ty);
                        quote!(#p::VariantShape::Newtype(#info))
                    }
                    Fields::Unnamed(u) => {
                        unit_only = false;
                        cx.error_spanned_by(u, "a tuple variant with several fields has no property names to publish: use named fields");
                        quote!(#p::VariantShape::Unit)
                    }
                    Fields::Named(named) => {
                        unit_only = false;
                        // serde: the variant's own `rename_all`, else the enum's
                        // `rename_all_fields`, names the variant's fields.
                        let rule = serde.rename_all.or(&container.rename_all_fields);
                        let fields =
                            fields_expr(&cx, &mut checks, named, &SerdeAttrs::default(), rule);
                        let (inner, _) = fields_shape(&cx, named, ident);
                        depths.push(if wrapped { quote!(1 + #inner) } else { inner });
                        quote!(#p::VariantShape::Struct(#fields))
                    }
                };
                if skip_de {
                    depths.truncate(depths_before);
                }
                // A variant serde writes but never reads is in output schemas only, and the
                // other way round.
                let unit = quote!(__tw_variants.push((#vname, #vdoc)););
                let variant = quote! {
                    __tw_variants.push(#p::Variant { name: #vname, description: #vdoc, shape: #shape });
                };
                match keep_tokens(skip_ser, skip_de) {
                    Some(keep) => {
                        unit_variants.push(quote!(if #keep { #unit }));
                        variants.push(quote!(if #keep { #variant }));
                    }
                    None => {
                        unit_variants.push(unit);
                        variants.push(variant);
                    }
                }
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
            shape.0 = depths
                .iter()
                .fold(quote!(0), |acc, d| quote!(#p::max(#acc, #d)));
            if unit_only && !container.untagged && container.tag.is_none() {
                shape.0 = quote!(0);
                quote! {{
                    let mut __tw_variants = #p::Vec::new();
                    #(#unit_variants)*
                    #p::unit_enum_schema(#description, &__tw_variants)
                }}
            } else {
                quote! {{
                    let mut __tw_variants = #p::Vec::new();
                    #(#variants)*
                    #p::data_enum_schema(generator, #description, #tagging, &__tw_variants)
                }}
            }
        }
        Data::Union(u) => {
            cx.error_spanned_by(u.union_token, "`ToolSchema` cannot be derived for a union");
            quote!(#p::struct_schema(generator, #description, &[]))
        }
    };
    let generic = !input.generics.params.is_empty();
    let checks = if generic {
        TokenStream::new()
    } else {
        checks.into_tokens(Some(&syn::parse_quote!(#ident)))
    };
    let errors = cx.check().err().map(|e| e.to_compile_error());
    if generic {
        // Still implement the traits (as thiserror's fallback does) so uses of the type do not
        // add a cascade of missing-trait errors.
        return quote! {
            #errors
            const _: () = {
                impl #p::schemars::JsonSchema for #ident {
                    fn schema_name() -> #p::Cow<'static, str> { #p::Cow::Borrowed(#name) }
                    fn json_schema(_: &mut #p::schemars::SchemaGenerator) -> #p::schemars::Schema {
                        #p::schemars::Schema::from(true)
                    }
                }
                impl #k::ToolSchema for #ident {}
            };
        };
    }
    let (depth, properties) = shape;
    // A newtype is a number (or string, or list) wherever its field is: `range`, `unit`, .. on
    // it are checked against the field's type. (`for<'a>` keeps a bound that does not hold from
    // being an error here; it is reported where the key is used.)
    let newtype_impls = newtype_of.map(|ty| {
        quote! {
            #[automatically_derived]
            impl #p::RangeTarget for #ident where for<'__tw> #ty: #p::RangeTarget {
                const NAME: &'static str = <#ty as #p::RangeTarget>::NAME;
                const INTEGER: bool = <#ty as #p::RangeTarget>::INTEGER;
                const MIN: i128 = <#ty as #p::RangeTarget>::MIN;
                const MAX: i128 = <#ty as #p::RangeTarget>::MAX;
            }
            #[automatically_derived]
            impl #p::UnitTarget for #ident where for<'__tw> #ty: #p::UnitTarget {}
            #[automatically_derived]
            impl #p::LengthTarget for #ident where for<'__tw> #ty: #p::LengthTarget {}
            #[automatically_derived]
            impl #p::PatternTarget for #ident where for<'__tw> #ty: #p::PatternTarget {}
            #[automatically_derived]
            impl #p::ItemsTarget for #ident where for<'__tw> #ty: #p::ItemsTarget {}
        }
    });
    // The `JsonSchema` impl is generated next to errors too (as thiserror's fallback keeps the
    // type usable), so uses of the type add no error of their own.
    quote! {
        #errors
        #[allow(unused_qualifications)]
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
                    // Whether the schema describes output (serde's serialize side) or input.
                    let __tw_serialize = generator.contract().is_serialize();
                    #body
                }
            }
            #[automatically_derived]
            impl #k::ToolSchema for #ident {}
            #[automatically_derived]
            impl #p::SchemaShape for #ident {
                const DEPTH: usize = {
                    #[allow(unused_imports)]
                    use #p::ProbeFallback as _;
                    #depth
                };
                const PROPERTIES: usize = {
                    #[allow(unused_imports)]
                    use #p::ProbeFallback as _;
                    #properties
                };
            }
            #newtype_impls
        };
        #checks
    }
}
