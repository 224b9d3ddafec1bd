//! State shared by the replicas of one server through Redis (feature `redis`): the HTTP
//! sessions of clients on protocol lines before 2026-07-28 (rmcp's `SessionStore`, so a session
//! created on one replica is restored on another), each stored with the principal that owns it
//! (every replica checks it before restoring the session), and the rate limits and quotas,
//! counted atomically in one Lua script with Redis's own clock, so that N replicas grant what
//! one would, and kept across a restart of Redis (`limits.rs`).
//!
//! Resource queues are not shared, on purpose: a resource (`resource = "arm"`) is a device one
//! process owns, and a toolbox whose tools use one must run as one process.

use std::sync::Arc;
use std::time::Duration;

use redis::aio::ConnectionManager;
use rmcp::transport::streamable_http_server::session::{
    SessionState, SessionStore, SessionStoreError,
};

mod limits;
mod tasks;

use super::Principal;
use crate::rate::{Denied, Rate};
use crate::toolbox::{Forwarded, NotClaimed, RemoteTask, SharedStore, StoredTask, TaskHandler};

/// The field of a stored session naming its owner ([`Principal::as_str`]; absent: a session
/// created without authentication).
const OWNER_FIELD: &str = "io.toolwright/owner";

/// How long a session's state is kept in Redis after it was last stored.
const SESSION_TTL_S: u64 = 24 * 3600;

/// A connection to the Redis the replicas share.
pub(crate) struct Redis {
    connection: ConnectionManager,
    /// Keys start with it (`toolwright:` by default).
    prefix: String,
    /// The rate limits and quotas counted here (`limits.rs`).
    limits: limits::Limits,
    /// Task requests passed to the replica that runs the task (`tasks.rs`).
    router: tasks::Router,
}

impl std::fmt::Debug for Redis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Redis")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

/// Where Redis is and how to reach it, from its URL: with `TCP_NODELAY` set (redis-rs leaves
/// Nagle's algorithm on). Calls from many requests share one multiplexed connection, so a
/// command often goes out while the one before is still unanswered; with Nagle's algorithm the
/// kernel would hold it back until that answer's ACK came.
fn connection_info(url: &str) -> Result<redis::ConnectionInfo, String> {
    use redis::IntoConnectionInfo;
    let info = url
        .into_connection_info()
        .map_err(|e| format!("--redis {url}: {e}"))?;
    let tcp = info.tcp_settings().clone().set_nodelay(true);
    Ok(info.set_tcp_settings(tcp))
}

impl Redis {
    /// Connects (`redis://host:6379/0`, `rediss://` for TLS is not built in); fails at once if
    /// Redis cannot be reached.
    pub(crate) async fn connect(url: &str) -> Result<Arc<Self>, String> {
        let client = redis::Client::open(connection_info(url)?)
            .map_err(|e| format!("--redis {url}: {e}"))?;
        // Reconnects at least every 250 ms while Redis is away (the default backs off to 3.2 s,
        // so the first requests after Redis returned still failed), and never waits on a
        // stalled Redis: 1 s to connect, 2 s for an answer.
        let config = redis::aio::ConnectionManagerConfig::new()
            .set_min_delay(Duration::from_millis(50))
            .set_max_delay(Duration::from_millis(250))
            .set_number_of_retries(4)
            .set_connection_timeout(Some(Duration::from_secs(1)))
            .set_response_timeout(Some(Duration::from_secs(2)));
        let connection = tokio::time::timeout(
            Duration::from_secs(10),
            ConnectionManager::new_with_config(client.clone(), config),
        )
        .await
        .map_err(|_| format!("--redis {url}: no answer within 10 s"))?
        .map_err(|e| format!("--redis {url}: cannot connect: {e}"))?;
        let prefix = "toolwright:".to_owned();
        let redis = Arc::new(Self {
            connection,
            limits: limits::Limits::new(&prefix),
            router: tasks::Router::new(&prefix),
            prefix,
        });
        limits::Limits::watch(Arc::downgrade(&redis));
        tasks::Router::listen(Arc::downgrade(&redis), client)
            .await
            .map_err(|e| {
                format!("--redis {url}: cannot subscribe to the replicas' channel: {e}")
            })?;
        Ok(redis)
    }

