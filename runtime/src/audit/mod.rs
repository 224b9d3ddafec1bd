//! Audit receipts: one JSON line per call of a tool that is not `read_only`, appended to a file
//! and chained, so that what was actuated, by whom, with which arguments, with whose approval and
//! how it ended can be read afterwards
//! ([`ToolboxBuilder::with_audit_log`](crate::ToolboxBuilder::with_audit_log),
//! `serve --audit-log PATH`; [`verify_with`], `audit verify PATH`).
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
//! | `v` | the format, `2` (format 1 lines, without `defaults`, `approval` and `chain`, still verify) |
//! | `seq` | the line's number, from 1 |
//! | `time` | when the call reached the toolbox, RFC 3339 UTC, milliseconds |
//! | `tool` | the tool |
//! | `arguments` | the arguments exactly as the client sent them; `null` when they were too large to read |
//! | `defaults` | present when validation filled in what the client did not send: each value by JSON pointer (`{"/speed": 0.5}`) |
//! | `validated` | whether the arguments passed validation |
//! | `principal` | the authenticated caller over HTTP (`https://auth.example#sub:alice`, `bearer`; see the HTTP docs), `null` without authentication |
//! | `confirmation` | for a tool declared with `confirm`: `accepted`, `declined`, `cancelled`, `not asked` (the client could not be asked, the call was cancelled while it was, or it was refused before the question), `asked` (protocol 2026-07-28: the question went to the client, the answer comes with the next call); `not required` for other tools and with confirmation off |
//! | `approval` | with `accepted`, and only then: how the approval was obtained: `question`, the SHA-256 (hex) of the question's text exactly as the person was shown it; `via`, `elicitation` (protocol 2025-11-25), `round` (2026-07-28) or `task`; `id`, the elicitation request's JSON-RPC id, the call's round id (sealed in its `requestState`) or the task's id. The runtime cannot write `accepted` without it, and [`verify_with`] refuses a line that says `accepted` without it |
//! | `outcome` | `ok`, `error`, `refused`, `cancelled` (by the client), `client gone` (its connection closed, its stream was not resumed in time, or its task's lease ran out), `stopped by <tool>` (the resource's stop tool), `deadline passed`, `server stopped` (shut down during the call) or `input required` |
//! | `detail` | the finer word the `tool_call` tracing span records (`tool_error`, `panic`, `invalid_arguments`, `rate_limited`, `queue_full`, `not_confirmed`, `faulted` (its resource's safe stop had failed, and failed again), `timeout`, `cancelled`, `client_gone`, `lease_expired`, `shutdown`, `stopped`, …) |
//! | `text` | what the model was told (the result's text), at most 2,000 characters: for a deadline, "did not finish within its 30 s deadline; … Safe stop of `arm`: halted at …" |
//! | `duration_ms` | from arriving to ending |
//! | `trace_id` | the call's trace id (also in the result's `_meta`) |
//! | `prev` | the previous line's `hash` (64 zeros on the first line) |
//! | `chain` | how `hash` is made: `sha256`, or `hmac-sha256` with the log's key |
//! | `hash` | SHA-256 (or HMAC-SHA-256 with the key), lowercase hex, of the line's canonical form: the line as written without its `hash` member (its bytes up to `,"hash":` followed by `}`) |
//!
//! # What verifying proves
//!
//! [`verify_with`] (`audit verify PATH`) says what it proved and what it did not
//! ([`Verified::proves`]):
//!
//! - **With no key and no head**: the file is consistent: every line whole, in its canonical
//!   form, hashing to the `prev` of the next. Nothing more: anyone who can write the file can
//!   rewrite a line and recompute every hash after it, or cut lines from its end.
//! - **With the key** (`serve --audit-key-env VAR` when the log is created, `audit verify
//!   --key-env VAR`): every line's MAC is valid under the key, so no line was altered, inserted,
//!   removed or reordered (before the last one) by anyone without the key. Lines cut from the end
//!   still leave a valid log.
//! - **With a head** (`--head SEQ:HASH`, `--head-file PATH`): a line the log must still hold,
//!   anchored outside the file. The server anchors its head on every 64th line and when its
//!   writer stops (its log at `info`, `audit head`), on every call's OpenTelemetry span
//!   (`toolwright.audit.hash`), and, with `--audit-head-file PATH`, appends `{"seq", "hash",
//!   "time"}` to that second file after every line. A log cut before the anchored line, or
//!   rewritten up to it, does not verify.
//!
//! A log is keyed or not from its first line: a server refuses to continue a keyed log without
//! its key, or an unkeyed log with a key.
//!
//! # Durability and order
//!
//! One writer thread appends the lines in the order calls end and `fsync`s (`fdatasync`) each
//! (and the head file's line) before the call's answer is sent; the async runtime's threads never
//! wait on the disk. The file is opened append-only and locked against a second writer; lines
//! are never rewritten.
//!
//! On opening an existing file the chain is verified first (with the key, when the log is keyed)
//! and continued from its last line; a file that does not verify is refused (keep it as
//! evidence, and start a new one). A crash in the middle of a write leaves a *torn* last line,
//! without its newline: verifying reports it (exit 1 naming it, after the lines before it
//! verified), and the next writer completes it with its newline when it is a whole line that
//! continues the chain, or else cuts it off (it was never a receipt: its call's answer was never
//! sent) and logs a warning saying how many bytes.
//!
//! # When a line cannot be written
//!
//! The call has already happened, so its answer is sent, with one more text block saying that it
//! has no audit record, and the writer fails closed: from then on every call of a tool that is not
//! `read_only` is refused before it runs, saying why, and an error is logged, until the server
//! is restarted with a log that can be written. Read-only tools keep working.

