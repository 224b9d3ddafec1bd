//! Running one call under its tool's policy: its turn for the resources it uses (fair, bounded
//! queues), its deadline, cancellation by the client, a grace period to wind down, the safe
//! stop of each resource when a call holding it ends early, sync bodies on the blocking pool,
//! and retries.
//!
//! What the runtime guarantees, whatever the body does:
//! - calls sharing a resource run one at a time, in the order the server received them; a call
//!   arriving when `max_waiting` calls already wait is refused at once;
//! - the deadline covers waiting and running; when it passes (or the client cancels, or goes
//!   away, or a stop tool stops the resource, or the server shuts down) the body is told to stop
//!   through its `Context` and has its grace period to return (at most 2 s when the client went
//!   away or the server is shutting down);
//! - once told to stop, a call holding a resource with a safe stop has that safe stop run
//!   whatever the body returned, exactly once (a stop tool's own counts), before any other call
//!   gets the resource, and its answer is an error saying what stopped it; a body that panics
//!   gets the safe stops too;
//! - a safe stop that fails or overruns leaves its resource refusing calls that move it until
//!   its safe stop succeeds again (each such call runs it first);
//! - a sync body keeps its resources until it really returns, even after its call was answered;
//! - the answer says which of these happened.

pub(crate) mod arrival;
pub(crate) mod messages;
pub(crate) mod policy;
pub(crate) mod queue;

use crate::telemetry::mcp::{self, NoteValue};
use std::any::Any;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
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
use self::policy::{DEFAULT_GRACE, DEPARTURE_GRACE, Policy, Resource};
use self::queue::{QueueFull, Tickets};
use crate::context::{CancelReason, Context, Gone, Link, Round};
use crate::contract::{Args, Body, CallError, Handler, HandlerFuture, SafeStopResult};
use crate::tasks::Stopping;
use rmcp::model::InputRequiredResult;

/// How long a safe stop may take before its resource is reported in an unknown state.
pub(crate) const SAFE_STOP_LIMIT: Duration = Duration::from_secs(10);

/// The calls in flight of a toolbox (and the safe stops they spawned), which the server waits
/// for before its process may end, and whether it is shutting down.
#[derive(Debug, Default)]
pub(crate) struct Calls {
    pub(crate) tracker: tokio_util::task::TaskTracker,
    stopping: AtomicBool,
}

impl Calls {
    /// Counts a call (or a task) in flight while the token lives.
    pub(crate) fn token(&self) -> tokio_util::task::task_tracker::TaskTrackerToken {
        self.tracker.token()
    }

    /// The server is shutting down: the cancels that follow say so.
    pub(crate) fn shut_down(&self) {
        self.stopping.store(true, Ordering::SeqCst);
    }

    /// Whether the server is shutting down.
    pub(crate) fn shutting_down(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }
}

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
    /// The calls in flight: tracks the tasks safe stops run on, so that the server waits for
    /// them, and says whether the server is shutting down.
    pub calls: &'a Calls,
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

/// What the checks at a call's turn settled for its body (a robot's checked motion), handed to
/// it through its `Context`.
pub(crate) type Plan = std::sync::Arc<dyn std::any::Any + Send + Sync>;

