//! oneOf / anyOf / allOf / not.

use super::*;

fn shape_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "shape": {
                "oneOf": [
                    {
                        "type": "object",
                        "properties": {
                            "kind": {"type": "string", "const": "circle"},
                            "radius": {"type": "number", "exclusiveMinimum": 0, "x-unit": "m"}
                        },
                        "required": ["kind", "radius"],
                        "additionalProperties": false
                    },
                    {
                        "type": "object",
                        "properties": {
                            "kind": {"type": "string", "const": "square"},
                            "side": {"type": "number", "default": 1}
                        },
                        "required": ["kind"],
                        "additionalProperties": false
                    }
                ]
            }
        },
        "required": ["shape"]
    })
}

#[test]
fn internally_tagged_selection() {
    assert_eq!(
        fixed(
            shape_schema(),
            json!({"shape": {"kind": "circle", "radius": "2"}}),
            Coercion::Lax
        ),
        json!({"shape": {"kind": "circle", "radius": 2}})
    );
    assert_eq!(
        fixed(
            shape_schema(),
            json!({"shape": {"kind": "square"}}),
            Coercion::Strict
        ),
        json!({"shape": {"kind": "square", "side": 1}})
    );
    assert_eq!(
        lax(
            shape_schema(),
            json!({"shape": {"kind": "circle", "radius": -1, "side": 2}})
        ),
        vec![
            "shape.radius: must be greater than 0 m, got -1",
            "shape.side: unknown field; allowed: kind, radius",
        ]
    );
    assert_eq!(
        lax(shape_schema(), json!({"shape": {"kind": "Square"}})),
        vec![
            "shape.kind: must be one of \"circle\", \"square\", got \"Square\" (hint: did you mean \"square\"?)"
        ]
    );
    assert_eq!(
        lax(shape_schema(), json!({"shape": {"radius": 1}})),
        vec!["shape.kind: required field is missing; expected one of \"circle\", \"square\""]
    );
    assert_eq!(
        lax(shape_schema(), json!({})),
        vec![
            "shape: required argument is missing; expected an object with fields kind, radius or an object with fields kind, side"
        ]
    );
}

#[test]
fn internally_tagged_at_root_without_dispatch() {
    // The tag is not required, so every branch is tried; reporting still uses the tag.
    let s = json!({"anyOf": [
        {"properties": {"kind": {"const": "a"}, "x": {"type": "integer"}}, "required": ["x"]},
        {"properties": {"kind": {"const": "b"}, "y": {"type": "integer"}}, "required": ["y"]}
    ]});
    assert!(lax(s.clone(), json!({"y": 1})).is_empty());
    assert_eq!(
        lax(s.clone(), json!({"kind": "b", "y": "z"})),
        vec!["y: must be an integer, got string \"z\""]
    );
    assert_eq!(
        lax(s.clone(), json!({"kind": "c"})),
        vec!["kind: must be one of \"a\", \"b\", got \"c\""]
    );
    assert_eq!(
        lax(s, json!({"z": 1})),
        vec!["kind: required argument is missing; expected one of \"a\", \"b\""]
    );
}

fn external_schema() -> Value {
    json!({"properties": {"action": {"oneOf": [
        {"type": "string", "const": "stop"},
        {"type": "string", "enum": ["home", "park"]},
        {
            "type": "object",
            "properties": {"move": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}},
            "required": ["move"],
            "additionalProperties": false
        },
        {
            "type": "object",
            "properties": {"grip": {"type": "number", "maximum": 10, "x-unit": "N"}},
            "required": ["grip"],
            "additionalProperties": false
        }
    ]}}})
}

#[test]
fn externally_tagged_selection() {
    assert!(lax(external_schema(), json!({"action": "stop"})).is_empty());
    assert!(lax(external_schema(), json!({"action": "park"})).is_empty());
    assert_eq!(
        fixed(
            external_schema(),
            json!({"action": {"move": {"x": "1.5"}}}),
            Coercion::Lax
        ),
        json!({"action": {"move": {"x": 1.5}}})
    );
    assert_eq!(
        lax(external_schema(), json!({"action": {"grip": 20}})),
        vec!["action.grip: must be at most 10 N, got 20"]
    );
    assert_eq!(
        lax(external_schema(), json!({"action": {"move": {}}})),
        vec!["action.move.x: required field is missing; expected a number"]
    );
    assert_eq!(
        lax(external_schema(), json!({"action": {"jump": 1}})),
        vec![
            "action: must be an object with exactly one of the keys \"move\", \"grip\", got key \"jump\""
        ]
    );
    // A string: an enum violation over all string constants.
    assert_eq!(
        lax(external_schema(), json!({"action": "Home"})),
        vec![
            "action: must be one of \"stop\", \"home\", \"park\", got \"Home\" (hint: did you mean \"home\"?)"
        ]
    );
    // Anything else: closest form.
    assert_eq!(
        lax(external_schema(), json!({"action": 3})),
        vec![
            "action: must match one of the allowed forms, got 3 (hint: closest form: must be a string, got 3)"
        ]
    );
}

