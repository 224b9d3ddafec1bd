//! Serving a toolbox: rmcp's [`ServerHandler`], stdio, any rmcp transport, a [`ToolRouter`] for
//! a handler of your own, waiting for the calls in flight when serving ends, and [`ServeError`].

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, GetSkillRequestParams, GetSkillResult,
    Implementation, ListResourcesResult, ListSkillsResult, ListToolsResult, MetaObject,
    PaginatedRequestParams, ProtocolVersion, ReadResourceDirectoryRequestParams,
    ReadResourceDirectoryResult, ReadResourceRequestParams, ReadResourceResponse, ResultType,
    ServerCapabilities, ServerConfig, SubscriptionFilter, Tool,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use tokio_util::sync::CancellationToken;

use super::call::CallSite;
use super::tasks::TaskAsk;
use super::{Inner, Toolbox, read};
use crate::exec;
use crate::exec::arrival::{Arrivals, Ordered};
use crate::tasks::Stopping;
use crate::telemetry::mcp::{Ending, NoteValue, Request, RequestSpan, Transport};

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// Shares state with the other replicas through `redis` from now on: rate limits,
    /// approvals and tasks; requests for this replica's tasks passed on by the others are
    /// answered here.
    #[cfg(feature = "redis")]
    pub(crate) fn share(&self, redis: Arc<dyn super::SharedStore>) {
        redis.answer_tasks(self.remote_tasks());
        let _ = self.inner.shared.set(redis);
    }

    /// What waits for the calls in flight (and their safe stops) when serving ends.
    pub(crate) fn calls_in_flight(&self) -> CallsInFlight {
        let longest_grace = self
            .inner
            .entries
            .iter()
            .filter_map(|e| e.policy.grace)
            .chain(self.inner.config.default_grace)
            .max()
            .unwrap_or(crate::exec::policy::DEFAULT_GRACE)
            .max(crate::exec::policy::DEFAULT_GRACE);
        let inner = Arc::clone(&self.inner);
        CallsInFlight {
            tracker: self.inner.calls.tracker.clone(),
            limit: longest_grace + exec::SAFE_STOP_LIMIT + Duration::from_secs(1),
            shut_down: Arc::new(move || shut_down(&inner)),
        }
    }

    /// The stop tools (`stop_for`), by name: what a reserve connection serves.
    #[cfg(feature = "http")]
    pub(crate) fn stop_tools(&self) -> Vec<String> {
        self.inner
            .entries
            .iter()
            .filter(|e| !e.policy.stops.is_empty())
            .map(|e| e.name.to_string())
            .collect()
    }

    /// The tools that ask for confirmation when it is on (`confirm = ".."`; a stop tool never
    /// asks), by name.
    #[cfg(feature = "http")]
    pub(crate) fn confirming_tools(&self) -> Vec<String> {
        self.inner
            .entries
            .iter()
            .filter(|e| e.meta.confirm.is_some() && e.policy.stops.is_empty())
            .map(|e| e.name.to_string())
            .collect()
    }

    /// Whether confirmation is on now, read at each call ([`Toolbox::set_confirmation`]).
    #[cfg(feature = "http")]
    pub(crate) fn confirmation_switch(&self) -> Arc<dyn Fn() -> bool + Send + Sync> {
        let inner = Arc::downgrade(&self.inner);
        Arc::new(move || {
            inner
                .upgrade()
                .is_some_and(|inner| inner.confirm.load(std::sync::atomic::Ordering::Relaxed))
        })
    }

    /// Whether any tool uses a resource (a device that one process must own).
    #[cfg(feature = "redis")]
    pub(crate) fn uses_resources(&self) -> bool {
        !self.inner.resources.is_empty()
    }

    /// Serves over stdin/stdout until the client disconnects. Logs must go to stderr.
    ///
    /// Stdin closing before a client initialized the session (Ctrl-D in a terminal) is a normal
    /// end, not an error.
    ///
    /// Which runtime: over stdio one client sends its requests in order, and sync tool bodies
    /// run on tokio's blocking pool (unless declared `blocking = false`), so a current-thread
    /// runtime (`#[tokio::main(flavor = "current_thread")]`) answers fastest: 0.97–1.05× the
    /// time per call of an rmcp server on `#[tokio::main]`'s multi-thread runtime, against
    /// 1.01–1.10× for toolwright on that runtime (BENCHMARKS.md, issue 26). Serve HTTP, where many clients call
    /// at once, on a multi-thread runtime. `ToolboxBuilder::run_cli_main` (feature `cli`) picks by the
    /// command line.
    ///
    /// The client is gone when stdin closes: its calls are told to stop at once (a grace period
    /// of at most 2 s, then their safe stops), its calls still waiting for a resource or for its
    /// user never run, and its tasks that hold a resource with a safe stop are cancelled (no
    /// other connection can ask after them). On `SIGTERM` or `SIGINT` (Ctrl-C) every running
    /// call and task is stopped the same way, and it returns once their safe stops ran.
    pub async fn serve_stdio(self) -> Result<(), ServeError> {
        self.serve_stdio_as(|connection| connection).await
    }

    /// [`Toolbox::serve_stdio`] with the handler `make` builds around the connection's toolbox
    /// answering (a handler of the user's own that delegates tools to this toolbox: see
    /// [`ToolboxBuilder::with_handler`](crate::ToolboxBuilder::with_handler)).
    pub(crate) async fn serve_stdio_as<H: ServerHandler>(
        self,
        make: impl FnOnce(Toolbox<S>) -> H,
    ) -> Result<(), ServeError> {
        let calls = self.calls_in_flight();
        tracing::info!(
            tools = read(&self.inner.listed).len(),
            revisions = REVISIONS,
            "serving MCP on stdio"
        );
        // Stdin read on a thread of its own (`stdin.rs`): a signal's exit is not held by a read.
        let input = super::stdin::stdin()
            .map_err(|e| ServeError(format!("cannot start reading stdin: {e}")))?;
        let stdio = self.lines(input, tokio::io::stdout());
        let inner = Arc::clone(&self.inner);
        let running = match self.serve_as(make, stdio).await {
            Ok(running) => running,
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => {
                tracing::info!("stdin closed before a client connected");
                return Ok(());
            }
            Err(e) => return Err(ServeError(e.to_string())),
        };
        tracing::info!("MCP session started on stdio");
        let started = std::time::Instant::now();
        let service = running.cancellation_token();
        let mut waiting = std::pin::pin!(running.waiting());
        let ended = tokio::select! {
            ended = &mut waiting => ended,
            signal = shutdown_signal() => {
                tracing::warn!(signal, "stopping every call and task, and running their safe stops, before exiting");
                shut_down(&inner);
                service.cancel();
                waiting.await
            }
        };
        crate::telemetry::mcp::session_ended(started, Transport::Pipe);
        // Let the calls stopped (stdin closed, or a signal) wind down and their safe stops run
        // before the process may end.
        calls.wait().await;
        ended.map_err(|e| ServeError(e.to_string()))?;
        Ok(())
    }

    /// Serves newline-delimited JSON-RPC on `read` and `write` (a pipe, a socket, a serial
    /// line) as [`Toolbox::serve_stdio`] serves stdin and stdout, and returns rmcp's running
    /// service: every line that is not a valid message is answered with its JSON-RPC error
    /// (`-32700`, or `-32600` / `-32602` with its id when one can be read; never a response or
    /// a notification, and at most 20 at once then 10 a second), and a line longer than the
    /// message size limit (the argument limit plus 64 KiB) is refused as it streams in, never
    /// held whole. See "Every message answered" in [`crate::reference`].
    pub async fn serve_lines<R, W>(
        self,
        read: R,
        write: W,
    ) -> Result<rmcp::service::RunningService<RoleServer, Self>, rmcp::service::ServerInitializeError>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        let lines = self.lines(read, write);
        self.serve_as(|connection| connection, lines).await
    }

    /// The line transport on `read` and `write`, with protocol 2025-11-25's task declarations
    /// added to what it writes (`tasks/legacy.rs`).
    fn lines<R, W>(
        &self,
        read: R,
        write: W,
    ) -> crate::wire::lines::Lines<R, crate::tasks::legacy::LegacyOut<W>>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        let out = crate::tasks::legacy::LegacyOut::new(write, self.serves_tasks());
        crate::wire::lines::Lines::new(read, out, self.max_message_bytes())
    }

    /// The largest message read (a stdio line, an HTTP body by default): the argument limit
    /// plus room for the envelope.
    pub(crate) fn max_message_bytes(&self) -> usize {
        self.max_argument_bytes()
            .saturating_add(crate::wire::ENVELOPE_BYTES)
    }

    /// Serves the toolbox over any rmcp transport (a `(reader, writer)` pair, a
    /// `tokio::io::duplex` end, a child's pipes, …) and returns rmcp's running service. Unlike
    /// rmcp's `ServiceExt::serve`, which it wraps, it stamps each `tools/call` as the transport
    /// reads it, so calls sharing a resource run in the order the client sent them. The
    /// connection is a session of its own: the log level its client sets is its own.
    ///
    /// The client is gone when the transport's input ends (not when rmcp gives up on the calls
    /// in flight, 5 s later): its calls are told to stop at once, with a grace period of at
    /// most 2 s, then their safe stops run; its calls still waiting for a resource or for its
    /// user never run; its tasks that hold a resource with a safe stop are cancelled (no other
    /// connection can ask after them); and a `subscriptions/listen` it left open ends.
    pub async fn serve<T, E, A>(
        self,
        transport: T,
    ) -> Result<rmcp::service::RunningService<RoleServer, Self>, rmcp::service::ServerInitializeError>
    where
        T: rmcp::transport::IntoTransport<RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        self.serve_as(|connection| connection, transport).await
    }

    /// [`Toolbox::serve`] with the handler `make` builds around the connection's toolbox
    /// answering: calls are still stamped by this toolbox as the transport reads them, and
    /// stopped when its input ends.
    pub(crate) async fn serve_as<H, T, E, A>(
        self,
        make: impl FnOnce(Toolbox<S>) -> H,
        transport: T,
    ) -> Result<rmcp::service::RunningService<RoleServer, H>, rmcp::service::ServerInitializeError>
    where
        H: ServerHandler,
        T: rmcp::transport::IntoTransport<RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let connection = self.for_new_session();
        let session = Arc::clone(&connection.session);
        let handler = make(connection);
        let (input_ended, dropped) = (CancellationToken::new(), CancellationToken::new());
        let ordered = Ordered::new(transport.into_transport(), self.arrivals())
            .watched(input_ended.clone(), dropped.clone());
        let running = rmcp::ServiceExt::serve(handler, ordered).await?;
        let service = running.cancellation_token();
        let inner = Arc::clone(&self.inner);
        tokio::spawn(async move {
            tokio::select! {
                // The input's end first: rmcp drops the transport soon after it.
                biased;
                () = input_ended.cancelled() => {}
                () = dropped.cancelled() => return,
            }
            tracing::info!("the client's input ended: the client is gone; stopping its calls");
            session.depart();
            let owner = super::call::connection_owner(&session);
            let tasks = inner.tasks.stop_all(Some(&owner), Stopping::ClientGone);
            if tasks > 0 {
                tracing::warn!(tasks, "stopping the tasks of the client that went away");
            }
            service.cancel();
        });
        Ok(running)
    }

    /// What places arriving calls in the resources' queues.
    pub(crate) fn arrivals(&self) -> Arc<dyn Arrivals> {
        Arc::clone(&self.inner) as Arc<dyn Arrivals>
    }

    /// The tools as an rmcp [`ToolRouter`] for a handler `H` of your own, to merge with routers
    /// from rmcp's `#[tool_router]`. Calls still go through toolwright's validation.
    pub fn into_tool_router<H: Send + Sync + 'static>(self) -> ToolRouter<H> {
        let mut router = ToolRouter::new();
        for entry in &self.inner.entries {
            let inner = Arc::clone(&self.inner);
            let name = Arc::clone(&entry.name);
            router.add_route(ToolRoute::new_dyn(entry.tool.clone(), move |ctx| {
                let inner = Arc::clone(&inner);
                let name = Arc::clone(&name);
                let site = CallSite::from_request(&ctx.request_context, None, None);
                let arguments = ctx.arguments;
                Box::pin(async move { Inner::call(&inner, &name, arguments, site).await })
            }));
        }
        router
    }
}

