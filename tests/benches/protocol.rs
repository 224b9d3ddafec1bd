//! tools/call and tools/list through rmcp's client, in process over a tokio duplex pipe on a
//! current-thread runtime: toolwright vs the same tools registered by hand with rmcp `ToolRoute`s
//! (the floor) vs rmcp's `#[tool_handler]` default, with 4 tools and with 40.
//!
//! `cargo bench -p toolwright-tests --bench protocol` (see BENCHMARKS.md). Groups:
//! - `call_<n>_tools`: one `tools/call` of `move_arm_to_pose`, warm, sequential;
//! - `list_<n>_tools`: one `tools/list`, warm;
//! - `first_list_<n>_tools`: the first `tools/list` of a fresh server in a fresh thread (rmcp's
//!   schema caches are thread-local, so they start empty), timing the request only;
//! - `build_and_first_list_<n>_tools`: the same, timing the server's construction plus the first
//!   `tools/list` (the session handshake in between is not timed);
//! - `call_sync`: one `tools/call` of a cheap sync tool, run on tokio's blocking pool (the
//!   default) vs declared `blocking = false` (run in place).
//! - `call_task`: one call of a task tool on protocol 2026-07-28 (the body yields once): as a
//!   plain call (a client without the tasks extension), vs as a task (a client with it, the
//!   toolbox promoting at once: `tools/call` answering the task, then `tasks/get` until it
//!   ended).
//! - `call_envelope`: `move_arm_to_pose` with its target in the arm's envelope (checked before
//!   the user would be asked and again at the call's turn) vs the same tool without a target;
//! - `call_envelope_path`: `plan_trajectory` planning 10 segments, with its path in the
//!   envelope vs without (the difference over 10 is the cost per segment).
//!
//! toolwright's servers are served with `Toolbox::serve`, as `serve_stdio` does (each `tools/call`
//! is stamped with its place in its resources' queues as the transport reads it).

mod common;
#[path = "common/servers.rs"]
mod servers;

use std::hint::black_box;
use std::time::{Duration, Instant};

use rmcp::ServiceExt as _;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService};
use serde::Serialize;
use tokio::runtime::Runtime;
use toolwright::{ToolSchema, Toolbox, ToolboxBuilder, tool, tool_defs};

use common::{Ratio, Routine, Scenario};
use servers::{CALLED, Floor, Macros4, Macros40};

type Client = RunningService<RoleClient, ()>;

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

/// Serves `server` on one end of a duplex pipe (on the current runtime) and connects rmcp's
/// client to the other.
async fn connect<S: rmcp::ServerHandler>(server: S) -> Client {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let running = server.serve(server_io).await.expect("server starts");
        let _ = running.waiting().await;
    });
    ().serve(client_io).await.expect("client connects")
}

/// Serves a toolbox as `serve_stdio` does (`Toolbox::serve`), on a duplex pipe.
async fn connect_toolbox<S: Send + Sync + 'static>(toolbox: Toolbox<S>) -> Client {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let running = toolbox.serve(server_io).await.expect("server starts");
        let _ = running.waiting().await;
    });
    ().serve(client_io).await.expect("client connects")
}

fn request() -> CallToolRequestParams {
    CallToolRequestParams::new(CALLED).with_arguments(servers::call_arguments())
}

/// A plan of 10 waypoints (planned only).
fn path_request() -> CallToolRequestParams {
    CallToolRequestParams::new("plan_trajectory").with_arguments(servers::path_arguments(10))
}

/// Warm tools/call: a connected client calling `move_arm_to_pose` `n` times in a row.
fn call_routine<S: rmcp::ServerHandler>(server: S) -> Routine {
    call_routine_on(connect(server), request)
}

/// The same, on a toolwright server.
fn toolwright_call_routine<S: Send + Sync + 'static>(
    toolbox: Toolbox<S>,
    request: fn() -> CallToolRequestParams,
) -> Routine {
    call_routine_on(connect_toolbox(toolbox), request)
}

fn call_routine_on(
    connect: impl std::future::Future<Output = Client>,
    request: fn() -> CallToolRequestParams,
) -> Routine {
    let rt = runtime();
    let client = rt.block_on(async {
        let client = connect.await;
        // Once, so that no benchmark times an error path.
        let result = client.call_tool(request()).await.expect("tools/call");
        assert_eq!(result.is_error, Some(false), "{result:?}");
        assert!(result.structured_content.is_some(), "{result:?}");
        client
    });
    Box::new(move |iters| {
        rt.block_on(async {
            let start = Instant::now();
            for _ in 0..iters {
                black_box(client.call_tool(request()).await.expect("tools/call"));
            }
            start.elapsed()
        })
    })
}

