//! Streamable-HTTP sessions, bounded: at most `max_sessions` at once, a session that has not
//! completed its handshake (`notifications/initialized`) within `init_timeout` is closed, and
//! each session's transport stamps its `tools/call`s with their places in the resources' queues
//! (arrival order, `exec/arrival.rs`).
//!
//! Each session belongs to the [`Principal`] whose `initialize` created it (none without
//! authentication): [`SessionTable::admit`] answers any other principal as if the session did
//! not exist, before anything keyed by the session is looked at (its handshake state, its
//! streams, its resumption, its closing). With replicas the owner is stored with the session
//! (`redis.rs`), and checked by each replica before it restores the session.

use std::cell::Cell;
use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use futures::{Stream, StreamExt as _, stream};
use rmcp::model::{
    CancelledNotification, CancelledNotificationParam, ClientJsonRpcMessage, ClientNotification,
    ClientRequest, JsonRpcMessage, RequestId, ServerJsonRpcMessage,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};

use tokio::task::futures::TaskLocalFuture;

use super::event_ids::{Named, Replica, marked};
use super::principal::Principal;
use crate::context::Departure;
use crate::echo::echo;
use crate::exec::arrival::{Arrivals, Ordered};

tokio::task_local! {
    /// Set while rmcp serves a request ([`serving`]).
    static SERVING: Serving;
}

/// What the session manager learns of the request rmcp is serving, and tells back. One scope
/// for both: each scope's future moves its value into the thread-local slot and out again at
/// every poll.
pub(crate) struct Serving {
    /// Who sent it: the owner of a session it creates or restores.
    principal: Option<Principal>,
    /// For a `GET` with `Last-Event-ID`: whether the stream it names could not be resumed here.
    unresumable: Cell<bool>,
}

/// The longest session id a request may name: this server's are UUIDs (36 bytes); a longer one
/// is no session, and is not looked up (nor sent to Redis).
const MAX_SESSION_ID_BYTES: usize = 128;

/// Serves a request as `principal`: a session it creates (or restores, once
/// [`SessionTable::admit`] let it) is bound to it. For a `GET` that carries `Last-Event-ID`,
/// the scope also learns whether the stream it names could not be resumed on this server
/// ([`unresumable`]): its stream is gone, and no request it answered is known to fail (with
/// replicas, a request's stream that ran elsewhere gets an error for its request instead,
/// `event_ids.rs`). rmcp answers such a resume with an empty `200` stream, and the official
/// SDKs (Python 2.x, TypeScript) read an empty stream as "reconnect again" with their attempt
/// counter reset, forever; the caller answers `400` instead (as the TypeScript SDK's own server
/// does for an event id it does not know), which the clients retry a bounded number of times.
///
/// Not an `async fn`: one would hold `serve` twice (its argument and the scope it moves into),
/// and the request's future, rmcp's answer inside, is kilobytes (BENCHMARKS.md, issue 26).
pub(crate) fn serving<F: Future>(
    principal: Option<Principal>,
    serve: F,
) -> TaskLocalFuture<Serving, F> {
    SERVING.scope(
        Serving {
            principal,
            unresumable: Cell::new(false),
        },
        serve,
    )
}

/// The principal of the request being served ([`serving`]); none outside one.
pub(crate) fn acting() -> Option<Principal> {
    SERVING.try_with(|s| s.principal.clone()).ok().flatten()
}

/// Whether a request may name a session, and how it finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Admission {
    /// This replica holds the session (its id as the table keeps it), and it is the caller's;
    /// whether it had completed its handshake when asked.
    Here { id: SessionId, initialized: bool },
    /// The shared store holds the session, and it is the caller's: rmcp restores it here.
    #[cfg(feature = "redis")]
    Stored,
    /// No replica has it (rmcp answers `404`, as it does a session that ended).
    Unknown,
    /// The session is not the caller's (or its id is too long to be one): answer exactly as
    /// rmcp answers a session it does not have.
    NotFound,
    /// The shared store cannot say whose it is.
    #[cfg(feature = "redis")]
    StoreDown,
}