/// The server is shutting down: every call and task it runs is told so (their transports then
/// cancel the calls, and the cancels say the server is shutting down).
fn shut_down<S>(inner: &Inner<S>) {
    inner.calls.shut_down();
    let tasks = inner.tasks.stop_all(None, Stopping::Shutdown);
    tracing::info!(
        calls = inner.calls.tracker.len(),
        tasks,
        "shutting down: stopping the calls and tasks in flight"
    );
}

/// Completes with the signal's name on `SIGTERM` or `SIGINT` (Ctrl-C); never where neither can
/// be listened for.
pub(crate) async fn shutdown_signal() -> &'static str {
    let interrupt = async {
        match tokio::signal::ctrl_c().await {
            Ok(()) => "SIGINT",
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for SIGINT");
                std::future::pending().await
            }
        }
    };
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let terminate = async {
            match signal(SignalKind::terminate()) {
                Ok(mut term) => {
                    term.recv().await;
                    "SIGTERM"
                }
                Err(e) => {
                    tracing::warn!(error = %e, "cannot listen for SIGTERM");
                    std::future::pending().await
                }
            }
        };
        tokio::select! {
            name = interrupt => name,
            name = terminate => name,
        }
    }
    #[cfg(not(unix))]
    interrupt.await
}

/// The calls in flight of a toolbox, to wait for when serving ends (bounded by the longest grace
/// period plus the time a safe stop may take), and how to tell them the server is shutting down.
#[derive(Clone)]
pub(crate) struct CallsInFlight {
    tracker: tokio_util::task::TaskTracker,
    limit: Duration,
    shut_down: Arc<dyn Fn() + Send + Sync>,
}

