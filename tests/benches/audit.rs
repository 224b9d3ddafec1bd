//! What an audit log costs a call: `tools/call` of the robot arm's `move_arm_to_pose` at its home
//! position (no motion; confirmation off), through rmcp's client over a duplex pipe, on a server
//! without an audit log and on one with `Toolbox::with_audit_log` (one line written and fsynced
//! per call), in the same process, alternating blocks of calls so both see the same machine
//! load. Also the cost of one append + `fdatasync` alone, on the same file system.
//!
//! `cargo bench -p toolwright-tests --bench audit` (release), or with `--profile dev`; the log
//! goes to `TOOLWRIGHT_AUDIT_BENCH_DIR` (default: the system's temp directory), since the cost is
//! the disk's. Prints medians per call and their ratio (BENCHMARKS.md).

use std::io::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rmcp::ServiceExt as _;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService};
use serde_json::json;
use toolwright::audit::AuditLog;
use toolwright::{Toolbox, ToolboxBuilder};
use toolwright_examples::robot_arm::{self, RobotArm, SimConfig};

type Client = RunningService<RoleClient, ()>;

const BLOCKS: usize = 20;
const CALLS_PER_BLOCK: usize = 100;

fn dir() -> PathBuf {
    let base = std::env::var_os("TOOLWRIGHT_AUDIT_BENCH_DIR")
        .map_or_else(std::env::temp_dir, PathBuf::from);
    let dir = base.join(format!("toolwright-audit-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("bench directory");
    dir
}

fn arm() -> ToolboxBuilder<RobotArm> {
    robot_arm::server(SimConfig {
        time_scale: 0.0,
        ..SimConfig::default()
    })
    .with_confirmation(false)
}

async fn connect(toolbox: Toolbox<RobotArm>) -> Client {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let running = toolbox.serve(server_io).await.expect("server starts");
        let _ = running.waiting().await;
    });
    ().serve(client_io).await.expect("client connects")
}

fn request() -> CallToolRequestParams {
    let serde_json::Value::Object(args) = json!({"x": 300, "y": 0, "z": 400}) else {
        unreachable!()
    };
    CallToolRequestParams::new("move_arm_to_pose").with_arguments(args)
}

/// Mean time per call of one block.
async fn block(client: &Client) -> Duration {
    let started = Instant::now();
    for _ in 0..CALLS_PER_BLOCK {
        let result = client.call_tool(request()).await.expect("call");
        assert_eq!(result.is_error, Some(false), "{result:?}");
    }
    started.elapsed() / CALLS_PER_BLOCK as u32
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn micros(d: Duration) -> String {
    format!("{:.1} µs", d.as_secs_f64() * 1e6)
}

fn main() {
    // `cargo bench` passes `--bench`; nothing to filter.
    let dir = dir();
    let log_path = dir.join("audit.jsonl");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let (plain, audited) = runtime.block_on(async {
        let plain_client = connect(arm().build().unwrap()).await;
        let audited_client = connect(
            arm()
                .with_audit_log(AuditLog::open(&log_path).expect("audit log"))
                .build()
                .unwrap(),
        )
        .await;
        // Warm both.
        block(&plain_client).await;
        block(&audited_client).await;
        let (mut plain, mut audited) = (Vec::new(), Vec::new());
        for _ in 0..BLOCKS {
            plain.push(block(&plain_client).await);
            audited.push(block(&audited_client).await);
        }
        (median(plain), median(audited))
    });
    let lines = toolwright::audit::verify(&log_path).expect("the log verifies");
    assert_eq!(
        lines.lines as usize,
        (BLOCKS + 1) * CALLS_PER_BLOCK,
        "one line per call"
    );

    // One append + fdatasync alone, a line of the same size.
    let line = std::fs::read_to_string(&log_path)
        .expect("log")
        .lines()
        .next()
        .expect("a line")
        .to_owned()
        + "\n";
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("fsync.jsonl"))
        .expect("file");
    let mut fsyncs = Vec::new();
    for _ in 0..BLOCKS {
        let started = Instant::now();
        for _ in 0..CALLS_PER_BLOCK {
            file.write_all(line.as_bytes()).expect("write");
            file.sync_data().expect("fdatasync");
        }
        fsyncs.push(started.elapsed() / CALLS_PER_BLOCK as u32);
    }
    let fsync = median(fsyncs);

    println!(
        "audit log cost per tools/call ({} blocks of {} calls, medians of block means; log in {}; line of {} bytes)",
        BLOCKS,
        CALLS_PER_BLOCK,
        dir.display(),
        line.len()
    );
    println!("| scenario | per call | ratio |");
    println!("|---|---|---|");
    println!("| without audit log | {} | 1 |", micros(plain));
    println!(
        "| with audit log (line written and fsynced before the answer) | {} | {:.2}× |",
        micros(audited),
        audited.as_secs_f64() / plain.as_secs_f64()
    );
    println!(
        "| append + fdatasync alone (same file system) | {} | {:.2}× |",
        micros(fsync),
        fsync.as_secs_f64() / plain.as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