    /// Whether Redis answers a `PING` within `within` (`/readyz`).
    pub(crate) async fn ping(&self, within: Duration) -> Result<(), String> {
        let mut connection = self.connection.clone();
        let command = redis::cmd("PING");
        let ping = command.query_async::<String>(&mut connection);
        match tokio::time::timeout(within, ping).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("no answer within {within:?}")),
        }
    }

    fn key(&self, parts: &[&str]) -> String {
        let mut key = self.prefix.clone();
        for (i, p) in parts.iter().enumerate() {
            if i > 0 {
                key.push(':');
            }
            key.push_str(p);
        }
        key
    }

    /// Counts a call against the tool's and the client's limits, shared by every replica
    /// (`limits.rs`); `Denied::Unreachable` when Redis cannot say.
    pub(crate) async fn check(
        &self,
        client: &str,
        tool: &str,
        tool_rate: Option<Rate>,
        client_rate: Option<Rate>,
    ) -> Result<(), Denied> {
        let keys = [
            self.key(&["limit", client, "tool", tool]),
            self.key(&["limit", client, "all"]),
        ];
        self.limits
            .check(
                &self.connection,
                [&keys[0], &keys[1]],
                tool_rate,
                client_rate,
            )
            .await
    }
}

impl Redis {
    /// Records that a session completed its handshake, for the other replicas.
    pub(crate) async fn mark_initialized(&self, session_id: &str) {
        let mut connection = self.connection.clone();
        let r: redis::RedisResult<()> = redis::cmd("SET")
            .arg(self.key(&["session", session_id, "initialized"]))
            .arg(1)
            .arg("EX")
            .arg(SESSION_TTL_S)
            .query_async(&mut connection)
            .await;
        if let Err(e) = r {
            tracing::error!(error = %e, "session handshake not shared: Redis failed");
        }
    }

    /// Whether any replica saw the session complete its handshake (a Redis failure says yes:
    /// the check must not take the sessions down).
    pub(crate) async fn is_initialized(&self, session_id: &str) -> bool {
        let mut connection = self.connection.clone();
        redis::cmd("EXISTS")
            .arg(self.key(&["session", session_id, "initialized"]))
            .query_async::<i64>(&mut connection)
            .await
            .map_or(true, |n| n > 0)
    }
}

/// Records that an approval's question was asked. KEYS: the question's key, the used key.
/// ARGV: its time to live in milliseconds. Returns 0 when the approval was used (nothing
/// recorded), 1 when recorded.
const ASKED: &str = r"
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('SET', KEYS[1], 1, 'PX', ARGV[1])
return 1
";

/// Claims an approval. KEYS: its question's key, its used key. ARGV: the claim's time to live
/// in milliseconds, the id of the state presented (empty without one). Returns 1 when claimed
/// (the question taken off the record, or the approval carried to that state; it is then
/// marked used), 0 when used, -1 when its question is not on record.
const CLAIM: &str = r"
if redis.call('DEL', KEYS[1]) == 1 then
  redis.call('SET', KEYS[2], 'used', 'PX', ARGV[1])
  return 1
end
local record = redis.call('GET', KEYS[2])
if record and ARGV[2] ~= '' and record == 'carried:' .. ARGV[2] then
  redis.call('SET', KEYS[2], 'used', 'PX', ARGV[1])
  return 1
end
if record then return 0 end
return -1
";

/// Carries a claimed approval to the call's next round. KEYS: the question's key, the used
/// key. ARGV: the time to live, the id of the state that alone may claim it again.
const CARRY: &str = r"
redis.call('SET', KEYS[2], 'carried:' .. ARGV[2], 'PX', ARGV[1])
return 1
";

/// Runs one of the approval scripts for approval `id`.
async fn approval_script(
    redis: &Redis,
    script: &'static std::sync::LazyLock<redis::Script>,
    id: &str,
    ttl: Duration,
    state: &str,
) -> Result<i64, String> {
    let mut connection = redis.connection.clone();
    let mut invocation = script.key(redis.key(&["approval", id, "asked"]));
    invocation
        .key(redis.key(&["approval", id]))
        .arg(ttl.as_millis().max(1) as u64)
        .arg(state);
    let call = invocation.invoke_async::<i64>(&mut connection);
    match tokio::time::timeout(limits::ANSWER_WITHIN, call).await {
        Ok(answer) => answer.map_err(|e| e.to_string()),
        Err(_) => Err(format!("no answer within {:?}", limits::ANSWER_WITHIN)),
    }
}

static ASKED_SCRIPT: std::sync::LazyLock<redis::Script> =
    std::sync::LazyLock::new(|| redis::Script::new(ASKED));
static CLAIM_SCRIPT: std::sync::LazyLock<redis::Script> =
    std::sync::LazyLock::new(|| redis::Script::new(CLAIM));
