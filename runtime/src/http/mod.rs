//! Serving a toolbox over MCP streamable HTTP (rmcp's `StreamableHttpService`), safely enough
//! for a lab network: nobody unauthenticated off loopback, `Host` and `Origin` checked on every
//! bind, every resource a client can make the server hold bounded (body size and shape,
//! read times, connections, sessions, requests parsed at once), every session answering only
//! the [`Principal`] that created it (`principal.rs`, `sessions.rs`), and what a client sent
//! echoed back or logged only cut to a bounded length (`crate::echo`).
//!
//! ```rust,no_run
//! # async fn demo(toolbox: toolwright::Toolbox) -> Result<(), Box<dyn std::error::Error>> {
//! use toolwright::HttpOptions;
//! let options = HttpOptions::new("0.0.0.0:8080".parse()?)
//!     .bearer_token(std::env::var("ARM_TOKEN")?)
//!     .allow_host("arm.lab.example");
//! toolbox.serve_http_with(options).await?.wait().await?;
//! # Ok(()) }
//! ```

mod auth;
mod body;
mod conn;
mod door;
mod event_ids;
#[cfg(feature = "oauth")]
mod oauth;
mod pending;
mod principal;
#[cfg(feature = "redis")]
mod redis;
mod sessions;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use http_body_util::{Either, Full};
use hyper::body::Incoming;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use self::auth::{Authentication, Caller};
#[cfg(feature = "oauth")]
pub use self::oauth::OAuthConfig;
use self::sessions::{Admission, SessionTable, Sessions};
use crate::contract::SCOPES_META;
use crate::echo::echo;
use crate::toolbox::{Requester, ServeError, Toolbox, WithHandler};

pub(crate) use self::principal::Principal;
#[cfg(feature = "redis")]
pub(crate) use self::sessions::acting;

/// The path the MCP endpoint is served at.
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub const MCP_PATH: &str = "/mcp";

/// How long a call waits for its user's answer to a confirmation (protocol 2025-11-25: an
/// elicitation on the call's event stream) before it is cancelled, nothing having run:
/// [`HttpOptions::confirmation_timeout`].
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub const DEFAULT_CONFIRMATION_TIMEOUT: Duration = Duration::from_secs(120);

/// Connection slots beyond [`HttpOptions::max_connections`] kept for what a stop needs, used
/// only when every other slot is busy: a stop tool's call, and a new session's `initialize`
/// and `notifications/initialized`.
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub const STOP_RESERVE: usize = 16;

/// The shortest time a new connection has to send its headers, when nearly every slot is held
/// by connections that are not busy (the deadline shortens from the header timeout, past half
/// the slots, to this).
const MIN_HEADER_TIMEOUT: Duration = Duration::from_secs(1);

/// A body of at most this many bytes (by its `Content-Length`) is read without waiting for a
/// place among the bodies read at once: a stop's call is never held up behind large or slow
/// bodies, and these cost at most this much each.
const SMALL_BODY: u64 = 8 * 1024;

/// How long a call that holds a resource with a safe stop waits for its client to resume its
/// dropped event stream (protocol 2025-11-25) before it is stopped: [`HttpOptions::resume_window`].
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub const DEFAULT_RESUME_WINDOW: Duration = Duration::from_secs(2);

/// How to serve over HTTP: where, who may call, which `Host`s and `Origin`s are accepted, and
/// the limits. Every limit has a default; see each method.
#[derive(Debug, Clone)]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub struct HttpOptions {
    addr: SocketAddr,
    auth: AuthOption,
    allowed_hosts: Vec<String>,
    allowed_origins: Vec<String>,
    max_body_bytes: Option<usize>,
    max_json_values: usize,
    header_read_timeout: Duration,
    body_read_timeout: Duration,
    idle_timeout: Duration,
    max_connections: usize,
    max_connections_per_peer: usize,
    max_parsing: usize,
    max_pending_confirmations: (usize, usize),
    confirmation_timeout: Duration,
    max_sessions: usize,
    session_init_timeout: Duration,
    resume_window: Duration,
    stateless: bool,
    confirm: Option<bool>,
    #[cfg(feature = "redis")]
    redis: Option<String>,
}

#[derive(Debug, Clone, Default)]
enum AuthOption {
    #[default]
    Unset,
    Insecure,
    Bearer(String),
    #[cfg(feature = "oauth")]
    OAuth(OAuthConfig),
}

impl HttpOptions {
    /// Serve at `addr` (port 0: any free port), with the defaults: no authentication, which only
    /// a loopback address allows.
    pub fn new(addr: SocketAddr) -> Self {
        Self {
            addr,
            auth: AuthOption::Unset,
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            max_body_bytes: None,
            max_json_values: 20_000,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            max_connections: 256,
            max_connections_per_peer: 64,
            max_parsing: 64,
            max_pending_confirmations: (16, 64),
            confirmation_timeout: DEFAULT_CONFIRMATION_TIMEOUT,
            max_sessions: 256,
            session_init_timeout: Duration::from_secs(10),
            resume_window: DEFAULT_RESUME_WINDOW,
            stateless: false,
            confirm: None,
            #[cfg(feature = "redis")]
            redis: None,
        }
    }

    /// Whether the user confirms each call of a tool declared with `confirm = ".."` before it
    /// runs: sets the switch of the toolbox it serves ([`Toolbox::set_confirmation`]) when it
    /// starts serving, whatever the toolbox was built with. Off only where no one needs to
    /// confirm: a simulation, a test rig.
    #[must_use]
    pub fn confirmation(mut self, on: bool) -> Self {
        self.confirm = Some(on);
        self
    }

