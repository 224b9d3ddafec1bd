//! Replicas sharing a real Redis (issue 43), each a server of its own on loopback, as the README
//! runs them: limits count every replica's calls, per client (a client without a token is its
//! address, whatever session it opens), keep their counts when Redis restarts, and refuse a
//! tool that changes the world while Redis does not answer (a read-only one goes on); a task's
//! `tasks/cancel`, `tasks/get` and `tasks/update` reach it on whichever replica runs it.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::http::Wire;
use common::redis::RedisServer;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities, ClientConfig,
    GetTaskParams, GetTaskResult, ProtocolVersion, TaskPayload, TaskStatus, UpdateTaskParams,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt as _, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Value, json};
use toolwright::{
    Context, Elicitation, HttpOptions, HttpServer, TaskLimits, ToolError, ToolSchema, Toolbox,
    ToolboxBuilder, tool, tools,
};
use toolwright_examples::robot_arm::{RobotArm, SimConfig};

static DISPENSED: AtomicUsize = AtomicUsize::new(0);

/// Drop one part from the bin: a tool that changes the world, 3 a minute per client.
#[tool(rate_limit = "3/min")]
fn dispense() -> String {
    DISPENSED.fetch_add(1, Ordering::SeqCst);
    "dropped".to_owned()
}

/// Look into the bin: read-only, 3 a minute per client.
#[tool(read_only, rate_limit = "3/min")]
fn peek() -> String {
    "parts".to_owned()
}

/// Read the bin's scale: read-only, 3 a second per client.
#[tool(read_only, rate_limit = "3/s")]
fn tick() -> String {
    "0 g".to_owned()
}

/// A replica of the bin's server, sharing `redis`.
async fn replica(redis: &str) -> HttpServer {
    let toolbox: ToolboxBuilder<()> = tools![dispense, peek, tick];
    let options = HttpOptions::new("127.0.0.1:0".parse().unwrap()).redis(redis);
    toolbox
        .build()
        .unwrap()
        .serve_http_with(options)
        .await
        .expect("serves")
}

