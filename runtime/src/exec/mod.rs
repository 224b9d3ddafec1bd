//! Running one call under its tool's policy: its turn for the resources it uses (fair, bounded
//! queues), its deadline, cancellation by the client, a grace period to wind down, the safe
//! stop of each resource when a call holding it ends early, sync bodies on the blocking pool,
//! and retries.
//!
//! What the runtime guarantees, whatever the body does:
//! - calls sharing a resource run one at a time, in the order the server received them; a call
//!   arriving when `max_waiting` calls already wait is refused at once;
//! - the deadline covers waiting and running; when it passes (or the client cancels, or
//!   disconnects) the body is told to stop through its `Context` and has its grace period to
//!   return;
//! - if it does not return an `Ok` in that time (or panics), the safe stop of every resource it
//!   holds runs, exactly once, before any other call gets the resource;
//! - a sync body keeps its resources until it really returns, even after its call was answered;
//! - the answer says which of these happened.

pub(crate) mod arrival;
pub(crate) mod messages;
pub(crate) mod policy;
pub(crate) mod queue;

use std::any::Any;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context as TaskContext, Poll};
use std::time::{Duration, Instant};

use futures::FutureExt as _;
use futures::future::CatchUnwind;
use rmcp::model::ProgressToken;
use serde_json::{Map, Value};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use self::messages::{Ending, SafeStopReport, StopOutcome, Why};
use self::policy::{DEFAULT_GRACE, Policy, Resource};
use self::queue::{QueueFull, Tickets};
use crate::context::{CancelReason, Context, Link, Round};
use crate::contract::{Args, Body, CallError, Handler, HandlerFuture, SafeStopResult};
use rmcp::model::InputRequiredResult;

/// How long a safe stop may take before its resource is reported in an unknown state.
pub(crate) const SAFE_STOP_LIMIT: Duration = Duration::from_secs(10);

/// One call to run: the tool, its state, where it came from.
pub(crate) struct Call<'a, S> {
    pub tool: &'a Arc<str>,
    pub state: &'a Arc<S>,
    pub handler: Handler<S>,
    pub policy: &'a Policy<S>,
    pub timeout: Option<Duration>,
    pub grace: Option<Duration>,
    pub concurrency: Option<&'a Arc<Semaphore>>,
    /// The places the call took in its resources' queues when it arrived (`None`: take them now).
    pub arrival: Option<Result<Tickets, QueueFull>>,
    /// The client's cancellation of this request (rmcp's), also cancelled when it disconnects.
    pub client: CancellationToken,
    /// The client's connection, for the body's `Context` (`None` in-process).
    pub link: Option<Link>,
    pub progress_token: Option<ProgressToken>,
    pub trace_id: String,
    pub arrival_lock: &'a std::sync::Mutex<()>,
    /// Tracks the tasks safe stops run on, so that the server waits for them.
    pub tracker: &'a tokio_util::task::TaskTracker,
    /// The call's questions and answers on protocol 2026-07-28 (`None`: it asks the client
    /// directly, or cannot).
    pub round: Option<Arc<Round>>,
    /// The task the call runs as (`None`: a plain call).
    pub task: Option<Arc<crate::tasks::Record>>,
    /// What the call checks once it has its turn, before its body starts (the envelope of
    /// the resource it moves, the tool's own check). Boxed: only the calls of such tools have
    /// one, and every call's future would carry it inline.
    pub turn: Option<Box<dyn Turn<S> + 'a>>,
}

/// A check a call passes once it has its turn, before its body starts: `Err` with the
/// outcome's name and what the model is told; the call then ends there, and nothing ran.
pub(crate) trait Turn<S>: Send + Sync {
    /// Checks the call's arguments (those the body gets) against `state` as it is now.
    fn check(&self, state: &S, args: &Map<String, Value>) -> Result<(), (&'static str, String)>;
}

/// How a call ended.
pub(crate) enum Outcome {
    /// The body's value, to shape as the tool's output by `answer_by` (the call's deadline, or
    /// the end of its grace period when it finished in it; `None`: no deadline).
    Value {
        value: Value,
        answer_by: Option<Instant>,
    },
    /// An error for the model: the text, and whether calling again may succeed.
    Error { text: String, retryable: bool },
    /// The body asked the client questions it has not answered yet (protocol 2026-07-28): the
    /// round's result.
    InputRequired(Box<InputRequiredResult>),
}

/// A call's resources and concurrency permit while it has them.
struct Admitted {
    _tickets: Tickets,
    _permit: Option<OwnedSemaphorePermit>,
}

/// The running body.
enum Running {
    Async(CatchUnwind<AssertUnwindSafe<HandlerFuture>>),
    Blocking(tokio::task::JoinHandle<Result<Value, CallError>>),
}

type Panic = Box<dyn Any + Send>;

impl Future for Running {
    type Output = Result<Result<Value, CallError>, Panic>;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            Running::Async(f) => f.poll_unpin(cx),
            Running::Blocking(h) => h.poll_unpin(cx).map(|r| r.map_err(join_error)),
        }
    }
}