/// Warm tools/list.
fn list_routine<S: rmcp::ServerHandler>(server: S, tools: usize) -> Routine {
    let rt = runtime();
    let client = rt.block_on(async {
        let client = connect(server).await;
        let listed = client.list_tools(None).await.expect("tools/list");
        assert_eq!(listed.tools.len(), tools);
        client
    });
    Box::new(move |iters| {
        rt.block_on(async {
            let start = Instant::now();
            for _ in 0..iters {
                black_box(client.list_tools(None).await.expect("tools/list"));
            }
            start.elapsed()
        })
    })
}

/// Builds a server (counted by `instructions.sh` for `build_and_first_list_*`).
#[inline(never)]
fn tw_bench_cold_build<S>(build: &dyn Fn() -> S) -> (S, Duration) {
    let start = Instant::now();
    let server = black_box(build());
    (server, start.elapsed())
}

/// The first tools/list of a fresh server (counted by `instructions.sh` for the cold groups).
#[inline(never)]
fn tw_bench_cold_first_list(rt: &Runtime, client: &Client, tools: usize) -> Duration {
    rt.block_on(async {
        let start = Instant::now();
        let listed = client.list_tools(None).await.expect("tools/list");
        let took = start.elapsed();
        assert_eq!(listed.tools.len(), tools);
        took
    })
}

/// One cold start on a fresh thread and runtime (rmcp's schema caches are thread-local):
/// the construction's time and the first tools/list's.
fn cold_once<S, F>(build: F, tools: usize) -> (Duration, Duration)
where
    S: rmcp::ServerHandler,
    F: Fn() -> S + Send + 'static,
{
    std::thread::spawn(move || {
        let rt = runtime();
        let (server, built) = tw_bench_cold_build(&build);
        let client = rt.block_on(connect(server));
        let listed = tw_bench_cold_first_list(&rt, &client, tools);
        rt.block_on(async { drop(client.cancel().await) });
        (built, listed)
    })
    .join()
    .expect("cold run")
}

/// `with_build`: times the construction plus the first tools/list; otherwise the request only.
fn cold_routine<S, F>(build: F, tools: usize, with_build: bool) -> Routine
where
    S: rmcp::ServerHandler,
    F: Fn() -> S + Send + Clone + 'static,
{
    Box::new(move |iters| {
        (0..iters)
            .map(|_| {
                let (built, listed) = cold_once(build.clone(), tools);
                if with_build { built + listed } else { listed }
            })
            .sum::<Duration>()
    })
}

/// Prints each server's tools/list payload size once, for the record.
fn print_payload_sizes() {
    for tools in [4, 40] {
        let tw = servers::toolwright(tools);
        let ours = serde_json::to_string(tw.tools()).map_or(0, |s| s.len());
        let floor = serde_json::to_string(&servers::floor_tools(tools)).map_or(0, |s| s.len());
        println!(
            "tools/list payload, {tools} tools: toolwright {ours} bytes, rmcp_router {floor} bytes"
        );
    }
}

