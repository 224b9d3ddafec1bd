//! Throughput, latency, server CPU and memory over streamable HTTP: toolwright against a
//! hand-built rmcp server (the floor), each in a process of its own, driven by N concurrent
//! clients on loopback.
//!
//! ```text
//! cargo bench -p toolwright-tests --bench http_load -- [--clients 1,16,64,256] [--calls 300]
//!     [--rounds 5] [--wire session,stateless] [--idle-sessions 200] [--new-connections]
//! ```
//!
//! - **The tool** is the same on both servers and does nothing but echo its arguments, so the
//!   protocol, the HTTP layer and what toolwright adds around a call are what is measured:
//!   `echo_pose(x, y, z)` in millimetres with ranges, returning `{x, y, z}`. toolwright
//!   declares it with `#[tool(read_only)]` and `#[param(unit = "mm", range = ..)]`; the floor
//!   registers one rmcp `ToolRoute` with a schemars-derived parameter type (serde only).
//! - **The servers** are this binary started again (`--serve toolwright|floor`) on a
//!   multi-thread tokio runtime (one worker per core), each setting `TCP_NODELAY` on what it
//!   accepts: toolwright through `Toolbox::serve_http_with` (its default hardening on), the floor
//!   through rmcp's `StreamableHttpService` on hyper.
//! - **The wires**: `session` is protocol 2025-11-25 (`initialize`, then every call in its
//!   `Mcp-Session-Id`); `stateless` is protocol 2026-07-28 (no session: each `tools/call` carries
//!   the version and the client's capabilities in its `_meta`).
//! - **The clients** are tasks of this process, each with a connection of its own (HTTP/1.1
//!   keep-alive, hyper's client connection: no pool opening more), calling in a loop; every
//!   answer is checked (`isError: false`, the echoed pose). Both servers get the same clients,
//!   so the ratio is the servers' difference.
//! - **Rounds** alternate the two servers (floor, toolwright, floor, …), and the ratios are
//!   medians over rounds. Server CPU comes from `/proc/PID/stat` (user + system) around each
//!   round, resident memory from `/proc/PID/status` after it.
//! - **Idle sessions**: the resident memory a server grows by per session opened (initialized,
//!   then left idle), over `--idle-sessions` of them.
//! - **`--ts-latency`**: instead of the table, the official TypeScript SDK client's median time
//!   per call on each server (`tests/interop/node/latency.mjs`; `--calls` per round, `--rounds`).
//! - **`--stdio`**: instead of the table, sequential calls from rmcp's client to each server as
//!   a stdio child process, on a multi-thread runtime (what `#[tokio::main]` builds) and on a
//!   current-thread one: wall and CPU time per call, medians of alternating rounds.
//! - **`--new-connections`**: each call on a new connection (connect, one request, close), as
//!   rmcp's own HTTP client does by default; the session (session wire) is kept across them.
//! - **`--task-memory N`**: instead of the table, toolwright's resident memory per live task
//!   (protocol 2026-07-28, the tasks extension, `N` tasks held open); the floor has no tasks.
//! - **`HTTP_LOAD_PAIR=A,B`**: the two servers a table compares (`floor,floor` for an A/A run;
//!   `toolwright,toolwright-ct` for the multi-thread runtime against a current-thread one).

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolwright::{ToolSchema, Toolbox, toolbox};

// ---------------------------------------------------------------------------------------------
// The tool, both ways
// ---------------------------------------------------------------------------------------------

/// A position in the robot base frame (toolwright's output).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToolSchema)]
struct Pose {
    /// X coordinate, mm.
    x: f64,
    /// Y coordinate, mm.
    y: f64,
    /// Z coordinate, mm.
    z: f64,
}

/// The same, the floor's (schemars).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
struct FloorPose {
    /// X coordinate, mm.
    x: f64,
    /// Y coordinate, mm.
    y: f64,
    /// Z coordinate, mm.
    z: f64,
}

/// toolwright's server.
struct Probe;

