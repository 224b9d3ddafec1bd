//! Tasks (`#[tool(task = "..")]`, the `io.modelcontextprotocol/tasks` extension on protocol
//! 2026-07-28) through rmcp's client, against the robot arm in simulated time: a motion run as
//! a task works, then completes with its normal result; a cancelled or overdue one is halted
//! once, where it was, and the next motion runs; another client cannot see it; the bound on live
//! tasks refuses the next one; on 2025-11-25 the same tools answer as plain calls.

mod common;

use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities, ClientConfig,
    GetTaskParams, GetTaskResult, TaskPayload, TaskStatus,
};
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Value, json};
use toolwright::{TASK_SUPPORT_META, TaskLimits, Toolbox, ToolboxBuilder};
use toolwright_examples::robot_arm::{RobotArm, SimConfig};

use common::{call, connect_client, text};

/// A client that declares the tasks extension.
#[derive(Clone, Default)]
struct TaskClient;

impl rmcp::ClientHandler for TaskClient {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::builder().enable_tasks().build(),
            rmcp::model::Implementation::new("task-client", "1.0"),
        )
    }
}

type Client = RunningService<RoleClient, TaskClient>;

/// 20 ms of wall time per simulated second: a 500 mm move at speed 0.1 (50 mm/s) takes 10 s
/// simulated, 200 ms real.
fn arm() -> Toolbox<RobotArm> {
    arm_builder().build().unwrap()
}

fn arm_builder() -> ToolboxBuilder<RobotArm> {
    arm_builder_at(0.02)
}

/// The arm with its motions `time_scale` times their real length.
fn arm_builder_at(time_scale: f64) -> ToolboxBuilder<RobotArm> {
    Toolbox::builder(RobotArm::new(SimConfig {
        time_scale,
        seed: 7,
        ..SimConfig::default()
    }))
    // The user's approval of each motion (`confirm`) is tested in rounds.rs and test_safe_actuation.py.
    .with_confirmation(false)
    .with_task_limits(TaskLimits::default().with_promote_after(Duration::from_millis(20)))
}

/// From home (300, 0, 400) up and out: 400 mm.
fn long_move() -> Value {
    json!({"x": 300, "y": 0, "z": 800, "speed": 0.1})
}

async fn start(client: &Client, tool: &str, args: Value) -> String {
    let Value::Object(args) = args else {
        unreachable!()
    };
    match client
        .call_tool_once(CallToolRequestParams::new(tool.to_owned()).with_arguments(args))
        .await
        .expect("tools/call answers")
    {
        CallToolResponse::Task(created) => {
            assert_eq!(created.task.status, TaskStatus::Working);
            assert_eq!(created.task.task_id.len(), 32, "128 random bits");
            created.task.task_id
        }
        other => panic!("expected a task, got {other:?}"),
    }
}

async fn get(client: &Client, id: &str) -> GetTaskResult {
    client
        .get_task(GetTaskParams::new(id))
        .await
        .expect("tasks/get answers")
}

