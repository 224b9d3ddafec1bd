//! Compile errors.

use super::*;

fn compile_err(schema: Value) -> String {
    match Validator::compile(&schema) {
        Ok(_) => panic!("schema should not compile: {schema}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn compile_rejects_refs() {
    let e = compile_err(
        json!({"properties": {"next": {"$ref": "#/$defs/Node"}}, "$defs": {"Node": {}}}),
    );
    assert!(e.contains("#/properties/next/$ref"), "{e}");
    assert!(
        e.contains("fully inlined") && e.contains("recursive"),
        "{e}"
    );
    let e = compile_err(json!({"$defs": {"A": {"items": {"$ref": "#"}}}}));
    assert!(e.contains("#/$defs/A/items/$ref"), "{e}");
    let e = compile_err(json!({"anyOf": [{}, {"$dynamicRef": "#x"}]}));
    assert!(e.contains("#/anyOf/1/$dynamicRef"), "{e}");
    let e = compile_err(json!({"$recursiveRef": "#"}));
    assert!(e.contains("#/$recursiveRef"), "{e}");
    // A property named "$ref", or "$ref" inside data, is fine.
    compile(
        json!({"properties": {"$ref": {"type": "string"}}, "default": {"$ref": 1}, "const": {"$ref": 2}}),
    );
}

#[test]
fn compile_rejects_bad_keywords() {
    let e = compile_err(json!({"properties": {"a": {"type": "pointer"}}}));
    assert!(
        e.contains("#/properties/a/type") && e.contains("unknown type \"pointer\""),
        "{e}"
    );
    let e = compile_err(json!({"properties": {"a": {"pattern": "(unclosed"}}}));
    assert!(
        e.contains("#/properties/a/pattern") && e.contains("regular expression"),
        "{e}"
    );
    let e = compile_err(json!({"properties": {"a": {"minimum": true}}}));
    assert!(
        e.contains("#/properties/a/minimum") && e.contains("must be a number"),
        "{e}"
    );
    for (schema, at) in [
        (json!({"maxLength": -1}), "#/maxLength"),
        (json!({"minItems": 1.5}), "#/minItems"),
        (json!({"required": "a"}), "#/required"),
        (json!({"required": [1]}), "#/required"),
        (json!({"properties": []}), "#/properties"),
        (json!({"items": [{}]}), "#/items"),
        (json!({"items": 3}), "#/items"),
        (json!({"uniqueItems": 1}), "#/uniqueItems"),
        (json!({"enum": "a"}), "#/enum"),
        (json!({"oneOf": []}), "#/oneOf"),
        (json!({"allOf": {}}), "#/allOf"),
        (json!({"anyOf": [{}, 2]}), "#/anyOf/1"),
        (json!({"not": "x"}), "#/not"),
        (
            json!({"additionalProperties": null}),
            "#/additionalProperties",
        ),
        (json!({"type": ["string", 1]}), "#/type"),
        (json!({"type": []}), "#/type"),
        (json!({"multipleOf": 0}), "#/multipleOf"),
        (json!({"x-unit": 5}), "#/x-unit"),
        (
            json!({"properties": {"a/b": {"prefixItems": [{"type": "x"}]}}}),
            "#/properties/a~1b/prefixItems/0/type",
        ),
        (json!("string"), "#:"),
    ] {
        let e = compile_err(schema.clone());
        assert!(e.contains(at), "{schema}: {e}");
    }
}

#[test]
fn compile_ignores_unknown_keywords() {
    let s = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "t",
        "description": "d",
        "type": "object",
        "properties": {"a": {"type": "integer", "format": "uint8", "examples": [1], "x-whatever": {"$ref": "#"}}},
        "patternProperties": {"^x": {}},
        "unevaluatedProperties": false
    });
    assert!(lax(s, json!({"a": 1, "b": 2})).is_empty());
}

#[test]
fn accepts_equal_numbers_in_exclusive_forms() {
    // Integral float bounds are compared exactly.
    let s = json!({"properties": {"v": {"exclusiveMaximum": 1e20}}});
    assert!(lax(s.clone(), json!({"v": u64::MAX})).is_empty());
    assert_eq!(
        one(s, json!({"v": 1e20})),
        "v: must be less than 100000000000000000000, got 100000000000000000000"
    );
}
