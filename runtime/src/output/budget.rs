//! A result's size budget (`max_output_bytes`) and what happens over it
//! ([`OverBudget`](crate::contract::OverBudget)): the result cut to fit, on item boundaries of its
//! largest array (or a text at a line), with a note that says what was cut; or the
//! `_budget_exceeded` envelope in its place.

use std::fmt::Write as _;

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Value, json};

use crate::contract::TRUNCATED_META;

/// What was cut from a result to fit its budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Truncation {
    /// The array that was shortened (`readings`, `result`, `items[2].points`; empty for the root).
    pub path: String,
    /// Items kept.
    pub kept: usize,
    /// Items it had.
    pub total: usize,
    /// The budget.
    pub budget: usize,
}

impl Truncation {
    /// The note for the model.
    pub(crate) fn note(&self) -> String {
        let what = if self.path.is_empty() {
            "the result".to_owned()
        } else {
            format!("`{}`", self.path)
        };
        format!(
            "[output cut to fit the {} byte budget: {what} kept the first {} of {} items. To see \
             the rest, call again asking for fewer or later items.]",
            self.budget, self.kept, self.total
        )
    }

    /// The `_meta` value.
    pub(crate) fn to_meta(&self) -> Value {
        json!({"path": self.path, "kept": self.kept, "total": self.total, "budget": self.budget})
    }
}

fn json_len(v: &Value) -> usize {
    struct Counter(usize);
    impl std::io::Write for Counter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Counter(0);
    let _ = serde_json::to_writer(&mut c, v);
    c.0
}

