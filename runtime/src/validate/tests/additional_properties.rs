//! Additional properties.

use super::*;

#[test]
fn unknown_properties() {
    let s = json!({
        "type": "object",
        "properties": {
            "force": {"type": "number"},
            "pose": {
                "type": "object",
                "properties": {"pitch": {}, "roll": {}, "yaw": {}},
                "additionalProperties": false
            },
            "width": {"type": "number"}
        },
        "additionalProperties": false
    });
    assert_eq!(
        lax(s.clone(), json!({"forse": 1})),
        vec![
            "forse: unknown argument; allowed: force, pose, width (hint: did you mean \"force\"?)"
        ]
    );
    assert_eq!(
        lax(s.clone(), json!({"Width": 1})),
        vec![
            "Width: unknown argument; allowed: force, pose, width (hint: did you mean \"width\"?)"
        ]
    );
    assert_eq!(
        lax(s.clone(), json!({"speed": 1})),
        vec!["speed: unknown argument; allowed: force, pose, width"]
    );
    assert_eq!(
        lax(s.clone(), json!({"pose": {"a b": 2, "jaw": 1}})),
        vec![
            "pose[\"a b\"]: unknown field; allowed: pitch, roll, yaw",
            "pose.jaw: unknown field; allowed: pitch, roll, yaw (hint: did you mean \"yaw\"?)",
        ]
    );
}

#[test]
fn additional_properties_schema() {
    let s = json!({
        "properties": {"a": {"type": "string"}},
        "additionalProperties": {"type": "integer", "minimum": 0}
    });
    assert!(lax(s.clone(), json!({"a": "x", "b": 1, "c": 2})).is_empty());
    assert_eq!(
        lax(s.clone(), json!({"a": "x", "b": -1, "c": "z"})),
        vec![
            "b: must be at least 0, got -1",
            "c: must be an integer, got string \"z\""
        ]
    );
    // Extra values are coerced too.
    assert_eq!(fixed(s, json!({"b": "4"}), Coercion::Lax), json!({"b": 4}));
}

#[test]
fn required_only_names_are_not_declared() {
    let s = json!({"properties": {"a": {}}, "required": ["b"], "additionalProperties": false});
    assert_eq!(
        lax(s, json!({"b": 1})),
        vec!["b: unknown argument; allowed: a (hint: did you mean \"a\"?)"]
    );
}

#[test]
fn many_properties_use_index() {
    let mut props = Map::new();
    for i in 0..40 {
        props.insert(format!("p{i:02}"), json!({"type": "integer"}));
    }
    let s = json!({"properties": props, "additionalProperties": false});
    let v = compile(s);
    assert!(errs(&v, json!({"p00": 1, "p39": 2}), Coercion::Strict).is_empty());
    let e = errs(&v, json!({"p00": 1, "p40": 2}), Coercion::Strict);
    assert_eq!(e.len(), 1);
    assert!(
        e[0].starts_with("p40: unknown argument; allowed: p00, p01,"),
        "{e:?}"
    );
    assert!(e[0].ends_with("p39 (hint: did you mean \"p00\"?)"), "{e:?}");
}

#[test]
fn many_properties_required_defaults_and_nulls() {
    let mut props = Map::new();
    for i in 0..20 {
        props.insert(format!("p{i:02}"), json!({"type": "integer"}));
    }
    props.insert("p10".into(), json!({"type": "integer", "default": 7}));
    let s = json!({"properties": props, "required": ["p03", "p05"], "additionalProperties": false});
    let v = compile(s);
    assert_eq!(
        errs(&v, json!({"p03": 1, "p04": "x", "zz": 0}), Coercion::Lax),
        vec![
            "p04: must be an integer, got string \"x\"",
            "p05: required argument is missing; expected an integer",
            "zz: unknown argument; allowed: p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, \
             p10, p11, p12, p13, p14, p15, p16, p17, p18, p19",
        ]
    );
    let mut doc = json!({"p03": "1", "p05": 2, "p12": null, "p10": null});
    assert_eq!(v.validate(&mut doc, Coercion::Lax), Ok(()));
    assert_eq!(doc, json!({"p03": 1, "p05": 2, "p10": 7}));
}

#[test]
fn coercion_default_is_lax() {
    assert_eq!(Coercion::default(), Coercion::Lax);
}
