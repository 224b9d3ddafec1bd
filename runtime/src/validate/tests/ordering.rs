//! Ordering.

use super::*;

#[test]
fn all_violations_in_order() {
    let s = json!({
        "type": "object",
        "properties": {
            "arm": {"type": "string", "enum": ["left", "right"]},
            "force": {"type": "number", "minimum": 5, "maximum": 30, "x-unit": "N"},
            "pose": {
                "type": "object",
                "properties": {
                    "x": {"type": "number"},
                    "y": {"type": "number"}
                },
                "required": ["x", "y"]
            },
            "speed": {"type": "number"}
        },
        "required": ["arm", "force", "pose", "speed"],
        "additionalProperties": false
    });
    assert_eq!(
        lax(
            s,
            json!({"arm": "lft", "bogus": 1, "force": 100, "pose": {"x": "a"}, "zzz": 2})
        ),
        vec![
            "arm: must be one of \"left\", \"right\", got \"lft\" (hint: did you mean \"left\"?)",
            "force: must be between 5 and 30 N, got 100",
            "pose.x: must be a number, got string \"a\"",
            "pose.y: required field is missing; expected a number",
            "speed: required argument is missing; expected a number",
            "bogus: unknown argument; allowed: arm, force, pose, speed",
            "zzz: unknown argument; allowed: arm, force, pose, speed",
        ]
    );
}

#[test]
fn unconstrained_values_are_not_walked() {
    // Far deeper than the schema: accepted without walking (no recursion on the document).
    // (Building and dropping such a value recurses, hence the large stack.)
    let run = || {
        let mut deep = json!(1);
        for _ in 0..10_000 {
            deep = Value::Array(vec![deep]);
        }
        let s = json!({"type": "object", "properties": {"payload": {"type": "array"}}});
        assert!(lax(s, json!({"payload": deep})).is_empty());
    };
    let handle = std::thread::Builder::new().stack_size(256 << 20).spawn(run);
    assert!(handle.is_ok_and(|h| h.join().is_ok()));
}

#[test]
fn validator_is_reusable() {
    let v = compile(force_schema());
    for _ in 0..3 {
        assert!(errs(&v, json!({"force": 10}), Coercion::Lax).is_empty());
        assert_eq!(errs(&v, json!({"force": 1}), Coercion::Lax).len(), 1);
    }
}
