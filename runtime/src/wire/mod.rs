//! JSON-RPC messages that rmcp could not parse, and what the client is told about them: over
//! stdio (`lines.rs`, the line transport toolwright serves stdio with) and over HTTP (the guard
//! in `http/mod.rs`). rmcp drops a line it cannot parse without a word, on purpose (answering
//! invalid data can start an error storm between two peers that echo it), and answers
//! well-formed JSON of the wrong shape with `-32600` and no id; a client that sent either waits
//! for its timeout. Here each such message gets the JSON-RPC error that fits, with its id when
//! one can be read:
//!
//! - not UTF-8, not JSON, truncated JSON: `-32700`, id null (nothing in it can be trusted);
//! - JSON nested deeper than serde_json's 128 levels, or a line over the size limit: `-32600`,
//!   with the id a scan of its top level read ([`Scan`], one pass, no allocation, never holding
//!   the message);
//! - JSON that is not one request object (a batch, a number), or whose envelope is wrong (no
//!   `jsonrpc: "2.0"`, no method, a method that is not a string, an id that is neither a string
//!   nor an integer): `-32600`, with its id when it has a usable one;
//! - a request whose envelope is right but whose `params` rmcp could not read: `-32602`, with
//!   its id and what did not fit.
//!
//! A message that is itself a response (it has `result` or `error`) or a notification (a method
//! and no id) is never answered: JSON-RPC forbids it, and it is what stops two peers from
//! trading errors forever. Over stdio the answers are rate-bounded too ([`Budget`]).
//!
//! Nothing here runs for a message rmcp parsed: the classification is made only after rmcp's
//! parse failed, so well-formed messages pay nothing.

pub(crate) mod lines;

use std::time::{Duration, Instant};

use serde_json::Value;

/// Room for the JSON-RPC envelope around a call's arguments, in the size limit of a message
/// (an HTTP body, a stdio line): the toolbox's argument limit plus this.
pub(crate) const ENVELOPE_BYTES: usize = 64 << 10;

/// `-32700`: the message is not JSON.
pub(crate) const PARSE_ERROR: i32 = -32700;
/// `-32600`: the message is not a valid request.
pub(crate) const INVALID_REQUEST: i32 = -32600;
/// `-32602`: the request's params are not what its method takes.
pub(crate) const INVALID_PARAMS: i32 = -32602;

/// What to tell the sender of a message rmcp could not parse.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Refusal {
    /// The JSON-RPC error code.
    pub code: i32,
    /// What was wrong, for the client (bounded: a parser's message may quote what it read).
    pub message: String,
    /// The request's id, when one could be read (a string or an integer); else null.
    pub id: Option<Value>,
    /// Whether the message may be answered at all: not a response, not a notification.
    pub answer: bool,
}

impl Refusal {
    fn new(code: i32, message: impl Into<String>, id: Option<Value>) -> Self {
        Refusal {
            code,
            message: message.into(),
            id,
            answer: true,
        }
    }

    /// The JSON-RPC error message, as one line of JSON.
    pub(crate) fn to_json(&self) -> Vec<u8> {
        let message = serde_json::json!({
            "jsonrpc": "2.0",
            "id": self.id.clone().unwrap_or(Value::Null),
            "error": {"code": self.code, "message": self.message},
        });
        serde_json::to_vec(&message).unwrap_or_default()
    }

    /// Said in a log line: what kind of message, and what was wrong.
    pub(crate) fn kind(&self) -> &'static str {
        match (self.code, self.answer) {
            (_, false) => "a response or notification that could not be read",
            (PARSE_ERROR, _) => "not JSON",
            (INVALID_PARAMS, _) => "invalid params",
            _ => "not a valid request",
        }
    }
}

/// The most bytes of a parser's message passed on to the client.
const MAX_DETAIL: usize = 200;

