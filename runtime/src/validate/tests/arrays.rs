//! Arrays.

use super::*;

#[test]
fn array_sizes_and_unique() {
    let s = json!({"properties": {"a": {"type": "array", "minItems": 2, "maxItems": 3, "uniqueItems": true}}});
    assert_eq!(
        one(s.clone(), json!({"a": [1]})),
        "a: must have at least 2 items, got 1"
    );
    assert_eq!(
        one(s.clone(), json!({"a": [1, 2, 3, 4]})),
        "a: must have at most 3 items, got 4"
    );
    assert_eq!(
        one(s.clone(), json!({"a": [1, 2, 1.0]})),
        "a: must not contain duplicate items; item 2 repeats item 0"
    );
    assert_eq!(
        one(s.clone(), json!({"a": [{"x": 1}, [1], {"x": 1.0}]})),
        "a: must not contain duplicate items; item 2 repeats item 0"
    );
    assert!(lax(s, json!({"a": [1, "1", true]})).is_empty());
}

#[test]
fn unique_items_large_arrays() {
    let s = json!({"properties": {"a": {"uniqueItems": true}}});
    let mut items: Vec<Value> = (0..200).map(|i| json!(i)).collect();
    assert!(lax(s.clone(), json!({"a": items.clone()})).is_empty());
    items[150] = json!(7.0);
    items[190] = json!(3);
    assert_eq!(
        one(s.clone(), json!({"a": items.clone()})),
        "a: must not contain duplicate items; item 150 repeats item 7"
    );
    let strings: Vec<Value> = (0..100).map(|i| json!(format!("s{}", i % 60))).collect();
    assert_eq!(
        one(s, json!({"a": strings})),
        "a: must not contain duplicate items; item 60 repeats item 0"
    );
}

#[test]
fn items_and_prefix_items() {
    let s = json!({"properties": {"waypoints": {
        "type": "array",
        "items": {"type": "object", "properties": {"z": {"type": "number", "maximum": 2, "x-unit": "m"}}}
    }}});
    assert_eq!(
        lax(s, json!({"waypoints": [{"z": 1}, {"z": 3}, {"z": "x"}]})),
        vec![
            "waypoints[1].z: must be at most 2 m, got 3",
            "waypoints[2].z: must be a number in m, got string \"x\"",
        ]
    );
    let s = json!({"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false});
    assert!(lax(s.clone(), json!(["a", 1])).is_empty());
    assert!(lax(s.clone(), json!(["a"])).is_empty());
    assert_eq!(
        lax(s, json!([1, "x", null])),
        vec![
            "[0]: must be a string, got 1",
            "[1]: must be an integer, got string \"x\"",
            "[2]: no value is allowed here",
        ]
    );
}
