//! Gate 6: `describe_tool`, the opt-in meta tool, is answered here (`toolbox/describe.rs`).

use serde_json::{Map, Value};

use super::Stop;
use crate::toolbox::describe::{self, DESCRIBE_TOOL};
use crate::toolbox::{Entry, Inner};

/// Ends a call of `describe_tool` with its answer; any other call goes on.
#[inline]
pub(super) fn answered<S: Send + Sync + 'static>(
    inner: &Inner<S>,
    entry: &Entry<S>,
    map: &Map<String, Value>,
) -> Result<(), Stop> {
    if inner.describe.is_none() || *entry.name != *DESCRIBE_TOOL {
        return Ok(());
    }
    let (outcome, result) = describe::answer(&inner.listed, map, inner.is_read_only());
    Err((outcome, result.into()))
}
