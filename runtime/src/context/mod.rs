//! [`Context`]: what a tool body can know about its call, and how it talks to the client.
//!
//! One responsibility per file:
//! - `link.rs`: where a call came from (the client's connection, protocol version and
//!   capabilities, and its session's settings);
//! - `logging.rs`: [`LogLevel`] and log messages to the client (`notifications/message`);
//! - `client.rs`: requests to the client ([`ClientError`], sampling);
//! - `elicit.rs`: asking the user ([`Elicitation`]), with `form.rs` turning a type's schema into
//!   an elicitation form.
//!
//! This file holds the context itself: the call's identity, deadline, cancellation and progress.

mod client;
mod elicit;
mod form;
mod input;
mod link;
mod logging;

use std::fmt;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::{Peer, RoleServer};
use tokio_util::sync::CancellationToken;

pub(crate) use client::AskedBy;
pub use client::{CLIENT_ANSWER_LIMIT, ClientError};
pub use elicit::Elicitation;
pub use input::{DEFAULT_REQUEST_STATE_TTL, KeyError, RequestStateKeys};
pub(crate) use input::{Returned, Round, StateRefused};
#[cfg_attr(not(feature = "http"), allow(unused_imports))]
pub(crate) use link::{Departure, Gone, Link, Session};
pub use logging::LogLevel;

/// The call a tool body is running for. Declare a parameter of this type (any name) to get it;
/// it is never part of the tool's input schema.
///
/// # Talking to the client
///
/// - [`Context::log`] (and [`Context::debug`], [`Context::info`], [`Context::warning`],
///   [`Context::error`], [`Context::log_data`]) sends MCP log messages at the level the client
///   asked for, and to `tracing`;
/// - [`Context::progress`] sends progress notifications;
/// - [`Context::sample`] asks the client's model ([`Context::create_message`] for the whole
///   request);
/// - [`Context::elicit`] asks the user to fill in a form made from a `#[derive(ToolSchema)]`
///   type, and checks the answer against it ([`Context::elicit_with_schema`] for a form of your
///   own).
///
/// Requests to the client fail with a [`ClientError`] that says why (no client in-process, a
/// client without the capability, the call told to stop while waiting); it converts into a
/// [`ToolError`](crate::ToolError), so `?` works.
///
/// # Asking on protocol 2026-07-28: the body runs again
///
/// Clients of protocol 2025-11-25 are asked while the body waits. On protocol 2026-07-28 a
/// server cannot send requests to the client: a question ends the call's round, the client
/// gets it in an `input_required` result with a sealed `requestState`, and its retry runs the
/// body **again from its start**, the answers available (multi-round-trip requests, SEP-2322).
/// The same code serves both; what a body must keep in mind:
/// - ask before acting: what runs before a question runs again in every round, and when a round
///   ends the safe stops of the tool's resources run, as for any call that ends early;
/// - ask the same questions in the same order: answers are matched to questions by their
///   order and kind (a question whose content changed is asked again);
/// - nothing of the body is kept between rounds, so any replica that holds the same
///   [`RequestStateKeys`] can serve the next round
///   ([`ToolboxBuilder::with_request_state_keys`](crate::ToolboxBuilder::with_request_state_keys)).
///
/// A state that was altered, expired, or sealed for another tool, other arguments or another
/// authenticated client is refused with a JSON-RPC error, and nothing runs.
///
/// # Being told to stop
///
/// When the call's deadline passes or the client cancels it (or disconnects), the runtime
/// cancels this context ([`Context::is_cancelled`], [`Context::cancelled`],
/// [`Context::cancel_reason`]) and gives the body its grace period (`#[tool(grace = "1s")]`,
/// 1 s by default) to wind down: stop the motion, return an error saying where it stopped. After
/// the grace period an async body is dropped, and a sync body (which runs on tokio's blocking
/// pool) is left to finish on its own while its resources stay reserved. Either way, the safe
/// stop declared for each resource the tool holds then runs. A long body should check
/// [`Context::is_cancelled`] between steps, and can refuse work it cannot finish in time with
/// [`Context::remaining`].
///
/// ```rust,no_run
/// # use toolwright::{Context, ToolError, tool};
/// /// Move through the waypoints.
/// #[tool]
/// async fn sweep(
///     /// Number of waypoints.
///     #[param(range = 1..=100)]
///     steps: u32,
///     ctx: Context,
/// ) -> Result<String, ToolError> {
///     for i in 0..steps {
///         if ctx.is_cancelled() {
///             return Err(ToolError::new("cancelled"));
///         }
///         ctx.progress(f64::from(i + 1), Some(f64::from(steps)), None).await;
///     }
///     Ok(format!("swept, trace {}", ctx.trace_id()))
/// }
/// ```
#[derive(Clone)]
pub struct Context {
    inner: Arc<Inner>,
}

