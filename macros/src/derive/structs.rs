//! A struct with named fields: an object schema with one property per field serde reads or
//! writes in the schema's direction, named as serde names it there.

use proc_macro2::TokenStream;
use quote::quote;

use super::model::{Container, Field};
use super::{Generated, keep_tokens, mentions};
use crate::property;

pub fn generate(c: &Container<'_>, fields: &[Field<'_>], description: &TokenStream) -> Generated {
    let p = crate::runtime::private();
    let fields_expr = fields_expr(fields);
    Generated {
        body: quote!(#p::struct_schema(generator, #description, &#fields_expr)),
        shape: fields_shape(fields, c.ident),
        newtype_of: None,
        string_enum: false,
    }
}

/// A field's `Field { spec, info, flatten }` expression for the generator's contract, named as
/// serde reads it (the serialize side's name is set by [`fields_expr`]).
pub fn field_tokens(f: &Field<'_>) -> TokenStream {
    let p = crate::runtime::private();
    let ty = &f.original.ty;
    let name = f.names.as_ref().map_or("", |n| n.de.as_str());
    let spec = f
        .decl
        .spec_tokens(name, ty, f.default, f.serde.skip_serializing_if);
    let info = property::field_info_tokens(ty);
    let flatten = f.serde.flatten;
    quote!(#p::Field { spec: #spec, info: #info, flatten: #flatten })
}

/// `vec![fields]` for the generator's contract, leaving out skipped fields and naming each as
/// serde does in that direction.
pub fn fields_expr(fields: &[Field<'_>]) -> TokenStream {
    let p = crate::runtime::private();
    let mut pushes = Vec::new();
    for f in fields {
        let tokens = field_tokens(f);
        let rename = f.names.as_ref().filter(|n| n.ser != n.de).map(|names| {
            let ser = &names.ser;
            quote!(if __tw_serialize { __tw_field.spec.name = #ser; })
        });
        let push = quote! {
            #[allow(unused_mut)]
            let mut __tw_field = #tokens;
            #rename
            __tw_fields.push(__tw_field);
        };
        pushes.push(
            match keep_tokens(f.serde.skip_serializing, f.serde.skip_deserializing) {
                Some(keep) => quote!(if #keep { #push }),
                None => quote!({ #push }),
            },
        );
    }
    quote! {
        {
            let mut __tw_fields = #p::Vec::new();
            #(#pushes)*
            __tw_fields
        }
    }
}

/// How a struct's fields nest: `(DEPTH, PROPERTIES)` expressions, seen as input (fields skipped
/// on deserialization do not count; a flattened field's object merges into this one).
pub fn fields_shape(fields: &[Field<'_>], this: &syn::Ident) -> (TokenStream, TokenStream) {
    let p = crate::runtime::private();
    let mut depths = Vec::new();
    let mut flat_depths = Vec::new();
    let mut properties = Vec::new();
    for f in fields.iter().filter(|f| !f.serde.skip_deserializing) {
        let ty = &f.original.ty;
        if mentions(ty, this) {
            // A field of the type itself: unbounded depth (evaluating it would be a cycle).
            depths.push(quote!(#p::RECURSIVE));
            properties.push(quote!(1));
        } else if f.serde.flatten {
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
