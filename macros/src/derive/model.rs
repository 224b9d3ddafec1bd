//! The derive's model (serde_derive's `internals/ast.rs`): the container, its variants and its
//! fields, each with its serde attributes, `#[param]` and doc comment read once, and each
//! property's name resolved per direction. Checks and code generation read only this.

use syn::{Data as SynData, DeriveInput, Fields, Ident};

use crate::case::RenameRule;
use crate::ctxt::Ctxt;
use crate::doc::{self, Doc};
use crate::property::Property;
use crate::serde_attr::{self, Both, Names, SerdeAttrs};

/// The type being derived.
pub struct Container<'a> {
    pub original: &'a DeriveInput,
    pub ident: &'a Ident,
    pub serde: SerdeAttrs,
    /// The schema's name: serde's deserialize-side `rename`, else the Rust name.
    pub name: String,
    pub doc: Option<Doc>,
    pub data: Data<'a>,
}

/// The container's shape, as serde reads and writes it.
pub enum Data<'a> {
    /// A struct with named fields: an object.
    Struct(Vec<Field<'a>>),
    /// A one-field tuple struct, or a `transparent` struct's one field that is not skipped:
    /// written as that field's value.
    Newtype(Box<Field<'a>>),
    Enum(Vec<Variant<'a>>),
    /// A tuple struct of several fields: no property names to publish.
    Tuple(&'a syn::FieldsUnnamed),
    /// A unit struct: no data.
    Unit,
    Union(&'a syn::DataUnion),
}

/// One enum variant.
pub struct Variant<'a> {
    pub original: &'a syn::Variant,
    pub serde: SerdeAttrs,
    /// The variant's name (tag value or key) per direction.
    pub names: Names,
    pub doc: Option<Doc>,
    pub style: Style<'a>,
}

/// How a variant carries data.
pub enum Style<'a> {
    Unit,
    /// One unnamed field: written as that field's value.
    Newtype(&'a syn::Field),
    Struct(Vec<Field<'a>>),
    /// Several unnamed fields: no property names to publish.
    Tuple(&'a syn::FieldsUnnamed),
    /// A variant serde never reads nor writes: in no schema, its fields not read.
    Skipped,
}

/// One property: a struct's or struct variant's field, or a newtype's one field.
pub struct Field<'a> {
    pub original: &'a syn::Field,
    pub serde: SerdeAttrs,
    pub decl: Property,
    /// The property's name per direction; `None` for a newtype's field (described by the
    /// type's doc).
    pub names: Option<Names>,
    /// serde fills it when missing: the field's `default`, or its struct's.
    pub default: bool,
}

impl Field<'_> {
    /// serde never reads nor writes it.
    pub fn skipped(&self) -> bool {
        self.serde.skip_serializing && self.serde.skip_deserializing
    }

    /// The field's Rust name without `r#`, when it has one.
    pub fn ident_text(&self) -> Option<String> {
        self.original
            .ident
            .as_ref()
            .map(|i| i.to_string().trim_start_matches("r#").to_owned())
    }
}

impl Variant<'_> {
    /// serde never reads nor writes it: left out of every schema.
    pub fn skipped(&self) -> bool {
        self.serde.skip_serializing && self.serde.skip_deserializing
    }
}

impl<'a> Container<'a> {
    /// Reads the input once: every attribute error is reported here, once.
    pub fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Container<'a> {
        let serde = serde_attr::parse(cx, &input.attrs);
        let name = serde
            .rename
            .de
            .clone()
            .unwrap_or_else(|| input.ident.to_string());
        let data = match &input.data {
            SynData::Struct(data) => match &data.fields {
                Fields::Named(named) => {
                    let fields: Vec<Field<'a>> = named
                        .named
                        .iter()
                        .map(|f| field(cx, f, serde.rename_all, serde.default))
                        .collect();
                    // serde refuses a `transparent` struct with another number of fields that
                    // are not skipped itself.
                    match fields.iter().position(|f| !f.skipped()) {
                        Some(i) if serde.transparent => {
                            let mut fields = fields;
                            Data::Newtype(Box::new(Field {
                                names: None,
                                ..fields.swap_remove(i)
                            }))
                        }
                        _ => Data::Struct(fields),
                    }
                }
                Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => Data::Newtype(Box::new(
                    newtype_field(cx, &unnamed.unnamed[0], serde.default),
                )),
                Fields::Unnamed(unnamed) => Data::Tuple(unnamed),
                Fields::Unit => Data::Unit,
            },
            SynData::Enum(data) => Data::Enum(
                data.variants
                    .iter()
                    .map(|v| variant(cx, v, &serde))
                    .collect(),
            ),
            SynData::Union(u) => Data::Union(u),
        };
        Container {
            original: input,
            ident: &input.ident,
            name,
            doc: doc::from_attrs(&input.attrs),
            serde,
            data,
        }
    }

    /// Whether the enum is written with its tag inside the variant's object (`tag` without
    /// `content`).
    pub fn internally_tagged(&self) -> bool {
        self.serde.tag.is_some() && !self.serde.untagged
    }

    /// Whether each variant's data is wrapped in an object of its own (externally or adjacently
    /// tagged).
    pub fn wrapped(&self) -> bool {
        !self.serde.untagged && (self.serde.tag.is_none() || self.serde.content.is_some())
    }
}

/// A named field; `rule` is the `rename_all` that applies to it, `container_default` whether its
/// struct is `#[serde(default)]`.
fn field<'a>(
    cx: &Ctxt,
    field: &'a syn::Field,
    rule: Both<RenameRule>,
    container_default: bool,
) -> Field<'a> {
    let decl = Property::parse(cx, &field.attrs);
    let serde = serde_attr::parse(cx, &field.attrs);
    let ident = field.ident.as_ref().expect("named field");
    let plain = ident.to_string().trim_start_matches("r#").to_owned();
    let names = Names::of(&plain, &serde.rename, &rule, |r, f| r.apply_to_field(f));
    Field {
        original: field,
        default: serde.default || container_default,
        serde,
        decl,
        names: Some(names),
    }
}

/// A tuple struct's one field.
fn newtype_field<'a>(cx: &Ctxt, field: &'a syn::Field, container_default: bool) -> Field<'a> {
    let serde = serde_attr::parse(cx, &field.attrs);
    let decl = Property::parse(cx, &field.attrs);
    Field {
        original: field,
        default: serde.default || container_default,
        serde,
        decl,
        names: None,
    }
}

fn variant<'a>(cx: &Ctxt, v: &'a syn::Variant, container: &SerdeAttrs) -> Variant<'a> {
    let serde = serde_attr::parse(cx, &v.attrs);
    let names = Names::of(
        &v.ident.to_string(),
        &serde.rename,
        &container.rename_all,
        |r, v| r.apply_to_variant(v),
    );
    let style = match &v.fields {
        _ if serde.skip_serializing && serde.skip_deserializing => Style::Skipped,
        Fields::Unit => Style::Unit,
        Fields::Unnamed(u) if u.unnamed.len() == 1 => Style::Newtype(&u.unnamed[0]),
        Fields::Unnamed(u) => Style::Tuple(u),
        Fields::Named(named) => {
            // serde: the variant's own `rename_all`, else the enum's `rename_all_fields`, names
            // the variant's fields; the enum's `default` does not reach them.
            let rule = serde.rename_all.or(&container.rename_all_fields);
            Style::Struct(
                named
                    .named
                    .iter()
                    .map(|f| field(cx, f, rule, false))
                    .collect(),
            )
        }
    };
    Variant {
        original: v,
        names,
        doc: doc::from_attrs(&v.attrs),
        serde,
        style,
    }
}
