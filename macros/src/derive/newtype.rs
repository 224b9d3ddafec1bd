//! A newtype (a one-field tuple struct, or a `transparent` struct): its field's schema with the
//! type's description, and the field's nesting.

use proc_macro2::TokenStream;
use quote::quote;

use super::model::{Container, Field};
use super::structs::field_tokens;
use super::{Generated, mentions};

pub fn generate(c: &Container<'_>, f: &Field<'_>, description: &TokenStream) -> Generated {
    let p = crate::runtime::private();
    let tokens = field_tokens(f);
    let ty = &f.original.ty;
    let shape = if mentions(ty, c.ident) {
        (quote!(#p::RECURSIVE), quote!(0))
    } else {
        (
            quote!(<#p::Probe<#ty>>::DEPTH),
            quote!(<#p::Probe<#ty>>::PROPERTIES),
        )
    };
    Generated {
        body: quote!(#p::newtype_schema(generator, #description, #tokens)),
        shape,
        newtype_of: Some(ty.clone()),
        string_enum: false,
    }
}