/// A check a call passes once it has its turn, before its body starts: `Err` with the
/// outcome's name and what the model is told; the call then ends there, and nothing ran.
pub(crate) trait Turn<S>: Send + Sync {
    /// Checks the call's arguments (those the body gets) against `state` as it is now, and
    /// says what it settled for the body.
    fn check(
        &self,
        state: &S,
        args: &Map<String, Value>,
    ) -> Result<Option<Plan>, (&'static str, String)>;
}

/// How a call ended.
pub(crate) enum Outcome {
    /// The body's value, to shape as the tool's output by `answer_by` (the call's deadline, or
    /// the end of its grace period when it finished in it; `None`: no deadline).
    Value {
        value: Value,
        answer_by: Option<Instant>,
    },
    /// An error for the model: the text, whether calling again may succeed, and the stop tool
    /// that stopped it.
    Error {
        text: String,
        retryable: bool,
        stopped_by: Option<&'static str>,
    },
    /// The body returned a value after it was told to stop (and the safe stops ran): an error
    /// for the model, whose text says what stopped it, followed by the value shaped as the
    /// tool's output (boxed: it is rare, and every call's future holds an `Outcome`).
    Interrupted(Box<Interrupted>),
    /// The body asked the client questions it has not answered yet (protocol 2026-07-28): the
    /// round's result.
    InputRequired(Box<InputRequiredResult>),
}

/// What a body returned after it was told to stop ([`Outcome::Interrupted`]).
pub(crate) struct Interrupted {
    /// What stopped it, how it ended, the safe stops.
    pub text: String,
    pub value: Value,
    pub answer_by: Option<Instant>,
    pub stopped_by: Option<&'static str>,
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
            let f = mcp::carry(f);
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

/// Why the client's cancellation token fired, asked once it did: the server shutting down, the
/// task's own reason, the client gone (as its transport says), else the client's cancel.
fn client_why(calls: &Calls, task: Option<&crate::tasks::Record>, link: Option<&Link>) -> Why {
    if calls.shutting_down() {
        return Why::Shutdown;
    }
    if let Some(task) = task {
        return match task.stopping() {
            Some(Stopping::LeaseExpired) => {
                Why::Gone(Gone::Lease(task.lease().unwrap_or_default()))
            }
            Some(Stopping::ClientGone) => Why::Gone(Gone::Disconnected),
            Some(Stopping::Shutdown) => Why::Shutdown,
            Some(Stopping::Cancelled) | None => Why::Client,
        };
    }
    match link.and_then(Link::gone) {
        Some(gone) => Why::Gone(gone),
        None => Why::Client,
    }
}

/// A call's turn, waited for: its permit (or the stop tool that stopped it) and how long it
/// waited, or why it stopped waiting (the client, the deadline).
#[allow(clippy::too_many_arguments)]
async fn wait_turn<T>(
    admit: Pin<&mut impl Future<Output = T>>,
    client: &CancellationToken,
    sleep: Pin<&mut impl Future<Output = ()>>,
    calls: &Calls,
    task: Option<&crate::tasks::Record>,
    link: Option<&Link>,
    why_deadline: Why,
) -> Result<(T, Option<Duration>), Why> {
    let since = Instant::now();
    let permit = tokio::select! {
        biased;
        permit = admit => permit,
        () = client.cancelled() => return Err(client_why(calls, task, link)),
        () = sleep => return Err(why_deadline),
    };
    // Its turn came as its client cancelled or went away (the call ahead of it ended for the
    // same reason): it does not start.
    if client.is_cancelled() {
        return Err(client_why(calls, task, link));
    }
    Ok((permit, Some(since.elapsed())))
}

/// What ended the wait for the body: a question (protocol 2026-07-28), or a reason to stop.
enum Signal {
    Asked,
    Stop(Why),
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
        calls,
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
                        stopped_by: None,
                    },
                );
            }
        };
        // What the call waits for: an index into `tickets`, or `tickets.len()` for the permit.
        let waiting = AtomicUsize::new(0);
        let admission = {
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
            let mut admit = std::pin::pin!(admit);
            // Most calls need not wait: the clock is read, and the wait's ends watched (boxed:
            // inline, their state would grow every call's future), only when their turn has not
            // come at once.
            match futures::poll!(admit.as_mut()) {
                Poll::Ready(permit) => Ok((permit, None)),
                Poll::Pending => {
                    // What it waits for first: what its deadline message names.
                    let blocked_on = waiting.load(Ordering::Relaxed);
                    let waited = Box::pin(wait_turn(
                        admit,
                        &client,
                        sleep.as_mut(),
                        calls,
                        task.as_deref(),
                        link.as_ref(),
                        why_deadline,
                    ))
                    .await;
                    waited.map(|(permit, time)| (permit, time.map(|time| (time, blocked_on))))
                }
            }
        };
        let waiting_for = |i: usize| tickets.as_slice().get(i).map(|t| &**t.resource());
        let i = waiting.load(Ordering::Relaxed);
        let (permit, waited) = match admission {
            Ok((Ok(permit), waited)) => (permit, waited),
            Ok((Err(by), _)) => {
                // A stop tool stopped the resource it waited for: it never starts.
                let last_one = i.min(tickets.as_slice().len().saturating_sub(1));
                let text = messages::did_not_start(tool, Why::Stopped(by), waiting_for(last_one));
                return (
                    "stopped",
                    Outcome::Error {
                        text,
                        retryable: false,
                        stopped_by: Some(by),
                    },
                );
            }
            Err(why) => {
                let text = messages::did_not_start(tool, why, waiting_for(i));
                if let Why::Deadline(_) = why
                    && !last
                {
                    tracing::warn!(attempt, "timed out waiting; retrying");
                    continue;
                }
                return (
                    why.detail(),
                    Outcome::Error {
                        text,
                        retryable: false,
                        stopped_by: None,
                    },
                );
            }
        };
        let admitted = Arc::new(Admitted {
            _tickets: tickets,
            _permit: permit,
        });
        note_wait(policy, waited);
        // 1b. A resource whose safe stop failed takes no call that moves it until its safe stop
        // succeeds again: run it now, holding the resource (one load per resource otherwise).
        if policy.moves
            && policy.resources.iter().any(|r| r.queue.is_faulted())
            && let Some(text) =
                Box::pin(recover(calls, state, &policy.resources, &admitted, tool)).await
        {
            return (
                "faulted",
                Outcome::Error {
                    text,
                    retryable: false,
                    stopped_by: None,
                },
            );
        }

        // Its turn: checked again from where the resource is now (its places are given back
        // as `admitted` drops; the body never started).
        let mut plan = None;
        if let Some(turn) = &turn {
            match turn.check(state, &args) {
                Ok(settled) => plan = settled,
                Err((outcome, text)) => {
                    return (
                        outcome,
                        Outcome::Error {
                            text,
                            retryable: false,
                            stopped_by: None,
                        },
                    );
                }
            }
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
        if let Some(plan) = plan {
            context.set_plan(plan);
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
                    calls.tracker.clone(),
                )
            }),
        };
        let running = flight.running.as_mut().expect("just started");
        // What the body returned while a stop tool was stopping its resource: answered as
        // stopped, naming the stop tool (the body often returns because the stop tool's own
        // body halted the device, before the call is told to stop). Boxed: rare, and inline it
        // would grow every call's future (`a_call_future_stays_small`).
        let mut early = None;
        let signal = tokio::select! {
            biased;
            finished = &mut *running => {
                if let Some(by) = admitted._tickets.stopping() {
                    // `wind_down` answers with it (and never polls the finished body again).
                    early = Some(Box::new(finished));
                    Signal::Stop(Why::Stopped(by))
                } else {
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
                            return ("invalid_arguments", Outcome::Error { text, retryable: false, stopped_by: None });
                        }
                        Ok(Err(CallError::Tool(error))) => {
                            flight.cleanup = None;
                            drop(admitted);
                            if error.is_retryable() && !last {
                                tracing::warn!(attempt, error = %error.message(), "retryable error; retrying");
                                continue;
                            }
                            let retryable = error.is_retryable();
                            return ("tool_error", Outcome::Error { text: error.to_string(), retryable, stopped_by: None });
                        }
                        Err(panic) => {
                            let message = panic_message(&*panic);
                            tracing::error!(panic = %message, "tool panicked");
                            flight.cleanup = None;
                            let stops = settle(calls, state, &policy.resources, admitted).await;
                            let text = messages::panicked(tool, &message, &stops);
                            return ("panic", Outcome::Error { text, retryable: false, stopped_by: None });
                        }
                    }
                }
            }
            () = until_asked(&mut asked) => Signal::Asked,
            () = client.cancelled() => Signal::Stop(client_why(calls, task.as_deref(), context.link())),
            () = &mut sleep => Signal::Stop(why_deadline),
            by = admitted._tickets.stopped() => Signal::Stop(Why::Stopped(by)),
        };

        // 2b. A question the client has not answered (protocol 2026-07-28): the round ends
        // here, and the body runs again from its start with the answer (see context/input.rs).
        let why = match (signal, &round) {
            (Signal::Asked, Some(round)) => {
                context.cancel(CancelReason::InputRequired);
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
                let stops = settle(calls, state, &policy.resources, admitted).await;
                tracing::debug!(?stops, "the body asked its client; the round ends");
                return (
                    "input_required",
                    Outcome::InputRequired(Box::new(round.input_required())),
                );
            }
            (Signal::Asked, None) => Why::Client,
            (Signal::Stop(why), _) => why,
        };

        // 3. Told to stop: the grace period, then the safe stops, whatever the body returned
        // (boxed: the path is rare, and inline its state would grow every call's future).
        let stopped = Box::pin(wind_down(Stopped {
            tool,
            state,
            policy,
            calls,
            grace,
            why,
            waited,
            blocking,
            context: &context,
            flight: &mut flight,
            early,
            admitted,
            last,
        }))
        .await;
        match stopped {
            Wound::Retry => {
                tracing::warn!(attempt, "timed out; retrying");
                continue;
            }
            Wound::Answer(detail, outcome) => return (detail, outcome),
        }
    }
    unreachable!("the last attempt always returns")
}

