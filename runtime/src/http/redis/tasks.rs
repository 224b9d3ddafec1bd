//! A task's requests reach the replica that runs it (issue 43: `tasks/cancel` through another
//! replica answered "no task" and the motion ran to its end). Each replica subscribes to a
//! channel of its own, `toolwright:replica:<id>`; a task is stored with the id of the replica
//! running it (`put_task`); a `tasks/get`, `tasks/update` or `tasks/cancel` that reaches
//! another replica is published to the runner's channel and answered on the asker's, within
//! [`ANSWER_WITHIN`]. The runner checks the owner again and does what it would do for its own
//! client: a cancel runs the task's safe stop where the motion is.
//!
//! A runner that is not subscribed (stopped, or cut off from Redis) receives nothing: `PUBLISH`
//! says no one listened, and the asker answers at once that the task could not be reached.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;

use futures::StreamExt as _;
use rmcp::ErrorData;
use serde_json::{Value, json};

use crate::toolbox::{Forwarded, RemoteOp, RemoteTask, TaskHandler};

/// How long an asker waits for the runner's answer.
pub(super) const ANSWER_WITHIN: Duration = Duration::from_secs(3);

/// The routing of task requests between replicas.
pub(super) struct Router {
    /// This replica's id: what its tasks are stored with, and its channel's name.
    replica: String,
    /// `toolwright:replica:`, before a replica's id.
    channel_prefix: String,
    /// Asks this replica sent, waiting for their answers, by sequence number.
    pending: Mutex<HashMap<u64, tokio::sync::oneshot::Sender<Value>>>,
    next: AtomicU64,
    /// What answers the asks for this replica's tasks (the toolbox's, once it serves).
    handler: OnceLock<TaskHandler>,
}