mod key;
mod line;
#[cfg(test)]
mod tests;
mod verify;

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock, mpsc};
use std::time::{Duration, Instant, SystemTime};

use serde_json::Value;

pub use key::{AuditKey, AuditKeyError, MIN_KEY_BYTES};
pub(crate) use line::rfc3339;
pub(crate) use line::{Approval, Confirmation, Via};
pub use verify::{Head, Verified, VerifyError, VerifyOptions, verify, verify_with};

use line::{Record, render};
use verify::{Stop, scan};

/// The `prev` of the first line.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The server logs its log's head (at `info`) every this many lines.
pub const HEAD_EVERY: u64 = 64;

/// An audit log open for appending: give it to
/// [`ToolboxBuilder::with_audit_log`](crate::ToolboxBuilder::with_audit_log).
pub struct AuditLog {
    path: PathBuf,
    jobs: mpsc::Sender<Job>,
    /// The last line written: its number and hash (the writer updates it).
    head: Arc<std::sync::Mutex<(u64, String)>>,
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

/// How to open an audit log ([`AuditLog::options`]): its key, and a second file its head is
/// anchored in.
#[derive(Debug, Clone)]
#[must_use]
pub struct AuditLogOptions {
    path: PathBuf,
    key: Option<AuditKey>,
    head_file: Option<PathBuf>,
}

impl AuditLogOptions {
    /// Authenticates every line with `key` (HMAC-SHA-256): a log is keyed from its first line,
    /// and a keyed log is continued only with its key.
    pub fn key(mut self, key: AuditKey) -> Self {
        self.key = Some(key);
        self
    }

    /// Appends the log's head (`{"seq": N, "hash": "..", "time": ".."}`) to `path` after every
    /// line, fsynced with it: put it where whoever can write the log cannot (another volume, an
    /// append-only file, a host that collects it). `audit verify --head-file PATH` checks the log
    /// still holds it.
    pub fn head_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.head_file = Some(path.into());
        self
    }

    /// Opens (or creates) the log for appending: an existing file is verified first and its
    /// chain continued (a torn last line is completed or cut off, see the module docs); one that
    /// does not verify, whose lines are keyed differently, or that another process is writing,
    /// is refused.
    pub fn open(self) -> Result<AuditLog, OpenError> {
        AuditLog::open_with(self)
    }
}

impl AuditLog {
    /// Opens (or creates) the unkeyed log at `path` for appending ([`AuditLogOptions::open`]).
    pub fn open(path: impl AsRef<Path>) -> Result<AuditLog, OpenError> {
        AuditLog::options(path).open()
    }

    /// How to open the log at `path`: with a key, with a head file.
    pub fn options(path: impl AsRef<Path>) -> AuditLogOptions {
        AuditLogOptions {
            path: path.as_ref().to_owned(),
            key: None,
            head_file: None,
        }
    }