/// A call told to stop, as [`wind_down`] needs it.
struct Stopped<'a, 'f, S: Send + Sync + 'static> {
    tool: &'a Arc<str>,
    state: &'a Arc<S>,
    policy: &'a Policy<S>,
    calls: &'a Calls,
    grace: Duration,
    why: Why,
    /// How long it waited for its turn, and for which of its places (an index into its
    /// tickets, or past them for the permit).
    waited: Option<(Duration, usize)>,
    blocking: bool,
    context: &'a Context,
    flight: &'f mut InFlight<S>,
    /// What the body returned, when it returned before it was told to stop.
    early: Option<Box<<Running as Future>::Output>>,
    admitted: Arc<Admitted>,
    last: bool,
}

/// How a call told to stop ended: its answer, or another attempt (its deadline passed, and it
/// may retry).
enum Wound {
    Answer(&'static str, Outcome),
    Retry,
}

/// A call told to stop: its grace period (at most [`DEPARTURE_GRACE`] when no one is there to
/// wait for the answer), then its safe stops, whatever the body returned (the body's value, if
/// it returned one, comes after the text saying what stopped it); a call holding no resource
/// with a safe stop that returns its value in the grace period finished after all.
async fn wind_down<S: Send + Sync + 'static>(stopped: Stopped<'_, '_, S>) -> Wound {
    let Stopped {
        tool,
        state,
        policy,
        calls,
        grace,
        why,
        waited,
        blocking,
        context,
        flight,
        early,
        admitted,
        last,
    } = stopped;
    let grace = match why {
        Why::Gone(_) | Why::Shutdown => grace.min(DEPARTURE_GRACE),
        _ => grace,
    };
    tracing::info!(reason = ?why, "telling the tool to stop");
    context.cancel(why.reason());
    let told = Instant::now();
    let ended = match early {
        Some(returned) => Ok(*returned),
        None => {
            let running = flight.running.as_mut().expect("running until told to stop");
            tokio::time::timeout(grace, running).await
        }
    };
    let after = told.elapsed();
    flight.running = None;
    let mut value = None;
    let ending = match ended {
        Ok(Ok(Ok(returned))) if !policy.supervised => {
            // Nothing to bring to a known state: it finished after all.
            flight.cleanup = None;
            tracing::info!(?after, "finished within its grace period");
            return Wound::Answer(
                "ok",
                Outcome::Value {
                    value: returned,
                    answer_by: told.checked_add(grace),
                },
            );
        }
        Ok(Ok(Ok(returned))) => {
            // It was told to stop: what it did is not what was asked, and the safe stop runs.
            value = Some(returned);
            Ending::Stopped { after, error: None }
        }
        Ok(Ok(Err(e))) => Ending::Stopped {
            after,
            error: Some(match e {
                CallError::Tool(e) => e.message().to_owned(),
                CallError::Invalid(v) => crate::validate::invalid_arguments_text(tool, &v),
            }),
        },
        Ok(Err(panic)) => Ending::Stopped {
            after,
            error: Some(format!("it panicked: {}", panic_message(&*panic))),
        },
        // Dropping the join handle leaves the body running; it holds its resources.
        Err(_) if blocking => Ending::StillRunning { grace },
        Err(_) => Ending::Abandoned { grace },
    };
    flight.cleanup = None;
    let stops = settle(calls, state, &policy.resources, Arc::clone(&admitted)).await;
    note_stops(&stops);
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
    if matches!(why, Why::Deadline(_)) && !last && value.is_none() {
        return Wound::Retry;
    }
    let waited = waited.map(|(time, i)| messages::Waited {
        time,
        resource: admitted._tickets.as_slice().get(i).map(|t| &**t.resource()),
    });
    let text = messages::ended_early(tool, why, waited, &ending, &stops, &reserved);
    let stopped_by = why.stopped_by();
    Wound::Answer(
        why.detail(),
        match value {
            Some(value) => Outcome::Interrupted(Box::new(Interrupted {
                text,
                value,
                answer_by: told.checked_add(grace),
                stopped_by,
            })),
            None => Outcome::Error {
                text,
                retryable: false,
                stopped_by,
            },
        },
    )
}