#[toolbox]
impl Probe {
    /// Report a pose back: measures the protocol, not the tool.
    // It never blocks, so it runs in place like the floor's handler (a sync body that may
    // block runs on tokio's blocking pool by default).
    #[tool(read_only, blocking = false)]
    fn echo_pose(
        &self,
        /// X coordinate.
        #[param(unit = "mm", range = -850.0..=850.0)]
        x: f64,
        /// Y coordinate.
        #[param(unit = "mm", range = -850.0..=850.0)]
        y: f64,
        /// Z coordinate.
        #[param(unit = "mm", range = 0.0..=950.0)]
        z: f64,
    ) -> Pose {
        Pose { x, y, z }
    }
}

/// `--task-memory`'s server: one task tool that holds its task open.
struct Holder;

#[toolbox]
impl Holder {
    /// Wait, as a long motion would: a task until it ends.
    #[tool(read_only, task = "optional")]
    async fn hold(
        &self,
        /// How long.
        #[param(unit = "s", range = 0.0..=3600.0)]
        seconds: f64,
    ) -> String {
        tokio::time::sleep(Duration::from_secs_f64(seconds)).await;
        "held".to_owned()
    }
}

/// The floor's arguments: the same ranges, from schemars.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct PoseParams {
    /// X coordinate, mm.
    #[schemars(range(min = -850.0, max = 850.0))]
    x: f64,
    /// Y coordinate, mm.
    #[schemars(range(min = -850.0, max = 850.0))]
    y: f64,
    /// Z coordinate, mm.
    #[schemars(range(min = 0.0, max = 950.0))]
    z: f64,
}

/// The floor: one hand-registered rmcp `ToolRoute` in a router built once.
#[derive(Clone)]
struct Floor {
    router: Arc<ToolRouter<Floor>>,
}

impl Floor {
    fn new() -> Self {
        let tool = Tool::new(
            "echo_pose",
            "Report a pose back: measures the protocol, not the tool.",
            serde_json::Map::new(),
        )
        .with_input_schema::<PoseParams>()
        .with_output_schema::<FloorPose>();
        let mut router = ToolRouter::new();
        router.add_route(ToolRoute::new(
            tool,
            |Parameters(p): Parameters<PoseParams>| {
                Json(FloorPose {
                    x: p.x,
                    y: p.y,
                    z: p.z,
                })
            },
        ));
        Floor {
            router: Arc::new(router),
        }
    }
}

impl ServerHandler for Floor {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("floor", "0.1.0"))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.router.list_all()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.router
            .call(ToolCallContext::new(self, request, context))
            .await
    }
}

// ---------------------------------------------------------------------------------------------
// The servers, in processes of their own
// ---------------------------------------------------------------------------------------------

/// `--serve toolwright|floor`: serves on a free loopback port, prints `listening URL`, and
/// serves until killed: on a multi-thread runtime (one worker per core), or with `-ct`
/// (`toolwright-ct`, `floor-ct`) on a current-thread one.
fn serve(which: &str) -> ! {
    if let Some(stdio) = which.strip_suffix("-stdio") {
        serve_stdio(stdio);
    }
    let (which, runtime) = server_runtime(which);
    runtime.block_on(async {
        let url = match which {
            "toolwright" => {
                // The default caps (256 connections, 256 sessions) raised: 256 clients and the
                // idle sessions, and a round's sessions while the last round's are being
                // closed, would meet them (the floor has none).
                let options = toolwright::HttpOptions::new("127.0.0.1:0".parse().unwrap())
                    .max_connections(4096)
                    .max_sessions(4096, Duration::from_secs(10));
                serve_http_forever(Toolbox::new(Probe), options).await
            }
            "floor" => serve_floor().await,
            "toolwright-tasks" => {
                // Tasks promoted at once, and bounds above what `--task-memory` opens.
                let limits = toolwright::TaskLimits::default()
                    .with_promote_after(Duration::from_millis(1))
                    .with_max_per_client(100_000)
                    .with_max_total(100_000);
                let options = toolwright::HttpOptions::new("127.0.0.1:0".parse().unwrap())
                    .stateless()
                    .max_connections(4096);
                let toolbox = Toolbox::builder(Holder)
                    .with_task_limits(limits)
                    .build()
                    .expect("builds");
                serve_http_forever(toolbox, options).await
            }
            other => panic!("no server `{other}`"),
        };
        println!("listening {url}");
        std::future::pending::<()>().await;
    });
    unreachable!()
}

