//! Gate 3: the arguments against the published schema, coerced and with defaults filled in.

use rmcp::model::JsonObject;
use serde_json::Value;

use super::Stop;
use crate::audit::Receipt;
use crate::toolbox::{Entry, Inner};
use crate::validate::refusals::invalid_arguments;

/// The validated arguments, or every violation (at most 20 listed) as one `isError`. The audit
/// line records them as sent either way, and what validation filled in.
#[inline]
pub(super) fn validated<S>(
    inner: &Inner<S>,
    entry: &Entry<S>,
    arguments: Option<JsonObject>,
    receipt: &mut Option<Box<Receipt>>,
) -> Result<Value, Stop> {
    let mut value = Value::Object(arguments.unwrap_or_default());
    // The audit line records the arguments as sent (only a call with a receipt keeps a copy).
    let sent = receipt.is_some().then(|| value.clone());
    // `describe_tool`'s names follow the tools served (groups, read-only): checked against
    // those it lists now.
    let served = inner.validator_of(entry);
    let validator = served.as_deref().unwrap_or(&entry.validator);
    let checked = validator.validate(&mut value, inner.config.coercion);
    if let (Some(receipt), Some(sent)) = (receipt, sent) {
        receipt.arguments(sent, checked.is_ok().then_some(&value));
    }
    match checked {
        Ok(()) => Ok(value),
        Err(violations) => {
            tracing::info!(problems = violations.len(), "refused: invalid arguments");
            let mut text = crate::validate::invalid_arguments_text(&entry.name, &violations);
            if served.is_some() && inner.config.read_only {
                text.push_str(
                    "\ndescribe_tool names the tools served: this server is read-only, and \
                     serves only the tools that change nothing.",
                );
            }
            let refusal =
                rmcp::model::CallToolResult::error(vec![rmcp::model::ContentBlock::text(text)]);
            Err(("invalid_arguments", refusal.into()))
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