fn join_error(e: tokio::task::JoinError) -> Panic {
    match e.try_into_panic() {
        Ok(panic) => panic,
        Err(_) => Box::new("the blocking task was cancelled (the runtime is shutting down)"),
    }
}

/// Runs `body`: polled here when async, on tokio's blocking pool when sync. A sync body holds
/// `admitted` until it returns, even if the call stops waiting for it.
fn start(body: Body, admitted: &Arc<Admitted>) -> Running {
    match body {
        Body::Async(future) => Running::Async(AssertUnwindSafe(future).catch_unwind()),
        Body::Blocking(f) => {
            let held = Arc::clone(admitted);
            Running::Blocking(tokio::task::spawn_blocking(move || {
                let result = f();
                drop(held);
                result
            }))
        }
    }
}

/// The body of a call in flight, and what to do if the caller stops waiting for it (an
/// in-process caller dropping the call's future): the safe stops of its resources, run on a
/// task of their own, before the resources are released.
struct InFlight<S: Send + Sync + 'static> {
    running: Option<Running>,
    cleanup: Option<Cleanup<S>>,
}

/// What the safe stops of a call in flight need: the state, the resources, the resources'
/// places (released after the stops ran), and the tracker of the task they run on.
type Cleanup<S> = (
    Arc<S>,
    Arc<[Arc<Resource<S>>]>,
    Arc<Admitted>,
    tokio_util::task::TaskTracker,
);

impl<S: Send + Sync + 'static> Drop for InFlight<S> {
    fn drop(&mut self) {
        // The body goes first, so the safe stop never runs next to it.
        drop(self.running.take());
        let Some((state, resources, admitted, tracker)) = self.cleanup.take() else {
            return;
        };
        if resources.is_empty() {
            return;
        }
        match tokio::runtime::Handle::try_current() {
            Ok(handle) => {
                tracker.spawn_on(
                    async move {
                        let stops = safe_stops(&state, &resources, &admitted).await;
                        tracing::warn!(?stops, "call dropped by its caller; safe stops ran");
                        drop(admitted);
                    },
                    &handle,
                );
            }
            Err(_) => tracing::error!("call dropped outside a runtime; its safe stops did not run"),
        }
    }
}