    /// How long a call that holds a resource with a safe stop keeps running once its request's
    /// event stream dropped (protocol 2025-11-25, whose streams a client may resume with
    /// `Last-Event-ID`): a stream not resumed within it means the client is gone, and the call
    /// is stopped (grace period, then the safe stop). Default [`DEFAULT_RESUME_WINDOW`], 2 s
    /// (a dead-man timing: ROS teleoperation muxes use 0.1–0.5 s). On protocol 2026-07-28 a
    /// stream cannot be resumed: the call stops when its connection drops.
    #[must_use]
    pub fn resume_window(mut self, window: Duration) -> Self {
        self.resume_window = window;
        self
    }

    /// Serves every client without a session, older protocol lines too (clients on 2026-07-28
    /// always are): each request stands alone, so any replica can answer it, and nothing is
    /// kept between requests (no server-to-client notifications outside a request).
    #[must_use]
    pub fn stateless(mut self) -> Self {
        self.stateless = true;
        self
    }

    /// Shares the HTTP sessions and the rate limits with the other replicas of this server
    /// through the Redis at `url` (`redis://127.0.0.1:6379/0`): a session created on one replica
    /// is restored on another, and a limit counts every replica's calls. Resource queues stay
    /// per process: a toolbox whose tools use a device must not run as several replicas.
    ///
    /// A request's answer streams from the replica that runs it. Its event ids name that
    /// replica and the request: a client that resumes the stream (`Last-Event-ID`) on another
    /// replica, because the first stopped or its connection was dropped, gets a JSON-RPC error
    /// for that request (its answer is lost; it may or may not have taken effect), never
    /// another request's answer, and never a wait for an answer that cannot come.
    #[cfg(feature = "redis")]
    #[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
    #[must_use]
    pub fn redis(mut self, url: impl Into<String>) -> Self {
        self.redis = Some(url.into());
        self
    }

    /// Requires `Authorization: Bearer <token>` with this token on every request (compared in
    /// constant time). Read it from the environment or a file, never from the command line.
    #[must_use]
    pub fn bearer_token(mut self, token: impl Into<String>) -> Self {
        self.auth = AuthOption::Bearer(token.into());
        self
    }

    /// Requires OAuth 2.1 access tokens (JWTs) from an authorization server, as the MCP
    /// authorization spec describes: this server publishes its Protected Resource Metadata
    /// (RFC 9728), answers `401` with `WWW-Authenticate: Bearer resource_metadata=".."`, checks
    /// each token's signature against the issuer's keys, its `iss`, its `aud` (the resource
    /// URI, RFC 8707), `exp` and `nbf`, and the scopes each tool declares
    /// (`#[tool(scopes = [..])]`; `403 insufficient_scope` otherwise).
    #[cfg(feature = "oauth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
    #[must_use]
    pub fn oauth(mut self, config: OAuthConfig) -> Self {
        self.auth = AuthOption::OAuth(config);
        self
    }

    /// Serves without authentication on a non-loopback address: anyone who can reach the port
    /// can call every tool. Logged as a warning at start.
    #[must_use]
    pub fn insecure_no_auth(mut self) -> Self {
        self.auth = AuthOption::Insecure;
        self
    }

    /// Accepts requests whose `Host` is `host` (`arm.lab.example`, or with a port,
    /// `arm.lab.example:8080`), besides the loopback names and the bound address. Binding an
    /// unspecified address (`0.0.0.0`, `::`) needs at least one: requests with any other `Host`
    /// (a DNS-rebinding page) get `403`.
    #[must_use]
    pub fn allow_host(mut self, host: impl Into<String>) -> Self {
        self.allowed_hosts.push(host.into());
        self
    }

    /// Accepts browser requests from `origin` (`https://console.lab.example`, with a port or
    /// `:*`), besides loopback origins. Requests with any other `Origin` get `403`; requests
    /// without one (non-browser clients) are not affected.
    #[must_use]
    pub fn allow_origin(mut self, origin: impl Into<String>) -> Self {
        self.allowed_origins.push(origin.into());
        self
    }

