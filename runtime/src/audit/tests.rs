use super::line::{Record, bounded, hex_sha256, outcome_of};
use super::verify::verify_bytes;
use super::*;
use serde_json::{Map, json};

fn record(tool: &str, detail: &'static str) -> Record {
    Record {
        time: SystemTime::UNIX_EPOCH + Duration::from_millis(1_764_608_709_123),
        tool: Arc::from(tool),
        arguments: json!({"x": 1.5e-7, "label": "a\nb\u{2028}"}),
        defaults: Some([("/speed".to_owned(), json!(0.5))].into_iter().collect()),
        validated: true,
        principal: Some(Arc::from("https://auth.example#sub:alice")),
        confirmation: Confirmation::Accepted(Approval::of(
            "Move the arm to (1 mm, 2 mm, 3 mm)?",
            Via::Elicitation,
            "7".to_owned(),
        )),
        detail,
        stopped_by: None,
        text: "done".to_owned(),
        duration: Duration::from_millis(12),
        trace_id: "0af7651916cd43dd8448eb211c80319c".to_owned(),
    }
}

/// A log of `n` lines, keyed with `key`.
fn log_with(n: u64, key: Option<&AuditKey>) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut prev = GENESIS.to_owned();
    for seq in 1..=n {
        let (line, hash) = render(seq, &prev, &record("move", "ok"), key);
        bytes.extend_from_slice(line.as_bytes());
        prev = hash;
    }
    bytes
}

fn log(n: u64) -> Vec<u8> {
    log_with(n, None)
}

fn key() -> AuditKey {
    AuditKey::new(vec![42u8; 32]).unwrap()
}

fn plain() -> VerifyOptions {
    VerifyOptions::default()
}

fn bad_line(bytes: &[u8]) -> (u64, String, bool) {
    bad_line_with(bytes, &plain())
}

fn bad_line_with(bytes: &[u8], options: &VerifyOptions) -> (u64, String, bool) {
    match verify_bytes(bytes, options) {
        Err(VerifyError::Line { line, why, torn }) => (line, why, torn),
        other => panic!("expected a bad line, got {other:?}"),
    }
}

/// `bytes` with every line rewritten by `edit` and every hash recomputed (SHA-256), as someone
/// who can write the file but has no key would.
fn rewritten(bytes: &[u8], edit: impl Fn(u64, &mut Map<String, Value>)) -> Vec<u8> {
    let mut out = Vec::new();
    let mut prev = GENESIS.to_owned();
    for (i, line) in std::str::from_utf8(bytes).unwrap().lines().enumerate() {
        let mut map: Map<String, Value> = serde_json::from_str(line).unwrap();
        map.shift_remove("hash");
        map["prev"] = Value::from(prev.as_str());
        map.insert("chain".into(), Value::from("sha256"));
        edit(i as u64 + 1, &mut map);
        let canonical = Value::Object(map).to_string();
        let hash = hex_sha256(canonical.as_bytes());
        out.extend_from_slice(&canonical.as_bytes()[..canonical.len() - 1]);
        out.extend_from_slice(format!(",\"hash\":\"{hash}\"}}\n").as_bytes());
        prev = hash;
    }
    out
}

#[test]
fn a_line_holds_its_members_in_order_and_hashes_its_canonical_form() {
    let (line, hash) = render(1, GENESIS, &record("move_arm_to_pose", "timeout"), None);
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
            "defaults",
            "validated",
            "principal",
            "confirmation",
            "approval",
            "outcome",
            "detail",
            "text",
            "duration_ms",
            "trace_id",
            "prev",
            "chain",
            "hash"
        ]
    );
    assert_eq!(value["v"], 2);
    assert_eq!(value["time"], "2025-12-01T17:05:09.123Z");
    assert_eq!(value["outcome"], "deadline passed");
    assert_eq!(value["prev"], GENESIS);
    assert_eq!(value["chain"], "sha256");
    assert_eq!(value["defaults"], json!({"/speed": 0.5}));
    assert_eq!(
        value["approval"],
        json!({
            "question": hex_sha256(b"Move the arm to (1 mm, 2 mm, 3 mm)?"),
            "via": "elicitation",
            "id": "7"
        })
    );
    // The canonical form: the line without its hash member.
    let mut without = value.clone();
    without.shift_remove("hash");
    assert_eq!(
        hash,
        hex_sha256(Value::Object(without.clone()).to_string().as_bytes())
    );
    // Keyed: the hash is the HMAC of the same form, chain `hmac-sha256`.
    let (keyed, mac) = render(
        1,
        GENESIS,
        &record("move_arm_to_pose", "timeout"),
        Some(&key()),
    );
    let value: Map<String, Value> = serde_json::from_str(&keyed).unwrap();
    assert_eq!(value["chain"], "hmac-sha256");
    let mut without = value.clone();
    without.shift_remove("hash");
    assert_eq!(
        mac,
        key().mac(Value::Object(without).to_string().as_bytes())
    );
}