impl fmt::Debug for CallsInFlight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallsInFlight")
            .field("calls", &self.tracker.len())
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

impl CallsInFlight {
    /// The server is shutting down: the calls and tasks it runs are told so, before their
    /// transports cancel them.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn shut_down(&self) {
        (self.shut_down)();
    }

    /// Waits until no call is in flight, at most the limit.
    pub(crate) async fn wait(&self) {
        if self.tracker.is_empty() {
            return;
        }
        tracing::info!(
            calls = self.tracker.len(),
            "waiting for the calls in flight to end"
        );
        self.tracker.close();
        if tokio::time::timeout(self.limit, self.tracker.wait())
            .await
            .is_err()
        {
            tracing::error!(
                calls = self.tracker.len(),
                "calls still in flight at shutdown"
            );
        }
        self.tracker.reopen();
    }
}

/// The toolbox could not be served (transport or protocol failure).
#[derive(Debug, Clone)]
pub struct ServeError(String);

impl ServeError {
    /// An error with a message.
    pub fn new(message: impl Into<String>) -> Self {
        ServeError(message.into())
    }
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MCP server stopped: {}", self.0)
    }
}

impl std::error::Error for ServeError {}

/// The protocol revisions a toolbox serves, as its start-up line names them.
pub(crate) const REVISIONS: &str = "2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05";

