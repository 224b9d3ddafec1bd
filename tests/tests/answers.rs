//! Every message answered (issue 35): each kind of bad message a client can send, over stdio
//! to the robot-arm binary and over HTTP to the guard, on both protocol revisions, gets its
//! JSON-RPC error with the right code and id; a ping and a `tools/call` after it are answered;
//! stdout carries nothing but JSON-RPC; and a 20 MB line leaves the server's resident memory
//! within 64 MB of where it was.

mod common;

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
use toolwright::{HttpOptions, Toolbox};
use toolwright_examples::robot_arm::{RobotArm, SimConfig};

/// A bad message: what it is, its bytes (`ID` replaced by its request id), and the error it
/// gets: the code, and whether the reply carries the id (else null).
struct Bad {
    what: &'static str,
    bytes: Vec<u8>,
    code: i64,
    echoes_id: bool,
}

fn bad(what: &'static str, bytes: impl Into<Vec<u8>>, code: i64, echoes_id: bool) -> Bad {
    Bad {
        what,
        bytes: bytes.into(),
        code,
        echoes_id,
    }
}

/// The issue's list: each kind of message that got no answer, or one the client could not
/// match to its request.
fn bad_messages() -> Vec<Bad> {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    vec![
        bad("not JSON", "hello, arm", -32700, false),
        bad(
            "invalid UTF-8",
            b"\xff\xfe{\"jsonrpc\"".to_vec(),
            -32700,
            false,
        ),
        bad(
            "truncated JSON",
            r#"{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"get_arm_st"#,
            -32700,
            false,
        ),
        bad("a 100,000-deep array", deep, -32600, false),
        bad(
            "an id and no method",
            r#"{"jsonrpc":"2.0","id":ID}"#,
            -32600,
            true,
        ),
        bad(
            "jsonrpc 1.0",
            r#"{"jsonrpc":"1.0","id":ID,"method":"tools/list"}"#,
            -32600,
            true,
        ),
        bad(
            "a number for a method",
            r#"{"jsonrpc":"2.0","id":ID,"method":42}"#,
            -32600,
            true,
        ),
        bad(
            "a string for params",
            r#"{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":"x"}"#,
            -32602,
            true,
        ),
        bad("an empty batch", "[]", -32600, false),
    ]
}

/// `bytes` with each `ID` replaced by `id`.
fn with_id(bytes: &[u8], id: u64) -> Vec<u8> {
    let id = id.to_string();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"ID") {
            out.extend_from_slice(id.as_bytes());
            i += 2;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

/// `_meta` of a request on protocol 2026-07-28.
fn meta_2026() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "answers", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

// ---------------------------------------------------------------------------------------------
// stdio
// ---------------------------------------------------------------------------------------------

/// The robot-arm binary serving stdio, driven by raw lines.
struct Served {
    child: tokio::process::Child,
    stdin: tokio::process::ChildStdin,
    lines: tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
    version: &'static str,
    next_id: u64,
}

impl Served {
    async fn start(version: &'static str) -> Served {
        let mut child = tokio::process::Command::new(common::robot_arm_binary())
            .args(["serve", "--confirm=off"])
            .env("ROBOT_ARM_TIME_SCALE", "0")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("the robot arm starts");
        let mut server = Served {
            stdin: child.stdin.take().unwrap(),
            lines: BufReader::new(child.stdout.take().unwrap()).lines(),
            child,
            version,
            next_id: 1000,
        };
        if version == "2025-11-25" {
            let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "answers", "version": "0"}}});
            server.send(init.to_string().as_bytes()).await;
            assert!(server.reply(1).await["result"]["serverInfo"].is_object());
            server
                .send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
                .await;
        } else {
            let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                "params": {"_meta": meta_2026()}});
            server.send(discover.to_string().as_bytes()).await;
            assert!(server.reply(1).await["result"]["supportedVersions"].is_array());
        }
        server
    }

    async fn send(&mut self, line: &[u8]) {
        self.stdin.write_all(line).await.expect("write");
        self.stdin.write_all(b"\n").await.expect("write");
        self.stdin.flush().await.expect("flush");
    }

    /// The next line on stdout, which must be a JSON-RPC message.
    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(30), self.lines.next_line())
            .await
            .expect("an answer within 30 s")
            .expect("read")
            .expect("the server is still there");
        let message: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout carries only JSON-RPC: {e}: {line:?}"));
        assert_eq!(message["jsonrpc"], "2.0", "{line}");
        message
    }

    /// Lines until the reply to `id`, which it returns; the others must be notifications.
    async fn reply(&mut self, id: u64) -> Value {
        loop {
            let message = self.next().await;
            if message["id"] == json!(id) {
                return message;
            }
            assert!(message.get("id").is_none(), "unexpected: {message}");
        }
    }

    /// Sends a request with this wire's `_meta`; its id.
    async fn request(&mut self, method: &str, params: Value) -> u64 {
        self.next_id += 1;
        let mut params = params;
        if self.version == "2026-07-28" {
            params["_meta"] = meta_2026();
        }
        let message =
            json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params});
        self.send(message.to_string().as_bytes()).await;
        self.next_id
    }

    /// Sends a ping and a `tools/call`, and collects everything up to both replies (and,
    /// when `waiting_for` is given, until a reply matching it has come too).
    async fn ping_and_call(
        &mut self,
        mut waiting_for: Option<&dyn Fn(&Value) -> bool>,
    ) -> Vec<Value> {
        let ping = self.request("ping", json!({})).await;
        let call = self
            .request(
                "tools/call",
                json!({"name": "get_arm_state", "arguments": {}}),
            )
            .await;
        let (mut pinged, mut called) = (false, false);
        let mut others = Vec::new();
        while !(pinged && called && waiting_for.is_none()) {
            let message = self.next().await;
            if message["id"] == json!(ping) {
                // Protocol 2026-07-28 has no ping (SEP-2577): rmcp answers it `-32601` once
                // the connection has spoken that revision.
                let answered = message["result"].is_object()
                    || (self.version == "2026-07-28" && message["error"]["code"] == json!(-32601));
                assert!(answered, "the ping: {message}");
                pinged = true;
            } else if message["id"] == json!(call) {
                assert_eq!(message["result"]["isError"], json!(false), "{message}");
                called = true;
            } else {
                if waiting_for.is_some_and(|w| w(&message)) {
                    waiting_for = None;
                }
                others.push(message);
            }
        }
        others
    }

    /// Resident memory now and at its peak, in KiB.
    fn rss_kib(&self) -> (u64, u64) {
        let pid = self.child.id().expect("running");
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        (field("VmRSS:"), field("VmHWM:"))
    }
}

