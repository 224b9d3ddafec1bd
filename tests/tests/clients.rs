//! `check --clients` and `assert_clients_accept!`: the robot arm passes every client; a fixture
//! toolbox with a 61-character name (with its server's), an integer enum and 130 tools gets
//! each finding once, with its client, tool and pointer, and `check` exits 3.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;
use toolwright::export::clients::{self, Client};
use toolwright::{ToolboxBuilder, tool, tool_defs};
use toolwright_examples::robot_arm::{SimConfig, server};

/// A level of 1, 2 or 3: an integer enum, which Gemini refuses.
#[derive(Debug, Clone, Copy, Deserialize)]
struct Level(u8);

impl JsonSchema for Level {
    fn schema_name() -> Cow<'static, str> {
        "Level".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "integer", "enum": [1, 2, 3], "description": "How hard: 1, 2 or 3."})
    }
}

/// Set how hard the gripper holds.
#[tool(destructive = false, idempotent)]
fn set_grip_level(
    /// The level.
    level: Level,
) -> String {
    format!("level {}", level.0)
}

/// Say hello.
#[tool(
    read_only,
    name = "say_hello_with_a_name_just_long_enough_to_pass_cursors"
)]
fn hello() -> String {
    "hello".to_owned()
}

const SERVER: &str = "fixture";

/// 128 tools of examples/many_tools, then the two above: 130.
fn fixture() -> ToolboxBuilder<()> {
    let mut tools = toolwright_examples::many_tools::tools(128);
    tools.extend(tool_defs![set_grip_level, hello]);
    ToolboxBuilder::new(())
        .with_tools(tools)
        .with_server_info(SERVER, "0.1.0")
        .with_resource("axis")
}

#[test]
fn the_robot_arm_is_accepted_by_every_client() {
    let toolbox = server(SimConfig {
        time_scale: 0.0,
        seed: 1,
        ..SimConfig::default()
    })
    .build()
    .unwrap();
    toolwright::assert_clients_accept!(toolbox);
    toolwright::assert_clients_accept!(toolbox, server = "robot-arm");
}

#[test]
fn each_finding_appears_once_with_client_tool_and_pointer() {
    let toolbox = fixture().build().unwrap();
    let long = "say_hello_with_a_name_just_long_enough_to_pass_cursors";
    assert_eq!(SERVER.len() + long.len(), 61);
    let report = toolbox.client_findings(SERVER);
    let found: Vec<(Client, &str, &str)> = report
        .findings
        .iter()
        .map(|f| (f.client, f.tool.as_str(), f.pointer.as_str()))
        .collect();
    let expected = [
        // mcp__fixture__ + 54 = 68 characters.
        (Client::ClaudeCode, long, "/name"),
        // mcp_fixture_ + 54 = 66 characters.
        (Client::VsCode, long, "/name"),
        // 130 tools: the 129th is the first past 128.
        (Client::VsCode, "set_grip_level", "/tools/128"),
        (Client::Cursor, long, "/name"),
        (
            Client::Gemini,
            "set_grip_level",
            "/inputSchema/properties/level/enum",
        ),
    ];
    assert_eq!(found, expected, "{report}");
    for finding in &report.findings {
        assert!(!finding.problem.is_empty() && !finding.fix.is_empty());
        assert!(
            finding.source.contains('#'),
            "each rule names its source: {finding}"
        );
    }
    let text = report.to_string();
    assert!(
        text.starts_with("5 findings (server name `fixture`):"),
        "{text}"
    );
    assert!(
        text.contains("- Cursor: `say_hello_with_a_name_just_long_enough_to_pass_cursors` at /name: the server's name and the tool's are 61 characters together, over Cursor's 60"),
        "{text}"
    );
    assert!(text.contains("Change: make it a string enum"), "{text}");
    // The helper beside assert_tools_snapshot! panics with the same report.
    let listed = toolbox.listed_tools();
    let panicked = std::panic::catch_unwind(|| clients::assert_accepted(&listed, SERVER));
    let message = panicked
        .expect_err("a client refuses")
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(
        message.contains("a client refuses some of these tools"),
        "{message}"
    );
}

#[tokio::test]
async fn check_exits_3_when_a_client_refuses_and_orders_the_codes() {
    let code = fixture()
        .run_cli_from(["fixture", "check", "--clients", "--server-name", SERVER])
        .await;
    assert_eq!(code, 3);
    // A shorter server name: Cursor and Claude Code fit, VS Code's 128 and Gemini still refuse.
    let code = fixture()
        .run_cli_from(["fixture", "check", "--clients", "--server-name", "f"])
        .await;
    assert_eq!(code, 3);
    // Without either: bad usage, 4; an export that cannot be read: 4, before the clients' 3.
    assert_eq!(fixture().run_cli_from(["fixture", "check"]).await, 4);
    assert_eq!(
        fixture()
            .run_cli_from(["fixture", "check", "--against", "/nonexistent", "--clients"])
            .await,
        4
    );
    assert_eq!(
        fixture()
            .run_cli_from(["fixture", "check", "--unknown-flag"])
            .await,
        4
    );
    // Compatible drift (an export missing a tool) and a client's refusal: 3 before 2.
    let dir = std::env::temp_dir().join(format!("toolwright-clients-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let toolbox = fixture().build().unwrap();
    let export = toolbox.export();
    export.write(&dir).unwrap();
    let publish = |tools: &[rmcp::model::Tool]| {
        std::fs::write(
            dir.join("tools.json"),
            toolwright::export::render(tools, toolwright::export::Format::Mcp),
        )
        .unwrap();
    };
    publish(&export.tools[..export.tools.len() - 1]);
    let args = ["fixture", "check", "--against", dir.to_str().unwrap()];
    assert_eq!(fixture().run_cli_from(args).await, 2);
    let args = [
        "fixture",
        "check",
        "--against",
        dir.to_str().unwrap(),
        "--clients",
    ];
    assert_eq!(fixture().run_cli_from(args).await, 3);
    // Breaking drift (the export had a tool the code no longer has) comes before 3.
    let mut tools = export.tools.clone();
    let mut gone = tools[0].clone();
    gone.name = "move_axis_gone".into();
    tools.push(gone);
    publish(&tools);
    assert_eq!(fixture().run_cli_from(args).await, 1);
    let _ = std::fs::remove_dir_all(&dir);
}
