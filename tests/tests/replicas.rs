//! Replicas sharing a real Redis (issue 43), each a server of its own on loopback, as the README
//! runs them: limits count every replica's calls, per client (a client without a token is its
//! address, whatever session it opens), keep their counts when Redis restarts, and refuse a
//! tool that changes the world while Redis does not answer (a read-only one goes on); a task's
//! `tasks/cancel`, `tasks/get` and `tasks/update` reach it on whichever replica runs it.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::http::Wire;
use common::redis::RedisServer;
use serde_json::{Value, json};
use toolwright::{HttpOptions, HttpServer, ToolboxBuilder, tool, tools};

static DISPENSED: AtomicUsize = AtomicUsize::new(0);

/// Drop one part from the bin: a tool that changes the world, 3 a minute per client.
#[tool(rate_limit = "3/min")]
fn dispense() -> String {
    DISPENSED.fetch_add(1, Ordering::SeqCst);
    "dropped".to_owned()
}

/// Look into the bin: read-only, 3 a minute per client.
#[tool(read_only, rate_limit = "3/min")]
fn peek() -> String {
    "parts".to_owned()
}

/// Read the bin's scale: read-only, 3 a second per client.
#[tool(read_only, rate_limit = "3/s")]
fn tick() -> String {
    "0 g".to_owned()
}

/// A replica of the bin's server, sharing `redis`.
async fn replica(redis: &str) -> HttpServer {
    let toolbox: ToolboxBuilder<()> = tools![dispense, peek, tick];
    let options = HttpOptions::new("127.0.0.1:0".parse().unwrap()).redis(redis);
    toolbox
        .build()
        .unwrap()
        .serve_http_with(options)
        .await
        .expect("serves")
}