/// Serves `toolbox` over HTTP until the process is killed; its URL.
async fn serve_http_forever<S: Send + Sync + 'static>(
    toolbox: Toolbox<S>,
    options: toolwright::HttpOptions,
) -> String {
    let server = toolbox.serve_http_with(options).await.expect("serves");
    let url = server.url();
    std::mem::forget(server);
    url
}

/// A server's name without its `-ct` suffix, and its runtime: current-thread with the suffix,
/// multi-thread (one worker per core) without.
fn server_runtime(kind: &str) -> (&str, tokio::runtime::Runtime) {
    let (server, mut builder) = match kind.strip_suffix("-ct") {
        Some(server) => (server, tokio::runtime::Builder::new_current_thread()),
        None => (kind, tokio::runtime::Builder::new_multi_thread()),
    };
    (server, builder.enable_all().build().expect("runtime"))
}

/// `--serve KIND-stdio`: serves over stdin/stdout until the client leaves. KIND: `floor` and
/// `toolwright` on a multi-thread runtime (one worker per core, what `#[tokio::main]` builds),
/// `floor-ct` and `toolwright-ct` on a current-thread one.
fn serve_stdio(kind: &str) -> ! {
    let (server, runtime) = server_runtime(kind);
    runtime.block_on(async {
        match server {
            "toolwright" => Toolbox::new(Probe).serve_stdio().await.expect("serves"),
            "floor" => {
                use rmcp::ServiceExt as _;
                let running = Floor::new()
                    .serve(rmcp::transport::stdio())
                    .await
                    .expect("serves");
                let _ = running.waiting().await;
            }
            other => panic!("no stdio server `{other}`"),
        }
    });
    std::process::exit(0)
}

/// Sequential `tools/call`s from rmcp's client to a stdio server process: its wall time and
/// CPU time per call, after `warm` calls.
async fn stdio_round(kind: &str, calls: usize) -> (Duration, Duration) {
    use rmcp::ServiceExt as _;
    let mut command = tokio::process::Command::new(std::env::current_exe().unwrap());
    command.args(["--serve", &format!("{kind}-stdio")]);
    let transport = rmcp::transport::TokioChildProcess::new(command).expect("spawns");
    let pid = transport.id().expect("a pid");
    let client = ().serve(transport).await.expect("connects");
    let call = || {
        let arguments = json!({"x": 412.5, "y": -3.0, "z": 200.0});
        client.call_tool(
            CallToolRequestParams::new("echo_pose")
                .with_arguments(arguments.as_object().cloned().unwrap()),
        )
    };
    for _ in 0..100 {
        call().await.expect("warm-up call");
    }
    let cpu = |pid: u32| {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        let after = &stat[stat.rfind(')').unwrap() + 2..];
        let fields: Vec<&str> = after.split_whitespace().collect();
        let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
        Duration::from_millis(ticks * 10)
    };
    let before = cpu(pid);
    let started = Instant::now();
    for _ in 0..calls {
        let result = call().await.expect("call");
        assert_eq!(result.is_error, Some(false), "{result:?}");
    }
    let wall = started.elapsed() / calls as u32;
    let used = cpu(pid).saturating_sub(before) / calls as u32;
    let _ = client.cancel().await;
    (wall, used)
}

