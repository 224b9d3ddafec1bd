//! What the model reads: the phrasing of each problem, bounded in size.

use std::fmt::Write as _;

use serde_json::Value;

use super::numbers::fmt_number;
use super::tree::{
    QUOTE_MAX_CHARS, T_ARRAY, T_BOOLEAN, T_INTEGER, T_NULL, T_NUMBER, T_OBJECT, T_STRING,
};

pub(super) fn type_words(types: u8) -> String {
    let mut parts: Vec<&str> = Vec::new();
    if types & T_NUMBER != 0 {
        parts.push("a number");
    } else if types & T_INTEGER != 0 {
        parts.push("an integer");
    }
    for (bit, word) in [
        (T_STRING, "a string"),
        (T_BOOLEAN, "a boolean"),
        (T_ARRAY, "an array"),
        (T_OBJECT, "an object"),
        (T_NULL, "null"),
    ] {
        if types & bit != 0 {
            parts.push(word);
        }
    }
    parts.join(" or ")
}

pub(super) fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// A string as a JSON literal, cut after 40 characters: `"aaaa…" (10485760 characters)`.
pub(super) fn quote(s: &str) -> String {
    match s.char_indices().nth(QUOTE_MAX_CHARS) {
        None => json_str(s),
        Some((cut, _)) => {
            let head = json_str(&s[..cut]);
            let count = s.chars().count();
            format!("{}…\" ({count} characters)", &head[..head.len() - 1])
        }
    }
}

/// The received value, for "got ...": `100`, `string "15N"`, `true`, `null`, `an array`.
pub(super) fn received(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => fmt_number(n),
        Value::String(s) => format!("string {}", quote(s)),
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}

/// The received value next to a list of literals: strings as `"magnetic"`.
fn received_literal(v: &Value) -> String {
    match v {
        Value::String(s) => quote(s),
        other => received(other),
    }
}

pub(super) fn render_list<'v>(values: impl Iterator<Item = &'v Value>) -> String {
    let mut out = String::new();
    for (i, v) in values.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{v}");
    }
    out
}

/// "must be one of ..., got ..." with a did-you-mean hint for near-miss strings.
pub(super) fn one_of_message(allowed: &[&Value], got: &Value) -> (String, Option<String>) {
    let message = format!(
        "must be one of {}, got {}",
        render_list(allowed.iter().copied()),
        received_literal(got)
    );
    let hint = match got {
        Value::String(s) => {
            let candidates: Vec<&str> = allowed.iter().filter_map(|v| v.as_str()).collect();
            suggest(s, &candidates, true).map(|c| format!("did you mean {}?", json_str(c)))
        }
        _ => None,
    };
    (message, hint)
}

pub(super) fn word(root: bool) -> &'static str {
    if root { "argument" } else { "field" }
}

fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The candidate `got` was probably meant to be: same up to case and `-`/` `/`_`, else the
/// closest within edit distance 2 (and, with `short_guard`, less than half its length).
pub(super) fn suggest<'c>(got: &str, candidates: &[&'c str], short_guard: bool) -> Option<&'c str> {
    fn norm(s: &str) -> String {
        s.chars()
            .flat_map(char::to_lowercase)
            .map(|c| if c == '-' || c == ' ' { '_' } else { c })
            .collect()
    }
    let g = norm(got);
    if let Some(c) = candidates.iter().find(|c| norm(c) == g) {
        return Some(c);
    }
    let got_len = got.chars().count();
    let mut best: Option<(usize, &'c str)> = None;
    for &c in candidates {
        let len = c.chars().count();
        if got_len.abs_diff(len) > 2 {
            continue;
        }
        let d = levenshtein(got, c);
        if d <= 2 && (!short_guard || d * 2 < len) && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}
