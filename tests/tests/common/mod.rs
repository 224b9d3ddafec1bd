//! Shared helpers: an in-process rmcp client connected to a toolbox over a tokio duplex pipe,
//! and reviewed JSON snapshots.

#![allow(dead_code)]

pub mod flood;
pub mod http;
pub mod raw;
pub mod redis;

use std::path::{Path, PathBuf};

use rmcp::ServiceExt as _;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use serde_json::Value;
use toolwright::Toolbox;

/// A connected rmcp client.
pub type Client = RunningService<RoleClient, ()>;

/// Serves `toolbox` on one end of a duplex pipe and connects rmcp's client to the other.
pub async fn connect<S: Send + Sync + 'static>(toolbox: Toolbox<S>) -> Client {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let server = toolbox.serve(server_io).await.expect("server starts");
        let _ = server.waiting().await;
    });
    ().serve(client_io).await.expect("client connects")
}

/// Serves `toolbox` on one end of a duplex pipe and connects `client` to the other: on protocol
/// 2026-07-28 (`server/discover`, stateless) when `on_2026`, else 2025-11-25 (`initialize`).
pub async fn connect_client<S: Send + Sync + 'static, H: rmcp::ClientHandler>(
    toolbox: Toolbox<S>,
    client: H,
    on_2026: bool,
) -> RunningService<RoleClient, H> {
    use rmcp::model::ProtocolVersion;
    use rmcp::service::{ClientLifecycleMode, ClientServiceExt as _};
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let server = toolbox.serve(server_io).await.expect("server starts");
        let _ = server.waiting().await;
    });
    if !on_2026 {
        return client.serve(client_io).await.expect("client connects");
    }
    client
        .serve_with_lifecycle(
            client_io,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("client connects")
}

/// Calls a tool with JSON arguments.
pub async fn call<H: rmcp::ClientHandler>(
    client: &RunningService<RoleClient, H>,
    name: &str,
    args: Value,
) -> CallToolResult {
    let mut params = CallToolRequestParams::new(name.to_owned());
    if let Value::Object(map) = args {
        params = params.with_arguments(map);
    }
    client
        .call_tool(params)
        .await
        .expect("tools/call succeeds at the protocol level")
}

/// The text of a result's single text block.
pub fn text(result: &CallToolResult) -> String {
    assert_eq!(
        result.content.len(),
        1,
        "expected one content block: {result:?}"
    );
    result.content[0]
        .as_text()
        .map(|t| t.text.clone())
        .unwrap_or_else(|| panic!("not a text block: {result:?}"))
}

/// One progress notification: progress, total, message.
pub type Progress = (f64, Option<f64>, Option<String>);

/// A client that records the progress notifications it receives, in order.
#[derive(Clone, Default)]
pub struct ProgressRecorder(pub std::sync::Arc<std::sync::Mutex<Vec<Progress>>>);

impl rmcp::ClientHandler for ProgressRecorder {
    async fn on_progress(
        &self,
        params: rmcp::model::ProgressNotificationParam,
        _context: rmcp::service::NotificationContext<RoleClient>,
    ) {
        self.0
            .lock()
            .unwrap()
            .push((params.progress, params.total, params.message));
    }
}

/// Serves `toolbox` and connects a [`ProgressRecorder`] client to it.
pub async fn connect_recording<S: Send + Sync + 'static>(
    toolbox: Toolbox<S>,
) -> (
    RunningService<RoleClient, ProgressRecorder>,
    ProgressRecorder,
) {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let server = toolbox.serve(server_io).await.expect("server starts");
        let _ = server.waiting().await;
    });
    let recorder = ProgressRecorder::default();
    let client = recorder
        .clone()
        .serve(client_io)
        .await
        .expect("client connects");
    (client, recorder)
}

