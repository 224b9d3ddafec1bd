//! One audit line: what a call contributes to it, its members in order, its canonical form and
//! its hash (or MAC).

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde_json::{Map, Value};
use sha2::{Digest as _, Sha256};

use super::key::AuditKey;

/// The line format written now.
pub(super) const VERSION: u64 = 2;

/// The longest `text` of a line, in characters.
pub(super) const MAX_TEXT: usize = 2000;

/// How a line's `hash` is made: `sha256` of its canonical form, or `hmac-sha256` with the
/// log's key.
pub(super) fn chain_name(key: Option<&AuditKey>) -> &'static str {
    if key.is_some() {
        "hmac-sha256"
    } else {
        "sha256"
    }
}

/// What the user answered a call's confirmation with, as its line records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Confirmation {
    /// The tool asks no one, or confirmation is off.
    NotRequired,
    /// It asks, and nobody was asked: refused before the question, or the client could not be.
    NotAsked,
    /// Protocol 2026-07-28: the question went to the client; the answer comes with the next call.
    Asked,
    Declined,
    Cancelled,
    /// The user approved it: what they were shown and which answer approved it.
    Accepted(Approval),
}

/// How an approval was obtained: the digest of the question the person was shown, and the
/// question's id in the protocol. A line cannot say `accepted` without one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Approval {
    /// SHA-256 of the question's text exactly as the person was shown it, lowercase hex.
    pub(crate) question: String,
    /// How it was asked.
    pub(crate) via: Via,
    /// The elicitation request's JSON-RPC id, the call's round id (sealed in its
    /// `requestState`), or the task's id.
    pub(crate) id: String,
}

/// How a question was asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Via {
    /// `elicitation/create` on protocol 2025-11-25 while the call waited.
    Elicitation,
    /// An `input_required` round on protocol 2026-07-28.
    Round,
    /// A task's `input_required` status, answered with `tasks/update`.
    Task,
}

impl Via {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Via::Elicitation => "elicitation",
            Via::Round => "round",
            Via::Task => "task",
        }
    }
}

impl Approval {
    /// The approval of `question` (its exact text) given through `via` to the question `id`.
    pub(crate) fn of(question: &str, via: Via, id: String) -> Approval {
        Approval {
            question: hex(&Sha256::digest(question.as_bytes())),
            via,
            id,
        }
    }
}

impl Confirmation {
    /// Its word on the line.
    pub(super) fn as_str(&self) -> &'static str {
        match self {
            Confirmation::NotRequired => "not required",
            Confirmation::NotAsked => "not asked",
            Confirmation::Asked => "asked",
            Confirmation::Declined => "declined",
            Confirmation::Cancelled => "cancelled",
            Confirmation::Accepted(_) => "accepted",
        }
    }
}

/// What a call contributes to its line.
pub(super) struct Record {
    pub(super) time: SystemTime,
    pub(super) tool: Arc<str>,
    /// The arguments exactly as the client sent them (`null` when they were too large to read).
    pub(super) arguments: Value,
    /// What validation filled in that the client did not send, by JSON pointer.
    pub(super) defaults: Option<Map<String, Value>>,
    pub(super) validated: bool,
    pub(super) principal: Option<Arc<str>>,
    pub(super) confirmation: Confirmation,
    pub(super) detail: &'static str,
    /// The stop tool that stopped the call (detail `stopped`).
    pub(super) stopped_by: Option<&'static str>,
    pub(super) text: String,
    pub(super) duration: Duration,
    pub(super) trace_id: String,
}

