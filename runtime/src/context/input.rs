//! Asking the client on protocol 2026-07-28 and later: multi-round-trip requests (SEP-2322).
//!
//! There a server sends no requests to the client while a tool runs. A question
//! ([`Context::elicit`](super::Context::elicit), [`Context::sample`](super::Context::sample),
//! [`Context::list_roots`](super::Context::list_roots)) instead ends the call's *round*: the
//! call answers `resultType: "input_required"` with the question in `inputRequests` and a sealed
//! `requestState`, and the client calls again with the same arguments, its answers in
//! `inputResponses` and the state echoed.
//!
//! # How a body resumes: it runs again from its start
//!
//! Nothing of the body is kept between rounds (no suspended future, no memory per pending call,
//! nothing a replica must share but the sealing key). Each round runs the body from its start,
//! and each question it asks is answered from what the rounds so far collected, in the order
//! it asks them: the first question the client has not answered yet ends the round. So:
//! - what a body does before a question runs again in every round: ask first, act after;
//! - a body asks the same questions in the same order when given the same answers (a question
//!   whose content changed since it was answered is asked again);
//! - when the round ends, the body is dropped where it asked (an async body is never polled
//!   again; a sync body's question returns [`ClientError::InputRequired`](super::ClientError)),
//!   and, like any call that ends before its body returned, the safe stops of the resources the
//!   tool holds run before another call gets them.
//!
//! # `requestState`
//!
//! The state carries the answers of earlier rounds and the fingerprints of the questions asked,
//! sealed by rmcp's [`RequestStateCodec`] (HMAC-SHA256, with an expiry) over associated data
//! that names the tool, the validated arguments and the authenticated principal. A state that
//! was altered, has expired, or was sealed for another tool, other arguments, another
//! principal or by a server with another key is refused with a JSON-RPC error before anything
//! runs. Replicas verify each other's states when they share the key
//! ([`RequestStateKeys`]).

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    InputRequest, InputRequests, InputRequiredResult, InputResponses, RequestStateCodec,
    SealOptions,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use tokio::sync::Notify;

/// How long a `requestState` is good for by default: as long as a call without a deadline
/// waits for an answer on protocol 2025-11-25 ([`CLIENT_ANSWER_LIMIT`](super::CLIENT_ANSWER_LIMIT)).
pub const DEFAULT_REQUEST_STATE_TTL: Duration = super::CLIENT_ANSWER_LIMIT;

/// The keys that seal and open `requestState` (multi-round-trip requests on protocol
/// 2026-07-28): the one new states are sealed with, and older ones still accepted while states
/// sealed with them may be in flight (key rotation).
///
/// Without keys, a toolbox makes a random one when it is built: enough for one process, but
/// replicas behind one address must share their keys, or a state sealed by one is refused by
/// the others. Keys are at least 32 bytes; ids are 1 to 255 bytes of UTF-8.
#[derive(Clone)]
pub struct RequestStateKeys {
    codec: Arc<RequestStateCodec>,
    ttl: Duration,
}

impl fmt::Debug for RequestStateKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RequestStateKeys")
            .field("ttl", &self.ttl)
            .finish_non_exhaustive()
    }
}

/// Keys that cannot seal a `requestState` (too short, an empty or duplicate id), or a key file
/// that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyError(String);

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for KeyError {}

impl RequestStateKeys {
    /// Seals with `key` (named `id`), and opens states sealed with it.
    pub fn new(id: impl Into<String>, key: impl Into<Vec<u8>>) -> Result<Self, KeyError> {
        let id = id.into();
        Self::ring(id.clone(), vec![(id, key.into())])
    }

    /// Seals with the first key, and opens states sealed with any of them (rotation: put the
    /// new key first, keep the old one until the states it sealed have expired).
    pub fn ring(
        active: impl Into<String>,
        keys: impl IntoIterator<Item = (String, Vec<u8>)>,
    ) -> Result<Self, KeyError> {
        let codec = RequestStateCodec::new_with_keyring(active.into(), keys)
            .map_err(|e| KeyError(e.to_string()))?;
        Ok(RequestStateKeys {
            codec: Arc::new(codec),
            ttl: DEFAULT_REQUEST_STATE_TTL,
        })
    }