async fn stdio_answers_every_message(version: &'static str) {
    let mut server = Served::start(version).await;
    let others = server.ping_and_call(None).await;
    assert!(others.is_empty(), "{others:?}");
    for case in bad_messages() {
        server.next_id += 1;
        let id = server.next_id;
        server.send(&with_id(&case.bytes, id)).await;
        let want = if case.echoes_id {
            json!(id)
        } else {
            Value::Null
        };
        let matches = |m: &Value| m.get("error").is_some() && m["id"] == want;
        let others = server.ping_and_call(Some(&matches)).await;
        assert_eq!(others.len(), 1, "{version}, {}: {others:?}", case.what);
        assert_eq!(
            others[0]["error"]["code"],
            json!(case.code),
            "{version}, {}: {others:?}",
            case.what
        );
        assert_eq!(
            others[0]["id"], want,
            "{version}, {}: {others:?}",
            case.what
        );
    }
    // A response is never answered (our own error, echoed back by a confused client).
    server
        .send(br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#)
        .await;
    let others = server.ping_and_call(None).await;
    assert!(others.is_empty(), "a response got an answer: {others:?}");

    // A 20 MB request: refused with its id as it streams in, never held whole.
    let (before, _) = server.rss_kib();
    server.next_id += 1;
    let id = server.next_id;
    let head = format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"get_arm_state","arguments":{{"pad":""#
    );
    server.stdin.write_all(head.as_bytes()).await.unwrap();
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..20 {
        server.stdin.write_all(&chunk).await.unwrap();
    }
    server.send(b"\"}}}").await;
    let matches = |m: &Value| m["id"] == json!(id);
    let others = server.ping_and_call(Some(&matches)).await;
    assert_eq!(others.len(), 1, "{others:?}");
    assert_eq!(others[0]["error"]["code"], json!(-32600), "{others:?}");
    let message = others[0]["error"]["message"].as_str().unwrap();
    assert!(message.contains("larger than 1114112 bytes"), "{message}");
    let (after, peak) = server.rss_kib();
    println!(
        "{version}: a 20 MB line: resident {before} KiB before, {after} KiB after, peak {peak} KiB"
    );
    assert!(
        peak < before + 64 * 1024,
        "{version}: the peak resident size grew by {} KiB",
        peak - before
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_answers_every_message_on_2025_11_25() {
    stdio_answers_every_message("2025-11-25").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_answers_every_message_on_2026_07_28() {
    stdio_answers_every_message("2026-07-28").await;
}

// ---------------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------------

const TOKEN: &str = "answers-token-0123456789abcdef";

fn arm() -> Toolbox<RobotArm> {
    Toolbox::builder(RobotArm::new(SimConfig {
        time_scale: 0.0,
        ..SimConfig::default()
    }))
    .with_confirmation(false)
    .build()
    .unwrap()
}

/// A POST of raw `body` with the headers a client of `version` sends (and the session, and the
/// token); the status, the content type and the body.
async fn post(
    url: &str,
    version: &str,
    session: Option<&str>,
    token: Option<&str>,
    body: Vec<u8>,
) -> (u16, String, String) {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", version);
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    // Protocol 2026-07-28 names a request's method (and a call's tool) in headers too.
    if let Ok(message) = serde_json::from_slice::<Value>(&body)
        && let Some(method) = message["method"].as_str()
        && version == "2026-07-28"
    {
        request = request.header("mcp-method", method);
        if let Some(name) = message["params"]["name"].as_str() {
            request = request.header("mcp-name", name);
        }
    }
    let response = match request.body(body).send().await {
        Ok(response) => response,
        // The server refused the body before reading all of it, and closed the connection.
        Err(e) if e.is_request() => return (0, String::new(), e.to_string()),
        Err(e) => panic!("no answer: {e}"),
    };
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, content_type, response.text().await.unwrap())
}

/// The reply to `id` in a body (JSON, or an event stream's data).
fn reply(text: &str, id: u64) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| {
        text.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .find(|m| m["id"] == json!(id))
            .unwrap_or_else(|| panic!("no reply to {id} in {text:?}"))
    })
}

async fn http_answers_every_message(token: Option<&str>) {
    let mut options = HttpOptions::new("127.0.0.1:0".parse().unwrap());
    if let Some(token) = token {
        options = options.bearer_token(token);
    }
    let server = arm().serve_http_with(options).await.expect("serves");
    let url = server.url();
    for version in ["2025-11-25", "2026-07-28"] {
        let session = if version == "2025-11-25" {
            let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": version, "capabilities": {},
                "clientInfo": {"name": "answers", "version": "0"}}});
            let mut request = reqwest::Client::new()
                .post(&url)
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream");
            if let Some(token) = token {
                request = request.header("authorization", format!("Bearer {token}"));
            }
            let response = request.body(init.to_string()).send().await.unwrap();
            let session = response.headers()["mcp-session-id"]
                .to_str()
                .unwrap()
                .to_owned();
            drop(response.text().await);
            let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
            let (status, _, _) = post(
                &url,
                version,
                Some(&session),
                token,
                initialized.to_string().into_bytes(),
            )
            .await;
            assert_eq!(status, 202);
            Some(session)
        } else {
            None
        };
        let session = session.as_deref();
        let mut id = 100;
        for case in bad_messages() {
            id += 1;
            let body = with_id(&case.bytes, id);
            let (status, content_type, text) = post(&url, version, session, token, body).await;
            let what = format!("{version}, token {}, {}", token.is_some(), case.what);
            // Over HTTP, a body with more values than the limit is refused before parsing.
            let expected = if case.what.contains("deep") { 413 } else { 400 };
            assert_eq!(status, expected, "{what}: {text}");
            assert!(
                content_type.starts_with("application/json"),
                "{what}: {content_type}"
            );
            let error: Value =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{what}: {e}: {text}"));
            assert_eq!(error["jsonrpc"], "2.0", "{what}: {text}");
            assert_eq!(error["error"]["code"], json!(case.code), "{what}: {text}");
            let want = if case.echoes_id {
                json!(id)
            } else {
                Value::Null
            };
            assert_eq!(error["id"], want, "{what}: {text}");
            // A ping and a call after it are answered.
            let mut ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {}});
            let mut call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "get_arm_state", "arguments": {}}});
            if version == "2026-07-28" {
                ping["params"]["_meta"] = meta_2026();
                call["params"]["_meta"] = meta_2026();
            }
            let (status, _, text) =
                post(&url, version, session, token, ping.to_string().into_bytes()).await;
            // Protocol 2026-07-28 has no ping (SEP-2577): rmcp answers it `-32601`, as `404`.
            let pong = reply(&text, 1);
            let answered = (status == 200 && pong.get("result").is_some())
                || (version == "2026-07-28" && pong["error"]["code"] == json!(-32601));
            assert!(answered, "{what}: the ping: {status} {text}");
            let (status, _, text) =
                post(&url, version, session, token, call.to_string().into_bytes()).await;
            assert_eq!(status, 200, "{what}: the call: {text}");
            assert_eq!(
                reply(&text, 2)["result"]["isError"],
                json!(false),
                "{what}: {text}"
            );
        }
        // Too many values, within the byte limit: 413, with a JSON-RPC error.
        let dense = format!("[{}{{}}]", "{},".repeat(30_000)).into_bytes();
        let (status, content_type, text) = post(&url, version, session, token, dense).await;
        assert_eq!(status, 413, "{text}");
        assert!(
            content_type.starts_with("application/json"),
            "{content_type}"
        );
        let error: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(error["error"]["code"], json!(-32600), "{text}");
        // Too large: 413 with a JSON-RPC error, unless the server hung up on the rest first.
        let large = vec![b' '; 2 << 20];
        let (status, content_type, text) = post(&url, version, session, token, large).await;
        assert!(status == 413 || status == 0, "{status} {text}");
        if status == 413 {
            assert!(
                content_type.starts_with("application/json"),
                "{content_type}"
            );
            let error: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(error["error"]["code"], json!(-32600), "{text}");
        }
    }
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_answers_every_body_with_a_json_rpc_error_without_authentication() {
    http_answers_every_message(None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_answers_every_body_with_a_json_rpc_error_with_a_token() {
    http_answers_every_message(Some(TOKEN)).await;
}