#[test]
fn closest_form_fallback() {
    let s = json!({"properties": {"t": {"anyOf": [
        {"type": "number", "minimum": 5, "maximum": 30, "x-unit": "N"},
        {"type": "null"}
    ]}}});
    assert!(lax(s.clone(), json!({"t": null})).is_empty());
    assert_eq!(
        fixed(s.clone(), json!({"t": "7"}), Coercion::Lax),
        json!({"t": 7})
    );
    assert_eq!(
        lax(s.clone(), json!({"t": 100})),
        vec![
            "t: must match one of the allowed forms, got 100 (hint: closest form: must be between 5 and 30 N, got 100)"
        ]
    );
    assert_eq!(
        lax(s, json!({"t": "fast"})),
        vec![
            "t: must match one of the allowed forms, got string \"fast\" (hint: closest form: must be a number in N, got string \"fast\")"
        ]
    );
    // The branch of the value's type is the closest form, even if it is not the first.
    let s = json!({"properties": {"t": {"oneOf": [
        {"type": "null"},
        {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}
    ]}}});
    assert_eq!(
        lax(s, json!({"t": {"a": "x"}})),
        vec![
            "t: must match one of the allowed forms, got an object (hint: closest form: must be an integer, got string \"x\"; required field is missing; expected an integer)"
        ]
    );
}

#[test]
fn string_choices_need_no_other_string_branch() {
    let s = json!({"properties": {"v": {"oneOf": [
        {"const": "auto"},
        {"type": "string", "pattern": "^[0-9]+ms$"}
    ]}}});
    assert!(lax(s.clone(), json!({"v": "auto"})).is_empty());
    assert!(lax(s.clone(), json!({"v": "15ms"})).is_empty());
    assert_eq!(
        lax(s, json!({"v": "soon"})),
        vec![
            "v: must match one of the allowed forms, got string \"soon\" (hint: closest form: must match the pattern ^[0-9]+ms$, got string \"soon\")"
        ]
    );
}

#[test]
fn one_of_more_than_one_match() {
    let s = json!({"properties": {"v": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}]}}});
    assert!(lax(s.clone(), json!({"v": -1})).is_empty());
    assert!(lax(s.clone(), json!({"v": 0.5})).is_empty());
    assert_eq!(
        lax(s, json!({"v": 1})),
        vec!["v: matches more than one allowed form"]
    );
}

#[test]
fn coercion_in_failing_branch_does_not_leak() {
    let s = json!({"oneOf": [
        {"properties": {"x": {"type": "integer"}}, "required": ["x", "y"]},
        {"properties": {"x": {"type": "string"}}, "required": ["x"], "additionalProperties": false}
    ]});
    assert_eq!(
        fixed(s.clone(), json!({"x": "5"}), Coercion::Lax),
        json!({"x": "5"})
    );
    assert_eq!(
        fixed(s, json!({"x": "5", "y": 0}), Coercion::Lax),
        json!({"x": 5, "y": 0})
    );
    // anyOf keeps the first passing branch's coercions only.
    let s = json!({"anyOf": [
        {"properties": {"x": {"type": "integer"}, "d": {"default": 1}}, "required": ["x", "y"]},
        {"properties": {"x": {"type": "boolean"}, "e": {"default": 2}}}
    ]});
    assert_eq!(
        fixed(s.clone(), json!({"x": "true"}), Coercion::Lax),
        json!({"x": true, "e": 2})
    );
    assert_eq!(
        fixed(s, json!({"x": "3", "y": 0}), Coercion::Lax),
        json!({"x": 3, "y": 0, "d": 1})
    );
}

#[test]
fn nested_choices_apply_once() {
    // A oneOf inside an anyOf branch: the inner coercion is applied when the outer branch is.
    let s = json!({"anyOf": [
        {"type": "null"},
        {"type": "object", "properties": {"v": {"oneOf": [{"type": "boolean"}, {"type": "integer", "minimum": 10}]}}}
    ]});
    assert_eq!(
        fixed(s.clone(), json!({"v": "12"}), Coercion::Lax),
        json!({"v": 12})
    );
    assert_eq!(
        fixed(s.clone(), json!({"v": "false"}), Coercion::Lax),
        json!({"v": false})
    );
    assert_eq!(
        lax(s, json!({"v": "3"})),
        vec![
            "arguments: must match one of the allowed forms, got an object (hint: closest form: must match one of the allowed forms, got string \"3\")"
        ]
    );
}

#[test]
fn all_of_reports_every_branch() {
    let s = json!({"properties": {"v": {"allOf": [
        {"type": "integer", "minimum": 0},
        {"maximum": 10},
        {"multipleOf": 5}
    ]}}});
    assert!(lax(s.clone(), json!({"v": "5"})).is_empty());
    assert_eq!(
        lax(s, json!({"v": 12})),
        vec![
            "v: must be at most 10, got 12",
            "v: must be a multiple of 5, got 12"
        ]
    );
}

#[test]
fn not_keyword() {
    let s = json!({"properties": {"v": {"type": "string", "not": {"enum": ["root", "admin"]}}}});
    assert!(lax(s.clone(), json!({"v": "bob"})).is_empty());
    assert_eq!(
        one(s, json!({"v": "root"})),
        "v: must not match the excluded form"
    );
}

#[test]
fn boolean_schemas() {
    assert!(lax(json!(true), json!({"anything": [1, 2]})).is_empty());
    assert_eq!(
        lax(json!(false), json!({})),
        vec!["arguments: no value is allowed here"]
    );
    let s = json!({"properties": {"gone": false, "any": true}});
    assert_eq!(
        one(s.clone(), json!({"gone": 1, "any": 2})),
        "gone: no value is allowed here"
    );
    assert!(lax(s, json!({"any": {"deep": [1]}})).is_empty());
}
