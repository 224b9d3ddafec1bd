//! The contract of a call told to stop, on a toolbox of its own: the grace period, the safe
//! stop of each resource held (exactly once, on every way a call can end early: deadline, panic,
//! a caller that stops waiting), a failing safe stop, and where sync bodies run.

mod common;

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use common::{eventually, text};
use serde_json::json;
use toolwright::{
    BuildError, CancelReason, Context, ToolError, ToolSet as _, Toolbox, ToolboxBuilder, toolbox,
};

#[derive(Default)]
struct Rig {
    parks: AtomicUsize,
    park_fails: AtomicBool,
    holding: AtomicBool,
    reasons: Mutex<Vec<Option<CancelReason>>>,
    remaining_at_start: Mutex<Option<Duration>>,
}

#[toolbox(
    grace = "300ms",
    resource(name = "rig", safe_stop = park, max_waiting = 4)
)]
impl Rig {
    /// Parks the rig: the safe stop of `rig`.
    async fn park(&self) -> Result<String, ToolError> {
        self.parks.fetch_add(1, Ordering::SeqCst);
        if self.park_fails.load(Ordering::SeqCst) {
            return Err(ToolError::new("encoder offline"));
        }
        Ok("parked at rest".into())
    }

    /// Winds down when told to stop.
    #[tool(resource = "rig", timeout = "100ms")]
    async fn cooperative(&self, ctx: Context) -> Result<String, ToolError> {
        *self.remaining_at_start.lock().unwrap() = ctx.remaining();
        ctx.cancelled().await;
        self.reasons.lock().unwrap().push(ctx.cancel_reason());
        Err(ToolError::new("wound down at step 3."))
    }

    /// Finishes its work anyway, within the grace period.
    #[tool(resource = "rig", timeout = "100ms")]
    async fn finisher(&self, ctx: Context) -> String {
        ctx.cancelled().await;
        "finished anyway".into()
    }

    /// Panics while holding the rig.
    #[tool(resource = "rig")]
    fn explode(&self) -> String {
        panic!("gear slipped")
    }

    /// Never returns (until dropped).
    #[tool(resource = "rig")]
    async fn hang(&self) -> String {
        self.holding.store(true, Ordering::SeqCst);
        std::future::pending::<()>().await;
        unreachable!()
    }

    /// Uses the rig briefly.
    #[tool(resource = "rig")]
    async fn touch(&self) -> String {
        "touched".into()
    }

    /// Where a sync body declared non-blocking runs.
    #[tool(read_only, blocking = false)]
    fn inline_thread(&self) -> String {
        format!("{:?}", std::thread::current().id())
    }

    /// Where a sync body runs by default.
    #[tool(read_only)]
    fn pool_thread(&self) -> String {
        format!("{:?}", std::thread::current().id())
    }
}

fn rig() -> Toolbox<Rig> {
    Toolbox::new(Rig::default())
}

async fn call(toolbox: &Toolbox<Rig>, tool: &str) -> (bool, String) {
    let r = toolbox.call(tool, None).await.expect("a tool result");
    (r.is_error == Some(true), text(&r))
}

#[tokio::test]
async fn a_body_that_winds_down_is_reported_and_the_resource_parked_once() {
    let toolbox = rig();
    let (error, text) = call(&toolbox, "cooperative").await;
    assert!(error);
    assert!(
        text.starts_with(
            "Tool `cooperative` did not finish within its 100 ms deadline; it was told to stop \
             and returned "
        ),
        "{text}"
    );
    assert!(
        text.ends_with(
            " later, saying: wound down at step 3. Safe stop of `rig`: parked at rest. Check the \
             current state before trying again."
        ),
        "{text}"
    );
    let state = toolbox.state();
    assert_eq!(state.parks.load(Ordering::SeqCst), 1);
    assert_eq!(
        *state.reasons.lock().unwrap(),
        [Some(CancelReason::Deadline)]
    );
    let left = state
        .remaining_at_start
        .lock()
        .unwrap()
        .expect("a deadline");
    assert!(
        left <= Duration::from_millis(100) && left > Duration::ZERO,
        "{left:?}"
    );
}