/// Whether the stream a [`serving`] scope served could not be resumed here (once its future is
/// done).
pub(crate) fn unresumable<F: Future>(scope: Pin<&mut TaskLocalFuture<Serving, F>>) -> bool {
    scope
        .take_value()
        .is_some_and(|serving| serving.unresumable.get())
}

/// What is known of each open session. With replicas, whether a session completed its
/// handshake is shared through Redis too: the `notifications/initialized` may reach another
/// replica than the `initialize`.
#[derive(Debug)]
pub(crate) struct SessionTable {
    max: usize,
    init_timeout: Duration,
    /// Looked up on every request naming a session: foldhash, not SipHash (ids are this
    /// server's, or ones the shared store knows, before they are inserted).
    sessions: Mutex<Table>,
    /// Sessions being created now (counted against `max` until they are in `sessions`).
    reserved: std::sync::atomic::AtomicUsize,
    #[cfg(feature = "redis")]
    shared: std::sync::OnceLock<Arc<super::redis::Redis>>,
    /// With a shared store: what this replica writes in its event ids (`event_ids.rs`).
    replica: std::sync::OnceLock<Replica>,
    /// Per session this replica does not hold yet: the turn of the requests naming it.
    #[cfg(feature = "redis")]
    arriving: Mutex<HashMap<String, std::sync::Weak<tokio::sync::Mutex<()>>>>,
}

type Table = HashMap<SessionId, Tracked, foldhash::fast::RandomState>;

#[derive(Debug, Clone)]
struct Tracked {
    created: Instant,
    initialized: bool,
    /// Who created it (none without authentication).
    owner: Option<Principal>,
}

impl SessionTable {
    pub(super) fn new(max: usize, init_timeout: Duration) -> Arc<Self> {
        Arc::new(Self {
            max,
            init_timeout,
            sessions: Mutex::default(),
            reserved: std::sync::atomic::AtomicUsize::new(0),
            #[cfg(feature = "redis")]
            shared: std::sync::OnceLock::new(),
            replica: std::sync::OnceLock::new(),
            #[cfg(feature = "redis")]
            arriving: Mutex::default(),
        })
    }

    /// With a shared store, the requests naming a session this replica does not hold yet (the
    /// caller has asked [`admit`](Self::admit)) take turns: the first restores it from the
    /// store, the others then find it here. (rmcp
    /// serializes restores that overlap, but a request that found the session missing just
    /// before another finished restoring it starts a second restore, which fails with a 500.)
    /// The turn is held until rmcp has answered the request's headers.
    #[cfg(feature = "redis")]
    pub(super) async fn turn(&self, id: &str) -> Option<tokio::sync::OwnedMutexGuard<()>> {
        self.shared.get()?;
        let turn = {
            let mut arriving = self
                .arriving
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            arriving.retain(|_, t| t.strong_count() > 0);
            match arriving.get(id).and_then(std::sync::Weak::upgrade) {
                Some(turn) => turn,
                None => {
                    let turn = Arc::new(tokio::sync::Mutex::new(()));
                    arriving.insert(id.to_owned(), Arc::downgrade(&turn));
                    turn
                }
            }
        };
        Some(turn.lock_owned().await)
    }

    /// Without a shared store, no session is restored: no turns.
    #[cfg(not(feature = "redis"))]
    pub(super) async fn turn(&self, _id: &str) -> Option<()> {
        None
    }

    /// Takes a place for a new session, unless `max` are open or being opened.
    fn reserve(&self) -> bool {
        use std::sync::atomic::Ordering;
        let sessions = self.lock();
        if sessions.len() + self.reserved.load(Ordering::SeqCst) >= self.max {
            return false;
        }
        self.reserved.fetch_add(1, Ordering::SeqCst);
        true
    }

    /// Fills a place taken by [`SessionTable::reserve`] (or gives it back with `None`), the
    /// session owned by the principal of the request being served.
    fn fill(&self, id: Option<SessionId>) {
        let mut sessions = self.lock();
        if let Some(id) = id {
            sessions.insert(
                id,
                Tracked {
                    created: Instant::now(),
                    initialized: false,
                    owner: acting(),
                },
            );
        }
        self.reserved
            .fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }

