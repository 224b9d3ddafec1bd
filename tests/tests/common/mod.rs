//! Shared helpers: an in-process rmcp client connected to a toolbox over a tokio duplex pipe,
//! and reviewed JSON snapshots.

#![allow(dead_code)]

use std::path::PathBuf;

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

/// Compares `actual` with the reviewed snapshot `tests/snapshots/<name>.json`.
/// `TOOLWRIGHT_BLESS=1` rewrites the file instead (review the diff before committing).
pub fn assert_snapshot(name: &str, actual: &Value) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("snapshots")
        .join(format!("{name}.json"));
    let rendered = serde_json::to_string_pretty(actual).expect("serializable") + "\n";
    if std::env::var_os("TOOLWRIGHT_BLESS").is_some() {
        std::fs::write(&path, &rendered).expect("write snapshot");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "missing snapshot {}; run with TOOLWRIGHT_BLESS=1 and review it",
            path.display()
        )
    });
    if expected != rendered {
        panic!(
            "snapshot {} differs; run with TOOLWRIGHT_BLESS=1 to rewrite it and review the diff.\n--- actual ---\n{rendered}",
            path.display()
        );
    }
}
