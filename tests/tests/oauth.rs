//! The OAuth resource server through real HTTP, with tokens from a real issuer: a local
//! authorization server in this test (its metadata and its JWKS served over loopback HTTP, its
//! tokens signed with Ed25519 keys by the `jsonwebtoken` crate), and the robot arm served with
//! `HttpOptions::oauth`. Each of issue 27's gaps as a regression test: a session answers only
//! the principal that created it; a client's 200 KB `kid` (or tool name) is not echoed whole;
//! a new key under a known `kid`, or a rotated only key, is accepted after one refetch of the
//! keys (the issuer's metadata is not fetched again); a discovered plain-http `jwks_uri` off
//! loopback is refused.

mod common;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use toolwright::{HttpOptions, HttpServer, OAuthConfig, Toolbox};
use toolwright_examples::robot_arm::{RobotArm, SimConfig};

/// The resource URI the server is configured with (the tokens' `aud`).
const RESOURCE: &str = "http://127.0.0.1/mcp";

// ---------------------------------------------------------------------------------------------
// The server's log, captured (one subscriber for the whole test binary).

fn log_buffer() -> &'static Arc<Mutex<Vec<u8>>> {
    static LOG: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOG.get_or_init(|| {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&buffer);
        let _ = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_max_level(tracing_subscriber::filter::LevelFilter::INFO)
            .with_writer(move || LogWriter(Arc::clone(&sink)))
            .try_init();
        buffer
    })
}

struct LogWriter(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for LogWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn logged() -> String {
    String::from_utf8_lossy(&log_buffer().lock().unwrap()).into_owned()
}

// ---------------------------------------------------------------------------------------------
// The authorization server.

struct Key {
    kid: Option<String>,
    encoding: EncodingKey,
    jwk: Jwk,
}

/// An Ed25519 key made from a one-byte seed (`seed` picks the key), published under `kid`.
fn key(seed: u8, kid: Option<&str>) -> Key {
    // PKCS#8 for Ed25519: a fixed 16-byte header, then the 32-byte seed.
    let mut der = vec![
        0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04,
        0x20,
    ];
    der.extend((0..32u8).map(|i| seed.wrapping_mul(31).wrapping_add(i)));
    let encoding = EncodingKey::from_ed_der(&der);
    let mut jwk = Jwk::from_encoding_key(&encoding, Algorithm::EdDSA).expect("a public JWK");
    jwk.common.key_id = kid.map(str::to_owned);
    Key {
        kid: kid.map(str::to_owned),
        encoding,
        jwk,
    }
}

#[derive(Default)]
struct IssuerState {
    /// The published keys; the first one signs.
    keys: Vec<Key>,
    /// The `jwks_uri` its metadata names (default: its own `/jwks`).
    jwks_uri: Option<String>,
    metadata_fetches: usize,
    jwks_fetches: usize,
}

/// An authorization server on a loopback port: RFC 8414 metadata, a JWKS, and tokens.
struct Issuer {
    url: String,
    state: Arc<Mutex<IssuerState>>,
}

impl Issuer {
    async fn start(first: Key) -> Issuer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let state = Arc::new(Mutex::new(IssuerState {
            keys: vec![first],
            ..IssuerState::default()
        }));
        let (shared, issuer) = (Arc::clone(&state), url.clone());
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let (state, issuer) = (Arc::clone(&shared), issuer.clone());
                tokio::spawn(async move {
                    let mut request = Vec::new();
                    let mut buf = [0u8; 4096];
                    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                        match stream.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => request.extend_from_slice(&buf[..n]),
                        }
                    }
                    let line = String::from_utf8_lossy(&request);
                    let path = line.split_whitespace().nth(1).unwrap_or("").to_owned();
                    let body = {
                        let mut s = state.lock().unwrap();
                        match path.as_str() {
                            "/.well-known/oauth-authorization-server" => {
                                s.metadata_fetches += 1;
                                let jwks_uri =
                                    s.jwks_uri.clone().unwrap_or(format!("{issuer}/jwks"));
                                Some(json!({"issuer": issuer, "jwks_uri": jwks_uri}))
                            }
                            "/jwks" => {
                                s.jwks_fetches += 1;
                                let keys: Vec<&Jwk> = s.keys.iter().map(|k| &k.jwk).collect();
                                Some(json!({ "keys": keys }))
                            }
                            _ => None,
                        }
                    };
                    let response = match body {
                        Some(body) => {
                            let body = body.to_string();
                            format!(
                                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
                                 content-length: {}\r\nconnection: close\r\n\r\n{body}",
                                body.len()
                            )
                        }
                        None => "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                            .to_owned(),
                    };
                    let _ = stream.write_all(response.as_bytes()).await;
                    let _ = stream.shutdown().await;
                });
            }
        });
        Issuer { url, state }
    }

    /// A token with these claims (besides `iss`, `aud`, `iat` and `exp`), signed by the
    /// current key under its `kid`.
    fn token(&self, claims: Value) -> String {
        let state = self.state.lock().unwrap();
        let signer = &state.keys[0];
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = signer.kid.clone();
        sign(&header, &self.claims(claims), &signer.encoding)
    }

    fn claims(&self, extra: Value) -> Value {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let mut claims = json!({"iss": self.url, "aud": RESOURCE, "iat": now, "exp": now + 300});
        for (k, v) in extra.as_object().unwrap() {
            claims[k] = v.clone();
        }
        claims
    }

    /// Publishes `key` alone: the old keys are gone.
    fn rotate(&self, key: Key) {
        self.state.lock().unwrap().keys = vec![key];
    }

    fn fetches(&self) -> (usize, usize) {
        let s = self.state.lock().unwrap();
        (s.metadata_fetches, s.jwks_fetches)
    }
}

