//! Gate 10: the tool's rate limit and the client's, counted in this process or in the Redis the
//! replicas share. A stop tool (`stop_for`) is never rate-limited: it must get through when
//! everything else is stuck.
//!
//! When the shared store cannot count (Redis does not answer), a tool that is not `read_only`
//! is refused, saying so: a limit that lets calls through when it cannot count is no limit. A
//! read-only tool goes on uncounted (logged): reading must not stop with the store.

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock, MetaObject};
use serde_json::Value;

use super::Stop;
use crate::contract::{RETRY_AFTER_META, RETRYABLE_META};
use crate::rate::Denied;
use crate::toolbox::call::{CallSite, LOCAL_CLIENT};
use crate::toolbox::{Entry, Inner};

/// How long a client refused for an unreachable store is told to wait.
const UNREACHABLE_RETRY_MS: u64 = 2_000;

/// Counts the call against its limits, or refuses it, retryable, saying when to call again.
pub(super) async fn within_limits<S: Send + Sync + 'static>(
    inner: &Inner<S>,
    entry: &Entry<S>,
    site: &CallSite,
) -> Result<(), Stop> {
    let stop_tool = !entry.policy.stops.is_empty();
    if stop_tool || (entry.meta.rate_limit.is_none() && inner.config.client_rate_limit.is_none()) {
        return Ok(());
    }
    let client = site.client.key().unwrap_or_else(|| Arc::from(LOCAL_CLIENT));
    let (text, wait_ms) = match check(inner, &client, entry).await {
        Ok(()) => return Ok(()),
        Err(Denied::Over(limited)) => {
            tracing::info!(?limited, "refused: rate limited");
            (
                crate::rate::limited_message(&entry.name, &limited),
                limited.wait.as_millis() as u64,
            )
        }
        Err(Denied::Unreachable(why)) if entry.meta.read_only == Some(true) => {
            tracing::warn!(tool = &*entry.name, error = %crate::echo::bounded(&why, 200), "rate limit not counted: the shared store does not answer; a read-only tool goes on");
            return Ok(());
        }
        Err(Denied::Unreachable(why)) => {
            tracing::error!(tool = &*entry.name, error = %crate::echo::bounded(&why, 200), "refused: the rate limit cannot be counted (the shared store does not answer)");
            (unreachable_message(&entry.name), UNREACHABLE_RETRY_MS)
        }
    };
    let mut meta = MetaObject::new();
    meta.0.insert(RETRYABLE_META.to_owned(), Value::Bool(true));
    meta.0
        .insert(RETRY_AFTER_META.to_owned(), Value::from(wait_ms));
    Err((
        "rate_limited",
        CallToolResult::error(vec![ContentBlock::text(text)])
            .with_meta(Some(meta))
            .into(),
    ))
}

/// The refusal of a call whose limits cannot be counted.
fn unreachable_message(tool: &str) -> String {
    format!(
        "Tool `{tool}` was not run: its rate limits are counted in the store this server's \
         replicas share (Redis), which does not answer now, and a tool that changes anything is \
         not run uncounted. Nothing was done. Call it again in {} s.",
        UNREACHABLE_RETRY_MS / 1000
    )
}

/// Counts a call of `client` against the tool's and the client's rate limits: in this process,
/// or in the Redis the replicas share.
async fn check<S>(inner: &Inner<S>, client: &Arc<str>, entry: &Entry<S>) -> Result<(), Denied> {
    #[cfg(feature = "redis")]
    if let Some(redis) = inner.shared.get() {
        return redis
            .check(
                client,
                &entry.name,
                entry.meta.rate_limit,
                inner.config.client_rate_limit,
            )
            .await;
    }
    inner
        .limiter
        .check(
            client,
            entry.index,
            entry.meta.rate_limit,
            inner.config.client_rate_limit,
            std::time::Instant::now(),
        )
        .map_err(Denied::Over)
}