/// The `_meta` key of the server's identity in a result (protocol 2026-07-28).
const SERVER_INFO_META_KEY: &str = "io.modelcontextprotocol/serverInfo";

impl<S: Send + Sync + 'static> ServerHandler for Toolbox<S> {
    fn get_info(&self) -> ServerConfig {
        let config = &self.inner.config;
        let mut info = Implementation::new(config.name.clone(), config.version.clone());
        if let Some(title) = &config.title {
            info = info.with_title(title.clone());
        }
        // `logging` is deprecated by SEP-2577 (opt-in per request on protocol 2026-07-28);
        // clients of earlier protocols still look for it before `logging/setLevel`.
        #[allow(deprecated)]
        let capabilities = ServerCapabilities::builder()
            .enable_logging()
            .enable_tools()
            .enable_tool_list_changed()
            .build();
        let mut capabilities = capabilities;
        if self.has_skill() {
            // SEP-2640: skill files are resources, and the extension's settings sit inline.
            capabilities.resources.get_or_insert_with(Default::default);
            let skills = ServerCapabilities::builder()
                .enable_skills_with_directory_read()
                .build();
            capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .extend(skills.extensions.unwrap_or_default());
        }
        if self.serves_tasks() {
            // SEP-2663: tasks are an extension on protocol 2026-07-28, declared inline.
            capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .insert(
                    rmcp::model::TASKS_EXTENSION_ID.to_owned(),
                    rmcp::model::JsonObject::new(),
                );
        }
        let mut server = ServerConfig::new(capabilities).with_server_info(info);
        if let Some(instructions) = &config.instructions {
            server = server.with_instructions(instructions.clone());
        }
        server
    }

    /// `initialize` (protocol 2025-11-25 and earlier; 2026-07-28 has `server/discover`): rmcp's
    /// negotiation, without the tasks extension. On those revisions a task exists only for a
    /// task-augmented request, declared by the `tasks` capability (stdio adds it, see
    /// `crate::tasks::legacy`); the extension's server-directed tasks are 2026-07-28's.
    async fn initialize(
        &self,
        request: rmcp::model::InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let traced = request_span(&context, "initialize", None, request.meta.as_ref());
        let negotiated = self.negotiate_initialize(&request);
        traced.end(match &negotiated {
            Ok(_) => Ending::Ok,
            Err(e) => Ending::Error(e.code.0),
        });
        let mut result = negotiated?;
        if let Some(extensions) = &mut result.capabilities.extensions {
            extensions.remove(rmcp::model::TASKS_EXTENSION_ID);
            if extensions.is_empty() {
                result.capabilities.extensions = None;
            }
        }
        Ok(result)
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        request_span(
            &context,
            "tools/list",
            None,
            request.as_ref().and_then(|r| r.meta.as_ref()),
        )
        .end(Ending::Ok);
        // Protocol 2026-07-28: the caching hints (SEP-2549; `ttlMs` 0 as groups may change the
        // list at any time, told on `subscriptions/listen`; the same list for every client) and
        // the server's identity in `_meta`.
        let on_2026 = context
            .protocol_version()
            .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28);
        let meta = on_2026.then(|| {
            let mut meta = MetaObject::default();
            meta.0.insert(
                SERVER_INFO_META_KEY.to_owned(),
                serde_json::to_value(self.get_info().server_info).unwrap_or_default(),
            );
            meta
        });
        Ok(ListToolsResult {
            result_type: Some(ResultType::COMPLETE),
            tools: read(&self.inner.listed).clone(),
            meta,
            next_cursor: None,
            ttl_ms: on_2026.then_some(0),
            cache_scope: on_2026.then_some(CacheScope::Public),
        })
    }

    /// Boxed: rmcp spawns every request as a task, copying its future into the task and out
    /// again; behind a pointer, the call's state (kilobytes) is not among what is copied
    /// (BENCHMARKS.md, issue 26).
    fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CallToolResponse, ErrorData>> + Send + '_ {
        Box::pin(self.call_tool_unboxed(request, context))
    }

    /// `ping`: answered at once (spanned like every request).
    async fn ping(&self, context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        request_span(&context, "ping", None, None).end(Ending::Ok);
        Ok(())
    }

    /// `server/discover` (protocol 2026-07-28): rmcp's answer, spanned like every request.
    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::DiscoverResult, ErrorData> {
        request_span(&context, "server/discover", None, None).end(Ending::Ok);
        Ok(rmcp::model::DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            self.get_info(),
        ))
    }

    /// `tasks/get` (the tasks extension, protocol 2026-07-28): the task with its result, error
    /// or questions.
    async fn get_task(
        &self,
        request: rmcp::model::GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::GetTaskResult, ErrorData> {
        let traced = request_span(&context, "tasks/get", None, None);
        ended(
            traced,
            async { Box::pin(self.get_task_now(&request, &context)).await }.await,
        )
    }

    /// Protocol 2025-11-25's task requests (`tasks/result`, `tasks/list`, and the renamed
    /// task-augmented `tools/call`, `tasks/get`, `tasks/cancel`); any other method is unknown.
    async fn on_custom_request(
        &self,
        request: rmcp::model::CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CustomResult, ErrorData> {
        use crate::tasks::legacy::{CALL_2025, wire_method};
        if request.method == CALL_2025 {
            // A `tools/call`: spanned as one, by the call itself.
            return Box::pin(self.legacy_task_request(request, context)).await;
        }
        let traced = request_span(&context, wire_method(&request.method), None, None);
        ended(
            traced,
            async {
                // Boxed, like the rare paths of a call: inline, it would grow every request's future.
                Box::pin(self.legacy_task_request(request, context)).await
            }
            .await,
        )
    }

    /// `tasks/update`: the answers to a task's questions.
    async fn update_task(
        &self,
        request: rmcp::model::UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let traced = request_span(&context, "tasks/update", None, None);
        ended(
            traced,
            async { Box::pin(self.update_task_now(request, &context)).await }.await,
        )
    }

    /// `tasks/cancel`: stops a task as a cancelled call stops (grace period, safe stops).
    async fn cancel_task(
        &self,
        request: rmcp::model::CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let traced = request_span(&context, "tasks/cancel", None, None);
        ended(
            traced,
            async { Box::pin(self.cancel_task_now(&request, &context)).await }.await,
        )
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        read(&self.inner.listed)
            .iter()
            .find(|t| t.name == name)
            .cloned()
    }

    /// `logging/setLevel`: the level of this session's log messages ([`crate::Context::log`]).
    /// Protocol 2026-07-28 has no such method (a request carries its own level): there it is
    /// an unknown method.
    // rmcp's logging types are deprecated by SEP-2577 (logging becomes opt-in per request on
    // protocol 2026-07-28): toolwright still serves the clients that use them.
    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let traced = request_span(&context, "logging/setLevel", None, None);
        ended(
            traced,
            async {
                if context
                    .protocol_version()
                    .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28)
                {
                    return Err(ErrorData::method_not_found::<
                        rmcp::model::SetLevelRequestMethod,
                    >());
                }
                self.session
                    .set_log_level(crate::LogLevel::from_rmcp(request.level));
                Ok(())
            }
            .await,
        )
    }

    /// `skills/list` (SEP-2640): the toolbox's skill, when it has one
    /// ([`ToolboxBuilder::with_skill`](crate::ToolboxBuilder::with_skill)).
    async fn list_skills(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        let traced = request_span(&context, "skills/list", None, None);
        ended(
            traced,
            async {
                let mut result =
                    ListSkillsResult::with_all_items(self.skill_entry().into_iter().collect());
                if cache_hints(&context) {
                    result.ttl_ms = Some(0);
                    result.cache_scope = Some(CacheScope::Public);
                }
                Ok(result)
            }
            .await,
        )
    }

    /// `skills/get` (SEP-2640): the entry of the skill at `uri`; `-32602` for any other URI.
    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        let traced = request_span(&context, "skills/get", None, None);
        ended(
            traced,
            async {
                let skill = self
                    .skill_entry()
                    .filter(|skill| skill.uri == request.uri)
                    .ok_or_else(|| {
                        ErrorData::invalid_params(format!("no skill at {}", request.uri), None)
                    })?;
                let mut result = GetSkillResult::new(skill);
                if cache_hints(&context) {
                    result = result.with_ttl_ms(0).with_cache_scope(CacheScope::Public);
                }
                Ok(result)
            }
            .await,
        )
    }

    /// `resources/directory/read` (SEP-2640): the children of a directory of the skill;
    /// `-32602` for any other URI.
    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        let traced = request_span(&context, "resources/directory/read", None, None);
        ended(
            traced,
            async {
                let children = self.skill_directory(&request.uri).ok_or_else(|| {
                    ErrorData::invalid_params(format!("not a directory: {}", request.uri), None)
                })?;
                let mut result = ReadResourceDirectoryResult::with_all_items(children);
                if cache_hints(&context) {
                    result.ttl_ms = Some(0);
                    result.cache_scope = Some(CacheScope::Public);
                }
                Ok(result)
            }
            .await,
        )
    }

    /// `resources/list`: the skill's `SKILL.md` (nothing without a skill).
    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let traced = request_span(&context, "resources/list", None, None);
        ended(
            traced,
            async {
                let mut result = ListResourcesResult::with_all_items(self.skill_resources());
                if cache_hints(&context) {
                    result.ttl_ms = Some(0);
                    result.cache_scope = Some(CacheScope::Public);
                }
                Ok(result)
            }
            .await,
        )
    }

    /// `resources/read`: a file of the skill.
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let traced = request_span(&context, "resources/read", None, None);
        ended(
            traced,
            async {
                let mut result = self.read_skill_resource(&request.uri).ok_or_else(|| {
                    ErrorData::resource_not_found(format!("no resource {}", request.uri), None)
                })?;
                if cache_hints(&context) {
                    result.ttl_ms = Some(0);
                    result.cache_scope = Some(CacheScope::Public);
                }
                Ok(result.into())
            }
            .await,
        )
    }

    async fn on_initialized(&self, context: rmcp::service::NotificationContext<RoleServer>) {
        let mut peers = self.inner.peers.lock().unwrap_or_else(|p| p.into_inner());
        peers.retain(|p| !p.is_transport_closed());
        peers.push(context.peer);
    }

    /// `subscriptions/listen` (protocol 2026-07-28): of what a client may ask for, a toolbox
    /// sends `notifications/tools/list_changed` (its groups enabled or disabled at run time).
    fn accepted_subscription_filter(
        &self,
        _requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(SubscriptionFilter::builder().tools_list_changed().build())
    }

    /// Holds one `subscriptions/listen` stream open until the client ends it (cancels the
    /// request or closes the stream), telling it of every tool list change meanwhile, tagged
    /// with its subscription id (rmcp has sent the acknowledgment before).
    async fn listen(&self, subscription: SubscriptionContext) -> Result<(), ErrorData> {
        if subscription.accepted().tools_list_changed != Some(true) {
            subscription.cancelled().await;
            return Ok(());
        }
        let key = self.inner.listeners().add(subscription.sink().clone());
        // Removed however this ends, the future dropped included.
        struct Unlisten<'a, S: Send + Sync + 'static>(&'a Inner<S>, u64);
        impl<S: Send + Sync + 'static> Drop for Unlisten<'_, S> {
            fn drop(&mut self) {
                self.0.listeners().remove(self.1);
            }
        }
        let _unlisten = Unlisten(&self.inner, key);
        subscription.cancelled().await;
        Ok(())
    }
}