/// Waits until `server`'s `/readyz` says it serves (Redis answers), as a load balancer does.
async fn ready(server: &HttpServer) {
    let url = format!("http://{}/readyz", server.local_addr());
    for _ in 0..200 {
        if reqwest::get(&url).await.is_ok_and(|r| r.status() == 200) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{url} never said ready");
}

/// Whether a tool result is a refusal, and its text.
fn outcome(result: &Value) -> (bool, String) {
    (
        result["isError"] == json!(true),
        result["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
    )
}

/// Calls `tool` through `url` on `wire`: the result.
async fn call(wire: &Wire, url: &str, id: u64, tool: &str) -> Value {
    wire.call_result(url, id, tool, json!({})).await
}

/// Issue 43: a client without a token that opens a new session for each call (or calls without
/// one, on 2026-07-28), through two replicas, keeps one quota: its address's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_hopping_client_without_a_token_keeps_one_quota() {
    let redis = RedisServer::start()
        .await
        .expect("redis-server on the PATH (.ci/run installs it)");
    let (one, two) = (replica(&redis.url).await, replica(&redis.url).await);
    let mut granted = 0;
    let mut refused = Vec::new();
    for i in 0..8u64 {
        let server = if i % 2 == 0 { &one } else { &two };
        let wire = if i % 3 == 0 {
            Wire::Stateless
        } else {
            Wire::open(&server.url(), "2025-11-25").await
        };
        let (error, text) = outcome(&call(&wire, &server.url(), i + 1, "peek").await);
        if error {
            refused.push(text);
        } else {
            granted += 1;
        }
    }
    assert_eq!(granted, 3, "{refused:?}");
    for text in &refused {
        assert!(
            text.starts_with(
                "Tool `peek` was not run: the limit of `peek` for each client is 3 calls per \
                 minute and has been reached. Call it again in "
            ),
            "{text}"
        );
    }
    one.shutdown().await.unwrap();
    two.shutdown().await.unwrap();
}

/// Issue 43: while Redis does not answer, a tool that changes the world is refused, saying why
/// (it ran 12 of 12 past a 4/min limit); a read-only one goes on. When Redis comes back empty
/// (it ran with `--save "" --appendonly no`), the counts are what they were: each replica adds
/// back the calls it was granted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_refuse_while_redis_is_down_and_keep_their_counts_when_it_returns() {
    let redis = RedisServer::start()
        .await
        .expect("redis-server on the PATH (.ci/run installs it)");
    let port: u16 = redis
        .url
        .rsplit(':')
        .next()
        .unwrap()
        .trim_end_matches("/0")
        .parse()
        .unwrap();
    let (one, two) = (replica(&redis.url).await, replica(&redis.url).await);
    let wire = Wire::Stateless;
    // Two of the three, one on each replica.
    for (i, server) in [&one, &two].into_iter().enumerate() {
        let (error, text) = outcome(&call(&wire, &server.url(), i as u64 + 1, "dispense").await);
        assert!(!error, "{text}");
    }
    let ran = DISPENSED.load(Ordering::SeqCst);

    drop(redis);
    for (i, server) in [&one, &two, &one, &two].into_iter().enumerate() {
        let (error, text) = outcome(&call(&wire, &server.url(), 10 + i as u64, "dispense").await);
        assert!(error, "ran uncounted: {text}");
        assert!(
            text.starts_with(
                "Tool `dispense` was not run: its rate limits are counted in the store this \
                 server's replicas share (Redis), which does not answer now"
            ),
            "{text}"
        );
        // Read-only: goes on, uncounted.
        let (error, text) = outcome(&call(&wire, &server.url(), 20 + i as u64, "peek").await);
        assert!(!error, "{text}");
    }
    assert_eq!(
        DISPENSED.load(Ordering::SeqCst),
        ran,
        "nothing ran while Redis was down"
    );

    // Back, empty. The two calls made before are counted again: one more, then refused.
    let redis = RedisServer::start_on(port).await.unwrap();
    ready(&one).await;
    ready(&two).await;
    let (error, text) = outcome(&call(&wire, &two.url(), 30, "dispense").await);
    assert!(!error, "{text}");
    for (i, server) in [&one, &two].into_iter().enumerate() {
        let (error, text) = outcome(&call(&wire, &server.url(), 31 + i as u64, "dispense").await);
        assert!(error, "a fourth call in a minute ran: {text}");
        assert!(
            text.contains("the limit of `dispense` for each client is 3 calls per minute"),
            "{text}"
        );
    }
    assert_eq!(DISPENSED.load(Ordering::SeqCst), ran + 1);
    one.shutdown().await.unwrap();
    two.shutdown().await.unwrap();
    drop(redis);
}

/// `4/min` means at most 4 in any minute, across replicas too (it granted 7 within 60 s: a
/// burst, then one every 15 s). Here `3/s`, a call every 100 ms for 3 s on alternate replicas:
/// never 4 within a second (the burst-then-refill limiter granted the 4th at 333 ms).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_limit_is_never_a_burst_then_a_refill() {
    let redis = RedisServer::start()
        .await
        .expect("redis-server on the PATH (.ci/run installs it)");
    let (one, two) = (replica(&redis.url).await, replica(&redis.url).await);
    let wire = Wire::Stateless;
    let started = std::time::Instant::now();
    let mut granted: Vec<f64> = Vec::new();
    for i in 0..30u64 {
        let server = if i % 2 == 0 { &one } else { &two };
        let sent = started.elapsed().as_secs_f64();
        if !outcome(&call(&wire, &server.url(), i + 1, "tick").await).0 {
            granted.push(sent);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Sent times, so a call's answer's latency cannot make two seem further apart than they
    // were admitted (each admitted after it was sent): 4 sent within 0.8 s would break it.
    for (i, &first) in granted.iter().enumerate() {
        let within = granted[i..]
            .iter()
            .take_while(|&&t| t - first < 0.8)
            .count();
        assert!(
            within <= 3,
            "{within} calls within a second from {first:.2} s: {granted:?}"
        );
    }
    assert!(granted.len() >= 6, "{granted:?}");
    one.shutdown().await.unwrap();
    two.shutdown().await.unwrap();
}
