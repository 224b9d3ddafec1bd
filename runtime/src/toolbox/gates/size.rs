//! Gate 2: arguments larger than the toolbox's limit, measured before they are read.

use rmcp::model::JsonObject;

use super::Stop;
use crate::toolbox::size::{json_size, json_size_upper_bound};
use crate::toolbox::{Entry, Inner};
use crate::validate::refusals::arguments_too_large;

/// Refuses arguments whose JSON text is longer than `max_argument_bytes` (a cheap upper bound
/// first; the exact size only when the bound is over the limit).
#[inline]
pub(super) fn within_limit<S>(
    inner: &Inner<S>,
    entry: &Entry<S>,
    arguments: Option<&JsonObject>,
) -> Result<(), Stop> {
    let limit = inner.config.max_argument_bytes;
    if json_size_upper_bound(arguments) <= limit {
        return Ok(());
    }
    let size = json_size(arguments);
    if size <= limit {
        return Ok(());
    }
    tracing::info!(size, limit, "refused: arguments too large");
    Err((
        "too_large",
        arguments_too_large(&entry.name, size, limit).into(),
    ))
}
