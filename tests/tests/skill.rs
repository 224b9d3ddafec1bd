//! The operating skill a toolbox serves (`Toolbox::with_skill`, the MCP Skills extension,
//! SEP-2640), through rmcp's client: the capability, `skills/list` and `skills/get`, the files
//! through `resources/read` with the digests and sizes the manifest promises, the directories,
//! the refusals; and the drift gate on `SKILL.md`.

mod common;

use common::raw::Raw;
use rmcp::model::{
    DIRECTORY_MIME_TYPE, ErrorCode, GetSkillRequestParams, ReadResourceDirectoryRequestParams,
    ReadResourceRequestParams, ResourceContents, SKILLS_EXTENSION_ID, SkillResources,
};
use rmcp::service::ServiceError;
use serde_json::json;
use toolwright::export::drift::{self, Compatibility};
use toolwright::export::{self, Format};
use toolwright::{BuildError, ToolDef, Toolbox, ToolboxBuilder, tool, tool_defs};
use toolwright_examples::robot_arm::{SimConfig, server};

const SKILL: &str = "skill://robot-arm/SKILL.md";
const REFERENCE: &str = "skill://robot-arm/references/TOOLS.md";

fn robot() -> Toolbox<toolwright_examples::robot_arm::RobotArm> {
    server(SimConfig {
        time_scale: 0.0,
        seed: 1,
        ..SimConfig::default()
    })
    .build()
    .unwrap()
}

fn committed(file: &str) -> String {
    std::fs::read_to_string(common::robot_arm_docs().join(file)).unwrap()
}

fn error_code(e: ServiceError) -> ErrorCode {
    match e {
        ServiceError::McpError(e) => e.code,
        other => panic!("not an MCP error: {other:?}"),
    }
}

async fn read_text(client: &common::Client, uri: &str) -> (String, Option<String>) {
    let result = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .unwrap();
    match result.contents.as_slice() {
        [
            ResourceContents::TextResourceContents {
                text,
                mime_type,
                uri: read,
                ..
            },
        ] => {
            assert_eq!(read, uri);
            (text.clone(), mime_type.clone())
        }
        other => panic!("not one text: {other:?}"),
    }
}

#[tokio::test]
async fn the_robot_serves_its_committed_skill_with_a_manifest_that_verifies() {
    let client = common::connect(robot()).await;
    let info = client.peer_info().unwrap();
    assert!(
        info.capabilities.resources.is_some(),
        "skills need resources"
    );
    assert!(info.capabilities.supports_directory_read());
    assert_eq!(
        serde_json::to_value(&info.capabilities.extensions).unwrap()[SKILLS_EXTENSION_ID],
        json!({"directoryRead": true})
    );

    let skills = client.list_skills(None).await.unwrap();
    assert_eq!(skills.next_cursor, None);
    let [skill] = skills.skills.as_slice() else {
        panic!("one skill: {skills:?}")
    };
    assert_eq!(skill.uri, SKILL);
    assert_eq!(skill.frontmatter.name, "robot-arm");
    assert!(
        skill
            .frontmatter
            .description
            .starts_with("Operate the simulated robot arm safely"),
        "{skill:?}"
    );
    assert!(skill.frontmatter.extra.is_empty());
    let SkillResources::Files(files) = &skill.resources else {
        panic!("a manifest: {skill:?}")
    };
    let uris: Vec<&str> = files.iter().map(|f| f.uri.as_str()).collect();
    assert_eq!(uris, [SKILL, REFERENCE]);

    // Each file reads back as the manifest promises, and as committed.
    for (file, committed_as) in files.iter().zip(["SKILL.md", "TOOLS.md"]) {
        let (text, mime_type) = read_text(&client, &file.uri).await;
        file.verify(text.as_bytes()).unwrap();
        assert_eq!(mime_type.as_deref(), Some("text/markdown"));
        assert_eq!(text, committed(committed_as), "{}", file.uri);
    }
    // The front matter of the file is the entry's.
    let (text, _) = read_text(&client, SKILL).await;
    let quoted = serde_json::to_string(&skill.frontmatter.description).unwrap();
    assert!(
        text.starts_with(&format!(
            "---\nname: robot-arm\ndescription: {quoted}\n---\n\n# Simulated robot arm\n"
        )),
        "{text}"
    );

    let got = client
        .get_skill(GetSkillRequestParams::new(SKILL))
        .await
        .unwrap();
    assert_eq!(&got.skill, skill);
    let unknown = client
        .get_skill(GetSkillRequestParams::new("skill://robot-arm-2/SKILL.md"))
        .await
        .unwrap_err();
    assert_eq!(error_code(unknown), ErrorCode::INVALID_PARAMS);

    // resources/list has the SKILL.md, named and described as the skill.
    let listed = client.list_all_resources().await.unwrap();
    let [resource] = listed.as_slice() else {
        panic!("one resource: {listed:?}")
    };
    assert_eq!(resource.uri, SKILL);
    assert_eq!(resource.name, "robot-arm");
    assert_eq!(
        resource.description.as_deref(),
        Some(skill.frontmatter.description.as_str())
    );
    assert_eq!(resource.mime_type.as_deref(), Some("text/markdown"));
    let missing = client
        .read_resource(ReadResourceRequestParams::new(
            "skill://robot-arm/README.md",
        ))
        .await
        .unwrap_err();
    assert_eq!(error_code(missing), ErrorCode::RESOURCE_NOT_FOUND);
}

