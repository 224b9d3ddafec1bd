//! Connections: let in by the [`Door`](super::door::Door) (which sheds the oldest connection
//! that is not busy to make room, and keeps a reserve for what a stop needs), each served by
//! hyper with the header deadline the door gave it, and closed when it stays silent: no first
//! byte within that deadline, or, with no request in flight (a response still being computed or
//! streamed counts as in flight), no byte either way for the idle timeout; or at once when the
//! door sheds it.

use std::convert::Infallible;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};
use tokio_util::sync::CancellationToken;

use super::door::{Door, Slot};
use crate::toolbox::ServeError;

/// What answers a connection's requests.
pub(crate) trait Answer: Send + Sync + 'static {
    /// The response to `request`, from the connection's peer `peer`, on the connection whose
    /// place at the door `visit` tells how the request goes.
    fn answer(
        &self,
        request: hyper::Request<hyper::body::Incoming>,
        peer: std::net::SocketAddr,
        visit: &Visit,
    ) -> impl Future<Output = axum::response::Response> + Send;
}

pub(crate) struct Limits {
    pub door: Arc<Door>,
    pub idle_timeout: Duration,
}

/// One request on a connection, as the door sees it: its body being read, then handed on
/// ([`Visit::delivered`]), until its response ends (dropped with the response's body).
pub(crate) struct Visit {
    slot: Arc<Slot>,
    delivered: std::sync::atomic::AtomicBool,
}