fn scenarios() -> Vec<Scenario> {
    let mut v = Vec::new();
    for tools in [4, 40] {
        let group = format!("call_{tools}_tools");
        v.push(Scenario::new(&group, "toolwright", move || {
            toolwright_call_routine(servers::toolwright(tools), request)
        }));
        v.push(Scenario::new(&group, "rmcp_router", move || {
            call_routine(Floor::new(tools))
        }));
        v.push(Scenario::new(&group, "rmcp_router_trace_meta", move || {
            call_routine(Floor::with_trace_meta(tools))
        }));
        v.push(Scenario::new(&group, "rmcp_macros", move || match tools {
            4 => call_routine(Macros4),
            _ => call_routine(Macros40),
        }));
    }
    v.push(Scenario::new("call_sync", "blocking_pool", || {
        toolwright_call_routine(sync_tools(), || CallToolRequestParams::new("read_joints"))
    }));
    v.push(Scenario::new("call_sync", "inline", || {
        toolwright_call_routine(sync_tools(), || {
            CallToolRequestParams::new("read_joints_inline")
        })
    }));
    // The envelope's cost per call (issue 34): the gate before the user is asked and the
    // check again at the call's turn, on one target and on a 10-segment path.
    v.push(Scenario::new("call_envelope", "target", || {
        toolwright_call_routine(servers::toolwright_targets(true), request)
    }));
    v.push(Scenario::new("call_envelope", "no_target", || {
        toolwright_call_routine(servers::toolwright_targets(false), request)
    }));
    v.push(Scenario::new("call_envelope_path", "path_10", || {
        toolwright_call_routine(servers::toolwright_targets(true), path_request)
    }));
    v.push(Scenario::new("call_envelope_path", "no_path_10", || {
        toolwright_call_routine(servers::toolwright_targets(false), path_request)
    }));
    v.push(Scenario::new("call_task", "plain", || task_routine(false)));
    v.push(Scenario::new("call_task", "task", || task_routine(true)));
    for tools in [4, 40] {
        let group = format!("list_{tools}_tools");
        v.push(Scenario::new(&group, "toolwright", move || {
            list_routine(servers::toolwright(tools), tools)
        }));
        v.push(Scenario::new(&group, "rmcp_router", move || {
            list_routine(Floor::new(tools), tools)
        }));
        v.push(Scenario::new(&group, "rmcp_router_same_defs", move || {
            let defs = servers::toolwright(tools).tools().to_vec();
            list_routine(Floor::with_definitions(defs), tools)
        }));
        v.push(Scenario::new(&group, "rmcp_macros", move || match tools {
            4 => list_routine(Macros4, tools),
            _ => list_routine(Macros40, tools),
        }));
    }
    for tools in [4, 40] {
        for (prefix, with_build) in [("first_list", false), ("build_and_first_list", true)] {
            let group = format!("{prefix}_{tools}_tools");
            v.push(
                Scenario::new(&group, "toolwright", move || {
                    cold_routine(move || servers::toolwright(tools), tools, with_build)
                })
                .samples(30),
            );
            v.push(
                Scenario::new(&group, "rmcp_router", move || {
                    cold_routine(move || Floor::new(tools), tools, with_build)
                })
                .samples(30),
            );
            if tools == 40 {
                v.push(
                    Scenario::new(&group, "rmcp_router_own_types", move || {
                        cold_routine(move || Floor::with_own_types(tools), tools, with_build)
                    })
                    .samples(30),
                );
            }
            v.push(
                Scenario::new(&group, "rmcp_macros", move || match tools {
                    4 => cold_routine(|| Macros4, tools, with_build),
                    _ => cold_routine(|| Macros40, tools, with_build),
                })
                .samples(30),
            );
        }
    }
    v
}

/// Joint angles.
#[derive(Serialize, ToolSchema)]
struct Joints {
    /// Angle of each of the six joints.
    #[param(unit = "deg")]
    angles: [f64; 6],
}

fn joints() -> Joints {
    Joints {
        angles: [0.0, -30.0, 60.0, 0.0, 45.0, 90.0],
    }
}

/// Read the joint angles (a sync tool on tokio's blocking pool, the default).
#[tool(read_only)]
fn read_joints() -> Joints {
    joints()
}

/// Read the joint angles (the same sync tool, declared `blocking = false`: run in place).
#[tool(read_only, blocking = false)]
fn read_joints_inline() -> Joints {
    joints()
}

fn sync_tools() -> Toolbox {
    Toolbox::from_tools((), tool_defs![read_joints, read_joints_inline])
}

/// Home the arm (yields once, as a motion's first step would: a task tool's body).
#[tool(idempotent, task = "optional")]
async fn home_arm() -> Joints {
    tokio::task::yield_now().await;
    joints()
}

/// A client on protocol 2026-07-28 that declares the tasks extension (or not).
#[derive(Clone)]
struct TaskClient(bool);

impl rmcp::ClientHandler for TaskClient {
    fn get_info(&self) -> rmcp::model::ClientConfig {
        let mut capabilities = rmcp::model::ClientCapabilities::default();
        if self.0 {
            capabilities = rmcp::model::ClientCapabilities::builder()
                .enable_tasks()
                .build();
        }
        rmcp::model::ClientConfig::new(
            capabilities,
            rmcp::model::Implementation::new("bench", "1.0"),
        )
    }
}