    /// A random key for this process only.
    pub(crate) fn random() -> Self {
        let mut key = vec![0u8; 32];
        getrandom::fill(&mut key).expect("the operating system's random source failed");
        Self::new("process", key).expect("a 32-byte key is long enough")
    }

    /// Reads keys from a file of lines `ID BASE64KEY` (standard or URL-safe base64, 32 bytes or
    /// more; `#` starts a comment): the first seals, all open.
    pub fn from_file(path: &std::path::Path) -> Result<Self, KeyError> {
        use base64::Engine as _;
        let text = std::fs::read_to_string(path)
            .map_err(|e| KeyError(format!("cannot read {}: {e}", path.display())))?;
        let mut keys: Vec<(String, Vec<u8>)> = Vec::new();
        let mut lines: Vec<usize> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let (Some(id), Some(encoded), None) = (words.next(), words.next(), words.next()) else {
                return Err(KeyError(format!(
                    "{}:{}: expected `ID BASE64KEY`",
                    path.display(),
                    n + 1
                )));
            };
            let key = base64::engine::general_purpose::STANDARD
                .decode(encoded)
                .or_else(|_| base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(encoded))
                .or_else(|_| base64::engine::general_purpose::URL_SAFE.decode(encoded))
                .map_err(|_| {
                    KeyError(format!(
                        "{}:{}: the key of `{id}` is not base64",
                        path.display(),
                        n + 1
                    ))
                })?;
            // A repeated id: which of its keys opens a state would depend on the order read.
            if let Some(first) = keys.iter().position(|(seen, _)| seen == id) {
                return Err(KeyError(format!(
                    "{}:{}: the id `{id}` appears twice (first at line {}); give each key an id \
                     of its own",
                    path.display(),
                    n + 1,
                    lines[first]
                )));
            }
            keys.push((id.to_owned(), key));
            lines.push(n + 1);
        }
        let Some(active) = keys.first().map(|(id, _)| id.clone()) else {
            return Err(KeyError(format!("{} holds no key", path.display())));
        };
        Self::ring(active, keys).map_err(|e| KeyError(format!("{}: {e}", path.display())))
    }

    /// How long a sealed state is good for (default [`DEFAULT_REQUEST_STATE_TTL`]).
    #[must_use]
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }
}

/// What a 2026-07-28 request brought for its call's questions.
#[derive(Debug, Default)]
pub(crate) struct Returned {
    pub(crate) request_state: Option<String>,
    pub(crate) input_responses: Option<InputResponses>,
    /// The authenticated caller (`None`: no authentication): the state is bound to it.
    pub(crate) principal: Option<std::sync::Arc<str>>,
}

/// A `requestState` that cannot be used: the client gets one error whatever the reason (the
/// reason is logged).
#[derive(Debug)]
pub(crate) struct StateRefused;

impl StateRefused {
    /// The text of the JSON-RPC error.
    pub(crate) fn message(tool: &str) -> String {
        format!(
            "requestState refused: it is not a state this server sealed for this call of `{tool}` \
             (altered, expired, sealed for another tool, other arguments or another client, or \
             by a server with another key); nothing ran. Call again without requestState and \
             inputResponses to start over"
        )
    }
}

/// Whether a question key is a confirmation's ([`Context::confirm`](super::Context), key
/// `confirm`, `confirm_2`, ..): its answer is an approval.
fn is_approval(key: &str) -> bool {
    key == "confirm"
        || key
            .strip_prefix("confirm_")
            .is_some_and(|n| n.parse::<usize>().is_ok())
}

/// An answer, with the fingerprint of the question it answers (`None` only in states sealed
/// before answers were bound to their questions: such a state no longer opens an answer, see
/// [`Round::answer`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Answer {
    #[serde(rename = "q", skip_serializing_if = "Option::is_none", default)]
    question: Option<String>,
    #[serde(rename = "a")]
    answer: Value,
}

/// What a sealed state holds.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Sealed {
    /// The call's id across its rounds (random): what an approval given in it is known by.
    #[serde(default)]
    id: String,
    /// Answers of earlier rounds, by key.
    #[serde(default)]
    answers: BTreeMap<String, Answer>,
    /// The questions the last round asked: key → fingerprint.
    #[serde(default)]
    asked: BTreeMap<String, String>,
    /// When the call's first round began, in milliseconds since the Unix epoch: a stop tool
    /// that ran since voids the approvals given in it.
    #[serde(default)]
    born: u64,
    /// This state's own random id: an approval carried to the call's next round is carried by
    /// this state alone, so an older state of the same call cannot claim it again.
    #[serde(rename = "n", default)]
    nonce: String,
}

