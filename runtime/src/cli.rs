//! The command line every toolbox gets: `serve` (stdio or streamable HTTP), `tools`, `call`,
//! `export`, `check` and `audit verify`. A server's `main` is one line:
//!
//! ```rust,no_run
//! # use toolwright::ToolboxBuilder;
//! # async fn demo(builder: ToolboxBuilder) {
//! std::process::exit(builder.run_cli().await);
//! # }
//! ```
//!
//! It runs on a [`ToolboxBuilder`]: the flags of `serve` and `call` are settings of the builder,
//! given after the server's own, and then the toolbox is built. Every command, its flags and its
//! exit codes are in the reference ([`crate::reference`], "The command line"), the one copy
//! users read; `--help` says the same per command.

use std::io::{IsTerminal as _, Write as _};
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::Rate;
use crate::export::{self, Format};
use crate::http::HttpOptions;
use crate::toolbox::{MakeHandler, Toolbox, ToolboxBuilder};

#[derive(Debug, Parser)]
#[command(
    about = "An MCP server built with toolwright",
    disable_version_flag = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// How log lines are written to stderr: text, or one JSON object a line. `RUST_LOG` filters
    /// them (default `info,rmcp=warn`). A program that installed a `tracing` subscriber keeps
    /// its own.
    #[arg(
        long,
        global = true,
        value_enum,
        default_value_t,
        value_name = "FORMAT"
    )]
    log_format: crate::telemetry::logs::LogFormat,
}