/// `--stdio`: per-call wall and CPU time over stdio, each server kind in alternating rounds.
async fn stdio_table(o: &Options) {
    let kinds = ["floor", "toolwright", "floor-ct", "toolwright-ct"];
    let mut wall: Vec<Vec<f64>> = vec![Vec::new(); kinds.len()];
    let mut cpu: Vec<Vec<f64>> = vec![Vec::new(); kinds.len()];
    for _ in 0..o.rounds {
        for (i, kind) in kinds.iter().enumerate() {
            let (w, c) = stdio_round(kind, o.calls).await;
            wall[i].push(w.as_secs_f64() * 1e6);
            cpu[i].push(c.as_secs_f64() * 1e6);
        }
    }
    println!(
        "stdio: {} sequential calls per round, {} rounds, medians (µs per call; CPU in 10 ms ticks)",
        o.calls, o.rounds
    );
    println!("| server | runtime | wall µs/call | × floor (multi-thread) | CPU µs/call |");
    println!("|---|---|---|---|---|");
    let floor = median(wall[0].clone());
    for (i, kind) in kinds.iter().enumerate() {
        let (server, runtime) = match kind.strip_suffix("-ct") {
            Some(server) => (server, "current-thread"),
            None => (*kind, "multi-thread"),
        };
        let w = median(wall[i].clone());
        println!(
            "| {server} | {runtime} | {w:.1} | {:.3} | {:.1} |",
            w / floor,
            median(cpu[i].clone())
        );
    }
}

/// rmcp's `StreamableHttpService` on hyper, with `TCP_NODELAY` like toolwright's.
async fn serve_floor() -> String {
    use hyper_util::rt::{TokioExecutor, TokioIo};
    use hyper_util::service::TowerToHyperService;
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    };
    let config = StreamableHttpServerConfig::default().with_legacy_session_mode(true);
    let service = StreamableHttpService::new(
        || Ok(Floor::new()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("binds");
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let _ = stream.set_nodelay(true);
            let service = TowerToHyperService::new(service.clone());
            tokio::spawn(async move {
                let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                    .serve_connection_with_upgrades(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    format!("http://{addr}/mcp")
}

/// A server process: its pid and URL.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(which: &str) -> Server {
        use std::io::BufRead as _;
        // `HTTP_LOAD_WRAP="valgrind --tool=callgrind"` (or `strace -f -c -o FILE`, `perf record
        // -g -o FILE`) runs each server under a profiler: how the cost is attributed.
        let exe = std::env::current_exe().unwrap();
        let wrap = std::env::var("HTTP_LOAD_WRAP").unwrap_or_default();
        let mut words = wrap.split_whitespace();
        let mut command = match words.next() {
            Some(program) => {
                let mut c = Command::new(program);
                c.args(words).arg(&exe);
                c
            }
            None => Command::new(&exe),
        };
        let mut child = command
            .args(["--serve", which])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("{which}: {line:?}"))
            .to_owned();
        Server { child, url }
    }

    /// User + system CPU time so far.
    fn cpu(&self) -> Duration {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap();
        // Fields after the `(comm)`: state is 3rd; utime and stime are the 14th and 15th.
        let after = &stat[stat.rfind(')').unwrap() + 2..];
        let fields: Vec<&str> = after.split_whitespace().collect();
        let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
        // The kernel's USER_HZ is 100 on Linux.
        Duration::from_millis(ticks * 10)
    }

    /// Resident memory, in KiB.
    fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if std::env::var_os("HTTP_LOAD_WRAP").is_some() {
            // A profiler writes what it gathered when asked to stop, not when killed.
            let _ = Command::new("kill")
                .args(["-TERM", &self.child.id().to_string()])
                .status();
            let _ = self.child.wait();
            return;
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------------------
// The clients
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Wire {
    Session,
    Stateless,
}

impl Wire {
    fn name(self) -> &'static str {
        match self {
            Wire::Session => "session (2025-11-25)",
            Wire::Stateless => "stateless (2026-07-28)",
        }
    }
}

/// One client: a connection of its own, and its session on the session wire. The connection is
/// hyper's own (`client::conn::http1`), not a pool's: a pool (reqwest's) races an idle
/// connection against a new one for each request and, when the response's end has not been
/// read yet, opens another (one in 6 to 90 calls here): both servers then pay their
/// per-connection costs at a rate no keep-alive client causes.
struct Client {
    sender: hyper::client::conn::http1::SendRequest<http_body_util::Full<hyper::body::Bytes>>,
    /// `--new-connections`: a connection of its own for each request, as rmcp's HTTP client
    /// opens by default.
    fresh: bool,
    url: String,
    authority: String,
    wire: Wire,
    session: Option<String>,
    next_id: u64,
}

/// The JSON-RPC message of `id` in a response body (JSON, or an event stream).
fn reply(text: &str, id: u64) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| {
        text.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .find(|m| m["id"] == json!(id))
            .unwrap_or_else(|| panic!("no reply to {id} in {text:?}"))
    })
}

