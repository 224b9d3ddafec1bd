//! Gate 11: a call that may run as a task (`#[tool(task = "..")]`, a client that takes tasks)
//! starts as one here, and is answered with the task (`toolbox/tasks.rs` runs it); any other
//! call goes on to run in its request.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::Stop;
use crate::context::Round;
use crate::output::ResultRequest;
use crate::tasks::TaskSupport;
use crate::toolbox::call::CallSite;
use crate::toolbox::{Entry, Inner};

/// Starts the call as a task when the tool may run as one and the request asked for one (or,
/// on protocol 2026-07-28, may be promoted to one): the task's answer. `None`: the call runs in
/// its request, and nothing was taken.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(super) async fn started<S: Send + Sync + 'static>(
    inner: &Arc<Inner<S>>,
    entry: &Entry<S>,
    map: &mut Map<String, Value>,
    request: &mut ResultRequest,
    site: &mut CallSite,
    trace_id: &mut String,
    round: &mut Option<Arc<Round>>,
    claimed: &mut Option<String>,
) -> Option<Stop> {
    if entry.meta.task == TaskSupport::Forbidden {
        return None;
    }
    let ask = site.task.take()?;
    // Boxed: rare, and inline it would grow every call's future.
    Some(
        Box::pin(Inner::start_task(
            inner,
            entry,
            std::mem::take(map),
            std::mem::take(request),
            std::mem::take(site),
            std::mem::take(trace_id),
            round.take(),
            claimed.take(),
            *ask,
        ))
        .await,
    )
}
