//! Schema generation: from Rust types plus `#[param(..)]` declarations to inline JSON Schema 2020-12.
//!
//! Every schema toolwright publishes goes through this module:
//! - type schemas come from [`schemars`] with subschemas inlined, so no `$ref`/`$defs` reach a client
//!   (a recursive type cannot be inlined and is reported as an error);
//! - [`normalize`] removes what clients choke on: schemars' non-standard `format`s (`uint8`, `double`,
//!   …) become `minimum`/`maximum` from the Rust integer width, and `$schema` is dropped from subschemas;
//! - [`FieldSpec`] adds what a `#[param(..)]` declares (description, unit, range, lengths, items,
//!   pattern, default, examples) to a property.
//!
//! The same schema is then compiled into the run-time [`Validator`](crate::validate::Validator), so
//! what is published is what is enforced.
//!
//! The layer under every other (only [`crate::error`]'s kind of leaf is below it), in parts:
//! - `declare.rs`: the declaration vocabulary the macros emit ([`FieldSpec`], [`Unit`], ..);
//! - `units.rs`: the units and quantities toolwright knows, checked at compile time;
//! - `keys.rs`: the private `x-toolwright-*` keywords, each with its writer, its readers and
//!   where it is stripped;
//! - `generate.rs`: type schemas from schemars, inlined and normalized;
//! - `property.rs`: property, object and enum schemas from a type and its declaration.

mod declare;
pub(crate) mod derive;
mod generate;
pub(crate) mod keys;
mod msg;
pub(crate) mod property;
pub(crate) mod units;

pub use declare::{
    Bound, ComponentRange, ComponentRanges, Components, ComponentsTarget, EnumTagging, Field,
    FieldSpec, NamedRanges, NamedRangesFallback, NamedRangesOf, Num, Unit, Variant, VariantShape,
    component_count,
};
pub use generate::TypeInfo;
pub(crate) use generate::{
    SchemaError, generator, is_object_schema, subschema, to_schemars, type_schema,
};
pub use msg::{Holds, Msg};
pub(crate) use property::{data_enum_schema, object_schema, property_schema, unit_enum_schema};
pub use units::{QuantityDef, QuantityTarget, unit_fits, unit_mismatch};

/// A type usable as a tool parameter or output with everything toolwright checks: implemented by
/// `#[derive(ToolSchema)]`, which also implements [`schemars::JsonSchema`].
pub trait ToolSchema: schemars::JsonSchema {}

#[cfg(test)]
mod tests;