/// One call's questions and answers on protocol 2026-07-28, shared by its [`Context`]s (one
/// per attempt) and the runtime.
///
/// [`Context`]: super::Context
pub(crate) struct Round {
    keys: RequestStateKeys,
    /// The call's id across its rounds: drawn when first needed (an approval, a question), so a
    /// call that never asks costs no read of the operating system's random source.
    id: std::sync::OnceLock<String>,
    /// When its first round began (milliseconds since the Unix epoch).
    born: u64,
    /// What the state is sealed over: the tool, the principal, the canonical arguments.
    bound_to: Vec<u8>,
    /// Everything answered so far.
    answers: BTreeMap<String, Answer>,
    /// Answers to no question asked yet, offered up front: a body's own questions may use
    /// them; a confirmation never does.
    offered: BTreeMap<String, Value>,
    run: Mutex<Run>,
    asked: Notify,
    /// A capability a question needed that the client did not declare (the first one).
    missing: Mutex<Option<&'static str>>,
    /// Whether it is a task's (its answers came through `tasks/update`; its id is the task's).
    task: bool,
    /// The id of the state the request carried (empty without one).
    presented: String,
    /// The id of the state this round's result carries, drawn when it is sealed.
    sealed: Mutex<Option<String>>,
}

/// What one run of the body asked.
#[derive(Default)]
struct Run {
    /// How many questions of each kind it asked (the keys' suffixes).
    counts: HashMap<String, usize>,
    /// The answers it used: carried to the next round.
    used: BTreeMap<String, Answer>,
    /// The questions it asked that have no answer yet.
    unanswered: InputRequests,
    /// Their fingerprints.
    fingerprints: BTreeMap<String, String>,
}

