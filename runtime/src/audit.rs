//! Audit receipts: one JSON line per call of a tool that is not `read_only`, appended to a file
//! and chained by SHA-256, so that what was actuated, by whom, with which arguments and how it
//! ended can be read afterwards, and any change to the file is found
//! ([`ToolboxBuilder::with_audit_log`](crate::ToolboxBuilder::with_audit_log),
//! `serve --audit-log PATH`; [`verify`], `audit verify PATH`).
//!
//! # What is recorded
//!
//! Every `tools/call` that reached the toolbox and names a tool that is not `read_only`, whatever
//! became of it: run, refused (invalid arguments, too large, queue full, rate limited, not
//! confirmed, a refused `requestState`), cancelled, timed out, or answered `input_required` (the
//! first round of a call on protocol 2026-07-28, which ran nothing). A call of a tool that is not
//! served is not recorded: an unknown tool, a tool whose group is off, or, in read-only mode
//! (`serve --read-only`), a tool that is not `read_only`; nothing ran. A line is
//! written once the call ended, before its answer is sent, so a client that has its answer has
//! a durable receipt of it. Each line is one JSON object whose members come in this order:
//!
//! | member | what it holds |
//! |---|---|
//! | `v` | the format, `1` |
//! | `seq` | the line's number, from 1 |
//! | `time` | when the call reached the toolbox, RFC 3339 UTC, milliseconds |
//! | `tool` | the tool |
//! | `arguments` | the validated arguments (defaults filled in, in the published units); the arguments as sent when they were refused as invalid; `null` when they were too large to read |
//! | `validated` | whether `arguments` passed validation |
//! | `principal` | the authenticated caller over HTTP (`https://auth.example#sub:alice`, `bearer`; see the HTTP docs), `null` without authentication |
//! | `confirmation` | for a tool declared with `confirm`: `accepted`, `declined`, `cancelled`, `not asked` (the client could not be asked, the call was cancelled while it was, or it was refused before the question), `asked` (protocol 2026-07-28: the question went to the client, the answer comes with the next call); `not required` for other tools and with confirmation off |
//! | `outcome` | `ok`, `error`, `refused`, `cancelled` (by the client), `client gone` (its connection closed, its stream was not resumed in time, or its task's lease ran out), `stopped by <tool>` (the resource's stop tool), `deadline passed`, `server stopped` (shut down during the call) or `input required` |
//! | `detail` | the finer word the `tool_call` tracing span records (`tool_error`, `panic`, `invalid_arguments`, `rate_limited`, `queue_full`, `not_confirmed`, `faulted` (its resource's safe stop had failed, and failed again), `timeout`, `cancelled`, `client_gone`, `lease_expired`, `shutdown`, `stopped`, …) |
//! | `text` | what the model was told (the result's text), at most 2,000 characters: for a deadline, "did not finish within its 30 s deadline; … Safe stop of `arm`: halted at …" |
//! | `duration_ms` | from arriving to ending |
//! | `trace_id` | the call's trace id (also in the result's `_meta`) |
//! | `prev` | the previous line's `hash` (64 zeros on the first line) |
//! | `hash` | SHA-256, lowercase hex, of the line's canonical form: the line as written without its `hash` member (that is, its bytes up to `,"hash":` followed by `}`) |
//!
//! # Durability and order
//!
//! One writer thread appends the lines in the order calls end and `fsync`s (`fdatasync`) each
//! before the call's answer is sent; the async runtime's threads never wait on the disk. The
//! file is opened append-only and locked against a second writer; lines are never rewritten.
//!
//! On opening an existing file the chain is verified first and continued from its last line; a
//! file that does not verify is refused (keep it as evidence, and start a new one). A crash in
//! the middle of a write leaves a *torn* last line, without its newline: [`verify`] reports it
//! (exit 1 naming it, after the lines before it verified), and the next writer completes it with
//! its newline when it is a whole line that continues the chain, or else cuts it off (it was
//! never a receipt: its call's answer was never sent) and logs a warning saying how many bytes.
//!
//! # When a line cannot be written
//!
//! The call has already happened, so its answer is sent, with one more text block saying that it
//! has no audit record, and the writer fails closed: from then on every call of a tool that is not
//! `read_only` is refused before it runs, saying why, and an error is logged, until the server
//! is restarted with a log that can be written. Read-only tools keep working.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock, mpsc};
use std::time::{Duration, Instant, SystemTime};

