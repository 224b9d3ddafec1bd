//! The command line every toolbox gets: `serve` (stdio or streamable HTTP), `tools`, `call`,
//! `export` and `check`. A server's `main` is one line:
//!
//! ```rust,no_run
//! # use toolwright::Toolbox;
//! # async fn demo(toolbox: Toolbox) {
//! std::process::exit(toolbox.run().await);
//! # }
//! ```
//!
//! | command | what it does | exit code |
//! |---|---|---|
//! | `serve` (default) | MCP over stdio; with a terminal on stdin, a short banner on stderr first | 0 when the client disconnects |
//! | `serve --http 127.0.0.1:8080` | MCP streamable HTTP at `http://127.0.0.1:8080/mcp` | runs until stopped |
//! | `serve --groups arm,sensors` | only these tool groups (and tools without a group) | |
//! | `tools [--format mcp\|markdown\|openai\|anthropic\|gemini]` | prints exactly what the model sees | 0 |
//! | `call NAME --args '{..}'` | runs one tool in-process and prints the result as the model receives it | 0, or 1 for an `isError` result, 2 for an unknown tool or malformed JSON |
//! | `export --out DIR` | writes every format into `DIR` | 0 |
//! | `check --against DIR` | the drift gate against an export | 0 identical, 1 breaking changes, 2 compatible-only changes |

use std::io::{IsTerminal as _, Write as _};
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::export::{self, Format};
use crate::toolbox::Toolbox;

#[derive(Debug, Parser)]
#[command(
    about = "An MCP server built with toolwright",
    disable_version_flag = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the tools over MCP: stdio (default) or streamable HTTP.
    Serve {
        /// Serve streamable HTTP on this address (e.g. 127.0.0.1:8080) instead of stdio.
        #[arg(long, value_name = "ADDR")]
        http: Option<SocketAddr>,
        /// Serve only these tool groups (comma-separated), plus tools without a group.
        #[arg(long, value_delimiter = ',', value_name = "GROUPS")]
        groups: Vec<String>,
    },
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
    },
    /// Write every export format (tools.json, TOOLS.md, openai.json, …) into a directory.
    Export {
        /// The directory.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Compare the tools with an export: exit 0 when identical, 1 for breaking changes, 2 when
    /// every difference is compatible.
    Check {
        /// The directory of a previous `export`.
        #[arg(long, value_name = "DIR")]
        against: PathBuf,
    },
}

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// Runs the command line from the process arguments; returns the exit code.
    pub async fn run(self) -> i32 {
        self.run_with(std::env::args_os()).await
    }

    /// Runs the command line from `args` (the first is the program name).
    pub async fn run_with<I, T>(self, args: I) -> i32
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let cli = match Cli::try_parse_from(args) {
            Ok(cli) => cli,
            Err(e) => {
                let _ = e.print();
                return if e.use_stderr() { 2 } else { 0 };
            }
        };
        match cli.command.unwrap_or(Command::Serve {
            http: None,
            groups: Vec::new(),
        }) {
            Command::Serve { http, groups } => self.cli_serve(http, groups).await,
            Command::Tools { format } => match Format::from_name(&format) {
                Some(format) => {
                    print!("{}", export::render(&self.listed_tools(), format));
                    0
                }
                None => {
                    eprintln!("unknown format `{format}`; use one of: {}", format_names());
                    2
                }
            },
            Command::Call { name, args } => self.cli_call(&name, &args).await,
            Command::Export { out } => match export::write_all(&self.listed_tools(), &out) {
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
            Command::Check { against } => {
                match export::drift::check_against(&self.listed_tools(), &against) {
                    Ok(report) => {
                        if report.is_empty() {
                            println!("no drift: the tools match {}", against.display());
                        } else {
                            print!("{report}");
                        }
                        report.exit_code()
                    }
                    Err(e) => {
                        eprintln!("cannot read the export in {}: {e}", against.display());
                        2
                    }
                }
            }
        }
    }

    async fn cli_serve(self, http: Option<SocketAddr>, groups: Vec<String>) -> i32 {
        let toolbox = if groups.is_empty() {
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
                return 2;
            }
            self.only_groups(&groups)
        };
        if let Some(addr) = http {
            match toolbox.serve_http(addr).await {
                Ok(server) => {
                    eprintln!("serving MCP over streamable HTTP at {}", server.url());
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
            match toolbox.serve_stdio().await {
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