/// Waits until `server`'s `/readyz` says it serves (Redis answers), as a load balancer does.
async fn ready(server: &HttpServer) {
    let url = format!("http://{}/readyz", server.local_addr());
    for _ in 0..200 {
        if reqwest::get(&url).await.is_ok_and(|r| r.status() == 200) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{url} never said ready");
}

/// Whether a tool result is a refusal, and its text.
fn outcome(result: &Value) -> (bool, String) {
    (
        result["isError"] == json!(true),
        result["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
    )
}

/// Calls `tool` through `url` on `wire`: the result.
async fn call(wire: &Wire, url: &str, id: u64, tool: &str) -> Value {
    wire.call_result(url, id, tool, json!({})).await
}

/// Issue 43: a client without a token that opens a new session for each call (or calls without
/// one, on 2026-07-28), through two replicas, keeps one quota: its address's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_hopping_client_without_a_token_keeps_one_quota() {
    let redis = RedisServer::start()
        .await
        .expect("redis-server on the PATH (.ci/run installs it)");
    let (one, two) = (replica(&redis.url).await, replica(&redis.url).await);
    let mut granted = 0;
    let mut refused = Vec::new();
    for i in 0..8u64 {
        let server = if i % 2 == 0 { &one } else { &two };
        let wire = if i % 3 == 0 {
            Wire::Stateless
        } else {
            Wire::open(&server.url(), "2025-11-25").await
        };
        let (error, text) = outcome(&call(&wire, &server.url(), i + 1, "peek").await);
        if error {
            refused.push(text);
        } else {
            granted += 1;
        }
    }
    assert_eq!(granted, 3, "{refused:?}");
    for text in &refused {
        assert!(
            text.starts_with(
                "Tool `peek` was not run: the limit of `peek` for each client is 3 calls per \
                 minute and has been reached. Call it again in "
            ),
            "{text}"
        );
    }
    one.shutdown().await.unwrap();
    two.shutdown().await.unwrap();
}

/// Issue 43: while Redis does not answer, a tool that changes the world is refused, saying why
/// (it ran 12 of 12 past a 4/min limit); a read-only one goes on. When Redis comes back empty
/// (it ran with `--save "" --appendonly no`), the counts are what they were: each replica adds
/// back the calls it was granted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_refuse_while_redis_is_down_and_keep_their_counts_when_it_returns() {
    let redis = RedisServer::start()
        .await
        .expect("redis-server on the PATH (.ci/run installs it)");
    let port: u16 = redis
        .url
        .rsplit(':')
        .next()
        .unwrap()
        .trim_end_matches("/0")
        .parse()
        .unwrap();
    let (one, two) = (replica(&redis.url).await, replica(&redis.url).await);
    let wire = Wire::Stateless;
    // Two of the three, one on each replica.
    for (i, server) in [&one, &two].into_iter().enumerate() {
        let (error, text) = outcome(&call(&wire, &server.url(), i as u64 + 1, "dispense").await);
        assert!(!error, "{text}");
    }
    let ran = DISPENSED.load(Ordering::SeqCst);

    drop(redis);
    for (i, server) in [&one, &two, &one, &two].into_iter().enumerate() {
        let (error, text) = outcome(&call(&wire, &server.url(), 10 + i as u64, "dispense").await);
        assert!(error, "ran uncounted: {text}");
        assert!(
            text.starts_with(
                "Tool `dispense` was not run: its rate limits are counted in the store this \
                 server's replicas share (Redis), which does not answer now"
            ),
            "{text}"
        );
        // Read-only: goes on, uncounted.
        let (error, text) = outcome(&call(&wire, &server.url(), 20 + i as u64, "peek").await);
        assert!(!error, "{text}");
    }
    assert_eq!(
        DISPENSED.load(Ordering::SeqCst),
        ran,
        "nothing ran while Redis was down"
    );

    // Back, empty. The two calls made before are counted again: one more, then refused.
    let redis = RedisServer::start_on(port).await.unwrap();
    ready(&one).await;
    ready(&two).await;
    let (error, text) = outcome(&call(&wire, &two.url(), 30, "dispense").await);
    assert!(!error, "{text}");
    for (i, server) in [&one, &two].into_iter().enumerate() {
        let (error, text) = outcome(&call(&wire, &server.url(), 31 + i as u64, "dispense").await);
        assert!(error, "a fourth call in a minute ran: {text}");
        assert!(
            text.contains("the limit of `dispense` for each client is 3 calls per minute"),
            "{text}"
        );
    }
    assert_eq!(DISPENSED.load(Ordering::SeqCst), ran + 1);
    one.shutdown().await.unwrap();
    two.shutdown().await.unwrap();
    drop(redis);
}

/// `4/min` means at most 4 in any minute, across replicas too (it granted 7 within 60 s: a
/// burst, then one every 15 s). Here `3/s`, a call every 100 ms for 3 s on alternate replicas:
/// never 4 within a second (the burst-then-refill limiter granted the 4th at 333 ms).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_limit_is_never_a_burst_then_a_refill() {
    let redis = RedisServer::start()
        .await
        .expect("redis-server on the PATH (.ci/run installs it)");
    let (one, two) = (replica(&redis.url).await, replica(&redis.url).await);
    let wire = Wire::Stateless;
    let started = std::time::Instant::now();
    let mut granted: Vec<f64> = Vec::new();
    for i in 0..30u64 {
        let server = if i % 2 == 0 { &one } else { &two };
        let sent = started.elapsed().as_secs_f64();
        if !outcome(&call(&wire, &server.url(), i + 1, "tick").await).0 {
            granted.push(sent);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Sent times, so a call's answer's latency cannot make two seem further apart than they
    // were admitted (each admitted after it was sent): 4 sent within 0.8 s would break it.
    for (i, &first) in granted.iter().enumerate() {
        let within = granted[i..]
            .iter()
            .take_while(|&&t| t - first < 0.8)
            .count();
        assert!(
            within <= 3,
            "{within} calls within a second from {first:.2} s: {granted:?}"
        );
    }
    assert!(granted.len() >= 6, "{granted:?}");
    one.shutdown().await.unwrap();
    two.shutdown().await.unwrap();
}

// ---------------------------------------------------------------------------------------------
// Tasks across replicas (protocol 2026-07-28, the tasks extension).

/// A client that declares the tasks extension and form elicitation.
#[derive(Clone, Default)]
struct TaskClient;

impl rmcp::ClientHandler for TaskClient {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::builder().enable_tasks().build();
        capabilities.elicitation = Some(rmcp::model::ElicitationCapability::default());
        ClientConfig::new(
            capabilities,
            rmcp::model::Implementation::new("task-client", "1.0"),
        )
    }
}