    /// The largest request body (default: the toolbox's argument limit plus 64 KiB for the
    /// JSON-RPC envelope); larger ones get `413` before being read further.
    #[must_use]
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = Some(bytes);
        self
    }

    /// The most JSON values (objects, arrays and separated items) a body may hold (default
    /// 20,000): one parsed value takes some 50–100 bytes, so this bounds what a body costs once
    /// parsed. More get `413` before parsing.
    #[must_use]
    pub fn max_json_values(mut self, values: usize) -> Self {
        self.max_json_values = values;
        self
    }

    /// How long a client has to send a request's headers (default 10 s; also the time a new
    /// connection has to send its first byte), and its body (default 30 s); a connection
    /// stalled longer is closed.
    #[must_use]
    pub fn read_timeouts(mut self, headers: Duration, body: Duration) -> Self {
        self.header_read_timeout = headers;
        self.body_read_timeout = body;
        self
    }

    /// How long a connection may stay silent both ways between requests (default 60 s, above
    /// the 15 s keep-alive pings of SSE streams) before it is closed.
    #[must_use]
    pub fn idle_timeout(mut self, idle: Duration) -> Self {
        self.idle_timeout = idle;
        self
    }

    /// The most connections open at once (default 256). At the cap a new connection still
    /// gets in: the oldest one that is not busy (one that has not sent its request yet, is
    /// still sending its body, or is idle) is closed to make room, those not authenticated
    /// first; with a token or OAuth, connections not yet authenticated hold at most three
    /// quarters of the slots. When every slot is busy, [`STOP_RESERVE`] more serve only what a
    /// stop needs. The more of them wait for their requests, the less time a new connection
    /// has to send its headers (down to 1 s).
    #[must_use]
    pub fn max_connections(mut self, connections: usize) -> Self {
        self.max_connections = connections.max(1);
        self
    }

    /// The most connections one address may hold that are not busy (default 64): one more from
    /// it closes its own oldest such connection, never another address's.
    #[must_use]
    pub fn max_connections_per_peer(mut self, connections: usize) -> Self {
        self.max_connections_per_peer = connections.max(1);
        self
    }

    /// The most calls of tools that ask for confirmation in flight at once in one session
    /// (default 16), and for one client over all its sessions (default 64; a client is its
    /// principal, or without authentication its address): one more is answered at once with an
    /// `isError` saying nothing ran. A stop tool never asks, and is never counted.
    #[must_use]
    pub fn max_pending_confirmations(mut self, per_session: usize, per_client: usize) -> Self {
        self.max_pending_confirmations = (per_session.max(1), per_client.max(1));
        self
    }

    /// How long a call waits for its user to answer a confirmation sent on its event stream
    /// (protocol 2025-11-25's elicitation; default [`DEFAULT_CONFIRMATION_TIMEOUT`], 2 min):
    /// past it the call is cancelled, nothing having run, and its stream ends.
    #[must_use]
    pub fn confirmation_timeout(mut self, timeout: Duration) -> Self {
        self.confirmation_timeout = timeout;
        self
    }

    /// The most request bodies read and parsed at once (default 64); more wait.
    #[must_use]
    pub fn max_parsing(mut self, requests: usize) -> Self {
        self.max_parsing = requests.max(1);
        self
    }

    /// The most MCP sessions open at once (default 256; one more `initialize` gets `503`), and
    /// how long a new session has to complete its handshake (`notifications/initialized`,
    /// default 10 s) before it is closed. Until then it may not call tools.
    #[must_use]
    pub fn max_sessions(mut self, sessions: usize, init_timeout: Duration) -> Self {
        self.max_sessions = sessions.max(1);
        self.session_init_timeout = init_timeout;
        self
    }

    /// The address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The resolved authentication, or why this configuration may not serve.
    fn resolve_auth(&self) -> Result<Authentication, String> {
        let ip = self.addr.ip();
        match &self.auth {
            AuthOption::Unset if ip.is_loopback() => Ok(Authentication::None),
            AuthOption::Unset => Err(format!(
                "refusing to serve tools on {} without authentication: anyone who can reach \
                 the port could call them. Add a token (`serve --http {} --bearer-token-env \
                 VAR`, `HttpOptions::bearer_token`) or OAuth (`--oauth-issuer URL \
                 --oauth-resource URL`), or serve on 127.0.0.1; `--insecure-no-auth` serves \
                 without authentication anyway",
                self.addr, self.addr
            )),
            AuthOption::Insecure => {
                if !ip.is_loopback() {
                    tracing::warn!(addr = %self.addr, "serving WITHOUT authentication on a non-loopback address (--insecure-no-auth): anyone who can reach the port can call every tool");
                }
                Ok(Authentication::None)
            }
            AuthOption::Bearer(token) if token.len() < 16 => Err(
                "the bearer token is shorter than 16 characters: use a long random one \
                 (`openssl rand -hex 32`)"
                    .to_owned(),
            ),
            AuthOption::Bearer(token) => Ok(Authentication::Bearer(Arc::from(token.as_bytes()))),
            #[cfg(feature = "oauth")]
            AuthOption::OAuth(config) => Ok(Authentication::OAuth(Arc::new(
                oauth::OAuthVerifier::new(config.clone())?,
            ))),
        }
    }

    /// rmcp's `Host` allowlist: loopback names, the bound address, and the declared hosts.
    fn hosts(&self) -> Result<Vec<String>, String> {
        let ip = self.addr.ip();
        if ip.is_unspecified() && self.allowed_hosts.is_empty() {
            return Err(format!(
                "binding {} accepts connections on every address, so the `Host` each client \
                 uses must be named: add `--allowed-host NAME` (`HttpOptions::allow_host`) for \
                 each name or address clients reach this server by",
                self.addr
            ));
        }
        let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
        if !ip.is_unspecified() && !ip.is_loopback() {
            hosts.push(ip.to_string());
        }
        hosts.extend(self.allowed_hosts.iter().cloned());
        Ok(hosts)
    }

    /// rmcp's `Origin` allowlist: loopback origins on any port, and the declared origins.
    fn origins(&self) -> Vec<String> {
        let mut origins: Vec<String> = ["localhost", "127.0.0.1", "[::1]"]
            .iter()
            .flat_map(|h| [format!("http://{h}:*"), format!("https://{h}:*")])
            .collect();
        origins.extend(self.allowed_origins.iter().cloned());
        origins
    }
}

/// A running HTTP server: its address, and a handle to stop it.
#[derive(Debug)]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub struct HttpServer {
    addr: SocketAddr,
    shutdown: CancellationToken,
    task: tokio::task::JoinHandle<Result<(), ServeError>>,
    calls: crate::toolbox::CallsInFlight,
}

impl HttpServer {
    /// The address it listens on (useful with port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The MCP endpoint URL, e.g. `http://127.0.0.1:8080/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}{MCP_PATH}", self.addr)
    }

    /// Stops accepting connections, stops every call and task in flight (told to stop, a grace
    /// period of at most 2 s, then their safe stops; their answers say the server is shutting
    /// down), and waits for the server to finish and for those calls to end.
    pub async fn shutdown(self) -> Result<(), ServeError> {
        self.calls.shut_down();
        self.shutdown.cancel();
        let served = self
            .task
            .await
            .map_err(|e| ServeError::new(format!("HTTP server task failed: {e}")))?;
        self.calls.wait().await;
        served
    }

    /// Waits until the server stops (for a server that runs until the process ends): on
    /// `SIGTERM` or `SIGINT` (Ctrl-C) it shuts down as [`HttpServer::shutdown`] does, stopping
    /// every call and task in flight and running their safe stops, and returns once they ran.
    pub async fn wait(mut self) -> Result<(), ServeError> {
        let signal = tokio::select! {
            served = &mut self.task => {
                return served.map_err(|e| ServeError::new(format!("HTTP server task failed: {e}")))?;
            }
            signal = crate::toolbox::shutdown_signal() => signal,
        };
        tracing::warn!(
            signal,
            "stopping every call and task, and running their safe stops, before exiting"
        );
        self.shutdown().await
    }
}

