//! Gate 1: a tool declared `task = "required"` called by a request that cannot run as a task.

use rmcp::ErrorData;
use rmcp::model::{ClientCapabilities, ErrorCode};

use super::Stop;
use crate::tasks::TaskSupport;
use crate::toolbox::Entry;
use crate::toolbox::call::{CallSite, Response};

/// Refuses a call of a tool that runs only as a task from a request that cannot be one:
/// `-32021` naming the extension on protocol 2026-07-28, `-32601` before it.
#[inline]
pub(super) fn refuse<S>(entry: &Entry<S>, site: &CallSite) -> Result<(), Stop> {
    if entry.meta.task != TaskSupport::Required || site.task.is_some() {
        return Ok(());
    }
    let Some(link) = site.link.as_ref() else {
        return Ok(());
    };
    let error = if link.on_2026_protocol() {
        ErrorData::missing_required_client_capability(
            ClientCapabilities::builder().enable_tasks().build(),
        )
    } else {
        ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!(
                "`{}` runs only as a task (execution.taskSupport \"required\"): call it with \
                 `task` in the request's params",
                entry.name
            ),
            None,
        )
    };
    Err(("tasks_required", Response::Refused(Box::new(error))))
}