/// Runs a validated call to its end; see the module documentation for what is guaranteed.
pub(crate) async fn run<S: Send + Sync + 'static>(
    call: Call<'_, S>,
    args: Map<String, Value>,
) -> (&'static str, Outcome) {
    let Call {
        tool,
        state,
        handler,
        policy,
        timeout,
        grace,
        concurrency,
        mut arrival,
        client,
        link,
        progress_token,
        trace_id,
        arrival_lock,
        tracker,
        round,
        task,
        turn,
    } = call;
    let grace = grace.unwrap_or(DEFAULT_GRACE);
    let attempts = policy.retry + 1;
    // Moved into the last attempt, cloned for the others.
    let mut per_attempt = Some((args, trace_id, link, progress_token));
    for attempt in 1..=attempts {
        let last = attempt == attempts;
        let (args, trace_id, link, progress_token) = if last {
            per_attempt.take()
        } else {
            per_attempt.clone()
        }
        .expect("taken by the last attempt only");
        // A timeout too long to represent is no deadline.
        let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
        let why_deadline = Why::Deadline(timeout.unwrap_or_default());
        let sleep = async {
            match deadline {
                Some(d) => tokio::time::sleep_until(d.into()).await,
                None => std::future::pending().await,
            }
        };
        let mut sleep = std::pin::pin!(sleep);

        // 1. The call's turn: its places in the queues (taken on arrival), then a permit.
        let tickets = match arrival.take() {
            Some(taken) => taken,
            None => queue::enqueue(&policy.queues, arrival_lock),
        };
        let tickets = match tickets {
            Ok(t) => t,
            Err(full) => {
                return (
                    "queue_full",
                    Outcome::Error {
                        text: messages::queue_full(tool, &full.resource, full.waiting),
                        retryable: true,
                    },
                );
            }
        };
        // What the call waits for: an index into `tickets`, or `tickets.len()` for the permit.
        let waiting = AtomicUsize::new(0);
        let admit = async {
            for (i, t) in tickets.as_slice().iter().enumerate() {
                waiting.store(i, Ordering::Relaxed);
                t.turn().await?;
            }
            waiting.store(tickets.as_slice().len(), Ordering::Relaxed);
            match concurrency {
                Some(s) => tokio::select! {
                    permit = Arc::clone(s).acquire_owned() => Ok(permit.ok()),
                    by = tickets.stopped() => Err(by),
                },
                None => Ok(None),
            }
        };
        let admitted = tokio::select! {
            biased;
            permit = admit => match permit {
                Ok(permit) => permit,
                Err(by) => {
                    // A stop tool stopped the resource it waited for: it never starts.
                    let i = waiting.load(Ordering::Relaxed);
                    let text = messages::did_not_start(tool, Why::Stopped(by), tickets.as_slice().get(i.min(tickets.as_slice().len().saturating_sub(1))).map(|t| &**t.resource()));
                    return ("stopped", Outcome::Error { text, retryable: false });
                }
            },
            () = client.cancelled() => {
                let i = waiting.load(Ordering::Relaxed);
                let text = messages::did_not_start(tool, Why::Client, tickets.as_slice().get(i).map(|t| &**t.resource()));
                return ("cancelled", Outcome::Error { text, retryable: false });
            }
            () = &mut sleep => {
                let i = waiting.load(Ordering::Relaxed);
                let text = messages::did_not_start(tool, why_deadline, tickets.as_slice().get(i).map(|t| &**t.resource()));
                if !last {
                    tracing::warn!(attempt, "timed out waiting; retrying");
                    continue;
                }
                return ("timeout", Outcome::Error { text, retryable: false });
            }
        };
        let admitted = Arc::new(Admitted {
            _tickets: tickets,
            _permit: admitted,
        });
        // Its turn: checked again from where the resource is now (its places are given back
        // as `admitted` drops; the body never started).
        if let Some(turn) = &turn
            && let Err((outcome, text)) = turn.check(state, &args)
        {
            return (
                outcome,
                Outcome::Error {
                    text,
                    retryable: false,
                },
            );
        }

        // 2. The body, until it returns or is told to stop.
        // The body's own token, cancelled by the runtime only: the body learns of a client's
        // cancel when the runtime acts on it, so the two agree on how the call ended.
        let context = Context::new(
            Arc::clone(tool),
            trace_id,
            link,
            progress_token,
            None,
            deadline,
            round.clone(),
        );
        if let Some(task) = &task {
            context.in_task(Arc::clone(task));
        }
        if let Some(round) = &round {
            round.restart();
        }
        // Resolves when the body asked its client something it has not answered yet (boxed,
        // and only with a round: every call's future would carry it).
        let mut asked = round.as_ref().map(|round| Box::pin(round.asked()));
        let body = handler(Arc::clone(state), Args::new(args, context.clone()));
        let blocking = matches!(body, Body::Blocking(_));
        let mut flight = InFlight {
            running: Some(start(body, &admitted)),
            cleanup: (!policy.resources.is_empty()).then(|| {
                (
                    Arc::clone(state),
                    Arc::clone(&policy.resources),
                    Arc::clone(&admitted),
                    tracker.clone(),
                )
            }),
        };
        let running = flight.running.as_mut().expect("just started");
        let mut stopped_by = None;
        let signal = tokio::select! {
            biased;
            finished = &mut *running => {
                flight.running = None;
                match finished {
                    Ok(Ok(value)) => {
                        flight.cleanup = None;
                        return (
                            "ok",
                            Outcome::Value {
                                value,
                                answer_by: deadline,
                            },
                        );
                    }
                    Ok(Err(CallError::Invalid(violations))) => {
                        flight.cleanup = None;
                        let text = crate::validate::invalid_arguments_text(tool, &violations);
                        return ("invalid_arguments", Outcome::Error { text, retryable: false });
                    }
                    Ok(Err(CallError::Tool(error))) => {
                        flight.cleanup = None;
                        drop(admitted);
                        if error.is_retryable() && !last {
                            tracing::warn!(attempt, error = %error.message(), "retryable error; retrying");
                            continue;
                        }
                        let retryable = error.is_retryable();
                        return ("tool_error", Outcome::Error { text: error.to_string(), retryable });
                    }
                    Err(panic) => {
                        let message = panic_message(&*panic);
                        tracing::error!(panic = %message, "tool panicked");
                        flight.cleanup = None;
                        let stops = stop_then_release(tracker, state, &policy.resources, admitted).await;
                        let text = messages::panicked(tool, &message, &stops);
                        return ("panic", Outcome::Error { text, retryable: false });
                    }
                }
            }
            () = until_asked(&mut asked) => CancelReason::InputRequired,
            () = client.cancelled() => CancelReason::Client,
            () = &mut sleep => CancelReason::Deadline,
            by = admitted._tickets.stopped() => {
                stopped_by = Some(by);
                CancelReason::Stopped
            }
        };

        // 2b. A question the client has not answered (protocol 2026-07-28): the round ends
        // here, and the body runs again from its start with the answer (see context/input.rs).
        if let (CancelReason::InputRequired, Some(round)) = (signal, &round) {
            context.cancel(signal);
            if blocking {
                // Its question returned `ClientError::InputRequired`: it should return now.
                if tokio::time::timeout(grace, &mut *running).await.is_err() {
                    tracing::warn!(
                        ?grace,
                        "a sync body did not return after asking its client; it keeps its resources until it does"
                    );
                }
            }
            // An async body is dropped where it asked.
            flight.running = None;
            flight.cleanup = None;
            let stops = stop_then_release(tracker, state, &policy.resources, admitted).await;
            tracing::debug!(?stops, "the body asked its client; the round ends");
            return (
                "input_required",
                Outcome::InputRequired(Box::new(round.input_required())),
            );
        }

        // 3. Told to stop: the grace period, then the safe stops.
        let why = match (signal, stopped_by) {
            (CancelReason::Deadline, _) => why_deadline,
            (CancelReason::Stopped, Some(by)) => Why::Stopped(by),
            _ => Why::Client,
        };
        tracing::info!(reason = ?signal, "telling the tool to stop");
        context.cancel(signal);
        let told = Instant::now();
        let ended = tokio::time::timeout(grace, &mut *running).await;
        let after = told.elapsed();
        let ending = match ended {
            Ok(Ok(Ok(value))) => {
                // It finished after all: the work is done, nothing to stop.
                flight.running = None;
                flight.cleanup = None;
                tracing::info!(?after, "finished within its grace period");
                return (
                    "ok",
                    Outcome::Value {
                        value,
                        answer_by: told.checked_add(grace),
                    },
                );
            }
            Ok(Ok(Err(e))) => {
                flight.running = None;
                Ending::Stopped {
                    after,
                    error: Some(match e {
                        CallError::Tool(e) => e.message().to_owned(),
                        CallError::Invalid(v) => crate::validate::invalid_arguments_text(tool, &v),
                    }),
                }
            }
            Ok(Err(panic)) => {
                flight.running = None;
                Ending::Stopped {
                    after,
                    error: Some(format!("it panicked: {}", panic_message(&*panic))),
                }
            }
            Err(_) if blocking => {
                // Dropping the join handle leaves the body running; it holds its resources.
                flight.running = None;
                Ending::StillRunning { grace }
            }
            Err(_) => {
                flight.running = None;
                Ending::Abandoned { grace }
            }
        };
        flight.cleanup = None;
        let stops = stop_then_release(tracker, state, &policy.resources, admitted).await;
        let reserved: Vec<Arc<str>> = if matches!(ending, Ending::StillRunning { .. }) {
            policy
                .resources
                .iter()
                .map(|r| Arc::clone(r.queue.name()))
                .collect()
        } else {
            Vec::new()
        };
        tracing::warn!(?ending, ?stops, "call ended early");
        if matches!(why, Why::Deadline(_)) && !last {
            tracing::warn!(attempt, "timed out; retrying");
            continue;
        }
        let text = messages::ended_early(tool, why, &ending, &stops, &reserved);
        let outcome = match why {
            Why::Client => "cancelled",
            Why::Stopped(_) => "stopped",
            Why::Deadline(_) => "timeout",
        };
        return (
            outcome,
            Outcome::Error {
                text,
                retryable: false,
            },
        );
    }
    unreachable!("the last attempt always returns")
}