#[tokio::test]
async fn the_skill_directories_list_their_children() {
    let client = common::connect(robot()).await;
    let read =
        |uri: &str| client.read_resource_directory(ReadResourceDirectoryRequestParams::new(uri));
    let root = read("skill://robot-arm").await.unwrap();
    let children: Vec<(&str, Option<&str>)> = root
        .resources
        .iter()
        .map(|r| (r.uri.as_str(), r.mime_type.as_deref()))
        .collect();
    assert_eq!(
        children,
        [
            (SKILL, Some("text/markdown")),
            ("skill://robot-arm/references", Some(DIRECTORY_MIME_TYPE)),
        ]
    );
    assert_eq!(
        root.resources[0].size,
        Some(committed("SKILL.md").len() as u64)
    );
    let references = read("skill://robot-arm/references").await.unwrap();
    let uris: Vec<&str> = references
        .resources
        .iter()
        .map(|r| r.uri.as_str())
        .collect();
    assert_eq!(uris, [REFERENCE]);
    for not_a_directory in [SKILL, "skill://robot-arm/refs", "skill://other"] {
        let e = read(not_a_directory).await.unwrap_err();
        assert_eq!(
            error_code(e),
            ErrorCode::INVALID_PARAMS,
            "{not_a_directory}"
        );
    }
}

/// Move the arm home.
#[tool(destructive = false)]
fn home() -> String {
    "home".into()
}

/// Read the battery level.
#[tool(read_only)]
fn battery() -> u8 {
    87
}

fn grouped() -> Toolbox {
    let mut defs: Vec<ToolDef<()>> = tool_defs![home, battery];
    defs[0].meta.group = Some("arm");
    defs[1].meta.group = Some("sensors");
    ToolboxBuilder::new(())
        .with_tools(defs)
        .with_skill("rover", "Drive the rover home and read its battery.")
        .build()
        .unwrap()
}

#[tokio::test]
async fn the_skill_describes_the_tools_as_listed_now() {
    let toolbox = grouped();
    let before = toolbox.skill_md().unwrap();
    assert!(
        before.contains("| `home` | **yes** | none | Move the arm home. |"),
        "{before}"
    );
    assert!(
        before.contains("| `battery` | no (read-only) | none |"),
        "{before}"
    );
    assert!(toolbox.disable_group("arm").await);
    let after = toolbox.skill_md().unwrap();
    assert!(!after.contains("`home`"), "{after}");
    assert!(after.contains("`battery`"), "{after}");

    // What is served follows, digests included.
    let client = common::connect(toolbox.clone()).await;
    let skill = client.list_all_skills().await.unwrap().remove(0);
    let SkillResources::Files(files) = &skill.resources else {
        panic!("a manifest")
    };
    files[0].verify(after.as_bytes()).unwrap();
    assert!(files[0].verify(before.as_bytes()).is_err());
}

