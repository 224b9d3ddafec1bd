//! Strings.

use super::*;

#[test]
fn string_lengths_count_code_points() {
    let s = json!({"properties": {"name": {"type": "string", "minLength": 2, "maxLength": 4}}});
    assert!(lax(s.clone(), json!({"name": "éé"})).is_empty());
    assert!(lax(s.clone(), json!({"name": "日本語"})).is_empty());
    assert!(lax(s.clone(), json!({"name": "🤖🤖🤖🤖"})).is_empty());
    assert_eq!(
        one(s.clone(), json!({"name": "é"})),
        "name: must be at least 2 characters long, got 1"
    );
    assert_eq!(
        one(s, json!({"name": "ééééé"})),
        "name: must be at most 4 characters long, got 5"
    );
}

#[test]
fn string_pattern_is_unanchored() {
    let s = json!({"properties": {"id": {"type": "string", "pattern": "[0-9]{3}"}}});
    assert!(lax(s.clone(), json!({"id": "ab123cd"})).is_empty());
    assert_eq!(
        one(s, json!({"id": "ab12"})),
        "id: must match the pattern [0-9]{3}, got string \"ab12\""
    );
    let s = json!({"properties": {"id": {"pattern": "^[a-z]+$"}}});
    assert_eq!(
        one(s, json!({"id": "Abc"})),
        "id: must match the pattern ^[a-z]+$, got string \"Abc\""
    );
}
