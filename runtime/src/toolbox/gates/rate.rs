//! Gate 9: the tool's rate limit and the client's, counted in this process or in the Redis the
//! replicas share. A stop tool (`stop_for`) is never rate-limited: it must get through when
//! everything else is stuck.

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock, MetaObject};
use serde_json::Value;

use super::Stop;
use crate::contract::{RETRY_AFTER_META, RETRYABLE_META};
use crate::toolbox::call::{CallSite, LOCAL_CLIENT};
use crate::toolbox::{Entry, Inner};

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
    let Err(limited) = check(inner, &client, entry).await else {
        return Ok(());
    };
    tracing::info!(?limited, "refused: rate limited");
    let text = crate::rate::limited_message(&entry.name, &limited);
    let mut meta = MetaObject::new();
    meta.0.insert(RETRYABLE_META.to_owned(), Value::Bool(true));
    meta.0.insert(
        RETRY_AFTER_META.to_owned(),
        Value::from(limited.wait.as_millis() as u64),
    );
    Err((
        "rate_limited",
        CallToolResult::error(vec![ContentBlock::text(text)])
            .with_meta(Some(meta))
            .into(),
    ))
}

/// Counts a call of `client` against the tool's and the client's rate limits: in this process,
/// or in the Redis the replicas share.
async fn check<S>(
    inner: &Inner<S>,
    client: &Arc<str>,
    entry: &Entry<S>,
) -> Result<(), crate::rate::Limited> {
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
    inner.limiter.check(
        client,
        entry.index,
        entry.meta.rate_limit,
        inner.config.client_rate_limit,
        std::time::Instant::now(),
    )
}
