//! The robot-arm toolbox over MCP streamable HTTP on loopback, through rmcp's HTTP client.

use rmcp::ServiceExt as _;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;
use toolwright::Toolbox;
use toolwright_examples::robot_arm::{RobotArm, SimConfig};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_over_http_share_one_arm() {
    let toolbox = Toolbox::new(RobotArm::new(SimConfig {
        time_scale: 0.0,
        seed: 3,
        ..SimConfig::default()
    }));
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
    assert_eq!(first.list_all_tools().await.unwrap().len(), 7);

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
