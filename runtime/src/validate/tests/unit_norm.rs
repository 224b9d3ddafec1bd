//! `x-toolwright-unit-norm`: objects whose number properties must have unit norm (quaternions).

use super::*;

fn pose() -> Value {
    json!({
        "type": "object",
        "properties": {
            "rotation": {
                "type": "object",
                "properties": {
                    "x": {"type": "number"}, "y": {"type": "number"},
                    "z": {"type": "number"}, "w": {"type": "number"},
                },
                "required": ["x", "y", "z", "w"],
                "additionalProperties": false,
                "x-toolwright-unit-norm": 1e-3,
            }
        }
    })
}

#[test]
fn a_non_unit_quaternion_is_refused_with_its_norm() {
    assert_eq!(
        one(
            pose(),
            json!({"rotation": {"x": 1, "y": 1, "z": 0, "w": 0}})
        ),
        "rotation: must have unit norm (x² + y² + z² + w² = 1), got norm 1.4142 \
         (hint: divide each component by 1.4142)"
    );
    assert_eq!(
        one(
            pose(),
            json!({"rotation": {"x": 0, "y": 0, "z": 0, "w": 0}})
        ),
        "rotation: must have unit norm (x² + y² + z² + w² = 1), got norm 0"
    );
    assert_eq!(
        one(
            pose(),
            json!({"rotation": {"x": 0, "y": 0, "z": 0, "w": 2}})
        ),
        "rotation: must have unit norm (x² + y² + z² + w² = 1), got norm 2 \
         (hint: divide each component by 2)"
    );
}

#[test]
fn a_quaternion_within_the_tolerance_passes() {
    assert!(
        lax(
            pose(),
            json!({"rotation": {"x": 0, "y": 0, "z": 0, "w": 1}})
        )
        .is_empty()
    );
    assert!(
        lax(
            pose(),
            json!({"rotation": {"x": 0, "y": 0, "z": 0, "w": 1.0009}})
        )
        .is_empty()
    );
    assert!(
        strict(
            pose(),
            json!({"rotation": {"x": 0.5, "y": 0.5, "z": 0.5, "w": 0.5}})
        )
        .is_empty()
    );
    assert_eq!(
        lax(
            pose(),
            json!({"rotation": {"x": 0, "y": 0, "z": 0, "w": 1.0011}})
        )
        .len(),
        1
    );
}

#[test]
fn other_problems_are_reported_first() {
    assert_eq!(
        one(pose(), json!({"rotation": {"x": 0, "y": 0, "z": 0}})),
        "rotation.w: required field is missing; expected a number"
    );
}

#[test]
fn a_bad_tolerance_is_a_schema_error() {
    let schema = json!({"type": "object", "x-toolwright-unit-norm": "tight"});
    let err = Validator::compile(&schema).unwrap_err().to_string();
    assert!(err.contains("x-toolwright-unit-norm"), "{err}");
}
