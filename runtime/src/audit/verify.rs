//! Checking a log: every line whole, in its canonical form, hashed (or MACed) as it says, and
//! chained to the one before it; with a key, every line authenticated by it; with a head
//! anchored outside the file, that head in the log.

use std::fmt;
use std::path::Path;

use serde_json::{Map, Value};

use super::key::AuditKey;
use super::line::hex_sha256;

/// What every line ends with, before the hash's 64 hex digits and `"}`.
const HASH_MEMBER: &[u8] = b",\"hash\":\"";

/// The length of the end of a line that holds its hash: `,"hash":"` 64 digits `"}`.
const HASH_END: usize = HASH_MEMBER.len() + 64 + 2;

/// What [`verify_with`] is given besides the log.
#[derive(Debug, Clone, Default)]
pub struct VerifyOptions {
    /// The log's key: every line must carry a valid HMAC-SHA-256 with it.
    pub key: Option<AuditKey>,
    /// A head anchored outside the file (the server's log at `info`, its OpenTelemetry spans,
    /// `--audit-head-file`): the hash of a line the log must still hold, and its number when
    /// known.
    pub head: Option<Head>,
}

/// A line the log must hold, as anchored outside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// Its hash, 64 lowercase hex digits.
    pub hash: String,
    /// Its number, when the anchor says (`--audit-head-file` does).
    pub seq: Option<u64>,
}

impl Head {
    /// A head given as `HASH` or `SEQ:HASH`.
    pub fn parse(text: &str) -> Result<Head, String> {
        let text = text.trim();
        let (seq, hash) = match text.split_once(':') {
            Some((seq, hash)) => (
                Some(
                    seq.parse::<u64>()
                        .map_err(|_| format!("`{seq}` is not a line number"))?,
                ),
                hash,
            ),
            None => (None, text),
        };
        if hash.len() != 64 || !hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return Err(format!(
                "a head is a line's hash, 64 lowercase hex digits (or `SEQ:HASH`); got {}",
                crate::echo::echo(hash)
            ));
        }
        Ok(Head {
            hash: hash.to_owned(),
            seq,
        })
    }

    /// The last head written to a head file (`--audit-head-file`: one JSON object a line,
    /// `{"seq": N, "hash": ".."}`).
    pub fn from_file(path: &Path) -> Result<Head, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the head file {}: {e}", path.display()))?;
        let last = text
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .ok_or_else(|| format!("the head file {} holds no head", path.display()))?;
        let value: Map<String, Value> = serde_json::from_str(last).map_err(|e| {
            format!(
                "the last line of the head file {} is not a head ({e})",
                path.display()
            )
        })?;
        let seq = value.get("seq").and_then(Value::as_u64);
        let hash = value.get("hash").and_then(Value::as_str).unwrap_or("");
        let mut head = Head::parse(hash)?;
        head.seq = seq;
        Ok(head)
    }
}

/// A log that verified, and what that proves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// How many lines it holds.
    pub lines: u64,
    /// The last line's hash ([`GENESIS`](super::GENESIS) for an empty log).
    pub last_hash: String,
    /// Whether a key was given and every line carries a valid MAC with it.
    pub keyed: bool,
    /// Lines whose MAC could not be checked: keyed lines, verified without the key.
    pub unchecked_macs: u64,
    /// The line the anchored head names (`None`: no head was given).
    pub head_line: Option<u64>,
    /// Lines of format 1 (written before approvals carried their question) that say
    /// `accepted`: they do not show what the user was shown.
    pub unproven_approvals: u64,
}

