//! Objects.

use super::*;

#[test]
fn object_sizes() {
    let s =
        json!({"properties": {"o": {"type": "object", "minProperties": 1, "maxProperties": 2}}});
    assert_eq!(
        one(s.clone(), json!({"o": {}})),
        "o: must have at least 1 fields, got 0"
    );
    assert_eq!(
        one(s, json!({"o": {"a": 1, "b": 2, "c": 3}})),
        "o: must have at most 2 fields, got 3"
    );
}
