//! Gate 4: protocol 2026-07-28's retry of a call that asked its client something: the answers
//! it brings, checked against the state it echoes, which must be one sealed for this tool, these
//! arguments and this caller.

use std::sync::Arc;

use rmcp::ErrorData;
use serde_json::Value;

use super::Stop;
use crate::context::{Round, StateRefused};
use crate::toolbox::call::{CallSite, Response};
use crate::toolbox::{Entry, Inner};

/// The call's round (`None`: an earlier protocol, or a handler without rounds), or `-32602`
/// for a `requestState` that was not sealed for this call.
#[inline]
pub(super) fn opened<S>(
    inner: &Inner<S>,
    entry: &Entry<S>,
    value: &Value,
    site: &mut CallSite,
) -> Result<Option<Arc<Round>>, Stop> {
    let Some(returned) = site.returned.take() else {
        return Ok(None);
    };
    match Round::open(&inner.config.request_state, &entry.name, value, *returned) {
        Ok(round) => Ok(Some(Arc::new(round))),
        Err(StateRefused) => Err((
            "state_refused",
            Response::Refused(Box::new(ErrorData::invalid_params(
                StateRefused::message(&entry.name),
                None,
            ))),
        )),
    }
}
