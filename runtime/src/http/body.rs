//! A POST body as the guard sees it before rmcp parses it: read within a size limit and a
//! time limit, measured (how many JSON values, how deep) without building it, and peeked for
//! the JSON-RPC method and tool name.

use std::borrow::Cow;
use std::time::Duration;

use axum::body::Bytes;
use http_body_util::BodyExt as _;
use serde::Deserialize;

/// Why a body was not read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum BodyError {
    /// Longer than the limit (bytes read before giving up).
    TooLarge { limit: usize },
    /// Not all there within the read timeout.
    TooSlow { timeout: Duration },
    /// The connection failed while reading.
    Broken(String),
}

/// Reads the whole body, refusing more than `limit` bytes or more than `timeout`.
pub(crate) async fn read<B>(body: B, limit: usize, timeout: Duration) -> Result<Bytes, BodyError>
where
    B: http_body::Body<Data = Bytes>,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let limited = http_body_util::Limited::new(body, limit);
    let mut collect = std::pin::pin!(limited.collect());
    // A call's body has usually arrived with its headers: read whole at the first poll, it
    // needs no timer (a timer is registered with, and removed from, the runtime's timer wheel
    // under its lock).
    let first = std::future::poll_fn(|cx| match collect.as_mut().poll(cx) {
        std::task::Poll::Ready(done) => std::task::Poll::Ready(Some(done)),
        std::task::Poll::Pending => std::task::Poll::Ready(None),
    })
    .await;
    let collected = match first {
        Some(done) => Ok(done),
        None => tokio::time::timeout(timeout, collect).await,
    };
    match collected {
        Err(_) => Err(BodyError::TooSlow { timeout }),
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => {
            Err(BodyError::TooLarge { limit })
        }
        Ok(Err(e)) => Err(BodyError::Broken(e.to_string())),
    }
}

/// How big a JSON text is once parsed: its values (counted as containers plus separators, an
/// upper bound of the values it holds) and its deepest nesting. One pass over the bytes, no
/// allocation; invalid JSON is measured as well as it can be (the parser refuses it later).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shape {
    pub values: usize,
    pub depth: usize,
}

/// Where the string `rest` starts inside ends or escapes: its first `"` or `\\`. Most of a
/// call's strings are short (keys, names): their first bytes are looked at one by one, and only
/// a longer string is searched a machine word at a time (`memchr`'s set-up costs more than a
/// short key's bytes).
fn string_end(rest: &[u8]) -> Option<usize> {
    const SHORT: usize = 16;
    let head = &rest[..rest.len().min(SHORT)];
    if let Some(at) = head.iter().position(|&b| b == b'"' || b == b'\\') {
        return Some(at);
    }
    if rest.len() <= SHORT {
        return None;
    }
    memchr::memchr2(b'"', b'\\', &rest[SHORT..]).map(|at| at + SHORT)
}

pub(crate) fn shape(bytes: &[u8]) -> Shape {
    let mut values = 1;
    let mut depth = 0usize;
    let mut deepest = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        i += 1;
        match b {
            // A string: skipped to its closing quote, escapes and all, a machine word at a time
            // (most of a call's bytes are in strings: keys, names, text arguments).
            b'"' => loop {
                let Some(at) = bytes.get(i..).and_then(string_end) else {
                    i = bytes.len();
                    break;
                };
                i += at + 1;
                if bytes[i - 1] == b'"' {
                    break;
                }
                i += 1; // the escaped byte
            },
            b'{' | b'[' => {
                values += 1;
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' => values += 1,
            _ => {}
        }
    }
    Shape {
        values,
        depth: deepest,
    }
}

/// The values `bytes` holds as [`shape`] counts them, when more than `limit`. A text counts at
/// most one value more than its bytes (one for the text, one per `{`, `[` and `,`), so one that
/// short is not read at all: the pass costs about 5 instructions a byte, and a call's body is
/// hundreds of bytes against a limit of thousands of values.
pub(crate) fn too_many_values(bytes: &[u8], limit: usize) -> Option<usize> {
    if bytes.len() < limit {
        return None;
    }
    Some(shape(bytes).values).filter(|&values| values > limit)
}

/// The parts of a JSON-RPC message the guard acts on.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Peek<'a> {
    #[serde(borrow, default)]
    pub method: Option<Cow<'a, str>>,
    #[serde(default)]
    pub id: Option<serde::de::IgnoredAny>,
    #[serde(borrow, default)]
    pub params: Option<PeekParams<'a>>,
}

/// `params.name` of a `tools/call`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct PeekParams<'a> {
    #[serde(borrow, default)]
    pub name: Option<Cow<'a, str>>,
}

impl Peek<'_> {
    /// The message is a request (it has an id and a method).
    pub(super) fn is_request(&self) -> bool {
        self.id.is_some() && self.method.is_some()
    }

    /// The tool a `tools/call` names.
    pub(super) fn tool(&self) -> Option<&str> {
        (self.method.as_deref() == Some("tools/call"))
            .then(|| self.params.as_ref()?.name.as_deref())
            .flatten()
    }
}