/// What every request to `/mcp` passes before rmcp sees it.
struct Guard {
    auth: Authentication,
    /// The scopes each tool needs, by name.
    scopes: HashMap<String, Vec<String>>,
    /// The stop tools (`stop_for`): served on a reserve slot, never counted or held up.
    stops: std::collections::HashSet<String>,
    /// The calls of tools that ask for confirmation in flight, by session and by client.
    pending: pending::Pending,
    max_body: usize,
    max_values: usize,
    body_timeout: Duration,
    parsing: Semaphore,
    sessions: Arc<SessionTable>,
    /// Whether requests may name sessions (not with `stateless`).
    with_sessions: bool,
}

#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
impl<S: Send + Sync + 'static, H: rmcp::ServerHandler> WithHandler<S, H> {
    /// Serves over MCP streamable HTTP (see [`Toolbox::serve_http_with`]), a handler per session.
    pub async fn serve_http_with(self, options: HttpOptions) -> Result<HttpServer, ServeError> {
        let make = Arc::clone(&self.make);
        self.toolbox
            .serve_http_as(options, move |toolbox| make(toolbox))
            .await
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
impl<S: Send + Sync + 'static> Toolbox<S> {
    /// Serves the toolbox over MCP streamable HTTP at `http://ADDR/mcp`, in the background, with
    /// [`HttpOptions::new`]'s defaults: no authentication, so only on a loopback address.
    pub async fn serve_http(self, addr: SocketAddr) -> Result<HttpServer, ServeError> {
        self.serve_http_with(HttpOptions::new(addr)).await
    }

    /// Serves the toolbox over MCP streamable HTTP at `http://ADDR/mcp`, in the background. Every
    /// session shares this toolbox (tools, state, resource queues). Refuses (before binding) a
    /// non-loopback address without authentication, and an unspecified one (`0.0.0.0`) without
    /// an allowed host.
    ///
    /// Which runtime: a multi-thread one (`#[tokio::main]`, a worker per core). Against a
    /// current-thread runtime on two cores (BENCHMARKS.md, issue 26), the current-thread one
    /// answered a single client calling in sequence 8–20 % faster, but served 0.57–0.92× the
    /// calls at 16 to 256 clients on protocol 2025-11-25 (0.85–1.03× on 2026-07-28's stateless
    /// wire); and on a multi-thread runtime a body
    /// that holds its worker does not hold up other clients' calls, a stop among them.
    /// `ToolboxBuilder::run_cli_main` (feature `cli`) builds it for `serve --http`.
    ///
    /// Every accepted connection has `TCP_NODELAY` set, so an answer's small writes leave at
    /// once. A proxy in front needs the same (HAProxy: `option http-no-delay`; [`crate::reference`],
    /// "Replicas"), or it holds a call's progress events back.
    pub async fn serve_http_with(self, options: HttpOptions) -> Result<HttpServer, ServeError> {
        self.serve_http_as(options, |toolbox| toolbox).await
    }

    /// [`Toolbox::serve_http_with`], each session answered by the handler `make` builds around
    /// the toolbox (see [`ToolboxBuilder::with_handler`](crate::ToolboxBuilder::with_handler)).
    pub(crate) async fn serve_http_as<H, F>(
        self,
        options: HttpOptions,
        make: F,
    ) -> Result<HttpServer, ServeError>
    where
        H: rmcp::ServerHandler,
        F: Fn(Toolbox<S>) -> H + Send + Sync + 'static,
    {
        let auth = options.resolve_auth().map_err(ServeError::new)?;
        let auth_mode = auth.describe();
        let hosts = options.hosts().map_err(ServeError::new)?;
        if let Some(on) = options.confirm {
            self.set_confirmation(on);
        }
        let listener = listen(options.addr)
            .map_err(|e| ServeError::new(format!("cannot listen on {}: {e}", options.addr)))?;
        let addr = listener
            .local_addr()
            .map_err(|e| ServeError::new(e.to_string()))?;
        let shutdown = CancellationToken::new();
        let max_body = options
            .max_body_bytes
            .unwrap_or_else(|| self.max_message_bytes());

        let mut config = StreamableHttpServerConfig::default()
            .with_allowed_hosts(hosts)
            .with_allowed_origins(options.origins());
        config.cancellation_token = shutdown.child_token();
        config.max_request_body_bytes = max_body;
        let table = SessionTable::new(options.max_sessions, options.session_init_timeout);
        config.legacy_session_mode = !options.stateless;
        #[cfg(feature = "redis")]
        let mut shared = None;
        #[cfg(feature = "redis")]
        if let Some(url) = &options.redis {
            let redis = self::redis::Redis::connect(url)
                .await
                .map_err(ServeError::new)?;
            shared = Some(Arc::clone(&redis));
            config.session_store = Some(Arc::new(self::redis::RedisSessions(Arc::clone(&redis))));
            table.share(Arc::clone(&redis));
            self.share(redis);
            if self.uses_resources() {
                tracing::warn!(
                    "sharing state through Redis with a toolbox whose tools use resources (devices): resource queues are per process, so run it as one replica only"
                );
            }
        }
        let sessions = Sessions::new(
            LocalSessionManager::default(),
            Arc::clone(&table),
            self.arrivals(),
            options.resume_window,
            shutdown.child_token(),
        )
        .with_confirmation_timeout(self.confirming_tools(), options.confirmation_timeout);
        let scopes = self.tool_scopes();
        let stops = self.stop_tools().into_iter().collect();
        let pending = pending::Pending::new(
            self.confirming_tools(),
            self.confirmation_switch(),
            options.max_pending_confirmations,
        );
        let authenticated = auth.required();
        let calls = self.calls_in_flight();
        let metadata = protected_resource_metadata(&auth, &scopes);
        let toolbox = self;
        let service = StreamableHttpService::new(
            move || Ok(make(toolbox.for_new_session())),
            Arc::new(sessions),
            config,
        );
        let guard = Guard {
            auth,
            scopes,
            stops,
            pending,
            max_body,
            max_values: options.max_json_values,
            body_timeout: options.body_read_timeout,
            parsing: Semaphore::new(options.max_parsing),
            sessions: table,
            with_sessions: !options.stateless,
        };
        let endpoint = Arc::new(Endpoint {
            guard,
            mcp: service,
            metadata: metadata.map(|(paths, document)| (paths, Arc::from(document.to_string()))),
            health: Health {
                stopping: shutdown.clone(),
                #[cfg(feature = "redis")]
                redis: shared,
                ready: std::sync::atomic::AtomicBool::new(true),
            },
        });
        let limits = conn::Limits {
            door: door::Door::new(door::DoorLimits {
                max: options.max_connections,
                per_peer: options.max_connections_per_peer,
                kept_for_authenticated: if authenticated {
                    options.max_connections / 4
                } else {
                    0
                },
                reserve: STOP_RESERVE,
                header_timeout: options.header_read_timeout,
                min_header_timeout: MIN_HEADER_TIMEOUT.min(options.header_read_timeout),
                young: door::YOUNG,
            }),
            idle_timeout: options.idle_timeout,
        };
        let stop = shutdown.clone();
        let task = tokio::spawn(conn::accept_loop(listener, endpoint, limits, stop));
        tracing::info!(
            auth = %auth_mode,
            revisions = crate::toolbox::REVISIONS,
            stateless = options.stateless,
            "serving MCP over streamable HTTP at http://{addr}{MCP_PATH}"
        );
        Ok(HttpServer {
            addr,
            shutdown,
            task,
            calls,
        })
    }

    /// The scopes each tool declares, by tool name.
    fn tool_scopes(&self) -> HashMap<String, Vec<String>> {
        self.tools()
            .iter()
            .filter_map(|t| {
                let scopes = t.meta.as_ref()?.0.get(SCOPES_META)?.as_array()?;
                let scopes: Vec<String> = scopes
                    .iter()
                    .filter_map(|s| s.as_str().map(str::to_owned))
                    .collect();
                Some((t.name.to_string(), scopes))
            })
            .collect()
    }
}