#[tokio::test]
async fn a_body_that_finishes_within_its_grace_period_succeeds_without_a_safe_stop() {
    let toolbox = rig();
    assert_eq!(
        call(&toolbox, "finisher").await,
        (false, "finished anyway".to_owned())
    );
    assert_eq!(toolbox.state().parks.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_panic_holding_a_resource_parks_it_and_says_so() {
    let toolbox = rig();
    assert_eq!(
        call(&toolbox, "explode").await,
        (
            true,
            "Tool `explode` failed with an internal error and did not complete: gear slipped. \
             Safe stop of `rig`: parked at rest. The server is still running; do not retry with \
             the same arguments."
                .to_owned()
        )
    );
    assert_eq!(toolbox.state().parks.load(Ordering::SeqCst), 1);
    assert_eq!(
        call(&toolbox, "touch").await,
        (false, "touched".to_owned()),
        "the rig is free again"
    );
}

#[tokio::test]
async fn a_failing_safe_stop_says_the_state_is_unknown() {
    let toolbox = rig();
    toolbox.state().park_fails.store(true, Ordering::SeqCst);
    let (error, text) = call(&toolbox, "explode").await;
    assert!(error);
    assert!(
        text.contains("The safe stop of `rig` failed (encoder offline): its state is unknown."),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_that_stops_waiting_still_gets_the_resource_parked_before_anyone_else_uses_it() {
    let toolbox = rig();
    let caller = {
        let toolbox = toolbox.clone();
        tokio::spawn(async move { toolbox.call("hang", None).await })
    };
    let state = std::sync::Arc::clone(toolbox.state());
    assert!(eventually(|| state.holding.load(Ordering::SeqCst)).await);
    let next = {
        let toolbox = toolbox.clone();
        tokio::spawn(async move { call(&toolbox, "touch").await })
    };
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!next.is_finished(), "the rig is held");
    assert_eq!(state.parks.load(Ordering::SeqCst), 0);
    caller.abort();
    let touched = tokio::time::timeout(Duration::from_secs(5), next)
        .await
        .expect("the rig is released")
        .unwrap();
    assert_eq!(touched, (false, "touched".to_owned()));
    assert_eq!(
        state.parks.load(Ordering::SeqCst),
        1,
        "parked once, before the next call"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn sync_bodies_run_on_the_blocking_pool_unless_declared_non_blocking() {
    let toolbox = rig();
    let here = format!("{:?}", std::thread::current().id());
    let inline = call(&toolbox, "inline_thread").await.1;
    let pool = call(&toolbox, "pool_thread").await.1;
    assert_eq!(inline, here, "on the runtime's thread");
    assert_ne!(pool, here, "on a thread of the blocking pool");
}

/// Calls `touch` once `held` calls of `hang` hold and wait for the rig.
async fn touch_behind(toolbox: &Toolbox<Rig>, held: usize) -> rmcp::model::CallToolResult {
    let mut hanging = Vec::new();
    for _ in 0..held {
        let toolbox = toolbox.clone();
        hanging.push(tokio::spawn(
            async move { toolbox.call("hang", None).await },
        ));
        tokio::task::yield_now().await;
    }
    let state = std::sync::Arc::clone(toolbox.state());
    assert!(eventually(|| state.holding.load(Ordering::SeqCst)).await);
    let r = toolbox.call("touch", None).await.unwrap();
    for h in hanging {
        h.abort();
    }
    r
}

#[tokio::test]
async fn queue_limits_come_from_the_declaration() {
    let r = touch_behind(&rig(), 5).await;
    assert_eq!(r.is_error, Some(true));
    assert_eq!(
        text(&r),
        "Tool `touch` was not run: 4 calls are already waiting for `rig` (the most it queues) \
         behind the one using it. Call it again once some have finished."
    );
    assert_eq!(r.meta.unwrap().0["io.toolwright/retryable"], json!(true));
}

#[tokio::test]
async fn with_max_waiting_applies_whether_given_before_or_after_the_tools() {
    let before = ToolboxBuilder::new(Rig::default())
        .with_max_waiting("rig", 2)
        .with_tools(Rig::tools())
        .with_declared_resources()
        .build()
        .unwrap();
    let after = Toolbox::builder(Rig::default())
        .with_max_waiting("rig", 2)
        .build()
        .unwrap();
    for toolbox in [before, after] {
        let r = touch_behind(&toolbox, 3).await;
        assert_eq!(r.is_error, Some(true));
        assert!(
            text(&r).starts_with("Tool `touch` was not run: 2 calls are already waiting for `rig`"),
            "{r:?}"
        );
    }
}

#[test]
fn with_max_waiting_on_a_resource_no_tool_uses_is_a_build_error() {
    let e = Toolbox::builder(Rig::default())
        .with_max_waiting("arm", 2)
        .build()
        .unwrap_err();
    assert_eq!(
        e,
        BuildError::UnknownResource {
            resource: "arm".into(),
            known: vec!["rig".into()],
        }
    );
    assert_eq!(
        e.to_string(),
        "cannot build the toolbox: `with_max_waiting` names resource `arm`, which no tool of \
         this toolbox uses (its resources: rig)"
    );
}