#[test]
fn defaults_are_what_validation_added_by_pointer() {
    let sent = json!({"x": 1, "target": {"x": 2}, "a/b": {}});
    let validated = json!({"x": 1, "speed": 0.5, "target": {"x": 2, "w": 1}, "a/b": {"c~": 3}});
    let defaults = line::defaults(&sent, &validated).unwrap();
    assert_eq!(
        Value::Object(defaults),
        json!({"/speed": 0.5, "/target/w": 1, "/a~1b/c~0": 3})
    );
    assert_eq!(line::defaults(&sent, &sent), None);
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
    let (line, _) = render(1, GENESIS, &stopped, None);
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
    let long = "é".repeat(line::MAX_TEXT + 10);
    let cut = bounded(&long);
    assert!(cut.starts_with(&"é".repeat(line::MAX_TEXT)));
    assert!(cut.ends_with("… (2010 characters in all)"), "{cut}");
    assert_eq!(bounded("short"), "short");
}

#[test]
fn an_intact_chain_verifies_and_says_what_it_does_not_prove() {
    let empty = verify_bytes(b"", &plain()).unwrap();
    assert_eq!((empty.lines, empty.last_hash.as_str()), (0, GENESIS));
    let verified = verify_bytes(&log(3), &plain()).unwrap();
    assert_eq!(verified.lines, 3);
    let proves = verified.proves();
    assert!(
        proves.starts_with(
            "3 lines, each chained to the one before it. Not proven: the log has no key"
        ),
        "{proves}"
    );
    assert!(
        proves.contains("that no lines were cut from its end"),
        "{proves}"
    );
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
    let (forged, _) = render(2, GENESIS, &record("move", "ok"), None);
    let (line, why, _) = bad_line(&[lines[0], forged.as_bytes()].concat());
    assert_eq!(line, 2);
    assert!(why.contains("does not follow line 1"), "{why}");
}

