//! The fault paths of a call, on the robot-arm example with real (scaled-down) simulated time,
//! through rmcp's client: a motion past its deadline and a cancelled motion are halted exactly
//! once and leave the arm usable; a motion that cannot finish in time is refused before it
//! starts; a blocking body is answered at its deadline while other tools keep answering and the
//! arm stays reserved until the body returns; calls on the arm run in arrival order, and a full
//! queue refuses at once; a refusal with thousands of problems stays bounded; a client gone
//! (stdio, HTTP) mid-motion gets it halted within its grace period plus 0.5 s (on HTTP 2025-11-25,
//! once its stream is not resumed within the resume window).

mod common;

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::http::{Wire, result_text};
use common::raw::Raw;
use common::{call, connect, eventually, text};
use rmcp::model::{CallToolRequestParams, ClientRequest, Request};
use rmcp::service::PeerRequestOptions;
use serde_json::{Map, Value, json};
use toolwright::{Toolbox, ToolboxBuilder, tool, tool_defs};
use toolwright_examples::robot_arm::{self, RobotArm, SimConfig};

fn arm(time_scale: f64) -> ToolboxBuilder<RobotArm> {
    Toolbox::builder(RobotArm::new(SimConfig {
        time_scale,
        ..SimConfig::default()
    }))
    .with_confirmation(false)
}

/// The example's server (deadlines scaled with time), at this time scale and motor lag.
fn sim(time_scale: f64, motor_lag: f64) -> ToolboxBuilder<RobotArm> {
    robot_arm::server(SimConfig {
        time_scale,
        motor_lag,
        ..SimConfig::default()
    })
    .with_confirmation(false)
}

fn position(v: &Value) -> (f64, f64, f64) {
    (
        v["x"].as_f64().unwrap(),
        v["y"].as_f64().unwrap(),
        v["z"].as_f64().unwrap(),
    )
}

/// `(x, y, z)` from "halted at (x, y, z) mm" in a message.
fn halted_at(text: &str) -> (f64, f64, f64) {
    let start = text.find("halted at (").expect("a halt position") + "halted at (".len();
    let end = start + text[start..].find(')').unwrap();
    let n: Vec<f64> = text[start..end]
        .split(", ")
        .map(|n| n.parse().unwrap())
        .collect();
    (n[0], n[1], n[2])
}