/// What to tell the sender of `message`, which rmcp could not parse (a stdio line without its
/// newline, or an HTTP body). `rmcp_error` is what rmcp's parser said, worded for `-32602`.
pub(crate) fn classify(message: &[u8], rmcp_error: Option<&serde_json::Error>) -> Refusal {
    let message = message.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(message);
    if std::str::from_utf8(message).is_err() {
        return parse_error(message, "the message is not valid UTF-8".to_owned());
    }
    let value: Value = match serde_json::from_slice(message) {
        Ok(value) => value,
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => {
            // Valid JSON, perhaps, but deeper than any message may be: read its top level only.
            let mut scan = Scan::default();
            scan.feed(message);
            if !scan.closed() {
                return Refusal::new(
                    PARSE_ERROR,
                    "Parse error: the message ends before its brackets close",
                    None,
                );
            }
            return scan.refusal(
                "Invalid Request: the message is nested more than 128 levels deep".to_owned(),
            );
        }
        Err(e) => {
            return parse_error(message, crate::echo::bounded(&e.to_string(), MAX_DETAIL));
        }
    };
    let Value::Object(object) = value else {
        let what = match value {
            Value::Array(ref items) if items.is_empty() => "an empty batch (JSON array)",
            Value::Array(_) => "a batch (JSON array): send one message at a time",
            _ => "not a JSON object",
        };
        return Refusal::new(INVALID_REQUEST, format!("Invalid Request: {what}"), None);
    };
    if object.contains_key("result") || object.contains_key("error") {
        return Refusal {
            answer: false,
            ..Refusal::new(INVALID_REQUEST, "Invalid response", None)
        };
    }
    let id = object.get("id");
    let usable_id = id.filter(|id| id.is_string() || id.as_i64().is_some());
    let invalid = |what: &str| {
        Refusal::new(
            INVALID_REQUEST,
            format!("Invalid Request: {what}"),
            usable_id.cloned(),
        )
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid("`jsonrpc` must be \"2.0\"");
    }
    let method = match object.get("method") {
        None => return invalid("no `method`"),
        Some(Value::String(method)) => method,
        Some(_) => return invalid("`method` must be a string"),
    };
    match id {
        None => {
            // A notification: never answered.
            return Refusal {
                answer: false,
                ..invalid("a notification that could not be read")
            };
        }
        Some(id) if id.as_i64().is_none() && !id.is_string() => {
            return Refusal::new(
                INVALID_REQUEST,
                "Invalid Request: `id` must be a string or an integer between -2^63 and 2^63 - 1",
                None,
            );
        }
        Some(_) => {}
    }
    let message = match rmcp_error {
        Some(e) => format!(
            "Invalid params for {}: {}",
            crate::echo::echo(method),
            crate::echo::bounded(&e.to_string(), MAX_DETAIL)
        ),
        None => params_problem(method, object.get("params")).unwrap_or_else(|| {
            format!(
                "Invalid params for {}: they do not have the shape it takes",
                crate::echo::echo(method)
            )
        }),
    };
    Refusal::new(INVALID_PARAMS, message, usable_id.cloned())
}

/// `-32700` for a message that is not JSON. Its id is null, unless the message is an object
/// whose brackets all close and whose top level names a usable id (`1e400` or an invalid escape
/// in an argument, say): then the client can match the answer to its request. Garbled JSON
/// with `result` or `error` at its top level may be a peer's answer (our own error echoed back,
/// say): that is never answered.
fn parse_error(message: &[u8], detail: String) -> Refusal {
    let mut scan = Scan::default();
    scan.feed(message);
    Refusal {
        answer: !(scan.is_response() || scan.closed() && scan.is_notification()),
        ..Refusal::new(
            PARSE_ERROR,
            format!("Parse error: {detail}"),
            scan.closed().then(|| scan.id()).flatten(),
        )
    }
}

/// The requests of MCP rmcp reads into typed params: one of these reaching the handler as a
/// custom request is one whose params rmcp could not read.
const STANDARD_REQUESTS: [&str; 17] = [
    "initialize",
    "ping",
    "server/discover",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "resources/templates/list",
    "subscriptions/listen",
    "tools/call",
    "tools/list",
    "completion/complete",
    "logging/setLevel",
    "tasks/get",
    "tasks/cancel",
];