impl Verified {
    /// What this verification proves and what it does not, in words (`audit verify` prints it).
    pub fn proves(&self) -> String {
        let mut s = format!(
            "{} line{}, each chained to the one before it",
            self.lines,
            if self.lines == 1 { "" } else { "s" }
        );
        if self.keyed {
            s.push_str(
                ", each with a valid HMAC-SHA-256 under the key given: no line was altered, \
                 inserted, removed or reordered (before the last) by anyone without the key",
            );
        } else if self.unchecked_macs > 0 {
            s.push_str(&format!(
                ". Not proven: {} line{} carry an HMAC that was not checked (no key was given: \
                 `--key-env VAR`), so anyone who can write the file could have rewritten them",
                self.unchecked_macs,
                if self.unchecked_macs == 1 { "" } else { "s" }
            ));
        } else {
            s.push_str(
                ". Not proven: the log has no key, so anyone who can write the file can rewrite \
                 it and recompute every hash (serve with `--audit-key-env VAR` to prevent that)",
            );
        }
        match self.head_line {
            Some(line) if line == self.lines => {
                s.push_str("; the anchored head is its last line: nothing was cut from its end")
            }
            Some(line) => s.push_str(&format!(
                "; the anchored head is line {line}: nothing up to it was cut, and the {} \
                 line{} after it are newer than the anchor",
                self.lines - line,
                if self.lines - line == 1 { "" } else { "s" }
            )),
            None => s.push_str(
                ". Not proven: that no lines were cut from its end (give the last head the \
                 server anchored: `--head HASH` or `--head-file PATH`)",
            ),
        }
        if self.unproven_approvals > 0 {
            s.push_str(&format!(
                ". {} line{} of format 1 say `accepted` without the question the user was shown",
                self.unproven_approvals,
                if self.unproven_approvals == 1 {
                    ""
                } else {
                    "s"
                }
            ));
        }
        s.push('.');
        s
    }
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
    /// The anchored head is not in the log: lines were cut from its end, or it was rewritten.
    Head {
        /// The head.
        head: Head,
        /// How many lines the log holds.
        lines: u64,
    },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Read(e) => write!(f, "cannot read it: {e}"),
            VerifyError::Line { line, why, .. } => write!(f, "line {line} {why}"),
            VerifyError::Head { head, lines } => {
                write!(
                    f,
                    "the anchored head {}{} is not in the log ({lines} lines): lines were cut \
                     from its end, or it was rewritten",
                    head.hash,
                    head.seq.map(|s| format!(" (line {s})")).unwrap_or_default()
                )
            }
        }
    }
}

impl std::error::Error for VerifyError {}

/// Verifies the log at `path` with no key and no head: every line complete, in the canonical
/// form with its hash, and chained to the one before it (see [`Verified::proves`] for what
/// that leaves unproven).
pub fn verify(path: impl AsRef<Path>) -> Result<Verified, VerifyError> {
    verify_with(path, &VerifyOptions::default())
}

/// Verifies the log at `path` as [`verify`] does, and with `options`: every line authenticated
/// by the key, and the anchored head in the log.
pub fn verify_with(
    path: impl AsRef<Path>,
    options: &VerifyOptions,
) -> Result<Verified, VerifyError> {
    let bytes = std::fs::read(path).map_err(VerifyError::Read)?;
    verify_bytes(&bytes, options)
}

pub(super) fn verify_bytes(bytes: &[u8], options: &VerifyOptions) -> Result<Verified, VerifyError> {
    let (chain, stop) = scan(bytes, options.key.as_ref(), options.key.is_some());
    match stop {
        None => {}
        Some(Stop::Bad { line, why }) => {
            return Err(VerifyError::Line {
                line,
                why,
                torn: false,
            });
        }
        Some(Stop::Torn { line, whole, .. }) => {
            return Err(VerifyError::Line {
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
            });
        }
    }
    let head_line = match &options.head {
        None => None,
        Some(head) => {
            let found = chain
                .hashes
                .iter()
                .position(|h| *h == head.hash)
                .map(|i| i as u64 + 1);
            match (found, head.seq) {
                (Some(line), Some(seq)) if line == seq => Some(line),
                (Some(line), None) => Some(line),
                _ => {
                    return Err(VerifyError::Head {
                        head: head.clone(),
                        lines: chain.lines,
                    });
                }
            }
        }
    };
    Ok(Verified {
        lines: chain.lines,
        last_hash: chain.hash,
        keyed: options.key.is_some(),
        unchecked_macs: chain.unchecked_macs,
        head_line,
        unproven_approvals: chain.unproven_approvals,
    })
}

/// The verified part of a log.
pub(super) struct Chain {
    pub(super) lines: u64,
    pub(super) hash: String,
    /// Where the verified lines end (a byte offset).
    pub(super) end: usize,
    /// Whether its lines are keyed (`None`: it has none).
    pub(super) keyed: Option<bool>,
    unchecked_macs: u64,
    unproven_approvals: u64,
    /// Every line's hash, in order (for a head).
    hashes: Vec<String>,
}

