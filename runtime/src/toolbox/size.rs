//! How large a call's arguments are as compact JSON, measured without writing them out: an
//! upper bound first, the exact size only near the limit.

use std::fmt;

use rmcp::model::JsonObject;
use serde_json::Value;

/// The exact size of the arguments serialized as compact JSON (`{}` when absent), computed
/// without writing the text out and without recursion (an explicit stack instead), so a deeply
/// nested document cannot overflow the call stack here.
pub(super) fn json_size(arguments: Option<&JsonObject>) -> usize {
    fn string_len(s: &str) -> usize {
        // serde_json's escaping: `"` and `\` and \b \f \n \r \t take two bytes, other control
        // characters six (`\u001f`), everything else (UTF-8 included) is written as is.
        let escapes: usize = s
            .bytes()
            .map(|b| match b {
                b'"' | b'\\' | 0x08 | 0x0c | b'\n' | b'\r' | b'\t' => 1,
                0..=0x1f => 5,
                _ => 0,
            })
            .sum();
        s.len() + escapes + 2
    }
    fn object<'a>(map: &'a JsonObject, stack: &mut Vec<&'a Value>) -> usize {
        // Braces, commas, and a colon per entry.
        let mut size = 2 + map.len().saturating_sub(1);
        for (key, value) in map {
            size += string_len(key) + 1;
            stack.push(value);
        }
        size
    }
    let Some(map) = arguments else {
        return 2;
    };
    let mut stack = Vec::new();
    let mut size = object(map, &mut stack);
    while let Some(value) = stack.pop() {
        size += match value {
            Value::Null | Value::Bool(true) => 4,
            Value::Bool(false) => 5,
            Value::Number(n) => exact_number_len(n),
            Value::String(s) => string_len(s),
            Value::Array(items) => {
                stack.extend(items);
                2 + items.len().saturating_sub(1)
            }
            Value::Object(map) => object(map, &mut stack),
        };
    }
    size
}

/// An upper bound of [`json_size`] that neither formats numbers (each counts as the longest a
/// serialized number can be, [`MAX_NUMBER_LEN`]) nor scans strings for escapes (each byte counts
/// as the six an escape can take) nor allocates. It recurses, up to [`UPPER_BOUND_DEPTH`] levels;
/// deeper documents get `usize::MAX` (so the exact count decides). Arguments under the limit by
/// this bound (all but those near it or full of long strings) need no exact count.
pub(super) fn json_size_upper_bound(arguments: Option<&JsonObject>) -> usize {
    fn object(map: &JsonObject, depth: usize) -> usize {
        map.iter().fold(2 + map.len(), |size, (key, value)| {
            size.saturating_add(key.len() * 6 + 3)
                .saturating_add(value_bound(value, depth + 1))
        })
    }
    fn value_bound(value: &Value, depth: usize) -> usize {
        match value {
            Value::Null | Value::Bool(_) => 5,
            Value::Number(_) => MAX_NUMBER_LEN,
            Value::String(s) => s.len().saturating_mul(6).saturating_add(2),
            _ if depth >= UPPER_BOUND_DEPTH => usize::MAX,
            Value::Array(items) => items.iter().fold(2 + items.len(), |size, v| {
                size.saturating_add(value_bound(v, depth + 1))
            }),
            Value::Object(map) => object(map, depth),
        }
    }
    arguments.map_or(2, |map| object(map, 0))
}

/// How deep [`json_size_upper_bound`] recurses before it hands a value to the exact count.
const UPPER_BOUND_DEPTH: usize = 32;

/// The longest serialization of a `serde_json::Number`: 20 for `u64::MAX` and `i64::MIN`, at most
/// 24 for an f64 in ryu's shortest form (`-2.2250738585072014e-308`).
const MAX_NUMBER_LEN: usize = 24;

/// The length of a number's serialization.
fn exact_number_len(n: &serde_json::Number) -> usize {
    struct Count(usize);
    impl fmt::Write for Count {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.0 += s.len();
            Ok(())
        }
    }
    let mut count = Count(0);
    // `Number`'s Display is serde_json's serialization (itoa / ryu).
    let _ = fmt::Write::write_fmt(&mut count, format_args!("{n}"));
    count.0
}
#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use rmcp::model::JsonObject;

    fn object(v: Value) -> JsonObject {
        match v {
            Value::Object(map) => map,
            other => panic!("not an object: {other}"),
        }
    }

    #[test]
    fn json_size_is_the_compact_serialization_length() {
        let docs = [
            json!({}),
            json!({"force": 15}),
            json!({"a": null, "b": true, "c": false, "d": [], "e": {}, "f": [1, [2, [3]]]}),
            json!({"n": [0, -0.0, 0.1, 1e300, -2.5e-8, 15.0, u64::MAX, i64::MIN, 1.7976931348623157e308]}),
            json!({"s": "quote \" backslash \\ slash / tab \t nl \n cr \r bs \u{8} ff \u{c} nul \u{0} us \u{1f} del \u{7f}"}),
            json!({"unicode é 🦀": "pаrallel (Cyrillic а), ｆｕｌｌ, zero\u{200d}width"}),
            json!({"waypoints": [{"x": 400, "y": 0, "z": 200}, {"x": 400.5, "y": -3, "z": 1e2}]}),
        ];
        for doc in docs {
            let expected = serde_json::to_string(&doc).unwrap().len();
            let doc = object(doc);
            assert_eq!(json_size(Some(&doc)), expected, "{doc:?}");
            assert!(json_size_upper_bound(Some(&doc)) >= expected, "{doc:?}");
            assert!(
                json_size_upper_bound(Some(&doc)) <= 6 * expected + 24,
                "{doc:?}"
            );
        }
        assert_eq!(json_size(None), 2, "absent arguments are `{{}}`");
        let big = json!({"s": "x".repeat(3 << 20)});
        assert_eq!(json_size(Some(&object(big))), (3 << 20) + 8);
    }

    #[test]
    fn json_size_does_not_recurse() {
        // 200,000 levels on a 256 KiB stack: serde_json's serializer (or any recursion) would
        // overflow it. The document is leaked because dropping it would recurse.
        let handle = std::thread::Builder::new().stack_size(256 << 10).spawn(|| {
            let mut deep = json!(1);
            for _ in 0..200_000 {
                deep = Value::Array(vec![deep]);
            }
            let map = object(json!({}));
            let mut map = std::mem::ManuallyDrop::new(map);
            map.insert("deep".to_owned(), deep);
            // The upper bound gives up past its depth (and says so with usize::MAX).
            assert_eq!(json_size_upper_bound(Some(&map)), usize::MAX);
            json_size(Some(&map))
        });
        let size = handle.map(|h| h.join());
        assert!(
            matches!(size, Ok(Ok(n)) if n == 2 + 6 + 1 + 200_000 * 2 + 1),
            "{size:?}"
        );
    }
}