/// Issue 43: someone who can write the file rewrites line 1's arguments and recomputes every
/// hash. Without a key or a head that is a consistent log (and `verify` says it proves no
/// more); with the key or the head, it is found.
#[test]
fn a_rewritten_log_is_found_with_the_key_or_the_head() {
    let key = key();
    let original = log_with(5, Some(&key));
    let head = Head {
        hash: verify_bytes(
            &original,
            &VerifyOptions {
                key: Some(key.clone()),
                head: None,
            },
        )
        .unwrap()
        .last_hash,
        seq: Some(5),
    };
    let forged = rewritten(&original, |seq, line| {
        if seq == 1 {
            line["arguments"] = json!({"x": 850, "y": 0, "z": 20});
        }
    });
    // Consistent, and said to prove only that.
    let verified = verify_bytes(&forged, &plain()).unwrap();
    assert_eq!(verified.lines, 5);
    assert!(verified.proves().contains("Not proven: the log has no key"));
    // With the key: line 1 is not keyed.
    let with_key = VerifyOptions {
        key: Some(key.clone()),
        head: None,
    };
    let (line, why, _) = bad_line_with(&forged, &with_key);
    assert_eq!(line, 1);
    assert!(why.contains("is not keyed"), "{why}");
    // Rewritten keeping `hmac-sha256` but with a hash the forger can compute: the MAC fails.
    let mut kept = forged.clone();
    let text = String::from_utf8(kept.clone()).unwrap();
    let first = text
        .lines()
        .next()
        .unwrap()
        .replace("\"chain\":\"sha256\"", "\"chain\":\"hmac-sha256\"");
    kept = [
        first.as_bytes(),
        b"\n",
        &kept[text.lines().next().unwrap().len() + 1..],
    ]
    .concat();
    let (line, why, _) = bad_line_with(&kept, &with_key);
    assert_eq!(line, 1);
    assert!(why.contains("does not match its HMAC"), "{why}");
    // With the head alone: the rewritten log no longer holds it.
    let with_head = VerifyOptions {
        key: None,
        head: Some(head.clone()),
    };
    match verify_bytes(&forged, &with_head) {
        Err(VerifyError::Head { lines: 5, .. }) => {}
        other => panic!("expected the head to be missing, got {other:?}"),
    }
    // The original verifies with both, and says what that proves.
    let both = VerifyOptions {
        key: Some(key),
        head: Some(head),
    };
    let verified = verify_bytes(&original, &both).unwrap();
    assert!(verified.keyed);
    assert_eq!(verified.head_line, Some(5));
    let proves = verified.proves();
    assert!(
        proves.contains("each with a valid HMAC-SHA-256 under the key given"),
        "{proves}"
    );
    assert!(
        proves.contains("the anchored head is its last line"),
        "{proves}"
    );
    // Without the key, a keyed log's MACs are counted as unchecked.
    let unchecked = verify_bytes(&original, &plain()).unwrap();
    assert_eq!(unchecked.unchecked_macs, 5);
    assert!(
        unchecked
            .proves()
            .contains("5 lines carry an HMAC that was not checked")
    );
}

/// Issue 43: deleting the last line leaves a consistent log; the head finds it.
#[test]
fn a_truncated_log_is_found_with_the_head() {
    let bytes = log(4);
    let full = verify_bytes(&bytes, &plain()).unwrap();
    let lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
    let cut = lines[..3].concat();
    assert_eq!(verify_bytes(&cut, &plain()).unwrap().lines, 3);
    let head = VerifyOptions {
        key: None,
        head: Some(Head::parse(&format!("4:{}", full.last_hash)).unwrap()),
    };
    let error = verify_bytes(&cut, &head).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("is not in the log (3 lines): lines were cut from its end"),
        "{error}"
    );
    assert_eq!(verify_bytes(&bytes, &head).unwrap().head_line, Some(4));
    // An older head: the lines after it are newer than the anchor.
    let older = VerifyOptions {
        key: None,
        head: Some(
            Head::parse(
                std::str::from_utf8(&lines[1][lines[1].len() - 67..lines[1].len() - 3]).unwrap(),
            )
            .unwrap(),
        ),
    };
    let verified = verify_bytes(&bytes, &older).unwrap();
    assert_eq!(verified.head_line, Some(2));
    assert!(
        verified
            .proves()
            .contains("the 2 lines after it are newer than the anchor")
    );
    assert!(
        Head::parse("abc")
            .unwrap_err()
            .contains("64 lowercase hex digits")
    );
}

/// Issue 42: a line that claims an approval carries the question and the answer's id.
#[test]
fn an_approval_without_its_question_does_not_verify() {
    let claimed = rewritten(&log(2), |seq, line| {
        if seq == 2 {
            line.shift_remove("approval");
        }
    });
    let (line, why, _) = bad_line(&claimed);
    assert_eq!(line, 2);
    assert!(
        why.contains("says the user approved the call, but not what they were shown"),
        "{why}"
    );
    let half = rewritten(&log(1), |_, line| {
        line["approval"]["question"] = json!("not a digest");
    });
    assert!(bad_line(&half).1.contains("says the user approved"));
    let stray = rewritten(&log(1), |_, line| {
        line["confirmation"] = json!("declined");
    });
    assert!(
        bad_line(&stray)
            .1
            .contains("carries an `approval` but does not say `accepted`")
    );
}