/// When `method` is one of MCP's own requests (which rmcp hands on as a custom request when it
/// cannot read its params), what is wrong with `params`, for a `-32602` answer.
pub(crate) fn params_problem(method: &str, params: Option<&Value>) -> Option<String> {
    if !STANDARD_REQUESTS.contains(&method) {
        return None;
    }
    let detail = match method {
        "tools/call" => serde_json::from_value::<rmcp::model::CallToolRequestParams>(
            params.cloned().unwrap_or(Value::Null),
        )
        .err()
        .map(|e| crate::echo::bounded(&e.to_string(), MAX_DETAIL)),
        _ => None,
    };
    Some(format!(
        "Invalid params for {}: {}",
        crate::echo::echo(method),
        detail.unwrap_or_else(|| "they do not have the shape it takes".to_owned())
    ))
}

/// What a line over the size limit is refused with, its top level scanned as it was
/// discarded.
pub(crate) fn too_large(scan: &Scan, limit: usize) -> Refusal {
    scan.refusal(format!(
        "Invalid Request: the message is larger than {limit} bytes, the most this server reads; \
         it was discarded unread"
    ))
}

/// A scan of a JSON text's top level, fed its bytes as they come (any number of pieces), in
/// constant memory: whether it is an object, whether it has `result` or `error` (a response),
/// `method`, and the raw text of its `id` when that is short. It tracks strings, escapes and
/// depth only, so it reads what a parser would of a well-formed text, and something harmless
/// of any other.
#[derive(Debug, Default, Clone)]
pub(crate) struct Scan {
    started: bool,
    object: bool,
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// At depth 1: the next string is a key.
    expect_key: bool,
    /// The key being read (its first bytes), and whether it was longer.
    key: [u8; 8],
    key_len: usize,
    /// The key whose value comes next.
    value_of: Key,
    /// The raw text of `id`'s value (at most [`ID_BYTES`]), and whether it was cut.
    id: Vec<u8>,
    id_done: bool,
    id_cut: bool,
    response: bool,
    method: bool,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Key {
    #[default]
    Other,
    Id,
}

/// The longest id text kept.
const ID_BYTES: usize = 128;

impl Scan {
    /// Reads the next bytes of the text.
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.byte(b);
        }
    }

    fn byte(&mut self, b: u8) {
        if !self.started {
            if b.is_ascii_whitespace() {
                return;
            }
            self.started = true;
            self.object = b == b'{';
        }
        let in_id = self.depth == 1 && self.value_of == Key::Id && !self.id_done;
        if self.in_string {
            if in_id {
                self.keep_id(b);
            }
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
                if self.depth == 1 && self.expect_key {
                    self.end_key();
                }
            } else if self.depth == 1 && self.expect_key && self.key_len < self.key.len() + 1 {
                if self.key_len < self.key.len() {
                    self.key[self.key_len] = b;
                }
                self.key_len += 1;
            }
            return;
        }
        match b {
            b'"' => {
                self.in_string = true;
                if in_id {
                    self.keep_id(b);
                }
                if self.depth == 1 && self.expect_key {
                    self.key_len = 0;
                }
            }
            b'{' | b'[' => {
                if in_id {
                    // An id that is an object or an array: not a usable one.
                    self.id_cut = true;
                }
                self.depth += 1;
                if self.depth == 1 {
                    self.expect_key = b == b'{';
                }
            }
            b'}' | b']' => {
                if self.depth == 1 {
                    self.finish_id();
                    self.value_of = Key::Other;
                }
                self.depth = self.depth.saturating_sub(1);
            }
            b',' if self.depth == 1 => {
                self.finish_id();
                self.value_of = Key::Other;
                self.expect_key = self.object;
            }
            b':' if self.depth == 1 => {}
            _ if b.is_ascii_whitespace() => {}
            _ => {
                if in_id {
                    self.keep_id(b);
                }
            }
        }
    }

    fn end_key(&mut self) {
        self.expect_key = false;
        let key = &self.key[..self.key_len.min(self.key.len())];
        let exact = self.key_len <= self.key.len();
        self.value_of = Key::Other;
        match key {
            b"id" if exact => {
                self.value_of = Key::Id;
                self.id.clear();
                self.id_done = false;
                self.id_cut = false;
            }
            b"result" | b"error" if exact => self.response = true,
            b"method" if exact => self.method = true,
            _ => {}
        }
    }

    fn keep_id(&mut self, b: u8) {
        if self.id.len() < ID_BYTES {
            self.id.push(b);
        } else {
            self.id_cut = true;
        }
    }

    fn finish_id(&mut self) {
        if self.value_of == Key::Id {
            self.id_done = true;
        }
    }

    /// Whether the text so far is a value whose brackets all closed.
    pub(crate) fn closed(&self) -> bool {
        self.started && self.depth == 0 && !self.in_string
    }

    /// Whether the text is a response (it has `result` or `error` at its top level).
    pub(crate) fn is_response(&self) -> bool {
        self.object && self.response
    }

    /// Whether the text is a notification (a `method` and no `id` at its top level).
    fn is_notification(&self) -> bool {
        self.object && self.method && self.id.is_empty()
    }

    /// The id read, when it is a string or an integer.
    pub(crate) fn id(&self) -> Option<Value> {
        if !self.object || self.id_cut || self.id.is_empty() {
            return None;
        }
        let id: Value = serde_json::from_slice(&self.id).ok()?;
        (id.is_string() || id.as_i64().is_some()).then_some(id)
    }

    /// `-32600` with `message` and the id read, unless the text is a response or a
    /// notification.
    fn refusal(&self, message: String) -> Refusal {
        let id = self.id();
        Refusal {
            answer: !(self.is_response() || self.is_notification()),
            ..Refusal::new(INVALID_REQUEST, message, id)
        }
    }
}

