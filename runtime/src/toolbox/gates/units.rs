//! Gate 5: the arguments converted from their published units to the values serde reads (uom
//! quantities are read in SI units). What needs the published units (the confirmation
//! question) was made before.

use serde_json::Value;

use super::Stop;
use crate::toolbox::Entry;
use crate::validate::Violation;
use crate::validate::refusals::invalid_arguments;

/// Converts `value` in place, or refuses a value too large for the unit the body reads.
#[inline]
pub(super) fn converted<S>(entry: &Entry<S>, value: &mut Value) -> Result<(), Stop> {
    let Some(adapter) = &entry.input_adapter else {
        return Ok(());
    };
    match adapter.to_serde(value) {
        Ok(()) => Ok(()),
        Err(path) => {
            let violation = Violation {
                path,
                message: "is too large to convert to the unit the tool works in (it overflows)"
                    .to_owned(),
                hint: Some("send a number the tool can use; see its range".to_owned()),
            };
            Err((
                "invalid_arguments",
                invalid_arguments(&entry.name, &[violation]).into(),
            ))
        }
    }
}