/// One call of `home_arm`: plain, or as a task polled to its end.
fn task_routine(as_task: bool) -> Routine {
    use rmcp::model::{CallToolResponse, GetTaskParams, ProtocolVersion};
    use rmcp::service::{ClientLifecycleMode, ClientServiceExt as _};
    let rt = runtime();
    let client = rt.block_on(async {
        let toolbox = ToolboxBuilder::new(())
            .with_tools(tool_defs![home_arm])
            .with_task_limits(
                // Records of ended tasks are kept for their TTL: room for every iteration.
                toolwright::TaskLimits::default()
                    .with_promote_after(Duration::ZERO)
                    .with_max_total(1 << 20),
            )
            .build()
            .unwrap();
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            let running = toolbox.serve(server_io).await.expect("server starts");
            let _ = running.waiting().await;
        });
        TaskClient(as_task)
            .serve_with_lifecycle(
                client_io,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .expect("client connects")
    });
    let peer = client.peer().clone();
    let once = move |client: rmcp::Peer<RoleClient>| async move {
        let answer = client
            .call_tool_once(CallToolRequestParams::new("home_arm"))
            .await
            .expect("tools/call");
        match answer {
            CallToolResponse::Complete(result) => {
                assert!(!as_task, "a plain call");
                result.structured_content.expect("structured")
            }
            CallToolResponse::Task(created) => {
                assert!(as_task, "a task");
                loop {
                    let task = client
                        .get_task(GetTaskParams::new(created.task.task_id.clone()))
                        .await
                        .expect("tasks/get");
                    if let rmcp::model::TaskPayload::Completed { result } = task.task.payload {
                        break result["structuredContent"].clone();
                    }
                    tokio::task::yield_now().await;
                }
            }
            other => panic!("{other:?}"),
        }
    };
    rt.block_on(async {
        black_box(once(peer.clone()).await);
    });
    Box::new(move |iters| {
        // The connection lives as long as the routine.
        let _client = &client;
        rt.block_on(async {
            let start = Instant::now();
            for _ in 0..iters {
                black_box(once(peer.clone()).await);
            }
            start.elapsed()
        })
    })
}

/// `TOOLWRIGHT_BENCH_TELEMETRY`: the logging set-up the telemetry runs share (BENCHMARKS.md,
/// "OpenTelemetry: what a call costs"): `logs` installs a stderr logger (`RUST_LOG`, `warn` in
/// those runs); a URL installs the same logger through `toolwright::Telemetry` with the
/// OpenTelemetry exporter sending to it (built with `--features otel`). Kept alive until the
/// process ends.
fn telemetry() -> Option<Box<dyn std::any::Any>> {
    let setting = std::env::var("TOOLWRIGHT_BENCH_TELEMETRY").ok()?;
    if setting == "logs" {
        tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
            .init();
        return None;
    }
    #[cfg(feature = "otel")]
    return Some(Box::new(toolwright::Telemetry::install(Some(&setting))));
    #[cfg(not(feature = "otel"))]
    panic!("TOOLWRIGHT_BENCH_TELEMETRY={setting}: build with --features otel to export");
}

fn main() {
    let _telemetry = telemetry();
    let mut ratios = vec![
        Ratio::new("call_task", "task", "plain", None),
        Ratio::new("call_envelope", "target", "no_target", Some(1.02)),
        Ratio::new("call_envelope_path", "path_10", "no_path_10", None),
        Ratio::new("call_sync", "blocking_pool", "inline", None),
    ];
    for tools in [4usize, 40] {
        let call = format!("call_{tools}_tools");
        ratios.push(Ratio::new(&call, "toolwright", "rmcp_router", Some(1.05)));
        ratios.push(Ratio::new(&call, "rmcp_macros", "rmcp_router", None));
        ratios.push(Ratio::new(
            &call,
            "rmcp_router_trace_meta",
            "rmcp_router",
            None,
        ));
        ratios.push(Ratio::new(&call, "toolwright", "rmcp_macros", None));
        let list = format!("list_{tools}_tools");
        ratios.push(Ratio::new(&list, "toolwright", "rmcp_router", Some(1.0)));
        ratios.push(Ratio::new(
            &list,
            "toolwright",
            "rmcp_router_same_defs",
            Some(1.0),
        ));
        ratios.push(Ratio::new(&list, "rmcp_macros", "rmcp_router", None));
        for prefix in ["first_list", "build_and_first_list"] {
            let group = format!("{prefix}_{tools}_tools");
            ratios.push(Ratio::new(&group, "toolwright", "rmcp_router", Some(1.0)));
            if tools == 40 {
                ratios.push(Ratio::new(
                    &group,
                    "toolwright",
                    "rmcp_router_own_types",
                    Some(1.0),
                ));
            }
            ratios.push(Ratio::new(&group, "rmcp_macros", "rmcp_router", None));
        }
    }
    if std::env::var_os("TOOLWRIGHT_BENCH_PROFILE").is_none()
        && std::env::var_os("TOOLWRIGHT_BENCH_SCENARIOS").is_none()
    {
        print_payload_sizes();
    }
    common::run("protocol", scenarios(), &ratios);
}