/// Polls the task until it ended.
async fn ended(client: &Client, id: &str) -> GetTaskResult {
    for _ in 0..500 {
        let task = get(client, id).await;
        if task.task.status().is_terminal() {
            return task;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("task {id} did not end");
}

async fn arm_state(client: &Client) -> Value {
    call(client, "get_arm_state", json!({}))
        .await
        .structured_content
        .expect("structured")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_motion_started_as_a_task_works_then_completes_with_its_result() {
    let client = connect_client(arm(), TaskClient, true).await;
    let tools = client.list_all_tools().await.unwrap();
    let support = |name: &str| {
        tools
            .iter()
            .find(|t| t.name == name)
            .and_then(|t| t.meta.as_ref())
            .and_then(|m| m.0.get(TASK_SUPPORT_META).cloned())
    };
    assert_eq!(support("move_arm_to_pose"), Some(json!("optional")));
    assert_eq!(support("follow_trajectory"), Some(json!("optional")));
    assert_eq!(
        support("grasp_object_force_control"),
        Some(json!("optional"))
    );
    assert_eq!(support("get_arm_state"), None);

    let id = start(&client, "move_arm_to_pose", long_move()).await;
    let working = get(&client, &id).await;
    assert_eq!(working.task.status(), TaskStatus::Working);
    assert!(working.task.task.ttl_ms.is_some_and(|t| t > 0));
    // get_arm_state answers while the task moves the arm, and sees it moving.
    let mut seen_moving = false;
    for _ in 0..100 {
        if arm_state(&client).await["moving"] == json!(true) {
            seen_moving = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    assert!(seen_moving, "the arm moves while the task works");
    let done = ended(&client, &id).await;
    let TaskPayload::Completed { result } = &done.task.payload else {
        panic!("completed, got {:?}", done.task.payload)
    };
    assert_eq!(result["isError"], json!(false));
    assert_eq!(
        result["structuredContent"]["position"],
        json!({"x": 300.0, "y": 0.0, "z": 800.0})
    );
    assert_eq!(arm_state(&client).await["position"]["z"], json!(800.0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_motion_is_halted_once_where_it_was_and_the_next_one_runs() {
    let toolbox = arm();
    let state = std::sync::Arc::clone(toolbox.state());
    let client = connect_client(toolbox, TaskClient, true).await;
    let id = start(&client, "move_arm_to_pose", long_move()).await;
    // Under way: past the start, short of the target.
    for _ in 0..200 {
        let z = arm_state(&client).await["position"]["z"].as_f64().unwrap();
        if z > 450.0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    client
        .cancel_task(CancelTaskParams::new(id.clone()))
        .await
        .expect("tasks/cancel acknowledges");
    let done = ended(&client, &id).await;
    assert_eq!(done.task.status(), TaskStatus::Cancelled);
    let message = done.task.task.status_message.clone().unwrap_or_default();
    assert!(message.contains("halted at ("), "{message}");
    assert_eq!(state.halts(), 1, "the safe stop ran once");
    let s = arm_state(&client).await;
    assert_eq!(s["moving"], json!(false));
    let z = s["position"]["z"].as_f64().unwrap();
    assert!(
        z > 400.0 && z < 800.0,
        "stopped between start and target: {z}"
    );
    // Cancelling an ended task changes nothing.
    client
        .cancel_task(CancelTaskParams::new(id.clone()))
        .await
        .unwrap();
    assert_eq!(get(&client, &id).await.task.status(), TaskStatus::Cancelled);
    // The next motion runs (back home, slowly enough to be a task).
    let home = json!({"x": 300, "y": 0, "z": 400, "speed": 0.1});
    let next = start(&client, "move_arm_to_pose", home).await;
    let done = ended(&client, &next).await;
    assert_eq!(done.task.status(), TaskStatus::Completed);
    assert_eq!(state.halts(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_past_its_deadline_is_halted_the_same_way() {
    // The motion needs 10 s simulated (200 ms); the deadline is 100 ms, and the motor lags so
    // the motion overruns the estimate it was admitted on.
    let toolbox = Toolbox::builder(RobotArm::new(SimConfig {
        time_scale: 0.02,
        seed: 7,
        motor_lag: 3.0,
    }))
    .with_confirmation(false)
    .with_default_timeout(Duration::from_millis(300))
    .with_task_limits(TaskLimits::default().with_promote_after(Duration::from_millis(20)))
    .build()
    .unwrap();
    let state = std::sync::Arc::clone(toolbox.state());
    let client = connect_client(toolbox, TaskClient, true).await;
    let id = start(&client, "move_arm_to_pose", long_move()).await;
    let done = ended(&client, &id).await;
    // Told to stop while it held the arm: cancelled, saying why and what ran.
    assert_eq!(done.task.status(), TaskStatus::Cancelled, "{done:?}");
    let words = done.task.task.status_message.clone().unwrap_or_default();
    assert!(
        words.contains("did not finish within its 300 ms deadline"),
        "{words}"
    );
    assert!(words.contains("halted at ("), "{words}");
    assert_eq!(state.halts(), 1);
    let s = arm_state(&client).await;
    assert_eq!(s["moving"], json!(false));
    let z = s["position"]["z"].as_f64().unwrap();
    assert!(z > 400.0 && z < 800.0, "stopped on the way: {z}");
}

/// A task holding the arm has a lease, published in its `_meta`: polled, it runs on past the
/// lease; no longer polled (its client still connected), it is cancelled once the lease ran
/// out, and halted within the lease plus its grace period (1 s) plus 0.5 s.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_no_longer_polled_is_halted_once_its_lease_runs_out() {
    let lease = Duration::from_millis(500);
    // 1/2 of real time: the 400 mm move at 50 mm/s takes 4 s.
    let toolbox = arm_builder_at(0.5).with_task_lease(lease).build().unwrap();
    let state = std::sync::Arc::clone(toolbox.state());
    let client = connect_client(toolbox, TaskClient, true).await;
    let Value::Object(args) = long_move() else {
        unreachable!()
    };
    let created = match client
        .call_tool_once(CallToolRequestParams::new("move_arm_to_pose").with_arguments(args))
        .await
        .unwrap()
    {
        CallToolResponse::Task(created) => created,
        other => panic!("expected a task, got {other:?}"),
    };
    let id = created.task.task_id.clone();
    assert_eq!(
        created.meta.unwrap().0[toolwright::TASK_LEASE_META],
        json!(500)
    );
    // Polled every 200 ms for 1.2 s (more than twice the lease): it works on.
    let mut last_poll = std::time::Instant::now();
    for _ in 0..6 {
        let task = get(&client, &id).await;
        last_poll = std::time::Instant::now();
        assert_eq!(task.task.status(), TaskStatus::Working);
        assert_eq!(
            task.meta.unwrap().0[toolwright::TASK_LEASE_META],
            json!(500)
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(state.halts(), 0);
    // No longer polled: halted once the lease ran out.
    assert!(common::eventually(|| state.halts() == 1).await, "halted");
    let halted = last_poll.elapsed();
    eprintln!("halted {halted:?} after the last poll (lease {lease:?})");
    assert!(
        halted >= lease && halted < lease + Duration::from_millis(1500),
        "{halted:?}"
    );
    let done = get(&client, &id).await;
    assert_eq!(done.task.status(), TaskStatus::Cancelled);
    let said = done.task.task.status_message.clone().unwrap_or_default();
    assert!(
        said.starts_with(
            "Tool `move_arm_to_pose` was stopped before it finished because its client went \
             away (nobody asked after its task for 500 ms (the task's lease))"
        ) && said.contains("Safe stop of `arm`: halted at ("),
        "{said}"
    );
    let s = arm_state(&client).await;
    assert_eq!(s["moving"], json!(false));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_client_can_neither_read_nor_cancel_a_task() {
    let toolbox = arm();
    let state = std::sync::Arc::clone(toolbox.state());
    let owner = connect_client(toolbox.clone(), TaskClient, true).await;
    let other = connect_client(toolbox, TaskClient, true).await;
    let id = start(&owner, "move_arm_to_pose", long_move()).await;
    let read = other.get_task(GetTaskParams::new(id.clone())).await;
    assert!(
        read.as_ref()
            .is_err_and(|e| e.to_string().contains("no task")),
        "{read:?}"
    );
    let cancel = other.cancel_task(CancelTaskParams::new(id.clone())).await;
    assert!(cancel.is_err(), "{cancel:?}");
    let done = ended(&owner, &id).await;
    assert_eq!(done.task.status(), TaskStatus::Completed, "not cancelled");
    assert_eq!(state.halts(), 0);
}

/// The bound on live tasks refuses the next one; and a task that holds the arm stops with the
/// connection that owns it (no other connection can ask after it): halted once, on the way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_task_bound_refuses_the_next_one_and_a_client_gone_stops_its_motion() {
    let toolbox = arm_builder()
        .with_task_limits(
            TaskLimits::default()
                .with_max_per_client(1)
                .with_promote_after(Duration::from_millis(20)),
        )
        .build()
        .unwrap();
    let state = std::sync::Arc::clone(toolbox.state());
    let client = connect_client(toolbox.clone(), TaskClient, true).await;
    let first = start(&client, "move_arm_to_pose", long_move()).await;
    let refused = client
        .call_tool_once(
            CallToolRequestParams::new("follow_trajectory").with_arguments(
                json!({"waypoints": [{"x": 300, "y": 0, "z": 400}, {"x": 400, "y": 0, "z": 400}]})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        )
        .await
        .expect_err("refused");
    let words = refused.to_string();
    assert!(words.contains("1 unfinished tasks (the limit)"), "{words}");
    // The owner goes away: its motion stops at once (grace, then the safe stop).
    let gone = std::time::Instant::now();
    drop(client);
    assert!(
        common::eventually(|| state.halts() == 1).await,
        "the task {first} stopped with its client"
    );
    assert!(
        gone.elapsed() < Duration::from_millis(1500),
        "{:?}",
        gone.elapsed()
    );
    let watcher = connect_client(toolbox, TaskClient, true).await;
    let s = arm_state(&watcher).await;
    assert_eq!(s["moving"], json!(false));
    assert!(s["position"]["z"].as_f64().unwrap() < 800.0, "{s}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(state.halts(), 1, "once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_2025_11_25_and_without_the_extension_a_task_tool_is_a_plain_call() {
    for on_2026 in [false, true] {
        let client = connect_client(arm(), (), on_2026).await;
        let moved = call(&client, "move_arm_to_pose", long_move()).await;
        assert_eq!(moved.is_error, Some(false), "{}", text(&moved));
        assert_eq!(
            moved.structured_content.unwrap()["position"]["z"],
            json!(800.0)
        );
    }
}

/// The MCP Inspector's handshake (issue 33): protocol 2025-11-25, with the tasks extension in
/// its `initialize` capabilities. A plain `tools/call` that outlasts the promotion window is
/// answered as a plain call with its structured result, never as a 2026-07-28 task
/// (`resultType: "task"`, which a 2025-11-25 client cannot read), and the `initialize` answer
/// does not offer the extension: on 2025-11-25 tasks are the `tasks` capability's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_11_25_client_that_lists_the_extension_gets_plain_calls() {
    let client = connect_client(arm(), TaskClient, false).await;
    let info = client.peer_info().expect("initialized");
    assert_eq!(
        info.protocol_version,
        rmcp::model::ProtocolVersion::V_2025_11_25
    );
    assert!(
        !info.capabilities.supports_tasks(),
        "the 2025-11-25 initialize result offered the 2026-07-28 tasks extension: {:?}",
        info.capabilities.extensions
    );
    let Value::Object(args) = long_move() else {
        unreachable!()
    };
    // The move takes 200 ms, ten times the promotion window (20 ms).
    let answer = client
        .call_tool_once(CallToolRequestParams::new("move_arm_to_pose").with_arguments(args))
        .await
        .expect("tools/call answers");
    let CallToolResponse::Complete(moved) = answer else {
        panic!("a 2025-11-25 plain call became {answer:?}");
    };
    assert_eq!(moved.is_error, Some(false), "{}", text(&moved));
    assert_eq!(
        moved.structured_content.unwrap()["position"]["z"],
        json!(800.0)
    );
}

/// `stop_arm` (`stop_for = "arm"`) ends every task on the arm `cancelled`: the one moving it
/// and the one waiting for its turn, which never moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_arm_ends_the_running_and_the_waiting_tasks_cancelled() {
    // A motion of 5 s, not 200 ms: on a loaded machine the first could end before the stop
    // reaches it (the stop ends it at once either way).
    let toolbox = arm_builder_at(0.5).build().unwrap();
    let client = connect_client(toolbox, TaskClient, true).await;
    let moving = start(&client, "move_arm_to_pose", long_move()).await;
    let waiting = start(
        &client,
        "move_arm_to_pose",
        json!({"x": 300, "y": 200, "z": 800, "speed": 0.1}),
    )
    .await;
    for _ in 0..200 {
        if arm_state(&client).await["moving"] == json!(true) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let stop = call(&client, "stop_arm", json!({})).await;
    assert_eq!(stop.is_error, Some(false));
    for id in [&moving, &waiting] {
        assert_eq!(
            ended(&client, id).await.task.status(),
            TaskStatus::Cancelled
        );
    }
    let message = get(&client, &waiting)
        .await
        .task
        .task
        .status_message
        .unwrap_or_default();
    assert!(message.starts_with("cancelled by `stop_arm`"), "{message}");
    let s = arm_state(&client).await;
    assert_eq!(s["moving"], json!(false));
    assert_eq!(
        s["position"]["y"],
        json!(0.0),
        "the waiting motion never moved"
    );
}

/// A client that declares the tasks extension and form elicitation.
#[derive(Clone, Default)]
struct AskingTaskClient;

impl rmcp::ClientHandler for AskingTaskClient {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::builder().enable_tasks().build();
        capabilities.elicitation = Some(rmcp::model::ElicitationCapability::default());
        ClientConfig::new(
            capabilities,
            rmcp::model::Implementation::new("asking-task-client", "1.0"),
        )
    }
}

/// Issue 42: a call that may become a task, carrying an approval no one was asked for, is
/// asked first (the confirmation comes before a task is created) and nothing moves; the answer
/// to the question the server asked starts the task.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unsolicited_approval_does_not_start_a_motion_task() {
    let toolbox = arm_builder().with_confirmation(true).build().unwrap();
    let client = connect_client(toolbox, AskingTaskClient, true).await;
    let home = arm_state_of(&client).await["position"].clone();
    let approve = || -> rmcp::model::InputResponses {
        [("confirm".to_owned(), json!({"action": "accept"}))]
            .into_iter()
            .collect()
    };
    let Value::Object(args) = long_move() else {
        unreachable!()
    };
    let call = || CallToolRequestParams::new("move_arm_to_pose").with_arguments(args.clone());
    let first = client
        .call_tool_once(call().with_input_responses(approve()))
        .await
        .expect("tools/call answers");
    let CallToolResponse::InputRequired(asked) = first else {
        panic!("expected the user to be asked, got {first:?}")
    };
    assert!(
        asked
            .input_requests
            .as_ref()
            .unwrap()
            .contains_key("confirm")
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        arm_state_of(&client).await["position"],
        home,
        "nothing moved"
    );
    // The answer to the question asked: the motion starts, as a task.
    let approved = client
        .call_tool_once(
            call()
                .with_input_responses(approve())
                .with_request_state(asked.request_state.unwrap()),
        )
        .await
        .expect("tools/call answers");
    let CallToolResponse::Task(created) = approved else {
        panic!("expected a task, got {approved:?}")
    };
    let done = ended_of(&client, &created.task.task_id).await;
    assert!(
        matches!(done.task.payload, TaskPayload::Completed { .. }),
        "{:?}",
        done.task.payload
    );
    assert_eq!(arm_state_of(&client).await["position"]["z"], json!(800.0));
}

async fn arm_state_of<H: rmcp::ClientHandler>(client: &RunningService<RoleClient, H>) -> Value {
    call(client, "get_arm_state", json!({}))
        .await
        .structured_content
        .expect("structured")
}

async fn ended_of<H: rmcp::ClientHandler>(
    client: &RunningService<RoleClient, H>,
    id: &str,
) -> GetTaskResult {
    for _ in 0..500 {
        let task = client
            .get_task(GetTaskParams::new(id))
            .await
            .expect("tasks/get answers");
        if task.task.status().is_terminal() {
            return task;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("task {id} did not end");
}

// ---------------------------------------------------------------------------------------------
// A confirmed task whose body asks its user something.

/// A pen the rig draws with.
#[derive(Default)]
struct Plotter {
    lines: std::sync::atomic::AtomicUsize,
}

/// A marker's colour.
#[derive(serde::Deserialize, toolwright::ToolSchema)]
struct Colour {
    /// The colour's name.
    name: String,
}

#[toolwright::toolbox(resource(name = "pen", safe_stop = lift))]
impl Plotter {
    /// Lifts the pen: the safe stop of `pen`.
    fn lift(&self) -> String {
        "lifted".into()
    }

    /// Draws a line, asking its colour first.
    #[tool(
        resource = "pen",
        confirm = "Draw a line {length} long?",
        task = "optional"
    )]
    async fn draw(
        &self,
        /// How long.
        #[param(unit = "mm", range = 1.0..=100.0)]
        length: f64,
        ctx: toolwright::Context,
    ) -> Result<String, toolwright::ToolError> {
        // Long enough to become a task (promoted after 20 ms), then it asks.
        tokio::time::sleep(Duration::from_millis(100)).await;
        let colour = ctx.elicit::<Colour>("Which colour?").await?;
        self.lines.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let name = colour
            .accepted()
            .map_or_else(|| "none".to_owned(), |c| c.name);
        Ok(format!("drew {length} mm in {name}"))
    }

    /// Stops the pen.
    #[tool(stop_for = "pen")]
    fn stop_pen(&self) -> String {
        "pen stopped".into()
    }
}

fn plotter() -> Toolbox<Plotter> {
    Toolbox::builder(Plotter::default())
        .with_request_state_keys(toolwright::RequestStateKeys::new("t", [3u8; 32]).unwrap())
        .with_task_limits(TaskLimits::default().with_promote_after(Duration::from_millis(20)))
        .build()
        .unwrap()
}

/// Starts `draw` as a task, approved, and waits until its body asks its colour: the task's id.
async fn drawing_task_waiting_for_its_colour(
    client: &RunningService<RoleClient, AskingTaskClient>,
) -> String {
    let call = || {
        let Value::Object(args) = json!({"length": 40}) else {
            unreachable!()
        };
        CallToolRequestParams::new("draw").with_arguments(args)
    };
    let CallToolResponse::InputRequired(asked) =
        client.call_tool_once(call()).await.expect("answers")
    else {
        panic!("the user is asked first")
    };
    let approve: rmcp::model::InputResponses =
        [("confirm".to_owned(), json!({"action": "accept"}))]
            .into_iter()
            .collect();
    let approved = client
        .call_tool_once(
            call()
                .with_input_responses(approve)
                .with_request_state(asked.request_state.unwrap()),
        )
        .await
        .expect("answers");
    let CallToolResponse::Task(created) = approved else {
        panic!("expected a task, got {approved:?}")
    };
    let id = created.task.task_id.clone();
    for _ in 0..500 {
        let task = client
            .get_task(GetTaskParams::new(&id))
            .await
            .expect("tasks/get answers");
        if task.task.status() == TaskStatus::InputRequired {
            return id;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the task never asked its colour")
}

/// A stop tool that runs while a task waits for its user's answer voids the approval the task
/// runs on: answered afterwards, the task is cancelled, naming the stop, and its body does not
/// run again (it drew after the stop before).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_while_a_task_waits_for_its_user_cancels_it() {
    let toolbox = plotter();
    let plotter = std::sync::Arc::clone(toolbox.state());
    let client = connect_client(toolbox, AskingTaskClient, true).await;
    let id = drawing_task_waiting_for_its_colour(&client).await;
    let stopped = call(&client, "stop_pen", json!({})).await;
    assert_eq!(text(&stopped), "pen stopped");
    let colour: rmcp::model::InputResponses = [(
        "colour".to_owned(),
        json!({"action": "accept", "content": {"name": "red"}}),
    )]
    .into_iter()
    .collect();
    client
        .update_task(rmcp::model::UpdateTaskParams::new(id.clone(), colour))
        .await
        .expect("tasks/update answers");
    let done = ended_of(&client, &id).await;
    assert_eq!(done.task.status(), TaskStatus::Cancelled, "{done:?}");
    let message = done.task.task.status_message.unwrap_or_default();
    assert!(
        message.starts_with("cancelled by `stop_pen`: `draw` was waiting for its user's answer"),
        "{message}"
    );
    assert_eq!(
        plotter.lines.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "nothing drawn"
    );
}

/// The approval that started a task is the task's for its whole life: when the task's body asks
/// its user something, the approval is not given back, so the `requestState` that carried it
/// cannot start a second task (or a plain call).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_approval_that_started_a_task_cannot_start_another_once_the_task_asks() {
    let toolbox = plotter();
    let plotter = std::sync::Arc::clone(toolbox.state());
    let client = connect_client(toolbox, AskingTaskClient, true).await;
    let call = || {
        let Value::Object(args) = json!({"length": 40}) else {
            unreachable!()
        };
        CallToolRequestParams::new("draw").with_arguments(args)
    };
    let approve = || -> rmcp::model::InputResponses {
        [("confirm".to_owned(), json!({"action": "accept"}))]
            .into_iter()
            .collect()
    };
    let CallToolResponse::InputRequired(asked) =
        client.call_tool_once(call()).await.expect("answers")
    else {
        panic!("the user is asked first")
    };
    let state = asked.request_state.unwrap();
    let approved = client
        .call_tool_once(
            call()
                .with_input_responses(approve())
                .with_request_state(state.clone()),
        )
        .await
        .expect("answers");
    let CallToolResponse::Task(created) = approved else {
        panic!("expected a task, got {approved:?}")
    };
    let id = created.task.task_id.clone();
    // The task's body asks for the colour.
    let mut waiting = false;
    for _ in 0..500 {
        let task = client
            .get_task(GetTaskParams::new(&id))
            .await
            .expect("tasks/get answers");
        if task.task.status() == TaskStatus::InputRequired {
            waiting = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(waiting, "the task asks its user");
    // The same approval again: refused, nothing started.
    for _ in 0..2 {
        let replayed = client
            .call_tool_once(
                call()
                    .with_input_responses(approve())
                    .with_request_state(state.clone()),
            )
            .await;
        let error = replayed
            .expect_err("a used approval is refused")
            .to_string();
        assert!(error.contains("already used"), "{error}");
    }
    assert_eq!(
        plotter.lines.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "nothing drawn"
    );
    client
        .cancel_task(CancelTaskParams::new(&id))
        .await
        .expect("tasks/cancel answers");
}