/// The OpenTelemetry span of a request (`crate::telemetry::mcp`; nothing unless spans are on):
/// what the request and its transport say about it.
fn request_span(
    context: &RequestContext<RoleServer>,
    method: &str,
    tool: Option<&str>,
    meta: Option<&rmcp::model::RequestMetaObject>,
) -> RequestSpan {
    RequestSpan::start(|| {
        #[cfg(feature = "http")]
        let requester = super::Requester::of(context);
        #[cfg(not(feature = "http"))]
        let requester: Option<&()> = None;
        #[cfg(feature = "http")]
        let header_traceparent = context
            .extensions
            .get::<http::request::Parts>()
            .and_then(|parts| parts.headers.get("traceparent"))
            .and_then(|v| v.to_str().ok());
        #[cfg(not(feature = "http"))]
        let header_traceparent = None;
        Request {
            method,
            tool,
            id: context.id.to_string(),
            protocol: context.protocol_version().map(|v| v.to_string()),
            #[cfg(feature = "http")]
            session: requester.and_then(|r| r.session.as_deref()),
            #[cfg(not(feature = "http"))]
            session: None,
            transport: if requester.is_some() {
                Transport::Tcp
            } else {
                Transport::Pipe
            },
            #[cfg(feature = "http")]
            client: requester.and_then(|r| r.peer),
            #[cfg(not(feature = "http"))]
            client: None,
            traceparent: meta
                .and_then(|m| m.get_traceparent())
                .or_else(|| context.meta.get_traceparent()),
            header_traceparent,
        }
    })
}

