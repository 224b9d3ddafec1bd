//! Gate 7: what the call asks of its result (projection, summary), taken out of the arguments
//! before the body sees them.

use rmcp::model::CallToolResult;
use serde_json::{Map, Value};

use super::Stop;
use crate::output::{Refused, ResultRequest};
use crate::toolbox::Entry;
use crate::validate::refusals::invalid_arguments;

/// The call's result request, or why it cannot be served.
pub(super) async fn requested<S>(
    entry: &Entry<S>,
    map: &mut Map<String, Value>,
) -> Result<ResultRequest, Stop> {
    match entry.results.take_request(map).await {
        Ok(request) => Ok(request),
        Err(Refused::Conflict(violation)) => Err((
            "invalid_arguments",
            invalid_arguments(&entry.name, &[violation]).into(),
        )),
        Err(Refused::Expression(envelope)) => Err((
            "invalid_arguments",
            CallToolResult::structured_error(envelope).into(),
        )),
    }
}
