//! Physical quantities as tool values: the quantities toolwright knows and their units
//! (`table.rs`) and, with the `uom` feature, uom's quantity types as parameters, fields and
//! outputs (`uom.rs`).
//!
//! A quantity's schema is a number carrying two private keywords until the toolbox is built:
//! `x-toolwright-quantity` (which quantity, so an undeclared unit defaults to its SI unit) and,
//! when the declared unit is not the SI one, `x-toolwright-scale` (`[factor, offset]` to SI).
//! The toolbox compiles the scales into an [`Adapter`](crate::adapt::Adapter) per direction
//! (`runtime/src/adapt.rs`, shared with the geometry of `crate::geometry`) and strips both
//! keywords before anything is published.

pub(crate) mod table;
#[cfg(feature = "uom")]
mod uom;

pub use table::{QuantityDef, QuantityTarget, unit_fits, unit_mismatch};

/// Names the quantity of a number schema (removed before publication).
pub(crate) const QUANTITY_KEY: &str = "x-toolwright-quantity";
/// `[factor, offset]` from the published unit to SI (removed before publication).
pub(crate) const SCALE_KEY: &str = "x-toolwright-scale";

use serde_json::{Map, Value, json};

use crate::schema::Unit;

/// The SI unit of a quantity's number schema: what is published when no `unit` is declared.
pub(crate) fn si_unit(scalar: &Map<String, Value>) -> Option<Unit> {
    let q = table::quantity(scalar.get(QUANTITY_KEY)?.as_str()?)?;
    Some(Unit {
        symbol: q.si,
        words: q.si_words,
    })
}

/// Settles the unit of a quantity's number schema: its quantity keyword is dropped and, when
/// the declared unit is not the SI one, its scale is recorded for the toolbox to convert with.
/// Errs when the declared unit does not measure the quantity (the macros refuse that at compile
/// time; this catches hand-written `FieldSpec`s).
pub(crate) fn settle_unit(
    scalar: &mut Map<String, Value>,
    declared: Option<Unit>,
) -> Result<(), String> {
    let Some(name) = scalar.shift_remove(QUANTITY_KEY) else {
        return Ok(());
    };
    let Some(declared) = declared else {
        return Ok(());
    };
    let Some(q) = name.as_str().and_then(table::quantity) else {
        return Err(format!("unknown quantity {name}"));
    };
    match table::unit(declared.symbol) {
        Some(u) if u.quantity == q => {
            if !u.is_si() {
                scalar.insert(SCALE_KEY.into(), json!([u.factor, u.offset]));
            }
            Ok(())
        }
        _ => Err(unit_mismatch(Some(q), declared.symbol).as_str().to_owned()),
    }
}
