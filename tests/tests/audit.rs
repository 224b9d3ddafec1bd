//! Audit receipts on the robot arm: `Toolbox::with_audit_log` in-process (a session with
//! accepted, declined, refused, cancelled, timed-out and failed calls, on both protocol
//! revisions, and over HTTP with a token), and the built binary's `serve --audit-log` and
//! `audit verify` (every line found when altered, a torn last line, a log that does not verify).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::ServiceExt as _;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientRequest, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationCapability, ErrorData, Implementation,
};
use rmcp::service::{PeerRequestOptions, RequestContext, RoleClient};
use serde_json::{Map, Value, json};
use toolwright::audit::{AuditLog, VerifyError, verify};
use toolwright_examples::robot_arm::{self, SimConfig};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("toolwright-audit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("audit.jsonl")
}

/// The log's lines, parsed.
fn lines(path: &Path) -> Vec<Map<String, Value>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Waits (bounded) until the log holds `n` lines, and returns them.
async fn wait_for_lines(path: &Path, n: usize) -> Vec<Map<String, Value>> {
    for _ in 0..500 {
        let now = lines(path);
        if now.len() >= n {
            return now;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the log has {} lines, not {n}", lines(path).len());
}

/// An operator who accepts or declines every confirmation, as told.
#[derive(Clone, Default)]
struct Operator {
    decline: Arc<AtomicBool>,
    asked: Arc<AtomicUsize>,
}

impl rmcp::ClientHandler for Operator {
    fn get_info(&self) -> rmcp::model::ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation = Some(ElicitationCapability::default());
        rmcp::model::ClientConfig::new(capabilities, Implementation::new("operator", "1.0.0"))
    }

    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        Ok(if self.decline.load(Ordering::SeqCst) {
            ElicitResult::new(ElicitationAction::Decline)
        } else {
            ElicitResult::new(ElicitationAction::Accept).with_content(json!({}))
        })
    }
}

fn params(tool: &str, args: Value) -> CallToolRequestParams {
    let Value::Object(map) = args else {
        panic!("arguments are an object")
    };
    CallToolRequestParams::new(tool.to_owned()).with_arguments(map)
}

