//! The derive's checks on its model (serde_derive's `internals/check.rs`): what the macro can see
//! is reported through the [`Ctxt`]; what needs the types becomes a `const` check in [`Checks`].

use quote::quote;

use super::model::{Container, Data, Field, Style};
use crate::check;
use crate::ctxt::Ctxt;
use crate::property;
use crate::typecheck::Checks;

/// Every check of the container, its variants and its fields.
pub fn container(cx: &Ctxt, checks: &mut Checks, c: &Container<'_>) {
    let input = c.original;
    if !input.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.generics,
            "`#[derive(ToolSchema)]` does not support generic types yet",
        );
    }
    if let Some(attr) = input.attrs.iter().find(|a| property::is_param(a)) {
        cx.error_spanned_by(attr, "`#[param]` goes on fields, not on the type");
    }
    match &c.data {
        Data::Struct(fields) => fields.iter().for_each(|f| field(cx, checks, f)),
        Data::Newtype(f) => field(cx, checks, f),
        Data::Enum(variants) => {
            for v in variants.iter().filter(|v| !v.skipped()) {
                if let Some(at) = &v.serde.untagged_at {
                    cx.error_spanned_by(
                        at,
                        "`#[serde(untagged)]` on one variant is not supported: toolwright cannot publish a mix of tagged and untagged variants yet; make the whole enum `#[serde(untagged)]`, or give the variant a tag",
                    );
                }
                if let Some(attr) = v.original.attrs.iter().find(|a| property::is_param(a)) {
                    cx.error_spanned_by(attr, "`#[param]` goes on fields, not on enum variants");
                }
                match &v.style {
                    Style::Unit | Style::Skipped => {}
                    Style::Newtype(f) => {
                        if let Some(a) = f.attrs.iter().find(|a| property::is_param(a)) {
                            cx.error_spanned_by(
                                a,
                                format!(
                                    "`#[param]` is not supported on a tuple variant's field: use a struct variant (`{} {{ value: .. }}`) with a documented field",
                                    v.original.ident
                                ),
                            );
                        }
                    }
                    Style::Tuple(u) => cx.error_spanned_by(
                        u,
                        "a tuple variant with several fields has no property names to publish: use named fields",
                    ),
                    Style::Struct(fields) => fields.iter().for_each(|f| field(cx, checks, f)),
                }
            }
            if variants.is_empty() {
                cx.error_spanned_by(c.ident, "an enum without variants has no values to publish");
            }
        }
        Data::Tuple(unnamed) => cx.error_spanned_by(
            unnamed,
            "a tuple struct has no property names to publish: use named fields",
        ),
        Data::Unit => cx.error_spanned_by(
            c.ident,
            "a unit struct carries no data: use a struct with named fields, or an enum",
        ),
        Data::Union(u) => {
            cx.error_spanned_by(u.union_token, "`ToolSchema` cannot be derived for a union");
        }
    }
}

/// A field's `#[param]` against its serde attributes, its keys, its description and (through
/// `checks`) its type.
fn field(cx: &Ctxt, checks: &mut Checks, f: &Field<'_>) {
    let (decl, serde) = (&f.decl, &f.serde);
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
    if let Some(h) = &decl.attr.header {
        cx.error_at(
            h.span(),
            format!(
                "`header` goes on a tool's parameter, not on a struct field: a field is published wherever its type is used, also inside lists and other types, where no header can mirror it; declare `{}` as a parameter of the tool with `#[param(header = {:?})]`",
                f.ident_text().unwrap_or_else(|| "the value".to_owned()),
                h.as_str()
            ),
        );
    }
    let skipped = f.skipped();
    if skipped && let Some(a) = f.original.attrs.iter().find(|a| property::is_param(a)) {
        cx.error_spanned_by(
            a,
            "this field is `#[serde(skip)]`: it is never published, so its `#[param]` has no effect; remove one of them",
        );
    }
    check::param_keys(cx, decl);
    if let Some(names) = &f.names {
        let name = &names.de;
        let ident_text = f.ident_text();
        let mut all_names = vec![name.as_str()];
        if let Some(i) = &ident_text {
            all_names.push(i);
        }
        let described = check::Described {
            what: format!("field `{name}`"),
            names: all_names,
            limit: decl
                .attr
                .max_description_bytes
                .as_ref()
                .map_or(check::PARAM_DESCRIPTION_BYTES, |v| **v),
            raise: "`#[param(max_description_bytes = ..)]` on the field",
        };
        check::property_description(cx, checks, decl, &described);
        if !decl.has_description() && !skipped && !serde.flatten {
            let field = f.original;
            cx.error_spanned_by(
                field.ident.as_ref().map_or_else(|| quote!(#field), |i| quote!(#i)),
                format!(
                    "field `{name}` has no description: add a doc comment on it (`/// Grip force …`) or `#[param(description = \"..\")]`; the model reads it to fill the value"
                ),
            );
        }
    }
    let ty = &f.original.ty;
    if check::type_is_servable(ty) {
        checks.param(decl, ty);
    }
}