/// The most connections the kernel queues for the accept loop (capped by the system's
/// `net.core.somaxconn`, 4096 on current Linux). The standard library's and tokio's 128 were
/// overflowed by a flood of 300 reconnecting clients: the kernel then drops new connections'
/// SYNs, and a stop's connection waited out TCP's 1 s retransmission (issue 43's bench).
const ACCEPT_BACKLOG: u32 = 4096;

/// A listener on `addr` with an accept queue of [`ACCEPT_BACKLOG`] (`SO_REUSEADDR` set, as
/// tokio's `bind` does).
fn listen(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(ACCEPT_BACKLOG)
}

/// The Protected Resource Metadata (RFC 9728) and the paths it is served at, with OAuth.
fn protected_resource_metadata(
    auth: &Authentication,
    scopes: &HashMap<String, Vec<String>>,
) -> Option<(Vec<String>, serde_json::Value)> {
    #[cfg(feature = "oauth")]
    if let Authentication::OAuth(verifier) = auth {
        let config = verifier.config();
        let mut supported: Vec<&str> = scopes.values().flatten().map(String::as_str).collect();
        supported.sort_unstable();
        supported.dedup();
        let document = serde_json::json!({
            "resource": config.resource,
            "authorization_servers": [config.issuer],
            "scopes_supported": supported,
            "bearer_methods_supported": ["header"],
        });
        let url = verifier.metadata_url();
        let path = url::Url::parse(&url)
            .map(|u| u.path().to_owned())
            .unwrap_or_default();
        let mut paths = vec!["/.well-known/oauth-protected-resource".to_owned()];
        if path != paths[0] && !path.is_empty() {
            paths.push(path);
        }
        return Some((paths, document));
    }
    let _ = (auth, scopes);
    None
}

/// What a connection's requests are answered by: `/mcp` (and paths under it) through the
/// [`Guard`] to rmcp, and with OAuth, the Protected Resource Metadata document. Routed by hand
/// rather than by an `axum::Router`: the router cloned rmcp's service (its configuration, host
/// and origin lists included) and boxed its answer for every request, 6 % of the server's
/// instructions per call (BENCHMARKS.md, issue 26); rmcp's `handle` answers from a shared reference.
struct Endpoint<H, M> {
    guard: Guard,
    mcp: StreamableHttpService<H, M>,
    /// The document and the paths it is served at.
    metadata: Option<(Vec<String>, Arc<str>)>,
    /// What `/healthz` and `/readyz` answer from.
    health: Health,
}

/// `GET /healthz` (the process answers) and `GET /readyz` (it serves: not stopping, and the
/// shared store answering when there is one), for load balancers. Neither needs authentication
/// nor says more than its status: a load balancer's check carries no token.
struct Health {
    stopping: CancellationToken,
    #[cfg(feature = "redis")]
    redis: Option<Arc<self::redis::Redis>>,
    /// Whether the last `/readyz` said ready: a change is logged, not every check.
    ready: std::sync::atomic::AtomicBool,
}

/// The paths the health checks are served at.
pub(crate) const HEALTH_PATHS: [&str; 2] = ["/healthz", "/readyz"];

