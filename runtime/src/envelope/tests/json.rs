//! The published form and its inverse.

use serde_json::json;

use super::super::Envelope;
use super::{arm, ball, column, cube, named, open_space, unnamed};

#[test]
fn the_published_form_of_the_arm() {
    assert_eq!(
        arm().to_json(),
        json!({
            "frame": "base_link",
            "unit": "mm",
            "toolRadius": 40,
            "allow": [
                {"name": "reach", "sphere": {"center": [0, 0, 100], "radius": 850}},
                {"name": "table", "box": {"min": [-900, -900, 0], "max": [900, 900, 1000]}}
            ],
            "keepOut": [
                {"name": "camera_mast", "box": {"min": [-100, 350, 0], "max": [100, 450, 950]}},
                {"name": "base", "cylinder": {"center": [0, 0], "radius": 80, "zMin": 0, "zMax": 300}}
            ],
            "maxStep": 600
        })
    );
    // Key order as documented.
    let text = arm().to_json().to_string();
    assert!(
        text.starts_with(r#"{"frame":"base_link","unit":"mm","toolRadius":40,"allow":"#),
        "{text}"
    );
    // No tool radius, no step limit: left out; fractions stay fractions.
    let mut e = open_space(vec![named("k", ball([0.5, -0.25, 1e-3], 0.1))]);
    e.unit = "m".to_owned();
    assert_eq!(
        e.to_json(),
        json!({
            "frame": "world",
            "unit": "m",
            "allow": [{"box": {"min": [-1000, -1000, -1000], "max": [1000, 1000, 1000]}}],
            "keepOut": [{"name": "k", "sphere": {"center": [0.5, -0.25, 0.001], "radius": 0.1}}]
        })
    );
}

#[test]
fn the_published_form_reads_back() {
    let mut e = arm();
    e.allow
        .push(unnamed(column([1.5, -2.25], 900.0, -0.5, 1e6)));
    e.keep_out
        .push(named("x", cube([0.1, 0.2, 0.3], [0.4, 0.5, 0.6])));
    e.max_step = None;
    e.tool_radius = 0.0;
    for envelope in [arm(), e] {
        let back = Envelope::from_json(&envelope.to_json());
        assert_eq!(back.as_ref(), Ok(&envelope));
    }
    // `keepOut` may be left out.
    let e = Envelope::from_json(&json!({
        "frame": "f", "unit": "mm",
        "allow": [{"box": {"min": [0, 0, 0], "max": [1, 1, 1]}}]
    }))
    .unwrap();
    assert!(e.keep_out.is_empty() && e.max_step.is_none() && e.tool_radius == 0.0);
}

#[test]
fn malformed_forms_name_their_json_path() {
    let err = |value: serde_json::Value| Envelope::from_json(&value).unwrap_err();
    assert_eq!(err(json!([1])), "expected an object, found [1]");
    assert_eq!(
        err(json!({"unit": "mm", "allow": [], "keepout": []})),
        "keepout: unknown key; expected one of frame, unit, toolRadius, allow, keepOut, maxStep \
         (did you mean `keepOut`?); missing `frame`"
    );
    assert_eq!(
        err(json!({
            "frame": "f", "unit": "mm",
            "allow": [
                {"box": {"min": [0, 0], "max": [1, 1, 1]}},
                {"name": "s", "sphere": {"center": [0, 0, 0]}, "box": {}},
                {"cylinder": {"center": [0, 0], "radius": "big", "zMin": 0, "zMax": 1, "h": 2}},
                {"name": 3, "sphere": {"center": [0, 0, 0], "radius": 1}},
                {"cone": {}}
            ],
            "keepOut": {"name": "k"},
            "maxStep": "far"
        })),
        "allow[0].box.min: expected an array of 3 numbers, found [0,0]; \
         allow[1]: has both `box` and `sphere`: one solid per shape; \
         allow[2].cylinder.h: unknown key; expected one of center, radius, zMin, zMax; \
         allow[2].cylinder.radius: expected a number, found \"big\"; \
         allow[3].name: expected a string, found 3; \
         allow[4].cone: unknown key; expected one of name, box, sphere, cylinder; \
         allow[4]: expected one of `box`, `sphere` or `cylinder`; \
         keepOut: expected an array of shapes, found {\"name\":\"k\"}; \
         maxStep: expected a number, found \"far\""
    );
    // Well formed, but not a valid envelope.
    assert_eq!(
        err(json!({
            "frame": "f", "unit": "mm", "allow": [],
            "keepOut": [{"sphere": {"center": [0, 0, 0], "radius": 1}}]
        })),
        "allow is empty: an envelope must allow something (a box, sphere or cylinder the \
         tool's centre may be in); keep-out 0 (sphere) has no name: every keep-out needs one \
         (refusals name it)"
    );
    // A long value is cut.
    let long = "x".repeat(500);
    let e = err(json!({"frame": long, "unit": "mm", "allow": [{"box": long}]}));
    assert!(e.len() < 200 && e.contains("… (502 bytes)"), "{e}");
}