/// A new HTTP/1.1 connection to `authority` (`TCP_NODELAY`, as both servers set), served by a
/// task of its own until its sender is dropped.
async fn open(
    authority: &str,
) -> hyper::client::conn::http1::SendRequest<http_body_util::Full<hyper::body::Bytes>> {
    let stream = tokio::net::TcpStream::connect(authority)
        .await
        .expect("connects");
    stream.set_nodelay(true).unwrap();
    let (sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .expect("HTTP/1.1 handshake");
    tokio::spawn(connection);
    sender
}

impl Client {
    async fn connect(url: &str, wire: Wire, fresh: bool) -> Client {
        let uri: hyper::Uri = url.parse().expect("the server's URL");
        let authority = uri.authority().expect("host and port").to_string();
        let sender = open(&authority).await;
        let mut client = Client {
            sender,
            fresh,
            url: url.to_owned(),
            authority,
            wire,
            session: None,
            next_id: 0,
        };
        if wire == Wire::Session {
            client.initialize().await;
        }
        client
    }

    /// Sends `method` with `body` (`None`: no body) and the wire's headers; the status, the
    /// session id the answer names, and the whole body.
    async fn send(
        &mut self,
        http_method: hyper::Method,
        body: Option<&Value>,
        method: &str,
    ) -> (u16, Option<String>, String) {
        use http_body_util::BodyExt as _;
        let version = match self.wire {
            Wire::Session => "2025-11-25",
            Wire::Stateless => "2026-07-28",
        };
        let mut request = hyper::Request::builder()
            .method(http_method)
            .uri(&self.url)
            .header("host", &self.authority)
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", version);
        if body.is_some() {
            request = request.header("content-type", "application/json");
        }
        if self.wire == Wire::Stateless {
            request = request.header("mcp-method", method);
            if method == "tools/call" {
                request = request.header("mcp-name", "echo_pose");
            }
        }
        if let Some(session) = &self.session {
            request = request.header("mcp-session-id", session);
        }
        let bytes = body.map(|b| b.to_string()).unwrap_or_default();
        let request = request
            .body(http_body_util::Full::new(hyper::body::Bytes::from(bytes)))
            .unwrap();
        if self.fresh {
            // The last request's connection is dropped (closed) as the new one replaces it.
            self.sender = open(&self.authority).await;
        }
        self.sender.ready().await.expect("the connection is open");
        let response = self.sender.send_request(request).await.expect("answered");
        let status = response.status().as_u16();
        let session = response
            .headers()
            .get("mcp-session-id")
            .map(|v| v.to_str().unwrap().to_owned());
        let body = response.into_body().collect().await.expect("a whole body");
        let text = String::from_utf8(body.to_bytes().to_vec()).expect("UTF-8");
        (status, session, text)
    }

    async fn initialize(&mut self) {
        let body = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "http_load", "version": "0"}}});
        let (_, session, text) = self
            .send(hyper::Method::POST, Some(&body), "initialize")
            .await;
        assert!(session.is_some(), "a session id");
        self.session = session;
        assert!(reply(&text, 0)["result"].is_object(), "{text}");
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let (status, _, _) = self
            .send(
                hyper::Method::POST,
                Some(&initialized),
                "notifications/initialized",
            )
            .await;
        assert_eq!(status, 202);
    }

    /// Ends the session (a client that leaves), so sessions do not pile up over rounds.
    async fn close(mut self) {
        if self.session.is_some() {
            let _ = self.send(hyper::Method::DELETE, None, "").await;
        }
    }

    /// One `tools/call`, checked; its latency.
    async fn call(&mut self) -> Duration {
        self.next_id += 1;
        let id = self.next_id;
        let mut params =
            json!({"name": "echo_pose", "arguments": {"x": 412.5, "y": -3.0, "z": 200.0}});
        if self.wire == Wire::Stateless {
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "http_load", "version": "0"},
                "io.modelcontextprotocol/clientCapabilities": {},
            });
        }
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
        let started = Instant::now();
        let (_, _, text) = self
            .send(hyper::Method::POST, Some(&body), "tools/call")
            .await;
        let elapsed = started.elapsed();
        let result = &reply(&text, id)["result"];
        assert_eq!(result["isError"], json!(false), "{text}");
        assert_eq!(result["structuredContent"]["x"], json!(412.5), "{text}");
        elapsed
    }
}

