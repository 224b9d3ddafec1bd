//! Load over streamable HTTP on loopback: many concurrent clients, every response arrives,
//! matches its request and is correct; a tool that panics under load takes nothing down.
//!
//! CI runs 50 clients × 40 calls. The full run from the issue (50 clients, 10,000 calls):
//! `TOOLWRIGHT_LOAD_CALLS=10000 cargo test --release -p toolwright-tests --test load -- --nocapture`

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rmcp::ServiceExt as _;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;
use toolwright::{Toolbox, tool, tool_defs};

static PANICS: AtomicUsize = AtomicUsize::new(0);

/// Echo a request id back, with a computed checksum.
#[tool(read_only, blocking = false)]
fn echo(
    /// Client number.
    client: u32,
    /// Call number within the client.
    seq: u32,
) -> serde_json::Value {
    json!({"client": client, "seq": seq, "check": client * 100_000 + seq})
}

/// Panic on purpose.
#[tool(blocking = false)]
fn crash(
    /// Ignored.
    n: u32,
) -> u32 {
    PANICS.fetch_add(1, Ordering::SeqCst);
    panic!("crash {n}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_clients_every_response_matches_its_request() {
    let total: usize = std::env::var("TOOLWRIGHT_LOAD_CALLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000);
    let clients = 50usize;
    // The deliberate panics would print a backtrace each; keep the output readable.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let crash = info
            .payload()
            .downcast_ref::<String>()
            .is_some_and(|m| m.starts_with("crash "));
        if !crash {
            default_hook(info);
        }
    }));
    let per_client = total / clients;
    let toolbox = Toolbox::from_tools((), tool_defs![echo, crash]);
    let server = toolbox
        .serve_http("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let url = server.url();

    let started = Instant::now();
    let mut tasks = Vec::new();
    for c in 0..clients as u32 {
        let url = url.clone();
        tasks.push(tokio::spawn(async move {
            let client = ().serve(StreamableHttpClientTransport::from_uri(url)).await.unwrap();
            let mut latencies = Vec::with_capacity(per_client);
            for seq in 0..per_client as u32 {
                // Every tenth call of every fifth client hits the panicking tool.
                if c % 5 == 0 && seq % 10 == 9 {
                    let r = client
                        .call_tool(
                            CallToolRequestParams::new("crash")
                                .with_arguments(json!({"n": seq}).as_object().unwrap().clone()),
                        )
                        .await
                        .unwrap();
                    assert_eq!(r.is_error, Some(true));
                    continue;
                }
                let t = Instant::now();
                let r = client
                    .call_tool(
                        CallToolRequestParams::new("echo").with_arguments(
                            json!({"client": c, "seq": seq})
                                .as_object()
                                .unwrap()
                                .clone(),
                        ),
                    )
                    .await
                    .unwrap();
                latencies.push(t.elapsed());
                assert_eq!(r.is_error, Some(false));
                assert_eq!(
                    r.structured_content,
                    Some(json!({"result": {"client": c, "seq": seq, "check": c * 100_000 + seq}})),
                    "the response matches its request"
                );
            }
            client.cancel().await.unwrap();
            latencies
        }));
    }
    let mut latencies: Vec<Duration> = Vec::new();
    for t in tasks {
        latencies.extend(t.await.expect("no client failed"));
    }
    let elapsed = started.elapsed();
    let panics = PANICS.load(Ordering::SeqCst);
    let answered = latencies.len() + panics;
    assert_eq!(answered, clients * per_client, "every call was answered");
    assert!(panics > 0);
    latencies.sort();
    let pct = |p: f64| latencies[((latencies.len() as f64 - 1.0) * p) as usize];
    eprintln!(
        "load: {answered} calls from {clients} clients in {elapsed:.2?} ({:.0} calls/s), p50 {:?}, p99 {:?}, {panics} panics contained",
        answered as f64 / elapsed.as_secs_f64(),
        pct(0.50),
        pct(0.99),
    );
    server.shutdown().await.unwrap();
}