#[derive(Debug, Default, Args)]
struct ServeArgs {
    /// Serve streamable HTTP on this address (e.g. 127.0.0.1:8080) instead of stdio. A
    /// non-loopback address needs authentication (or --insecure-no-auth).
    #[arg(long, value_name = "ADDR")]
    http: Option<SocketAddr>,
    /// Export OpenTelemetry spans and metrics over OTLP/HTTP to this collector
    /// (`http://127.0.0.1:4318`); default: `OTEL_EXPORTER_OTLP_ENDPOINT`. Nothing is exported
    /// without one, or with `OTEL_SDK_DISABLED=true`.
    #[cfg(feature = "otel")]
    #[arg(long, value_name = "URL")]
    otlp_endpoint: Option<String>,
    /// `native` (spans and metrics, exported when an endpoint is set), `propagation-only`
    /// (trace context adopted from `_meta` and passed on, nothing exported) or `off`.
    #[cfg(feature = "otel")]
    #[arg(long, value_enum, default_value_t, value_name = "MODE")]
    otel_mode: crate::telemetry::otel::Mode,
    /// Put each call's arguments and result on its span (`gen_ai.tool.call.arguments`,
    /// `gen_ai.tool.call.result`, each cut to 8 KB); also
    /// `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`. Off by default: they may hold
    /// what should not leave the process.
    #[cfg(feature = "otel")]
    #[arg(long)]
    otel_capture_content: bool,
    /// Serve only these tool groups (comma-separated), plus tools without a group.
    #[arg(long, value_delimiter = ',', value_name = "GROUPS")]
    groups: Vec<String>,
    /// Require `Authorization: Bearer <token>`, the token read from this environment variable
    /// (never given on the command line).
    #[arg(long, value_name = "VAR", requires = "http")]
    bearer_token_env: Option<String>,
    /// Require OAuth 2.1 access tokens (JWTs) from this authorization server (its issuer URL).
    #[arg(long, value_name = "URL", requires_all = ["http", "oauth_resource"], conflicts_with = "bearer_token_env")]
    oauth_issuer: Option<String>,
    /// This server's canonical resource URI, the audience of the tokens it accepts (e.g.
    /// https://arm.lab.example/mcp).
    #[arg(long, value_name = "URL", requires = "oauth_issuer")]
    oauth_resource: Option<String>,
    /// The issuer's key set (default: the jwks_uri of its metadata).
    #[arg(long, value_name = "URL", requires = "oauth_issuer")]
    oauth_jwks_uri: Option<String>,
    /// Serve without authentication on a non-loopback address: anyone who can reach the port
    /// can call every tool.
    #[arg(long, requires = "http", conflicts_with_all = ["bearer_token_env", "oauth_issuer"])]
    insecure_no_auth: bool,
    /// Accept requests with this Host header (repeat for each name clients use); required when
    /// binding 0.0.0.0.
    #[arg(long = "allowed-host", value_name = "HOST", requires = "http")]
    allowed_hosts: Vec<String>,
    /// Accept browser requests from this Origin (e.g. https://console.lab.example:443).
    #[arg(long = "allowed-origin", value_name = "ORIGIN", requires = "http")]
    allowed_origins: Vec<String>,
    /// The largest request body (default: the argument limit plus 64 KiB).
    #[arg(long, value_name = "BYTES", requires = "http")]
    max_body_bytes: Option<usize>,
    /// The most connections open at once (default 256). At the cap a new connection still
    /// gets in: the oldest one without a request in flight is closed to make room (those not
    /// authenticated first); when every one is busy, 16 more serve only a stop tool's call.
    #[arg(long, value_name = "N", requires = "http")]
    max_connections: Option<usize>,
    /// The most connections one address may hold without a request in flight (default 64).
    #[arg(long, value_name = "N", requires = "http")]
    max_connections_per_peer: Option<usize>,
    /// The most calls waiting for their user's confirmation in one session (default 16; a
    /// client, over all its sessions, four times as many).
    #[arg(long, value_name = "N", requires = "http")]
    max_pending_confirmations: Option<usize>,
    /// How long a call waits for its user to answer a confirmation on its event stream
    /// (protocol 2025-11-25), e.g. 45s (default 2min): past it the call is cancelled, nothing
    /// having run.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, requires = "http")]
    confirmation_timeout: Option<std::time::Duration>,
    /// The most MCP sessions open at once (default 256).
    #[arg(long, value_name = "N", requires = "http")]
    max_sessions: Option<usize>,
    /// Seconds a client has to send a request's headers (default 10).
    #[arg(long, value_name = "SECONDS", requires = "http")]
    header_timeout: Option<u64>,
    /// Seconds a client has to send a request's body (default 30).
    #[arg(long, value_name = "SECONDS", requires = "http")]
    body_timeout: Option<u64>,
    /// How long a call that holds a resource with a safe stop keeps running once its event
    /// stream dropped, for its client to resume it (protocol 2025-11-25), e.g. 500ms (default
    /// 2s): past it the client is gone, and the call is stopped and its safe stop runs.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, requires = "http")]
    resume_window: Option<std::time::Duration>,
    /// Serve every client without a session (clients on 2026-07-28 always are), so that any
    /// replica behind a load balancer can answer any request.
    #[arg(long, requires = "http")]
    stateless: bool,
    /// Share HTTP sessions and rate limits with the other replicas through this Redis
    /// (redis://host:6379/0). Not for a toolbox whose tools use a device (resource queues stay
    /// per process).
    #[cfg(feature = "redis")]
    #[arg(long, value_name = "URL", requires = "http")]
    redis: Option<String>,
    /// Calls one client may make to all tools together, e.g. 120/min (`/s`, `/min`, `/h`,
    /// `/day`); on stdio the one client is the connection.
    #[arg(long, value_name = "RATE", value_parser = parse_rate)]
    client_rate_limit: Option<Rate>,
    /// The keys that seal `requestState` (protocol 2026-07-28: a tool that asks its user or
    /// the client's model answers `input_required`, and the client calls again with the state):
    /// a file of lines `ID BASE64KEY` (32 bytes or more), the first sealing, all opening.
    /// Replicas need the same file; without it each process makes a random key.
    #[arg(long, value_name = "FILE")]
    request_state_keys: Option<PathBuf>,
    /// How long a sealed `requestState` is good for, e.g. 2min (`ms`, `s`, `min`, `h`; default
    /// 10min): how long a user has to answer a question, a confirmation included.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    request_state_ttl: Option<std::time::Duration>,
    /// Whether the user confirms each call of a tool declared with `confirm` before it runs
    /// (`on`, the default unless the toolbox was built with it off). `off` only where no one
    /// needs to: a simulation, a test rig.
    #[arg(long, value_name = "on|off", value_parser = parse_switch)]
    confirm: Option<bool>,
    /// Serve only the tools declared `read_only` (look, do not touch): the others are not
    /// listed, and a call to one is refused saying the server is read-only.
    #[arg(long)]
    read_only: bool,
    /// Append one JSON line per call of a tool that is not read-only to this file (created if
    /// missing; an existing log is verified and continued): arguments as sent, caller, the
    /// user's confirmation with the question they were shown, and outcome, hash-chained and
    /// fsynced before each answer. Check it with `audit verify PATH`.
    #[arg(long, value_name = "PATH")]
    audit_log: Option<PathBuf>,
    /// Authenticate every audit line with the key in this environment variable (32 bytes or
    /// more; HMAC-SHA-256): whoever can write the log but not read the key cannot rewrite it
    /// unnoticed. A log is keyed from its first line.
    #[arg(
        long,
        value_name = "VAR",
        requires = "audit_log",
        conflicts_with = "audit_key_file"
    )]
    audit_key_env: Option<String>,
    /// The same, with the key in this file.
    #[arg(long, value_name = "PATH", requires = "audit_log")]
    audit_key_file: Option<PathBuf>,
    /// Append the audit log's head (`{"seq", "hash", "time"}`) to this second file after every
    /// line, fsynced: put it where whoever can write the log cannot. `audit verify --head-file`
    /// then finds lines cut from the log's end.
    #[arg(long, value_name = "PATH", requires = "audit_log")]
    audit_head_file: Option<PathBuf>,
    /// Narrow the declared envelopes (where each resource may go): a JSON file
    /// `{"arm": {"allow": [..], "keepOut": [..], "maxStep": 400}}`, by resource, in the
    /// published unit and frame. It may only tighten: a file that would widen an envelope,
    /// names an unknown resource, or gives another unit or frame stops `serve`, naming the
    /// limit. The narrowed envelope is what `tools/list` publishes.
    #[arg(long, value_name = "FILE")]
    envelope: Option<PathBuf>,
}

