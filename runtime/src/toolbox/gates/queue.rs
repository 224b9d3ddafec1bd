//! Gate 8: a call its resource's queue refused when it arrived (`max_waiting` calls already
//! waited) is refused as such, before it counts against a rate limit.

use rmcp::model::{CallToolResult, ContentBlock, MetaObject};
use serde_json::Value;

use super::Stop;
use crate::contract::RETRYABLE_META;
use crate::exec;
use crate::toolbox::Entry;
use crate::toolbox::call::CallSite;

/// Refuses the call, retryable, when its queue was full on arrival.
#[inline]
pub(super) fn not_full<S>(entry: &Entry<S>, site: &CallSite) -> Result<(), Stop> {
    let Some(Err(full)) = &site.arrival else {
        return Ok(());
    };
    let text = exec::messages::queue_full(&entry.name, &full.resource, full.waiting);
    let mut meta = MetaObject::new();
    meta.0.insert(RETRYABLE_META.to_owned(), Value::Bool(true));
    Err((
        "queue_full",
        CallToolResult::error(vec![ContentBlock::text(text)])
            .with_meta(Some(meta))
            .into(),
    ))
}
