//! Enum / const.

use super::*;

fn grip_schema() -> Value {
    json!({"properties": {"grip": {"type": "string", "enum": ["parallel", "suction", "adaptive"]}}})
}

#[test]
fn enum_message_and_hints() {
    assert_eq!(
        one(grip_schema(), json!({"grip": "magnetic"})),
        "grip: must be one of \"parallel\", \"suction\", \"adaptive\", got \"magnetic\""
    );
    assert_eq!(
        one(grip_schema(), json!({"grip": "Parallel"})),
        "grip: must be one of \"parallel\", \"suction\", \"adaptive\", got \"Parallel\" (hint: did you mean \"parallel\"?)"
    );
    assert_eq!(
        one(grip_schema(), json!({"grip": "suctoin"})),
        "grip: must be one of \"parallel\", \"suction\", \"adaptive\", got \"suctoin\" (hint: did you mean \"suction\"?)"
    );
    let s = json!({"properties": {"m": {"enum": ["fast_mode", "slow_mode", "ab"]}}});
    assert_eq!(
        one(s.clone(), json!({"m": "Fast-Mode"})),
        "m: must be one of \"fast_mode\", \"slow_mode\", \"ab\", got \"Fast-Mode\" (hint: did you mean \"fast_mode\"?)"
    );
    assert_eq!(
        one(s.clone(), json!({"m": "slow mode"})),
        "m: must be one of \"fast_mode\", \"slow_mode\", \"ab\", got \"slow mode\" (hint: did you mean \"slow_mode\"?)"
    );
    // Distance 1 but not less than half of a 2-character word: no hint.
    assert_eq!(
        one(s.clone(), json!({"m": "ax"})),
        "m: must be one of \"fast_mode\", \"slow_mode\", \"ab\", got \"ax\""
    );
    assert_eq!(
        one(s, json!({"m": 3})),
        "m: must be one of \"fast_mode\", \"slow_mode\", \"ab\", got 3"
    );
}

#[test]
fn enum_numeric_equality() {
    let s = json!({"properties": {"n": {"enum": [1, 2.5, null]}}});
    assert!(lax(s.clone(), json!({"n": 1.0})).is_empty());
    assert!(lax(s.clone(), json!({"n": null})).is_empty());
    assert_eq!(
        one(s, json!({"n": 2})),
        "n: must be one of 1, 2.5, null, got 2"
    );
    let s = json!({"properties": {"n": {"enum": [[1, {"a": 2}]]}}});
    assert!(lax(s, json!({"n": [1.0, {"a": 2.0}]})).is_empty());
}

#[test]
fn const_message() {
    let s = json!({"properties": {"k": {"const": "circle"}}});
    assert_eq!(
        one(s.clone(), json!({"k": "square"})),
        "k: must be \"circle\", got string \"square\""
    );
    assert_eq!(one(s, json!({"k": 1})), "k: must be \"circle\", got 1");
    let s = json!({"properties": {"k": {"const": 3}}});
    assert!(lax(s.clone(), json!({"k": 3.0})).is_empty());
    assert_eq!(one(s, json!({"k": [3]})), "k: must be 3, got an array");
}
