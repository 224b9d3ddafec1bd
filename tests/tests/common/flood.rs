//! Floods at the HTTP door (issue 43), for the integration test (tests/tests/flood.rs) and the
//! bench (benches/stop_under_flood.rs): half-open connections held and refilled, and calls left
//! waiting for a confirmation no one gives; and a fresh client's stop.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::sync::watch;

/// A flood running until [`Flood::stop`].
pub struct Flood {
    stop: watch::Sender<bool>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    /// Connections the flood opened (refills included).
    pub opened: Arc<AtomicU64>,
    /// Requests it had answered (refusals included).
    pub answered: Arc<AtomicU64>,
}

impl Flood {
    /// `n` connections to `at`, each having sent only `POST /mcp HTTP/1.1\r\nHost: ..\r\n`, a
    /// new one opened whenever the server closes one: a client with no token holding the door.
    pub fn half_open(at: SocketAddr, n: usize) -> Flood {
        let (stop, stopped) = watch::channel(false);
        let opened = Arc::new(AtomicU64::new(0));
        let tasks = (0..n)
            .map(|_| {
                let (mut stopped, opened) = (stopped.clone(), Arc::clone(&opened));
                tokio::spawn(async move {
                    let mut buf = [0u8; 512];
                    while !*stopped.borrow() {
                        let Ok(mut stream) = tokio::net::TcpStream::connect(at).await else {
                            tokio::time::sleep(Duration::from_millis(5)).await;
                            continue;
                        };
                        opened.fetch_add(1, Ordering::Relaxed);
                        let head = format!("POST /mcp HTTP/1.1\r\nHost: {at}\r\n");
                        if stream.write_all(head.as_bytes()).await.is_err() {
                            continue;
                        }
                        // Held until the server closes it (or answers anything), then replaced.
                        tokio::select! {
                            _ = stream.read(&mut buf) => {}
                            _ = stopped.changed() => return,
                        }
                    }
                })
            })
            .collect();
        Flood {
            stop,
            tasks,
            opened,
            answered: Arc::new(AtomicU64::new(0)),
        }
    }

    /// `n` calls of `tool` with `arguments` that ask for confirmation, sent by a client without
    /// a token over protocol 2025-11-25 in sessions of `per_session` calls, each left waiting:
    /// the event stream of each is held open and its question never answered. A call refused
    /// at once, or whose stream ends, is sent again after `retry`.
    pub fn pending_confirmations(
        url: &str,
        tool: &str,
        arguments: Value,
        n: usize,
        per_session: usize,
        retry: Duration,
    ) -> Flood {
        let (stop, stopped) = watch::channel(false);
        let opened = Arc::new(AtomicU64::new(0));
        let answered = Arc::new(AtomicU64::new(0));
        let sessions = n.div_ceil(per_session.max(1));
        let tasks = (0..sessions)
            .map(|s| {
                let calls = per_session.min(n - s * per_session);
                let (url, tool, arguments) = (url.to_owned(), tool.to_owned(), arguments.clone());
                let (stopped, opened, answered) =
                    (stopped.clone(), Arc::clone(&opened), Arc::clone(&answered));
                tokio::spawn(async move {
                    let Some(session) = open_session(&url).await else {
                        return;
                    };
                    let mut calls_of_session = Vec::new();
                    for k in 0..calls {
                        let (url, tool, arguments, session) =
                            (url.clone(), tool.clone(), arguments.clone(), session.clone());
                        let (mut stopped, opened, answered) =
                            (stopped.clone(), Arc::clone(&opened), Arc::clone(&answered));
                        calls_of_session.push(tokio::spawn(async move {
                            let client = reqwest::Client::new();
                            let mut id = 1000 + k as u64;
                            while !*stopped.borrow() {
                                id += 1000;
                                let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                                    "params": {"name": tool, "arguments": arguments}});
                                opened.fetch_add(1, Ordering::Relaxed);
                                let sent = client
                                    .post(&url)
                                    .header("content-type", "application/json")
                                    .header("accept", "application/json, text/event-stream")
                                    .header("mcp-protocol-version", "2025-11-25")
                                    .header("mcp-session-id", &session)
                                    .body(call.to_string())
                                    .send();
                                let held = async {
                                    if let Ok(mut response) = sent.await {
                                        // Read, never answering its question, until it ends.
                                        while let Ok(Some(_)) = response.chunk().await {}
                                    }
                                };
                                tokio::select! {
                                    () = held => {}
                                    _ = stopped.changed() => return,
                                }
                                answered.fetch_add(1, Ordering::Relaxed);
                                tokio::time::sleep(retry).await;
                            }
                        }));
                    }
                    for call in calls_of_session {
                        let _ = call.await;
                    }
                })
            })
            .collect();
        Flood {
            stop,
            tasks,
            opened,
            answered,
        }
    }

    /// Stops the flood and waits for its tasks: the connections it opened.
    pub async fn stop(self) -> u64 {
        let _ = self.stop.send(true);
        for task in self.tasks {
            let _ = tokio::time::timeout(Duration::from_secs(10), task).await;
        }
        self.opened.load(Ordering::Relaxed)
    }
}

/// A protocol 2025-11-25 session opened by a client without a token that can answer
/// elicitation: its id.
pub async fn open_session(url: &str) -> Option<String> {
    let client = reqwest::Client::new();
    for _ in 0..50 {
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "flood", "version": "0"}}});
        let response = client
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(initialize.to_string())
            .send()
            .await;
        let Ok(response) = response else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        let Some(session) = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
        else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        drop(response.text().await);
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let done = client
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-11-25")
            .header("mcp-session-id", &session)
            .body(initialized.to_string())
            .send()
            .await
            .ok()?;
        if done.status().as_u16() == 202 {
            return Some(session);
        }
    }
    None
}

/// What a fresh client's stop got: its answer (the `tools/call` result) and how long it took,
/// or why it failed.
pub struct Stopped {
    pub result: Result<Value, String>,
    pub took: Duration,
}

/// A fresh client (a new connection; `token` if the server wants one) calls the stop tool
/// `stop` once on protocol 2026-07-28 (stateless: no session to open first), with `within` for
/// the whole exchange.
pub async fn fresh_stop(url: &str, token: Option<&str>, stop: &str, within: Duration) -> Stopped {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .unwrap();
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": stop, "arguments": {}, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "operator", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {}}}});
    let started = Instant::now();
    let mut request = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", stop)
        .body(call.to_string());
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let answered = tokio::time::timeout(within, async {
        let response = request.send().await.map_err(|e| format!("{e:?}"))?;
        let status = response.status().as_u16();
        let text = response.text().await.map_err(|e| format!("{e:?}"))?;
        if status != 200 {
            return Err(format!("{status}: {text}"));
        }
        let reply = super::http::reply(&text, 1);
        reply
            .get("result")
            .cloned()
            .ok_or_else(|| format!("no result: {reply}"))
    })
    .await;
    Stopped {
        result: answered.unwrap_or_else(|_| Err(format!("no answer within {within:?}"))),
        took: started.elapsed(),
    }
}
