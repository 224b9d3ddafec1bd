//! Coercion.

use super::*;

fn coerce_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "count": {"type": "integer"},
            "force": {"type": "number"},
            "maybe": {"type": ["integer", "null"]},
            "on": {"type": "boolean"},
            "s": {"type": "string"}
        }
    })
}

#[test]
fn lax_coercions() {
    let doc = json!({"force": "15", "count": "5", "on": "true", "maybe": 7.0, "s": "15"});
    assert_eq!(
        fixed(coerce_schema(), doc, Coercion::Lax),
        json!({"force": 15, "count": 5, "on": true, "maybe": 7, "s": "15"})
    );
    let doc = json!({"force": "0.5", "count": 5.0, "on": "false"});
    assert_eq!(
        fixed(coerce_schema(), doc, Coercion::Lax),
        json!({"force": 0.5, "count": 5, "on": false})
    );
    let doc = json!({"force": "-3", "count": "5.0", "maybe": "-2"});
    let out = fixed(coerce_schema(), doc, Coercion::Lax);
    assert_eq!(out, json!({"force": -3, "count": 5, "maybe": -2}));
    assert!(out["count"].is_u64() && out["maybe"].is_i64());
    // Large integral floats stay floats when out of the i64/u64 range (still integers).
    let out = fixed(coerce_schema(), json!({"count": 1e20}), Coercion::Lax);
    assert!(out["count"].is_f64());
}

#[test]
fn lax_refuses_ambiguous_strings() {
    for bad in [
        " 15", "15 ", "15N", "1_000", "0x10", "NaN", "", "+5", "1e400", "5.", ".5",
    ] {
        let e = lax(coerce_schema(), json!({"force": bad}));
        assert_eq!(e.len(), 1, "{bad:?} should not be coerced");
    }
    assert_eq!(
        lax(coerce_schema(), json!({"on": "True", "count": "2.5"})),
        vec![
            "count: must be an integer, got string \"2.5\"",
            "on: must be a boolean, got string \"True\"",
        ]
    );
}

#[test]
fn coerced_values_are_then_checked() {
    assert_eq!(
        one(force_schema(), json!({"force": "100"})),
        "force: must be between 5 and 30 N, got 100"
    );
    assert_eq!(
        fixed(force_schema(), json!({"force": "7.5"}), Coercion::Lax),
        json!({"force": 7.5})
    );
    let s = json!({"properties": {"m": {"type": "integer", "enum": [1, 2]}}});
    assert_eq!(fixed(s, json!({"m": "2"}), Coercion::Lax), json!({"m": 2}));
}

#[test]
fn strict_refuses_coercions() {
    assert_eq!(
        strict(
            coerce_schema(),
            json!({"force": "15", "count": "5", "on": "true", "maybe": 7.0})
        ),
        vec![
            "count: must be an integer, got string \"5\" (hint: send a bare number, e.g. 5)",
            "force: must be a number, got string \"15\" (hint: send a bare number, e.g. 15)",
            "on: must be a boolean, got string \"true\"",
        ]
    );
    assert_eq!(
        fixed(coerce_schema(), json!({"maybe": 7.0}), Coercion::Strict),
        json!({"maybe": 7.0})
    );
    assert_eq!(
        strict(coerce_schema(), json!({"force": null})),
        vec!["force: must be a number, got null"]
    );
}

#[test]
fn null_as_absent_in_lax_mode() {
    let s = json!({
        "type": "object",
        "properties": {
            "a": {"type": "number", "default": 3},
            "b": {"type": "string"},
            "c": {"type": ["string", "null"], "default": "x"},
            "d": {"type": "integer"}
        },
        "required": ["d"],
        "additionalProperties": false
    });
    assert_eq!(
        fixed(
            s.clone(),
            json!({"a": null, "b": null, "c": null, "d": 1}),
            Coercion::Lax
        ),
        json!({"a": 3, "c": null, "d": 1})
    );
    assert_eq!(
        strict(s, json!({"a": null, "b": null, "c": null, "d": null})),
        vec![
            "a: must be a number, got null",
            "b: must be a string, got null",
            "d: must be an integer, got null"
        ]
    );
}

#[test]
fn defaults_inserted_in_both_modes() {
    let s = json!({
        "type": "object",
        "properties": {
            "speed": {"type": "number", "default": 0.5},
            "mode": {"enum": ["a", "b"], "default": "a"},
            "nested": {
                "type": "object",
                "properties": {"k": {"type": "integer", "default": 1}},
                "default": {}
            },
            "given": {"type": "integer", "default": 9}
        },
        "additionalProperties": false
    });
    let expected = json!({"speed": 0.5, "mode": "a", "nested": {}, "given": 2});
    assert_eq!(
        fixed(s.clone(), json!({"given": 2}), Coercion::Lax),
        expected
    );
    assert_eq!(
        fixed(s.clone(), json!({"given": 2}), Coercion::Strict),
        expected
    );
    // Defaults inside a present nested object.
    assert_eq!(
        fixed(s, json!({"nested": {}}), Coercion::Strict),
        json!({"speed": 0.5, "mode": "a", "nested": {"k": 1}, "given": 9})
    );
}
