//! Execution policy: resource locks, concurrency, timeouts, retries, cancellation, progress and
//! output budgets, exercised through rmcp's client.

mod common;

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use common::{call, text};
use rmcp::model::{CallToolRequestParams, ClientRequest, Request};
use rmcp::service::PeerRequestOptions;
use serde_json::json;
use toolwright::{Context, ToolDef, ToolError, Toolbox, ToolboxBuilder, tool, tool_defs};

/// Why no one confirms the test tools that hold a resource (the toolbox asks for a reason).
const RIG: &str = "a test rig: nothing real moves";

/// Calls in flight right now, and the most ever seen, per group.
#[derive(Default)]
struct InFlight {
    now: AtomicUsize,
    max: AtomicUsize,
}

impl InFlight {
    async fn during(&self, pause: Duration) {
        let n = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.max.fetch_max(n, Ordering::SeqCst);
        if pause.is_zero() {
            tokio::task::yield_now().await;
        } else {
            tokio::time::sleep(pause).await;
        }
        self.now.fetch_sub(1, Ordering::SeqCst);
    }
}

static ARM: InFlight = InFlight {
    now: AtomicUsize::new(0),
    max: AtomicUsize::new(0),
};
static SENSOR: InFlight = InFlight {
    now: AtomicUsize::new(0),
    max: AtomicUsize::new(0),
};
static ORDER: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Move one step (uses the arm).
#[tool]
async fn step(
    /// Step number.
    n: u32,
) -> u32 {
    ORDER.lock().unwrap().push(n);
    ARM.during(Duration::ZERO).await;
    n
}

/// Read the sensor (shares nothing).
#[tool(read_only)]
async fn sense() -> u32 {
    SENSOR.during(Duration::from_millis(30)).await;
    1
}

fn with<S>(mut defs: Vec<ToolDef<S>>, f: impl Fn(&mut ToolDef<S>)) -> Vec<ToolDef<S>> {
    defs.iter_mut().for_each(f);
    defs
}

async fn connect_multi<S: Send + Sync + 'static>(toolbox: Toolbox<S>) -> common::Client {
    common::connect(toolbox).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_sharing_a_resource_never_overlap_and_others_do() {
    let defs = with(tool_defs![step], |d| {
        d.meta.resources = &["arm"];
        d.meta.confirm_not_needed = Some(RIG);
    });
    let toolbox = ToolboxBuilder::new(())
        .with_tools(defs)
        .with_tools(tool_defs![sense])
        .with_resource("arm")
        .with_max_waiting("arm", 1000)
        .build()
        .unwrap();
    let client = Arc::new(connect_multi(toolbox).await);

    let mut calls = Vec::new();
    for i in 0..1000u32 {
        let client = Arc::clone(&client);
        calls.push(tokio::spawn(async move {
            call(&client, "step", json!({"n": i})).await
        }));
    }
    for i in 0..20 {
        let client = Arc::clone(&client);
        let _ = i;
        calls.push(tokio::spawn(async move {
            call(&client, "sense", json!({})).await
        }));
    }
    for c in calls {
        let r = c.await.unwrap();
        assert_eq!(r.is_error, Some(false), "{r:?}");
    }
    let arm_max = ARM.max.load(Ordering::SeqCst);
    let sensor_max = SENSOR.max.load(Ordering::SeqCst);
    eprintln!("max in flight: arm {arm_max}, sensor {sensor_max}");
    assert_eq!(arm_max, 1, "calls on one resource never overlap");
    assert!(
        sensor_max > 1,
        "tools without a shared resource run concurrently ({sensor_max})"
    );
    assert_eq!(ORDER.lock().unwrap().len(), 1000);
}

static GATE_ORDER: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Hold the gripper for a while.
#[tool]
async fn hold(
    /// Call number.
    n: u32,
) -> u32 {
    GATE_ORDER.lock().unwrap().push(n);
    tokio::time::sleep(Duration::from_millis(if n == 0 { 150 } else { 1 })).await;
    n
}

#[tokio::test(flavor = "current_thread")]
async fn a_resource_serves_calls_in_arrival_order() {
    let defs = with(tool_defs![hold], |d| {
        d.meta.resources = &["gripper"];
        d.meta.confirm_not_needed = Some(RIG);
    });
    let toolbox = ToolboxBuilder::new(())
        .with_tools(defs)
        .with_resource("gripper")
        .build()
        .unwrap();
    let client = Arc::new(common::connect(toolbox).await);
    let mut calls = Vec::new();
    for i in 0..12u32 {
        let client = Arc::clone(&client);
        calls.push(tokio::spawn(async move {
            call(&client, "hold", json!({"n": i})).await
        }));
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    for c in calls {
        assert_eq!(c.await.unwrap().is_error, Some(false));
    }
    assert_eq!(*GATE_ORDER.lock().unwrap(), (0..12).collect::<Vec<_>>());
}

/// Wait for a long time.
#[tool(idempotent)]
async fn slow(
    /// How long.
    #[param(unit = "ms")]
    ms: u64,
) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    "done".into()
}