/// Lines of format 1 (before `approval`, `defaults` and `chain`) still verify, and a claimed
/// approval among them is counted as unproven.
#[test]
fn format_1_lines_still_verify() {
    let v1 = rewritten(&log(2), |_, line| {
        line["v"] = json!(1);
        line.shift_remove("chain");
        line.shift_remove("approval");
        line.shift_remove("defaults");
    });
    let verified = verify_bytes(&v1, &plain()).unwrap();
    assert_eq!(verified.lines, 2);
    assert_eq!(verified.unproven_approvals, 2);
    assert!(
        verified
            .proves()
            .contains("2 lines of format 1 say `accepted` without the question")
    );
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
    let dir = std::env::temp_dir().join(format!("toolwright-audit-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("audit.jsonl")
}

async fn write(log: &Arc<AuditLog>, tool: &str) -> Result<(), String> {
    let mut receipt = Receipt::new(log, &Arc::from(tool), "trace", None, false);
    let sent = json!({"x": 1});
    receipt.arguments(sent.clone(), Some(&json!({"x": 1, "speed": 0.5})));
    receipt.finish("ok", "done".to_owned()).await
}

/// Opens the log at `path` again once the previous writer closed it.
fn reopen(options: impl Fn() -> AuditLogOptions) -> Arc<AuditLog> {
    for _ in 0..100 {
        match options().open() {
            Ok(opened) => return Arc::new(opened),
            Err(_) => std::thread::sleep(Duration::from_millis(10)),
        }
    }
    Arc::new(
        options()
            .open()
            .expect("reopened once the first writer closed it"),
    )
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
    let log = reopen(|| AuditLog::options(&path));
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
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["arguments"], json!({"x": 1}), "as sent");
    assert_eq!(first["defaults"], json!({"/speed": 0.5}));
    let last = text.lines().last().unwrap();
    assert!(last.contains("\"detail\":\"dropped\""), "{last}");
    assert!(last.contains("\"confirmation\":\"not asked\""), "{last}");
}

#[tokio::test]
async fn a_keyed_log_is_continued_only_with_its_key_and_anchors_its_head() {
    let path = temp("keyed");
    let heads = path.with_file_name("heads.jsonl");
    let log = Arc::new(
        AuditLog::options(&path)
            .key(key())
            .head_file(&heads)
            .open()
            .unwrap(),
    );
    write(&log, "a").await.unwrap();
    write(&log, "b").await.unwrap();
    drop(log);
    let head = Head::from_file(&heads).unwrap();
    assert_eq!(head.seq, Some(2));
    let options = VerifyOptions {
        key: Some(key()),
        head: Some(head),
    };
    let verified = verify_with(&path, &options).unwrap();
    assert!(verified.keyed && verified.head_line == Some(2));
    // Without its key, or with another, it is not continued.
    let without = open_error(|| AuditLog::options(&path));
    assert!(
        without.contains("is keyed (its lines carry HMACs)"),
        "{without}"
    );
    let other = AuditKey::new(vec![1u8; 32]).unwrap();
    let wrong = open_error(|| AuditLog::options(&path).key(other.clone()));
    assert!(
        wrong.contains("does not match its HMAC under the key given"),
        "{wrong}"
    );
    let log = reopen(|| AuditLog::options(&path).key(key()).head_file(&heads));
    write(&log, "c").await.unwrap();
    drop(log);
    assert_eq!(Head::from_file(&heads).unwrap().seq, Some(3));
    // An unkeyed log is not continued with a key.
    let plain = temp("plain");
    let log = Arc::new(AuditLog::open(&plain).unwrap());
    write(&log, "a").await.unwrap();
    drop(log);
    let error = open_error(|| AuditLog::options(&plain).key(key()));
    assert!(error.contains("is not keyed"), "{error}");
}

/// Why `options` does not open, once the previous writer has let go of the file.
fn open_error(options: impl Fn() -> AuditLogOptions) -> String {
    for _ in 0..200 {
        match options().open() {
            Ok(_) => panic!("opened"),
            Err(e) if e.to_string().contains("another process") => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => return e.to_string(),
        }
    }
    panic!("the file stayed locked")
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
        key: None,
        head_file: None,
        head: Arc::default(),
        failed: Arc::clone(&failed),
    };
    std::thread::spawn(move || writer.run(queue));
    let log = Arc::new(AuditLog {
        path: path.clone(),
        jobs,
        head: Arc::default(),
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
