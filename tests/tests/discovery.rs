//! Discovery helpers: the opt-in describe_tool meta tool, and tool groups enabled and disabled
//! at run time with notifications/tools/list_changed.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::{call, text};
use rmcp::model::{
    CacheScope, ErrorCode, GetMeta as _, ProtocolVersion, ServerNotification, SubscriptionFilter,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt as _, NotificationContext, Subscription,
};
use rmcp::{ClientHandler, RoleClient, ServiceExt as _};
use serde_json::json;
use toolwright::{ToolDef, Toolbox, ToolboxBuilder, tool, tool_defs};

/// Move the arm home.
#[tool]
fn home() -> String {
    "home".into()
}

/// Read the camera.
#[tool(read_only)]
fn snapshot() -> String {
    "frame".into()
}

/// Report the battery level.
#[tool(read_only)]
fn battery() -> u8 {
    87
}

fn grouped() -> ToolboxBuilder {
    let mut defs: Vec<ToolDef<()>> = tool_defs![home, snapshot, battery];
    defs[0].meta.group = Some("arm");
    defs[1].meta.group = Some("sensors");
    ToolboxBuilder::new(()).with_tools(defs)
}

#[tokio::test]
async fn describe_tool_returns_a_definition_exactly_as_listed() {
    let client = common::connect(grouped().with_describe_tool().build().unwrap()).await;
    let listed = client.list_all_tools().await.unwrap();
    let names: Vec<_> = listed.iter().map(|t| t.name.to_string()).collect();
    assert_eq!(names, ["home", "snapshot", "battery", "describe_tool"]);

    let r = call(&client, "describe_tool", json!({"name": "battery"})).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    assert_eq!(
        r.structured_content.unwrap(),
        serde_json::to_value(&listed[2]).unwrap()
    );

    let r = call(&client, "describe_tool", json!({"name": "batery"})).await;
    assert_eq!(
        text(&r),
        "Invalid arguments for tool `describe_tool` (1 problem):\n\
         - name: must be one of \"home\", \"snapshot\", \"battery\", got \"batery\" (hint: did you mean \"battery\"?)\n\
         The tool did not run. Fix the arguments above and call it again."
    );
    let r = call(&client, "describe_tool", json!({})).await;
    assert!(text(&r).contains("- name: required argument is missing; expected one of \"home\", \"snapshot\", \"battery\""), "{}", text(&r));
    client.cancel().await.unwrap();
}