type TaskClientOf = RunningService<RoleClient, TaskClient>;

/// A 2026-07-28 client of `server`.
async fn client_of(server: &HttpServer) -> TaskClientOf {
    TaskClient
        .serve_with_lifecycle(
            StreamableHttpClientTransport::from_uri(server.url()),
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("connects")
}

/// A replica of the robot arm sharing `redis` (a simulated arm of its own: the one the task
/// moves is the replica's that runs it), with its state.
async fn arm_replica(redis: &str) -> (HttpServer, std::sync::Arc<RobotArm>) {
    let toolbox = Toolbox::builder(RobotArm::new(SimConfig {
        time_scale: 0.2,
        seed: 7,
        ..SimConfig::default()
    }))
    .with_confirmation(false)
    .with_task_limits(TaskLimits::default().with_promote_after(Duration::from_millis(20)))
    .build()
    .unwrap();
    let state = std::sync::Arc::clone(toolbox.state());
    let options = HttpOptions::new("127.0.0.1:0".parse().unwrap()).redis(redis);
    (
        toolbox.serve_http_with(options).await.expect("serves"),
        state,
    )
}

/// The arm's state, through `client` (its replica's arm).
async fn state_of(client: &TaskClientOf) -> Value {
    common::call(client, "get_arm_state", json!({}))
        .await
        .structured_content
        .expect("structured")
}

fn z_of(state: &Value) -> f64 {
    state["position"]["z"].as_f64().unwrap()
}

/// Calls `tool` so that it may become a task: the task's id.
async fn start(client: &TaskClientOf, tool: &str, args: Value) -> String {
    let Value::Object(args) = args else {
        unreachable!()
    };
    match client
        .call_tool_once(CallToolRequestParams::new(tool.to_owned()).with_arguments(args))
        .await
        .expect("tools/call answers")
    {
        CallToolResponse::Task(created) => created.task.task_id,
        other => panic!("expected a task, got {other:?}"),
    }
}

async fn get(client: &TaskClientOf, id: &str) -> GetTaskResult {
    client
        .get_task(GetTaskParams::new(id))
        .await
        .expect("tasks/get answers")
}

/// Polls the task through `client` until `done` says so.
async fn until(
    client: &TaskClientOf,
    id: &str,
    done: impl Fn(&GetTaskResult) -> bool,
) -> GetTaskResult {
    for _ in 0..1000 {
        let task = get(client, id).await;
        if done(&task) {
            return task;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("task {id} never got there");
}

/// Issue 43: a motion task started through replica A, cancelled through replica B (the README's
/// round-robin balancer sends most requests elsewhere): B passes the cancel to A, A halts its
/// arm once where it was (the task's safe stop, where the motion is), and B reports the task
/// cancelled. It answered `-32602 no task` and the motion ran to its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_through_the_other_replica_halts_the_motion() {
    let redis = RedisServer::start()
        .await
        .expect("redis-server on the PATH (.ci/run installs it)");
    let ((a, arm_a), (b, arm_b)) = (arm_replica(&redis.url).await, arm_replica(&redis.url).await);
    let (through_a, through_b) = (client_of(&a).await, client_of(&b).await);
    // From home (300, 0, 400) up to z = 800 at 50 mm/s: 8 s, 1.6 s in this simulated time.
    let id = start(
        &through_a,
        "move_arm_to_pose",
        json!({"x": 300, "y": 0, "z": 800, "speed": 0.1}),
    )
    .await;
    let working = get(&through_b, &id).await;
    assert_eq!(
        working.task.status(),
        TaskStatus::Working,
        "B sees the task A runs"
    );
    // Under way on A.
    for _ in 0..500 {
        if z_of(&state_of(&through_a).await) > 450.0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    through_b
        .cancel_task(CancelTaskParams::new(id.clone()))
        .await
        .expect("tasks/cancel through B acknowledges");
    let done = until(&through_b, &id, |t| t.task.status().is_terminal()).await;
    assert_eq!(done.task.status(), TaskStatus::Cancelled, "{:?}", done.task);
    let message = done.task.task.status_message.clone().unwrap_or_default();
    assert!(message.contains("halted at ("), "{message}");
    assert_eq!(arm_a.halts(), 1, "the safe stop ran once, on A");
    assert_eq!(arm_b.halts(), 0, "B's arm was never involved");
    let stopped = state_of(&through_a).await;
    assert_eq!(stopped["moving"], json!(false));
    let z = z_of(&stopped);
    assert!(z > 400.0 && z < 800.0, "stopped on the way: {z}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(z_of(&state_of(&through_a).await), z, "and stays stopped");
    assert_eq!(
        z_of(&state_of(&through_b).await),
        400.0,
        "B's arm never moved"
    );
    // Cancelling an ended task through either replica changes nothing.
    through_b
        .cancel_task(CancelTaskParams::new(id.clone()))
        .await
        .unwrap();
    through_a
        .cancel_task(CancelTaskParams::new(id.clone()))
        .await
        .unwrap();
    assert_eq!(
        get(&through_b, &id).await.task.status(),
        TaskStatus::Cancelled
    );
    // A task id no replica has is refused through either.
    let unknown = through_b
        .cancel_task(CancelTaskParams::new("0".repeat(32)))
        .await;
    assert!(unknown.is_err(), "{unknown:?}");
    a.shutdown().await.unwrap();
    b.shutdown().await.unwrap();
}

/// What to call a bin.
#[derive(serde::Deserialize, ToolSchema)]
struct Label {
    /// The bin's name.
    name: String,
}

/// Label the bin, asking the operator for its name (a task that asks its user).
#[tool(task = "optional")]
async fn label_bin(ctx: Context) -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_millis(100)).await;
    match ctx.elicit::<Label>("What is the bin called?").await? {
        Elicitation::Accepted(label) => Ok(format!("labelled {}", label.name)),
        _ => Ok("not labelled".to_owned()),
    }
}

/// `tasks/get` and `tasks/update` through the other replica: the question the task asks on A is
/// read through B, the answer given through B reaches A, and the task completes with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tasks_questions_are_answered_through_the_other_replica() {
    let redis = RedisServer::start()
        .await
        .expect("redis-server on the PATH (.ci/run installs it)");
    let serve = || async {
        let toolbox: ToolboxBuilder<()> = tools![label_bin];
        toolbox
            .with_task_limits(TaskLimits::default().with_promote_after(Duration::from_millis(20)))
            .build()
            .unwrap()
            .serve_http_with(HttpOptions::new("127.0.0.1:0".parse().unwrap()).redis(&redis.url))
            .await
            .expect("serves")
    };
    let (a, b) = (serve().await, serve().await);
    let (through_a, through_b) = (client_of(&a).await, client_of(&b).await);
    let id = start(&through_a, "label_bin", json!({})).await;
    let asked = until(&through_b, &id, |t| {
        t.task.status() == TaskStatus::InputRequired
    })
    .await;
    let TaskPayload::InputRequired { input_requests } = &asked.task.payload else {
        panic!("{:?}", asked.task.payload)
    };
    let key = input_requests.keys().next().expect("a question").clone();
    let answers: rmcp::model::InputResponses =
        [(key, json!({"action": "accept", "content": {"name": "B-7"}}))]
            .into_iter()
            .collect();
    through_b
        .update_task(UpdateTaskParams::new(id.clone(), answers))
        .await
        .expect("tasks/update through B");
    let done = until(&through_b, &id, |t| t.task.status().is_terminal()).await;
    let TaskPayload::Completed { result } = &done.task.payload else {
        panic!("{:?}", done.task.payload)
    };
    assert_eq!(
        result["content"][0]["text"],
        json!("labelled B-7"),
        "{result:?}"
    );
    a.shutdown().await.unwrap();
    b.shutdown().await.unwrap();
}