use serde_json::{Map, Value};
use sha2::{Digest as _, Sha256};

/// The `prev` of the first line.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The longest `text` of a line, in characters.
const MAX_TEXT: usize = 2000;

/// What every line ends with, before the hash's 64 hex digits and `"}`.
const HASH_MEMBER: &[u8] = b",\"hash\":\"";

/// The length of the end of a line that holds its hash: `,"hash":"` 64 digits `"}`.
const HASH_END: usize = HASH_MEMBER.len() + 64 + 2;

/// An audit log open for appending: give it to
/// [`ToolboxBuilder::with_audit_log`](crate::ToolboxBuilder::with_audit_log).
pub struct AuditLog {
    path: PathBuf,
    jobs: mpsc::Sender<Job>,
    /// Why the log cannot be written, once it could not be (then every write is refused).
    failed: Arc<OnceLock<String>>,
}

impl fmt::Debug for AuditLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuditLog")
            .field("path", &self.path)
            .field("failed", &self.failed.get())
            .finish_non_exhaustive()
    }
}

/// Why an audit log could not be opened.
#[derive(Debug)]
pub struct OpenError {
    message: String,
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OpenError {}

impl AuditLog {
    /// Opens (or creates) the log at `path` for appending: an existing file is verified first
    /// and its chain continued (a torn last line is completed or cut off, see the module docs);
    /// one that does not verify, or that another process is writing, is refused.
    pub fn open(path: impl AsRef<Path>) -> Result<AuditLog, OpenError> {
        let path = path.as_ref().to_owned();
        let shown = path.display();
        let io = |what: &str, e: std::io::Error| OpenError {
            message: format!("audit log {shown}: cannot {what}: {e}"),
        };
        let existed = path.exists();
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)
            .map_err(|e| io("open it", e))?;
        // `/dev/null` would take every line and keep none.
        if !file
            .metadata()
            .map_err(|e| io("read its metadata", e))?
            .is_file()
        {
            return Err(OpenError {
                message: format!("audit log {shown} is not a regular file"),
            });
        }
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(OpenError {
                    message: format!(
                        "audit log {shown}: another process is writing it; give each server a \
                         log of its own"
                    ),
                });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io("lock it", e)),
        }
        if !existed {
            sync_parent(&path);
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(|e| io("read it", e))?;
        let (mut chain, stop) = scan(&bytes);
        match stop {
            None => {}
            Some(Stop::Bad { line, why }) => {
                return Err(OpenError {
                    message: format!(
                        "audit log {shown} does not verify: line {line} {why}. Nothing was \
                         appended to it: keep it as it is (it is evidence), find out what \
                         happened to it, and serve with a new log file"
                    ),
                });
            }
            Some(Stop::Torn {
                line,
                start: _,
                whole: Some(hash),
            }) => {
                // Written whole but for its newline: it continues the chain, so it stays.
                file.write_all(b"\n")
                    .and_then(|()| file.sync_data())
                    .map_err(|e| io("complete its torn last line", e))?;
                tracing::warn!(path = %shown, line, "completed the audit log's last line, which had no newline");
                chain = Chain {
                    lines: line,
                    hash,
                    end: bytes.len() + 1,
                };
            }
            Some(Stop::Torn {
                line,
                start,
                whole: None,
            }) => {
                file.set_len(start as u64)
                    .and_then(|()| file.sync_data())
                    .map_err(|e| io("cut off its torn last line", e))?;
                tracing::warn!(
                    path = %shown,
                    line,
                    bytes = bytes.len() - start,
                    "cut off the audit log's torn last line (a write cut short: its call's answer was never sent)"
                );
            }
        }
        let failed = Arc::new(OnceLock::new());
        let (jobs, queue) = mpsc::channel();
        let writer = Writer {
            file,
            path: path.clone(),
            lines: chain.lines,
            prev: chain.hash,
            failed: Arc::clone(&failed),
        };
        std::thread::Builder::new()
            .name("toolwright-audit".to_owned())
            .spawn(move || writer.run(queue))
            .map_err(|e| io("start its writer thread", e))?;
        Ok(AuditLog { path, jobs, failed })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Why the log can no longer be written (`None` while it can).
    pub fn failure(&self) -> Option<&str> {
        self.failed.get().map(String::as_str)
    }

    /// The answer of a call refused because the log cannot be written.
    pub(crate) fn refusal(&self, tool: &str) -> Option<String> {
        self.failure().map(|why| {
            format!(
                "refused: `{tool}` did not run. Every call of a tool that is not read-only is \
                 recorded in the audit log, and the log cannot be written ({why}); such calls are \
                 refused until the server is restarted with a log it can write. Read-only tools \
                 still work"
            )
        })
    }
}