impl Router {
    pub(super) fn new(prefix: &str) -> Self {
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).expect("the operating system's random source failed");
        Router {
            replica: bytes.iter().map(|b| format!("{b:02x}")).collect(),
            channel_prefix: format!("{prefix}replica:"),
            pending: Mutex::default(),
            next: AtomicU64::new(0),
            handler: OnceLock::new(),
        }
    }

    pub(super) fn replica(&self) -> &str {
        &self.replica
    }

    fn channel(&self, replica: &str) -> String {
        format!("{}{replica}", self.channel_prefix)
    }

    pub(super) fn answer_with(&self, handler: TaskHandler) {
        let _ = self.handler.set(handler);
    }

    /// Subscribes this replica's channel, and keeps it subscribed (again after Redis restarts)
    /// until `owner` is gone. Returns once the first subscription holds, so that answers to
    /// this replica's first asks are heard.
    pub(super) async fn listen(
        owner: Weak<super::Redis>,
        client: redis::Client,
    ) -> Result<(), String> {
        let Some(redis) = owner.upgrade() else {
            return Ok(());
        };
        let channel = redis.router.channel(&redis.router.replica);
        drop(redis);
        let first = subscribe(&client, &channel).await?;
        tokio::spawn(async move {
            let mut stream = Some(first);
            loop {
                if let Some(mut messages) = stream.take() {
                    while let Some(message) = messages.next().await {
                        let Some(redis) = owner.upgrade() else { return };
                        let Ok(payload) = message.get_payload::<String>() else {
                            continue;
                        };
                        redis.router.received(&redis, &payload);
                    }
                    tracing::warn!(
                        "the replicas' task channel closed (Redis went away): subscribing again"
                    );
                }
                if owner.strong_count() == 0 {
                    return;
                }
                match subscribe(&client, &channel).await {
                    Ok(messages) => stream = Some(messages),
                    Err(_) => tokio::time::sleep(Duration::from_millis(250)).await,
                }
            }
        });
        Ok(())
    }

    /// A message on this replica's channel: an ask for one of its tasks, or an answer.
    fn received(&self, redis: &Arc<super::Redis>, payload: &str) {
        let Ok(message) = serde_json::from_str::<Value>(payload) else {
            return;
        };
        let seq = message["seq"].as_u64().unwrap_or_default();
        match message["kind"].as_str() {
            Some("answer") => {
                let waiting = self
                    .pending
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .remove(&seq);
                if let Some(waiting) = waiting {
                    let _ = waiting.send(message);
                }
            }
            Some("ask") => {
                let Some(from) = message["from"].as_str().map(str::to_owned) else {
                    return;
                };
                let op = match message["op"].as_str() {
                    Some("get") => RemoteOp::Get,
                    Some("cancel") => RemoteOp::Cancel,
                    Some("update") => RemoteOp::Update(message["responses"].clone()),
                    _ => return,
                };
                let ask = RemoteTask {
                    op,
                    task: message["task"].as_str().unwrap_or_default().to_owned(),
                    owner: message["owner"].as_str().map(str::to_owned),
                };
                let handler = self.handler.get().cloned();
                let redis = Arc::clone(redis);
                tokio::spawn(async move {
                    let answered = match handler {
                        Some(handler) => handler(ask).await,
                        None => Err(ErrorData::internal_error(
                            "this replica does not serve tasks yet",
                            None,
                        )),
                    };
                    let answer = match answered {
                        Ok(value) => {
                            json!({"kind": "answer", "seq": seq, "ok": true, "value": value})
                        }
                        Err(error) => {
                            json!({"kind": "answer", "seq": seq, "ok": false, "error": error})
                        }
                    };
                    let mut connection = redis.connection.clone();
                    let sent: redis::RedisResult<i64> = redis::cmd("PUBLISH")
                        .arg(redis.router.channel(&from))
                        .arg(answer.to_string())
                        .query_async(&mut connection)
                        .await;
                    if let Err(e) = sent {
                        tracing::error!(error = %e, "a task request from another replica could not be answered: Redis failed");
                    }
                });
            }
            _ => {}
        }
    }

    /// Sends `ask` to the replica `runner` and waits for its answer.
    pub(super) async fn ask(
        &self,
        connection: &redis::aio::ConnectionManager,
        runner: &str,
        ask: RemoteTask,
    ) -> Result<Value, Forwarded> {
        let seq = self.next.fetch_add(1, Ordering::Relaxed);
        let (op, responses) = match ask.op {
            RemoteOp::Get => ("get", Value::Null),
            RemoteOp::Cancel => ("cancel", Value::Null),
            RemoteOp::Update(responses) => ("update", responses),
        };
        let message = json!({
            "kind": "ask", "seq": seq, "from": self.replica, "op": op,
            "task": ask.task, "owner": ask.owner, "responses": responses,
        });
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(seq, tx);
        let forget = || {
            self.pending
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&seq);
        };
        let mut connection = connection.clone();
        let heard: redis::RedisResult<i64> = redis::cmd("PUBLISH")
            .arg(self.channel(runner))
            .arg(message.to_string())
            .query_async(&mut connection)
            .await;
        match heard {
            Ok(0) => {
                forget();
                return Err(Forwarded::Unreachable(
                    "the replica running it is not listening (it stopped, or lost Redis)".into(),
                ));
            }
            Ok(_) => {}
            Err(e) => {
                forget();
                return Err(Forwarded::Unreachable(format!("Redis failed: {e}")));
            }
        }
        let answer = match tokio::time::timeout(ANSWER_WITHIN, rx).await {
            Ok(Ok(answer)) => answer,
            _ => {
                forget();
                return Err(Forwarded::Unreachable(format!(
                    "the replica running it did not answer within {ANSWER_WITHIN:?}"
                )));
            }
        };
        if answer["ok"] == json!(true) {
            return Ok(answer["value"].clone());
        }
        Err(Forwarded::Refused(
            serde_json::from_value(answer["error"].clone())
                .unwrap_or_else(|_| ErrorData::internal_error("the task request failed", None)),
        ))
    }
}

/// A subscription to `channel`: its messages.
async fn subscribe(
    client: &redis::Client,
    channel: &str,
) -> Result<redis::aio::PubSubStream, String> {
    let mut pubsub = tokio::time::timeout(Duration::from_secs(2), client.get_async_pubsub())
        .await
        .map_err(|_| "no answer within 2 s".to_owned())?
        .map_err(|e| e.to_string())?;
    pubsub.subscribe(channel).await.map_err(|e| e.to_string())?;
    Ok(pubsub.into_on_message())
}
