//! A handler of the user's own (rmcp resources and prompts) that delegates its tools to a
//! toolbox (`delegate_tools!`) and is served the toolbox's way
//! (`ToolboxBuilder::with_handler`): over a transport, over HTTP and from the command line, the
//! rest of the protocol answers, and the tools keep what toolwright adds (validation, groups,
//! `describe_tool`, the command line's settings).

mod common;

use rmcp::ServiceExt as _;
use rmcp::model::{
    CallToolRequestParams, GetPromptRequestParams, GetPromptResponse, GetPromptResult,
    ListPromptsResult, ListResourcesResult, PaginatedRequestParams, Prompt, PromptMessage,
    PromptsCapability, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    Resource, ResourceContents, ResourcesCapability, Role, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::json;
use toolwright::{HttpOptions, Toolbox, ToolboxBuilder, delegate_tools, tool, tools};

/// Move the arm.
#[tool(idempotent, group = "arm")]
fn move_to(
    /// Height above the table.
    #[param(unit = "mm", range = 0.0..=500.0)]
    z: f64,
) -> String {
    format!("at {z} mm")
}

/// Read the sensor.
#[tool(read_only, group = "sensors")]
fn read() -> u32 {
    7
}

#[derive(Clone)]
struct Robot {
    tools: Toolbox<()>,
}

impl ServerHandler for Robot {
    delegate_tools!(tools);

    fn get_info(&self) -> ServerConfig {
        let mut info = self.tools.get_info();
        info.capabilities.resources = Some(ResourcesCapability::default());
        info.capabilities.prompts = Some(PromptsCapability::default());
        info
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new("robot://calibration", "calibration")
                .with_description("The arm's calibration"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        Ok(
            ReadResourceResult::new(vec![ResourceContents::text("offset 2 mm", request.uri)])
                .into(),
        )
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            "pick_and_place",
            Some("Pick an object and place it"),
            None,
        )]))
    }

    async fn get_prompt(
        &self,
        _request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            "Call get_arm_state first.",
        )])
        .into())
    }
}

fn toolbox() -> ToolboxBuilder<()> {
    tools![move_to, read].with_describe_tool()
}

async fn exercise<S: rmcp::service::Service<rmcp::RoleClient>>(
    client: &rmcp::service::RunningService<rmcp::RoleClient, S>,
) {
    let info = client.peer_info().expect("initialized");
    assert!(
        info.capabilities.tools.is_some(),
        "the toolbox's capabilities"
    );
    assert!(info.capabilities.resources.is_some(), "and the handler's");

    let resources = client.list_resources(None).await.unwrap();
    assert_eq!(resources.resources[0].uri, "robot://calibration");
    let read = client
        .read_resource(ReadResourceRequestParams::new("robot://calibration"))
        .await
        .unwrap();
    assert!(matches!(
        &read.contents[0],
        ResourceContents::TextResourceContents { text, .. } if text == "offset 2 mm"
    ));
    let prompts = client.list_prompts(None).await.unwrap();
    assert_eq!(prompts.prompts[0].name, "pick_and_place");

    let tools = client.list_tools(None).await.unwrap();
    let names: Vec<&str> = tools.tools.iter().map(|t| &*t.name).collect();
    assert_eq!(names, ["move_to", "read", "describe_tool"]);
    // Validation is toolwright's.
    let r = client
        .call_tool(
            CallToolRequestParams::new("move_to")
                .with_arguments(json!({"z": 900}).as_object().cloned().unwrap()),
        )
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(
        r.content[0]
            .as_text()
            .unwrap()
            .text
            .contains("z: must be between 0 and 500 mm, got 900"),
        "{r:?}"
    );
    let r = client
        .call_tool(
            CallToolRequestParams::new("describe_tool")
                .with_arguments(json!({"name": "read"}).as_object().cloned().unwrap()),
        )
        .await
        .unwrap();
    assert_eq!(r.structured_content.unwrap()["name"], "read");
}