impl Round {
    /// Opens the request's state (if any) and takes its answers; `arguments` are the validated
    /// arguments.
    pub(crate) fn open(
        keys: &RequestStateKeys,
        tool: &str,
        arguments: &Value,
        returned: Returned,
    ) -> Result<Self, StateRefused> {
        let bound_to = binding(tool, returned.principal.as_deref(), arguments);
        let mut sealed = match &returned.request_state {
            None => Sealed::default(),
            Some(state) => keys
                .codec
                .open_json_with::<Sealed>(state, &bound_to)
                .map_err(|e| {
                    tracing::info!(error = %e, tool, "requestState refused");
                    StateRefused
                })?,
        };
        // An approval counts only as the answer to a question this server asked: one the sealed
        // state names, tied to that question's fingerprint. An answer the state does not name
        // (sent without a state, or under a key the state does not name) is an answer offered
        // up front: it may stand for a body's own question (data the client could give when
        // asked; SEP-2322 servers use what they recognise), never for a confirmation, which is
        // asked and whose offered answer is ignored and logged: a client cannot approve what
        // nobody was asked.
        let mut ignored: Vec<String> = Vec::new();
        let mut offered: BTreeMap<String, Value> = BTreeMap::new();
        for (key, answer) in returned.input_responses.into_iter().flatten() {
            match sealed.asked.get(&key) {
                Some(question) => {
                    let question = Some(question.clone());
                    sealed.answers.insert(key, Answer { question, answer });
                }
                None if is_approval(&key) => ignored.push(key),
                None => {
                    offered.insert(key, answer);
                }
            }
        }
        if !ignored.is_empty() {
            tracing::warn!(
                tool,
                keys = ?ignored,
                with_state = returned.request_state.is_some(),
                "inputResponses ignored: an approval counts only as the answer to a question this server asked in this call"
            );
        }
        // A first round: its id is drawn when first needed ([`Round::call_id`]).
        let id = std::sync::OnceLock::new();
        if sealed.id.is_empty() {
            sealed.born = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64);
        } else {
            let _ = id.set(sealed.id);
        }
        Ok(Round {
            keys: keys.clone(),
            id,
            born: sealed.born,
            bound_to,
            answers: sealed.answers,
            offered,
            run: Mutex::new(Run::default()),
            asked: Notify::new(),
            missing: Mutex::new(None),
            task: false,
            presented: sealed.nonce,
            sealed: Mutex::new(None),
        })
    }

    /// The round of a task's next run: the answers its client gave through `tasks/update`
    /// (a task keeps them on the server, so nothing is sealed), each bound to the question the
    /// task asked under its key.
    pub(crate) fn for_task(
        keys: &RequestStateKeys,
        id: &str,
        answers: crate::tasks::Answers,
    ) -> Self {
        Round {
            keys: keys.clone(),
            id: std::sync::OnceLock::from(id.to_owned()),
            born: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64),
            bound_to: b"toolwright/task/1".to_vec(),
            answers: answers
                .into_iter()
                .map(|(key, (question, answer))| {
                    let question = Some(fingerprint(&question));
                    (key, Answer { question, answer })
                })
                .collect(),
            offered: BTreeMap::new(),
            run: Mutex::new(Run::default()),
            asked: Notify::new(),
            missing: Mutex::new(None),
            task: true,
            presented: String::new(),
            sealed: Mutex::new(None),
        }
    }

    /// Whether it is a task's round (its id is the task's).
    pub(crate) fn for_a_task(&self) -> bool {
        self.task
    }

    /// The call's id across its rounds (an approval given in it is known by it), and until
    /// when a state of it may come back.
    pub(crate) fn id(&self) -> (&str, std::time::Instant) {
        (self.call_id(), std::time::Instant::now() + self.keys.ttl)
    }

    /// The call's id, drawn (128 random bits) on first use.
    fn call_id(&self) -> &str {
        self.id.get_or_init(|| {
            let mut bytes = [0u8; 16];
            getrandom::fill(&mut bytes).expect("the operating system's random source failed");
            hex(&bytes)
        })
    }

    /// When the call's first round began: what was answered in its rounds was answered since.
    pub(crate) fn born(&self) -> std::time::SystemTime {
        std::time::UNIX_EPOCH + std::time::Duration::from_millis(self.born)
    }

    /// Records that a question needed `capability`, which the client did not declare.
    pub(crate) fn note_missing(&self, capability: &'static str) {
        let mut missing = self.missing.lock().unwrap_or_else(|p| p.into_inner());
        missing.get_or_insert(capability);
    }

    /// The capability a question needed that the client did not declare, if one did.
    pub(crate) fn missing(&self) -> Option<&'static str> {
        *self.missing.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn run(&self) -> std::sync::MutexGuard<'_, Run> {
        self.run.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new run of the body (a retry): its questions are counted from the start.
    pub(crate) fn restart(&self) {
        let mut run = self.run();
        // The approval the confirmation gate took this round is kept: it travels in the state
        // to the call's next round, where the body's answers run it (it is not asked again).
        let approvals = std::mem::take(&mut run.used)
            .into_iter()
            .filter(|(key, _)| is_approval(key))
            .collect();
        *run = Run {
            used: approvals,
            ..Run::default()
        };
    }

    /// The id of the state the request carried (empty without one): an approval carried to
    /// this round is claimed with it.
    pub(crate) fn presented(&self) -> &str {
        &self.presented
    }

    /// The id of the state this round's result carries ([`input_required`](Self::input_required)),
    /// once it was sealed.
    pub(crate) fn sealed(&self) -> Option<String> {
        self.sealed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// The answer to the body's next question of kind `kind`, with the question's key, if the
    /// client gave one for it; else the question is recorded for the round's result and `None`
    /// returned.
    pub(crate) fn answer(&self, kind: &str, question: InputRequest) -> Option<(String, Value)> {
        let fingerprint = fingerprint(&question);
        let mut run = self.run();
        let n = run.counts.entry(kind.to_owned()).or_insert(0);
        *n += 1;
        let key = if *n == 1 {
            kind.to_owned()
        } else {
            format!("{kind}_{n}")
        };
        let bound = self
            .answers
            .get(&key)
            .filter(|answer| answer.question.as_ref() == Some(&fingerprint))
            .map(|answer| &answer.answer);
        let offered = || self.offered.get(&key).filter(|_| !is_approval(kind));
        if let Some(value) = bound.or_else(offered) {
            let value = value.clone();
            run.used.insert(
                key.clone(),
                Answer {
                    question: Some(fingerprint),
                    answer: value.clone(),
                },
            );
            return Some((key, value));
        }
        run.fingerprints.insert(key.clone(), fingerprint);
        run.unanswered.insert(key, question);
        drop(run);
        self.asked.notify_one();
        None
    }

    /// An answer the body could not use (not the shape its question asks for): the question
    /// goes to the client again.
    pub(crate) fn unusable(&self, key: &str, question: InputRequest) {
        let mut run = self.run();
        run.used.remove(key);
        run.fingerprints
            .insert(key.to_owned(), fingerprint(&question));
        run.unanswered.insert(key.to_owned(), question);
        drop(run);
        self.asked.notify_one();
    }

    /// Resolves once the body asked a question the client has not answered.
    pub(crate) async fn asked(&self) {
        if !self.run().unanswered.is_empty() {
            return;
        }
        self.asked.notified().await;
    }

    /// The round's result: the unanswered questions and the sealed state.
    pub(crate) fn input_required(&self) -> InputRequiredResult {
        let run = std::mem::take(&mut *self.run());
        let nonce = {
            let mut bytes = [0u8; 16];
            getrandom::fill(&mut bytes).expect("the operating system's random source failed");
            hex(&bytes)
        };
        *self.sealed.lock().unwrap_or_else(|p| p.into_inner()) = Some(nonce.clone());
        let sealed = Sealed {
            id: self.call_id().to_owned(),
            answers: run.used,
            asked: run.fingerprints,
            born: self.born,
            nonce,
        };
        let state = self
            .keys
            .codec
            .seal_json_with(
                &sealed,
                &SealOptions::new()
                    .associated_data(&self.bound_to)
                    .ttl(self.keys.ttl),
            )
            .expect("answers are JSON values");
        InputRequiredResult::new(Some(run.unanswered), Some(state))
    }
}

