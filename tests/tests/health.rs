//! `GET /healthz` and `GET /readyz` for load balancers (issue 35): no token needed, and
//! `/readyz` answers `503` while the shared store (Redis) does not answer, `200` again once it
//! does.

mod common;

use std::time::Duration;

use serde_json::Value;
use toolwright::HttpOptions;
use toolwright_examples::parts_catalog;

const TOKEN: &str = "health-token-0123456789abcdef";

async fn get(url: &str) -> (u16, Value) {
    let response = reqwest::Client::new()
        .get(url)
        .send()
        .await
        .expect("answered");
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_and_readiness_need_no_token_and_say_only_their_status() {
    let server = parts_catalog::server()
        .build()
        .unwrap()
        .serve_http_with(HttpOptions::new("127.0.0.1:0".parse().unwrap()).bearer_token(TOKEN))
        .await
        .unwrap();
    let base = format!("http://{}", server.local_addr());
    assert_eq!(
        get(&format!("{base}/healthz")).await,
        (200, serde_json::json!({"status": "ok"}))
    );
    assert_eq!(
        get(&format!("{base}/readyz")).await,
        (200, serde_json::json!({"status": "ready"}))
    );
    // The MCP endpoint still asks for the token.
    let mcp = reqwest::Client::new()
        .get(server.url())
        .send()
        .await
        .unwrap();
    assert_eq!(mcp.status().as_u16(), 401);
    // Only GET and HEAD.
    let post = reqwest::Client::new()
        .post(format!("{base}/readyz"))
        .send()
        .await
        .unwrap();
    assert_eq!(post.status().as_u16(), 405);
    let head = reqwest::Client::new()
        .head(format!("{base}/healthz"))
        .send()
        .await
        .unwrap();
    assert_eq!(head.status().as_u16(), 200);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_follows_redis() {
    let Some(redis) = common::redis::RedisServer::start().await else {
        panic!("redis-server is not installed (.ci/run installs it)");
    };
    let server = parts_catalog::server()
        .build()
        .unwrap()
        .serve_http_with(HttpOptions::new("127.0.0.1:0".parse().unwrap()).redis(&redis.url))
        .await
        .unwrap();
    let base = format!("http://{}", server.local_addr());
    assert_eq!(get(&format!("{base}/readyz")).await.0, 200);
    // Redis stops: not ready (the process itself is alive).
    let url = redis.url.clone();
    drop(redis);
    let (status, body) = get(&format!("{base}/readyz")).await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["status"], "not ready", "{body}");
    assert!(body["reason"].as_str().unwrap().contains("Redis"), "{body}");
    assert_eq!(get(&format!("{base}/healthz")).await.0, 200);
    // Redis back on the same port: ready again (the connection reconnects).
    let port: u16 = url
        .rsplit(':')
        .next()
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let _again = common::redis::RedisServer::start_on(port).await;
    let mut ready = false;
    for _ in 0..100 {
        if get(&format!("{base}/readyz")).await.0 == 200 {
            ready = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(ready, "/readyz did not come back after Redis did");
    server.shutdown().await.unwrap();
}