// ---------------------------------------------------------------------------------------------
// The runs
// ---------------------------------------------------------------------------------------------

/// What one round against one server measured.
struct Round {
    calls_per_s: f64,
    p50: Duration,
    p99: Duration,
    cpu_per_call: Duration,
    rss_kib: u64,
}

async fn round(server: &Server, wire: Wire, clients: usize, calls: usize, fresh: bool) -> Round {
    let mut connected = Vec::with_capacity(clients);
    for _ in 0..clients {
        let mut client = Client::connect(&server.url, wire, fresh).await;
        client.call().await; // warm: the connection is open, the session known
        connected.push(client);
    }
    let cpu = server.cpu();
    let started = Instant::now();
    let tasks: Vec<_> = connected
        .into_iter()
        .map(|mut client| {
            tokio::spawn(async move {
                let mut latencies = Vec::with_capacity(calls);
                for _ in 0..calls {
                    latencies.push(client.call().await);
                }
                (latencies, client)
            })
        })
        .collect();
    let mut latencies = Vec::with_capacity(clients * calls);
    let mut done = Vec::with_capacity(clients);
    for task in tasks {
        let (l, client) = task.await.unwrap();
        latencies.extend(l);
        done.push(client);
    }
    let wall = started.elapsed();
    let used = server.cpu().saturating_sub(cpu);
    let rss_kib = server.rss_kib();
    for client in done {
        client.close().await;
    }
    latencies.sort_unstable();
    let n = latencies.len();
    Round {
        calls_per_s: n as f64 / wall.as_secs_f64(),
        p50: latencies[n / 2],
        p99: latencies[(n * 99 / 100).min(n - 1)],
        cpu_per_call: used / n as u32,
        rss_kib,
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

struct Options {
    clients: Vec<usize>,
    calls: usize,
    rounds: usize,
    wires: Vec<Wire>,
    idle_sessions: usize,
    /// `--ts-latency`: only the TypeScript SDK client's per-call latency on both servers.
    ts_latency: bool,
    /// `--stdio`: only the per-call times over stdio, by runtime.
    stdio: bool,
    /// `--task-memory N`: only the resident memory per live task, over N tasks.
    task_memory: Option<usize>,
    /// `--new-connections`: each call on a new connection (rmcp's HTTP client's default).
    new_connections: bool,
}

fn options() -> Options {
    let mut o = Options {
        clients: vec![1, 16, 64, 256],
        calls: 300,
        rounds: 5,
        wires: vec![Wire::Session, Wire::Stateless],
        // toolwright serves at most 256 sessions by default.
        idle_sessions: 200,
        ts_latency: false,
        task_memory: None,
        stdio: false,
        new_connections: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--clients" => o.clients = value.split(',').map(|n| n.parse().unwrap()).collect(),
            "--calls" => o.calls = value.parse().unwrap(),
            "--rounds" => o.rounds = value.parse().unwrap(),
            "--idle-sessions" => o.idle_sessions = value.parse().unwrap(),
            "--task-memory" => o.task_memory = Some(value.parse().unwrap()),
            "--ts-latency" => {
                o.ts_latency = true;
                i += 1;
                continue;
            }
            "--stdio" => {
                o.stdio = true;
                i += 1;
                continue;
            }
            "--new-connections" => {
                o.new_connections = true;
                i += 1;
                continue;
            }
            "--wire" => {
                o.wires = value
                    .split(',')
                    .map(|w| match w {
                        "session" => Wire::Session,
                        "stateless" => Wire::Stateless,
                        other => panic!("no wire `{other}`: session or stateless"),
                    })
                    .collect()
            }
            // `cargo bench` passes `--bench`; a filter is not used here.
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    o
}

/// Resident memory per idle session: `n` sessions opened, initialized and left open.
async fn idle_sessions(server: &Server, n: usize) -> f64 {
    let before = server.rss_kib();
    let mut held = Vec::with_capacity(n);
    for _ in 0..n {
        held.push(Client::connect(&server.url, Wire::Session, false).await);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let after = server.rss_kib();
    for client in held {
        client.close().await;
    }
    (after.saturating_sub(before)) as f64 / n as f64
}

/// Resident memory per live task (protocol 2026-07-28, the tasks extension): `n` calls of a
/// tool that holds its task for a minute, each answered with a task; the server's growth over
/// `n`. Its sessions: none (the stateless wire).
fn task_memory(n: usize) {
    let server = Server::start("toolwright-tasks");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let http = reqwest::Client::new();
        let call = |id: usize| {
            let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
                "name": "hold", "arguments": {"seconds": 60.0},
                "_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientInfo": {"name": "http_load", "version": "0"},
                    "io.modelcontextprotocol/clientCapabilities":
                        {"extensions": {"io.modelcontextprotocol/tasks": {}}},
                }}});
            http.post(&server.url)
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .header("mcp-protocol-version", "2026-07-28")
                .header("mcp-method", "tools/call")
                .header("mcp-name", "hold")
                .body(body.to_string())
                .send()
        };
        // Warm-up: the first tasks grow the tables and the allocator's arenas.
        for id in 0..64 {
            let text = call(id).await.expect("answers").text().await.unwrap();
            assert!(reply(&text, id as u64)["result"]["taskId"].is_string(), "{text}");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        let before = server.rss_kib();
        for id in 64..64 + n {
            let text = call(id).await.expect("answers").text().await.unwrap();
            let created = &reply(&text, id as u64)["result"];
            assert_eq!(created["resultType"], json!("task"), "{text}");
            assert_eq!(created["status"], json!("working"), "{text}");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        let after = server.rss_kib();
        println!(
            "task memory: {n} live tasks, resident {before} KiB before, {after} KiB after: {:.1} KiB per task",
            after.saturating_sub(before) as f64 / n as f64
        );
    });
}