#[tokio::test]
async fn a_timeout_stops_the_call_and_the_server_answers_the_next() {
    let defs = with(tool_defs![slow], |d| d.meta.timeout_ms = Some(100));
    let client = common::connect(Toolbox::from_tools((), defs)).await;
    let r = call(&client, "slow", json!({"ms": 5000})).await;
    assert_eq!(r.is_error, Some(true));
    assert_eq!(
        text(&r),
        "Tool `slow` did not finish within its 100 ms deadline; it was told to stop, did not \
         return within its 1 s grace period, and was abandoned (its code no longer runs). Its \
         effects may be partial: check the current state before trying again."
    );
    let r = call(&client, "slow", json!({"ms": 1})).await;
    assert_eq!((r.is_error, text(&r)), (Some(false), "done".to_owned()));
    client.cancel().await.unwrap();
}

/// Occupy the arm.
#[tool]
async fn occupy(
    /// How long.
    #[param(unit = "ms")]
    ms: u64,
) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    "released".into()
}

#[tokio::test]
async fn a_timeout_while_waiting_for_a_resource_says_so() {
    let slow = with(tool_defs![slow], |d| {
        d.meta.timeout_ms = Some(100);
        d.meta.resources = &["arm"];
        d.meta.confirm_not_needed = Some(RIG);
    });
    let occupy = with(tool_defs![occupy], |d| {
        d.meta.resources = &["arm"];
        d.meta.confirm_not_needed = Some(RIG);
    });
    let toolbox = ToolboxBuilder::new(())
        .with_tools(slow)
        .with_tools(occupy)
        .with_resource("arm")
        .build()
        .unwrap();
    let busy = toolbox.clone();
    let first = tokio::spawn(async move {
        busy.call("occupy", json!({"ms": 400}).as_object().cloned())
            .await
    });
    tokio::time::sleep(Duration::from_millis(20)).await;
    let second = toolbox
        .call("slow", json!({"ms": 1}).as_object().cloned())
        .await
        .unwrap();
    assert_eq!(
        second.content[0].as_text().unwrap().text,
        "Tool `slow` timed out after 100 ms while waiting for `arm`, which other calls are using; it did not run. Call it again once they have finished."
    );
    assert_eq!(first.await.unwrap().unwrap().is_error, Some(false));
}

static FLAKY: AtomicUsize = AtomicUsize::new(0);

/// Read a flaky bus.
#[tool(read_only)]
fn flaky_read() -> Result<u32, ToolError> {
    match FLAKY.fetch_add(1, Ordering::SeqCst) {
        0 | 1 => Err(ToolError::new("bus busy").retryable()),
        n => Ok(n as u32),
    }
}

#[tokio::test]
async fn retryable_errors_are_retried_up_to_the_limit() {
    let defs = with(tool_defs![flaky_read], |d| d.meta.retry = 2);
    let toolbox = Toolbox::from_tools((), defs);
    let r = toolbox.call("flaky_read", None).await.unwrap();
    assert_eq!(
        r.structured_content,
        Some(json!({"result": 2})),
        "third attempt succeeds"
    );
    FLAKY.store(0, Ordering::SeqCst);
    let defs = with(tool_defs![flaky_read], |d| d.meta.retry = 1);
    let r = Toolbox::from_tools((), defs)
        .call("flaky_read", None)
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert_eq!(r.content[0].as_text().unwrap().text, "bus busy");
}

#[test]
fn retry_on_a_tool_that_is_neither_read_only_nor_idempotent_is_refused() {
    let defs = with(tool_defs![step], |d| d.meta.retry = 1);
    let err = Toolbox::try_from_tools((), defs).unwrap_err();
    let toolwright::BuildError::Tools { problems } = &err else {
        panic!("{err}")
    };
    assert_eq!(
        *problems,
        [
            "tool `step`: `retry` repeats the call, so it is allowed only on `read_only` or `idempotent` tools (retrying a write can repeat it)"
        ]
    );
}

static DROPPED: AtomicBool = AtomicBool::new(false);
static STARTED: AtomicBool = AtomicBool::new(false);

struct SetOnDrop;
impl Drop for SetOnDrop {
    fn drop(&mut self) {
        DROPPED.store(true, Ordering::SeqCst);
    }
}

/// Run until cancelled.
#[tool]
async fn forever(
    /// The call.
    ctx: Context,
) -> String {
    let _guard = SetOnDrop;
    STARTED.store(true, Ordering::SeqCst);
    let _ = ctx.trace_id();
    tokio::time::sleep(Duration::from_secs(3600)).await;
    "never".into()
}