/// Calls a tool through a request that carries a progress token (rmcp adds one to every
/// request sent this way) and waits for the result.
pub async fn call_with_progress<H: rmcp::ClientHandler>(
    client: &RunningService<RoleClient, H>,
    name: &str,
    args: Value,
) -> CallToolResult {
    let mut params = CallToolRequestParams::new(name.to_owned());
    if let Value::Object(map) = args {
        params = params.with_arguments(map);
    }
    let handle = client
        .send_request_with_option(
            rmcp::model::ClientRequest::CallToolRequest(rmcp::model::Request::new(params)),
            rmcp::service::PeerRequestOptions::no_options(),
        )
        .await
        .expect("request sent");
    match handle.await_response().await.expect("response") {
        rmcp::model::ServerResult::CallToolResult(r) => r,
        other => panic!("unexpected response {other:?}"),
    }
}

/// Waits (bounded) until `check` holds.
pub async fn eventually(mut check: impl FnMut() -> bool) -> bool {
    for _ in 0..400 {
        if check() {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    check()
}

/// Compares `actual` with the reviewed snapshot `tests/snapshots/<name>.json`.
/// `TOOLWRIGHT_SNAPSHOT=overwrite` rewrites the file instead (review the diff before committing).
pub fn assert_snapshot(name: &str, actual: &Value) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("snapshots")
        .join(format!("{name}.json"));
    assert_json_file(&path, actual);
}

/// Compares `actual`, pretty-printed, with the reviewed JSON file at `path`, byte for byte.
/// `TOOLWRIGHT_SNAPSHOT=overwrite` rewrites the file instead (review the diff before committing).
pub fn assert_json_file(path: &Path, actual: &Value) {
    let rendered = serde_json::to_string_pretty(actual).expect("serializable") + "\n";
    if std::env::var(toolwright::export::SNAPSHOT_ENV).is_ok_and(|v| v == "overwrite") {
        std::fs::write(path, &rendered).expect("write snapshot");
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_else(|_| {
        panic!(
            "missing snapshot {}; run with TOOLWRIGHT_SNAPSHOT=overwrite and review it",
            path.display()
        )
    });
    if expected != rendered {
        panic!(
            "snapshot {} differs; run with TOOLWRIGHT_SNAPSHOT=overwrite to rewrite it and review the diff.\n--- actual ---\n{rendered}",
            path.display()
        );
    }
}

/// The robot arm's committed docs, `examples/docs/robot_arm/` (tools.json, TOOLS.md and the
/// OpenAI, Anthropic and Gemini dialects): the one reviewed copy of the tools it publishes,
/// which the README shows as `export --out docs/` output. robot_arm.rs and cli.rs compare with
/// it, like examples/tests/docs_drift.rs; export.rs runs the provider checks on it.
pub fn robot_arm_docs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/docs/robot_arm")
}

/// Builds the robot-arm example binary (cached after the first build) and returns its path.
pub fn robot_arm_binary() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let status = std::process::Command::new(cargo)
        .args([
            "build",
            "--quiet",
            "-p",
            "toolwright-examples",
            "--example",
            "robot_arm",
        ])
        .current_dir(&workspace)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building the robot_arm example failed");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| workspace.join("target"), PathBuf::from);
    let binary = target.join("debug").join("examples").join("robot_arm");
    assert!(binary.exists(), "{} not found", binary.display());
    binary
}

/// A number from the environment (exploratory runs widen a test with it), or `default`.
pub fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name} must be a number, got {v:?}"))
        })
        .unwrap_or(default)
}

/// Renders `tools` in the OpenAI, Anthropic and Gemini dialects, asserts each passes its
/// dialect check and carries no private `x-toolwright-` keyword, and returns each rendering as
/// text for the caller's own assertions.
pub fn checked_dialect_exports(
    tools: &[rmcp::model::Tool],
) -> Vec<(toolwright::export::Format, String)> {
    use toolwright::export::{self, Format, check_anthropic, check_gemini, check_openai};
    [
        (Format::OpenAi, check_openai as fn(&Value) -> Vec<String>),
        (Format::Anthropic, check_anthropic),
        (Format::Gemini, check_gemini),
    ]
    .into_iter()
    .map(|(format, check)| {
        let rendered: Value = serde_json::from_str(&export::render(tools, format)).unwrap();
        let violations = check(&rendered);
        assert!(violations.is_empty(), "{format:?}: {violations:#?}");
        let text = rendered.to_string();
        assert!(!text.contains("x-toolwright-"), "{format:?}: {text}");
        (format, text)
    })
    .collect()
}