struct Inner {
    tool: Arc<str>,
    trace_id: String,
    /// The client's connection (`None` in-process).
    link: Option<Link>,
    progress_token: Option<ProgressToken>,
    /// Cancelled when the call is told to stop: the caller's, or made on first use (most
    /// bodies never look, and a token is an allocation and a lock).
    cancel: OnceLock<CancellationToken>,
    deadline: Option<Instant>,
    /// The call's questions and answers on protocol 2026-07-28 (`None`: earlier protocols,
    /// in-process calls).
    round: Option<Arc<Round>>,
    /// Why the call was told to stop: 0 not yet, else a [`CancelReason`]'s code.
    reason: AtomicU8,
    /// The task the call runs as, whose status message its progress becomes.
    task: OnceLock<Arc<crate::tasks::Record>>,
    /// What the checks at the call's turn settled for the body (a robot's checked motion).
    plan: OnceLock<Arc<dyn std::any::Any + Send + Sync>>,
}

/// Why a call was told to stop (see [`Context::cancel_reason`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CancelReason {
    /// The call's deadline (`#[tool(timeout = "..")]`) passed.
    Deadline,
    /// The client cancelled the call (`notifications/cancelled`, `tasks/cancel`).
    Client,
    /// On protocol 2026-07-28 or later, the body asked the client a question: the question
    /// goes out with the call's result, and the call runs again from its start with the answer.
    InputRequired,
    /// A stop tool (`#[tool(stop_for = "arm")]`) stopped every call on a resource this call
    /// holds.
    Stopped,
    /// The client went away: its connection closed (stdin, or the HTTP request's connection),
    /// its event stream was not resumed in time (protocol 2025-11-25 over HTTP), or nobody polled
    /// its task within the task's lease. The grace period is at most 2 s.
    ClientGone,
    /// The server is shutting down (`SIGTERM`, `SIGINT`, or `HttpServer::shutdown`). The grace
    /// period is at most 2 s.
    Shutdown,
}

impl CancelReason {
    fn code(self) -> u8 {
        match self {
            CancelReason::Deadline => 1,
            CancelReason::Client => 2,
            CancelReason::InputRequired => 3,
            CancelReason::Stopped => 4,
            CancelReason::ClientGone => 5,
            CancelReason::Shutdown => 6,
        }
    }

    fn from_code(code: u8) -> Option<Self> {
        match code {
            1 => Some(CancelReason::Deadline),
            2 => Some(CancelReason::Client),
            3 => Some(CancelReason::InputRequired),
            4 => Some(CancelReason::Stopped),
            5 => Some(CancelReason::ClientGone),
            6 => Some(CancelReason::Shutdown),
            _ => None,
        }
    }
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("tool", &self.inner.tool)
            .field("trace_id", &self.inner.trace_id)
            .field("progress_token", &self.inner.progress_token)
            .field("deadline", &self.inner.deadline)
            .field("cancel_reason", &self.cancel_reason())
            .finish_non_exhaustive()
    }
}

static NEXT_TRACE: AtomicU64 = AtomicU64::new(1);

/// A new trace id: unique in this process, ordered, and distinguishable across restarts.
pub(crate) fn new_trace_id() -> String {
    static PREFIX: OnceLock<String> = OnceLock::new();
    let prefix = PREFIX.get_or_init(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        format!(
            "{:08x}",
            (nanos as u64 ^ u64::from(std::process::id())) & 0xffff_ffff
        )
    });
    // `{prefix}-{n:06x}`, written without the formatting machinery (one per call).
    let n = NEXT_TRACE.fetch_add(1, Ordering::Relaxed);
    let digits = ((64 - n.leading_zeros()).div_ceil(4)).max(6);
    let mut id = String::with_capacity(prefix.len() + 1 + digits as usize);
    id.push_str(prefix);
    id.push('-');
    for i in (0..digits).rev() {
        id.push(char::from(
            b"0123456789abcdef"[((n >> (4 * i)) & 0xf) as usize],
        ));
    }
    id
}