    fn open_with(options: AuditLogOptions) -> Result<AuditLog, OpenError> {
        let path = options.path;
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
        let key = options.key;
        let (chain, stop) = scan(&bytes, key.as_ref(), false);
        let mut lines = chain.lines;
        let mut prev = chain.hash;
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
                lines = line;
                prev = hash;
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
        match (chain.keyed, &key) {
            (Some(true), None) => {
                return Err(OpenError {
                    message: format!(
                        "audit log {shown} is keyed (its lines carry HMACs): serve with its key \
                         (`--audit-key-env VAR`), or with a new log file"
                    ),
                });
            }
            (Some(false), Some(_)) => {
                return Err(OpenError {
                    message: format!(
                        "audit log {shown} is not keyed (its lines carry plain SHA-256 hashes), \
                         and a key was given: a log is keyed from its first line. Serve with a \
                         new log file, or without the key"
                    ),
                });
            }
            _ => {}
        }
        let head_file = match &options.head_file {
            None => None,
            Some(head) => Some(
                OpenOptions::new()
                    .append(true)
                    .create(true)
                    .open(head)
                    .map_err(|e| OpenError {
                        message: format!("audit head file {}: cannot open it: {e}", head.display()),
                    })?,
            ),
        };
        let failed = Arc::new(OnceLock::new());
        let head = Arc::new(std::sync::Mutex::new((lines, prev.clone())));
        let (jobs, queue) = mpsc::channel();
        let writer = Writer {
            file,
            path: path.clone(),
            lines,
            prev,
            key,
            head_file,
            head: Arc::clone(&head),
            failed: Arc::clone(&failed),
        };
        std::thread::Builder::new()
            .name("toolwright-audit".to_owned())
            .spawn(move || writer.run(queue))
            .map_err(|e| io("start its writer thread", e))?;
        Ok(AuditLog {
            path,
            jobs,
            head,
            failed,
        })
    }

    /// The last line written: its number and its hash (`(0, GENESIS)` for an empty log). Give it
    /// to `audit verify --head SEQ:HASH` to find lines cut from the log's end.
    pub fn head(&self) -> (u64, String) {
        self.head.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Logs the head at `info`, saying `why` (the server stopped, or was told to): an anchor
    /// outside the file. `serve` on the command line does it when the server stops; a server
    /// you run yourself calls it when it stops (every 64th line logs it too).
    pub fn log_head(&self, why: &str) {
        let (seq, hash) = self.head();
        if seq > 0 {
            tracing::info!(
                path = %self.path.display(),
                seq,
                head = %hash,
                "audit head ({why}): `audit verify --head {seq}:{hash}` finds lines cut from the log's end"
            );
        }
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

/// The writer thread: the only one that touches the file.
struct Writer {
    file: File,
    path: PathBuf,
    lines: u64,
    prev: String,
    key: Option<AuditKey>,
    /// Where the head is anchored after every line (`--audit-head-file`).
    head_file: Option<File>,
    /// The head the log shows ([`AuditLog::head`]).
    head: Arc<std::sync::Mutex<(u64, String)>>,
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
        let (line, hash) = render(self.lines + 1, &self.prev, record, self.key.as_ref());
        let written = self
            .file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|e| format!("cannot write to {}: {e}", self.path.display()))
            .and_then(|()| self.anchor(self.lines + 1, &hash));
        match written {
            Ok(()) => {
                self.lines += 1;
                self.prev.clone_from(&hash);
                *self.head.lock().unwrap_or_else(|p| p.into_inner()) = (self.lines, hash.clone());
                if self.lines.is_multiple_of(HEAD_EVERY) {
                    tracing::info!(
                        path = %self.path.display(),
                        seq = self.lines,
                        head = %hash,
                        "audit head"
                    );
                }
                Ok(hash)
            }
            Err(why) => {
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

    /// Appends the head `(seq, hash)` to the head file, if there is one, and fsyncs it.
    fn anchor(&mut self, seq: u64, hash: &str) -> Result<(), String> {
        let Some(head) = &mut self.head_file else {
            return Ok(());
        };
        let line = format!(
            "{}\n",
            serde_json::json!({"seq": seq, "hash": hash, "time": rfc3339(SystemTime::now())})
        );
        head.write_all(line.as_bytes())
            .and_then(|()| head.sync_data())
            .map_err(|e| format!("cannot write the audit head file: {e}"))
    }
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
                defaults: None,
                validated: false,
                principal,
                // Until the user answers (refused before being asked: `not asked`).
                confirmation: if asks {
                    Confirmation::NotAsked
                } else {
                    Confirmation::NotRequired
                },
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

    /// The arguments exactly as `sent`, and what validation filled in (`validated`: the
    /// arguments once validated, `None` when they did not pass).
    pub(crate) fn arguments(&mut self, sent: Value, validated: Option<&Value>) {
        if let Some(record) = &mut self.record {
            record.defaults = validated.and_then(|v| line::defaults(&sent, v));
            record.validated = validated.is_some();
            record.arguments = sent;
        }
    }

    /// The user's answer to the confirmation; an approval carries how it was obtained.
    pub(crate) fn confirmation(&mut self, confirmation: Confirmation) {
        if let Some(record) = &mut self.record {
            record.confirmation = confirmation;
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
