//! The stop gets through a flood at the door (issue 43): the robot arm served over HTTP, an 8 s
//! motion under way, and a client with no token holding 300 half-open connections (refilling
//! every one the server closes), or 300 calls left waiting for a confirmation no one gives. A
//! fresh client's `stop_arm` is answered, the motion halts where it was, and once the flood
//! ends the server serves again. How fast the stop is answered is the bench's to pin
//! (benches/stop_under_flood.rs, BENCHMARKS.md), not this test's.
//!
//! Each scenario as the issue ran it: with a token (the flood has none), and without one on
//! loopback (the flood is as entitled as anyone, and comes from the same address as the stop).

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::flood::{Flood, fresh_stop, open_session};
use common::http::{Wire, reply};
use serde_json::{Value, json};
use toolwright::{HttpOptions, HttpServer, Toolbox};
use toolwright_examples::robot_arm::{RobotArm, SimConfig};

const TOKEN: &str = "a-long-enough-token-for-the-flood-test";

/// From home (300, 0, 400) up to z = 800 at 50 mm/s: 8 s.
fn eight_second_motion() -> Value {
    json!({"x": 300, "y": 0, "z": 800, "speed": 0.1})
}

/// The arm, served at real speed, with confirmation as asked: the server, and the toolbox to
/// look at the arm in-process (its local client: no connection needed).
async fn arm(options: HttpOptions, confirm: bool) -> (HttpServer, Toolbox<RobotArm>) {
    let toolbox = Toolbox::builder(RobotArm::new(SimConfig {
        time_scale: 1.0,
        seed: 7,
        ..SimConfig::default()
    }))
    .with_confirmation(confirm)
    .build()
    .unwrap();
    let local = toolbox.clone();
    (
        toolbox.serve_http_with(options).await.expect("serves"),
        local,
    )
}

async fn state(local: &Toolbox<RobotArm>) -> Value {
    local
        .call("get_arm_state", None)
        .await
        .unwrap()
        .structured_content
        .expect("structured")
}