impl Context {
    pub(crate) fn new(
        tool: Arc<str>,
        trace_id: String,
        link: Option<Link>,
        progress_token: Option<ProgressToken>,
        cancel: Option<CancellationToken>,
        deadline: Option<Instant>,
        round: Option<Arc<Round>>,
    ) -> Self {
        let cancel = cancel.map_or_else(OnceLock::new, OnceLock::from);
        Context {
            inner: Arc::new(Inner {
                tool,
                trace_id,
                link,
                progress_token,
                cancel,
                deadline,
                round,
                reason: AtomicU8::new(0),
                task: OnceLock::new(),
                plan: OnceLock::new(),
            }),
        }
    }

    /// Hands the body what the checks at its turn settled (once).
    pub(crate) fn set_plan(&self, plan: Arc<dyn std::any::Any + Send + Sync>) {
        let _ = self.inner.plan.set(plan);
    }

    /// The motion toolwright checked for this call, when the tool moves a robot resource
    /// (`resource(.., robot(..))`, with a `target` or `positions`): from where the joints were
    /// at the call's turn to the target, with its timing. The body runs exactly this motion;
    /// `None` for other tools.
    #[cfg(feature = "robot")]
    #[cfg_attr(docsrs, doc(cfg(feature = "robot")))]
    pub fn motion(&self) -> Option<&crate::robot::Motion> {
        self.inner.plan.get()?.downcast_ref()
    }

    /// A context for a call made in-process (no client): no progress, no deadline, never
    /// cancelled. Its log messages go to `tracing` only, and asking the client
    /// ([`Context::sample`], [`Context::elicit`]) fails with [`ClientError::NoClient`].
    pub fn detached(tool: &str) -> Self {
        Self::new(
            Arc::from(tool),
            new_trace_id(),
            None,
            None,
            None,
            None,
            None,
        )
    }

    /// The client's connection (`None` in-process).
    pub(crate) fn link(&self) -> Option<&Link> {
        self.inner.link.as_ref()
    }

    /// Runs the call as `task`: its progress becomes the task's status message.
    pub(crate) fn in_task(&self, task: Arc<crate::tasks::Record>) {
        let _ = self.inner.task.set(task);
    }

    /// Tells the body to stop (the first reason wins).
    pub(crate) fn cancel(&self, reason: CancelReason) {
        let _ = self.inner.reason.compare_exchange(
            0,
            reason.code(),
            Ordering::AcqRel,
            Ordering::Acquire,
        );
        // With `token`'s fence: this sees the token, or `token` sees the reason.
        std::sync::atomic::fence(Ordering::SeqCst);
        if let Some(token) = self.inner.cancel.get() {
            token.cancel();
        }
    }

    /// The call's token, made now if no one asked for it yet (cancelled at once when the call
    /// was already told to stop).
    fn token(&self) -> &CancellationToken {
        if let Some(token) = self.inner.cancel.get() {
            return token;
        }
        let token = self.inner.cancel.get_or_init(CancellationToken::new);
        std::sync::atomic::fence(Ordering::SeqCst);
        if self.inner.reason.load(Ordering::Acquire) != 0 {
            token.cancel();
        }
        token
    }

    /// The name of the tool being called.
    pub fn tool_name(&self) -> &str {
        &self.inner.tool
    }

    /// This call's trace id, also logged in its `tracing` span and returned in the result's
    /// `_meta`, so client and server logs can be joined.
    pub fn trace_id(&self) -> &str {
        &self.inner.trace_id
    }

    /// The client connection, for what rmcp offers beyond this context (`None` in-process).
    /// Prefer [`Context::log`], [`Context::sample`] and [`Context::elicit`], which check the
    /// client's capabilities, its protocol version and the call's cancellation.
    pub fn peer(&self) -> Option<&Peer<RoleServer>> {
        self.inner.link.as_ref().map(|link| &link.peer)
    }

    /// Whether the client asked for progress notifications (sent a progress token).
    pub fn wants_progress(&self) -> bool {
        self.inner.progress_token.is_some()
    }

    /// Reports progress as an MCP `notifications/progress`, when the client sent a progress
    /// token; otherwise does nothing. `progress` should increase with every call.
    pub async fn progress(&self, progress: f64, total: Option<f64>, message: Option<String>) {
        if let Some(task) = self.inner.task.get() {
            let of = total.map(|t| format!(" of {t}")).unwrap_or_default();
            task.progress(match &message {
                Some(m) => format!("{m} ({progress}{of})"),
                None => format!("{progress}{of}"),
            });
        }
        let (Some(link), Some(token)) = (&self.inner.link, &self.inner.progress_token) else {
            return;
        };
        let peer = &link.peer;
        let mut param = ProgressNotificationParam::new(token.clone(), progress);
        param.total = total;
        param.message = message;
        if let Err(e) = peer.notify_progress(param).await {
            tracing::debug!(error = %e, "progress notification not delivered");
        }
    }