/// Every array with more than one item: (bytes, path).
fn arrays(v: &Value, path: &mut Vec<Value>, out: &mut Vec<(usize, Vec<Value>)>) {
    match v {
        Value::Array(items) => {
            if items.len() > 1 {
                out.push((json_len(v), path.clone()));
            }
            for (i, item) in items.iter().enumerate() {
                path.push(Value::from(i));
                arrays(item, path, out);
                path.pop();
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                path.push(Value::from(k.as_str()));
                arrays(item, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// The array to shorten: the largest one, or the array inside it that holds most of its bytes
/// (so a list of long lists loses items of the long list, not whole lists).
fn array_to_cut(v: &Value) -> Option<Vec<Value>> {
    let mut all = Vec::new();
    arrays(v, &mut Vec::new(), &mut all);
    let (mut size, mut path) = all.iter().max_by_key(|(s, _)| *s)?.clone();
    while let Some((inner_size, inner_path)) = all
        .iter()
        .filter(|(_, p)| p.len() > path.len() && p.starts_with(&path))
        .max_by_key(|(s, _)| *s)
        .filter(|(s, _)| s * 2 > size)
    {
        size = *inner_size;
        path = inner_path.clone();
    }
    Some(path)
}

fn at_path<'a>(v: &'a mut Value, path: &[Value]) -> Option<&'a mut Value> {
    let mut cur = v;
    for seg in path {
        cur = match seg {
            Value::String(k) => cur.as_object_mut()?.get_mut(k)?,
            Value::Number(i) => cur.as_array_mut()?.get_mut(i.as_u64()? as usize)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn render_path(path: &[Value]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Value::String(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Value::Number(i) => {
                let _ = write!(s, "[{i}]");
            }
            _ => {}
        }
    }
    s
}

/// Cuts `value` to fit `budget` bytes of JSON by dropping items from the end of its largest
/// array (never bytes in the middle of a value). `None` when it already fits or cannot be cut.
pub(crate) fn cut_to_budget(value: &mut Value, budget: usize) -> Option<Truncation> {
    let size = json_len(value);
    if size <= budget {
        return None;
    }
    let path = array_to_cut(value)?;
    let array = at_path(value, &path)?.as_array_mut()?;
    let total = array.len();
    let original = std::mem::take(array);
    // Binary search for the most items that fit.
    let (mut lo, mut hi) = (0usize, total);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        *at_path(value, &path)?.as_array_mut()? = original[..mid].to_vec();
        if json_len(value) <= budget {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    *at_path(value, &path)?.as_array_mut()? = original[..lo].to_vec();
    Some(Truncation {
        path: render_path(&path),
        kept: lo,
        total,
        budget,
    })
}

/// Keeps a text result within `budget` bytes, cutting at a line (or character) boundary.
pub(crate) fn cut_text(text: &mut String, budget: usize) -> Option<(usize, usize)> {
    if text.len() <= budget {
        return None;
    }
    let total = text.len();
    let mut end = budget;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    if let Some(nl) = text[..end].rfind('\n') {
        end = nl;
    }
    text.truncate(end);
    Some((end, total))
}

/// The key that marks the envelope.
pub(crate) const EXCEEDED_KEY: &str = "_budget_exceeded";

/// The envelope that replaces a result over the budget. `asks` names what the tool accepts to
/// ask for less (`jmespath`, `summary`), `keys` the result's top-level keys.
pub(crate) fn envelope(budget: usize, actual: usize, asks: &[&str], keys: &[String]) -> Value {
    let mut hint = format!(
        "The result is {actual} bytes of JSON, over this tool's budget of {budget} bytes, so it \
         was not sent. Call again asking for less"
    );
    match asks {
        [] => hint.push_str(" (narrower arguments)."),
        asks => {
            let asks: Vec<String> = asks.iter().map(|a| format!("`{a}`")).collect();
            let _ = write!(hint, ": this tool accepts {}.", asks.join(" and "));
        }
    }
    if !keys.is_empty() {
        let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
        let _ = write!(
            hint,
            " The result's top-level keys are: {}.",
            keys.join(", ")
        );
    }
    json!({
        EXCEEDED_KEY: true,
        "budget_bytes": budget,
        "actual_bytes": actual,
        "hint": hint,
    })
}

/// The `outputSchema` branch of the envelope.
pub(crate) fn branch() -> Value {
    json!({
        "type": "object",
        "properties": {
            EXCEEDED_KEY: {"type": "boolean", "const": true},
            "budget_bytes": {"type": "integer", "minimum": 0, "description": "The tool's budget, in bytes of JSON."},
            "actual_bytes": {"type": "integer", "minimum": 0, "description": "The size of the result that was not sent."},
            "hint": {"type": "string", "description": "How to ask for less."}
        },
        "required": [EXCEEDED_KEY, "budget_bytes", "actual_bytes", "hint"],
        "additionalProperties": false,
    })
}

/// A structured result held to `budget` by cutting
/// ([`OverBudget::Cut`](crate::contract::OverBudget::Cut)): its largest array shortened, the text
/// block rewritten to match, a note saying what was cut, and `_meta["io.toolwright/truncated"]`.
/// A projection's (`projected`) text block is the projected value.
pub(crate) fn cut_structured(
    mut structured: Value,
    budget: usize,
    projected: bool,
) -> CallToolResult {
    let truncation = cut_to_budget(&mut structured, budget);
    let mut result = structured_result(structured, projected);
    if let Some(truncation) = truncation {
        result.content.push(ContentBlock::text(truncation.note()));
        let mut meta = result.meta.take().unwrap_or_default();
        meta.0
            .insert(TRUNCATED_META.to_owned(), truncation.to_meta());
        result.meta = Some(meta);
    }
    result
}

/// A structured result; its text block is the JSON, or for a projection (`{"projection": v}`)
/// the projected value `v`.
pub(crate) fn structured_result(structured: Value, projected: bool) -> CallToolResult {
    let text = projected
        .then(|| {
            structured
                .get(super::projection::PROJECTION_KEY)
                .map(Value::to_string)
        })
        .flatten();
    let mut result = CallToolResult::structured(structured);
    if let Some(text) = text {
        result.content = vec![ContentBlock::text(text)];
    }
    result
}

/// A text result held to `budget` (cut at a line, with a note); other results as they are.
pub(crate) fn hold_text(mut result: CallToolResult, budget: Option<usize>) -> CallToolResult {
    let Some(budget) = budget else {
        return result;
    };
    let Some(mut text) = result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
    else {
        return result;
    };
    if let Some((kept, total)) = cut_text(&mut text, budget) {
        let note = format!(
            "[output cut to fit the {budget} byte budget: kept the first {kept} of {total} \
             bytes. To see the rest, call again asking for less.]"
        );
        result.content = vec![ContentBlock::text(text), ContentBlock::text(note)];
        let mut meta = result.meta.take().unwrap_or_default();
        meta.0.insert(
            TRUNCATED_META.to_owned(),
            json!({"path": "", "kept": kept, "total": total, "budget": budget}),
        );
        result.meta = Some(meta);
    }
    result
}

/// The size of `value` as compact JSON.
pub(crate) fn size(value: &Value) -> usize {
    json_len(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_the_largest_array_on_item_boundaries() {
        let mut v = json!({"filter": "raw", "readings": (0..100).map(|i| json!({"i": i})).collect::<Vec<_>>(), "tags": ["a", "b"]});
        let t = cut_to_budget(&mut v, 200).unwrap();
        assert_eq!(t.path, "readings");
        assert_eq!(t.total, 100);
        assert!(json_len(&v) <= 200);
        assert_eq!(v["readings"].as_array().unwrap().len(), t.kept);
        assert!(t.kept > 0);
        assert_eq!(v["readings"][0], json!({"i": 0}), "keeps the first items");
        assert_eq!(v["tags"], json!(["a", "b"]));
        let mut small = json!({"a": [1, 2]});
        assert_eq!(cut_to_budget(&mut small, 1000), None);
        let mut nested = json!({"result": [[1, 2, 3], (0..50).collect::<Vec<_>>()]});
        let t = cut_to_budget(&mut nested, 60).unwrap();
        assert_eq!(t.path, "result[1]");
    }

    #[test]
    fn the_envelope_matches_its_branch() {
        let mut e = envelope(
            100,
            4321,
            &["jmespath", "summary"],
            &["readings".to_owned()],
        );
        let hint = e["hint"].as_str().unwrap().to_owned();
        assert!(hint.contains("4321 bytes"), "{hint}");
        assert!(hint.contains("`jmespath` and `summary`"), "{hint}");
        assert!(hint.contains("`readings`"), "{hint}");
        let validator = crate::validate::Validator::compile(&branch()).unwrap();
        assert_eq!(validator.check_output(&mut e), Ok(()));
        let plain = envelope(10, 20, &[], &[]);
        assert!(
            plain["hint"]
                .as_str()
                .unwrap()
                .ends_with("(narrower arguments).")
        );
    }

    #[test]
    fn text_is_cut_at_a_line() {
        let mut s = "line one\nline two\nline three".to_owned();
        assert_eq!(cut_text(&mut s, 20), Some((17, 28)));
        assert_eq!(s, "line one\nline two");
        let mut u = "ééééé".to_owned();
        cut_text(&mut u, 5);
        assert_eq!(u, "éé");
    }
}