    /// Whether `principal` may name the session `id` (see [`Admission`]): only the principal
    /// that created it may, and without authentication (no principal) only unauthenticated
    /// requests. Sessions this replica does not hold are asked of the shared store.
    pub(super) async fn admit(&self, id: &str, principal: Option<&Principal>) -> Admission {
        if id.len() > MAX_SESSION_ID_BYTES {
            return Admission::NotFound;
        }
        {
            let sessions = self.lock();
            match sessions.get_key_value(id) {
                Some((id, t)) if t.owner.as_ref() == principal => {
                    return Admission::Here {
                        id: Arc::clone(id),
                        initialized: t.initialized,
                    };
                }
                Some(_) => return Admission::NotFound,
                None => {}
            }
        }
        #[cfg(feature = "redis")]
        if let Some(redis) = self.shared.get() {
            return match redis.session_owner(id).await {
                Ok(None) => Admission::Unknown,
                Ok(Some(owner)) if owner.as_ref() == principal => Admission::Stored,
                Ok(Some(_)) => Admission::NotFound,
                Err(e) => {
                    tracing::error!(error = %e, "session owner not checked: Redis failed");
                    Admission::StoreDown
                }
            };
        }
        Admission::Unknown
    }

    /// Shares the sessions' handshake state with the other replicas.
    #[cfg(feature = "redis")]
    pub(super) fn share(&self, redis: Arc<super::redis::Redis>) {
        let _ = self.shared.set(redis);
        let _ = self.replica.set(Replica::new());
    }

    /// Records that the session completed its handshake (here, and for the other replicas).
    async fn mark_initialized(&self, id: &SessionId) {
        if let Some(t) = self.lock().get_mut(id) {
            t.initialized = true;
        }
        #[cfg(feature = "redis")]
        if let Some(redis) = self.shared.get() {
            redis.mark_initialized(id).await;
        }
    }

    /// Whether the session completed its handshake: `Some(false)` only when no replica saw it
    /// (`None`: no such session here).
    pub(super) async fn initialized(&self, id: &str) -> Option<bool> {
        let here = self.initialized_here(id)?;
        #[cfg(feature = "redis")]
        if !here
            && let Some(redis) = self.shared.get()
            && redis.is_initialized(id).await
        {
            if let Some(t) = self.lock().get_mut(id) {
                t.initialized = true;
            }
            return Some(true);
        }
        Some(here)
    }

    fn lock(&self) -> MutexGuard<'_, Table> {
        self.sessions.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Sessions open now.
    pub(super) fn len(&self) -> usize {
        self.lock().len()
    }

    /// The most that may be open.
    pub(super) fn max(&self) -> usize {
        self.max
    }

    /// Whether this replica saw the session complete its handshake (`None`: no such session
    /// here).
    pub(super) fn initialized_here(&self, id: &str) -> Option<bool> {
        self.lock().get(id).map(|t| t.initialized)
    }
}

/// A session could not be created.
#[derive(Debug)]
pub(crate) enum SessionError<E> {
    /// `max_sessions` are open.
    Full(usize),
    /// The wrapped manager failed.
    Inner(E),
}

impl<E: fmt::Display> fmt::Display for SessionError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Full(n) => write!(f, "the server has {n} sessions open, its limit"),
            SessionError::Inner(e) => e.fmt(f),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for SessionError<E> {}

/// The session manager a toolbox serves HTTP with: `M`'s sessions, bounded and ordered, their
/// supervised calls watched, their questions to the user timed.
pub(crate) struct Sessions<M> {
    inner: Arc<M>,
    table: Arc<SessionTable>,
    arrivals: Arc<dyn Arrivals>,
    watches: Arc<Watches>,
    asking: Arc<Asking>,
}

/// The calls that ask their user for confirmation, and how long the user has to answer: a
/// question (a server request on the call's event stream) still unanswered when the time is
/// up cancels the call (nothing ran), so that its stream ends (issue 43: pending confirmations
/// held their event streams open, each a connection, with no deadline).
pub(crate) struct Asking {
    tools: std::collections::HashSet<String>,
    timeout: Duration,
    /// The questions asked and not answered yet, by session and the question's id.
    open: Mutex<std::collections::HashSet<(SessionId, RequestId)>>,
}