#[tokio::test]
async fn a_toolbox_without_a_skill_declares_and_serves_none() {
    let toolbox = Toolbox::from_tools((), tool_defs![home, battery]);
    assert_eq!(toolbox.skill_md(), None);
    assert!(toolbox.skill_resources().is_empty());
    let client = common::connect(toolbox.clone()).await;
    let info = client.peer_info().unwrap();
    assert!(!info.capabilities.supports_skills());
    assert!(info.capabilities.resources.is_none());

    let mut raw = Raw::connect(toolbox).await;
    raw.send(br#"{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{}}"#)
        .await;
    let reply = raw.until(1).await.pop().unwrap();
    assert_eq!(reply["error"]["code"], json!(-32601), "{reply}");
}

#[test]
fn with_skill_refuses_a_name_the_agent_skills_format_refuses() {
    let e = ToolboxBuilder::new(())
        .with_tools(tool_defs![home])
        .with_skill("Robot_Arm", "Drive it.")
        .build()
        .unwrap_err();
    assert!(
        matches!(&e, BuildError::InvalidSkill { problem }
            if problem.starts_with("skill name `Robot_Arm`: use 1 to 64 characters")),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .starts_with("cannot build the toolbox: `with_skill`: skill name `Robot_Arm`"),
        "{e}"
    );
}

#[test]
fn the_drift_gate_holds_skill_md() {
    let dir = std::env::temp_dir().join(format!("toolwright-skill-drift-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let toolbox = robot();
    let tools = toolbox.listed_tools();
    let skill_md = toolbox.skill_md().unwrap();
    export::write_all(&tools, &dir).unwrap();

    // Not exported yet: missing.
    let report = drift::check_export(&tools, Some(&skill_md), &dir).unwrap();
    assert_eq!(report.exit_code(), 2, "{report}");
    assert_eq!(report.changes[0].path, "SKILL.md");
    assert_eq!(
        report.changes[0].description,
        "missing; regenerate the export."
    );

    let path = export::write_skill(&skill_md, &dir).unwrap();
    assert_eq!(path, dir.join("SKILL.md"));
    assert!(
        drift::check_export(&tools, Some(&skill_md), &dir)
            .unwrap()
            .is_empty()
    );
    // The old check, and a toolbox without a skill, leave SKILL.md alone.
    assert!(drift::check_against(&tools, &dir).unwrap().is_empty());
    assert!(drift::check_export(&tools, None, &dir).unwrap().is_empty());

    // A hand edit: compatible, out of date, naming the line.
    std::fs::write(&path, skill_md.replacen("# Simulated", "# My", 1)).unwrap();
    let report = drift::check_export(&tools, Some(&skill_md), &dir).unwrap();
    assert_eq!(report.changes.len(), 1, "{report}");
    let change = &report.changes[0];
    assert_eq!(change.compatibility, Compatibility::Compatible);
    assert!(
        change.description.starts_with(
            "out of date (line 6 is \"# My robot arm\" but should be \"# Simulated robot arm\")"
        ),
        "{}",
        change.description
    );
    // A breaking change to the tools still comes first.
    let mut changed = tools.clone();
    changed.remove(0);
    let report = drift::check_export(&changed, Some(&skill_md), &dir).unwrap();
    assert_eq!(report.exit_code(), 1, "{report}");
    assert_eq!(report.changes[0].compatibility, Compatibility::Breaking);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_reference_file_is_the_exported_tools_md() {
    let toolbox = robot();
    let md = toolbox.skill_md().unwrap();
    assert_eq!(md, committed("SKILL.md"));
    assert!(md.contains("[references/TOOLS.md](references/TOOLS.md)"));
    let reference = toolbox
        .read_skill_resource(REFERENCE)
        .expect("the reference is a file of the skill");
    let ResourceContents::TextResourceContents { text, .. } = &reference.contents[0] else {
        panic!("text")
    };
    assert_eq!(
        text,
        &export::render(&toolbox.listed_tools(), Format::Markdown)
    );
    // The exported tree is the served one: every file the skill serves is in the export at
    // its path in the skill, with the same text, so the skill's links resolve in both.
    let dir = common::robot_arm_docs();
    for (uri, path) in [(SKILL, "SKILL.md"), (REFERENCE, "references/TOOLS.md")] {
        let served = toolbox.read_skill_resource(uri).unwrap();
        let ResourceContents::TextResourceContents { text, .. } = &served.contents[0] else {
            panic!("text")
        };
        assert_eq!(text, &committed(path), "{path}");
    }
    for link in md.split("](").skip(1).filter_map(|l| l.split(')').next()) {
        if !link.contains("://") && !link.starts_with('#') {
            assert!(
                dir.join(link).is_file(),
                "SKILL.md links {link}, not exported"
            );
        }
    }
}

#[tokio::test]
async fn on_2026_07_28_the_skill_is_discovered_and_its_results_carry_cache_hints() {
    use rmcp::model::{CacheScope, ProtocolVersion};
    use rmcp::service::{ClientLifecycleMode, ClientServiceExt as _};

    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let server = robot().serve(server_io).await.expect("server starts");
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
        .expect("client connects");
    let info = client.peer_info().unwrap();
    assert!(info.capabilities.supports_directory_read(), "{info:?}");

    let listed = client.list_skills(None).await.unwrap();
    assert_eq!(
        (listed.ttl_ms, listed.cache_scope),
        (Some(0), Some(CacheScope::Public))
    );
    let got = client
        .get_skill(GetSkillRequestParams::new(SKILL))
        .await
        .unwrap();
    assert_eq!(
        (got.ttl_ms, got.cache_scope),
        (Some(0), Some(CacheScope::Public))
    );
    assert_eq!(got.skill, listed.skills[0]);
    let read = client
        .read_resource(ReadResourceRequestParams::new(SKILL))
        .await
        .unwrap();
    assert_eq!(
        (read.ttl_ms, read.cache_scope),
        (Some(0), Some(CacheScope::Public))
    );

    // On 2025-11-25 the same results carry none.
    let old = common::connect(robot()).await;
    let listed = old.list_skills(None).await.unwrap();
    assert_eq!((listed.ttl_ms, listed.cache_scope), (None, None));
    let read = old
        .read_resource(ReadResourceRequestParams::new(SKILL))
        .await
        .unwrap();
    assert_eq!((read.ttl_ms, read.cache_scope), (None, None));
}