fn sign(header: &Header, claims: &Value, key: &EncodingKey) -> String {
    jsonwebtoken::encode(header, claims, key).expect("signs")
}

fn alice() -> Value {
    json!({"sub": "alice", "client_id": "operator-app", "scope": "arm:move arm:read"})
}

fn bob() -> Value {
    json!({"sub": "bob", "client_id": "operator-app", "scope": "arm:move arm:read"})
}

// ---------------------------------------------------------------------------------------------
// The resource server, and raw HTTP to it.

async fn serve(issuer: &Issuer) -> HttpServer {
    log_buffer();
    let arm = Toolbox::builder(RobotArm::new(SimConfig {
        time_scale: 0.0,
        ..SimConfig::default()
    }))
    .with_confirmation(false)
    .build()
    .unwrap();
    let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
    arm.serve_http_with(HttpOptions::new(addr).oauth(OAuthConfig::new(&issuer.url, RESOURCE)))
        .await
        .expect("serves")
}

struct Answer {
    status: u16,
    headers: reqwest::header::HeaderMap,
    body: String,
}

impl Answer {
    /// Every byte of the status line's meaning, the headers and the body, as sent.
    fn size(&self) -> usize {
        self.headers
            .iter()
            .map(|(k, v)| k.as_str().len() + v.len() + 4)
            .sum::<usize>()
            + self.body.len()
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// One request to `/mcp` with `token`, naming `session`; the body is read unless it is an
/// event stream that stays open (a `GET` that was answered with one: then `body` is empty).
async fn send(
    server: &HttpServer,
    method: reqwest::Method,
    token: &str,
    session: Option<&str>,
    extra: &[(&str, &str)],
    body: Option<&Value>,
) -> Answer {
    let mut request = reqwest::Client::new()
        .request(method.clone(), server.url())
        .header("accept", "application/json, text/event-stream")
        .header("authorization", format!("Bearer {token}"))
        .header("mcp-protocol-version", "2025-11-25");
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    for (k, v) in extra {
        request = request.header(*k, *v);
    }
    if let Some(body) = body {
        request = request
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    let response = request.send().await.expect("the server answers");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let streaming = method == reqwest::Method::GET
        && headers
            .get("content-type")
            .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
    let body = if streaming {
        String::new()
    } else {
        tokio::time::timeout(Duration::from_secs(20), response.text())
            .await
            .expect("the body ends")
            .unwrap_or_default()
    };
    Answer {
        status,
        headers,
        body,
    }
}

fn initialize() -> Value {
    json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}
    })
}

fn call(id: u64, tool: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": {}}})
}

