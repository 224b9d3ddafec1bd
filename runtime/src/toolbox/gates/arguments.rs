//! Gate 3: the arguments against the published schema, coerced and with defaults filled in.

use rmcp::model::JsonObject;
use serde_json::Value;

use super::Stop;
use crate::audit::Receipt;
use crate::toolbox::{Entry, Inner};
use crate::validate::refusals::invalid_arguments;

/// The validated arguments, or every violation (at most 20 listed) as one `isError`. The audit
/// line records them either way.
#[inline]
pub(super) fn validated<S>(
    inner: &Inner<S>,
    entry: &Entry<S>,
    arguments: Option<JsonObject>,
    receipt: &mut Option<Box<Receipt>>,
) -> Result<Value, Stop> {
    let mut value = Value::Object(arguments.unwrap_or_default());
    let checked = entry.validator.validate(&mut value, inner.config.coercion);
    if let Some(receipt) = receipt {
        receipt.arguments(&value, checked.is_ok());
    }
    match checked {
        Ok(()) => Ok(value),
        Err(violations) => {
            tracing::info!(problems = violations.len(), "refused: invalid arguments");
            Err((
                "invalid_arguments",
                invalid_arguments(&entry.name, &violations).into(),
            ))
        }
    }
}

/// The answer to arguments that are not an object once validated (the validator accepts only
/// objects at the root, so this does not happen).
#[cold]
pub(super) fn not_an_object<S>(entry: &Entry<S>) -> Stop {
    (
        "invalid_arguments",
        invalid_arguments(&entry.name, &[]).into(),
    )
}