static CARRY_SCRIPT: std::sync::LazyLock<redis::Script> =
    std::sync::LazyLock::new(|| redis::Script::new(CARRY));

/// Approvals (confirmations given on protocol 2026-07-28), one call each, for every replica,
/// and across a restart of Redis: an approval counts only while the question it answers is on
/// record (written when the question was asked, taken off when the approval is claimed), or
/// while it is carried to the call's next round by that round's state alone. A
/// Redis that restarted without its data has no record of the questions asked before, so
/// their approvals run nothing, without any clock compared; a used approval is remembered
/// until its state expires. A Redis failure is an `Err`: an approval that cannot be checked
/// runs nothing.
impl Redis {
    pub(crate) async fn asked_approval(&self, id: &str, ttl: Duration) -> Result<(), String> {
        approval_script(self, &ASKED_SCRIPT, id, ttl, "")
            .await
            .map(drop)
    }

    pub(crate) async fn claim_approval(
        &self,
        id: &str,
        presented: &str,
        ttl: Duration,
    ) -> Result<Result<(), NotClaimed>, String> {
        Ok(
            match approval_script(self, &CLAIM_SCRIPT, id, ttl, presented).await? {
                1 => Ok(()),
                0 => Err(NotClaimed::Used),
                _ => Err(NotClaimed::Older),
            },
        )
    }

    /// Carries a claimed approval to the call's next round, in the state `state` alone.
    pub(crate) async fn carry_approval(&self, id: &str, state: &str, ttl: Duration) {
        if let Err(e) = approval_script(self, &CARRY_SCRIPT, id, ttl, state).await {
            // Not carried: the next round's claim is refused, and nothing runs.
            tracing::error!(error = %e, "approval not carried to the next round: Redis failed");
        }
    }
}

impl Redis {
    /// The stored session `session_id`, as JSON: rmcp's state and its owner.
    async fn stored_session(
        &self,
        session_id: &str,
    ) -> Result<Option<serde_json::Map<String, serde_json::Value>>, SessionStoreError> {
        let mut connection = self.connection.clone();
        let json: Option<String> = redis::cmd("GET")
            .arg(self.key(&["session", session_id]))
            .query_async(&mut connection)
            .await?;
        Ok(match json {
            Some(j) => Some(serde_json::from_str(&j)?),
            None => None,
        })
    }

    /// Whose the session is: `None` when no replica stored it, `Some(None)` when it was created
    /// without authentication.
    pub(crate) async fn session_owner(
        &self,
        session_id: &str,
    ) -> Result<Option<Option<Principal>>, String> {
        let stored = self
            .stored_session(session_id)
            .await
            .map_err(|e| e.to_string())?;
        Ok(stored.map(|s| {
            s.get(OWNER_FIELD)
                .and_then(serde_json::Value::as_str)
                .map(Principal::from_stored)
        }))
    }
}

impl Redis {
    /// Stores a task as `tasks/get` shows it (protocol 2026-07-28's `DetailedTask`), with its
    /// owner, for `ttl`: any replica answers `tasks/get` for it. A Redis failure is logged: the
    /// replica running it still answers.
    pub(crate) async fn put_task(
        &self,
        id: &str,
        owner: Option<&str>,
        task: serde_json::Value,
        ttl: Duration,
    ) {
        let mut connection = self.connection.clone();
        let stored = serde_json::json!({
            "owner": owner, "task": task, "replica": self.router.replica(),
        });
        let r: redis::RedisResult<()> = redis::cmd("SET")
            .arg(self.key(&["task", id]))
            .arg(stored.to_string())
            .arg("PX")
            .arg(ttl.as_millis().max(1) as u64)
            .query_async(&mut connection)
            .await;
        if let Err(e) = r {
            tracing::error!(error = %e, task = id, "task not shared: Redis failed");
        }
    }

    /// A task a replica stored: its owner (`None`: whoever has its id), the task, and the
    /// replica that runs it.
    pub(crate) async fn get_task(&self, id: &str) -> Option<StoredTask> {
        let mut connection = self.connection.clone();
        let json: Option<String> = redis::cmd("GET")
            .arg(self.key(&["task", id]))
            .query_async(&mut connection)
            .await
            .map_err(|e| tracing::error!(error = %e, task = id, "task not read: Redis failed"))
            .ok()?;
        let mut stored: serde_json::Value = serde_json::from_str(&json?).ok()?;
        let text = |key: &str| {
            stored
                .get(key)
                .and_then(serde_json::Value::as_str)
                .map(str::to_owned)
        };
        let (owner, replica) = (text("owner"), text("replica"));
        Some(StoredTask {
            owner,
            replica,
            task: stored.get_mut("task")?.take(),
        })
    }
}