/// A session opened with `token`, its handshake completed: its id.
async fn open_session(server: &HttpServer, token: &str) -> String {
    let post = reqwest::Method::POST;
    let init = send(server, post.clone(), token, None, &[], Some(&initialize())).await;
    assert_eq!(init.status, 200, "{}", init.body);
    let session = init.header("mcp-session-id").expect("a session").to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let done = send(server, post, token, Some(&session), &[], Some(&initialized)).await;
    assert_eq!(done.status, 202, "{}", done.body);
    session
}

/// The JSON-RPC message in an SSE body.
fn sse_message(body: &str) -> Value {
    body.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .map(str::trim)
        .find(|d| !d.is_empty())
        .map(|d| serde_json::from_str(d).expect("JSON"))
        .unwrap_or_else(|| panic!("no message in {body:?}"))
}

// ---------------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_answers_only_the_principal_that_created_it() {
    let issuer = Issuer::start(key(1, Some("k1"))).await;
    let server = serve(&issuer).await;
    let (post, get, delete) = (
        reqwest::Method::POST,
        reqwest::Method::GET,
        reqwest::Method::DELETE,
    );
    let owner = issuer.token(alice());
    let session = open_session(&server, &owner).await;

    // What a session that does not exist gets: the answer every other principal must get.
    let nobody = "6f9619ff-8b86-d011-b42d-00cf4fc964ff";
    let absent = send(
        &server,
        post.clone(),
        &owner,
        Some(nobody),
        &[],
        Some(&call(1, "get_arm_state")),
    )
    .await;
    assert_eq!(absent.status, 404, "{}", absent.body);

    // Another subject of the same issuer, and the same name as a client id rather than a
    // subject: other principals, each refused on every route, exactly as if it did not exist.
    let others = [
        ("bob", issuer.token(bob())),
        (
            "client `alice` without a subject",
            issuer.token(json!({"client_id": "alice", "scope": "arm:move arm:read"})),
        ),
    ];
    for (who, token) in &others {
        let attempts = [
            (
                "a call",
                send(
                    &server,
                    post.clone(),
                    token,
                    Some(&session),
                    &[],
                    Some(&call(2, "get_arm_state")),
                )
                .await,
            ),
            (
                "a ping",
                send(
                    &server,
                    post.clone(),
                    token,
                    Some(&session),
                    &[],
                    Some(&json!({"jsonrpc": "2.0", "id": 3, "method": "ping"})),
                )
                .await,
            ),
            (
                "a notification",
                send(
                    &server,
                    post.clone(),
                    token,
                    Some(&session),
                    &[],
                    Some(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"})),
                )
                .await,
            ),
            (
                "the event stream",
                send(&server, get.clone(), token, Some(&session), &[], None).await,
            ),
            (
                "a resumption",
                send(
                    &server,
                    get.clone(),
                    token,
                    Some(&session),
                    &[("last-event-id", "0")],
                    None,
                )
                .await,
            ),
            (
                "a DELETE",
                send(&server, delete.clone(), token, Some(&session), &[], None).await,
            ),
        ];
        for (what, answer) in attempts {
            assert_eq!(answer.status, 404, "{who}, {what}: {}", answer.body);
            assert_eq!(answer.body, absent.body, "{who}, {what}");
            let mut names: Vec<&str> = answer.headers.keys().map(|k| k.as_str()).collect();
            let mut expected: Vec<&str> = absent.headers.keys().map(|k| k.as_str()).collect();
            names.sort_unstable();
            expected.sort_unstable();
            assert_eq!(
                names, expected,
                "{who}, {what}: the same headers as no session"
            );
        }
        // A DELETE of a session that does not exist is a 404 too (not an accepted no-op).
        let gone = send(&server, delete.clone(), token, Some(nobody), &[], None).await;
        assert_eq!(gone.status, 404);
    }

    // The owner is undisturbed: its session calls tools, opens its event stream, and ends
    // when the owner ends it.
    let called = send(
        &server,
        post.clone(),
        &owner,
        Some(&session),
        &[],
        Some(&call(4, "get_arm_state")),
    )
    .await;
    assert_eq!(called.status, 200, "{}", called.body);
    let result = &sse_message(&called.body)["result"];
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(result["structuredContent"]["moving"], false, "{result}");
    let stream = send(&server, get.clone(), &owner, Some(&session), &[], None).await;
    assert_eq!(
        stream.status, 200,
        "the owner's event stream: {}",
        stream.body
    );
    assert!(
        stream
            .header("content-type")
            .unwrap()
            .starts_with("text/event-stream")
    );
    // Ended at once: `204` (rmcp's `202` made the Python SDK warn at every session's end).
    let ended = send(&server, delete.clone(), &owner, Some(&session), &[], None).await;
    assert_eq!(ended.status, 204, "{}", ended.body);
    let after = send(
        &server,
        post,
        &owner,
        Some(&session),
        &[],
        Some(&call(5, "get_arm_state")),
    )
    .await;
    assert_eq!(after.status, 404, "the session ended: {}", after.body);

    // A token naming no subject and no client is nobody: refused, not bound.
    let anonymous = issuer.token(json!({"scope": "arm:read"}));
    let refused = send(&server, get, &anonymous, None, &[], None).await;
    assert_eq!(refused.status, 401);
    assert!(
        refused.body.contains("names no subject"),
        "{}",
        refused.body
    );
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_huge_kid_or_tool_name_is_not_echoed_whole() {
    let issuer = Issuer::start(key(2, Some("k2"))).await;
    let server = serve(&issuer).await;
    let post = reqwest::Method::POST;
    let kid = "k".repeat(200_000);
    let mut header = Header::new(Algorithm::EdDSA);
    header.kid = Some(kid.clone());
    let forged = sign(&header, &issuer.claims(alice()), &key(2, None).encoding);
    let answer = send(
        &server,
        post.clone(),
        &forged,
        None,
        &[],
        Some(&initialize()),
    )
    .await;
    assert_eq!(answer.status, 401, "{}", answer.body);
    assert!(
        answer.size() < 1024,
        "{} bytes of headers and body: {:?} {}",
        answer.size(),
        answer.headers,
        answer.body
    );
    let challenge = answer.header("www-authenticate").unwrap();
    assert!(challenge.contains("error=\"invalid_token\""), "{challenge}");
    assert!(challenge.contains("(200000 bytes)"), "{challenge}");
    assert!(answer.body.contains("(200000 bytes)"), "{}", answer.body);
    let log = logged();
    assert!(log.contains("(200000 bytes)"), "the refusal is logged");
    assert!(
        !log.contains(&"k".repeat(1000)),
        "the kid is not logged whole"
    );

    // A tool name is the client's too.
    let token = issuer.token(alice());
    let session = open_session(&server, &token).await;
    let name = "t".repeat(200_000);
    let unknown = send(
        &server,
        post,
        &token,
        Some(&session),
        &[],
        Some(&call(1, &name)),
    )
    .await;
    let message = sse_message(&unknown.body);
    let text = message["error"]["message"]
        .as_str()
        .expect("a JSON-RPC error");
    assert!(
        text.contains("unknown tool") && text.contains("(200000 bytes)"),
        "{text}"
    );
    assert!(
        unknown.body.len() < 1024,
        "{} bytes: {}",
        unknown.body.len(),
        unknown.body
    );
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_key_under_a_known_kid_is_accepted_after_one_refetch() {
    let issuer = Issuer::start(key(3, Some("k3"))).await;
    let server = serve(&issuer).await;
    let post = reqwest::Method::POST;
    let old = issuer.token(alice());
    assert_eq!(
        send(&server, post.clone(), &old, None, &[], Some(&initialize()))
            .await
            .status,
        200
    );
    assert_eq!(issuer.fetches(), (1, 1), "metadata and keys fetched once");

    // The issuer reuses `k3` for a new key: the cached key does not verify the new token, so
    // the keys are fetched again (the cap lets one fetch a second: this request waits for it)
    // and the token is accepted.
    issuer.rotate(key(4, Some("k3")));
    let new = issuer.token(alice());
    let started = Instant::now();
    let answer = send(&server, post.clone(), &new, None, &[], Some(&initialize())).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(issuer.fetches(), (1, 2), "the keys again, not the metadata");
    // The old key is gone: its token is refused (after one more fetch of the keys).
    let answer = send(&server, post.clone(), &old, None, &[], Some(&initialize())).await;
    assert_eq!(answer.status, 401);
    assert!(
        answer.body.contains("signature does not verify"),
        "{}",
        answer.body
    );
    assert_eq!(issuer.fetches(), (1, 3));

    // Tokens forged under the known `kid` make the keys be fetched at most once a second,
    // however many arrive at once.
    let forger = key(99, Some("k3"));
    let mut header = Header::new(Algorithm::EdDSA);
    header.kid = Some("k3".into());
    let started = Instant::now();
    let forged: Vec<_> = (0..8)
        .map(|_| {
            let token = sign(&header, &issuer.claims(bob()), &forger.encoding);
            let server_url = server.url();
            tokio::spawn(async move {
                reqwest::Client::new()
                    .post(server_url)
                    .header("authorization", format!("Bearer {token}"))
                    .header("content-type", "application/json")
                    .header("accept", "application/json, text/event-stream")
                    .body(initialize().to_string())
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .as_u16()
            })
        })
        .collect();
    for f in forged {
        assert_eq!(f.await.unwrap(), 401);
    }
    let seconds = started.elapsed().as_secs() as usize;
    let (metadata, keys) = issuer.fetches();
    assert_eq!(metadata, 1);
    assert!(
        keys <= 3 + 1 + seconds,
        "{keys} fetches of the keys in {seconds} s"
    );
    // The new key still serves.
    assert_eq!(
        send(&server, post, &new, None, &[], Some(&initialize()))
            .await
            .status,
        200
    );
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rotated_only_key_without_kid_is_accepted() {
    let issuer = Issuer::start(key(5, None)).await;
    let server = serve(&issuer).await;
    let post = reqwest::Method::POST;
    let first = issuer.token(alice());
    assert_eq!(
        send(
            &server,
            post.clone(),
            &first,
            None,
            &[],
            Some(&initialize())
        )
        .await
        .status,
        200
    );
    issuer.rotate(key(6, None));
    let second = issuer.token(alice());
    let answer = send(&server, post, &second, None, &[], Some(&initialize())).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(issuer.fetches(), (1, 2));
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_discovered_plain_http_jwks_uri_off_loopback_is_refused() {
    let issuer = Issuer::start(key(7, Some("k7"))).await;
    let jwks_uri = "http://keys.lab.example/jwks";
    issuer.state.lock().unwrap().jwks_uri = Some(jwks_uri.to_owned());
    let server = serve(&issuer).await;
    let token = issuer.token(alice());
    let answer = send(
        &server,
        reqwest::Method::POST,
        &token,
        None,
        &[],
        Some(&initialize()),
    )
    .await;
    assert_eq!(answer.status, 401);
    assert!(
        answer.body.contains("must use https") && answer.body.contains(jwks_uri),
        "{}",
        answer.body
    );
    let log = logged();
    let line = log
        .lines()
        .find(|l| l.contains("refusing to fetch keys") && l.contains(jwks_uri))
        .unwrap_or_else(|| panic!("no refusal logged:\n{log}"));
    assert!(
        line.contains("ERROR") && line.contains("must use https"),
        "{line}"
    );
    // Discovery found the URL; nothing was fetched from it, nor from the issuer's own JWKS.
    assert_eq!(issuer.fetches(), (1, 0));
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owner_travels_with_the_session_between_replicas() {
    let redis = common::redis::RedisServer::start()
        .await
        .expect("redis-server on the PATH (.ci/run installs it before the tests)");
    let issuer = Issuer::start(key(8, Some("k8"))).await;
    let replica = || async {
        let arm = Toolbox::builder(RobotArm::new(SimConfig {
            time_scale: 0.0,
            ..SimConfig::default()
        }))
        .with_confirmation(false)
        .build()
        .unwrap();
        let options = HttpOptions::new("127.0.0.1:0".parse().unwrap())
            .oauth(OAuthConfig::new(&issuer.url, RESOURCE))
            .redis(&redis.url);
        arm.serve_http_with(options).await.expect("serves")
    };
    let (one, two) = (replica().await, replica().await);
    let (post, get, delete) = (
        reqwest::Method::POST,
        reqwest::Method::GET,
        reqwest::Method::DELETE,
    );
    let (owner, other) = (issuer.token(alice()), issuer.token(bob()));
    let session = open_session(&one, &owner).await;
    let refused = |answer: Answer, what: &str| {
        assert_eq!(answer.status, 404, "{what}: {}", answer.body);
        assert_eq!(answer.body, "Not Found: Session not found", "{what}");
    };

    // Another principal, on the replica that does not hold the session (the owner is read from
    // Redis before anything is restored), and on the one that does.
    for (name, server) in [("the other replica", &two), ("the creating replica", &one)] {
        let call_ = send(
            server,
            post.clone(),
            &other,
            Some(&session),
            &[],
            Some(&call(1, "get_arm_state")),
        )
        .await;
        refused(call_, &format!("a call on {name}"));
        let stream = send(server, get.clone(), &other, Some(&session), &[], None).await;
        refused(stream, &format!("the event stream on {name}"));
        let resume = send(
            server,
            get.clone(),
            &other,
            Some(&session),
            &[("last-event-id", "0")],
            None,
        )
        .await;
        refused(resume, &format!("a resumption on {name}"));
        let end = send(server, delete.clone(), &other, Some(&session), &[], None).await;
        refused(end, &format!("a DELETE on {name}"));
    }

    // The owner, on the other replica: the session is restored there, still its owner's.
    let called = send(
        &two,
        post.clone(),
        &owner,
        Some(&session),
        &[],
        Some(&call(2, "get_arm_state")),
    )
    .await;
    assert_eq!(called.status, 200, "{}", called.body);
    assert_eq!(sse_message(&called.body)["result"]["isError"], false);
    let again = send(
        &two,
        post.clone(),
        &other,
        Some(&session),
        &[],
        Some(&call(3, "get_arm_state")),
    )
    .await;
    refused(again, "a call on the replica that restored the session");
    let ended = send(&two, delete, &owner, Some(&session), &[], None).await;
    assert_eq!(ended.status, 204, "{}", ended.body);
    one.shutdown().await.unwrap();
    two.shutdown().await.unwrap();
}

/// Issue 43: a `scope` claim is split on the space (U+0020) alone (RFC 6749 §3.3): a no-break
/// space or a tab joins two names into one opaque scope, which grants neither.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scopes_are_separated_by_spaces_only() {
    let issuer = Issuer::start(key(9, Some("k9"))).await;
    let server = serve(&issuer).await;
    let post = reqwest::Method::POST;
    let with_scope = |scope: &str| issuer.token(json!({"sub": "carol", "scope": scope}));
    for joined in [
        "arm:read\u{a0}arm:move",
        "arm:read\tarm:move",
        "arm:read\u{3000}arm:move",
    ] {
        let token = with_scope(joined);
        // The handshake needs no scope; each tool call needs its own.
        let session = open_session(&server, &token).await;
        for (id, tool, scope) in [
            (1, "get_arm_state", "arm:read"),
            (2, "move_arm_to_pose", "arm:move"),
        ] {
            let answer = send(
                &server,
                post.clone(),
                &token,
                Some(&session),
                &[],
                Some(&call(id, tool)),
            )
            .await;
            assert_eq!(
                answer.status, 403,
                "{joined:?} granted {scope} for {tool}: {}",
                answer.body
            );
            let challenge = answer.header("www-authenticate").unwrap_or_default();
            assert!(challenge.contains("insufficient_scope"), "{challenge}");
            assert!(
                challenge.contains(&format!("scope=\"{scope}\"")),
                "{challenge}"
            );
        }
    }
    // Spaces, runs of them too, separate.
    let token = with_scope("  arm:read   arm:move ");
    let session = open_session(&server, &token).await;
    let answer = send(
        &server,
        post,
        &token,
        Some(&session),
        &[],
        Some(&call(3, "get_arm_state")),
    )
    .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(sse_message(&answer.body)["result"]["isError"], false);
    server.shutdown().await.unwrap();
}

/// Issue 43: an empty `sub` names nobody, exactly as a missing one: refused unless the token
/// names a client (then the client is the principal), and an empty `client_id` names nobody too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_subject_is_no_subject() {
    let issuer = Issuer::start(key(10, Some("k10"))).await;
    let server = serve(&issuer).await;
    let post = reqwest::Method::POST;
    for claims in [
        json!({"sub": "", "scope": "arm:read"}),
        json!({"sub": "", "client_id": "", "scope": "arm:read"}),
        json!({"client_id": "", "scope": "arm:read"}),
    ] {
        let answer = send(
            &server,
            post.clone(),
            &issuer.token(claims.clone()),
            None,
            &[],
            Some(&initialize()),
        )
        .await;
        assert_eq!(answer.status, 401, "{claims}: {}", answer.body);
        assert!(
            answer
                .body
                .contains("names no subject (`sub`) and no client (`client_id`)"),
            "{claims}: {}",
            answer.body
        );
        let challenge = answer.header("www-authenticate").unwrap_or_default();
        assert!(challenge.contains("error=\"invalid_token\""), "{challenge}");
    }
    // With a client named, the client is the principal: its session is not another's.
    let robot = issuer.token(json!({"sub": "", "client_id": "robot-7", "scope": "arm:read"}));
    let session = open_session(&server, &robot).await;
    let other = issuer.token(json!({"sub": "", "client_id": "robot-8", "scope": "arm:read"}));
    let answer = send(
        &server,
        post.clone(),
        &other,
        Some(&session),
        &[],
        Some(&call(1, "get_arm_state")),
    )
    .await;
    assert_eq!(answer.status, 404, "{}", answer.body);
    let answer = send(
        &server,
        post,
        &robot,
        Some(&session),
        &[],
        Some(&call(2, "get_arm_state")),
    )
    .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    server.shutdown().await.unwrap();
}

/// One request on protocol 2026-07-28 (stateless, the tasks extension declared) with `token`:
/// the JSON-RPC message that answers it.
async fn send_2026(
    server: &HttpServer,
    token: &str,
    method: &str,
    name: &str,
    params: Value,
) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}},
    });
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let text = reqwest::Client::new()
        .post(server.url())
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {token}"))
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", method)
        .header("mcp-name", name)
        .body(body.to_string())
        .send()
        .await
        .expect("the server answers")
        .text()
        .await
        .unwrap();
    serde_json::from_str(&text).unwrap_or_else(|_| sse_message(&text))
}