fn parse_switch(s: &str) -> Result<bool, String> {
    match s {
        "on" => Ok(true),
        "off" => Ok(false),
        other => Err(format!("`{other}`: write on or off")),
    }
}

fn parse_duration(s: &str) -> Result<std::time::Duration, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let factor = match unit {
        "ms" => 0.001,
        "s" => 1.0,
        "min" => 60.0,
        "h" => 3600.0,
        _ => {
            return Err(format!(
                "`{s}`: write a duration with a unit: 500ms, 30s, 10min, 1h"
            ));
        }
    };
    match number.parse::<f64>() {
        Ok(n) if n > 0.0 && (n * factor).is_finite() => {
            Ok(std::time::Duration::from_secs_f64(n * factor))
        }
        _ => Err(format!(
            "`{s}`: write a positive duration: 500ms, 30s, 10min, 1h"
        )),
    }
}

fn parse_rate(s: &str) -> Result<Rate, String> {
    Rate::parse(s).ok_or_else(|| {
        format!("`{s}` is not a rate: write calls per period, e.g. 120/min, 5/s, 1000/day")
    })
}

impl ServeArgs {
    /// The HTTP options these flags describe (the token read from its variable).
    fn http_options(&self, addr: SocketAddr) -> Result<HttpOptions, String> {
        let mut options = HttpOptions::new(addr);
        if let Some(window) = self.resume_window {
            options = options.resume_window(window);
        }
        if let Some(var) = &self.bearer_token_env {
            let token = std::env::var(var).map_err(|_| {
                format!("--bearer-token-env {var}: the environment variable {var} is not set")
            })?;
            options = options.bearer_token(token);
        }
        if let Some(issuer) = &self.oauth_issuer {
            let resource = self.oauth_resource.clone().unwrap_or_default();
            let mut config = crate::http::OAuthConfig::new(issuer.clone(), resource);
            config.jwks_uri = self.oauth_jwks_uri.clone();
            options = options.oauth(config);
        }
        if self.insecure_no_auth {
            options = options.insecure_no_auth();
        }
        if self.stateless {
            options = options.stateless();
        }
        #[cfg(feature = "redis")]
        if let Some(url) = &self.redis {
            options = options.redis(url.clone());
        }
        for host in &self.allowed_hosts {
            options = options.allow_host(host.clone());
        }
        for origin in &self.allowed_origins {
            options = options.allow_origin(origin.clone());
        }
        if let Some(bytes) = self.max_body_bytes {
            options = options.max_body_bytes(bytes);
        }
        if let Some(n) = self.max_connections {
            options = options.max_connections(n);
        }
        if let Some(n) = self.max_connections_per_peer {
            options = options.max_connections_per_peer(n);
        }
        if let Some(n) = self.max_pending_confirmations {
            options = options.max_pending_confirmations(n, n.saturating_mul(4));
        }
        if let Some(timeout) = self.confirmation_timeout {
            options = options.confirmation_timeout(timeout);
        }
        if let Some(n) = self.max_sessions {
            options = options.max_sessions(n, std::time::Duration::from_secs(10));
        }
        if self.header_timeout.is_some() || self.body_timeout.is_some() {
            options = options.read_timeouts(
                std::time::Duration::from_secs(self.header_timeout.unwrap_or(10)),
                std::time::Duration::from_secs(self.body_timeout.unwrap_or(30)),
            );
        }
        Ok(options)
    }
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the tools over MCP: stdio (default) or streamable HTTP.
    Serve(Box<ServeArgs>),
    /// Print the tool definitions exactly as the model will see them.
    Tools {
        /// mcp, markdown, openai, anthropic or gemini.
        #[arg(long, default_value = "mcp")]
        format: String,
    },
    /// Run one tool in-process and print the result as the model would receive it.
    Call {
        /// The tool name.
        name: String,
        /// The arguments, as a JSON object.
        #[arg(long, default_value = "{}")]
        args: String,
        /// Whether a tool declared with `confirm` asks first (`on`, the default unless the
        /// toolbox was built with it off: in-process there is no one to ask, so it does not
        /// run). `off` runs it unconfirmed.
        #[arg(long, value_name = "on|off", value_parser = parse_switch)]
        confirm: Option<bool>,
    },
    /// Write every export format (tools.json, TOOLS.md, openai.json, …), index.html and llms.txt
    /// into a directory.
    Export {
        /// The directory.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Hold the tools against an export (the drift gate, --against) and against the rules of
    /// the clients that will list them (--clients); at least one of the two.
    #[command(after_help = CHECK_EXIT_CODES)]
    Check {
        /// The directory of a previous `export`: report every difference, breaking or
        /// compatible.
        #[arg(long, value_name = "DIR")]
        against: Option<PathBuf>,
        /// Report what Claude Code, VS Code Copilot, Cursor, the Python SDK 2.x and the
        /// Anthropic, OpenAI strict and Gemini APIs would refuse, each with the tool, the JSON
        /// pointer, what to change and the rule's source.
        #[arg(long)]
        clients: bool,
        /// The name users give this server in their client's configuration, counted where a
        /// client prefixes tool names with it (default: the toolbox's title, else this
        /// program's name).
        #[arg(long, value_name = "NAME", requires = "clients")]
        server_name: Option<String>,
    },
    /// Audit logs (`serve --audit-log PATH`).
    #[command(subcommand)]
    Audit(AuditCommand),
}

/// The exit codes of `check`, as `check --help` shows them (the reference has the same table).
const CHECK_EXIT_CODES: &str = "\
Exit codes:
  0  nothing to report
  1  breaking drift
  2  only compatible drift
  3  some client refuses a tool
  4  cannot read the export, or bad usage
With both --against and --clients, both are reported, and the exit code is the first that \
applies in the order 4, 1, 3, 2.";

#[derive(Debug, Subcommand)]
enum AuditCommand {
    /// Check a log: every line whole and chained (and, with its key, authenticated; with a head,
    /// still holding it). Prints what that proves and what it does not. Exit 0 when it verifies,
    /// 1 naming the first bad line (or the missing head), 2 when it (or the key, or the head)
    /// cannot be read.
    Verify {
        /// The log.
        path: PathBuf,
        /// The log's key, in this environment variable: every line must carry a valid HMAC.
        #[arg(long, value_name = "VAR", conflicts_with = "key_file")]
        key_env: Option<String>,
        /// The log's key, in this file.
        #[arg(long, value_name = "PATH")]
        key_file: Option<PathBuf>,
        /// A head the server anchored (`SEQ:HASH` or `HASH`, from its log's `audit head`
        /// lines or a span's `toolwright.audit.hash`): the log must still hold that line.
        #[arg(long, value_name = "SEQ:HASH", conflicts_with = "head_file")]
        head: Option<String>,
        /// The head file the server appended to (`serve --audit-head-file`): its last head.
        #[arg(long, value_name = "PATH")]
        head_file: Option<PathBuf>,
    },
}

/// The audit key given by `--*-key-env VAR` or `--*-key-file PATH`, if any.
fn audit_key(
    env: Option<&str>,
    file: Option<&std::path::Path>,
) -> Result<Option<crate::audit::AuditKey>, crate::audit::AuditKeyError> {
    match (env, file) {
        (Some(var), _) => crate::audit::AuditKey::from_env(var).map(Some),
        (None, Some(path)) => crate::audit::AuditKey::from_file(path).map(Some),
        (None, None) => Ok(None),
    }
}

/// `audit verify PATH [--key-env VAR] [--head SEQ:HASH]`.
fn audit_verify(command: &AuditCommand) -> i32 {
    let AuditCommand::Verify {
        path,
        key_env,
        key_file,
        head,
        head_file,
    } = command;
    let key = match audit_key(key_env.as_deref(), key_file.as_deref()) {
        Ok(key) => key,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let head = match (head, head_file) {
        (Some(text), _) => crate::audit::Head::parse(text).map(Some),
        (None, Some(file)) => crate::audit::Head::from_file(file).map(Some),
        (None, None) => Ok(None),
    };
    let head = match head {
        Ok(head) => head,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let options = crate::audit::VerifyOptions { key, head };
    match crate::audit::verify_with(path, &options) {
        Ok(verified) => {
            println!(
                "{}: verified: {} (last hash {})",
                path.display(),
                verified.proves(),
                verified.last_hash
            );
            0
        }
        Err(crate::audit::VerifyError::Read(e)) => {
            eprintln!("{}: cannot read it: {e}", path.display());
            2
        }
        Err(bad) => {
            eprintln!("{}: {bad}", path.display());
            1
        }
    }
}

/// Whether `args` (the program name first) say `serve --http`, by the command line's own parser.
fn serves_http(args: &[std::ffi::OsString]) -> bool {
    matches!(
        Cli::try_parse_from(args),
        Ok(Cli { command: Some(Command::Serve(serve)), .. }) if serve.http.is_some()
    )
}

#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
impl<S: Send + Sync + 'static> ToolboxBuilder<S> {
    /// Runs the command line from the process's arguments: parses them, applies the flags of
    /// `serve` (or `call`) to this builder, builds the toolbox and runs the command (`serve`,
    /// the default, serves stdio). Returns the exit code.
    pub async fn run_cli(self) -> i32 {
        self.run_cli_from(std::env::args_os()).await
    }

    /// [`ToolboxBuilder::run_cli`] for a `main` without `#[tokio::main]`: it builds the tokio
    /// runtime the command serves best, then runs. Over stdio (`serve`, the default) one client
    /// sends requests in order and sync tool bodies run on tokio's blocking pool, so a
    /// current-thread runtime answers fastest (BENCHMARKS.md, issue 26); `serve --http`, where
    /// many clients call at once, gets a multi-thread runtime (a worker per core).
    ///
    /// ```rust,no_run
    /// # #[derive(Default)] struct Arm;
    /// # #[toolwright::toolbox] impl Arm {
    /// #     /// Where the arm is.
    /// #     #[tool(read_only)]
    /// #     fn where_is_it(&self) -> String { String::new() }
    /// # }
    /// fn main() {
    ///     std::process::exit(toolwright::Toolbox::builder(Arm).run_cli_main());
    /// }
    /// ```
    pub fn run_cli_main(self) -> i32 {
        let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
        let mut runtime = if serves_http(&args) {
            tokio::runtime::Builder::new_multi_thread()
        } else {
            tokio::runtime::Builder::new_current_thread()
        };
        match runtime.enable_all().build() {
            Ok(runtime) => runtime.block_on(self.run_cli_from(args)),
            Err(e) => {
                eprintln!("cannot start a tokio runtime: {e}");
                1
            }
        }
    }

    /// [`ToolboxBuilder::run_cli`] from `args` (the first is the program name).
    pub async fn run_cli_from<I, T>(self, args: I) -> i32
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        self.run_cli_as(args, std::sync::Arc::new(|toolbox| toolbox))
            .await
    }

    /// [`ToolboxBuilder::run_cli_from`], `serve` answering with the handler `make` builds around
    /// the toolbox (see [`ToolboxBuilder::with_handler`]); the other commands use the toolbox
    /// itself.
    pub(crate) async fn run_cli_as<H, I, T>(self, args: I, make: MakeHandler<S, H>) -> i32
    where
        H: rmcp::ServerHandler,
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
        let cli = match Cli::try_parse_from(&args) {
            Ok(cli) => cli,
            Err(e) => {
                let _ = e.print();
                return match e.use_stderr() {
                    false => 0,
                    // `check`'s exit codes keep 2 for compatible drift: bad usage is 4.
                    true if args.get(1).is_some_and(|a| a == "check") => CHECK_CANNOT_READ,
                    true => 2,
                };
            }
        };
        #[cfg(feature = "otel")]
        let otel = match &cli.command {
            Some(Command::Serve(args)) => args.otel_settings(),
            _ => crate::telemetry::otel::Settings {
                mode: crate::telemetry::otel::Mode::Off,
                ..Default::default()
            },
        };
        let telemetry = crate::telemetry::logs::install(
            cli.log_format,
            #[cfg(feature = "otel")]
            &otel,
        );
        let command = cli
            .command
            .unwrap_or_else(|| Command::Serve(Box::default()));
        let builder = match &command {
            Command::Serve(args) => match self
                .with_confirm_off_words("serve with `--confirm=off`")
                .apply_serve_args(args)
            {
                Ok(builder) => builder,
                Err(code) => return code,
            },
            Command::Call { confirm, .. } => {
                let builder = self.with_confirm_off_words("call it again with `--confirm=off`");
                match confirm {
                    Some(on) => builder.with_confirmation(*on),
                    None => builder,
                }
            }
            Command::Audit(audit) => return audit_verify(audit),
            _ => self,
        };
        let toolbox = match builder.build() {
            Ok(toolbox) => toolbox,
            Err(e) => {
                eprintln!("{e}");
                return 1;
            }
        };
        match command {
            Command::Serve(args) => {
                let info_shown = crate::telemetry::logs::info_shown(&telemetry);
                let code = toolbox
                    .cli_serve(*args, make, cli.log_format, info_shown)
                    .await;
                telemetry.shutdown();
                code
            }
            Command::Tools { format } => match Format::from_name(&format) {
                Some(format) => {
                    print!("{}", export::render(&toolbox.listed_tools(), format));
                    0
                }
                None => {
                    eprintln!("unknown format `{format}`; use one of: {}", format_names());
                    2
                }
            },
            Command::Call { name, args, .. } => toolbox.cli_call(&name, &args).await,
            Command::Export { out } => match toolbox.export().write(&out) {
                Ok(files) => {
                    for f in files {
                        println!("wrote {}", f.display());
                    }
                    0
                }
                Err(e) => {
                    eprintln!("cannot write the export to {}: {e}", out.display());
                    2
                }
            },
            Command::Audit(audit) => audit_verify(&audit),
            Command::Check {
                against,
                clients,
                server_name,
            } => toolbox.cli_check(against.as_deref(), clients, server_name),
        }
    }