/// Where verification stopped.
pub(super) enum Stop {
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

/// Scans `bytes` line by line; with `key`, keyed lines are authenticated; with `require_key`,
/// every line must be keyed.
pub(super) fn scan(
    bytes: &[u8],
    key: Option<&AuditKey>,
    require_key: bool,
) -> (Chain, Option<Stop>) {
    let mut chain = Chain {
        lines: 0,
        hash: super::GENESIS.to_owned(),
        end: 0,
        keyed: None,
        unchecked_macs: 0,
        unproven_approvals: 0,
        hashes: Vec::new(),
    };
    while chain.end < bytes.len() {
        let rest = &bytes[chain.end..];
        let number = chain.lines + 1;
        let Some(newline) = rest.iter().position(|&b| b == b'\n') else {
            let whole = check_line(number, &chain.hash, rest, key, require_key)
                .ok()
                .map(|l| l.hash);
            return (
                chain,
                Some(Stop::Torn {
                    line: number,
                    start: bytes.len() - rest.len(),
                    whole,
                }),
            );
        };
        match check_line(number, &chain.hash, &rest[..newline], key, require_key) {
            Ok(line) => {
                if let Some(keyed) = chain.keyed
                    && keyed != line.keyed
                {
                    return (
                        chain,
                        Some(Stop::Bad {
                            line: number,
                            why: "changes how lines are chained (keyed lines and unkeyed lines \
                                  in one log): a key is given to a log when it is created"
                                .to_owned(),
                        }),
                    );
                }
                chain.keyed = Some(line.keyed);
                chain.unchecked_macs += u64::from(line.keyed && key.is_none());
                chain.unproven_approvals += u64::from(line.unproven_approval);
                chain.lines = number;
                chain.hashes.push(line.hash.clone());
                chain.hash = line.hash;
                chain.end += newline + 1;
            }
            Err(why) => return (chain, Some(Stop::Bad { line: number, why })),
        }
    }
    (chain, None)
}

/// A line that checked.
struct Line {
    hash: String,
    /// Its hash is an HMAC (`"chain": "hmac-sha256"`).
    keyed: bool,
    /// A line of format 1 that says `accepted`.
    unproven_approval: bool,
}

/// Checks line `seq` (without its newline) against the previous line's hash.
fn check_line(
    seq: u64,
    prev: &str,
    line: &[u8],
    key: Option<&AuditKey>,
    require_key: bool,
) -> Result<Line, String> {
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
    let version = record.get("v").and_then(Value::as_u64);
    let keyed = match (version, record.get("chain").and_then(Value::as_str)) {
        (Some(1), None) => false,
        (Some(2), Some("sha256")) => false,
        (Some(2), Some("hmac-sha256")) => true,
        (Some(1 | 2), other) => {
            return Err(format!(
                "says its hash is made by {}, which is not how audit lines are chained",
                other.map_or_else(|| "nothing".to_owned(), |o| format!("`{o}`"))
            ));
        }
        _ => return Err("is not an audit line of format 1 or 2 (`v`)".to_owned()),
    };
    if keyed {
        if let Some(key) = key
            && key.mac(&canonical) != stated
        {
            return Err(
                "does not match its HMAC under the key given: it was altered, or the key is not \
                 the log's"
                    .to_owned(),
            );
        }
    } else {
        if require_key {
            return Err(
                "is not keyed (its hash is a plain SHA-256): anyone who can write the file could \
                 have written it"
                    .to_owned(),
            );
        }
        if hex_sha256(&canonical) != stated {
            return Err("does not match its hash: it was altered".to_owned());
        }
    }
    // The line is as it was written; now its place in the chain.
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
    let accepted = record.get("confirmation").and_then(Value::as_str) == Some("accepted");
    if version == Some(2) {
        match (accepted, record.get("approval")) {
            (true, Some(approval)) if approval_is_whole(approval) => {}
            (true, _) => {
                return Err(
                    "says the user approved the call, but not what they were shown and which \
                     answer approved it (`approval`: the question's SHA-256, how it was asked, \
                     its id)"
                        .to_owned(),
                );
            }
            (false, Some(_)) => {
                return Err("carries an `approval` but does not say `accepted`".to_owned());
            }
            (false, None) => {}
        }
    }
    Ok(Line {
        hash: stated.to_owned(),
        keyed,
        unproven_approval: accepted && version == Some(1),
    })
}

/// `{"question": 64 hex digits, "via": "elicitation" | "round" | "task", "id": not empty}`.
fn approval_is_whole(approval: &Value) -> bool {
    let question = approval.get("question").and_then(Value::as_str);
    let via = approval.get("via").and_then(Value::as_str);
    let id = approval.get("id").and_then(Value::as_str);
    question.is_some_and(|q| q.len() == 64 && q.bytes().all(|b| b.is_ascii_hexdigit()))
        && matches!(via, Some("elicitation" | "round" | "task"))
        && id.is_some_and(|i| !i.is_empty())
}