/// Issue 43: hidden means hidden. Under `with_read_only` and with groups off, `describe_tool`
/// names only the tools served: in its `name` enum as listed, and in what it answers to a
/// hidden or unknown name; when the groups change, its enum follows.
#[tokio::test]
async fn describe_tool_names_only_the_tools_served() {
    let enum_of = |tools: &[rmcp::model::Tool]| -> Vec<String> {
        let describe = tools
            .iter()
            .find(|t| t.name == "describe_tool")
            .expect("listed");
        describe.input_schema["properties"]["name"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    };
    // Read-only: `home` is not read-only, so it is neither served nor named.
    let client = common::connect(
        grouped()
            .with_describe_tool()
            .with_read_only(true)
            .build()
            .unwrap(),
    )
    .await;
    let listed = client.list_all_tools().await.unwrap();
    assert_eq!(enum_of(&listed), ["snapshot", "battery"]);
    for hidden in ["home", "hom", "nothing"] {
        let r = call(&client, "describe_tool", json!({"name": hidden})).await;
        assert_eq!(r.is_error, Some(true), "{r:?}");
        let said = text(&r);
        // The caller's own word is echoed; the tools named are the served ones alone.
        assert!(
            said.contains(&format!(
                "must be one of \"snapshot\", \"battery\", got \"{hidden}\""
            )),
            "{hidden}: {said}"
        );
        assert!(!said.contains("did you mean \"home\""), "{hidden}: {said}");
    }
    let r = call(&client, "describe_tool", json!({})).await;
    assert!(!text(&r).contains("home"), "{}", text(&r));
    let r = call(&client, "describe_tool", json!({"name": "battery"})).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    client.cancel().await.unwrap();

    // Groups: the enum is the tools served now, through every change.
    let toolbox = grouped()
        .with_describe_tool()
        .only_groups(["sensors"])
        .build()
        .unwrap();
    let handle = toolbox.clone();
    let client = common::connect(toolbox).await;
    assert_eq!(
        enum_of(&client.list_all_tools().await.unwrap()),
        ["snapshot", "battery"]
    );
    let r = call(&client, "describe_tool", json!({"name": "home"})).await;
    assert!(
        text(&r).contains("must be one of \"snapshot\", \"battery\", got \"home\""),
        "{}",
        text(&r)
    );
    assert!(handle.enable_group("arm").await);
    assert_eq!(
        enum_of(&client.list_all_tools().await.unwrap()),
        ["home", "snapshot", "battery"]
    );
    let r = call(&client, "describe_tool", json!({"name": "home"})).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    assert!(handle.disable_group("sensors").await);
    assert_eq!(
        enum_of(&client.list_all_tools().await.unwrap()),
        ["home", "battery"]
    );
    let r = call(&client, "describe_tool", json!({"name": "snapshot"})).await;
    assert_eq!(r.is_error, Some(true), "{r:?}");
    assert!(
        text(&r).contains("must be one of \"home\", \"battery\", got \"snapshot\""),
        "{}",
        text(&r)
    );
    client.cancel().await.unwrap();
}

#[derive(Clone, Default)]
struct ListChanges(Arc<AtomicUsize>);

impl ClientHandler for ListChanges {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

#[tokio::test]
async fn groups_serve_a_subset_and_change_at_run_time() {
    let toolbox = grouped().only_groups(["sensors"]).build().unwrap();
    assert_eq!(toolbox.groups(), ["arm", "sensors"]);
    let handle = toolbox.clone();
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let server = toolbox.serve(server_io).await.unwrap();
        let _ = server.waiting().await;
    });
    let changes = ListChanges::default();
    let client = changes.clone().serve(client_io).await.unwrap();

    let names = |tools: Vec<rmcp::model::Tool>| {
        tools.iter().map(|t| t.name.to_string()).collect::<Vec<_>>()
    };
    assert_eq!(
        names(client.list_all_tools().await.unwrap()),
        ["snapshot", "battery"]
    );
    let err = client
        .call_tool(rmcp::model::CallToolRequestParams::new("home"))
        .await
        .unwrap_err();
    let rmcp::ServiceError::McpError(e) = err else {
        panic!("{err:?}")
    };
    assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(
        e.message,
        "unknown tool `home`; available tools: snapshot, battery"
    );

    assert!(handle.enable_group("arm").await);
    assert!(
        !handle.enable_group("arm").await,
        "already enabled: nothing to announce"
    );
    assert_eq!(
        names(client.list_all_tools().await.unwrap()),
        ["home", "snapshot", "battery"]
    );
    let r = call(&client, "home", json!({})).await;
    assert_eq!(text(&r), "home");

    assert!(handle.disable_group("sensors").await);
    assert_eq!(
        names(client.list_all_tools().await.unwrap()),
        ["home", "battery"]
    );
    for _ in 0..100 {
        if changes.0.load(Ordering::SeqCst) == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(
        changes.0.load(Ordering::SeqCst),
        2,
        "one list_changed per change"
    );
    let info = client.peer_info().unwrap();
    assert_eq!(
        info.capabilities
            .tools
            .as_ref()
            .and_then(|t| t.list_changed),
        Some(true)
    );
    client.cancel().await.unwrap();
}

// ---------------------------------------------------------------------------------------------
// Protocol 2026-07-28: `subscriptions/listen` and the caching hints.

/// Connects to `toolbox` in-process with `server/discover` on protocol 2026-07-28.
async fn connect_2026(toolbox: Toolbox) -> rmcp::service::RunningService<RoleClient, ()> {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let server = toolbox.serve(server_io).await.expect("server starts");
        let _ = server.waiting().await;
    });
    ().serve_with_lifecycle(
        client_io,
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
    )
    .await
    .expect("client connects")
}

