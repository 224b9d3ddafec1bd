//! The command line every toolbox gets, end to end on the built robot-arm binary: tools in every
//! format, call, export, the drift gate's exit codes, serve --groups.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rmcp::ServiceExt as _;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

fn run(args: &[&str]) -> Output {
    Command::new(common::robot_arm_binary())
        .args(args)
        .env("ROBOT_ARM_TIME_SCALE", "0")
        .env("RUST_LOG", "warn")
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("toolwright-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn call_does_not_move_the_arm_unless_confirmation_is_off() {
    // In-process there is no one to ask: a motion declared with `confirm` does not run.
    let args = r#"{"x": 300, "y": 0, "z": 200}"#;
    let o = run(&["call", "move_arm_to_pose", "--args", args]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let result: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(result["isError"], json!(true));
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("not confirmed: `move_arm_to_pose` runs only once the user confirms it"),
        "{text}"
    );
    // The refusal names the flag of the command that was run: `call`'s, not `serve`'s.
    assert!(
        text.contains("or call it again with `--confirm=off` where no one needs to confirm"),
        "{text}"
    );
    assert!(!text.contains("serve with"), "{text}");
    // A test rig turns it off.
    let o = run(&["call", "move_arm_to_pose", "--args", args, "--confirm=off"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let result: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        result["structuredContent"]["position"],
        json!({"x": 300.0, "y": 0.0, "z": 200.0})
    );
    let o = run(&[
        "call",
        "move_arm_to_pose",
        "--args",
        args,
        "--confirm=maybe",
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("`maybe`: write on or off"));
}

#[test]
fn tools_prints_every_format_exactly_as_committed() {
    for (format, file) in [
        ("mcp", "tools.json"),
        ("markdown", "TOOLS.md"),
        ("openai", "openai.json"),
        ("anthropic", "anthropic.json"),
        ("gemini", "gemini.json"),
    ] {
        let o = run(&["tools", "--format", format]);
        assert!(o.status.success(), "{format}: {o:?}");
        let committed = std::fs::read_to_string(common::robot_arm_docs().join(file)).unwrap();
        assert_eq!(stdout(&o), committed, "{format}");
    }
    let o = run(&["tools", "--format", "yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(
            "unknown format `yaml`; use one of: mcp, markdown, openai, anthropic, gemini"
        )
    );
}

#[test]
fn call_prints_the_result_as_the_model_receives_it() {
    let o = run(&["call", "get_arm_state"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let result: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        result["structuredContent"]["position"],
        json!({"x": 300.0, "y": 0.0, "z": 400.0})
    );
    assert!(result["_meta"]["io.toolwright/traceId"].is_string());

    let o = run(&[
        "call",
        "grasp_object_force_control",
        "--args",
        r#"{"target_position": {"x": 400, "y": 0, "z": 25}, "force": 100}"#,
    ]);
    assert_eq!(o.status.code(), Some(1), "an isError result exits 1");
    let result: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(result["isError"], json!(true));
    assert_eq!(
        result["content"][0]["text"],
        "Invalid arguments for tool `grasp_object_force_control` (1 problem):\n- force: must be between 5 and 30 N, got 100\nThe tool did not run. Fix the arguments above and call it again."
    );

    let o = run(&["call", "fly", "--args", "{}"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("unknown tool `fly`; available tools: move_arm_to_pose")
    );
    let o = run(&["call", "get_arm_state", "--args", "[1]"]);
    assert_eq!(o.status.code(), Some(2));
}

fn export_to(dir: &Path) {
    let o = run(&["export", "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{o:?}");
    for file in [
        "tools.json",
        "TOOLS.md",
        "openai.json",
        "anthropic.json",
        "gemini.json",
        "SKILL.md",
        "references/TOOLS.md",
        "index.html",
        "llms.txt",
    ] {
        assert!(dir.join(file).exists(), "{file}");
    }
}

#[test]
fn export_writes_the_skill_and_check_holds_it() {
    let dir = temp_dir("skill");
    export_to(&dir);
    assert_eq!(
        std::fs::read_to_string(dir.join("SKILL.md")).unwrap(),
        std::fs::read_to_string(common::robot_arm_docs().join("SKILL.md")).unwrap(),
        "the exported skill is the committed one"
    );
    let o = run(&["export", "--out", dir.to_str().unwrap()]);
    assert!(
        stdout(&o).contains(&format!("wrote {}", dir.join("SKILL.md").display())),
        "{}",
        stdout(&o)
    );

    std::fs::write(dir.join("SKILL.md"), "---\nname: robot-arm\n---\n").unwrap();
    let o = run(&["check", "--against", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("- compatible: SKILL.md: out of date (line 3 is \"---\""),
        "{}",
        stdout(&o)
    );
    std::fs::remove_file(dir.join("SKILL.md")).unwrap();
    let o = run(&["check", "--against", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("- compatible: SKILL.md: missing; regenerate the export."),
        "{}",
        stdout(&o)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn check_exits_0_when_identical_1_when_breaking_2_when_compatible() {
    // An export that cannot be read is 4, not 2 (which says "only compatible changes").
    let o = run(&["check", "--against", "/nonexistent"]);
    assert_eq!(o.status.code(), Some(4), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read the export in /nonexistent"));
    let o = run(&["check"]);
    assert_eq!(o.status.code(), Some(4), "{o:?}");
    let o = run(&["check", "--clients"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).starts_with("every client accepts every tool"));
    let o = run(&["check", "--help"]);
    assert!(o.status.success());
    for line in [
        "0  nothing to report",
        "1  breaking drift",
        "2  only compatible drift",
        "3  some client refuses a tool",
        "4  cannot read the export, or bad usage",
        "in the order 4, 1, 3, 2",
    ] {
        assert!(stdout(&o).contains(line), "{line}: {}", stdout(&o));
    }

    let same = temp_dir("same");
    export_to(&same);
    let o = run(&["check", "--against", same.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).starts_with("no drift"));
    let o = run(&[
        "check",
        "--against",
        common::robot_arm_docs().to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "the committed docs match: {}",
        stdout(&o)
    );

    // The published export had a tool the code no longer has: breaking.
    let breaking = temp_dir("breaking");
    export_to(&breaking);
    let mut published: Value =
        serde_json::from_str(&std::fs::read_to_string(breaking.join("tools.json")).unwrap())
            .unwrap();
    let mut extra = published["tools"][0].clone();
    extra["name"] = json!("move_arm_to_joint_angles");
    published["tools"].as_array_mut().unwrap().push(extra);
    std::fs::write(
        breaking.join("tools.json"),
        serde_json::to_string_pretty(&published).unwrap(),
    )
    .unwrap();
    let o = run(&["check", "--against", breaking.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("move_arm_to_joint_angles"),
        "{}",
        stdout(&o)
    );

    // The published export lacked a tool the code now has: compatible.
    let compatible = temp_dir("compatible");
    export_to(&compatible);
    let mut published: Value =
        serde_json::from_str(&std::fs::read_to_string(compatible.join("tools.json")).unwrap())
            .unwrap();
    published["tools"]
        .as_array_mut()
        .unwrap()
        .retain(|t| t["name"] != "describe_tool");
    std::fs::write(
        compatible.join("tools.json"),
        serde_json::to_string_pretty(&published).unwrap(),
    )
    .unwrap();
    let o = run(&["check", "--against", compatible.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stdout(&o).contains("describe_tool"), "{}", stdout(&o));

    for dir in [same, breaking, compatible] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[tokio::test]
async fn serve_groups_serves_a_subset() {
    let mut command = tokio::process::Command::new(common::robot_arm_binary());
    command
        .args(["serve", "--groups", "sensors"])
        .env("RUST_LOG", "warn");
    let transport = TokioChildProcess::new(command).unwrap();
    let client = ().serve(transport).await.unwrap();
    let names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(
        names,
        [
            "read_ft_sensor",
            "get_arm_state",
            "capture_image",
            "describe_tool"
        ]
    );
    client.cancel().await.unwrap();

    let o = run(&["serve", "--groups", "legs"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("unknown group `legs`; the tools declare: arm, sensors")
    );
}

#[test]
fn help_lists_the_commands() {
    let o = run(&["--help"]);
    assert!(o.status.success());
    let help = stdout(&o);
    for cmd in ["serve", "tools", "call", "export", "check", "audit"] {
        assert!(help.contains(cmd), "{help}");
    }
    let o = run(&["audit", "--help"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("verify"), "{}", stdout(&o));
    let o = run(&["serve", "--help"]);
    assert!(stdout(&o).contains("--audit-log <PATH>"), "{}", stdout(&o));
}

/// Issue 43: `serve --envelope FILE` with a key written twice stops, naming the key and its line
/// (a plain parse kept the second `arm`, `{}`, and served without the operator's box).
#[test]
fn serve_stops_on_a_repeated_key_in_the_envelope_file() {
    let dir = temp_dir("repeated-key");
    let file = dir.join("envelope.json");
    std::fs::write(
        &file,
        "{\"arm\": {\"allow\": [{\"box\": {\"min\": [0, -300, 0], \"max\": [400, 300, 500]}}]},\n \"arm\": {}}",
    )
    .unwrap();
    // stdin closed: a server that started would serve stdio and end at once with 0.
    let o = Command::new(common::robot_arm_binary())
        .args(["serve", "--envelope", file.to_str().unwrap()])
        .env("ROBOT_ARM_TIME_SCALE", "0")
        .env("RUST_LOG", "warn")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("the key `arm` appears twice in one object")
            && stderr.contains("at line 2"),
        "{stderr}"
    );
    assert!(o.stdout.is_empty(), "nothing served");
    let _ = std::fs::remove_dir_all(&dir);
}
