use schemars::JsonSchema;
use schemars::generate::Contract;
use serde_json::json;

use super::property::{describe_enum, describe_unit};
use super::*;

fn info<T: JsonSchema>() -> TypeInfo {
    TypeInfo::of::<T>(false)
}

#[test]
fn integer_formats_become_width_bounds() {
    let mut g = generator(Contract::Deserialize);
    assert_eq!(
        type_schema(&mut g, info::<u8>()).unwrap(),
        json!({"type": "integer", "minimum": 0, "maximum": 255})
    );
    assert_eq!(
        type_schema(&mut g, info::<u64>()).unwrap(),
        json!({"type": "integer", "minimum": 0})
    );
    assert_eq!(
        type_schema(&mut g, info::<i64>()).unwrap(),
        json!({"type": "integer"})
    );
    assert_eq!(
        type_schema(&mut g, info::<f64>()).unwrap(),
        json!({"type": "number"})
    );
    assert_eq!(
        type_schema(&mut g, info::<Vec<i32>>()).unwrap(),
        json!({"type": "array", "items": {"type": "integer", "minimum": i32::MIN, "maximum": i32::MAX}})
    );
}

#[test]
fn declared_range_intersects_the_width() {
    let mut g = generator(Contract::Deserialize);
    let spec = FieldSpec {
        name: "n",
        description: Some("Count."),
        minimum: Some(Bound {
            value: Num::Int(-5),
            exclusive: false,
        }),
        maximum: Some(Bound {
            value: Num::Int(10),
            exclusive: true,
        }),
        ..FieldSpec::default()
    };
    let (s, required) = property_schema(&mut g, &spec, info::<u8>()).unwrap();
    assert!(required);
    assert_eq!(
        s,
        json!({"type": "integer", "minimum": 0, "exclusiveMaximum": 10, "description": "Count."})
    );
}

#[test]
fn unit_goes_into_words_and_x_unit() {
    let mut g = generator(Contract::Deserialize);
    let spec = FieldSpec {
        name: "force",
        description: Some("Grip force."),
        unit: Some(Unit {
            symbol: "N",
            words: "newtons",
        }),
        minimum: Some(Bound {
            value: Num::Float(5.0),
            exclusive: false,
        }),
        maximum: Some(Bound {
            value: Num::Float(30.0),
            exclusive: false,
        }),
        default: Some(|| json!(15.0)),
        ..FieldSpec::default()
    };
    let (s, required) = property_schema(&mut g, &spec, info::<f64>()).unwrap();
    assert!(!required);
    assert_eq!(
        s,
        json!({"type": "number", "description": "Grip force, in newtons (N).", "x-unit": "N",
               "minimum": 5.0, "maximum": 30.0, "default": 15.0})
    );
    assert_eq!(
        describe_unit(
            None,
            Unit {
                symbol: "%",
                words: "percent"
            }
        ),
        "In percent (%)."
    );
}

#[test]
fn enum_meanings_fold_into_the_property_description() {
    let e = unit_enum_schema(
        Some("Strategies."),
        &[
            ("parallel", Some("two-finger jaw.")),
            ("suction", Some("vacuum cup")),
            ("adaptive", None),
        ],
    );
    assert_eq!(
        e,
        json!({"type": "string", "enum": ["parallel", "suction", "adaptive"],
               "description": "parallel: two-finger jaw; suction: vacuum cup"})
    );
    assert_eq!(
        describe_enum(
            "Gripper strategy.",
            "parallel: two-finger jaw; suction: vacuum cup"
        ),
        "Gripper strategy. Options: parallel: two-finger jaw; suction: vacuum cup."
    );
}

#[test]
fn recursive_types_are_refused() {
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Node {
        children: Vec<Node>,
    }
    let mut g = generator(Contract::Deserialize);
    let err = type_schema(&mut g, info::<Node>()).unwrap_err();
    assert!(err.message.contains("refers to itself"), "{err}");
}

/// serde writes an `Option` output field as `null` when it is `None`: it is always there, its
/// schema allows `null`. Only `skip_serializing_if` may leave it out.
#[test]
fn output_options_are_nullable_and_always_present() {
    let mut g = generator(Contract::Serialize);
    let spec = FieldSpec {
        name: "held",
        ..FieldSpec::default()
    };
    let (s, required) = property_schema(&mut g, &spec, TypeInfo::of::<String>(true)).unwrap();
    assert!(required);
    assert_eq!(s, json!({"type": ["string", "null"]}));
    let skipped = FieldSpec {
        skip_serializing_if: true,
        ..spec
    };
    let (s, required) = property_schema(&mut g, &skipped, TypeInfo::of::<String>(true)).unwrap();
    assert!(!required);
    assert_eq!(s, json!({"type": "string"}));
    // An input's `Option` is optional.
    let mut g = generator(Contract::Deserialize);
    let (_, required) = property_schema(&mut g, &spec, TypeInfo::of::<String>(true)).unwrap();
    assert!(!required);
}
