//! Logs without set-up (issue 35): `run_cli` installs a stderr logger, so the robot arm started
//! with nothing configured prints its start-up line and a refusal to stderr, while stdout carries
//! only JSON-RPC; `RUST_LOG` filters it, `--log-format json` writes one JSON object a line, and a
//! program that installed a subscriber of its own keeps it.

mod common;

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Runs the robot arm over stdio with `args` and only `env` set (no `RUST_LOG` unless given):
/// sends a handshake, a refused motion and a read, waits for their answers, closes stdin; the
/// lines of stdout (each checked to be a JSON-RPC message) and of stderr.
fn run_stdio(args: &[&str], env: &[(&str, &str)]) -> (Vec<Value>, Vec<String>) {
    let mut child = Command::new(common::robot_arm_binary())
        .args(args)
        .env_clear()
        .env("ROBOT_ARM_TIME_SCALE", "0")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the robot arm starts");
    let mut stdin = child.stdin.take().unwrap();
    for message in [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "logs", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "move_arm_to_pose", "arguments": {"x": 5000, "y": 0, "z": 200}}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "get_arm_state", "arguments": {}}}),
    ] {
        writeln!(stdin, "{message}").unwrap();
    }
    stdin.flush().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut messages = Vec::new();
    while !messages.iter().any(|m: &Value| m["id"] == json!(2)) {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0, "stdout closed early");
        let message: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout carries only JSON-RPC: {e}: {line:?}"));
        assert_eq!(message["jsonrpc"], "2.0", "{line}");
        messages.push(message);
    }
    drop(stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    assert!(rest.trim().is_empty(), "stdout after the answers: {rest:?}");
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(child.wait().unwrap().success());
    (messages, err.lines().map(str::to_owned).collect())
}

#[test]
fn with_no_set_up_the_start_up_line_and_a_refusal_reach_stderr() {
    let (messages, stderr) = run_stdio(&[], &[]);
    let refused = messages.iter().find(|m| m["id"] == json!(1)).unwrap();
    assert_eq!(refused["result"]["isError"], json!(true), "{refused}");
    let all = stderr.join("\n");
    let start = stderr
        .iter()
        .find(|l| l.contains("serving MCP on stdio"))
        .unwrap_or_else(|| panic!("no start-up line: {all}"));
    assert!(
        start.contains(" INFO ") && start.contains("2025-11-25"),
        "{start}"
    );
    assert!(start.contains("tools=10"), "{start}");
    let refusal = stderr
        .iter()
        .find(|l| l.contains("refused: invalid arguments"))
        .unwrap_or_else(|| panic!("no refusal line: {all}"));
    assert!(refusal.contains("move_arm_to_pose"), "{refusal}");
    // rmcp's own session chatter is below the default level.
    assert!(!all.contains("rmcp::service"), "{all}");
}

#[test]
fn rust_log_filters_and_json_gives_one_object_a_line() {
    let (_, stderr) = run_stdio(&["serve", "--log-format", "json"], &[]);
    assert!(stderr.len() >= 3, "{stderr:?}");
    for line in &stderr {
        let event: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("one JSON object a line: {e}: {line}"));
        assert!(event["level"].is_string(), "{line}");
        assert!(event["fields"]["message"].is_string(), "{line}");
    }
    let refusal = stderr
        .iter()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|e| e["fields"]["message"] == "refused: invalid arguments")
        .expect("the refusal");
    assert_eq!(refusal["span"]["tool"], "move_arm_to_pose", "{refusal}");

    let (_, quiet) = run_stdio(&[], &[("RUST_LOG", "warn")]);
    assert!(
        !quiet.iter().any(|l| l.contains("serving MCP on stdio")),
        "RUST_LOG=warn hides info lines: {quiet:?}"
    );
}

#[test]
fn over_http_the_start_up_line_names_the_address_the_authentication_and_the_revisions() {
    for (env, expect_level) in [(None, true), (Some("warn"), false)] {
        let mut command = Command::new(common::robot_arm_binary());
        command
            .args(["serve", "--http", "127.0.0.1:0"])
            .env_clear()
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if let Some(level) = env {
            command.env("RUST_LOG", level);
        }
        let mut child = command.spawn().unwrap();
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut line = String::new();
        while !line.contains("serving MCP over streamable HTTP at ") {
            assert!(Instant::now() < deadline, "no start-up line");
            line.clear();
            assert!(err.read_line(&mut line).unwrap() > 0, "stderr closed");
        }
        let _ = child.kill();
        let _ = child.wait();
        assert!(line.contains("http://127.0.0.1:"), "{line}");
        if expect_level {
            assert!(line.contains("auth=none"), "{line}");
            assert!(line.contains("2026-07-28, 2025-11-25"), "{line}");
        } else {
            // Below `info`, the one line clients wait for is still written.
            assert!(!line.contains(" INFO "), "{line}");
        }
    }
}

/// A subscriber that keeps the messages of the events it sees.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<String>>>);

impl tracing::Subscriber for Recorder {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        struct Message<'a>(&'a mut String);
        impl tracing::field::Visit for Message<'_> {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                if field.name() == "message" {
                    *self.0 = format!("{value:?}");
                }
            }
        }
        let mut message = String::new();
        event.record(&mut Message(&mut message));
        self.0.lock().unwrap().push(message);
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[tokio::test]
async fn a_program_that_installed_its_own_subscriber_keeps_it() {
    let recorder = Recorder::default();
    tracing::subscriber::set_global_default(recorder.clone()).unwrap();
    let builder = toolwright_examples::robot_arm::server(Default::default());
    let code = builder.run_cli_from(["robot_arm", "tools"]).await;
    assert_eq!(code, 0);
    tracing::info!("after run_cli");
    let seen = recorder.0.lock().unwrap().clone();
    assert!(seen.iter().any(|m| m == "after run_cli"), "{seen:?}");
}
