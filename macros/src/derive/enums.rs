//! An enum: a string enum when every variant is a unit and the enum is externally tagged,
//! otherwise one branch per variant under serde's representation (external, internal,
//! adjacent, untagged). A variant serde only writes is in output schemas only, and the other way
//! round.

use proc_macro2::TokenStream;
use quote::quote;

use super::model::{Container, Style, Variant};
use super::structs::{fields_expr, fields_shape};
use super::{Generated, doc_tokens, keep_tokens, mentions};
use crate::property;

pub fn generate(
    c: &Container<'_>,
    variants: &[Variant<'_>],
    description: &TokenStream,
) -> Generated {
    let p = crate::runtime::private();
    let (tagged, wrapped) = (c.internally_tagged(), c.wrapped());
    let mut unit_only = true;
    let mut branches = Vec::new();
    let mut unit_branches = Vec::new();
    // The depth of each variant serde reads, under the enum's representation.
    let mut depths = Vec::new();
    for v in variants.iter().filter(|v| !v.skipped()) {
        let vname = v.names.tokens();
        let vdoc = doc_tokens(&v.doc);
        let reads = !v.serde.skip_deserializing;
        let shape = match &v.style {
            Style::Unit => {
                if reads {
                    depths.push(if tagged { quote!(1) } else { quote!(0) });
                }
                quote!(#p::VariantShape::Unit)
            }
            Style::Newtype(field) => {
                unit_only = false;
                let ty = &field.ty;
                let inner = if mentions(ty, c.ident) {
                    quote!(#p::RECURSIVE)
                } else {
                    quote!(<#p::Probe<#ty>>::DEPTH)
                };
                if reads {
                    depths.push(match (tagged, wrapped) {
                        // internally tagged: the newtype's object takes the tag
                        (true, false) => quote!(#p::max(1, #inner)),
                        (_, true) => quote!(1 + #inner),
                        (false, false) => inner,
                    });
                }
                let info = property::field_info_tokens(ty);
                quote!(#p::VariantShape::Newtype(#info))
            }
            Style::Skipped => continue,
            Style::Tuple(_) => {
                unit_only = false;
                quote!(#p::VariantShape::Unit)
            }
            Style::Struct(fields) => {
                unit_only = false;
                let fields_expr = fields_expr(fields);
                if reads {
                    let (inner, _) = fields_shape(fields, c.ident);
                    depths.push(if wrapped { quote!(1 + #inner) } else { inner });
                }
                quote!(#p::VariantShape::Struct(#fields_expr))
            }
        };
        let unit = quote!(__tw_variants.push((#vname, #vdoc)););
        let branch = quote! {
            __tw_variants.push(#p::Variant { name: #vname, description: #vdoc, shape: #shape });
        };
        match keep_tokens(v.serde.skip_serializing, v.serde.skip_deserializing) {
            Some(keep) => {
                unit_branches.push(quote!(if #keep { #unit }));
                branches.push(quote!(if #keep { #branch }));
            }
            None => {
                unit_branches.push(unit);
                branches.push(branch);
            }
        }
    }
    let serde = &c.serde;
    let tagging = match (&serde.tag, &serde.content, serde.untagged) {
        (_, _, true) => quote!(#p::EnumTagging::Untagged),
        (Some(t), Some(c), _) => quote!(#p::EnumTagging::Adjacent(#t, #c)),
        (Some(t), None, _) => quote!(#p::EnumTagging::Internal(#t)),
        (None, _, _) => quote!(#p::EnumTagging::External),
    };
    if unit_only && !serde.untagged && serde.tag.is_none() {
        Generated {
            body: quote! {{
                let mut __tw_variants = #p::Vec::new();
                #(#unit_branches)*
                #p::unit_enum_schema(#description, &__tw_variants)
            }},
            shape: (quote!(0), quote!(0)),
            newtype_of: None,
            string_enum: true,
        }
    } else {
        let depth = depths
            .iter()
            .fold(quote!(0), |acc, d| quote!(#p::max(#acc, #d)));
        Generated {
            body: quote! {{
                let mut __tw_variants = #p::Vec::new();
                #(#branches)*
                #p::data_enum_schema(generator, #description, #tagging, &__tw_variants)
            }},
            shape: (depth, quote!(0)),
            newtype_of: None,
            string_enum: false,
        }
    }
}
