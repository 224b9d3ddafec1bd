//! Gate 10: the tool's own check (`#[tool(check = ..)]`), a function of the state and the
//! validated arguments, for the limits no schema says (across arguments, or from the state:
//! `|v| + k·|ω| ≤ ..`, a tilt the pan limits), before the user is asked. It runs again when
//! the call gets its turn (`Inner::execute`). Its `Err` is what the model is told. A stop tool
//! is never checked.

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Map, Value};

use super::Stop;
use crate::toolbox::{Entry, Inner};

/// Runs the check: what it says of the call (the question's `{check}`), or the call refused
/// with its answer (`check_refused`).
#[inline]
pub(super) fn passed<S: Send + Sync + 'static>(
    inner: &Inner<S>,
    entry: &Entry<S>,
    map: &Map<String, Value>,
) -> Result<Option<String>, Stop> {
    let Some(check) = entry.check else {
        return Ok(None);
    };
    check(&inner.state, map).map_err(|why| refusal(entry, &why))
}

/// The answer to a call its check refused.
#[cold]
fn refusal<S>(entry: &Entry<S>, why: &str) -> Stop {
    (
        "check_refused",
        CallToolResult::error(vec![ContentBlock::text(refusal_text(entry, why, false))]).into(),
    )
}

/// What the model is told of a call its check refused.
#[cold]
/// `at_turn`: found when the call got its turn (the user may have been asked).
pub(in crate::toolbox) fn refusal_text<S>(entry: &Entry<S>, why: &str, at_turn: bool) -> String {
    tracing::info!(
        tool = &*entry.name,
        reason = why,
        at_turn,
        "refused by its check"
    );
    let why = why.trim_end_matches('.');
    if at_turn {
        format!(
            "`{}` did not run: when its turn came, its check refused it: {why}. Nothing moved.",
            entry.name
        )
    } else {
        format!(
            "`{}` did not run: {why}. Nothing moved, and the user was not asked.",
            entry.name
        )
    }
}