/// How many error answers a peer gets: a burst of [`Budget::BURST`], then [`Budget::PER_SECOND`]
/// a second. Past it the message is dropped (and counted, and logged once a second), so two
/// peers that answer each other's errors cannot flood the line.
#[derive(Debug)]
pub(crate) struct Budget {
    tokens: f64,
    last: Instant,
    /// Answers withheld since the last log line about them.
    withheld: u64,
    logged: Option<Instant>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            tokens: Self::BURST,
            last: Instant::now(),
            withheld: 0,
            logged: None,
        }
    }
}

impl Budget {
    /// Answers in a burst.
    pub(crate) const BURST: f64 = 20.0;
    /// Answers a second after the burst.
    pub(crate) const PER_SECOND: f64 = 10.0;

    /// Whether one more error answer may be sent now.
    pub(crate) fn take(&mut self) -> bool {
        let now = Instant::now();
        let elapsed = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * Self::PER_SECOND).min(Self::BURST);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            return true;
        }
        self.withheld += 1;
        if self
            .logged
            .is_none_or(|at| now.duration_since(at) >= Duration::from_secs(1))
        {
            tracing::warn!(
                withheld = self.withheld,
                "invalid messages arrive faster than they are answered: answers withheld"
            );
            self.logged = Some(now);
            self.withheld = 0;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rmcp_error(line: &[u8]) -> serde_json::Error {
        serde_json::from_slice::<rmcp::service::RxJsonRpcMessage<rmcp::RoleServer>>(line)
            .expect_err("rmcp refuses it")
    }

    #[track_caller]
    fn refused(line: &[u8]) -> Refusal {
        let e = rmcp_error(line);
        classify(line, Some(&e))
    }

    #[test]
    fn each_bad_message_gets_its_code_and_id() {
        let cases: Vec<(&[u8], i32, Value)> = vec![
            (b"hello", PARSE_ERROR, Value::Null),
            (
                b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/ca",
                PARSE_ERROR,
                Value::Null,
            ),
            (
                b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"p\xffing\"}",
                PARSE_ERROR,
                json!(7),
            ),
            (
                br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"a":1e400}}"#,
                PARSE_ERROR,
                json!(7),
            ),
            (br#"{"jsonrpc":"2.0","id":7}"#, INVALID_REQUEST, json!(7)),
            (
                br#"{"jsonrpc":"1.0","id":"a","method":"ping"}"#,
                INVALID_REQUEST,
                json!("a"),
            ),
            (
                br#"{"jsonrpc":"2.0","id":8,"method":5}"#,
                INVALID_REQUEST,
                json!(8),
            ),
            (
                br#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
                INVALID_REQUEST,
                Value::Null,
            ),
            (
                br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":"x"}"#,
                INVALID_PARAMS,
                json!(9),
            ),
            (b"[]", INVALID_REQUEST, Value::Null),
            (b"[1,2]", INVALID_REQUEST, Value::Null),
            (b"42", INVALID_REQUEST, Value::Null),
        ];
        for (line, code, id) in cases {
            let r = refused(line);
            assert_eq!(
                (r.code, r.id.clone().unwrap_or(Value::Null), r.answer),
                (code, id, true),
                "{}: {r:?}",
                String::from_utf8_lossy(line)
            );
            let answer: Value = serde_json::from_slice(&r.to_json()).unwrap();
            assert_eq!(answer["jsonrpc"], "2.0");
            assert_eq!(answer["error"]["code"], code);
        }
        let params = refused(br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":"x"}"#);
        assert!(
            params
                .message
                .starts_with("Invalid params for `tools/call`: "),
            "{}",
            params.message
        );
    }

    #[test]
    fn responses_and_notifications_are_never_answered() {
        for line in [
            br#"{"jsonrpc":"2.0","id":3,"result":5,"extra":"#.as_slice(),
            br#"{"jsonrpc":"2.0","result":{}}"#,
            br#"{"jsonrpc":"2.0","id":"x","error":"bad"}"#,
            br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}"#,
        ] {
            let e =
                serde_json::from_slice::<rmcp::service::RxJsonRpcMessage<rmcp::RoleServer>>(line)
                    .err();
            let r = classify(line, e.as_ref());
            assert!(!r.answer, "{}: {r:?}", String::from_utf8_lossy(line));
        }
    }

    #[test]
    fn deep_nesting_is_refused_with_the_id_read_around_it() {
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{{"name":"a","arguments":{{"v":{}1{}}}}}}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        let r = refused(deep.as_bytes());
        assert_eq!(
            (r.code, r.id.clone(), r.answer),
            (INVALID_REQUEST, Some(json!(11)), true)
        );
        // The id after the deep part (the TypeScript SDK writes it last).
        let late = format!(
            r#"{{"method":"tools/call","params":{{"v":{}1{}}},"jsonrpc":"2.0","id":"late"}}"#,
            "[".repeat(1_000),
            "]".repeat(1_000)
        );
        assert_eq!(refused(late.as_bytes()).id, Some(json!("late")));
        let bare = "[".repeat(100_000);
        assert_eq!(refused(bare.as_bytes()).code, PARSE_ERROR, "unterminated");
        let bare = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let r = refused(bare.as_bytes());
        assert_eq!((r.code, r.id), (INVALID_REQUEST, None));
    }

    #[test]
    fn a_scan_fed_in_pieces_reads_the_top_level_only() {
        let text = br#" {"params":{"id":99,"result":1,"s":"\"id\":5"},"id" : "a\"b","method":"x"}"#;
        for piece in [1, 2, 3, 7, text.len()] {
            let mut scan = Scan::default();
            for chunk in text.chunks(piece) {
                scan.feed(chunk);
            }
            assert_eq!(scan.id(), Some(json!("a\"b")), "pieces of {piece}");
            assert!(!scan.is_response());
            assert!(scan.method);
        }
        let mut response = Scan::default();
        response.feed(br#"{"jsonrpc":"2.0","id":4,"result":{"content":[]}}"#);
        assert!(response.is_response());
        assert_eq!(response.id(), Some(json!(4)));
        let mut long = Scan::default();
        long.feed(format!(r#"{{"id":"{}"}}"#, "x".repeat(500)).as_bytes());
        assert_eq!(long.id(), None, "an id too long to keep is not guessed");
        let mut object_id = Scan::default();
        object_id.feed(br#"{"id":{"a":1},"method":"m"}"#);
        assert_eq!(object_id.id(), None);
        let mut keyish = Scan::default();
        keyish.feed(br#"{"identifier":3,"id":4}"#);
        assert_eq!(keyish.id(), Some(json!(4)));
    }

    #[test]
    fn the_budget_allows_a_burst_then_a_rate() {
        let mut budget = Budget::default();
        let granted = (0..100).filter(|_| budget.take()).count();
        assert!(
            (20..=21).contains(&granted),
            "a burst of 20 (and at most one refilled), got {granted}"
        );
        budget.last -= Duration::from_millis(500);
        let refilled = (0..100).filter(|_| budget.take()).count();
        assert!((5..=6).contains(&refilled), "{refilled}");
    }
}