/// How long a call holding resources waited for its turn, on its request's span
/// (`toolwright.queue.wait_s`; out of line, so as not to grow the call's future).
#[inline(never)]
fn note_wait<S>(policy: &Policy<S>, waited: Option<(Duration, usize)>) {
    if !policy.resources.is_empty() {
        let wait = waited.map_or(0.0, |(time, _)| time.as_secs_f64());
        mcp::note(|| vec![("toolwright.queue.wait_s", NoteValue::Number(wait))]);
    }
}

/// What a stopped call's safe stops did, on its request's span (`toolwright.safe_stop.*`).
#[inline(never)]
fn note_stops(stops: &[SafeStopReport]) {
    mcp::note(|| messages::stop_notes(stops));
}

/// Before a call that moves its resources starts: the safe stop of each one that failed runs
/// again (holding the resources); `None` when every one succeeds (or none had failed), else the
/// answer refusing the call.
async fn recover<S: Send + Sync + 'static>(
    calls: &Calls,
    state: &Arc<S>,
    resources: &Arc<[Arc<Resource<S>>]>,
    admitted: &Arc<Admitted>,
    tool: &str,
) -> Option<String> {
    for resource in resources.iter() {
        let Some(fault) = resource.queue.faulted() else {
            continue;
        };
        tracing::warn!(resource = %resource.queue.name(), fault = %fault.what, "running the failed safe stop again before the call");
        let (state, one, held) = (
            Arc::clone(state),
            Arc::clone(resource),
            Arc::clone(admitted),
        );
        let again = calls
            .tracker
            .spawn(async move { safe_stops(&state, &[one], &held).await })
            .await
            .unwrap_or_default();
        match again.into_iter().next().map(|r| r.outcome) {
            Some(outcome) if outcome.succeeded() => {}
            outcome => {
                let again = outcome.map_or_else(
                    || "could not run".to_owned(),
                    |outcome| format!("{} again", outcome.failure()),
                );
                let since = crate::audit::rfc3339(fault.at);
                return Some(messages::faulted(
                    tool,
                    resource.queue.name(),
                    &since,
                    &fault.what,
                    &again,
                ));
            }
        }
    }
    None
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
/// stop, and the safe stop of each runs at once, whatever that call is doing; it is that call's
/// safe stop too (reported to it, see `queue.rs`), so the call does not run it again.
pub(crate) async fn stop_resources<S: Send + Sync + 'static>(
    calls: &Calls,
    state: &Arc<S>,
    resources: &Arc<[Arc<Resource<S>>]>,
) -> Vec<SafeStopReport> {
    let holders: Vec<Option<u64>> = resources.iter().map(|r| r.queue.stop_holder()).collect();
    let admitted = Arc::new(Admitted {
        _tickets: Tickets::None,
        _permit: None,
    });
    let (state, resources) = (Arc::clone(state), Arc::clone(resources));
    let task = calls.tracker.spawn(async move {
        let stops = safe_stops(&state, &resources, &admitted).await;
        for ((resource, holder), stop) in resources.iter().zip(holders).zip(&stops) {
            if let Some(number) = holder {
                resource.queue.report(number, stop.outcome.clone());
            }
        }
        stops
    });
    task.await.unwrap_or_default()
}