/// What a stop tool (`#[tool(stop_for = "..")]`, named `by`) does before its body runs: every
/// call waiting for `resources` is stopped and will not start (see `queue.rs`).
pub(crate) fn stop_queues<S>(by: &'static str, resources: &[Arc<Resource<S>>]) {
    for resource in resources {
        let (waiting, holding) = resource.queue.stop(by);
        tracing::info!(resource = %resource.queue.name(), waiting, holding, "stopped by {by}");
    }
}

/// What a stop tool does after its body ran: the call using each of `resources` is told to
/// stop, and the safe stop of each runs, whatever that call is doing (it runs them again once
/// its body returned, unless it finished on its own).
pub(crate) async fn stop_resources<S: Send + Sync + 'static>(
    tracker: &tokio_util::task::TaskTracker,
    state: &Arc<S>,
    resources: &Arc<[Arc<Resource<S>>]>,
) -> Vec<SafeStopReport> {
    for resource in resources.iter() {
        resource.queue.stop_holder();
    }
    let admitted = Arc::new(Admitted {
        _tickets: Tickets::None,
        _permit: None,
    });
    stop_then_release(tracker, state, resources, admitted).await
}

/// Waits for `asked`, or forever without one.
async fn until_asked<F: Future<Output = ()> + Unpin>(asked: &mut Option<F>) {
    match asked {
        Some(asked) => asked.await,
        None => std::future::pending().await,
    }
}