/// The official TypeScript SDK client's per-call latency against both servers, by
/// `tests/interop/node/latency.mjs` (its packages installed by `.ci/run`'s `npm ci`).
fn ts_latency(o: &Options) {
    let floor = Server::start("floor");
    let toolwright = Server::start("toolwright");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/interop/node/latency.mjs");
    let status = Command::new(std::env::var("NODE").unwrap_or_else(|_| "node".to_owned()))
        .arg(script)
        .args([&floor.url, &toolwright.url])
        .args([o.calls.to_string(), o.rounds.to_string()])
        .status()
        .expect("node runs (install node 20+ and `npm ci` in tests/interop/node)");
    assert!(status.success(), "latency.mjs failed: {status}");
}

/// The two servers a table compares: `floor` and `toolwright`, unless `HTTP_LOAD_PAIR=A,B`
/// names others (`floor,floor` or `toolwright,toolwright`: an A/A run, which shows how far
/// apart two rounds of the same server land on this machine; `toolwright,toolwright-ct`:
/// the multi-thread runtime against a current-thread one).
fn pair() -> (&'static str, &'static str) {
    const SERVERS: [&str; 4] = ["floor", "toolwright", "floor-ct", "toolwright-ct"];
    let kind = |k: &str| {
        SERVERS
            .into_iter()
            .find(|s| *s == k)
            .unwrap_or_else(|| panic!("HTTP_LOAD_PAIR: unknown server {k:?} (one of {SERVERS:?})"))
    };
    match std::env::var("HTTP_LOAD_PAIR") {
        Ok(p) => {
            let (a, b) = p.split_once(',').expect("HTTP_LOAD_PAIR=A,B");
            (kind(a), kind(b))
        }
        Err(_) => ("floor", "toolwright"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--serve") {
        serve(&args[i + 1]);
    }
    let o = options();
    if o.ts_latency {
        ts_latency(&o);
        return;
    }
    if let Some(n) = o.task_memory {
        task_memory(n);
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    if o.stdio {
        runtime.block_on(stdio_table(&o));
        return;
    }
    runtime.block_on(async {
        println!(
            "http_load: {} calls per client, {} rounds (floor and toolwright alternating), medians{}",
            o.calls,
            o.rounds,
            if o.new_connections {
                ", each call on a new connection"
            } else {
                ""
            }
        );
        println!(
            "| wire | clients | floor calls/s | toolwright calls/s | ratio | floor p50 / p99 ms | toolwright p50 / p99 ms | CPU per call floor / toolwright µs | CPU ratio | RSS floor / toolwright MiB |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|");
        for &wire in &o.wires {
            for &clients in &o.clients {
                // Fresh servers per cell: sessions of earlier cells do not weigh on later ones.
                let (first, second) = pair();
                let floor = Server::start(first);
                let toolwright = Server::start(second);
                let (mut f, mut t) = (Vec::new(), Vec::new());
                for _ in 0..o.rounds {
                    f.push(round(&floor, wire, clients, o.calls, o.new_connections).await);
                    t.push(round(&toolwright, wire, clients, o.calls, o.new_connections).await);
                }
                let rate = |r: &[Round]| median(r.iter().map(|r| r.calls_per_s).collect());
                let pick = |r: &[Round], get: fn(&Round) -> Duration| {
                    Duration::from_secs_f64(median(
                        r.iter().map(|r| get(r).as_secs_f64()).collect(),
                    ))
                };
                let ratio = median(
                    f.iter()
                        .zip(&t)
                        .map(|(f, t)| t.calls_per_s / f.calls_per_s)
                        .collect(),
                );
                // CPU time is counted in 10 ms ticks: a round too short to measure says n/a.
                let cpu_ratios: Vec<f64> = f
                    .iter()
                    .zip(&t)
                    .filter(|(f, t)| !f.cpu_per_call.is_zero() && !t.cpu_per_call.is_zero())
                    .map(|(f, t)| t.cpu_per_call.as_secs_f64() / f.cpu_per_call.as_secs_f64())
                    .collect();
                let cpu_ratio = if cpu_ratios.is_empty() {
                    "n/a".to_owned()
                } else {
                    format!("{:.3}", median(cpu_ratios))
                };
                println!(
                    "| {} | {clients} | {:.0} | {:.0} | {ratio:.3} | {} / {} | {} / {} | {:.0} / {:.0} | {cpu_ratio} | {:.1} / {:.1} |",
                    wire.name(),
                    rate(&f),
                    rate(&t),
                    ms(pick(&f, |r| r.p50)),
                    ms(pick(&f, |r| r.p99)),
                    ms(pick(&t, |r| r.p50)),
                    ms(pick(&t, |r| r.p99)),
                    pick(&f, |r| r.cpu_per_call).as_secs_f64() * 1e6,
                    pick(&t, |r| r.cpu_per_call).as_secs_f64() * 1e6,
                    f.last().unwrap().rss_kib as f64 / 1024.0,
                    t.last().unwrap().rss_kib as f64 / 1024.0,
                );
            }
        }
        if o.idle_sessions > 0 {
            let floor = Server::start("floor");
            let toolwright = Server::start("toolwright");
            let f = idle_sessions(&floor, o.idle_sessions).await;
            let t = idle_sessions(&toolwright, o.idle_sessions).await;
            println!(
                "idle sessions ({}): floor {f:.1} KiB each, toolwright {t:.1} KiB each",
                o.idle_sessions
            );
        }
    });
}