/// A 2026-07-28 `tools/call` (stateless) with `token`, approving a confirmation when asked.
async fn call_2026(url: &str, token: Option<&str>, tool: &str, arguments: Value) -> Value {
    let client = reqwest::Client::new();
    let post = |extra: Value| {
        let mut call = Wire::Stateless.call(
            1,
            tool,
            arguments.clone(),
            json!({"io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}}),
        );
        call["params"]
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let mut request = client
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", tool)
            .body(call.to_string());
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        async move {
            let text = request.send().await.unwrap().text().await.unwrap();
            reply(&text, 1)
        }
    };
    let first = post(json!({})).await;
    if first["result"]["resultType"] != "input_required" {
        return first;
    }
    post(json!({
        "requestState": first["result"]["requestState"],
        "inputResponses": {"confirm": {"action": "accept", "content": {}}},
    }))
    .await
}

/// Starts the eight-second motion (as `token`'s client), and waits until the arm moves.
async fn motion_under_way(
    server: &HttpServer,
    local: &Toolbox<RobotArm>,
    token: Option<&'static str>,
) -> tokio::task::JoinHandle<Value> {
    let url = server.url();
    let motion = tokio::spawn(async move {
        call_2026(&url, token, "move_arm_to_pose", eight_second_motion()).await
    });
    for _ in 0..500 {
        if state(local).await["moving"] == json!(true) {
            return motion;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the motion did not start: {:?}", motion.await);
}

/// The stop answered through the flood, the motion halted where it was and staying there, and
/// the server serving again once the flood ended.
async fn stopped_through(
    server: HttpServer,
    local: Toolbox<RobotArm>,
    token: Option<&'static str>,
    motion: tokio::task::JoinHandle<Value>,
    flood: Flood,
) {
    // Let the flood fill the door.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        state(&local).await["moving"],
        json!(true),
        "still moving when the stop is sent"
    );
    let stop = fresh_stop(&server.url(), token, "stop_arm", Duration::from_secs(8)).await;
    let result = stop
        .result
        .unwrap_or_else(|e| panic!("the stop was not answered: {e}"));
    assert_eq!(result["isError"], json!(false), "{result}");
    assert_eq!(
        result["structuredContent"]["interrupted_motion"],
        json!(true),
        "{result}"
    );
    // Halted where it was, and staying there.
    let halted = state(&local).await;
    assert_eq!(halted["moving"], json!(false), "{halted}");
    let z = halted["position"]["z"].as_f64().unwrap();
    assert!(z > 400.0 && z < 800.0, "halted on the way: {z}");
    assert!(local.state().halts() >= 1, "the safe stop ran");
    let motion = tokio::time::timeout(Duration::from_secs(10), motion)
        .await
        .expect("the motion's call answers once stopped")
        .unwrap();
    let said = motion["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(
        said.contains("stop_arm"),
        "the motion's answer names the stop: {motion}"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        state(&local).await["position"]["z"].as_f64().unwrap(),
        z,
        "the arm did not drift"
    );
    let opened = flood.stop().await;
    assert!(
        opened > 300,
        "the flood held its connections: {opened} opened"
    );
    // Serving again: a fresh client reads the arm.
    let again = call_2026(&server.url(), token, "get_arm_state", json!({})).await;
    assert_eq!(again["result"]["isError"], json!(false), "{again}");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_token_the_stop_gets_through_300_half_open_connections() {
    let (server, local) = arm(
        HttpOptions::new("127.0.0.1:0".parse().unwrap()).bearer_token(TOKEN),
        false,
    )
    .await;
    let motion = motion_under_way(&server, &local, Some(TOKEN)).await;
    let flood = Flood::half_open(server.local_addr(), 300);
    stopped_through(server, local, Some(TOKEN), motion, flood).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_token_on_loopback_the_stop_gets_through_300_half_open_connections() {
    let (server, local) = arm(HttpOptions::new("127.0.0.1:0".parse().unwrap()), false).await;
    let motion = motion_under_way(&server, &local, None).await;
    let flood = Flood::half_open(server.local_addr(), 300);
    stopped_through(server, local, None, motion, flood).await;
}

/// 300 motions sent by a client without a token over protocol 2025-11-25, each left waiting for
/// the user's confirmation (its event stream held open, its question never answered), in
/// sessions of 20: at most 16 a session and 64 a client wait, the others are told at once that
/// nothing ran; the operator's stop gets through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_token_on_loopback_the_stop_gets_through_300_waiting_confirmations() {
    let (server, local) = arm(HttpOptions::new("127.0.0.1:0".parse().unwrap()), true).await;
    let motion = motion_under_way(&server, &local, None).await;
    let flood = Flood::pending_confirmations(
        &server.url(),
        "move_arm_to_pose",
        json!({"x": 300, "y": 100, "z": 400}),
        300,
        20,
        Duration::from_millis(200),
    );
    let answered = Arc::clone(&flood.answered);
    stopped_through(server, local, None, motion, flood).await;
    assert!(
        answered.load(std::sync::atomic::Ordering::Relaxed) > 0,
        "calls past the bounds were answered at once"
    );
}

/// A pending confirmation has a deadline: unanswered past `confirmation_timeout`, it is answered
/// as dismissed, its call answers that nothing ran, and its event stream ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unanswered_confirmation_ends_at_its_deadline() {
    let (server, local) = arm(
        HttpOptions::new("127.0.0.1:0".parse().unwrap())
            .confirmation_timeout(Duration::from_millis(500)),
        true,
    )
    .await;
    let wire = Wire::Session(open_session(&server.url()).await.unwrap());
    let started = std::time::Instant::now();
    let call = wire.call(
        7,
        "move_arm_to_pose",
        json!({"x": 300, "y": 100, "z": 400}),
        json!({}),
    );
    let response = wire.post(&server.url(), &call).await;
    let text = tokio::time::timeout(Duration::from_secs(10), response.text())
        .await
        .expect("the stream ends at the deadline")
        .unwrap();
    assert!(
        text.contains("elicitation/create"),
        "the question was asked: {text}"
    );
    let answer = reply(&text, 7);
    assert_eq!(answer["result"]["isError"], json!(true), "{answer}");
    let said = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        said.starts_with(
            "not confirmed: the user dismissed the question; `move_arm_to_pose` did not run"
        ),
        "{said}"
    );
    assert!(started.elapsed() >= Duration::from_millis(500));
    assert_eq!(
        state(&local).await["position"]["y"],
        json!(0.0),
        "nothing moved"
    );
    server.shutdown().await.unwrap();
}

/// A session's sixteen calls waiting for confirmation are the most: the seventeenth is answered
/// at once, saying nothing ran; another session of the same client has its own room, up to the
/// client's bound.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_confirmations_are_bounded_per_session() {
    let (server, local) = arm(
        HttpOptions::new("127.0.0.1:0".parse().unwrap()).max_pending_confirmations(2, 3),
        true,
    )
    .await;
    let url = server.url();
    let first = Wire::Session(open_session(&url).await.unwrap());
    let second = Wire::Session(open_session(&url).await.unwrap());
    let call = |wire: &Wire, id: u64| {
        wire.call(
            id,
            "move_arm_to_pose",
            json!({"x": 300, "y": 100, "z": 400}),
            json!({}),
        )
    };
    // Two wait in the first session (their streams held open).
    let mut held = Vec::new();
    for id in [1, 2] {
        held.push(first.post(&url, &call(&first, id)).await);
    }
    let third = first.post(&url, &call(&first, 3)).await;
    let text = third.text().await.unwrap();
    let answer = reply(&text, 3);
    assert_eq!(answer["result"]["isError"], json!(true), "{answer}");
    let said = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        said.starts_with(
            "Tool `move_arm_to_pose` was not run: 2 calls are already waiting for their user's \
             confirmation in this session, the most allowed. Nothing ran."
        ),
        "{said}"
    );
    // The other session: one more, then the client's bound (3).
    held.push(second.post(&url, &call(&second, 4)).await);
    let text = second
        .post(&url, &call(&second, 5))
        .await
        .text()
        .await
        .unwrap();
    let said = reply(&text, 5)["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        said.contains("3 calls are already waiting for their user's confirmation for this client"),
        "{said}"
    );
    // Given back when a waiting call's stream ends.
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let next = second.post(&url, &call(&second, 6)).await;
    assert_eq!(
        next.headers()["content-type"].to_str().unwrap(),
        "text/event-stream",
        "this one waits"
    );
    drop(next);
    drop(held);
    assert_eq!(
        state(&local).await["position"]["y"],
        json!(0.0),
        "nothing moved"
    );
    server.shutdown().await.unwrap();
}