#[tokio::test]
async fn a_cancelled_call_is_dropped() {
    let client = common::connect(Toolbox::from_tools((), tool_defs![forever])).await;
    let handle = client
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new("forever"))),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    for _ in 0..200 {
        if STARTED.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(STARTED.load(Ordering::SeqCst));
    handle
        .cancel(Some("user changed their mind".into()))
        .await
        .unwrap();
    for _ in 0..200 {
        if DROPPED.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(
        DROPPED.load(Ordering::SeqCst),
        "the tool's future was dropped"
    );
    let r = call(&client, "forever", json!({"unexpected": 1})).await;
    assert_eq!(r.is_error, Some(true), "the server still answers");
    client.cancel().await.unwrap();
}

/// Sweep through steps, reporting progress.
#[tool]
async fn sweep(
    /// Number of steps.
    #[param(range = 1..=50)]
    steps: u32,
    /// The call.
    ctx: Context,
) -> u32 {
    for i in 1..=steps {
        ctx.progress(
            f64::from(i),
            Some(f64::from(steps)),
            Some(format!("step {i}")),
        )
        .await;
        tokio::task::yield_now().await;
    }
    steps
}

#[tokio::test]
async fn progress_notifications_arrive_in_order() {
    let toolbox = Toolbox::from_tools((), tool_defs![sweep]);
    assert!(
        !serde_json::to_string(&toolbox.tool("sweep").unwrap().input_schema)
            .unwrap()
            .contains("ctx"),
        "the context is not a published parameter"
    );
    let (client, recorder) = common::connect_recording(toolbox).await;
    let result = common::call_with_progress(&client, "sweep", json!({"steps": 20})).await;
    assert_eq!(result.structured_content, Some(json!({"result": 20})));
    // Notifications are sent before the response on the same ordered stream.
    common::eventually(|| recorder.0.lock().unwrap().len() == 20).await;
    let seen = recorder.0.lock().unwrap().clone();
    assert_eq!(seen.len(), 20);
    for (i, (progress, total, message)) in seen.iter().enumerate() {
        assert_eq!(*progress, (i + 1) as f64);
        assert_eq!(*total, Some(20.0));
        assert_eq!(message.as_deref(), Some(format!("step {}", i + 1).as_str()));
    }
    client.cancel().await.unwrap();
}

/// List many readings.
#[tool(read_only)]
fn many_readings(
    /// How many.
    count: u32,
) -> Vec<u32> {
    (0..count).collect()
}

#[tokio::test]
async fn output_over_budget_is_cut_on_items_with_a_marker() {
    let defs = with(tool_defs![many_readings], |d| {
        d.meta.max_output_bytes = Some(200)
    });
    let toolbox = Toolbox::from_tools((), defs);
    let r = toolbox
        .call("many_readings", json!({"count": 500}).as_object().cloned())
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false));
    let kept = r.structured_content.as_ref().unwrap()["result"]
        .as_array()
        .unwrap()
        .len();
    assert!(kept > 10 && kept < 500, "{kept}");
    assert!(
        serde_json::to_string(r.structured_content.as_ref().unwrap())
            .unwrap()
            .len()
            <= 200
    );
    assert_eq!(r.content.len(), 2);
    assert_eq!(
        r.content[1].as_text().unwrap().text,
        format!(
            "[output cut to fit the 200 byte budget: `result` kept the first {kept} of 500 items. To see the rest, call again asking for fewer or later items.]"
        )
    );
    let meta = r.meta.unwrap();
    assert_eq!(
        meta.0["io.toolwright/truncated"],
        json!({"path": "result", "kept": kept, "total": 500, "budget": 200})
    );
    let small = toolbox
        .call("many_readings", json!({"count": 3}).as_object().cloned())
        .await
        .unwrap();
    assert_eq!(small.content.len(), 1, "within budget: untouched");
}

#[tokio::test]
async fn max_concurrency_caps_all_calls() {
    static CAPPED: InFlight = InFlight {
        now: AtomicUsize::new(0),
        max: AtomicUsize::new(0),
    };
    /// Busy work.
    #[tool]
    async fn busy() -> u32 {
        CAPPED.during(Duration::from_millis(10)).await;
        0
    }
    let toolbox = ToolboxBuilder::new(())
        .with_tools(tool_defs![busy])
        .with_max_concurrency(3)
        .build()
        .unwrap();
    let mut calls = Vec::new();
    for _ in 0..30 {
        let t = toolbox.clone();
        calls.push(tokio::spawn(
            async move { t.call("busy", None).await.unwrap() },
        ));
    }
    for c in calls {
        assert_eq!(c.await.unwrap().is_error, Some(false));
    }
    assert_eq!(CAPPED.max.load(Ordering::SeqCst), 3);
}