    /// The builder with the settings the flags of `serve` give, or the exit code when one
    /// cannot be applied (an unknown group, a log or a key file that cannot be read).
    fn apply_serve_args(self, args: &ServeArgs) -> Result<Self, i32> {
        let groups = &args.groups;
        let mut builder = if groups.is_empty() {
            self
        } else {
            let known = self.groups();
            if let Some(unknown) = groups.iter().find(|g| !known.contains(&g.as_str())) {
                eprintln!(
                    "unknown group `{unknown}`; the tools declare: {}",
                    if known.is_empty() {
                        "no groups".to_owned()
                    } else {
                        known.join(", ")
                    }
                );
                return Err(2);
            }
            self.only_groups(groups)
        };
        if let Some(rate) = args.client_rate_limit {
            builder = builder.with_client_rate_limit(rate);
        }
        if let Some(on) = args.confirm {
            builder = builder.with_confirmation(on);
        }
        if args.read_only {
            builder = builder.with_read_only(true);
        }
        if let Some(path) = &args.audit_log {
            let mut options = crate::audit::AuditLog::options(path);
            match audit_key(
                args.audit_key_env.as_deref(),
                args.audit_key_file.as_deref(),
            ) {
                Ok(Some(key)) => options = options.key(key),
                Ok(None) => {}
                Err(e) => {
                    eprintln!("--audit-key: {e}");
                    return Err(1);
                }
            }
            if let Some(head) = &args.audit_head_file {
                options = options.head_file(head);
            }
            match options.open() {
                Ok(log) => builder = builder.with_audit_log(log),
                Err(e) => {
                    eprintln!("--audit-log: {e}");
                    return Err(1);
                }
            }
        }
        if let Some(path) = &args.envelope {
            // Strictly: a repeated key would silently drop the operator's first value.
            let read = std::fs::read(path)
                .map_err(|e| e.to_string())
                .and_then(|bytes| crate::envelope::parse_strict(&bytes));
            match read {
                Ok(narrowing) => builder = builder.with_envelopes(narrowing),
                Err(e) => {
                    eprintln!("--envelope {}: {e}", path.display());
                    return Err(1);
                }
            }
        }
        if let Some(ttl) = args.request_state_ttl {
            builder = builder.with_request_state_ttl(ttl);
        }
        if let Some(path) = &args.request_state_keys {
            match crate::RequestStateKeys::from_file(path) {
                Ok(keys) => builder = builder.with_request_state_keys(keys),
                Err(e) => {
                    eprintln!("--request-state-keys: {e}");
                    return Err(1);
                }
            }
        }
        Ok(builder)
    }
}