/// The next notification of a subscription, within 5 s.
async fn next_notification(subscription: &mut Subscription) -> ServerNotification {
    tokio::time::timeout(Duration::from_secs(5), subscription.next())
        .await
        .expect("a notification within 5 s")
        .expect("a valid notification")
        .expect("the subscription is open")
}

#[tokio::test]
async fn on_protocol_2026_listen_streams_are_told_of_group_changes_with_their_id() {
    let toolbox = grouped().build().unwrap();
    let handle = toolbox.clone();
    let client = connect_2026(toolbox).await;
    let tools_changes = || SubscriptionFilter::builder().tools_list_changed().build();

    let mut first = client.listen(tools_changes()).await.unwrap();
    let mut second = client.listen(tools_changes()).await.unwrap();
    assert_eq!(first.acknowledged(), &tools_changes());
    // A toolbox has no prompts: a stream asking only for them is acknowledged with nothing.
    let mut prompts = client
        .listen(SubscriptionFilter::builder().prompts_list_changed().build())
        .await
        .unwrap();
    assert_eq!(prompts.acknowledged(), &SubscriptionFilter::new());

    assert!(handle.disable_group("sensors").await);
    for subscription in [&mut first, &mut second] {
        let notification = next_notification(subscription).await;
        assert!(
            matches!(
                notification,
                ServerNotification::ToolListChangedNotification(_)
            ),
            "{notification:?}"
        );
        assert_eq!(
            notification.get_meta().subscription_id().as_ref(),
            Some(subscription.id()),
            "tagged with its own subscription"
        );
    }
    let names: Vec<_> = client
        .list_all_tools()
        .await
        .unwrap()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(names, ["home", "battery"]);

    // Nothing changed: nothing is sent.
    assert!(!handle.disable_group("sensors").await);
    assert!(
        tokio::time::timeout(Duration::from_millis(200), first.next())
            .await
            .is_err(),
        "no notification without a change"
    );
    assert!(
        tokio::time::timeout(Duration::from_millis(200), prompts.next())
            .await
            .is_err(),
        "a stream that did not ask for tool changes is not told of them"
    );

    // A stream the client ended is no longer told; the one still open is.
    drop(first);
    assert!(handle.enable_group("sensors").await);
    let notification = next_notification(&mut second).await;
    assert_eq!(
        notification.get_meta().subscription_id().as_ref(),
        Some(second.id())
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn tools_list_carries_caching_hints_and_the_server_on_protocol_2026_only() {
    let client = connect_2026(grouped().build().unwrap()).await;
    let first = client.list_tools(None).await.unwrap();
    assert_eq!(
        first.ttl_ms,
        Some(0),
        "groups may change the list at any time"
    );
    assert_eq!(first.cache_scope, Some(CacheScope::Public));
    // Deterministic order: the declaration order, every time.
    let again = client.list_tools(None).await.unwrap();
    assert_eq!(first.tools, again.tools);
    client.cancel().await.unwrap();

    let legacy = common::connect(grouped().build().unwrap()).await;
    let list = legacy.list_tools(None).await.unwrap();
    assert_eq!((list.ttl_ms, list.cache_scope), (None, None));
    assert_eq!(list.meta, None);
    // The server's identity, in the 2026 result's `_meta`.
    let info = legacy.peer_info().unwrap();
    let server = info.server_info.as_ref().expect("the server's identity");
    let identity = first
        .meta
        .as_ref()
        .and_then(|m| m.0.get("io.modelcontextprotocol/serverInfo"))
        .expect("serverInfo in _meta");
    assert_eq!(identity["name"], server.name.as_str());
    assert_eq!(identity["version"], server.version.as_str());
    legacy.cancel().await.unwrap();
}