fn close(a: (f64, f64, f64), b: (f64, f64, f64)) -> bool {
    (a.0 - b.0).abs() <= 1.0 && (a.1 - b.1).abs() <= 1.0 && (a.2 - b.2).abs() <= 1.0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_motion_past_its_deadline_is_halted_once_and_the_next_motion_succeeds() {
    // At 1/50 of real time the 30 s deadline is 600 ms; the motor lags 40 times behind the plan,
    // so a 3.6 s (72 ms) motion really takes 2.9 s and overruns it after it started.
    let toolbox = sim(0.02, 40.0).build().unwrap();
    let arm = toolbox.clone();
    let client = connect(toolbox).await;
    let started = Instant::now();
    let r = call(
        &client,
        "move_arm_to_pose",
        json!({"x": -600, "y": 0, "z": 300, "speed": 0.5}),
    )
    .await;
    let took = started.elapsed();
    assert_eq!(r.is_error, Some(true));
    let t = text(&r);
    assert!(
        t.starts_with(
            "Tool `move_arm_to_pose` did not finish within its 600 ms deadline; it was told to \
             stop and returned "
        ),
        "{t}"
    );
    assert!(t.contains("saying: motion stopped at ("), "{t}");
    assert!(t.contains(". Safe stop of `arm`: halted at ("), "{t}");
    assert!(
        t.ends_with("mm. Check the current state before trying again."),
        "{t}"
    );
    assert!(!t.contains("was stopped"), "{t}");
    assert!(
        took >= Duration::from_millis(600) && took < Duration::from_millis(2_900),
        "answered at the deadline, before the motion would have ended: {took:?}"
    );
    assert_eq!(arm.state().halts(), 1, "the safe stop ran once");

    let state = call(&client, "get_arm_state", json!({})).await;
    let state = state.structured_content.unwrap();
    assert_eq!(state["moving"], json!(false));
    let at = position(&state["position"]);
    assert!(close(at, halted_at(&t)), "{at:?} vs {t}");
    assert!(at.0 < 300.0 && at.0 > -600.0, "stopped part-way: {at:?}");

    // The arm is usable at once: a short move succeeds.
    let r = call(
        &client,
        "move_arm_to_pose",
        json!({"x": at.0 + 10.0, "y": at.1, "z": at.2, "speed": 1.0}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    assert_eq!(
        arm.state().halts(),
        1,
        "no safe stop after a completed call"
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_motion_is_halted_once_and_the_next_motion_succeeds() {
    // At 1/20 of real time: 905 mm at 50 mm/s is an 18 s (0.9 s) motion.
    let toolbox = sim(0.05, 1.0).build().unwrap();
    let arm = toolbox.clone();
    let client = connect(toolbox).await;
    let params = CallToolRequestParams::new("move_arm_to_pose").with_arguments(
        json!({"x": -600, "y": 0, "z": 300, "speed": 0.1})
            .as_object()
            .unwrap()
            .clone(),
    );
    let handle = client
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(params)),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    let mut seen_moving = false;
    for _ in 0..200 {
        let s = call(&client, "get_arm_state", json!({})).await;
        if s.structured_content.unwrap()["moving"] == json!(true) {
            seen_moving = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(seen_moving, "the motion started");
    tokio::time::sleep(Duration::from_millis(100)).await;
    handle
        .cancel(Some("the user changed their mind".into()))
        .await
        .unwrap();
    let state = arm.state().clone();
    assert!(
        eventually(|| state.halts() == 1).await,
        "the safe stop ran after the cancel"
    );
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(arm.state().halts(), 1, "exactly once");

    let s = call(&client, "get_arm_state", json!({})).await;
    let s = s.structured_content.unwrap();
    assert_eq!(s["moving"], json!(false));
    let at = position(&s["position"]);
    assert!(at.0 < 300.0 && at.0 > -600.0, "stopped part-way: {at:?}");
    let r = call(
        &client,
        "move_arm_to_pose",
        json!({"x": 300, "y": 0, "z": 400, "speed": 1.0}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    assert_eq!(
        r.structured_content.unwrap()["position"],
        json!({"x": 300.0, "y": 0.0, "z": 400.0})
    );
    assert_eq!(arm.state().halts(), 1);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_motion_that_cannot_finish_in_time_is_refused_before_it_starts() {
    // At 1/20 of real time, a 0.75 s deadline is 15 simulated seconds.
    let toolbox = sim(0.05, 1.0)
        .with_default_timeout(Duration::from_millis(750))
        .build()
        .unwrap();
    let arm = toolbox.clone();
    let client = connect(toolbox).await;
    let r = call(
        &client,
        "move_arm_to_pose",
        json!({"x": 800, "y": 0, "z": 300, "speed": 1.0}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    // 950 mm (within the arm's longest straight motion, 1000 mm) at 50 mm/s needs 19 s.
    let r = call(
        &client,
        "move_arm_to_pose",
        json!({"x": -150, "y": 0, "z": 300, "speed": 0.1}),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
    let t = text(&r);
    assert!(
        t.starts_with(
            "this move (950 mm at speed 0.1) would take 19.0 s, and the call's deadline leaves \
             "
        ),
        "{t}"
    );
    assert!(
        t.ends_with(
            " s; it was not started\nHint: raise speed (at 1.0 it takes 1.9 s), or split the \
             move into shorter ones"
        ),
        "{t}"
    );
    let s = call(&client, "get_arm_state", json!({})).await;
    let s = s.structured_content.unwrap();
    assert_eq!(s["moving"], json!(false));
    assert_eq!(s["position"], json!({"x": 800.0, "y": 0.0, "z": 300.0}));
    assert_eq!(arm.state().halts(), 0, "nothing ended early");
    client.cancel().await.unwrap();
}

static DRIVER_RUNNING: AtomicBool = AtomicBool::new(false);
static DRIVER_RETURNED: Mutex<Option<Instant>> = Mutex::new(None);

/// Read the joint encoders over the serial bus (a blocking driver call that ignores its
/// deadline).
#[tool(resource = "arm", timeout = "1s", grace = "100ms", read_only)]
fn read_encoders() -> String {
    DRIVER_RUNNING.store(true, Ordering::SeqCst);
    std::thread::sleep(Duration::from_secs(3));
    *DRIVER_RETURNED.lock().unwrap() = Some(Instant::now());
    DRIVER_RUNNING.store(false, Ordering::SeqCst);
    "encoders read".into()
}

/// The README's runtime: one thread. A blocking body must not hold up the others.
#[tokio::test(flavor = "current_thread")]
async fn a_blocking_body_is_answered_at_its_deadline_and_keeps_the_arm_until_it_returns() {
    let toolbox = arm(0.05)
        .with_tools(tool_defs![read_encoders])
        .with_resource("arm")
        .build()
        .unwrap();
    let arm = toolbox.clone();
    let client = std::sync::Arc::new(connect(toolbox).await);
    let started = Instant::now();
    let slow = {
        let client = std::sync::Arc::clone(&client);
        tokio::spawn(async move { call(&client, "read_encoders", json!({})).await })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(DRIVER_RUNNING.load(Ordering::SeqCst), "the body is running");

    // Another tool answers while the body blocks its thread.
    let asked = Instant::now();
    let s = call(&client, "get_arm_state", json!({})).await;
    let answered_in = asked.elapsed();
    assert_eq!(s.is_error, Some(false));
    assert!(
        DRIVER_RUNNING.load(Ordering::SeqCst),
        "answered while the body still ran"
    );
    assert!(answered_in < Duration::from_millis(500), "{answered_in:?}");

    let r = slow.await.unwrap();
    let answered_at = started.elapsed();
    assert!(
        DRIVER_RUNNING.load(Ordering::SeqCst),
        "answered before the body returned"
    );
    assert!(
        answered_at >= Duration::from_secs(1) && answered_at < Duration::from_millis(2_500),
        "answered at its deadline plus grace: {answered_at:?}"
    );
    assert_eq!(r.is_error, Some(true));
    assert_eq!(
        text(&r),
        "Tool `read_encoders` did not finish within its 1 s deadline; it was told to stop and \
         is still running after its 100 ms grace period (its code blocks a thread and cannot be \
         interrupted). Safe stop of `arm`: halted at (300, 0, 400) mm. `arm` stays reserved \
         until the call returns; calls that need it wait. Check the current state before trying \
         again."
    );
    assert_eq!(arm.state().halts(), 1);

    // A motion waits for the body to return.
    let r = call(
        &client,
        "move_arm_to_pose",
        json!({"x": 310, "y": 0, "z": 400, "speed": 1.0}),
    )
    .await;
    let moved_at = Instant::now();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    let returned = DRIVER_RETURNED.lock().unwrap().expect("the body returned");
    assert!(
        moved_at > returned,
        "the motion ran only after the blocking body returned"
    );
}

fn move_line(id: u64, x: f64) -> String {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "tools/call",
        "params": {"name": "move_arm_to_pose", "arguments": {"x": x, "y": 0, "z": 400, "speed": 1.0}},
    })
    .to_string()
}

/// Reads `n` responses; returns each one's distance travelled, by request id.
async fn distances(raw: &mut Raw, n: usize) -> std::collections::BTreeMap<u64, f64> {
    let mut seen = std::collections::BTreeMap::new();
    while seen.len() < n {
        let m = raw.next().await;
        if let Some(id) = m["id"].as_u64() {
            assert_eq!(m["result"]["isError"], json!(false), "call {id}: {m}");
            let d = m["result"]["structuredContent"]["distance"]
                .as_f64()
                .unwrap();
            seen.insert(id, d);
        }
    }
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forty_calls_sent_together_run_in_arrival_order() {
    // The deadline is not under test here: a long one keeps a loaded machine from failing it.
    let mut raw = Raw::connect(
        sim(0.05, 1.0)
            .with_max_waiting("arm", 64)
            .with_default_timeout(Duration::from_secs(30))
            .build()
            .unwrap(),
    )
    .await;
    // Call k moves the arm from x = 300 + k - 1 to 300 + k: 1 mm if the calls run in the order
    // they were sent, more if one overtakes another.
    let lines: Vec<String> = (1..=40)
        .map(|id| move_line(id, 300.0 + id as f64))
        .collect();
    raw.send_together(&lines).await;
    let seen = distances(&mut raw, 40).await;
    assert_eq!(seen.len(), 40);
    for (id, d) in &seen {
        assert_eq!(
            *d,
            1.0,
            "call {id} did not start where call {} ended: {seen:?}",
            id - 1
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seventeenth_waiter_is_refused_at_once() {
    // The deadline is not under test here (the queue's bound is): with the scaled one (1.5 s),
    // a loaded machine timed out the last waiter before its turn.
    let mut raw = Raw::connect(
        sim(0.05, 1.0)
            .with_default_timeout(Duration::from_secs(30))
            .build()
            .unwrap(),
    )
    .await;
    // One motion of 905 mm at 50 mm/s (18 s simulated, 0.9 s real) holds the arm; 17 more wait
    // for it behind it, and the queue takes 16.
    let mut lines = vec![
        json!({
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "move_arm_to_pose", "arguments": {"x": -600, "y": 0, "z": 400, "speed": 0.1}},
        })
        .to_string(),
    ];
    lines.extend((2..=18).map(|id| move_line(id, -600.0 + (id - 1) as f64)));
    let sent = Instant::now();
    raw.send_together(&lines).await;
    let first = raw.next().await;
    assert_eq!(first["id"], json!(18), "the refusal comes first: {first}");
    assert!(sent.elapsed() < Duration::from_millis(500), "at once");
    assert_eq!(first["result"]["isError"], json!(true));
    assert_eq!(
        first["result"]["content"][0]["text"],
        json!(
            "Tool `move_arm_to_pose` was not run: 16 calls are already waiting for `arm` (the \
             most it queues) behind the one using it. Call it again once some have finished."
        )
    );
    assert_eq!(
        first["result"]["_meta"]["io.toolwright/retryable"],
        json!(true)
    );
    let seen = distances(&mut raw, 17).await;
    assert_eq!(seen[&1], 900.0);
    for id in 2..=17 {
        assert_eq!(seen[&id], 1.0, "call {id} ran in its turn: {seen:?}");
    }
}

#[tokio::test]
async fn ten_thousand_unknown_keys_give_a_bounded_refusal() {
    let client = connect(arm(0.0).build().unwrap()).await;
    let mut args: Map<String, Value> = (0..10_000)
        .map(|i| (format!("unknown_{i:05}"), json!(i)))
        .collect();
    args.insert("x".into(), json!(400));
    args.insert("y".into(), json!(0));
    args.insert("z".into(), json!(200));
    let r = call(&client, "move_arm_to_pose", Value::Object(args)).await;
    assert_eq!(r.is_error, Some(true));
    let text = text(&r);
    assert!(text.len() < 4_096, "{} bytes:\n{text}", text.len());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "Invalid arguments for tool `move_arm_to_pose` (10,000 problems):"
    );
    assert!(
        lines[1].starts_with("- unknown_00000: unknown argument; allowed: x, y, z, speed"),
        "{}",
        lines[1]
    );
    assert_eq!(
        lines.len(),
        23,
        "20 problems, the count of the rest, the fix:\n{text}"
    );
    assert!(lines[21].starts_with("- … and 9,980 more"), "{}", lines[21]);
    assert_eq!(
        lines[22],
        "The tool did not run. Fix the arguments above and call it again."
    );
    let state = call(&client, "get_arm_state", json!({})).await;
    assert_eq!(
        state.structured_content.unwrap()["position"],
        json!({"x": 300.0, "y": 0.0, "z": 400.0}),
        "the arm did not move"
    );
    client.cancel().await.unwrap();
}

/// The robot-arm binary serving stdio in real time, confirmation off, logging to `log`, its
/// stdin and stdout piped.
fn robot_on_stdio(log: &std::path::Path) -> tokio::process::Child {
    tokio::process::Command::new(common::robot_arm_binary())
        .args(["serve", "--confirm=off"])
        .env("ROBOT_ARM_TIME_SCALE", "1.0")
        .env("RUST_LOG", "info")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .unwrap()
}

/// An rmcp client over the child's pipes, on protocol 2026-07-28 (`server/discover`) or
/// 2025-11-25 (`initialize`).
async fn client_of(
    child: &mut tokio::process::Child,
    on_2026: bool,
) -> rmcp::service::RunningService<rmcp::RoleClient, ()> {
    use rmcp::ServiceExt as _;
    use rmcp::model::ProtocolVersion;
    use rmcp::service::{ClientLifecycleMode, ClientServiceExt as _};
    let pipes = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
    if !on_2026 {
        return ().serve(pipes).await.unwrap();
    }
    ().serve_with_lifecycle(
        pipes,
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
    )
    .await
    .unwrap()
}

/// A client that goes away during a 10 s motion over stdio (its pipes close): the motion is
/// told to stop at once, the arm is halted, and the process exits, within the motion's grace
/// period (1 s) plus 0.5 s: rmcp's own 5 s wait after stdin closes is not waited for. On both
/// protocol revisions; the process is the robot-arm example itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_gone_on_stdio_gets_the_arm_halted_within_the_grace_period() {
    for on_2026 in [false, true] {
        let log = std::env::temp_dir().join(format!(
            "robot-arm-gone-{}-{on_2026}.log",
            std::process::id()
        ));
        let mut child = robot_on_stdio(&log);
        let client = std::sync::Arc::new(client_of(&mut child, on_2026).await);
        // From home to (-600, 0, 300) at 90 mm/s: 905 mm, 10 s in real time.
        let motion = {
            let client = std::sync::Arc::clone(&client);
            tokio::spawn(async move {
                let args = json!({"x": -600, "y": 0, "z": 300, "speed": 0.18});
                let params = CallToolRequestParams::new("move_arm_to_pose")
                    .with_arguments(args.as_object().unwrap().clone());
                client.call_tool(params).await
            })
        };
        let mut moving = false;
        for _ in 0..200 {
            let s = call(&*client, "get_arm_state", json!({})).await;
            if s.structured_content.unwrap()["moving"] == json!(true) {
                moving = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(moving, "the motion started");
        tokio::time::sleep(Duration::from_millis(300)).await;
        let gone = Instant::now();
        client.cancellation_token().cancel();
        let status = tokio::time::timeout(Duration::from_secs(10), child.wait())
            .await
            .expect("the server exits")
            .unwrap();
        let exited = gone.elapsed();
        assert!(motion.await.unwrap().is_err(), "the client had no answer");
        let log = std::fs::read_to_string(&log).unwrap();
        assert!(status.success(), "{log}");
        assert!(
            log.lines().any(|l| l.contains("safe stop")
                && l.contains("resource=arm")
                && l.contains("halted at")),
            "the arm was halted before the process ended:\n{log}"
        );
        assert!(
            log.contains("reason=Gone(Disconnected)"),
            "told to stop because its client went away:\n{log}"
        );
        eprintln!("on 2026-07-28: {on_2026}: halted and exited {exited:?} after stdin closed");
        assert!(
            exited < Duration::from_millis(1500),
            "halted and exited within the grace period (1 s) plus 0.5 s: {exited:?}\n{log}"
        );
    }
}

/// Sends `signal` (`TERM`, `INT`) to the process `pid`.
fn send_signal(pid: u32, signal: &str) {
    let status = std::process::Command::new("kill")
        .args([format!("-{signal}"), pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -{signal} {pid}");
}

/// `SIGTERM` (or `SIGINT`) during a motion, over stdio and over HTTP: `serve` tells every
/// running call to stop, runs the safe stops, and only then exits (0); the arm is halted within
/// the grace period (1 s) plus 0.5 s of the signal. The process is the robot-arm example.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signal_during_a_motion_halts_the_arm_before_the_process_exits() {
    for (signal, http) in [("TERM", false), ("INT", false), ("TERM", true)] {
        let log = std::env::temp_dir().join(format!(
            "robot-arm-signal-{}-{signal}-{http}.log",
            std::process::id()
        ));
        let mut command = tokio::process::Command::new(common::robot_arm_binary());
        command.args(["serve", "--confirm=off"]);
        if http {
            command.args(["--http", "127.0.0.1:0"]);
        }
        let mut child = command
            .env("ROBOT_ARM_TIME_SCALE", "1.0")
            .env("RUST_LOG", "info")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let pid = child.id().unwrap();
        // A 10 s motion (from home to (-600, 0, 300) at 90 mm/s), from a client that stays.
        let motion = json!({"x": -600, "y": 0, "z": 300, "speed": 0.18});
        let (_client, _http_call) = if http {
            let mut url = None;
            for _ in 0..500 {
                let text = std::fs::read_to_string(&log).unwrap();
                if let Some(at) = text.find("serving MCP over streamable HTTP at ") {
                    let rest = &text[at + "serving MCP over streamable HTTP at ".len()..];
                    url = rest.split_whitespace().next().map(str::to_owned);
                    break;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            let url = url.expect("the server says where it serves");
            let wire = Wire::open(&url, "2026-07-28").await;
            let call = wire.call(1, "move_arm_to_pose", motion, json!({}));
            let posting = {
                let (wire, url) = (wire.clone(), url.clone());
                tokio::spawn(async move { wire.post(&url, &call).await.text().await })
            };
            let mut moving = false;
            for id in 100..400 {
                let s = wire.call_result(&url, id, "get_arm_state", json!({})).await;
                if s["structuredContent"]["moving"] == json!(true) {
                    moving = true;
                    break;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            assert!(moving, "the motion started");
            (None, Some(posting))
        } else {
            let client = std::sync::Arc::new(client_of(&mut child, false).await);
            let calling = std::sync::Arc::clone(&client);
            tokio::spawn(async move {
                let params = CallToolRequestParams::new("move_arm_to_pose")
                    .with_arguments(motion.as_object().unwrap().clone());
                calling.call_tool(params).await
            });
            let mut moving = false;
            for _ in 0..200 {
                let s = call(&*client, "get_arm_state", json!({})).await;
                if s.structured_content.unwrap()["moving"] == json!(true) {
                    moving = true;
                    break;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            assert!(moving, "the motion started");
            (Some(client), None)
        };
        tokio::time::sleep(Duration::from_millis(300)).await;
        let signalled = Instant::now();
        send_signal(pid, signal);
        let status = tokio::time::timeout(Duration::from_secs(20), child.wait())
            .await
            .expect("the server exits")
            .unwrap();
        let exited = signalled.elapsed();
        let log = std::fs::read_to_string(&log).unwrap();
        assert!(
            status.success(),
            "SIG{signal}, http {http}: {status:?}\n{log}"
        );
        let halted = log
            .lines()
            .position(|l| {
                l.contains("safe stop") && l.contains("resource=arm") && l.contains("halted at")
            })
            .unwrap_or_else(|| panic!("SIG{signal}, http {http}: the arm was halted:\n{log}"));
        let signal_line = log
            .lines()
            .position(|l| l.contains(&format!("signal=\"SIG{signal}\"")))
            .unwrap_or_else(|| panic!("SIG{signal}: the signal is logged:\n{log}"));
        assert!(signal_line < halted, "halted after the signal:\n{log}");
        assert!(log.contains("reason=Shutdown"), "{log}");
        eprintln!("SIG{signal}, http {http}: halted and exited {exited:?} after the signal");
        assert!(
            exited < Duration::from_millis(1500),
            "SIG{signal}, http {http}: {exited:?}\n{log}"
        );
    }
}

/// A 2026-07-28 client that leaves a `subscriptions/listen` open and closes stdin: the stream
/// ends with the connection, and the process exits at once (it used to wait 5 s for it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_gone_on_stdio_with_a_listen_open_lets_the_process_exit_at_once() {
    let log = std::env::temp_dir().join(format!("robot-arm-listen-{}.log", std::process::id()));
    let mut child = robot_on_stdio(&log);
    let client = client_of(&mut child, true).await;
    let subscription = client
        .listen(
            rmcp::model::SubscriptionFilter::builder()
                .tools_list_changed()
                .build(),
        )
        .await
        .unwrap();
    assert!(subscription.acknowledged().tools_list_changed == Some(true));
    // Held open, as a client does. (Closed within microseconds of its acknowledgment, rmcp's
    // serve loop may stop before it has handled the acknowledgment's send, and its handler
    // then waits out rmcp's 5 s: a race in rmcp 3.11 this server cannot reach.)
    tokio::time::sleep(Duration::from_millis(200)).await;
    let gone = Instant::now();
    client.cancellation_token().cancel();
    let status = tokio::time::timeout(Duration::from_secs(10), child.wait())
        .await
        .expect("the server exits")
        .unwrap();
    let exited = gone.elapsed();
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(status.success(), "{log}");
    eprintln!("a listen open: exited {exited:?} after stdin closed");
    assert!(
        exited < Duration::from_millis(1000),
        "exited at once: {exited:?}\n{log}"
    );
    assert!(!log.contains("timed out draining"), "{log}");
}

/// A `follow_trajectory` through 10 waypoints 900 mm apart (about 0.1 s each at 1/20 of
/// real time), POSTed to `url` on `wire` with a progress token; the response, once its head and
/// first event have come.
async fn streaming_motion(url: &str, wire: &Wire) -> reqwest::Response {
    let waypoints: Vec<Value> = (0..10)
        .map(|i| json!({"x": if i % 2 == 0 { -600 } else { 300 }, "y": 0, "z": 300}))
        .collect();
    let call = wire.call(
        7,
        "follow_trajectory",
        json!({"waypoints": waypoints, "speed": 1.0}),
        json!({"progressToken": "p"}),
    );
    let mut response = wire.post(url, &call).await;
    assert_eq!(response.status().as_u16(), 200);
    let first = response.chunk().await.unwrap().expect("a first event");
    let first = String::from_utf8_lossy(&first).into_owned();
    assert!(
        first.contains("notifications/progress") || first.contains("id: "),
        "{first}"
    );
    response
}

/// The event id of the last event in `text` (`id: ..` lines).
fn last_event_id(text: &str) -> String {
    text.lines()
        .filter_map(|l| l.strip_prefix("id:"))
        .map(|id| id.trim().to_owned())
        .next_back()
        .unwrap_or_else(|| panic!("no event id in {text:?}"))
}

/// Over HTTP, a client that goes away while its motion streams (its answer's head and first
/// events already written): on protocol 2026-07-28 nothing can resume the stream, so the motion
/// is halted once and the arm stays usable; on 2025-11-25 the stream belongs to a session and
/// can be resumed (`Last-Event-ID`) within the resume window, so a motion whose stream is
/// resumed runs to its end, and one whose stream is not is halted once the window passed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_a_client_gone_mid_motion_is_halted_once_unless_it_resumes_in_the_window() {
    let toolbox = sim(0.05, 1.0).build().unwrap();
    let arm = toolbox.clone();
    let window = Duration::from_millis(400);
    let server = toolbox
        .serve_http_with(
            toolwright::HttpOptions::new("127.0.0.1:0".parse().unwrap()).resume_window(window),
        )
        .await
        .expect("serves");
    let url = server.url();
    let state = arm.state().clone();

    // 2026-07-28: the client reads the first event and hangs up.
    let stateless = Wire::open(&url, "2026-07-28").await;
    drop(streaming_motion(&url, &stateless).await);
    assert!(
        eventually(|| state.halts() == 1).await,
        "the safe stop ran when the client went away"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(state.halts(), 1, "exactly once");
    // The arm takes the next motion.
    let text = streaming_motion(&url, &stateless)
        .await
        .text()
        .await
        .unwrap();
    assert!(text.contains(r#""id":7,"result""#), "{text}");
    assert!(text.contains(r#""reached_waypoints":10"#), "{text}");
    assert_eq!(state.halts(), 1);

    // 2025-11-25: the same hang-up, then the stream resumed within the window: the motion
    // runs to its end, and its answer comes on the resumed stream.
    let session = Wire::open(&url, "2025-11-25").await;
    let Wire::Session(id) = &session else {
        unreachable!()
    };
    let mut first = streaming_motion(&url, &session).await;
    let mut seen = String::new();
    while !seen.contains("notifications/progress") {
        let chunk = first.chunk().await.unwrap().expect("more events");
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
    drop(first);
    tokio::time::sleep(window / 4).await;
    let resumed = reqwest::Client::new()
        .get(&url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", id)
        .header("mcp-protocol-version", "2025-11-25")
        .header("last-event-id", last_event_id(&seen))
        .send()
        .await
        .unwrap();
    assert_eq!(resumed.status().as_u16(), 200);
    let rest = resumed.text().await.unwrap();
    assert!(rest.contains(r#""reached_waypoints":10"#), "{rest}");
    assert_eq!(state.halts(), 1, "not halted: resumed in time");

    // And not resumed: halted once the window passed, within the grace period (1 s) plus 0.5 s.
    drop(streaming_motion(&url, &session).await);
    let gone = Instant::now();
    assert!(eventually(|| state.halts() == 2).await, "halted");
    let halted = gone.elapsed();
    assert!(
        halted >= window && halted < window + Duration::from_millis(1500),
        "halted {halted:?} after the stream dropped"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(state.halts(), 2, "exactly once");
    let result = session
        .call_result(&url, 8, "get_arm_state", json!({}))
        .await;
    assert_eq!(
        result["structuredContent"]["moving"],
        json!(false),
        "{result}"
    );
    server.shutdown().await.unwrap();
}

/// A client gone during a 10 s motion over HTTP, measured: on 2026-07-28 (its connection
/// drops) the arm is halted within the grace period (1 s) plus 0.5 s; on 2025-11-25 within the
/// resume window (the default, 2 s) plus the grace period plus 0.5 s, and not before the window.
/// The audit line says `client gone`, and why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_a_client_gone_during_a_10_s_motion_is_halted_within_its_bounds() {
    let path = std::env::temp_dir().join(format!("faults-http-gone-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let toolbox = sim(1.0, 1.0)
        .with_audit_log(toolwright::audit::AuditLog::open(&path).unwrap())
        .build()
        .unwrap();
    let state = toolbox.state().clone();
    let server = toolbox
        .serve_http_with(toolwright::HttpOptions::new("127.0.0.1:0".parse().unwrap()))
        .await
        .expect("serves");
    let url = server.url();
    let grace = Duration::from_secs(1);
    for (halts, version) in [(1, "2026-07-28"), (2, "2025-11-25")] {
        let wire = Wire::open(&url, version).await;
        // From home to (-600, 0, 300) at 90 mm/s: 10 s.
        let motion = wire.call(
            1,
            "move_arm_to_pose",
            json!({"x": -600, "y": 0, "z": 300, "speed": 0.18}),
            json!({}),
        );
        let client = {
            let (wire, url) = (wire.clone(), url.clone());
            tokio::spawn(async move { wire.post(&url, &motion).await.text().await })
        };
        let mut moving = false;
        for id in 100..400 {
            let s = wire.call_result(&url, id, "get_arm_state", json!({})).await;
            if s["structuredContent"]["moving"] == json!(true) {
                moving = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(moving, "{version}: the motion started");
        tokio::time::sleep(Duration::from_millis(300)).await;
        // The client goes: its connection closes mid-call.
        client.abort();
        let gone = Instant::now();
        let mut halted = None;
        for _ in 0..1000 {
            if state.halts() == halts {
                halted = Some(gone.elapsed());
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let halted = halted.unwrap_or_else(|| panic!("{version}: not halted"));
        eprintln!("{version}: halted {halted:?} after the client's connection closed");
        let bound = match version {
            "2026-07-28" => grace + Duration::from_millis(500),
            _ => {
                assert!(
                    halted >= toolwright::DEFAULT_RESUME_WINDOW,
                    "{version}: {halted:?}"
                );
                toolwright::DEFAULT_RESUME_WINDOW + grace + Duration::from_millis(500)
            }
        };
        assert!(
            halted < bound,
            "{version}: halted {halted:?} after, bound {bound:?}"
        );
        let s = wire
            .call_result(&url, 999, "get_arm_state", json!({}))
            .await;
        assert_eq!(s["structuredContent"]["moving"], json!(false), "{version}");
    }
    server.shutdown().await.unwrap();
    let lines: Vec<Value> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|l: &Value| l["tool"] == "move_arm_to_pose")
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    for (line, how) in lines.iter().zip([
        "its connection closed",
        "its event stream dropped and was not resumed within 2 s",
    ]) {
        assert_eq!(line["outcome"], "client gone", "{line}");
        let text = line["text"].as_str().unwrap();
        assert!(
            text.starts_with(&format!(
                "Tool `move_arm_to_pose` was stopped before it finished because its client went \
                 away ({how}); it was told to stop and returned"
            )) && text.contains("Safe stop of `arm`: halted at ("),
            "{text}"
        );
    }
    let _ = std::fs::remove_file(&path);
}

static HTTP_DRIVER_RUNNING: AtomicBool = AtomicBool::new(false);
static HTTP_DRIVER_RETURNS: AtomicUsize = AtomicUsize::new(0);

/// Read the joint encoders over the serial bus (a blocking driver call that ignores its
/// deadline), for the HTTP test: `read_encoders` with flags of its own, as tests run at once.
#[tool(resource = "arm", timeout = "500ms", grace = "100ms", read_only)]
fn read_encoders_http() -> String {
    HTTP_DRIVER_RUNNING.store(true, Ordering::SeqCst);
    std::thread::sleep(Duration::from_millis(2500));
    HTTP_DRIVER_RUNNING.store(false, Ordering::SeqCst);
    HTTP_DRIVER_RETURNS.fetch_add(1, Ordering::SeqCst);
    "encoders read".into()
}

/// Drive servo 3 (its driver faults: the body panics while it holds the arm).
#[tool(
    resource = "arm",
    confirm = false,
    because = "a test rig: nothing real moves"
)]
fn drive_servo() -> String {
    panic!("servo 3 overcurrent")
}

/// Over HTTP, on each protocol revision, every early end of a call that holds the arm leaves it
/// halted once and usable, and its answer says so: a deadline, a body that panics, a body that
/// blocks past its deadline (answered at the deadline and grace while other calls answer; the
/// arm stays reserved until it returns), and a client's cancel (2025-11-25; on 2026-07-28 a
/// cancel is the client hanging up, above).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_deadlines_panics_blocking_bodies_and_cancels_leave_the_arm_halted_once_on_both_revisions()
 {
    for version in ["2026-07-28", "2025-11-25"] {
        // 1/50 of real time (the 30 s deadline is 600 ms); the motor lags 40 times behind.
        let toolbox = sim(0.02, 40.0)
            .with_tools(tool_defs![read_encoders_http, drive_servo])
            .with_resource("arm")
            .build()
            .unwrap();
        let state = toolbox.state().clone();
        let server = toolbox
            .serve_http_with(toolwright::HttpOptions::new("127.0.0.1:0".parse().unwrap()))
            .await
            .expect("serves");
        let url = server.url();
        let wire = Wire::open(&url, version).await;

        // A deadline.
        let far = json!({"x": -600, "y": 0, "z": 300, "speed": 0.5});
        let r = wire
            .call_result(&url, 1, "move_arm_to_pose", far.clone())
            .await;
        assert_eq!(r["isError"], json!(true), "{version}: {r}");
        let t = result_text(&r);
        assert!(
            t.starts_with("Tool `move_arm_to_pose` did not finish within its 600 ms deadline"),
            "{version}: {t}"
        );
        assert!(
            t.contains("Safe stop of `arm`: halted at ("),
            "{version}: {t}"
        );
        assert_eq!(state.halts(), 1, "{version}");

        // A panic.
        let r = wire.call_result(&url, 2, "drive_servo", json!({})).await;
        assert_eq!(r["isError"], json!(true), "{version}: {r}");
        let t = result_text(&r);
        assert!(
            t.starts_with(
                "Tool `drive_servo` failed with an internal error and did not complete: servo 3 \
                 overcurrent. Safe stop of `arm`: halted at ("
            ),
            "{version}: {t}"
        );
        assert_eq!(state.halts(), 2, "{version}");

        // A body that blocks past its deadline; another tool answers meanwhile.
        let returns = HTTP_DRIVER_RETURNS.load(Ordering::SeqCst);
        let started = Instant::now();
        let blocking = {
            let (wire, url) = (wire.clone(), url.clone());
            tokio::spawn(async move {
                wire.call_result(&url, 3, "read_encoders_http", json!({}))
                    .await
            })
        };
        assert!(eventually(|| HTTP_DRIVER_RUNNING.load(Ordering::SeqCst)).await);
        let asked = Instant::now();
        let s = wire.call_result(&url, 4, "get_arm_state", json!({})).await;
        assert_eq!(s["isError"], json!(false), "{version}: {s}");
        assert!(
            asked.elapsed() < Duration::from_millis(400),
            "{version}: {:?}",
            asked.elapsed()
        );
        let r = blocking.await.unwrap();
        let answered_at = started.elapsed();
        assert!(
            HTTP_DRIVER_RUNNING.load(Ordering::SeqCst),
            "{version}: answered before the body returned"
        );
        assert!(
            answered_at >= Duration::from_millis(500) && answered_at < Duration::from_millis(1400),
            "{version}: answered at its deadline plus grace: {answered_at:?}"
        );
        let t = result_text(&r);
        assert!(
            t.starts_with(
                "Tool `read_encoders_http` did not finish within its 500 ms deadline; it was told \
                 to stop and is still running after its 100 ms grace period"
            ) && t.contains("`arm` stays reserved until the call returns"),
            "{version}: {t}"
        );
        assert_eq!(state.halts(), 3, "{version}");
        // The arm stays reserved until the body returns: a motion meanwhile waits, and its
        // 600 ms deadline passes before the body's 2.5 s are up.
        let near = json!({"x": 300, "y": 0, "z": 390, "speed": 1.0});
        let r = wire
            .call_result(&url, 5, "move_arm_to_pose", near.clone())
            .await;
        assert_eq!(
            result_text(&r),
            "Tool `move_arm_to_pose` timed out after 600 ms while waiting for `arm`, which other \
             calls are using; it did not run. Call it again once they have finished.",
            "{version}"
        );
        assert!(
            eventually(|| HTTP_DRIVER_RETURNS.load(Ordering::SeqCst) == returns + 1).await,
            "{version}: the body returned"
        );
        let r = wire.call_result(&url, 6, "move_arm_to_pose", near).await;
        assert_eq!(r["isError"], json!(false), "{version}: {r}");

        // A cancel (2025-11-25): the motion is halted once.
        if let Wire::Session(_) = wire {
            let running = wire
                .post(&url, &wire.call(60, "move_arm_to_pose", far, json!({})))
                .await;
            assert_eq!(running.status().as_u16(), 200);
            let mut moving = false;
            for id in 100..300 {
                let s = wire.call_result(&url, id, "get_arm_state", json!({})).await;
                moving = s["structuredContent"]["moving"] == json!(true);
                if moving {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            assert!(moving, "the motion started");
            let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": 60, "reason": "the operator changed their mind"}});
            assert_eq!(wire.post(&url, &cancel).await.status().as_u16(), 202);
            assert!(
                eventually(|| state.halts() == 4).await,
                "halted on the cancel"
            );
            let s = wire.call_result(&url, 61, "get_arm_state", json!({})).await;
            assert_eq!(s["structuredContent"]["moving"], json!(false), "{s}");
            drop(running);
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        let halts = if version == "2025-11-25" { 4 } else { 3 };
        assert_eq!(
            state.halts(),
            halts,
            "{version}: each early end halted once"
        );
        server.shutdown().await.unwrap();
    }
}