#[cfg(feature = "otel")]
impl ServeArgs {
    /// The telemetry `serve` was asked for.
    fn otel_settings(&self) -> crate::telemetry::otel::Settings {
        crate::telemetry::otel::Settings {
            endpoint: self.otlp_endpoint.clone(),
            mode: self.otel_mode,
            capture_content: self.otel_capture_content,
        }
    }
}

/// `check`'s exit code when it cannot read the export, or for bad usage.
const CHECK_CANNOT_READ: i32 = 4;

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// `check --against DIR --clients`: both reports, and the first exit code that applies in
    /// the order 4 (cannot read, bad usage), 1 (breaking), 3 (a client refuses), 2
    /// (compatible).
    fn cli_check(
        &self,
        against: Option<&std::path::Path>,
        clients: bool,
        server_name: Option<String>,
    ) -> i32 {
        if against.is_none() && !clients {
            eprintln!("check: give --against DIR, --clients, or both (see check --help)");
            return CHECK_CANNOT_READ;
        }
        let mut codes = Vec::new();
        if let Some(dir) = against {
            let export = self.export();
            match export::drift::check_documents(&export.tools, &export.documents, dir) {
                Ok(report) => {
                    if report.is_empty() {
                        println!("no drift: the tools match {}", dir.display());
                    } else {
                        print!("{report}");
                    }
                    codes.push(report.exit_code());
                }
                Err(e) => {
                    eprintln!("cannot read the export in {}: {e}", dir.display());
                    codes.push(CHECK_CANNOT_READ);
                }
            }
        }
        if clients {
            let server = server_name.unwrap_or_else(|| {
                let info = rmcp::ServerHandler::get_info(self).server_info;
                info.title.unwrap_or_else(|| {
                    std::env::args_os()
                        .next()
                        .as_deref()
                        .map(std::path::Path::new)
                        .and_then(|p| p.file_stem())
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or(info.name)
                })
            });
            let report = self.client_findings(&server);
            print!("{report}");
            codes.push(report.exit_code());
        }
        [CHECK_CANNOT_READ, 1, 3, 2]
            .into_iter()
            .find(|code| codes.contains(code))
            .unwrap_or(0)
    }

    /// `serve`, with the toolbox its flags built.
    async fn cli_serve<H: rmcp::ServerHandler>(
        self,
        args: ServeArgs,
        make: MakeHandler<S, H>,
        log_format: crate::telemetry::logs::LogFormat,
        info_shown: bool,
    ) -> i32 {
        let toolbox = self;
        // Its head is logged when the server stops: an anchor outside the file.
        let audit = toolbox.audit_log().cloned();
        let code = toolbox
            .cli_serve_until_stopped(args, make, log_format, info_shown)
            .await;
        if let Some(audit) = audit {
            audit.log_head("the server stopped");
        }
        code
    }

    async fn cli_serve_until_stopped<H: rmcp::ServerHandler>(
        self,
        args: ServeArgs,
        make: MakeHandler<S, H>,
        log_format: crate::telemetry::logs::LogFormat,
        info_shown: bool,
    ) -> i32 {
        let toolbox = self;
        #[cfg(feature = "redis")]
        if args.redis.is_some() && toolbox.uses_resources() {
            eprintln!(
                "warning: --redis shares sessions and rate limits between replicas, but this \
                 toolbox's tools use resources (devices) whose queues are per process: run it as \
                 one replica only, or two calls on one device could run at once"
            );
        }
        if let Some(addr) = args.http {
            let options = match args.http_options(addr) {
                Ok(options) => options,
                Err(e) => {
                    eprintln!("{e}");
                    return 1;
                }
            };
            match toolbox.serve_http_as(options, move |t| make(t)).await {
                Ok(server) => {
                    // The start-up line is logged by `serve_http_as`, at `info`: below that
                    // level it is still written, as the one line clients wait for.
                    if !info_shown {
                        let line = format!("serving MCP over streamable HTTP at {}", server.url());
                        match log_format {
                            crate::telemetry::logs::LogFormat::Text => eprintln!("{line}"),
                            crate::telemetry::logs::LogFormat::Json => {
                                eprintln!(
                                    "{}",
                                    serde_json::json!({"level": "INFO", "fields": {"message": line}})
                                );
                            }
                        }
                    }
                    match server.wait().await {
                        Ok(()) => 0,
                        Err(e) => {
                            eprintln!("{e}");
                            1
                        }
                    }
                }
                Err(e) => {
                    eprintln!("{e}");
                    1
                }
            }
        } else {
            if std::io::stdin().is_terminal() {
                eprintln!("{}", toolbox.banner());
            }
            match toolbox.serve_stdio_as(move |t| make(t)).await {
                Ok(()) => 0,
                Err(e) => {
                    eprintln!("{e}");
                    1
                }
            }
        }
    }

    async fn cli_call(self, name: &str, args: &str) -> i32 {
        let arguments = match serde_json::from_str::<serde_json::Value>(args) {
            Ok(serde_json::Value::Object(map)) => map,
            Ok(other) => {
                eprintln!("--args must be a JSON object, got: {other}");
                return 2;
            }
            Err(e) => {
                eprintln!("--args is not valid JSON: {e}");
                return 2;
            }
        };
        match self.call(name, Some(arguments)).await {
            Ok(result) => {
                let is_error = result.is_error == Some(true);
                let rendered = serde_json::to_string_pretty(&result).unwrap_or_default();
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "{rendered}");
                i32::from(is_error)
            }
            Err(e) => {
                eprintln!("error {}: {}", e.code.0, e.message);
                2
            }
        }
    }

    /// What a person sees when they start the server from a terminal.
    fn banner(&self) -> String {
        let info = rmcp::ServerHandler::get_info(self);
        let what = info
            .server_info
            .title
            .clone()
            .unwrap_or_else(|| "an MCP server".to_owned());
        let tools: Vec<String> = self
            .listed_tools()
            .iter()
            .map(|t| t.name.to_string())
            .collect();
        let program = std::env::args().next().unwrap_or_else(|| "server".into());
        format!(
            "{} {}: {what}, an MCP server built with toolwright, with {} tools: {}.\n\
             It speaks MCP (JSON-RPC) on stdin/stdout, so start it from an MCP client: give the \
             client the command\n  {program}\n\
             Other commands: `{program} tools --format markdown`, `{program} call NAME --args '{{..}}'`, \
             `{program} serve --http 127.0.0.1:8080`, `{program} --help`.\n\
             Waiting for a client on stdin; press Ctrl-D to quit.",
            info.server_info.name,
            info.server_info.version,
            tools.len(),
            tools.join(", ")
        )
    }
}