/// Runs the safe stops on a task of their own that holds the call's places until they ran, so
/// that a caller that stops waiting cannot cut them short or free the resources early.
async fn stop_then_release<S: Send + Sync + 'static>(
    tracker: &tokio_util::task::TaskTracker,
    state: &Arc<S>,
    resources: &Arc<[Arc<Resource<S>>]>,
    admitted: Arc<Admitted>,
) -> Vec<SafeStopReport> {
    if resources.is_empty() {
        return Vec::new();
    }
    let (state, resources) = (Arc::clone(state), Arc::clone(resources));
    let task = tracker.spawn(async move {
        let stops = safe_stops(&state, &resources, &admitted).await;
        drop(admitted);
        stops
    });
    task.await.unwrap_or_default()
}

/// Runs the safe stop of each resource, in order, each within [`SAFE_STOP_LIMIT`]. A sync safe
/// stop runs on the blocking pool and holds `admitted` until it returns.
async fn safe_stops<S: Send + Sync + 'static>(
    state: &Arc<S>,
    resources: &[Arc<Resource<S>>],
    admitted: &Arc<Admitted>,
) -> Vec<SafeStopReport> {
    let mut reports = Vec::with_capacity(resources.len());
    for resource in resources {
        let outcome = match resource.safe_stop {
            None => StopOutcome::Undeclared,
            Some(stop) => {
                let ran: Result<SafeStopResult, Panic> = match stop(Arc::clone(state)) {
                    Body::Async(f) => {
                        match tokio::time::timeout(
                            SAFE_STOP_LIMIT,
                            AssertUnwindSafe(f).catch_unwind(),
                        )
                        .await
                        {
                            Ok(r) => r,
                            Err(_) => {
                                reports
                                    .push(report(resource, StopOutcome::TooLong(SAFE_STOP_LIMIT)));
                                continue;
                            }
                        }
                    }
                    Body::Blocking(f) => {
                        let held = Arc::clone(admitted);
                        let handle = tokio::task::spawn_blocking(move || {
                            let r = f();
                            drop(held);
                            r
                        });
                        match tokio::time::timeout(SAFE_STOP_LIMIT, handle).await {
                            Ok(r) => r.map_err(join_error),
                            Err(_) => {
                                reports
                                    .push(report(resource, StopOutcome::TooLong(SAFE_STOP_LIMIT)));
                                continue;
                            }
                        }
                    }
                };
                match ran {
                    Ok(Ok(what)) => StopOutcome::Done(what),
                    Ok(Err(e)) => StopOutcome::Failed(e),
                    Err(panic) => {
                        StopOutcome::Failed(format!("it panicked: {}", panic_message(&*panic)))
                    }
                }
            }
        };
        reports.push(report(resource, outcome));
    }
    reports
}

/// A safe stop's report, logged: one that failed or did not finish leaves its resource in an
/// unknown state, an error an operator must see.
fn report<S>(resource: &Resource<S>, outcome: StopOutcome) -> SafeStopReport {
    let name = resource.queue.name();
    match &outcome {
        StopOutcome::Failed(_) | StopOutcome::TooLong(_) => tracing::error!(
            resource = %name,
            ?outcome,
            "safe stop failed: the resource is in an unknown state"
        ),
        _ => tracing::info!(resource = %name, ?outcome, "safe stop"),
    }
    SafeStopReport {
        resource: Arc::clone(resource.queue.name()),
        outcome,
    }
}

/// The text of a panic payload.
pub(crate) fn panic_message(panic: &(dyn Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_owned()
    }
}