impl Visit {
    fn new(slot: &Arc<Slot>) -> Visit {
        slot.receiving();
        Visit {
            slot: Arc::clone(slot),
            delivered: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// The request was read and is handed on: the connection is busy (never shed) until its
    /// response ends.
    pub(crate) fn delivered(&self) {
        if !self.delivered.swap(true, Ordering::SeqCst) {
            self.slot.delivered();
        }
    }

    /// The request was authenticated: its connection is one of those the door keeps room for.
    pub(crate) fn authenticated(&self) {
        self.slot.authenticated();
    }

    /// Whether the connection holds a reserve slot: only what a stop needs is served there.
    pub(crate) fn on_reserve(&self) -> bool {
        self.slot.is_reserve()
    }
}

impl Drop for Visit {
    fn drop(&mut self) {
        self.slot.ended(self.delivered.load(Ordering::SeqCst));
    }
}

/// Accepts connections up to the cap (one more is closed at once), each served by hyper with
/// the header read timeout, until `stop`; then lets the open ones finish their requests.
pub(crate) async fn accept_loop<A: Answer>(
    listener: tokio::net::TcpListener,
    endpoint: Arc<A>,
    limits: Limits,
    stop: CancellationToken,
) -> Result<(), ServeError> {
    let open = tokio_util::task::TaskTracker::new();
    loop {
        let (stream, peer) = tokio::select! {
            () = stop.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors, or the peer gave up: wait a moment, go on.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        // Answers go out in small writes (SSE frames, a chunked body's end): with Nagle's
        // algorithm on, each waits for the client's delayed ACK, 40 ms per call from keep-alive
        // clients such as the TypeScript SDK's (issue 26). A failure only costs latency.
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(error = %e, %peer, "could not set TCP_NODELAY");
        }
        let Ok(slot) = limits.door.admit(peer.ip()) else {
            tracing::warn!(%peer, "connection refused: every connection slot, and the stop's reserve, is busy");
            drop(stream);
            continue;
        };
        let slot = Arc::new(slot);
        let endpoint = Arc::clone(&endpoint);
        let header_read_timeout = slot.header_timeout();
        let idle_timeout = limits.idle_timeout;
        let stop = stop.clone();
        open.spawn(async move {
            let shed = slot.shed().clone();
            let active = Arc::new(AtomicUsize::new(0));
            let in_service = Arc::clone(&active);
            let service = hyper::service::service_fn(
                move |request: hyper::Request<hyper::body::Incoming>| {
                    let endpoint = Arc::clone(&endpoint);
                    let guard = InFlight::enter(&in_service);
                    let visit = Visit::new(&slot);
                    async move {
                        let response = endpoint.answer(request, peer, &visit).await;
                        // In flight until the response body (an SSE stream, say) is done.
                        // Served as it is: hyper takes any body (`Body::new` would box it again).
                        Ok::<_, Infallible>(response.map(|body| Tracked {
                            body,
                            _guard: guard,
                            _visit: visit,
                        }))
                    }
                },
            );
            let mut builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
            builder
                .http1()
                .timer(TokioTimer::new())
                .header_read_timeout(header_read_timeout);
            // No HTTP/2 keep-alive pings: they would count as activity and keep an idle
            // connection (and its slot) forever.
            builder
                .http2()
                .timer(TokioTimer::new())
                .keep_alive_interval(None);
            let io = Watched::new(stream, header_read_timeout, idle_timeout, active);
            let connection = builder.serve_connection_with_upgrades(TokioIo::new(io), service);
            tokio::pin!(connection);
            tokio::select! {
                result = connection.as_mut() => {
                    if let Err(e) = result {
                        tracing::debug!(%peer, error = %e, "connection ended");
                    }
                }
                // Shed by the door for a newer connection: closed at once (it had no request in
                // flight).
                () = shed.cancelled() => {}
                () = stop.cancelled() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(Duration::from_secs(5), connection).await;
                }
            }
        });
    }
    open.close();
    let _ = tokio::time::timeout(Duration::from_secs(5), open.wait()).await;
    Ok(())
}

/// Counts a request as in flight while alive.
struct InFlight(Arc<AtomicUsize>);

impl InFlight {
    fn enter(count: &Arc<AtomicUsize>) -> Self {
        count.fetch_add(1, Ordering::SeqCst);
        InFlight(Arc::clone(count))
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A response body that keeps its request in flight until it is done or dropped.
struct Tracked {
    body: Body,
    _guard: InFlight,
    _visit: Visit,
}

impl http_body::Body for Tracked {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// A connection's stream, closed (reads fail with `TimedOut`) when it stays silent: until its
/// first byte arrives, for `first_byte`; after that, when no request is in flight and neither
/// side moved a byte for `idle`.
struct Watched<T> {
    inner: T,
    first_byte: Duration,
    idle: Duration,
    started: bool,
    last_activity: Instant,
    timer: Pin<Box<Sleep>>,
    /// The waker `timer` was last polled with, since it was last set: while it has not fired,
    /// the timer wakes that task, and need not be polled again (two polls a request).
    armed: Option<std::task::Waker>,
    /// Requests in flight on this connection.
    active: Arc<AtomicUsize>,
}

impl<T> Watched<T> {
    fn new(inner: T, first_byte: Duration, idle: Duration, active: Arc<AtomicUsize>) -> Self {
        let now = Instant::now();
        Self {
            inner,
            first_byte,
            idle,
            started: false,
            last_activity: now,
            timer: Box::pin(tokio::time::sleep_until(now + first_byte)),
            armed: None,
            active,
        }
    }

    fn deadline(&self) -> Instant {
        self.last_activity
            + if self.started {
                self.idle
            } else {
                self.first_byte
            }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Watched<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(result) => {
                if buf.filled().len() > before {
                    self.last_activity = Instant::now();
                    if !self.started {
                        self.started = true;
                        // The only time the deadline moves earlier (an idle timeout shorter
                        // than the first byte's): the timer follows it once.
                        let deadline = self.deadline();
                        if deadline < self.timer.deadline() {
                            self.timer.as_mut().reset(deadline);
                            self.armed = None;
                        }
                    }
                }
                Poll::Ready(result)
            }
            // The timer is moved only when it fires early: activity since it was set pushed the
            // deadline later. Moving it on every read instead (every request: hyper reads until
            // the socket would block) took the runtime's timer lock twice a request.
            Poll::Pending => loop {
                if !self.timer.is_elapsed()
                    && self.armed.as_ref().is_some_and(|w| w.will_wake(cx.waker()))
                {
                    return Poll::Pending;
                }
                match self.timer.as_mut().poll(cx) {
                    Poll::Pending => {
                        self.armed = Some(cx.waker().clone());
                        return Poll::Pending;
                    }
                    Poll::Ready(()) => {}
                }
                let deadline = self.deadline();
                if deadline > Instant::now() {
                    self.timer.as_mut().reset(deadline);
                    self.armed = None;
                    continue;
                }
                if self.started && self.active.load(Ordering::SeqCst) > 0 {
                    // A request is in flight: not idle; look again an idle period later.
                    self.last_activity = Instant::now();
                    continue;
                }
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the connection stayed silent",
                )));
            },
        }
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Watched<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.last_activity = Instant::now();
        }
        r
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.last_activity = Instant::now();
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}