/// fsyncs the directory holding a file just created, so that its entry survives a crash.
fn sync_parent(path: &Path) {
    #[cfg(unix)]
    {
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if let Err(e) = File::open(parent).and_then(|d| d.sync_all()) {
            tracing::warn!(path = %path.display(), error = %e, "cannot fsync the audit log's directory");
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// One line to write, and who waits for it.
struct Job {
    record: Record,
    done: Option<tokio::sync::oneshot::Sender<Result<String, String>>>,
}

/// What a call contributes to its line.
struct Record {
    time: SystemTime,
    tool: Arc<str>,
    arguments: Value,
    validated: bool,
    principal: Option<Arc<str>>,
    confirmation: &'static str,
    detail: &'static str,
    /// The stop tool that stopped the call (detail `stopped`).
    stopped_by: Option<&'static str>,
    text: String,
    duration: Duration,
    trace_id: String,
}

/// The writer thread: the only one that touches the file.
struct Writer {
    file: File,
    path: PathBuf,
    lines: u64,
    prev: String,
    failed: Arc<OnceLock<String>>,
}

impl Writer {
    fn run(mut self, queue: mpsc::Receiver<Job>) {
        for job in queue {
            let written = self.write(&job.record);
            if let Some(done) = job.done {
                let _ = done.send(written);
            }
        }
    }

    /// Writes `record`'s line; its hash, or why it could not be written.
    fn write(&mut self, record: &Record) -> Result<String, String> {
        if let Some(why) = self.failed.get() {
            return Err(why.clone());
        }
        let (line, hash) = render(self.lines + 1, &self.prev, record);
        match self
            .file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
        {
            Ok(()) => {
                self.lines += 1;
                self.prev.clone_from(&hash);
                Ok(hash)
            }
            Err(e) => {
                let why = format!("cannot write to {}: {e}", self.path.display());
                // Closed first: logging may fail too (stderr on the same full disk, or a file
                // size limit), and must not leave the log open.
                let _ = self.failed.set(why.clone());
                tracing::error!(
                    tool = %record.tool,
                    trace_id = %record.trace_id,
                    error = %why,
                    "audit log write failed: calls of tools that are not read-only are refused from now on"
                );
                Err(why)
            }
        }
    }
}

/// A line (with its newline) and its hash.
fn render(seq: u64, prev: &str, record: &Record) -> (String, String) {
    let mut map = Map::new();
    map.insert("v".into(), Value::from(1));
    map.insert("seq".into(), Value::from(seq));
    map.insert("time".into(), Value::from(rfc3339(record.time)));
    map.insert("tool".into(), Value::from(&*record.tool));
    map.insert("arguments".into(), record.arguments.clone());
    map.insert("validated".into(), Value::from(record.validated));
    map.insert(
        "principal".into(),
        record.principal.as_deref().map_or(Value::Null, Value::from),
    );
    map.insert("confirmation".into(), Value::from(record.confirmation));
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
    let canonical = Value::Object(map).to_string();
    let hash = hex_sha256(canonical.as_bytes());
    let mut line = canonical;
    line.pop(); // the closing brace
    line.push_str(",\"hash\":\"");
    line.push_str(&hash);
    line.push_str("\"}\n");
    (line, hash)
}

fn hex_sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The stable word of a call's outcome, from the finer one its span records (a call a stop
/// tool stopped is `stopped by <tool>`, see [`render`]).
fn outcome_of(detail: &str) -> &'static str {
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
fn bounded(text: &str) -> String {
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

/// A call's line in the making: created when a call of a tool that is not read-only reaches the
/// toolbox, filled in on its way, written when it ends ([`Receipt::finish`]). Dropped unfinished
/// (the request's task was dropped), it is written as `cancelled`, detail `dropped`.
pub(crate) struct Receipt {
    log: Arc<AuditLog>,
    record: Option<Record>,
    started: Instant,
}

impl Receipt {
    pub(crate) fn new(
        log: &Arc<AuditLog>,
        tool: &Arc<str>,
        trace_id: &str,
        principal: Option<Arc<str>>,
        asks: bool,
    ) -> Box<Receipt> {
        Box::new(Receipt {
            log: Arc::clone(log),
            record: Some(Record {
                time: SystemTime::now(),
                tool: Arc::clone(tool),
                arguments: Value::Null,
                validated: false,
                principal,
                // Until the user answers (refused before being asked: `not asked`).
                confirmation: if asks { "not asked" } else { "not required" },
                detail: "dropped",
                stopped_by: None,
                text: "the request ended before the call did (the client went away, or the \
                       server stopped)"
                    .to_owned(),
                duration: Duration::ZERO,
                trace_id: trace_id.to_owned(),
            }),
            started: Instant::now(),
        })
    }

    /// The arguments, `validated` or as sent.
    pub(crate) fn arguments(&mut self, arguments: &Value, validated: bool) {
        if let Some(record) = &mut self.record {
            record.arguments = arguments.clone();
            record.validated = validated;
        }
    }

    /// The user's answer to the confirmation (`Decision::as_str`, or `asked`).
    pub(crate) fn confirmation(&mut self, decision: &'static str) {
        if let Some(record) = &mut self.record {
            record.confirmation = decision;
        }
    }

    /// The stop tool (`stop_for`) that stopped the call: its outcome is `stopped by <tool>`.
    pub(crate) fn stopped_by(&mut self, tool: &'static str) {
        if let Some(record) = &mut self.record {
            record.stopped_by = Some(tool);
        }
    }

    /// Writes the line of a call that ended with `detail`, having told the model `text`; returns
    /// once it is on disk (its hash is then on the request's span, `toolwright.audit.hash`), or
    /// why it could not be written.
    pub(crate) async fn finish(
        mut self: Box<Self>,
        detail: &'static str,
        text: String,
    ) -> Result<(), String> {
        let Some(mut record) = self.record.take() else {
            return Ok(());
        };
        record.detail = detail;
        record.text = text;
        record.duration = self.started.elapsed();
        let (done, written) = tokio::sync::oneshot::channel();
        let job = Job {
            record,
            done: Some(done),
        };
        let stopped = || {
            // Whatever stopped the writer, nothing more can be recorded: fail closed.
            let why = "the audit log's writer thread has stopped".to_owned();
            let _ = self.log.failed.set(why.clone());
            Err(why)
        };
        if self.log.jobs.send(job).is_err() {
            return stopped();
        }
        match written.await {
            Ok(Ok(hash)) => {
                crate::telemetry::mcp::note(|| {
                    vec![(
                        "toolwright.audit.hash",
                        crate::telemetry::mcp::NoteValue::Text(hash),
                    )]
                });
                Ok(())
            }
            Ok(Err(why)) => Err(why),
            Err(_) => stopped(),
        }
    }
}

impl Drop for Receipt {
    fn drop(&mut self) {
        if let Some(mut record) = self.record.take() {
            record.duration = self.started.elapsed();
            let _ = self.log.jobs.send(Job { record, done: None });
        }
    }
}

/// The text added to the answer of a call whose line could not be written.
pub(crate) fn unrecorded(why: &str) -> String {
    format!(
        "warning: this call has no audit record ({why}); calls of tools that are not read-only \
         are refused from now on"
    )
}

// ---------------------------------------------------------------------------------------------
// Verifying.

/// A log whose chain is intact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// How many lines it holds.
    pub lines: u64,
    /// The last line's hash ([`GENESIS`] for an empty log).
    pub last_hash: String,
}

/// Why a log does not verify.
#[derive(Debug)]
pub enum VerifyError {
    /// The file cannot be read.
    Read(std::io::Error),
    /// The first line that is not what it should be.
    Line {
        /// Its number, from 1.
        line: u64,
        /// What is wrong with it.
        why: String,
        /// Whether it is a torn last line (no newline at its end: a write cut short).
        torn: bool,
    },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Read(e) => write!(f, "cannot read it: {e}"),
            VerifyError::Line { line, why, .. } => write!(f, "line {line} {why}"),
        }
    }
}

impl std::error::Error for VerifyError {}

/// Verifies the log at `path`: every line complete, in the canonical form with its hash, and
/// chained to the one before it.
pub fn verify(path: impl AsRef<Path>) -> Result<Verified, VerifyError> {
    let bytes = std::fs::read(path).map_err(VerifyError::Read)?;
    verify_bytes(&bytes)
}

fn verify_bytes(bytes: &[u8]) -> Result<Verified, VerifyError> {
    let (chain, stop) = scan(bytes);
    match stop {
        None => Ok(Verified {
            lines: chain.lines,
            last_hash: chain.hash,
        }),
        Some(Stop::Bad { line, why }) => Err(VerifyError::Line {
            line,
            why,
            torn: false,
        }),
        Some(Stop::Torn { line, whole, .. }) => Err(VerifyError::Line {
            line,
            why: format!(
                "is torn: it has no newline at its end, so its write was cut short (a crash?), \
                 and {}; the {} line(s) before it verify. The next server to open the log {}",
                if whole.is_some() {
                    "it is otherwise whole"
                } else {
                    "it is incomplete"
                },
                line - 1,
                if whole.is_some() {
                    "completes it"
                } else {
                    "cuts it off (its call's answer was never sent)"
                }
            ),
            torn: true,
        }),
    }
}

/// The verified part of a log.
struct Chain {
    lines: u64,
    hash: String,
    /// Where the verified lines end (a byte offset).
    end: usize,
}

/// Where verification stopped.
enum Stop {
    Bad {
        line: u64,
        why: String,
    },
    /// A last line without its newline, starting at byte `start`; `whole`: its hash, when it is
    /// a complete line that continues the chain.
    Torn {
        line: u64,
        start: usize,
        whole: Option<String>,
    },
}

fn scan(bytes: &[u8]) -> (Chain, Option<Stop>) {
    let mut chain = Chain {
        lines: 0,
        hash: GENESIS.to_owned(),
        end: 0,
    };
    while chain.end < bytes.len() {
        let rest = &bytes[chain.end..];
        let number = chain.lines + 1;
        let Some(newline) = rest.iter().position(|&b| b == b'\n') else {
            let whole = check_line(number, &chain.hash, rest).ok();
            return (
                chain,
                Some(Stop::Torn {
                    line: number,
                    start: bytes.len() - rest.len(),
                    whole,
                }),
            );
        };
        match check_line(number, &chain.hash, &rest[..newline]) {
            Ok(hash) => {
                chain.lines = number;
                chain.hash = hash;
                chain.end += newline + 1;
            }
            Err(why) => return (chain, Some(Stop::Bad { line: number, why })),
        }
    }
    (chain, None)
}

/// Checks line `seq` (without its newline) against the previous line's hash; returns its hash.
fn check_line(seq: u64, prev: &str, line: &[u8]) -> Result<String, String> {
    if line.is_empty() {
        return Err("is empty".to_owned());
    }
    let n = line.len();
    let ends_with_hash = n > HASH_END
        && line[n - HASH_END..].starts_with(HASH_MEMBER)
        && line[n - 66..n - 2]
            .iter()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        && &line[n - 2..] == b"\"}";
    if !ends_with_hash {
        return Err(
            "does not end with its hash (`,\"hash\":\"` 64 lowercase hex digits `\"}`): it was \
             altered or is not an audit line"
                .to_owned(),
        );
    }
    let stated = std::str::from_utf8(&line[n - 66..n - 2]).expect("hex digits are ASCII");
    let mut canonical = line[..n - HASH_END].to_vec();
    canonical.push(b'}');
    let record: Map<String, Value> = serde_json::from_slice(&canonical)
        .map_err(|e| format!("is not a JSON object ({e}): it was altered"))?;
    if hex_sha256(&canonical) != stated {
        return Err("does not match its hash: it was altered".to_owned());
    }
    // The line is as it was written; now its place in the chain.
    if record.get("v") != Some(&Value::from(1)) {
        return Err("is not a version 1 audit line (`v`)".to_owned());
    }
    match record.get("seq").and_then(Value::as_u64) {
        Some(s) if s == seq => {}
        Some(s) => {
            return Err(format!(
                "is numbered {s}, not {seq}: lines were removed, added or moved"
            ));
        }
        None => return Err("has no `seq`".to_owned()),
    }
    if record.get("prev").and_then(Value::as_str) != Some(prev) {
        return Err(if seq == 1 {
            "does not start the chain (its `prev` is not the genesis value): lines before it were \
             removed"
                .to_owned()
        } else {
            format!(
                "does not follow line {} (its `prev` is not that line's hash): lines were \
                 removed, added or moved",
                seq - 1
            )
        });
    }
    for member in ["time", "tool", "confirmation", "outcome", "trace_id"] {
        if !record.get(member).is_some_and(Value::is_string) {
            return Err(format!("has no `{member}`"));
        }
    }
    Ok(stated.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(tool: &str, detail: &'static str) -> Record {
        Record {
            time: SystemTime::UNIX_EPOCH + Duration::from_millis(1_764_608_709_123),
            tool: Arc::from(tool),
            arguments: serde_json::json!({"x": 1.5e-7, "label": "a\nb\u{2028}"}),
            validated: true,
            principal: Some(Arc::from("https://auth.example#sub:alice")),
            confirmation: "accepted",
            detail,
            stopped_by: None,
            text: "done".to_owned(),
            duration: Duration::from_millis(12),
            trace_id: "0af7651916cd43dd8448eb211c80319c".to_owned(),
        }
    }

    /// A log of `n` lines.
    fn log(n: u64) -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut prev = GENESIS.to_owned();
        for seq in 1..=n {
            let (line, hash) = render(seq, &prev, &record("move", "ok"));
            bytes.extend_from_slice(line.as_bytes());
            prev = hash;
        }
        bytes
    }

    fn bad_line(bytes: &[u8]) -> (u64, String, bool) {
        match verify_bytes(bytes) {
            Err(VerifyError::Line { line, why, torn }) => (line, why, torn),
            other => panic!("expected a bad line, got {other:?}"),
        }
    }

    #[test]
    fn a_line_holds_its_members_in_order_and_hashes_its_canonical_form() {
        let (line, hash) = render(1, GENESIS, &record("move_arm_to_pose", "timeout"));
        assert!(
            line.ends_with(&format!(",\"hash\":\"{hash}\"}}\n")),
            "{line}"
        );
        let value: Map<String, Value> = serde_json::from_str(&line).unwrap();
        let keys: Vec<&str> = value.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "v",
                "seq",
                "time",
                "tool",
                "arguments",
                "validated",
                "principal",
                "confirmation",
                "outcome",
                "detail",
                "text",
                "duration_ms",
                "trace_id",
                "prev",
                "hash"
            ]
        );
        assert_eq!(value["time"], "2025-12-01T17:05:09.123Z");
        assert_eq!(value["outcome"], "deadline passed");
        assert_eq!(value["prev"], GENESIS);
        // The canonical form: the line without its hash member.
        let mut without = value.clone();
        without.shift_remove("hash");
        assert_eq!(
            hash,
            hex_sha256(Value::Object(without).to_string().as_bytes())
        );
        assert_eq!(hash.len(), 64);
    }

    #[test]
    fn times_are_rfc3339_utc() {
        let at = |ms: u64| rfc3339(SystemTime::UNIX_EPOCH + Duration::from_millis(ms));
        assert_eq!(at(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(at(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(at(4_102_444_799_999), "2099-12-31T23:59:59.999Z");
    }

    #[test]
    fn a_call_a_stop_tool_stopped_names_it() {
        let mut stopped = record("move", "stopped");
        stopped.stopped_by = Some("stop_arm");
        let (line, _) = render(1, GENESIS, &stopped);
        let value: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value["outcome"], "stopped by stop_arm");
        assert_eq!(value["detail"], "stopped");
    }

    #[test]
    fn outcomes_have_a_small_vocabulary() {
        for (detail, outcome) in [
            ("ok", "ok"),
            ("tool_error", "error"),
            ("panic", "error"),
            ("broken_output", "error"),
            ("timeout", "deadline passed"),
            ("cancelled", "cancelled"),
            ("dropped", "cancelled"),
            ("stopped", "stopped by a stop tool"),
            ("client_gone", "client gone"),
            ("lease_expired", "client gone"),
            ("shutdown", "server stopped"),
            ("faulted", "refused"),
            ("not_confirmed", "refused"),
            ("invalid_arguments", "refused"),
            ("queue_full", "refused"),
            ("rate_limited", "refused"),
            ("outside_envelope", "refused"),
            ("check_refused", "refused"),
            ("input_required", "input required"),
        ] {
            assert_eq!(outcome_of(detail), outcome, "{detail}");
        }
    }

    #[test]
    fn long_texts_are_cut() {
        let long = "é".repeat(MAX_TEXT + 10);
        let cut = bounded(&long);
        assert!(cut.starts_with(&"é".repeat(MAX_TEXT)));
        assert!(cut.ends_with("… (2010 characters in all)"), "{cut}");
        assert_eq!(bounded("short"), "short");
    }

    #[test]
    fn an_intact_chain_verifies() {
        assert_eq!(
            verify_bytes(b"").unwrap(),
            Verified {
                lines: 0,
                last_hash: GENESIS.to_owned()
            }
        );
        let bytes = log(3);
        let verified = verify_bytes(&bytes).unwrap();
        assert_eq!(verified.lines, 3);
    }

    #[test]
    fn every_altered_byte_names_its_line() {
        let bytes = log(3);
        let starts: Vec<usize> = std::iter::once(0)
            .chain(
                bytes
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| **b == b'\n')
                    .map(|(i, _)| i + 1),
            )
            .collect();
        for i in 0..bytes.len() {
            let line = starts.iter().filter(|&&s| s <= i).count() as u64;
            for flip in [0x01u8, 0x20, 0x80] {
                let mut altered = bytes.clone();
                altered[i] ^= flip;
                let (bad, why, _) = bad_line(&altered);
                assert_eq!(bad, line, "byte {i} ^ {flip:#x}: {why}");
            }
        }
    }

    #[test]
    fn removed_or_reordered_lines_are_found() {
        let bytes = log(3);
        let lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
        let (line, why, _) = bad_line(&[lines[0], lines[2]].concat());
        assert_eq!(line, 2, "{why}");
        assert!(why.contains("numbered 3"), "{why}");
        let (line, why, _) = bad_line(&[lines[1], lines[2]].concat());
        assert_eq!(line, 1, "{why}");
        // A whole line made again with the right number but not chained to its predecessor.
        let (forged, _) = render(2, GENESIS, &record("move", "ok"));
        let (line, why, _) = bad_line(&[lines[0], forged.as_bytes()].concat());
        assert_eq!(line, 2);
        assert!(why.contains("does not follow line 1"), "{why}");
    }

    #[test]
    fn a_torn_last_line_is_reported_as_such() {
        let bytes = log(2);
        let (line, why, torn) = bad_line(&bytes[..bytes.len() - 10]);
        assert_eq!((line, torn), (2, true));
        assert!(why.contains("incomplete"), "{why}");
        let (line, why, torn) = bad_line(&bytes[..bytes.len() - 1]);
        assert_eq!((line, torn), (2, true));
        assert!(why.contains("otherwise whole"), "{why}");
    }

    fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("toolwright-audit-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("audit.jsonl")
    }

    async fn write(log: &Arc<AuditLog>, tool: &str) -> Result<(), String> {
        let mut receipt = Receipt::new(log, &Arc::from(tool), "trace", None, false);
        receipt.arguments(&serde_json::json!({"x": 1}), true);
        receipt.finish("ok", "done".to_owned()).await
    }

    #[tokio::test]
    async fn a_reopened_log_continues_its_chain() {
        let path = temp("reopen");
        let log = Arc::new(AuditLog::open(&path).unwrap());
        write(&log, "a").await.unwrap();
        write(&log, "b").await.unwrap();
        // Locked while it is open.
        let second = AuditLog::open(&path).unwrap_err();
        assert!(second.to_string().contains("another process"), "{second}");
        drop(log);
        // The writer thread closes the file once its queue is gone.
        let mut log = None;
        for _ in 0..100 {
            match AuditLog::open(&path) {
                Ok(opened) => {
                    log = Some(Arc::new(opened));
                    break;
                }
                Err(_) => std::thread::sleep(Duration::from_millis(10)),
            }
        }
        let log = log.expect("reopened once the first writer closed it");
        write(&log, "c").await.unwrap();
        assert_eq!(verify(&path).unwrap().lines, 3);
        // A dropped receipt is written too.
        drop(Receipt::new(&log, &Arc::from("d"), "trace", None, true));
        drop(log);
        let mut lines = 0;
        for _ in 0..100 {
            lines = verify(&path).map(|v| v.lines).unwrap_or(0);
            if lines == 4 {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(lines, 4);
        let text = std::fs::read_to_string(&path).unwrap();
        let last = text.lines().last().unwrap();
        assert!(last.contains("\"detail\":\"dropped\""), "{last}");
        assert!(last.contains("\"confirmation\":\"not asked\""), "{last}");
    }

    #[test]
    fn only_a_regular_file_keeps_receipts() {
        let dir = temp("dir");
        let error = AuditLog::open(dir.parent().unwrap())
            .unwrap_err()
            .to_string();
        assert!(error.contains("cannot open it"), "{error}");
        #[cfg(unix)]
        {
            let error = AuditLog::open("/dev/null").unwrap_err().to_string();
            assert!(error.contains("not a regular file"), "{error}");
        }
    }

    #[test]
    fn a_log_that_does_not_verify_is_not_appended_to() {
        let path = temp("refuse");
        let mut bytes = log(2);
        bytes[5] = b'X';
        std::fs::write(&path, &bytes).unwrap();
        let error = AuditLog::open(&path).unwrap_err().to_string();
        assert!(error.contains("does not verify: line 1"), "{error}");
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "left as it was");
    }

    #[tokio::test]
    async fn a_torn_tail_is_cut_off_or_completed_on_opening() {
        let path = temp("torn");
        let bytes = log(2);
        // Cut short: dropped.
        std::fs::write(&path, &bytes[..bytes.len() - 20]).unwrap();
        let log = Arc::new(AuditLog::open(&path).unwrap());
        write(&log, "after").await.unwrap();
        let verified = verify(&path).unwrap();
        assert_eq!(verified.lines, 2);
        drop(log);
        // Whole but for its newline: kept.
        let path = temp("whole");
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        let log = Arc::new(AuditLog::open(&path).unwrap());
        write(&log, "after").await.unwrap();
        assert_eq!(verify(&path).unwrap().lines, 3);
        assert!(std::fs::read(&path).unwrap().starts_with(&bytes));
    }

    #[tokio::test]
    async fn a_log_that_cannot_be_written_fails_closed() {
        let path = temp("fails");
        std::fs::write(&path, b"").unwrap();
        // A writer whose file refuses writes (opened read-only), as a full disk would.
        let failed = Arc::new(OnceLock::new());
        let (jobs, queue) = mpsc::channel();
        let writer = Writer {
            file: File::open(&path).unwrap(),
            path: path.clone(),
            lines: 0,
            prev: GENESIS.to_owned(),
            failed: Arc::clone(&failed),
        };
        std::thread::spawn(move || writer.run(queue));
        let log = Arc::new(AuditLog {
            path: path.clone(),
            jobs,
            failed,
        });
        assert!(log.refusal("move").is_none());
        let why = write(&log, "move").await.unwrap_err();
        assert!(why.contains("cannot write to"), "{why}");
        let refusal = log.refusal("move").unwrap();
        assert!(refusal.contains("`move` did not run"), "{refusal}");
        assert!(refusal.contains(&why), "{refusal}");
        assert_eq!(write(&log, "again").await.unwrap_err(), why);
        assert!(unrecorded(&why).contains("no audit record"));
    }
}