/// What a state is sealed over: the tool, the principal and the arguments in a canonical form
/// (object keys sorted), so that it is good for this call only.
fn binding(tool: &str, principal: Option<&str>, arguments: &Value) -> Vec<u8> {
    let mut out = Vec::with_capacity(64);
    out.extend_from_slice(b"toolwright/mrtr/1\0");
    out.extend_from_slice(tool.as_bytes());
    out.push(0);
    if let Some(p) = principal {
        out.push(b'p');
        out.extend_from_slice(p.as_bytes());
    }
    out.push(0);
    canonical(arguments, &mut out);
    out
}

/// `value` as JSON with object keys sorted.
fn canonical(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push(b'{');
            for (i, (k, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_json(k, out);
                out.push(b':');
                canonical(v, out);
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                canonical(v, out);
            }
            out.push(b']');
        }
        other => write_json(other, out),
    }
}

/// `value`'s JSON, appended (the bytes `to_string` gives, without a `String` per value).
fn write_json(value: &(impl serde::Serialize + ?Sized), out: &mut Vec<u8>) {
    serde_json::to_writer(out, value).expect("JSON values and strings serialize");
}

/// `bytes` in lowercase hex.
fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 0xf)] as char);
    }
    out
}

/// A question's fingerprint: SHA-256 of its JSON, hex (the first 16 bytes).
fn fingerprint(question: &InputRequest) -> String {
    let mut canonical_json = Vec::new();
    canonical(
        &serde_json::to_value(question).unwrap_or(Value::Null),
        &mut canonical_json,
    );
    let digest = Sha256::digest(&canonical_json);
    hex(&digest[..16])
}

