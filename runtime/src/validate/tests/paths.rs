//! Paths.

use super::*;

#[test]
fn path_rendering() {
    let s = json!({"properties": {
        "": {"type": "integer"},
        "a b": {"type": "integer"},
        "x": {"properties": {"k-1_B": {"type": "integer"}, "é": {"type": "integer"}}}
    }});
    assert_eq!(
        lax(
            s,
            json!({"a b": "z", "": "z", "x": {"é": "z", "k-1_B": "z"}})
        ),
        vec![
            "[\"\"]: must be an integer, got string \"z\"",
            "[\"a b\"]: must be an integer, got string \"z\"",
            "x.k-1_B: must be an integer, got string \"z\"",
            "x[\"é\"]: must be an integer, got string \"z\"",
        ]
    );
    let s = json!({"type": "array", "items": {"type": "array", "items": {"type": "integer"}}});
    assert_eq!(
        lax(s, json!([[1], [2, "x"]])),
        vec!["[1][1]: must be an integer, got string \"x\""]
    );
}
