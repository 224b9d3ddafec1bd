//! The robot-arm toolbox over MCP streamable HTTP on loopback, through rmcp's HTTP client.

mod common;

use rmcp::ServiceExt as _;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;
use toolwright::Toolbox;
use toolwright_examples::robot_arm::{RobotArm, SimConfig};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_over_http_share_one_arm() {
    let toolbox = Toolbox::builder(RobotArm::new(SimConfig {
        time_scale: 0.0,
        seed: 3,
        ..SimConfig::default()
    }))
    .with_confirmation(false)
    .build()
    .unwrap();
    let server = toolbox
        .serve_http("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let url = server.url();
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"),
        "{url}"
    );

    let first = ().serve(StreamableHttpClientTransport::from_uri(url.clone())).await.unwrap();
    let second = ().serve(StreamableHttpClientTransport::from_uri(url)).await.unwrap();
    assert_eq!(first.list_all_tools().await.unwrap().len(), 9);

    let r = first
        .call_tool(
            CallToolRequestParams::new("move_arm_to_pose").with_arguments(
                json!({"x": 420, "y": 10, "z": 250})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        )
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{r:?}");
    // The other session sees the same arm.
    let state = second
        .call_tool(CallToolRequestParams::new("get_arm_state"))
        .await
        .unwrap();
    assert_eq!(
        state.structured_content.unwrap()["position"],
        json!({"x": 420.0, "y": 10.0, "z": 250.0})
    );
    let bad = second
        .call_tool(
            CallToolRequestParams::new("grasp_object_force_control").with_arguments(
                json!({"target_position": {"x": 1, "y": 2, "z": 3}, "force": 99})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        )
        .await
        .unwrap();
    assert_eq!(bad.is_error, Some(true));
    let text = &bad.content[0].as_text().unwrap().text;
    assert!(
        text.contains("- force: must be between 5 and 30 N, got 99"),
        "{text}"
    );

    first.cancel().await.unwrap();
    second.cancel().await.unwrap();
    server.shutdown().await.unwrap();
}

/// Every toolwright feature works without a session (`HttpOptions::stateless`, what replicas
/// behind a load balancer without stickiness need): authentication, groups, `describe_tool`,
/// progress, and the policy (a tool's refusal is the same).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stateless_serving_keeps_every_feature() {
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    use toolwright::HttpOptions;
    use toolwright_examples::robot_arm;

    const TOKEN: &str = "stateless-token-0123456789";
    let toolbox = robot_arm::server(SimConfig {
        time_scale: 0.0,
        ..SimConfig::default()
    })
    .only_groups(["arm"])
    .build()
    .unwrap();
    let server = toolbox
        .serve_http_with(
            HttpOptions::new("127.0.0.1:0".parse().unwrap())
                .stateless()
                .bearer_token(TOKEN)
                // A test rig: the motions run unconfirmed (the HTTP options' switch).
                .confirmation(false),
        )
        .await
        .unwrap();

    // No session: the initialize answer carries no Mcp-Session-Id.
    let response = reqwest::Client::new()
        .post(server.url())
        .header("authorization", format!("Bearer {TOKEN}"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "t", "version": "0"}}})
            .to_string(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    assert!(response.headers().get("mcp-session-id").is_none());

    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(server.url()).auth_header(TOKEN),
    );
    let recorder = common::ProgressRecorder::default();
    let client = recorder.clone().serve(transport).await.unwrap();
    let names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert!(names.contains(&"move_arm_to_pose".to_owned()));
    assert!(
        !names.contains(&"get_arm_state".to_owned()),
        "the sensors group is off: {names:?}"
    );
    let described = client
        .call_tool(
            CallToolRequestParams::new("describe_tool").with_arguments(
                json!({"name": "move_arm_to_pose"})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        )
        .await
        .unwrap();
    assert_eq!(
        described.structured_content.unwrap()["name"],
        json!("move_arm_to_pose")
    );
    // A motion declared with `confirm` runs at once: the options turned confirmation off.
    let moved = client
        .call_tool(
            CallToolRequestParams::new("move_arm_to_pose").with_arguments(
                json!({"x": 300, "y": 0, "z": 400})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        )
        .await
        .unwrap();
    assert_eq!(moved.is_error, Some(false), "{moved:?}");
    let plan = client
        .send_request_with_option(
            rmcp::model::ClientRequest::CallToolRequest(rmcp::model::Request::new(
                CallToolRequestParams::new("follow_trajectory").with_arguments(
                    json!({"waypoints": [{"x": 400, "y": 0, "z": 200}, {"x": 400, "y": 100, "z": 200}], "speed": 1.0})
                        .as_object()
                        .unwrap()
                        .clone(),
                ),
            )),
            rmcp::service::PeerRequestOptions::no_options(),
        )
        .await
        .unwrap()
        .await_response()
        .await
        .unwrap();
    match plan {
        rmcp::model::ServerResult::CallToolResult(r) => {
            assert_eq!(r.is_error, Some(false), "{r:?}")
        }
        other => panic!("{other:?}"),
    }
    // The notifications are handled on the client's own task: they may land after the result.
    let seen = std::sync::Arc::clone(&recorder.0);
    assert!(
        common::eventually(|| seen.lock().unwrap().len() == 2).await,
        "a progress notification per waypoint: {:?}",
        recorder.0.lock().unwrap()
    );
    let refused = client
        .call_tool(
            CallToolRequestParams::new("move_arm_to_pose").with_arguments(
                json!({"x": 9000, "y": 0, "z": 300})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        )
        .await
        .unwrap();
    assert_eq!(refused.is_error, Some(true));
    let _ = client.cancel().await;
}