/// Waits for `asked`, or forever without one.
async fn until_asked<F: Future<Output = ()> + Unpin>(asked: &mut Option<F>) {
    match asked {
        Some(asked) => asked.await,
        None => std::future::pending().await,
    }
}

/// The safe stops of a call that ended early, then its places given back, on a task of their
/// own that holds the places until they ran (so that a caller that stops waiting cannot cut them
/// short or free the resources early). A resource a stop tool stopped for this call has that
/// tool's safe stop, reported to the call ([`stop_resources`]): it is not run again.
async fn settle<S: Send + Sync + 'static>(
    calls: &Calls,
    state: &Arc<S>,
    resources: &Arc<[Arc<Resource<S>>]>,
    admitted: Arc<Admitted>,
) -> Vec<SafeStopReport> {
    if resources.is_empty() {
        return Vec::new();
    }
    let (state, resources) = (Arc::clone(state), Arc::clone(resources));
    let task = calls.tracker.spawn(async move {
        let tickets = admitted._tickets.as_slice();
        let by_tool: Vec<Option<&'static str>> = (0..resources.len())
            .map(|i| tickets.get(i).and_then(queue::Ticket::stopped_by))
            .collect();
        if by_tool.iter().all(Option::is_none) {
            let stops = safe_stops(&state, &resources, &admitted).await;
            drop(admitted);
            return stops;
        }
        let ours: Vec<Arc<Resource<S>>> = resources
            .iter()
            .zip(&by_tool)
            .filter(|(_, by)| by.is_none())
            .map(|(r, _)| Arc::clone(r))
            .collect();
        let mut ran = safe_stops(&state, &ours, &admitted).await.into_iter();
        let mut stops = Vec::with_capacity(resources.len());
        for (i, (resource, by)) in resources.iter().zip(by_tool).enumerate() {
            match by {
                None => stops.extend(ran.next()),
                Some(by) => {
                    let outcome = tokio::time::timeout(
                        SAFE_STOP_LIMIT + Duration::from_secs(1),
                        tickets[i].stop_report(),
                    )
                    .await
                    .unwrap_or(StopOutcome::TooLong(SAFE_STOP_LIMIT));
                    stops.push(SafeStopReport {
                        resource: Arc::clone(resource.queue.name()),
                        outcome,
                        by: Some(by),
                    });
                }
            }
        }
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

/// One resource's safe stop as it ran: logged, and its resource faulted (it failed or overran)
/// or cleared (it succeeded).
fn report<S>(resource: &Resource<S>, outcome: StopOutcome) -> SafeStopReport {
    match &outcome {
        StopOutcome::Done(_) => {
            tracing::info!(resource = %resource.queue.name(), ?outcome, "safe stop");
            resource.queue.clear_fault();
        }
        StopOutcome::Failed(_) | StopOutcome::TooLong(_) => {
            resource.queue.fault(outcome.failure());
        }
        StopOutcome::Undeclared => {}
    }
    SafeStopReport {
        resource: Arc::clone(resource.queue.name()),
        outcome,
        by: None,
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
