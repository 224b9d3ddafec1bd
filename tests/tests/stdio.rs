//! The robot-arm example binary over stdio, driven by rmcp's client as a child process: the
//! protocol works end to end, and logs (debug level, plenty of them) never reach stdout.

mod common;

use std::process::Stdio;

use rmcp::ServiceExt as _;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::json;

#[tokio::test]
async fn robot_arm_serves_over_stdio_with_logs_on_stderr() {
    let binary = common::robot_arm_binary();
    let stderr_log =
        std::env::temp_dir().join(format!("toolwright-stdio-{}.log", std::process::id()));
    let log_file = std::fs::File::create(&stderr_log).unwrap();
    let mut command = tokio::process::Command::new(&binary);
    // A test rig: no one confirms the motions.
    command
        .args(["serve", "--confirm=off"])
        .env("RUST_LOG", "debug")
        .env("ROBOT_ARM_TIME_SCALE", "0");
    let (transport, _stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::from(log_file))
        .spawn()
        .expect("spawn the server");
    let client = ().serve(transport).await.expect("initialize over stdio");

    let info = client.peer_info().expect("server info");
    assert_eq!(
        info.server_info.as_ref().map(|i| i.name.as_str()),
        Some("toolwright-examples")
    );
    assert!(
        info.instructions
            .as_deref()
            .unwrap_or_default()
            .contains("get_arm_state")
    );

    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 10, "nine robot tools and describe_tool");
    for _ in 0..3 {
        let r = client
            .call_tool(
                CallToolRequestParams::new("move_arm_to_pose").with_arguments(
                    json!({"x": 350, "y": 50, "z": 300})
                        .as_object()
                        .unwrap()
                        .clone(),
                ),
            )
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(false), "{r:?}");
        assert!(
            r.meta
                .as_ref()
                .and_then(|m| m.0.get("io.toolwright/traceId"))
                .is_some(),
            "the trace id comes back in _meta"
        );
        let bad = client
            .call_tool(
                CallToolRequestParams::new("move_arm_to_pose").with_arguments(
                    json!({"x": 350, "y": 50, "z": 300, "speed": 2})
                        .as_object()
                        .unwrap()
                        .clone(),
                ),
            )
            .await
            .unwrap();
        assert_eq!(bad.is_error, Some(true));
    }
    client.cancel().await.unwrap();

    let log = std::fs::read_to_string(&stderr_log).unwrap();
    let _ = std::fs::remove_file(&stderr_log);
    assert!(log.contains("MCP session started on stdio"), "{log}");
    assert!(
        log.contains("tool_call"),
        "calls are logged in their span on stderr: {log}"
    );
    assert!(
        log.contains("tool call finished") && log.contains("outcome=") && log.contains("elapsed="),
        "each call's outcome and duration are logged: {log}"
    );
    assert!(
        !log.contains("Waiting for a client on stdin"),
        "no banner when stdin is not a terminal"
    );
}