    /// Whether the call was told to stop: its deadline passed, or the client cancelled it
    /// (`notifications/cancelled`) or disconnected. Check it between the steps of long work.
    pub fn is_cancelled(&self) -> bool {
        self.inner.reason.load(Ordering::Acquire) != 0
            || self
                .inner
                .cancel
                .get()
                .is_some_and(CancellationToken::is_cancelled)
    }

    /// Completes when the call is told to stop (see [`Context::is_cancelled`]).
    pub async fn cancelled(&self) {
        self.token().cancelled().await;
    }

    /// Why the call was told to stop; `None` while it may go on.
    pub fn cancel_reason(&self) -> Option<CancelReason> {
        CancelReason::from_code(self.inner.reason.load(Ordering::Acquire))
    }

    /// The cancellation token of this call, cancelled when the call is told to stop.
    pub fn cancellation_token(&self) -> &CancellationToken {
        self.token()
    }

    /// When the call's deadline passes (`None` without a `timeout`). The deadline covers the
    /// wait for the tool's resources, so a body starts with less than the whole `timeout`.
    pub fn deadline(&self) -> Option<Instant> {
        self.inner.deadline
    }

    /// The time left before the deadline (zero once it passed; `None` without a `timeout`).
    /// Refuse work that cannot finish in it, rather than be stopped half-way:
    ///
    /// ```rust
    /// # use std::time::Duration;
    /// # use toolwright::{Context, ToolError};
    /// fn check_time(ctx: &Context, needed: Duration) -> Result<(), ToolError> {
    ///     match ctx.remaining() {
    ///         Some(left) if left < needed => Err(ToolError::new(format!(
    ///             "this needs {:.1} s and the deadline leaves {:.1} s",
    ///             needed.as_secs_f64(),
    ///             left.as_secs_f64()
    ///         ))),
    ///         _ => Ok(()),
    ///     }
    /// }
    /// ```
    pub fn remaining(&self) -> Option<Duration> {
        self.inner
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_ids_are_prefix_dash_hex_and_ordered() {
        let a = new_trace_id();
        let b = new_trace_id();
        let (pa, na) = a.split_once('-').expect("a dash");
        let (pb, nb) = b.split_once('-').expect("a dash");
        assert_eq!(pa, pb, "one prefix per process");
        assert_eq!(pa.len(), 8);
        assert!(na.len() >= 6 && nb.len() >= 6);
        let (na, nb) = (
            u64::from_str_radix(na, 16).unwrap(),
            u64::from_str_radix(nb, 16).unwrap(),
        );
        assert!(nb > na, "{a} then {b}");
        assert_eq!(format!("{pb}-{nb:06x}"), b);
        NEXT_TRACE.store(0x0012_3456_789a, Ordering::Relaxed);
        assert_eq!(new_trace_id(), format!("{pa}-123456789a"));
    }

    /// The body's token is made when first asked for: it is cancelled whether the call was
    /// told to stop before or after, from another thread too; a caller's token is its own.
    #[test]
    fn a_token_made_late_or_early_is_cancelled_and_a_callers_token_counts() {
        let early = Context::detached("t");
        let token = early.cancellation_token().clone();
        assert!(!early.is_cancelled() && !token.is_cancelled());
        early.cancel(CancelReason::Deadline);
        assert!(early.is_cancelled() && token.is_cancelled());

        let late = Context::detached("t");
        late.cancel(CancelReason::Client);
        assert!(late.is_cancelled());
        assert!(late.cancellation_token().is_cancelled());
        assert_eq!(late.cancel_reason(), Some(CancelReason::Client));
        futures::executor::block_on(late.cancelled());

        // Racing threads: every round ends with the token cancelled.
        for _ in 0..200 {
            let racing = Context::detached("t");
            let other = racing.clone();
            let cancel = std::thread::spawn(move || other.cancel(CancelReason::Stopped));
            let token = racing.cancellation_token().clone();
            cancel.join().unwrap();
            assert!(token.is_cancelled());
        }

        let callers = CancellationToken::new();
        let context = Context::new(
            Arc::from("t"),
            new_trace_id(),
            None,
            None,
            Some(callers.clone()),
            None,
            None,
        );
        callers.cancel();
        assert!(context.is_cancelled());
        assert_eq!(context.cancel_reason(), None);
    }
}
