//! Types.

use super::*;

#[test]
fn type_number_with_unit_and_hint() {
    assert_eq!(
        one(force_schema(), json!({"force": "15N"})),
        "force: must be a number in N, got string \"15N\" (hint: send a bare number in N, e.g. 15)"
    );
    assert_eq!(
        one(force_schema(), json!({"force": "15 N"})),
        "force: must be a number in N, got string \"15 N\" (hint: send a bare number in N, e.g. 15)"
    );
}

#[test]
fn long_numeric_prefixes_get_no_example() {
    // 40 digits: still an example; 41 or 10 MB of digits: none, and the message stays short.
    let forty = "1".repeat(40);
    assert_eq!(
        one(force_schema(), json!({"force": format!("{forty}N")})),
        format!(
            "force: must be a number in N, got string \"{forty}…\" (41 characters) (hint: send a bare number in N, e.g. {forty})"
        )
    );
    let e = one(force_schema(), json!({"force": format!("{forty}1N")}));
    assert_eq!(
        e,
        format!("force: must be a number in N, got string \"{forty}…\" (42 characters)")
    );
    let e = one(force_schema(), json!({"force": "7".repeat(10 << 20)}));
    assert!(
        e.len() < 200 && !e.contains("hint"),
        "{}",
        &e[..e.floor_char_boundary(300)]
    );
}

#[test]
fn type_number_without_unit() {
    let s = json!({"properties": {"d": {"type": "number"}}});
    assert_eq!(
        one(s.clone(), json!({"d": "20mm"})),
        "d: must be a number, got string \"20mm\" (hint: send a bare number, e.g. 20)"
    );
    assert_eq!(
        one(s.clone(), json!({"d": "abc"})),
        "d: must be a number, got string \"abc\""
    );
    assert_eq!(
        one(s.clone(), json!({"d": true})),
        "d: must be a number, got true"
    );
    assert_eq!(
        one(s.clone(), json!({"d": [1]})),
        "d: must be a number, got an array"
    );
    assert_eq!(
        one(s, json!({"d": {}})),
        "d: must be a number, got an object"
    );
}

#[test]
fn type_root_object() {
    let s = json!({"type": "object"});
    assert_eq!(
        one(s.clone(), json!([1, 2])),
        "arguments: must be an object, got an array"
    );
    assert_eq!(
        one(s.clone(), json!(null)),
        "arguments: must be an object, got null"
    );
    assert_eq!(one(s, json!(3)), "arguments: must be an object, got 3");
}

#[test]
fn type_integer() {
    let s = json!({"properties": {"n": {"type": "integer"}}});
    assert_eq!(
        one(s.clone(), json!({"n": 5.5})),
        "n: must be an integer, got 5.5"
    );
    assert_eq!(
        one(s.clone(), json!({"n": "7 pcs"})),
        "n: must be an integer, got string \"7 pcs\" (hint: send a bare number, e.g. 7)"
    );
    // A non-integral prefix gives no integer example.
    assert_eq!(
        one(s.clone(), json!({"n": "5.5"})),
        "n: must be an integer, got string \"5.5\""
    );
    assert_eq!(
        one(
            json!({"properties": {"n": {"type": "integer", "x-unit": "mm"}}}),
            json!({"n": 0.25})
        ),
        "n: must be an integer in mm, got 0.25"
    );
    // 5.0 is an integer, also in strict mode (and is then left as is).
    assert!(strict(s.clone(), json!({"n": 5.0})).is_empty());
    assert_eq!(
        fixed(s, json!({"n": 5.0}), Coercion::Strict),
        json!({"n": 5.0})
    );
}

#[test]
fn type_union_words() {
    let s = json!({"properties": {"t": {"type": ["number", "null"], "x-unit": "s"}}});
    assert_eq!(
        one(s, json!({"t": "x"})),
        "t: must be a number or null in s, got string \"x\""
    );
    let s = json!({"properties": {"t": {"type": ["null", "string", "integer"]}}});
    assert_eq!(
        one(s, json!({"t": true})),
        "t: must be an integer or a string or null, got true"
    );
    let s = json!({"properties": {"t": {"type": ["boolean", "array", "object"]}}});
    assert_eq!(
        one(s, json!({"t": 1})),
        "t: must be a boolean or an array or an object, got 1"
    );
}

#[test]
fn received_string_truncation() {
    let s = json!({"properties": {"n": {"type": "integer"}}});
    let forty = "a".repeat(40);
    assert_eq!(
        one(s.clone(), json!({"n": forty})),
        format!("n: must be an integer, got string \"{forty}\"")
    );
    let long = "a".repeat(10_485_760);
    assert_eq!(
        one(s.clone(), json!({"n": long})),
        format!("n: must be an integer, got string \"{forty}…\" (10485760 characters)")
    );
    let accents = "é".repeat(41);
    assert_eq!(
        one(s, json!({"n": accents})),
        format!(
            "n: must be an integer, got string \"{}…\" (41 characters)",
            "é".repeat(40)
        )
    );
}

#[test]
fn received_string_is_json_escaped() {
    let s = json!({"properties": {"n": {"type": "integer"}}});
    assert_eq!(
        one(s, json!({"n": "a\"b\n"})),
        "n: must be an integer, got string \"a\\\"b\\n\""
    );
}

#[test]
fn boolean_expected() {
    let s = json!({"properties": {"on": {"type": "boolean"}}});
    assert_eq!(
        one(s, json!({"on": "yes"})),
        "on: must be a boolean, got string \"yes\""
    );
}