/// `result`, its request's span ended as it says.
fn ended<T>(traced: RequestSpan, result: Result<T, ErrorData>) -> Result<T, ErrorData> {
    traced.end(match &result {
        Ok(_) => Ending::Ok,
        Err(e) => Ending::Error(e.code.0),
    });
    result
}

/// How a `tools/call` ended, for its span.
fn ending(response: &Result<CallToolResponse, ErrorData>) -> Ending {
    match response {
        Ok(CallToolResponse::Complete(result)) if result.is_error == Some(true) => {
            Ending::ToolError
        }
        Ok(_) => Ending::Ok,
        Err(e) => Ending::Error(e.code.0),
    }
}

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// `tools/call` ([`ServerHandler::call_tool`] boxes it).
    async fn call_tool_unboxed(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let task = self.task_ask(&context);
        let response = self.traced_call(request, &context, task).await?;
        // Protocol 2026-07-28: the server's identity in each result's `_meta` (SEP-2575).
        if !context
            .protocol_version()
            .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28)
        {
            return Ok(response);
        }
        let info = serde_json::to_value(self.get_info().server_info).unwrap_or_default();
        let with_info = |meta: &mut Option<MetaObject>| {
            meta.get_or_insert_with(MetaObject::default)
                .0
                .insert(SERVER_INFO_META_KEY.to_owned(), info.clone());
        };
        Ok(match response {
            CallToolResponse::Complete(mut result) => {
                with_info(&mut result.meta);
                CallToolResponse::Complete(result)
            }
            CallToolResponse::InputRequired(mut asked) => {
                with_info(&mut asked.meta);
                CallToolResponse::InputRequired(asked)
            }
            other => other,
        })
    }

    /// A `tools/call` in its request's span, on either revision: a plain one, or one that may
    /// become a task (`task`; protocol 2025-11-25's task-augmented calls come here too).
    pub(super) async fn traced_call(
        &self,
        request: CallToolRequestParams,
        context: &RequestContext<RoleServer>,
        task: Option<TaskAsk>,
    ) -> Result<CallToolResponse, ErrorData> {
        let traced = request_span(
            context,
            "tools/call",
            Some(&request.name),
            request.meta.as_ref(),
        );
        if let Some(arguments) = &request.arguments {
            traced.note_content(|| {
                vec![(
                    "gen_ai.tool.call.arguments",
                    NoteValue::Text(serde_json::Value::Object(arguments.clone()).to_string()),
                )]
            });
        }
        let site = CallSite::from_request(
            context,
            request.meta.as_ref(),
            Some(Arc::clone(&self.session)),
        )
        .with_rounds(context, request.request_state, request.input_responses);
        let mut site = site;
        site.task = task.map(Box::new);
        // One trace id everywhere: with spans on, the span's W3C trace id is the call's.
        if site.trace_id.is_none() {
            site.trace_id = traced.trace_id();
        }
        let response = traced
            .within(Inner::call(
                &self.inner,
                &request.name,
                request.arguments,
                site,
            ))
            .await;
        traced.end(ending(&response));
        response
    }
}

/// Whether a result carries the caching hints (`ttlMs`, `cacheScope`): on protocol 2026-07-28
/// and later.
fn cache_hints(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28)
}