impl Health {
    async fn answer(&self, path: &str, method: &Method) -> Response {
        if !matches!(*method, Method::GET | Method::HEAD) {
            return (
                StatusCode::METHOD_NOT_ALLOWED,
                [(header::ALLOW, "GET,HEAD")],
            )
                .into_response();
        }
        let json = |status: StatusCode, body: serde_json::Value| {
            (
                status,
                [
                    (header::CONTENT_TYPE, "application/json"),
                    (header::CACHE_CONTROL, "no-store"),
                ],
                body.to_string(),
            )
                .into_response()
        };
        if path == "/healthz" {
            return json(StatusCode::OK, serde_json::json!({"status": "ok"}));
        }
        let problem = self.problem().await;
        let ready = problem.is_none();
        let was = self.ready.swap(ready, std::sync::atomic::Ordering::Relaxed);
        match &problem {
            Some(problem) if was => tracing::warn!(%problem, "not ready: /readyz answers 503"),
            None if !was => tracing::info!("ready again: /readyz answers 200"),
            _ => {}
        }
        match problem {
            None => json(StatusCode::OK, serde_json::json!({"status": "ready"})),
            Some(problem) => {
                let mut response = json(
                    StatusCode::SERVICE_UNAVAILABLE,
                    serde_json::json!({"status": "not ready", "reason": problem}),
                );
                response.headers_mut().insert(
                    header::RETRY_AFTER,
                    axum::http::HeaderValue::from_static("1"),
                );
                response
            }
        }
    }

    /// Why the server should not get requests now, if it should not.
    async fn problem(&self) -> Option<String> {
        if self.stopping.is_cancelled() {
            return Some("stopping".to_owned());
        }
        #[cfg(feature = "redis")]
        if let Some(redis) = &self.redis
            && let Err(e) = redis.ping(Duration::from_secs(1)).await
        {
            return Some(format!(
                "the shared store (Redis) does not answer: {}",
                crate::echo::bounded(&e, 200)
            ));
        }
        None
    }
}

impl<H, M> conn::Answer for Endpoint<H, M>
where
    H: rmcp::ServerHandler + Send + 'static,
    M: rmcp::transport::streamable_http_server::SessionManager,
{
    async fn answer(&self, request: Request, peer: SocketAddr, visit: &conn::Visit) -> Response {
        let path = request.uri().path();
        if HEALTH_PATHS.contains(&path) {
            visit.delivered();
            return self.health.answer(path, request.method()).await;
        }
        let mcp = path
            .strip_prefix(MCP_PATH)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'));
        if mcp {
            let mut parsed = false;
            let response = guard_request(&self.guard, request, peer, visit, async |request| {
                parsed = true;
                let delete = request.method() == Method::DELETE;
                let mut response = self.mcp.handle(request).await.map(Body::new);
                // rmcp answers a session's `DELETE` `202 Accepted`; the session is gone when it
                // answers, and the Python SDK (1.x) logs a warning for anything but 200 or 204
                // at every session's end (LangChain's adapters end one per call).
                if delete && response.status() == StatusCode::ACCEPTED {
                    *response.status_mut() = StatusCode::NO_CONTENT;
                }
                response
            })
            .await;
            if !parsed {
                // Refused by the guard (authentication, Origin, size, time, session owner):
                // logged and counted, never spanned (nothing of MCP was read).
                let status = response.status().as_u16();
                // An unauthenticated one is logged, with why, where it was refused.
                if status != 401 {
                    tracing::info!(status, %peer, "HTTP request refused before MCP read it");
                }
                crate::telemetry::mcp::refused_unread(status);
            }
            return response;
        }
        if let Some((paths, document)) = &self.metadata
            && paths.iter().any(|p| p == path)
        {
            visit.delivered();
            return match *request.method() {
                Method::GET | Method::HEAD => (
                    [(header::CONTENT_TYPE, "application/json")],
                    document.to_string(),
                )
                    .into_response(),
                _ => (
                    StatusCode::METHOD_NOT_ALLOWED,
                    [(header::ALLOW, "GET,HEAD")],
                )
                    .into_response(),
            };
        }
        // Anywhere else: still through the guard (a caller learns nothing unauthenticated).
        guard_request(&self.guard, request, peer, visit, async |_| {
            StatusCode::NOT_FOUND.into_response()
        })
        .await
    }
}

/// A request as it arrives.
type Request = hyper::Request<Incoming>;

/// A request as the guard passes it on: a `POST`'s body read whole, any other's as it came.
type Guarded = hyper::Request<Either<Full<Bytes>, Incoming>>;