/// Issue 43: a task's cancel passed to the replica that runs it keeps the owner check: another
/// principal is told there is no such task through either replica (and the motion goes on),
/// its owner cancels it through the replica that does not run it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tasks_owner_alone_cancels_it_through_any_replica() {
    let redis = common::redis::RedisServer::start()
        .await
        .expect("redis-server on the PATH (.ci/run installs it before the tests)");
    let issuer = Issuer::start(key(11, Some("k11"))).await;
    let replica = || async {
        let arm = Toolbox::builder(RobotArm::new(SimConfig {
            time_scale: 0.2,
            ..SimConfig::default()
        }))
        .with_confirmation(false)
        .with_task_limits(
            toolwright::TaskLimits::default().with_promote_after(Duration::from_millis(20)),
        )
        .build()
        .unwrap();
        let options = HttpOptions::new("127.0.0.1:0".parse().unwrap())
            .oauth(OAuthConfig::new(&issuer.url, RESOURCE))
            .redis(&redis.url);
        arm.serve_http_with(options).await.expect("serves")
    };
    let (a, b) = (replica().await, replica().await);
    let (owner, other) = (issuer.token(alice()), issuer.token(bob()));
    let move_up = json!({"name": "move_arm_to_pose", "arguments": {"x": 300, "y": 0, "z": 800, "speed": 0.1}});
    let created = send_2026(&a, &owner, "tools/call", "move_arm_to_pose", move_up).await;
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    let task = json!({"taskId": id});
    for server in [&b, &a] {
        for method in ["tasks/get", "tasks/cancel"] {
            let refused = send_2026(server, &other, method, &id, task.clone()).await;
            assert_eq!(refused["error"]["code"], -32602, "{method}: {refused}");
        }
    }
    let working = send_2026(&b, &owner, "tasks/get", &id, task.clone()).await;
    assert_eq!(working["result"]["status"], "working", "{working}");
    let cancelled = send_2026(&b, &owner, "tasks/cancel", &id, task.clone()).await;
    assert!(cancelled.get("result").is_some(), "{cancelled}");
    let mut status = Value::Null;
    for _ in 0..500 {
        status =
            send_2026(&b, &owner, "tasks/get", &id, task.clone()).await["result"]["status"].clone();
        if status != "working" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(status, "cancelled");
    a.shutdown().await.unwrap();
    b.shutdown().await.unwrap();
}