/// The key of a question asked with a typed form: the type's name in snake case
/// (`GripChoice` → `grip_choice`).
pub(crate) fn key_of_type(type_name: &str) -> String {
    let base = type_name.split('<').next().unwrap_or(type_name);
    let base = base.rsplit("::").next().unwrap_or(base);
    let mut key = String::with_capacity(base.len() + 4);
    for (i, c) in base.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                key.push('_');
            }
            key.extend(c.to_lowercase());
        } else if c.is_alphanumeric() {
            key.push(c);
        } else {
            key.push('_');
        }
    }
    if key.is_empty() {
        key.push_str("elicitation");
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_canonical_form_sorts_keys_and_writes_what_serde_json_writes() {
        let value = json!({"b": 1, "a": [true, "x\"y\u{e9}", null, 1.5, -0.0, 1e300], "é": {}});
        let mut out = Vec::new();
        canonical(&value, &mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"a":[true,"x\"yé",null,1.5,-0.0,1e+300],"b":1,"é":{}}"#
        );
        assert_eq!(hex(&[0x00, 0x9f, 0xff]), "009fff");
    }

    #[allow(deprecated)] // roots are deprecated by SEP-2577, still served
    fn question() -> InputRequest {
        InputRequest::ListRoots(rmcp::model::ListRootsRequest::default())
    }

    #[test]
    fn key_files_name_their_mistakes_and_the_first_key_seals() {
        let dir = std::env::temp_dir().join(format!("toolwright-keys-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        let key = |byte: u8| {
            use base64::Engine as _;
            base64::engine::general_purpose::STANDARD.encode([byte; 32])
        };
        let good = write(
            "good",
            &format!(
                "# rotated 2026-12-01\nnew {}\nold {}  # until 12:00\n",
                key(1),
                key(2)
            ),
        );
        let ring = RequestStateKeys::from_file(&good).unwrap();
        let old = RequestStateKeys::new("old", [2u8; 32]).unwrap();
        let args = json!({});
        let sealed_by_old = {
            let round = Round::open(&old, "t", &args, Returned::default()).unwrap();
            round.answer("roots", question());
            round.input_required().request_state.unwrap()
        };
        let reopened = Returned {
            request_state: Some(sealed_by_old),
            ..Returned::default()
        };
        assert!(
            Round::open(&ring, "t", &args, reopened).is_ok(),
            "old keys still open"
        );

        let errors = [
            ("empty", "# nothing\n".to_owned(), "holds no key"),
            (
                "one_word",
                "lonely\n".to_owned(),
                ":1: expected `ID BASE64KEY`",
            ),
            (
                "not_base64",
                "k %%%\n".to_owned(),
                ":1: the key of `k` is not base64",
            ),
            ("short", "k AAAA\n".to_owned(), "too short"),
            // Issue 43: an operator's file with a repeated id stops `serve`, naming both lines.
            (
                "repeated_id",
                format!("a {}\n\nb {}\na {}\n", key(1), key(2), key(3)),
                ":4: the id `a` appears twice (first at line 1)",
            ),
        ];
        for (name, text, expected) in errors {
            let error = RequestStateKeys::from_file(&write(name, &text)).unwrap_err();
            assert!(error.to_string().contains(expected), "{name}: {error}");
        }
        let missing = RequestStateKeys::from_file(&dir.join("missing")).unwrap_err();
        assert!(missing.to_string().starts_with("cannot read"), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn type_names_become_snake_case_keys() {
        assert_eq!(key_of_type("my_crate::forms::UserName"), "user_name");
        assert_eq!(key_of_type("Grip"), "grip");
        assert_eq!(key_of_type("a::Wrapper<b::Inner>"), "wrapper");
    }

    #[test]
    fn arguments_bind_whatever_their_key_order() {
        let a = binding(
            "t",
            None,
            &json!({"x": 1, "y": {"b": 2, "a": [1, {"d": 0, "c": 1}]}}),
        );
        let b = binding(
            "t",
            None,
            &json!({"y": {"a": [1, {"c": 1, "d": 0}], "b": 2}, "x": 1}),
        );
        assert_eq!(a, b);
        assert_ne!(a, binding("t", None, &json!({"x": 2})));
        assert_ne!(
            a,
            binding(
                "t",
                Some("alice"),
                &json!({"x": 1, "y": {"b": 2, "a": [1, {"d": 0, "c": 1}]}})
            )
        );
        assert_ne!(
            binding("t", None, &json!({})),
            binding("u", None, &json!({}))
        );
    }

    #[test]
    fn a_state_opens_for_its_own_call_only() {
        let keys = RequestStateKeys::random();
        let args = json!({"x": 1});
        let alice = || Some(std::sync::Arc::from("alice"));
        let fresh = Returned {
            principal: alice(),
            ..Returned::default()
        };
        let round = Round::open(&keys, "t", &args, fresh).unwrap();
        assert!(round.answer("roots", question()).is_none());
        let result = round.input_required();
        let state = result.request_state.unwrap();
        assert!(result.input_requests.unwrap().contains_key("roots"));
        let back = |tool: &str, who: Option<&str>, args: &Value, state: String| {
            Round::open(
                &keys,
                tool,
                args,
                Returned {
                    request_state: Some(state),
                    input_responses: Some(
                        [("roots".to_owned(), json!({"roots": []}))]
                            .into_iter()
                            .collect(),
                    ),
                    principal: who.map(std::sync::Arc::from),
                },
            )
        };
        let ok = back("t", Some("alice"), &args, state.clone()).unwrap();
        assert_eq!(
            ok.answer("roots", question()).map(|a| a.1),
            Some(json!({"roots": []}))
        );
        assert!(
            back("u", Some("alice"), &args, state.clone()).is_err(),
            "another tool"
        );
        assert!(
            back("t", Some("bob"), &args, state.clone()).is_err(),
            "another principal"
        );
        assert!(
            back("t", Some("alice"), &json!({"x": 2}), state.clone()).is_err(),
            "other arguments"
        );
        let mut tampered = state.clone();
        tampered.push('A');
        assert!(
            back("t", Some("alice"), &args, tampered).is_err(),
            "altered"
        );
        let other_keys = RequestStateKeys::random();
        assert!(
            Round::open(
                &other_keys,
                "t",
                &args,
                Returned {
                    request_state: Some(state),
                    principal: alice(),
                    ..Returned::default()
                }
            )
            .is_err(),
            "another server's key"
        );
    }

    #[test]
    fn an_expired_state_is_refused() {
        let keys = RequestStateKeys::random().with_ttl(Duration::from_millis(1));
        let args = json!({});
        let round = Round::open(&keys, "t", &args, Returned::default()).unwrap();
        round.answer("roots", question());
        let state = round.input_required().request_state.unwrap();
        std::thread::sleep(Duration::from_millis(20));
        let returned = Returned {
            request_state: Some(state),
            ..Returned::default()
        };
        assert!(Round::open(&keys, "t", &args, returned).is_err());
    }

    #[test]
    fn answers_carry_over_rounds_and_a_changed_question_is_asked_again() {
        let keys = RequestStateKeys::random();
        let args = json!({});
        let elicit = |message: &str| {
            InputRequest::Elicitation(rmcp::model::ElicitRequest::new(
                rmcp::model::ElicitRequestParams::FormElicitationParams {
                    meta: None,
                    message: message.to_owned(),
                    requested_schema: rmcp::model::ElicitationSchema::builder().build().unwrap(),
                },
            ))
        };
        // Round 1 asks `form`.
        let r1 = Round::open(&keys, "t", &args, Returned::default()).unwrap();
        assert!(r1.answer("form", elicit("first?")).is_none());
        let s1 = r1.input_required().request_state.unwrap();
        // Round 2: `form` answered; the body asks a second `form` (key form_2).
        let r2 = Round::open(
            &keys,
            "t",
            &args,
            Returned {
                request_state: Some(s1),
                input_responses: Some([("form".to_owned(), json!("one"))].into_iter().collect()),
                principal: None,
            },
        )
        .unwrap();
        assert_eq!(
            r2.answer("form", elicit("first?")).map(|a| a.1),
            Some(json!("one"))
        );
        assert!(r2.answer("form", elicit("second?")).is_none());
        let asked = r2.input_required();
        assert!(
            asked
                .input_requests
                .as_ref()
                .unwrap()
                .contains_key("form_2")
        );
        // Round 3: both answered, the first carried by the state.
        let r3 = Round::open(
            &keys,
            "t",
            &args,
            Returned {
                request_state: asked.request_state,
                input_responses: Some([("form_2".to_owned(), json!("two"))].into_iter().collect()),
                principal: None,
            },
        )
        .unwrap();
        assert_eq!(
            r3.answer("form", elicit("first?")).map(|a| a.1),
            Some(json!("one"))
        );
        assert_eq!(
            r3.answer("form", elicit("second?")).map(|a| a.1),
            Some(json!("two"))
        );
        // The same state, but a body whose first question changed: asked again.
        r3.restart();
        assert_eq!(r3.answer("form", elicit("another first?")), None);
    }
}