/// Authentication, the session's owner, the body's size, shape and time, the tool's scopes, and
/// the session's state, before rmcp parses the request (`next`).
async fn guard_request(
    guard: &Guard,
    request: Request,
    peer: SocketAddr,
    visit: &conn::Visit,
    next: impl AsyncFnOnce(Guarded) -> Response,
) -> Response {
    let caller = match guard.auth.check(request.headers()).await {
        Ok(caller) => caller,
        Err(denied) => {
            tracing::info!(?denied, "unauthenticated request refused");
            return guard.auth.unauthorized(&denied);
        }
    };
    if guard.auth.required() {
        visit.authenticated();
    }
    let (mut parts, body) = request.into_parts();
    let principal = caller.principal.clone();
    // Before anything keyed by the session is looked at: a session that is not the caller's
    // is answered as one that does not exist.
    let session = match admit(guard, &parts, principal.as_ref()).await {
        Ok(session) => session,
        Err(refusal) => return refusal,
    };
    // One place awaits rmcp (`next`), whatever the request: the future holding it is the
    // biggest part of a request's, and each await of it would take a copy of that room.
    let post = parts.method == Method::POST;
    // rmcp answers `415` both to a body of another type and to a JSON body it cannot parse.
    let json_content = post
        && parts
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    let resume = (parts.method == Method::GET)
        .then(|| parts.headers.get("last-event-id").cloned())
        .flatten();
    // A `POST`'s place among the requests parsed at once is held until rmcp has answered
    // (and parsed it again).
    // A `POST`'s body is kept (a reference count) for the one case rmcp's parse fails: then it
    // is read again to tell the client what was wrong (`unparsed`).
    let small = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .is_some_and(|n| n <= SMALL_BODY);
    let (body, parsing, sent) = if post {
        // A reserve slot's body, or a small one, takes no place among the bodies read at once.
        let queue = !(small || visit.on_reserve());
        match read_message(guard, &caller, session.as_ref(), body, queue).await {
            Ok((bytes, parsing)) => (Either::Left(Full::new(bytes.clone())), parsing, Some(bytes)),
            Err(refusal) => return refusal,
        }
    } else {
        (Either::Right(body), None, None)
    };
    if visit.on_reserve() && !for_a_stop(guard, sent.as_deref()) {
        return reserved();
    }
    // What the call holds of its session's and its client's confirmations, until its answer
    // has been sent (`None`: not a call that asks).
    let held = match sent.as_deref().map(|bytes| {
        guard
            .pending
            .enter(bytes, session.as_ref().map(|(id, _)| id), &caller, peer)
    }) {
        Some(pending::Entered::Refused(refusal)) => return refusal,
        Some(pending::Entered::Held(held)) => Some(held),
        Some(pending::Entered::Uncounted) | None => None,
    };
    visit.delivered();
    let (turn, known) = session_turn(guard, session.as_ref()).await;
    // One extension for all the toolbox learns of the caller (each insert allocates).
    let requester = Requester {
        principal: principal.as_ref().map(Principal::shared),
        session: known,
        peer: Some(peer),
    };
    parts.extensions.insert(requester);
    let mut serve = std::pin::pin!(sessions::serving(
        principal,
        next(hyper::Request::from_parts(parts, body)),
    ));
    let mut response = serve.as_mut().await;
    drop((parsing, turn));
    if let Some(held) = held {
        response = held.until_answered(response);
    }
    if let Some(sent) = sent
        && response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE
        && json_content
    {
        response = unparsed(&sent);
    }
    if post && streamed(&response) {
        // rmcp's event stream for a request is filled by tasks woken with this one: the call's
        // answer (session wire: after the priming event) and the stream's end (the 2026
        // wire: when the request's one-shot service stops). Yielding once lets them run before
        // hyper writes the head, so a quick call's head, answer and end leave in one write
        // rather than two (BENCHMARKS.md, issue 26): half the writes, packets and client
        // wake-ups per call. A call still running is not waited for.
        tokio::task::yield_now().await;
    }
    let Some(last_event_id) = resume.filter(|_| sessions::unresumable(serve)) else {
        return response;
    };
    let last_event_id = last_event_id.to_str().unwrap_or("(not text)");
    tracing::info!(last_event_id = %echo(last_event_id), "an event stream could not be resumed here");
    (
        StatusCode::BAD_REQUEST,
        "Bad Request: the event stream named by Last-Event-ID cannot be resumed: the server \
         that was answering its request has stopped, or the stream is gone, so that answer \
         is lost. Send the request again if it is safe to repeat.",
    )
        .into_response()
}

/// The answer to a JSON body rmcp could not parse (rmcp says `415 Unsupported Media Type` in
/// plain text): `400` with the JSON-RPC error that fits (`crate::wire::classify`), with the
/// request's id when one can be read. Only built when rmcp's parse failed.
fn unparsed(body: &[u8]) -> Response {
    let refusal = crate::wire::classify(body, None);
    tracing::info!(
        code = refusal.code,
        message = %refusal.message,
        "HTTP: invalid message refused"
    );
    json_rpc_refusal(StatusCode::BAD_REQUEST, &refusal)
}

/// `status` with a JSON-RPC error message as its body.
fn json_rpc_refusal(status: StatusCode, refusal: &crate::wire::Refusal) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        refusal.to_json(),
    )
        .into_response()
}

/// `413` with a JSON-RPC error (`-32600`, id null: the body was not read).
fn too_large(message: String) -> Response {
    json_rpc_refusal(
        StatusCode::PAYLOAD_TOO_LARGE,
        &crate::wire::Refusal {
            code: crate::wire::INVALID_REQUEST,
            message,
            id: None,
            answer: true,
        },
    )
}

/// Whether an answer is an event stream (rmcp's answer to a request it runs, as opposed to a
/// refusal, a notification's `202` or a JSON answer).
fn streamed(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"))
}

/// Whether a request on a reserve slot is what a stop needs: a stop tool's call, or a new
/// session's `initialize` or `notifications/initialized` (protocol 2025-11-25 calls need one).
fn for_a_stop(guard: &Guard, sent: Option<&[u8]>) -> bool {
    let Some(peek) = sent.and_then(body::peek) else {
        return false;
    };
    match peek.method.as_deref() {
        Some("initialize" | "notifications/initialized") => true,
        Some("tools/call") => peek.tool().is_some_and(|tool| guard.stops.contains(tool)),
        _ => false,
    }
}

/// The answer on a reserve slot to anything but what a stop needs: every other slot is busy.
fn reserved() -> Response {
    tracing::info!(
        "request refused on a reserve connection: every slot is busy, only a stop is served"
    );
    let mut response = (
        StatusCode::SERVICE_UNAVAILABLE,
        "Service Unavailable: every connection slot is busy; only a stop tool's call is served \
         now. Try again shortly.",
    )
        .into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::RETRY_AFTER,
        axum::http::HeaderValue::from_static("1"),
    );
    headers.insert(
        header::CONNECTION,
        axum::http::HeaderValue::from_static("close"),
    );
    response
}