/// The HTTP sessions in Redis: what rmcp needs to restore a session on another replica (the
/// client's `initialize` parameters), and the principal that owns it.
pub(crate) struct RedisSessions(pub Arc<Redis>);

#[async_trait::async_trait]
impl SessionStore for RedisSessions {
    async fn load(&self, session_id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        Ok(match self.0.stored_session(session_id).await? {
            Some(mut stored) => {
                stored.remove(OWNER_FIELD);
                Some(serde_json::from_value(serde_json::Value::Object(stored))?)
            }
            None => None,
        })
    }

    /// Stores the session with its owner: rmcp stores it while it answers the `initialize`
    /// that created it, so as that request's principal ([`crate::http::acting`]).
    async fn store(&self, session_id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let mut connection = self.0.connection.clone();
        let mut stored = match serde_json::to_value(state)? {
            serde_json::Value::Object(map) => map,
            other => {
                return Err(format!("rmcp's session state is not a JSON object: {other}").into());
            }
        };
        if let Some(owner) = super::acting() {
            stored.insert(OWNER_FIELD.to_owned(), owner.as_str().into());
        }
        let json = serde_json::to_string(&stored)?;
        let () = redis::cmd("SET")
            .arg(self.0.key(&["session", session_id]))
            .arg(json)
            .arg("EX")
            .arg(SESSION_TTL_S)
            .query_async(&mut connection)
            .await?;
        Ok(())
    }

    async fn delete(&self, session_id: &str) -> Result<(), SessionStoreError> {
        let mut connection = self.0.connection.clone();
        let _: i64 = redis::cmd("DEL")
            .arg(self.0.key(&["session", session_id]))
            .arg(self.0.key(&["session", session_id, "initialized"]))
            .query_async(&mut connection)
            .await?;
        Ok(())
    }
}

impl SharedStore for Redis {
    fn check<'a>(
        &'a self,
        client: &'a str,
        tool: &'a str,
        tool_rate: Option<Rate>,
        client_rate: Option<Rate>,
    ) -> futures::future::BoxFuture<'a, Result<(), Denied>> {
        Box::pin(Redis::check(self, client, tool, tool_rate, client_rate))
    }

    fn asked_approval<'a>(
        &'a self,
        id: &'a str,
        ttl: Duration,
    ) -> futures::future::BoxFuture<'a, Result<(), String>> {
        Box::pin(Redis::asked_approval(self, id, ttl))
    }

    fn claim_approval<'a>(
        &'a self,
        id: &'a str,
        presented: &'a str,
        ttl: Duration,
    ) -> futures::future::BoxFuture<'a, Result<Result<(), NotClaimed>, String>> {
        Box::pin(Redis::claim_approval(self, id, presented, ttl))
    }

    fn carry_approval<'a>(
        &'a self,
        id: &'a str,
        state: &'a str,
        ttl: Duration,
    ) -> futures::future::BoxFuture<'a, ()> {
        Box::pin(Redis::carry_approval(self, id, state, ttl))
    }

    fn put_task<'a>(
        &'a self,
        id: &'a str,
        owner: Option<&'a str>,
        task: serde_json::Value,
        ttl: Duration,
    ) -> futures::future::BoxFuture<'a, ()> {
        Box::pin(Redis::put_task(self, id, owner, task, ttl))
    }

    fn get_task<'a>(&'a self, id: &'a str) -> futures::future::BoxFuture<'a, Option<StoredTask>> {
        Box::pin(Redis::get_task(self, id))
    }

    fn replica(&self) -> &str {
        self.router.replica()
    }

    fn ask_task<'a>(
        &'a self,
        runner: &'a str,
        ask: RemoteTask,
    ) -> futures::future::BoxFuture<'a, Result<serde_json::Value, Forwarded>> {
        Box::pin(self.router.ask(&self.connection, runner, ask))
    }

    fn answer_tasks(&self, handler: TaskHandler) {
        self.router.answer_with(handler);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connection_sets_tcp_nodelay_and_keeps_the_urls_address_and_database() {
        let info = connection_info("redis://127.0.0.1:6390/3").unwrap();
        assert!(info.tcp_settings().nodelay());
        assert_eq!(info.addr().to_string(), "127.0.0.1:6390");
        assert_eq!(info.redis_settings().db(), 3);
        let refused = connection_info("http://127.0.0.1/").unwrap_err();
        assert!(
            refused.starts_with("--redis http://127.0.0.1/: "),
            "{refused}"
        );
    }
}