/// Peeks at a single JSON-RPC message (`None`: not a JSON object).
pub(crate) fn peek(bytes: &[u8]) -> Option<Peek<'_>> {
    serde_json::from_slice(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;

    #[test]
    fn shapes_count_containers_and_separators_outside_strings() {
        assert_eq!(
            shape(b"{}"),
            Shape {
                values: 2,
                depth: 1
            }
        );
        let s = shape(br#"{"a": [1, 2, {"b": "x,y[{"}], "c": "\"]"}"#);
        assert_eq!(s.depth, 3);
        assert_eq!(s.values, 1 + 3 + 3, "three containers, three commas");
        let many = format!("[{}]", vec!["{}"; 1000].join(","));
        assert_eq!(
            shape(many.as_bytes()),
            Shape {
                values: 1 + 1001 + 999,
                depth: 2
            }
        );
        assert_eq!(shape(&[b'['; 300]).depth, 300);
    }

    #[test]
    fn a_body_shorter_than_the_limit_is_not_read_and_the_answer_is_the_same() {
        // Texts made only of counted bytes hold the most values their length allows.
        let dense = [
            b"[".repeat(40),
            b",".repeat(40),
            b"[,".repeat(20),
            b"{}".repeat(20),
        ];
        let mixed = br#"{"a": [1, 2, {"b": "x,y[{"}], "c": "\"]"}"#.to_vec();
        for text in dense.iter().chain([&mixed, &Vec::new()]) {
            let values = shape(text).values;
            assert!(
                values <= text.len() + 1,
                "{values} values in {} bytes",
                text.len()
            );
            for limit in 0..text.len() + 3 {
                assert_eq!(
                    too_many_values(text, limit),
                    (values > limit).then_some(values),
                    "limit {limit}, {:?}",
                    String::from_utf8_lossy(text)
                );
            }
        }
    }

    /// The byte-at-a-time measure `shape` replaced: the two agree on every input.
    fn shape_bytewise(bytes: &[u8]) -> Shape {
        let (mut values, mut depth, mut deepest) = (1, 0usize, 0);
        let (mut in_string, mut escaped) = (false, false);
        for &b in bytes {
            if in_string {
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == b'"' {
                    in_string = false;
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => {
                    values += 1;
                    depth += 1;
                    deepest = deepest.max(depth);
                }
                b'}' | b']' => depth = depth.saturating_sub(1),
                b',' => values += 1,
                _ => {}
            }
        }
        Shape {
            values,
            depth: deepest,
        }
    }

    #[test]
    fn shapes_agree_with_a_byte_at_a_time_count() {
        // The 15-byte piece takes strings across `string_end`'s 16-byte head, and past it.
        let pieces: [&[u8]; 13] = [
            b"{",
            b"}",
            b"[",
            b"]",
            b",",
            b"\"",
            b"\\",
            b"a",
            b"\\\"",
            b":",
            b" ",
            b"\\\\",
            b"aaaaaaaaaaaaaaa",
        ];
        // Every sequence of up to 6 pieces (13^6 inputs), unterminated strings and trailing
        // backslashes included.
        let mut input = Vec::new();
        for n in 0..=6u32 {
            for mut k in 0..13usize.pow(n) {
                input.clear();
                for _ in 0..n {
                    input.extend_from_slice(pieces[k % 13]);
                    k /= 13;
                }
                assert_eq!(
                    shape(&input),
                    shape_bytewise(&input),
                    "{:?}",
                    String::from_utf8_lossy(&input)
                );
            }
        }
    }

    #[test]
    fn peeks_find_the_method_and_the_tool() {
        let p = peek(br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"move_arm_to_pose","arguments":{"x":[1,2]}}}"#).unwrap();
        assert!(p.is_request());
        assert_eq!(p.tool(), Some("move_arm_to_pose"));
        let n = peek(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap();
        assert!(!n.is_request());
        assert_eq!(n.tool(), None);
        assert!(peek(b"[1, 2]").is_none());
        assert!(peek(b"{\"method\": 3}").is_none());
        let escaped =
            peek(br#"{"id":1,"method":"tools\/call","params":{"name":"a\u0062c"}}"#).unwrap();
        assert_eq!(escaped.tool(), Some("abc"));
    }

    #[tokio::test]
    async fn reading_stops_at_the_limit() {
        let body = Body::from(vec![b'x'; 10_000]);
        assert_eq!(
            read(body, 1_000, Duration::from_secs(5)).await,
            Err(BodyError::TooLarge { limit: 1_000 })
        );
        let body = Body::from(vec![b'x'; 1_000]);
        assert_eq!(
            read(body, 1_000, Duration::from_secs(5))
                .await
                .unwrap()
                .len(),
            1_000
        );
    }
}