/// A `POST`'s body, read within its limits (size, time, and, when `queue`, requests parsed at
/// once) and checked ([`check_message`]), with its place among the requests parsed at once;
/// otherwise the answer that refuses it.
async fn read_message<'g>(
    guard: &'g Guard,
    caller: &Caller,
    session: Option<&(Arc<str>, Admission)>,
    body: Incoming,
    queue: bool,
) -> Result<(Bytes, Option<tokio::sync::SemaphorePermit<'g>>), Response> {
    let parsing = if queue {
        let Ok(parsing) = guard.parsing.acquire().await else {
            return Err(StatusCode::SERVICE_UNAVAILABLE.into_response());
        };
        Some(parsing)
    } else {
        None
    };
    let bytes = match body::read(body, guard.max_body, guard.body_timeout).await {
        Ok(bytes) => bytes,
        Err(body::BodyError::TooLarge { limit }) => {
            return Err(too_large(format!(
                "Payload Too Large: the body exceeds {limit} bytes"
            )));
        }
        Err(body::BodyError::TooSlow { timeout }) => {
            return Err((
                StatusCode::REQUEST_TIMEOUT,
                format!("Request Timeout: the body did not arrive within {timeout:?}"),
            )
                .into_response());
        }
        Err(body::BodyError::Broken(e)) => {
            return Err((StatusCode::BAD_REQUEST, format!("Bad Request: {e}")).into_response());
        }
    };
    if let Some(values) = body::too_many_values(&bytes, guard.max_values) {
        return Err(too_large(format!(
            "Payload Too Large: the body holds about {values} JSON values, more than the {} allowed",
            guard.max_values
        )));
    }
    if let Some(refusal) = check_message(guard, caller, session, &bytes).await {
        return Err(refusal);
    }
    Ok((bytes, parsing))
}

/// The session a request names, if the caller may name it ([`SessionTable::admit`]): otherwise
/// the answer, `404` exactly as rmcp answers a session it does not have (a `DELETE` of a session
/// no replica has too, which rmcp would accept), or `503` when the shared store is down.
async fn admit(
    guard: &Guard,
    parts: &axum::http::request::Parts,
    principal: Option<&Principal>,
) -> Result<Option<(Arc<str>, Admission)>, Response> {
    if !guard.with_sessions {
        return Ok(None);
    }
    let Some(id) = parts.headers.get(&SESSION_ID).and_then(|v| v.to_str().ok()) else {
        return Ok(None);
    };
    match guard.sessions.admit(id, principal).await {
        Admission::NotFound => Err(session_not_found()),
        Admission::Unknown if parts.method == Method::DELETE => Err(session_not_found()),
        #[cfg(feature = "redis")]
        Admission::StoreDown => Err((
            StatusCode::SERVICE_UNAVAILABLE,
            "Service Unavailable: the session store cannot be reached; try again later",
        )
            .into_response()),
        Admission::Here { id, initialized } => {
            Ok(Some((Arc::clone(&id), Admission::Here { id, initialized })))
        }
        admitted => Ok(Some((Arc::from(id), admitted))),
    }
}

/// Parsed once: a header looked up by `&str` has its name parsed on every lookup.
static SESSION_ID: header::HeaderName = header::HeaderName::from_static("mcp-session-id");

/// rmcp's answer to a request naming a session it does not have, byte for byte.
fn session_not_found() -> Response {
    Response::builder()
        .status(StatusCode::NOT_FOUND)
        .body(Body::from("Not Found: Session not found"))
        .unwrap_or_else(|_| StatusCode::NOT_FOUND.into_response())
}

/// The request's session, once admitted: one this replica holds is returned as known (what
/// rate limits key on: a client cannot pick a fresh identity for each request by sending
/// made-up session ids); for one it does not hold yet, the request's turn
/// ([`SessionTable::turn`](sessions::SessionTable::turn)), held while rmcp answers.
async fn session_turn(
    guard: &Guard,
    session: Option<&(Arc<str>, Admission)>,
) -> (Option<impl Sized + use<>>, Option<Arc<str>>) {
    let Some((id, admission)) = session else {
        return (None, None);
    };
    if let Admission::Here { .. } = admission {
        return (None, Some(Arc::clone(id)));
    }
    (guard.sessions.turn(id).await, None)
}

/// The checks that need the message: the tool's scopes, and the session's state.
async fn check_message(
    guard: &Guard,
    caller: &Caller,
    session: Option<&(Arc<str>, Admission)>,
    bytes: &[u8],
) -> Option<Response> {
    // The body is parsed here only when a check below depends on it: the tools' scopes (with
    // authentication), a new session while the table is full, or a session whose handshake
    // this replica has not seen complete (as admitted: a handshake that completed since is
    // asked again below). Otherwise rmcp's parse is the only one.
    let needed = guard.auth.required()
        || match session {
            None => guard.sessions.len() >= guard.sessions.max(),
            Some((_, Admission::Here { initialized, .. })) => !initialized,
            Some((id, _)) => guard.sessions.initialized_here(id) == Some(false),
        };
    if !needed {
        return None;
    }
    let Some(peek) = body::peek(bytes) else {
        // Not a single JSON-RPC message: rmcp refuses it (and `unparsed` words the answer),
        // unless scopes must be checked: then it is refused here, the same way.
        return guard.auth.required().then(|| unparsed(bytes));
    };
    if let Some(tool) = peek.tool()
        && let Some(needed) = guard.scopes.get(tool)
    {
        let missing = caller.missing(needed);
        if !missing.is_empty() {
            tracing::info!(tool, ?missing, "call refused: insufficient scope");
            return Some(guard.auth.insufficient_scope(tool, needed, &missing));
        }
    }
    match (session, peek.method.as_deref()) {
        (None, Some("initialize")) if guard.sessions.len() >= guard.sessions.max() => {
            let mut r = (
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "Service Unavailable: {} sessions are open, the most this server keeps; try again later",
                    guard.sessions.max()
                ),
            )
                .into_response();
            r.headers_mut().insert(
                header::RETRY_AFTER,
                axum::http::HeaderValue::from_static("5"),
            );
            Some(r)
        }
        (Some((id, _)), Some(method))
            if peek.is_request()
                && method != "ping"
                && method != "initialize"
                && guard.sessions.initialized(id).await == Some(false) =>
        {
            Some(
                (
                    StatusCode::BAD_REQUEST,
                    "Bad Request: complete the session's handshake first (send \
                     notifications/initialized after the initialize response)",
                )
                    .into_response(),
            )
        }
        _ => None,
    }
}
