//! Required.

use super::*;

#[test]
fn required_messages() {
    let s = json!({
        "type": "object",
        "properties": {
            "anything": {},
            "force": {"type": "number", "x-unit": "N"},
            "grip": {"type": "string", "enum": ["a", "b"]},
            "kind": {"const": "box"},
            "tags": {"type": "array"},
            "target_position": {
                "type": "object",
                "properties": {
                    "x": {"type": "number"},
                    "y": {"type": "number"},
                    "z": {"type": "number", "x-unit": "m"}
                },
                "required": ["x", "y", "z"]
            }
        },
        "required": ["anything", "force", "grip", "kind", "tags", "target_position", "extra"]
    });
    assert_eq!(
        lax(s.clone(), json!({})),
        vec![
            "anything: required argument is missing",
            "force: required argument is missing; expected a number in N",
            "grip: required argument is missing; expected one of \"a\", \"b\"",
            "kind: required argument is missing; expected \"box\"",
            "tags: required argument is missing; expected an array",
            "target_position: required argument is missing; expected an object with fields x, y, z",
            "extra: required argument is missing",
        ]
    );
    let doc = json!({"force": 1, "grip": "a", "target_position": {"y": 1}, "tags": [], "anything": 0, "kind": "box", "extra": 1});
    assert_eq!(
        lax(s, doc),
        vec![
            "target_position.x: required field is missing; expected a number",
            "target_position.z: required field is missing; expected a number in m",
        ]
    );
}

#[test]
fn required_null_is_not_absent() {
    let s = json!({"properties": {"a": {"type": "number"}}, "required": ["a"]});
    assert_eq!(one(s, json!({"a": null})), "a: must be a number, got null");
}