impl Asking {
    fn lock(&self) -> MutexGuard<'_, std::collections::HashSet<(SessionId, RequestId)>> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The requests of calls that hold a resource with a safe stop, by the stream rmcp answers each
/// on: what a resume names, and how long a dropped stream may wait for one.
pub(crate) struct Watches {
    window: Duration,
    /// By session and rmcp's id of the request's stream (its event ids' `index/stream`).
    streams: Mutex<HashMap<(SessionId, u64), Weak<Watch>>>,
}

/// One supervised call's request: its event streams (the `POST`'s, then any resuming it).
struct Watch {
    departure: Arc<Departure>,
    session: SessionId,
    request: RequestId,
    /// Streams of it open now.
    open: AtomicUsize,
    /// Streams of it opened so far (a resume since a drop shows here).
    opened: AtomicU64,
    /// Its answer went out on a stream.
    answered: AtomicBool,
}

impl Watches {
    pub(super) fn new(window: Duration) -> Arc<Self> {
        Arc::new(Watches {
            window,
            streams: Mutex::default(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<(SessionId, u64), Weak<Watch>>> {
        self.streams.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The watch of the request whose stream an event id of rmcp's (`index/stream`) names.
    fn find(&self, session: &SessionId, event: &str) -> Option<Arc<Watch>> {
        let stream = event.split_once('/')?.1.parse::<u64>().ok()?;
        self.lock()
            .get(&(session.clone(), stream))
            .and_then(Weak::upgrade)
    }
}

/// A supervised request's event stream: learns which of rmcp's streams it is from its first
/// event id (so a resume can find it), and when dropped before its end, waits the window for a
/// resume, then cancels the request as its client having gone.
struct Watched<S, M: SessionManager> {
    inner: S,
    watch: Arc<Watch>,
    watches: Arc<Watches>,
    manager: Arc<M>,
    /// Whether it learned its stream id yet.
    known: bool,
    ended: bool,
}

impl<S, M: SessionManager> Watched<S, M> {
    fn new(inner: S, watch: Arc<Watch>, watches: Arc<Watches>, manager: Arc<M>) -> Self {
        watch.open.fetch_add(1, Ordering::SeqCst);
        watch.opened.fetch_add(1, Ordering::SeqCst);
        Watched {
            inner,
            watch,
            watches,
            manager,
            known: false,
            ended: false,
        }
    }
}

impl<S: Stream<Item = ServerSseMessage> + Unpin, M: SessionManager> Stream for Watched<S, M> {
    type Item = ServerSseMessage;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        let next = this.inner.poll_next_unpin(cx);
        match &next {
            Poll::Ready(Some(event)) => {
                if !this.known
                    && let Some(stream) = event
                        .event_id
                        .as_deref()
                        .and_then(|id| id.split_once('/'))
                        .and_then(|(_, stream)| stream.parse::<u64>().ok())
                {
                    this.known = true;
                    let mut streams = this.watches.lock();
                    streams.retain(|_, w| w.strong_count() > 0);
                    streams.insert(
                        (this.watch.session.clone(), stream),
                        Arc::downgrade(&this.watch),
                    );
                }
                if event.message.as_deref().is_some_and(|m| {
                    matches!(m, JsonRpcMessage::Response(r) if r.id == this.watch.request)
                        || matches!(m, JsonRpcMessage::Error(e) if e.id.as_ref() == Some(&this.watch.request))
                }) {
                    this.watch.answered.store(true, Ordering::SeqCst);
                }
            }
            Poll::Ready(None) => this.ended = true,
            Poll::Pending => {}
        }
        next
    }
}

impl<S, M: SessionManager> Drop for Watched<S, M> {
    fn drop(&mut self) {
        let left = self.watch.open.fetch_sub(1, Ordering::SeqCst) - 1;
        if self.ended || left > 0 || self.watch.answered.load(Ordering::SeqCst) {
            return;
        }
        // The stream dropped with the call still running: its client has the window to resume
        // it, else it is gone.
        let opened = self.watch.opened.load(Ordering::SeqCst);
        let (watch, manager, window) = (
            Arc::clone(&self.watch),
            Arc::clone(&self.manager),
            self.watches.window,
        );
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(async move {
            tokio::time::sleep(window).await;
            if watch.open.load(Ordering::SeqCst) > 0
                || watch.opened.load(Ordering::SeqCst) != opened
                || watch.answered.load(Ordering::SeqCst)
            {
                return;
            }
            let shown = watch.request.to_string();
            tracing::warn!(
                session = %watch.session,
                request = %echo(&shown),
                ?window,
                "a call's event stream was not resumed within the window: its client is gone; stopping the call"
            );
            watch.departure.depart();
            let cancel = ClientJsonRpcMessage::notification(
                ClientNotification::CancelledNotification(CancelledNotification::new(
                    CancelledNotificationParam::new(
                        Some(watch.request.clone()),
                        Some("the client went away: its event stream was not resumed".into()),
                    ),
                )),
            );
            if let Err(e) = manager.accept_message(&watch.session, cancel).await {
                tracing::warn!(error = %e, "the call of a client gone could not be cancelled (its session ended)");
            }
        });
    }
}

impl<M: SessionManager> Sessions<M> {
    /// Wraps `inner`, and sweeps sessions that never completed their handshake (until
    /// `stop` is cancelled); a supervised call whose stream drops waits `window` for a resume.
    pub(super) fn new(
        inner: M,
        table: Arc<SessionTable>,
        arrivals: Arc<dyn Arrivals>,
        window: Duration,
        stop: tokio_util::sync::CancellationToken,
    ) -> Self {
        let inner = Arc::new(inner);
        let sweeper = (Arc::clone(&inner), Arc::clone(&table));
        tokio::spawn(async move {
            let (inner, table) = sweeper;
            let period =
                (table.init_timeout / 4).clamp(Duration::from_millis(50), Duration::from_secs(1));
            loop {
                tokio::select! {
                    () = stop.cancelled() => return,
                    () = tokio::time::sleep(period) => {}
                }
                sweep(&*inner, &table).await;
            }
        });
        Self {
            inner,
            table,
            arrivals,
            watches: Watches::new(window),
            asking: Arc::new(Asking {
                tools: Default::default(),
                timeout: super::DEFAULT_CONFIRMATION_TIMEOUT,
                open: Mutex::default(),
            }),
        }
    }

    /// The calls of `tools` that ask their user a question on their event stream wait at most
    /// `timeout` for the answer ([`Asking`]).
    pub(super) fn with_confirmation_timeout(
        mut self,
        tools: Vec<String>,
        timeout: Duration,
    ) -> Self {
        self.asking = Arc::new(Asking {
            tools: tools.into_iter().collect(),
            timeout,
            open: Mutex::default(),
        });
        self
    }

    /// `stream`, its questions to the user timed when it answers a call of a tool that asks
    /// (`call`: that call's request id).
    fn timed<S>(
        &self,
        session: &SessionId,
        call: Option<RequestId>,
        stream: S,
    ) -> impl Stream<Item = ServerSseMessage> + Send + Sync + 'static + use<S, M>
    where
        S: Stream<Item = ServerSseMessage> + Send + Sync + 'static,
    {
        let Some(call) = call else {
            return stream.left_stream();
        };
        let (asking, manager, session) = (
            Arc::clone(&self.asking),
            Arc::clone(&self.inner),
            session.clone(),
        );
        stream
            .inspect(move |event| {
                let Some(JsonRpcMessage::Request(question)) = event.message.as_deref() else {
                    return;
                };
                let elicitation = matches!(
                    question.request,
                    rmcp::model::ServerRequest::ElicitRequest(_)
                );
                let key = (session.clone(), question.id.clone());
                asking.lock().insert(key.clone());
                let (asking, manager, call) =
                    (Arc::clone(&asking), Arc::clone(&manager), call.clone());
                let Ok(runtime) = tokio::runtime::Handle::try_current() else {
                    return;
                };
                runtime.spawn(async move {
                    tokio::time::sleep(asking.timeout).await;
                    if !asking.lock().remove(&key) {
                        return;
                    }
                    let (session, question) = key;
                    let shown = call.to_string();
                    tracing::warn!(
                        %session,
                        request = %echo(&shown),
                        timeout = ?asking.timeout,
                        "a call's question to its user was not answered in time: answered as dismissed, nothing runs"
                    );
                    // A confirmation (an elicitation) is answered as dismissed: the call answers
                    // that nothing ran, as for a user who closed the question. Any other
                    // question cancels the call.
                    let ending = if elicitation {
                        ClientJsonRpcMessage::response(
                            rmcp::model::ClientResult::ElicitResult(rmcp::model::ElicitResult::new(
                                rmcp::model::ElicitationAction::Cancel,
                            )),
                            question,
                        )
                    } else {
                        ClientJsonRpcMessage::notification(
                            ClientNotification::CancelledNotification(CancelledNotification::new(
                                CancelledNotificationParam::new(
                                    Some(call),
                                    Some(format!(
                                        "its user did not answer within {} s",
                                        asking.timeout.as_secs()
                                    )),
                                ),
                            )),
                        )
                    };
                    if let Err(e) = manager.accept_message(&session, ending).await {
                        tracing::debug!(error = %e, "the unanswered call could not be ended (its session ended)");
                    }
                });
            })
            .right_stream()
    }

    /// The request id of a `tools/call` of a tool that asks for confirmation.
    fn asks(&self, message: &ClientJsonRpcMessage) -> Option<RequestId> {
        let JsonRpcMessage::Request(request) = message else {
            return None;
        };
        let ClientRequest::CallToolRequest(call) = &request.request else {
            return None;
        };
        self.asking
            .tools
            .contains(call.params.name.as_ref())
            .then(|| request.id.clone())
    }

    /// The watch of a `tools/call` of a tool holding a resource with a safe stop, its
    /// [`Departure`] put in the request's extensions for the call to read (`None` for any other
    /// request).
    fn watch(&self, session: &SessionId, message: &mut ClientJsonRpcMessage) -> Option<Arc<Watch>> {
        let JsonRpcMessage::Request(request) = message else {
            return None;
        };
        let ClientRequest::CallToolRequest(call) = &mut request.request else {
            return None;
        };
        if !self.arrivals.supervises(&call.params.name) {
            return None;
        }
        let departure = Arc::new(Departure::new(self.watches.window));
        call.extensions.insert(Arc::clone(&departure));
        Some(Arc::new(Watch {
            departure,
            session: session.clone(),
            request: request.id.clone(),
            open: AtomicUsize::new(0),
            opened: AtomicU64::new(0),
            answered: AtomicBool::new(false),
        }))
    }

    /// `stream`, watched when it answers (or resumes) a supervised call.
    fn watched<S>(
        &self,
        watch: Option<Arc<Watch>>,
        stream: S,
    ) -> impl Stream<Item = ServerSseMessage> + Send + Sync + 'static + use<S, M>
    where
        S: Stream<Item = ServerSseMessage> + Send + Sync + 'static,
    {
        match watch {
            Some(watch) => Watched::new(
                Box::pin(stream),
                watch,
                Arc::clone(&self.watches),
                Arc::clone(&self.inner),
            )
            .left_stream(),
            None => stream.right_stream(),
        }
    }
}

/// Closes the sessions past their handshake deadline, and forgets the ones the wrapped manager
/// closed on its own (idle for its keep-alive).
async fn sweep<M: SessionManager>(inner: &M, table: &SessionTable) {
    let now = Instant::now();
    let tracked: Vec<(SessionId, Instant, bool)> = table
        .lock()
        .iter()
        .map(|(k, v)| (k.clone(), v.created, v.initialized))
        .collect();
    for (id, created, initialized) in tracked {
        let late = !initialized
            && now.duration_since(created) > table.init_timeout
            && table.initialized(&id).await == Some(false);
        if late {
            tracing::info!(session = %id, "closing a session that never completed its handshake");
            let _ = inner.close_session(&id).await;
            table.lock().remove(&id);
        } else if !inner.has_session(&id).await.unwrap_or(true) {
            table.lock().remove(&id);
        }
    }
}

fn is_initialized_notification(message: &ClientJsonRpcMessage) -> bool {
    matches!(
        message,
        JsonRpcMessage::Notification(n)
            if matches!(n.notification, ClientNotification::InitializedNotification(_))
    )
}

impl<M: SessionManager> SessionManager for Sessions<M> {
    type Error = SessionError<M::Error>;
    type Transport = Ordered<M::Transport>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        if !self.table.reserve() {
            return Err(SessionError::Full(self.table.max));
        }
        match self.inner.create_session().await {
            Ok((id, transport)) => {
                self.table.fill(Some(id.clone()));
                Ok((id, Ordered::new(transport, Arc::clone(&self.arrivals))))
            }
            Err(e) => {
                self.table.fill(None);
                Err(SessionError::Inner(e))
            }
        }
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.inner
            .initialize_session(id, message)
            .await
            .map_err(SessionError::Inner)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner
            .has_session(id)
            .await
            .map_err(SessionError::Inner)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.table.lock().remove(id);
        self.inner
            .close_session(id)
            .await
            .map_err(SessionError::Inner)
    }

    fn create_stream(
        &self,
        id: &SessionId,
        mut message: ClientJsonRpcMessage,
    ) -> impl Future<
        Output = Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error>,
    > + Send {
        let marker = self.table.replica.get().map(|replica| {
            let request = match &message {
                JsonRpcMessage::Request(request) => Some(&request.id),
                _ => None,
            };
            replica.marker(request)
        });
        let watch = self.watch(id, &mut message);
        let asks = self.asks(&message);
        // The session's transport stamps the request as it reads it.
        let stream = self.inner.create_stream(id, message);
        async move {
            let stream = stream.await.map_err(SessionError::Inner)?;
            let stream = self.timed(id, asks, stream);
            Ok(marked(marker, self.watched(watch, stream)))
        }
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        if is_initialized_notification(&message) {
            self.table.mark_initialized(id).await;
        }
        // The answer to a question a call asked: it is no longer waiting.
        let answered = match &message {
            JsonRpcMessage::Response(r) => Some(&r.id),
            JsonRpcMessage::Error(e) => e.id.as_ref(),
            _ => None,
        };
        if let Some(answered) = answered {
            self.asking.lock().remove(&(id.clone(), answered.clone()));
        }
        self.inner
            .accept_message(id, message)
            .await
            .map_err(SessionError::Inner)
    }

    fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> impl Future<
        Output = Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error>,
    > + Send {
        let marker = self.table.replica.get().map(|replica| replica.marker(None));
        let stream = self.inner.create_standalone_stream(id);
        async move { Ok(marked(marker, stream.await.map_err(SessionError::Inner)?)) }
    }

    /// A stream resumes where it ran (`event_ids.rs`). One another replica ran: a request's
    /// carries a JSON-RPC error for that request (its answer is lost here), and the session's
    /// standalone stream starts again here. A stream that cannot be resumed otherwise is
    /// refused (see [`serving`]).
    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        type Resumed = Pin<Box<dyn Stream<Item = ServerSseMessage> + Send + Sync>>;
        let refused = |e| {
            // Outside `serving` (no such scope) there is no one to tell.
            let _ = SERVING.try_with(|s| s.unresumable.set(true));
            SessionError::Inner(e)
        };
        let Some(replica) = self.table.replica.get() else {
            let watch = self.watches.find(id, &last_event_id);
            let stream = self
                .inner
                .resume(id, last_event_id)
                .await
                .map_err(refused)?;
            return Ok(Box::pin(self.watched(watch, stream)) as Resumed);
        };
        match replica.name(&last_event_id) {
            Named::Unmarked(event) => {
                let watch = self.watches.find(id, event);
                let stream = self.inner.resume(id, event.to_owned()).await;
                Ok(Box::pin(self.watched(watch, stream.map_err(refused)?)))
            }
            Named::Here { event, request } => {
                let marker = replica.marker(request.as_ref());
                let watch = self.watches.find(id, event);
                match (self.inner.resume(id, event.to_owned()).await, request) {
                    (Ok(stream), _) => Ok(Box::pin(marker.mark(self.watched(watch, stream)))),
                    (Err(_), Some(request)) => {
                        let shown = request.to_string();
                        tracing::info!(request = %echo(&shown), "a request's stream is gone: answer lost");
                        Ok(Box::pin(stream::iter([replica.lost(request)])))
                    }
                    (Err(e), None) => Err(refused(e)),
                }
            }
            Named::Elsewhere {
                request: Some(request),
                ..
            } => {
                let shown = request.to_string();
                tracing::info!(request = %echo(&shown), "a request's stream ran elsewhere: answer lost");
                Ok(Box::pin(stream::iter([replica.lost(request)])))
            }
            Named::Elsewhere {
                standalone: true, ..
            } => {
                let stream = self.inner.create_standalone_stream(id).await;
                Ok(Box::pin(
                    replica.marker(None).mark(stream.map_err(refused)?),
                ))
            }
            Named::Elsewhere { .. } | Named::Lost => {
                // A request's stream, its id too long to be carried: nothing to answer it with;
                // or the end of one whose loss was told.
                let _ = SERVING.try_with(|s| s.unresumable.set(true));
                Ok(Box::pin(stream::empty()))
            }
        }
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        // A session another replica created counts against this one's cap too; whether its
        // handshake completed is asked of the shared store when it matters.
        if !self.table.reserve() {
            return Ok(RestoreOutcome::NotSupported);
        }
        let id_for_table = id.clone();
        let restored = self.inner.restore_session(id).await;
        Ok(match restored {
            Ok(RestoreOutcome::Restored(t)) => {
                self.table.fill(Some(id_for_table));
                RestoreOutcome::Restored(Ordered::new(t, Arc::clone(&self.arrivals)))
            }
            Ok(RestoreOutcome::AlreadyPresent) => {
                self.table.fill(None);
                RestoreOutcome::AlreadyPresent
            }
            Ok(_) => {
                self.table.fill(None);
                RestoreOutcome::NotSupported
            }
            Err(e) => {
                self.table.fill(None);
                return Err(SessionError::Inner(e));
            }
        })
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.inner.event_store()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A session created by `owner`'s request, in `table`.
    async fn created_by(table: &SessionTable, id: &str, owner: Option<Principal>) {
        assert!(table.reserve());
        serving(owner, async { table.fill(Some(SessionId::from(id))) }).await;
    }

    #[tokio::test]
    async fn a_session_admits_the_principal_that_created_it_only() {
        let table = SessionTable::new(4, Duration::from_secs(10));
        let alice = Principal::subject("https://auth.example", "alice");
        let bob = Principal::subject("https://auth.example", "bob");
        created_by(&table, "s-alice", Some(alice.clone())).await;
        created_by(&table, "s-nobody", None).await;
        let here = |id: &str| Admission::Here {
            id: SessionId::from(id),
            initialized: false,
        };
        assert_eq!(table.admit("s-alice", Some(&alice)).await, here("s-alice"));
        assert_eq!(
            table.admit("s-alice", Some(&bob)).await,
            Admission::NotFound
        );
        assert_eq!(table.admit("s-alice", None).await, Admission::NotFound);
        // Without authentication (no principal) as before; a token does not open such a session.
        assert_eq!(table.admit("s-nobody", None).await, here("s-nobody"));
        assert_eq!(
            table.admit("s-nobody", Some(&bob)).await,
            Admission::NotFound
        );
        // No such session (rmcp answers it), and an id no session can have.
        assert_eq!(table.admit("s-other", Some(&bob)).await, Admission::Unknown);
        let long = "s".repeat(MAX_SESSION_ID_BYTES + 1);
        assert_eq!(table.admit(&long, None).await, Admission::NotFound);
        // Outside a request, nobody acts.
        assert_eq!(acting(), None);
    }
}