fn format_names() -> String {
    Format::ALL
        .iter()
        .map(|f| f.name())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    #[test]
    fn only_serve_with_http_gets_the_multi_thread_runtime() {
        let serves_http = |args: &[&str]| {
            let args: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
            super::serves_http(&args)
        };
        assert!(serves_http(&["arm", "serve", "--http", "127.0.0.1:8080"]));
        assert!(serves_http(&[
            "arm",
            "serve",
            "--read-only",
            "--http=127.0.0.1:8080"
        ]));
        assert!(!serves_http(&["arm"]), "stdio, the default");
        assert!(!serves_http(&["arm", "serve", "--read-only"]));
        assert!(!serves_http(&[
            "arm",
            "call",
            "get_arm_state",
            "--args",
            "--http"
        ]));
        assert!(
            !serves_http(&["arm", "serve", "--http", "not an address"]),
            "the parser refuses it"
        );
    }

    #[test]
    fn durations_need_a_unit_and_a_positive_number() {
        assert_eq!(super::parse_duration("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(
            super::parse_duration("250ms"),
            Ok(Duration::from_millis(250))
        );
        assert_eq!(super::parse_duration("1.5min"), Ok(Duration::from_secs(90)));
        assert_eq!(super::parse_duration("1h"), Ok(Duration::from_secs(3600)));
        for bad in ["2", "0s", "-1s", "s", "2 days", "1e400h"] {
            assert!(super::parse_duration(bad).is_err(), "{bad}");
        }
    }
}