fn text(result: &rmcp::model::CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text())
        .map(|t| t.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The session the issue asks for, on the robot arm as it is served (confirmation on): every
/// call of a tool that is not read-only leaves a line saying what happened, the chain verifies,
/// and altering any line makes verification name it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_leaves_receipts_that_say_what_happened() {
    let path = temp("session");
    // Motions take 12 times longer than planned (a worn gearbox): a planned 0.45 s move
    // overruns a 3 s deadline, and a planned 0.8 s one is still moving when it is cancelled.
    let toolbox = robot_arm::server(SimConfig {
        time_scale: 1.0,
        motor_lag: 12.0,
        ..SimConfig::default()
    })
    .with_default_timeout(Duration::from_secs(3))
    .with_audit_log(AuditLog::open(&path).unwrap())
    .build()
    .unwrap();
    let operator = Operator::default();
    let client = common::connect_client(toolbox.clone(), operator.clone(), false).await;
    let call = |tool: &'static str, args: Value| {
        let peer = client.peer().clone();
        async move { peer.call_tool(params(tool, args)).await.unwrap() }
    };

    // Read-only: not recorded.
    let state = call("get_arm_state", json!({})).await;
    assert_eq!(state.is_error, Some(false));
    // 1. Accepted and run (the default speed filled in).
    let done = call("move_arm_to_pose", json!({"x": 300, "y": 0, "z": 380})).await;
    assert_eq!(done.is_error, Some(false), "{}", text(&done));
    // 2. Declined: nothing ran.
    operator.decline.store(true, Ordering::SeqCst);
    let declined = call("move_arm_to_pose", json!({"x": 300, "y": 100, "z": 380})).await;
    assert!(
        text(&declined).starts_with("not confirmed"),
        "{}",
        text(&declined)
    );
    operator.decline.store(false, Ordering::SeqCst);
    // 3. Refused by validation, before anyone was asked.
    let invalid = call("move_arm_to_pose", json!({"x": 5000, "y": 0, "z": 380})).await;
    assert_eq!(invalid.is_error, Some(true));
    // 4. Cancelled by the client during the motion.
    let asked = operator.asked.load(Ordering::SeqCst);
    let handle = client
        .send_request_with_option(
            ClientRequest::CallToolRequest(rmcp::model::Request::new(params(
                "move_arm_to_pose",
                json!({"x": 300, "y": 200, "z": 380}),
            ))),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    while operator.asked.load(Ordering::SeqCst) == asked {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    handle
        .cancel(Some("the operator changed their mind".into()))
        .await
        .unwrap();
    wait_for_lines(&path, 4).await;
    // 5. Overran its deadline: halted by the safe stop.
    let late = call(
        "move_arm_to_pose",
        json!({"x": 300, "y": -200, "z": 380, "speed": 1.0}),
    )
    .await;
    assert!(text(&late).contains("deadline"), "{}", text(&late));
    // 6. A tool without `confirm` that is not read-only.
    let stopped = call("stop_arm", json!({})).await;
    assert_eq!(stopped.is_error, Some(false), "{}", text(&stopped));
    client.cancel().await.unwrap();

    // 7. Protocol 2026-07-28: the question is a round (a line of its own, `input required`),
    // and the call that brings the answer runs: a move of 10 mm from where the arm halted,
    // well within the deadline at 12 times its planned length.
    let client = common::connect_client(toolbox, operator.clone(), true).await;
    let at = client
        .call_tool(params("get_arm_state", json!({})))
        .await
        .unwrap()
        .structured_content
        .unwrap()["position"]
        .clone();
    let z = at["z"].as_f64().unwrap() - 10.0;
    let moved = client
        .call_tool(params(
            "move_arm_to_pose",
            json!({"x": at["x"], "y": at["y"], "z": z, "speed": 1.0}),
        ))
        .await
        .unwrap();
    assert_eq!(moved.is_error, Some(false), "{}", text(&moved));
    // 8. Refused by the tool's check (the gripper is empty), then by the arm's envelope (out of
    // reach): neither asked anyone, both recorded as refused with the reason.
    let empty = client
        .call_tool(params("release_object", json!({})))
        .await
        .unwrap();
    assert!(
        text(&empty).contains("gripper is empty"),
        "{}",
        text(&empty)
    );
    let far = client
        .call_tool(params(
            "move_arm_to_pose",
            json!({"x": 800, "y": 800, "z": 100}),
        ))
        .await
        .unwrap();
    assert!(
        text(&far).contains("outside the allowed sphere `reach`"),
        "{}",
        text(&far)
    );
    client.cancel().await.unwrap();

    let verified = verify(&path).unwrap();
    assert_eq!(verified.lines, 10);
    let log = lines(&path);
    let summary: Vec<(&str, &str, &str, &str)> = log
        .iter()
        .map(|l| {
            (
                l["tool"].as_str().unwrap(),
                l["confirmation"].as_str().unwrap(),
                l["outcome"].as_str().unwrap(),
                l["detail"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("move_arm_to_pose", "accepted", "ok", "ok"),
            ("move_arm_to_pose", "declined", "refused", "not_confirmed"),
            (
                "move_arm_to_pose",
                "not asked",
                "refused",
                "invalid_arguments"
            ),
            ("move_arm_to_pose", "accepted", "cancelled", "cancelled"),
            ("move_arm_to_pose", "accepted", "deadline passed", "timeout"),
            ("stop_arm", "not required", "ok", "ok"),
            (
                "move_arm_to_pose",
                "asked",
                "input required",
                "input_required"
            ),
            ("move_arm_to_pose", "accepted", "ok", "ok"),
            ("release_object", "not asked", "refused", "check_refused"),
            (
                "move_arm_to_pose",
                "not asked",
                "refused",
                "outside_envelope"
            ),
        ]
    );
    // The reasons, as the model was told them.
    assert!(
        log[8]["text"]
            .as_str()
            .unwrap()
            .contains("the gripper is empty"),
        "{}",
        log[8]["text"]
    );
    assert!(
        log[9]["text"]
            .as_str()
            .unwrap()
            .contains("outside the allowed sphere `reach`"),
        "{}",
        log[9]["text"]
    );
    // The arguments exactly as sent, and apart what validation filled in; refused ones as sent.
    assert_eq!(log[0]["arguments"], json!({"x": 300, "y": 0, "z": 380}));
    assert_eq!(log[0]["defaults"], json!({"/speed": 0.5}));
    assert_eq!(log[0]["validated"], true);
    assert!(log[2].get("defaults").is_none(), "{:?}", log[2]);
    // An approval says what the person was shown and which answer approved it: an elicitation
    // on 2025-11-25 (its request id), the call's round on 2026-07-28 (its id).
    let shown = |question: &str| {
        use sha2::Digest as _;
        sha2::Sha256::digest(question.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    assert_eq!(
        log[0]["approval"]["question"],
        shown("Move the arm to (300 mm, 0 mm, 380 mm) at 0.5 of full speed?")
    );
    assert_eq!(log[0]["approval"]["via"], "elicitation");
    assert!(!log[0]["approval"]["id"].as_str().unwrap().is_empty());
    assert_eq!(log[7]["approval"]["via"], "round");
    assert_eq!(log[7]["approval"]["id"].as_str().unwrap().len(), 32);
    for line in [&log[1], &log[2], &log[5], &log[6]] {
        assert!(line.get("approval").is_none(), "{line:?}");
    }
    assert_eq!(log[2]["arguments"]["x"], 5000);
    assert_eq!(log[2]["validated"], false);
    // What the model was told, halted position included.
    assert!(
        log[1]["text"]
            .as_str()
            .unwrap()
            .starts_with("not confirmed: the user declined"),
        "{}",
        log[1]["text"]
    );
    assert!(
        log[2]["text"].as_str().unwrap().contains("5000"),
        "{}",
        log[2]["text"]
    );
    assert!(
        log[3]["text"].as_str().unwrap().contains("halted at"),
        "{}",
        log[3]["text"]
    );
    let deadline = log[4]["text"].as_str().unwrap();
    assert!(
        deadline.contains("3 s deadline") && deadline.contains("halted at"),
        "{deadline}"
    );
    // Chained, numbered, with the call's trace id; no authentication here, so no principal.
    for (i, line) in log.iter().enumerate() {
        assert_eq!(line["seq"], i as u64 + 1);
        assert_eq!(line["principal"], Value::Null);
        assert!(!line["trace_id"].as_str().unwrap().is_empty());
        if i > 0 {
            assert_eq!(line["prev"], log[i - 1]["hash"]);
        }
    }
    // The trace id the model's result carries.
    assert_eq!(
        log[0]["trace_id"],
        done.meta.as_ref().unwrap().0[toolwright::TRACE_ID_META]
    );
    assert_eq!(log[0]["prev"], toolwright::audit::GENESIS);
    assert_eq!(log[9]["hash"], verified.last_hash.as_str());

    // Any line altered: verification names it.
    let bytes = std::fs::read(&path).unwrap();
    let mut start = 0;
    for (i, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        for at in [start, start + line.len() / 2, start + line.len() - 2] {
            let mut altered = bytes.clone();
            altered[at] ^= 0x04;
            let copy = path.with_extension(format!("altered-{at}"));
            std::fs::write(&copy, &altered).unwrap();
            match verify(&copy) {
                Err(VerifyError::Line { line, .. }) => {
                    assert_eq!(line, i as u64 + 1, "byte {at}")
                }
                other => panic!("byte {at}: {other:?}"),
            }
        }
        start += line.len();
    }
}

/// Over HTTP with a token, the line names the authenticated principal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_the_line_names_the_principal() {
    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    use toolwright::HttpOptions;

    const TOKEN: &str = "audit-token-0123456789abcdef";
    let path = temp("http");
    let toolbox = robot_arm::server(SimConfig {
        time_scale: 0.0,
        ..SimConfig::default()
    })
    .with_confirmation(false)
    .with_audit_log(AuditLog::open(&path).unwrap())
    .build()
    .unwrap();
    let server = toolbox
        .serve_http_with(HttpOptions::new("127.0.0.1:0".parse().unwrap()).bearer_token(TOKEN))
        .await
        .unwrap();
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(server.url()).auth_header(TOKEN),
    );
    let client = ().serve(transport).await.unwrap();
    let moved = client
        .call_tool(params(
            "move_arm_to_pose",
            json!({"x": 300, "y": 0, "z": 350}),
        ))
        .await
        .unwrap();
    assert_eq!(moved.is_error, Some(false), "{}", text(&moved));
    client.cancel().await.unwrap();
    let log = lines(&path);
    assert_eq!(log.len(), 1);
    assert_eq!(log[0]["principal"], "bearer");
    // Confirmation off: not required.
    assert_eq!(log[0]["confirmation"], "not required");
    assert_eq!(verify(&path).unwrap().lines, 1);
}

// ---------------------------------------------------------------------------------------------
// The built binary: `serve --audit-log` and `audit verify`.

/// The built binary (built once: the checks below run it a few hundred times).
fn binary() -> &'static Path {
    static BINARY: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BINARY.get_or_init(common::robot_arm_binary)
}

fn run(args: &[&str]) -> Output {
    Command::new(binary())
        .args(args)
        .env("ROBOT_ARM_TIME_SCALE", "0")
        .env("RUST_LOG", "warn")
        .output()
        .expect("the binary runs")
}

fn verify_cli(path: &Path) -> Output {
    run(&["audit", "verify", path.to_str().unwrap()])
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

/// Serves the binary over stdio with `--audit-log path`, makes two calls that are recorded
/// (a move and a refused one) and one that is not (read-only), and quits.
async fn serve_session(path: &Path) {
    let mut command = tokio::process::Command::new(binary());
    command
        .args([
            "serve",
            "--confirm=off",
            "--audit-log",
            path.to_str().unwrap(),
        ])
        .env("ROBOT_ARM_TIME_SCALE", "0")
        .env("RUST_LOG", "warn");
    let client = ().serve(rmcp::transport::TokioChildProcess::new(command).unwrap()).await.unwrap();
    for (tool, args) in [
        ("move_arm_to_pose", json!({"x": 300, "y": 0, "z": 350})),
        ("get_arm_state", json!({})),
        ("move_arm_to_pose", json!({"x": -5000, "y": 0, "z": 350})),
    ] {
        client.call_tool(params(tool, args)).await.unwrap();
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn audit_verify_on_the_binary_names_every_altered_line_and_a_torn_tail() {
    let path = temp("cli");
    serve_session(&path).await;
    let o = verify_cli(&path);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(
        out(&o).contains(
            ": verified: 2 lines, each chained to the one before it. Not proven: the log has no key"
        ),
        "{}",
        out(&o)
    );
    // Served again, it continues the chain.
    serve_session(&path).await;
    let o = verify_cli(&path);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(out(&o).contains(": 4 lines"), "{}", out(&o));

    // Each line, at its first bytes, its end, its newline and every 37th byte in between (the
    // unit tests flip every byte of a log in-process).
    let bytes = std::fs::read(&path).unwrap();
    let altered_path = path.with_extension("altered");
    let mut start = 0;
    let mut checked = 0;
    for (i, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        let end = start + line.len();
        let positions = (start..end)
            .step_by(37)
            .chain([start + 1, end - 2, end - 1]);
        for at in positions {
            let mut altered = bytes.clone();
            altered[at] ^= 0x01;
            std::fs::write(&altered_path, &altered).unwrap();
            let o = verify_cli(&altered_path);
            assert_eq!(o.status.code(), Some(1), "byte {at}: {}", out(&o));
            assert!(
                out(&o).contains(&format!(": line {} ", i + 1)),
                "byte {at} is on line {}: {}",
                i + 1,
                out(&o)
            );
            checked += 1;
        }
        start = end;
    }
    assert!(checked > 4 * 10, "{checked} positions");

    // A torn last line: reported (exit 1, naming it); the next server cuts it off.
    let torn = &bytes[..bytes.len() - 30];
    std::fs::write(&path, torn).unwrap();
    let o = verify_cli(&path);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(out(&o).contains(": line 4 is torn"), "{}", out(&o));
    assert!(
        out(&o).contains("the 3 line(s) before it verify"),
        "{}",
        out(&o)
    );
    serve_session(&path).await;
    let o = verify_cli(&path);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(out(&o).contains(": 5 lines"), "{}", out(&o));

    // A log that does not verify: the server refuses to start, and leaves it as it is.
    let mut bad = std::fs::read(&path).unwrap();
    bad[40] ^= 0x01;
    std::fs::write(&path, &bad).unwrap();
    let o = run(&["serve", "--audit-log", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(out(&o).contains("does not verify: line 1"), "{}", out(&o));
    assert_eq!(std::fs::read(&path).unwrap(), bad);
    // And a file that cannot be read.
    let o = verify_cli(&path.with_extension("missing"));
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
}

/// Serves the binary with a keyed log and a head file (`--audit-key-env`, `--audit-head-file`)
/// for one recorded call.
async fn serve_keyed(path: &Path, heads: &Path) {
    let mut command = tokio::process::Command::new(binary());
    command
        .args([
            "serve",
            "--confirm=off",
            "--audit-log",
            path.to_str().unwrap(),
            "--audit-key-env",
            "ARM_AUDIT_KEY",
            "--audit-head-file",
            heads.to_str().unwrap(),
        ])
        .env("ARM_AUDIT_KEY", "0123456789abcdef0123456789abcdef-lab")
        .env("ROBOT_ARM_TIME_SCALE", "0")
        .env("RUST_LOG", "warn");
    let client = ().serve(rmcp::transport::TokioChildProcess::new(command).unwrap()).await.unwrap();
    for z in [350, 360] {
        let r = client
            .call_tool(params(
                "move_arm_to_pose",
                json!({"x": 300, "y": 0, "z": z}),
            ))
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(false), "{}", text(&r));
    }
    client.cancel().await.unwrap();
}

/// `verify_cli` with further arguments (the key in `ARM_AUDIT_KEY`).
fn verify_with(path: &Path, more: &[&str]) -> Output {
    Command::new(binary())
        .args(["audit", "verify", path.to_str().unwrap()])
        .args(more)
        .env("ARM_AUDIT_KEY", "0123456789abcdef0123456789abcdef-lab")
        .env("RUST_LOG", "warn")
        .output()
        .expect("the binary runs")
}

/// Issue 43: with a key and a head anchored outside the file, `audit verify` finds a rewrite
/// with recomputed hashes and a cut tail, which a plain chain cannot; without them it says what
/// it does not prove.
#[tokio::test]
async fn a_key_and_a_head_find_a_rewrite_and_a_cut_tail() {
    let path = temp("keyed");
    let heads = path.with_extension("heads");
    serve_keyed(&path, &heads).await;
    serve_keyed(&path, &heads).await;
    let o = verify_with(
        &path,
        &[
            "--key-env",
            "ARM_AUDIT_KEY",
            "--head-file",
            heads.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(
        out(&o).contains(
            ": verified: 4 lines, each chained to the one before it, each with a \
                          valid HMAC-SHA-256 under the key given"
        ) && out(&o).contains("the anchored head is its last line"),
        "{}",
        out(&o)
    );
    // Without the key the log is consistent, and verify says what it did not check.
    let o = verify_with(&path, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(
        out(&o).contains("4 lines carry an HMAC that was not checked"),
        "{}",
        out(&o)
    );
    // Without the key, the server does not continue it.
    let o = run(&["serve", "--audit-log", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(out(&o).contains("is keyed"), "{}", out(&o));

    // Line 1's arguments rewritten and every hash recomputed, as someone who can write the file
    // but has no key would.
    let text = std::fs::read_to_string(&path).unwrap();
    let mut forged = String::new();
    let mut prev = toolwright::audit::GENESIS.to_owned();
    for (i, line) in text.lines().enumerate() {
        let mut map: Map<String, Value> = serde_json::from_str(line).unwrap();
        map.shift_remove("hash");
        map["prev"] = Value::from(prev.as_str());
        map["chain"] = Value::from("sha256");
        if i == 0 {
            map["arguments"] = json!({"x": 850, "y": 0, "z": 20});
        }
        let canonical = Value::Object(map).to_string();
        use sha2::Digest as _;
        let hash: String = sha2::Sha256::digest(canonical.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        forged.push_str(&canonical[..canonical.len() - 1]);
        forged.push_str(&format!(",\"hash\":\"{hash}\"}}\n"));
        prev = hash;
    }
    let forged_path = path.with_extension("forged");
    std::fs::write(&forged_path, &forged).unwrap();
    let o = verify_with(&forged_path, &[]);
    assert_eq!(o.status.code(), Some(0), "consistent: {}", out(&o));
    assert!(
        out(&o).contains("Not proven: the log has no key"),
        "{}",
        out(&o)
    );
    let o = verify_with(&forged_path, &["--key-env", "ARM_AUDIT_KEY"]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(out(&o).contains(": line 1 is not keyed"), "{}", out(&o));
    let o = verify_with(&forged_path, &["--head-file", heads.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(
        out(&o).contains("is not in the log (4 lines)"),
        "{}",
        out(&o)
    );

    // The last line deleted: the chain is intact, the head is not in it.
    let cut: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
    let cut_path = path.with_extension("cut");
    std::fs::write(&cut_path, cut).unwrap();
    let o = verify_with(&cut_path, &["--key-env", "ARM_AUDIT_KEY"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(
        out(&o).contains("that no lines were cut from its end"),
        "{}",
        out(&o)
    );
    let o = verify_with(
        &cut_path,
        &[
            "--key-env",
            "ARM_AUDIT_KEY",
            "--head-file",
            heads.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(
        out(&o).contains("lines were cut from its end, or it was rewritten"),
        "{}",
        out(&o)
    );
    // A head given by hand, and a key too short.
    let o = verify_with(&cut_path, &["--head", "4:abc"]);
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    let o = Command::new(binary())
        .args([
            "audit",
            "verify",
            path.to_str().unwrap(),
            "--key-env",
            "SHORT",
        ])
        .env("SHORT", "too short")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    assert!(out(&o).contains("at least 32 bytes"), "{}", out(&o));
}

/// A log that cannot be written (here: the file size limit, `ulimit -f`, reached in the middle
/// of the second line): the call that could not be recorded says so in its answer, every later
/// call of a tool that is not read-only is refused and does not move the arm, read-only tools
/// still answer; the torn line is reported by `audit verify` and cut off by the next server.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_log_that_cannot_be_written_stops_the_motions_not_the_sensors() {
    let path = temp("limit");
    let mut command = tokio::process::Command::new("bash");
    command
        .args([
            "-c",
            // Ignored, SIGXFSZ does not kill the server: the write fails with EFBIG instead.
            "trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\"",
            binary().to_str().unwrap(),
            "serve",
            "--confirm=off",
            "--audit-log",
            path.to_str().unwrap(),
        ])
        .env("ROBOT_ARM_TIME_SCALE", "0")
        .env("RUST_LOG", "error");
    let client = ().serve(rmcp::transport::TokioChildProcess::new(command).unwrap()).await.unwrap();
    let mv = |z: u32| params("move_arm_to_pose", json!({"x": 300, "y": 0, "z": z}));
    // Bash's limit is 1,024 bytes: a line of about 500 bytes does not fit within a few calls.
    let mut unrecorded = None;
    for (i, z) in (350..400).step_by(10).enumerate() {
        let moved = client.call_tool(mv(z)).await.unwrap();
        assert_eq!(moved.is_error, Some(false), "it moved: {}", text(&moved));
        if text(&moved).contains("warning: this call has no audit record") {
            unrecorded = Some((i + 1, z));
            break;
        }
        assert!(!text(&moved).contains("audit"), "{}", text(&moved));
    }
    let (torn, z) = unrecorded.expect("a line did not fit");
    assert!(torn >= 2, "line {torn}");
    let third = client.call_tool(mv(z + 10)).await.unwrap();
    assert_eq!(third.is_error, Some(true), "{}", text(&third));
    assert!(
        text(&third).starts_with("refused: `move_arm_to_pose` did not run"),
        "{}",
        text(&third)
    );
    let state = client
        .call_tool(params("get_arm_state", json!({})))
        .await
        .unwrap();
    assert_eq!(state.is_error, Some(false), "{}", text(&state));
    assert_eq!(
        state.structured_content.unwrap()["position"]["z"],
        json!(f64::from(z)),
        "the refused motion did not run"
    );
    client.cancel().await.unwrap();

    let o = verify_cli(&path);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(
        out(&o).contains(&format!(": line {torn} is torn")),
        "{}",
        out(&o)
    );
    serve_session(&path).await;
    let o = verify_cli(&path);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(
        out(&o).contains(&format!(": {} lines", torn - 1 + 2)),
        "{}",
        out(&o)
    );
}