#[tokio::test]
async fn a_handler_of_ones_own_serves_the_rest_of_the_protocol_over_a_transport() {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let served = toolbox()
        .with_handler(|tools| Robot { tools })
        .build()
        .unwrap();
    tokio::spawn(async move {
        let server = served.serve(server_io).await.expect("server starts");
        let _ = server.waiting().await;
    });
    let client = ().serve(client_io).await.unwrap();
    exercise(&client).await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn and_over_http_with_groups_applied_per_toolbox() {
    let served = toolbox()
        .only_groups(["arm"])
        .with_handler(|tools| Robot { tools })
        .build()
        .unwrap();
    let server = served
        .serve_http_with(HttpOptions::new("127.0.0.1:0".parse().unwrap()))
        .await
        .unwrap();
    let transport = rmcp::transport::StreamableHttpClientTransport::from_uri(server.url());
    let client = ().serve(transport).await.unwrap();
    let tools = client.list_tools(None).await.unwrap();
    let names: Vec<&str> = tools.tools.iter().map(|t| &*t.name).collect();
    assert_eq!(names, ["move_to", "describe_tool"], "only the arm group");
    let resources = client.list_resources(None).await.unwrap();
    assert_eq!(resources.resources.len(), 1);
    let r = client
        .call_tool(CallToolRequestParams::new("read"))
        .await
        .unwrap_err();
    assert!(r.to_string().contains("unknown tool `read`"), "{r}");
    client.cancel().await.unwrap();
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn on_protocol_2026_the_handler_passes_listen_streams_to_the_toolbox() {
    use rmcp::model::{ProtocolVersion, ServerNotification, SubscriptionFilter};
    use rmcp::service::{ClientLifecycleMode, ClientServiceExt as _};

    let served = toolbox()
        .with_handler(|tools| Robot { tools })
        .build()
        .unwrap();
    let handle = served.toolbox().clone();
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let server = served.serve(server_io).await.expect("server starts");
        let _ = server.waiting().await;
    });
    let client = ()
        .serve_with_lifecycle(
            client_io,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .unwrap();
    let filter = SubscriptionFilter::builder().tools_list_changed().build();
    let mut subscription = client.listen(filter.clone()).await.unwrap();
    assert_eq!(subscription.acknowledged(), &filter);
    assert!(handle.disable_group("sensors").await);
    let notification = tokio::time::timeout(std::time::Duration::from_secs(5), subscription.next())
        .await
        .expect("a notification within 5 s")
        .unwrap()
        .expect("the subscription is open");
    assert!(
        matches!(
            notification,
            ServerNotification::ToolListChangedNotification(_)
        ),
        "{notification:?}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_command_line_gives_its_serve_flags_to_a_composed_handlers_toolbox() {
    // `--client-rate-limit` and `--read-only` are settings of the builder, applied before the
    // toolbox is built and shared with the handler (they once panicked here: configured after).
    let addr = {
        let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        free.local_addr().unwrap().to_string()
    };
    let args = [
        "robot",
        "serve",
        "--http",
        &addr,
        "--client-rate-limit",
        "2/min",
        "--read-only",
    ]
    .map(str::to_owned);
    let served = toolbox().with_handler(|tools| Robot { tools });
    let cli = tokio::spawn(served.run_cli_from(args));
    let url = format!("http://{addr}{}", toolwright::MCP_PATH);
    let client = loop {
        let transport = rmcp::transport::StreamableHttpClientTransport::from_uri(url.clone());
        match ().serve(transport).await {
            Ok(client) => break client,
            Err(_) if !cli.is_finished() => {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
            Err(e) => panic!("the command line ended: {e}"),
        }
    };
    let tools = client.list_tools(None).await.unwrap();
    let names: Vec<&str> = tools.tools.iter().map(|t| &*t.name).collect();
    assert_eq!(names, ["read", "describe_tool"], "read-only");
    let resources = client.list_resources(None).await.unwrap();
    assert_eq!(resources.resources.len(), 1, "answered by the handler");
    for _ in 0..2 {
        let r = client
            .call_tool(CallToolRequestParams::new("read"))
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(false), "{r:?}");
    }
    let r = client
        .call_tool(CallToolRequestParams::new("read"))
        .await
        .unwrap();
    assert_eq!(
        r.is_error,
        Some(true),
        "over the client's rate limit: {r:?}"
    );
    client.cancel().await.unwrap();
    cli.abort();
}