/// A line (with its newline) and its hash: SHA-256 of its canonical form, or its HMAC with
/// `key`.
pub(super) fn render(
    seq: u64,
    prev: &str,
    record: &Record,
    key: Option<&AuditKey>,
) -> (String, String) {
    let mut map = Map::new();
    map.insert("v".into(), Value::from(VERSION));
    map.insert("seq".into(), Value::from(seq));
    map.insert("time".into(), Value::from(rfc3339(record.time)));
    map.insert("tool".into(), Value::from(&*record.tool));
    map.insert("arguments".into(), record.arguments.clone());
    if let Some(defaults) = &record.defaults {
        map.insert("defaults".into(), Value::Object(defaults.clone()));
    }
    map.insert("validated".into(), Value::from(record.validated));
    map.insert(
        "principal".into(),
        record.principal.as_deref().map_or(Value::Null, Value::from),
    );
    map.insert(
        "confirmation".into(),
        Value::from(record.confirmation.as_str()),
    );
    if let Confirmation::Accepted(approval) = &record.confirmation {
        map.insert(
            "approval".into(),
            serde_json::json!({
                "question": approval.question,
                "via": approval.via.as_str(),
                "id": approval.id,
            }),
        );
    }
    let outcome = match (record.detail, record.stopped_by) {
        ("stopped", Some(by)) => Value::from(format!("stopped by {by}")),
        (detail, _) => Value::from(outcome_of(detail)),
    };
    map.insert("outcome".into(), outcome);
    map.insert("detail".into(), Value::from(record.detail));
    map.insert("text".into(), Value::from(bounded(&record.text)));
    map.insert(
        "duration_ms".into(),
        Value::from(record.duration.as_millis() as u64),
    );
    map.insert("trace_id".into(), Value::from(record.trace_id.as_str()));
    map.insert("prev".into(), Value::from(prev));
    map.insert("chain".into(), Value::from(chain_name(key)));
    let canonical = Value::Object(map).to_string();
    let hash = match key {
        Some(key) => key.mac(canonical.as_bytes()),
        None => hex_sha256(canonical.as_bytes()),
    };
    let mut line = canonical;
    line.pop(); // the closing brace
    line.push_str(",\"hash\":\"");
    line.push_str(&hash);
    line.push_str("\"}\n");
    (line, hash)
}

/// What validation filled in (`validated`) that the client did not send (`sent`): each value
/// present in the one and absent from the other, by JSON pointer (`/speed`, `/target/w`).
/// `None` when nothing was filled in.
pub(super) fn defaults(sent: &Value, validated: &Value) -> Option<Map<String, Value>> {
    fn walk(sent: &Value, validated: &Value, path: &mut String, out: &mut Map<String, Value>) {
        let (Value::Object(sent), Value::Object(validated)) = (sent, validated) else {
            return;
        };
        for (key, value) in validated {
            let len = path.len();
            path.push('/');
            path.push_str(&key.replace('~', "~0").replace('/', "~1"));
            match sent.get(key) {
                None => {
                    out.insert(path.clone(), value.clone());
                }
                Some(inner) => walk(inner, value, path, out),
            }
            path.truncate(len);
        }
    }
    let mut out = Map::new();
    walk(sent, validated, &mut String::new(), &mut out);
    (!out.is_empty()).then_some(out)
}

pub(super) fn hex_sha256(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// `bytes` in lowercase hex.
pub(super) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 0xf)] as char);
    }
    out
}

/// The stable word of a call's outcome, from the finer one its span records (a call a stop
/// tool stopped is `stopped by <tool>`, see [`render`]).
pub(super) fn outcome_of(detail: &str) -> &'static str {
    match detail {
        "ok" => "ok",
        "stopped" => "stopped by a stop tool",
        "cancelled" | "dropped" => "cancelled",
        "client_gone" | "lease_expired" => "client gone",
        "shutdown" => "server stopped",
        "timeout" => "deadline passed",
        "input_required" => "input required",
        "too_large" | "invalid_arguments" | "state_refused" | "queue_full" | "rate_limited"
        | "not_confirmed" | "approval_reused" | "outside_envelope" | "check_refused"
        | "faulted" => "refused",
        _ => "error",
    }
}

/// `text`, cut to [`MAX_TEXT`] characters with a note of its length.
pub(super) fn bounded(text: &str) -> String {
    match text.char_indices().nth(MAX_TEXT) {
        None => text.to_owned(),
        Some((cut, _)) => format!(
            "{}… ({} characters in all)",
            &text[..cut],
            text.chars().count()
        ),
    }
}

/// `2026-12-01T17:05:09.123Z` (RFC 3339, UTC, milliseconds).
pub(crate) fn rfc3339(time: SystemTime) -> String {
    let since = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    let secs = since.as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's civil_from_days.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
        since.subsec_millis()
    )
}
