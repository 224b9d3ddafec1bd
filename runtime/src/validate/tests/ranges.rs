//! Ranges.

use super::*;

#[test]
fn range_between_with_unit() {
    assert_eq!(
        one(force_schema(), json!({"force": 100})),
        "force: must be between 5 and 30 N, got 100"
    );
    assert_eq!(
        one(force_schema(), json!({"force": 0.5})),
        "force: must be between 5 and 30 N, got 0.5"
    );
    assert_eq!(
        one(force_schema(), json!({"force": -3})),
        "force: must be between 5 and 30 N, got -3"
    );
    assert!(lax(force_schema(), json!({"force": 5})).is_empty());
    assert!(lax(force_schema(), json!({"force": 30.0})).is_empty());
}

#[test]
fn range_one_sided_and_exclusive() {
    let p = |s: Value| json!({"properties": {"v": s}});
    assert_eq!(
        one(p(json!({"minimum": 1})), json!({"v": 0})),
        "v: must be at least 1, got 0"
    );
    assert_eq!(
        one(p(json!({"maximum": 2.5, "x-unit": "m"})), json!({"v": 3})),
        "v: must be at most 2.5 m, got 3"
    );
    assert_eq!(
        one(p(json!({"exclusiveMinimum": 0})), json!({"v": 0})),
        "v: must be greater than 0, got 0"
    );
    assert_eq!(
        one(p(json!({"exclusiveMaximum": 1.0})), json!({"v": 1})),
        "v: must be less than 1, got 1"
    );
    assert_eq!(
        one(
            p(json!({"exclusiveMinimum": 0, "maximum": 10, "x-unit": "s"})),
            json!({"v": 0})
        ),
        "v: must be greater than 0 and at most 10 s, got 0"
    );
    assert_eq!(
        one(
            p(json!({"minimum": 0, "exclusiveMaximum": 10, "x-unit": "s"})),
            json!({"v": 12})
        ),
        "v: must be at least 0 and less than 10 s, got 12"
    );
    assert_eq!(
        one(
            p(json!({"exclusiveMinimum": 0, "exclusiveMaximum": 1})),
            json!({"v": 1})
        ),
        "v: must be greater than 0 and less than 1, got 1"
    );
    // Only one bound fails, but the whole interval is described once.
    assert_eq!(
        one(
            p(json!({"minimum": 30.0, "maximum": 40.0})),
            json!({"v": 0.1})
        ),
        "v: must be between 30 and 40, got 0.1"
    );
    // The tighter of minimum / exclusiveMinimum wins.
    assert_eq!(
        one(
            p(json!({"minimum": 0, "exclusiveMinimum": 0})),
            json!({"v": 0})
        ),
        "v: must be greater than 0, got 0"
    );
    assert_eq!(
        one(
            p(json!({"minimum": 2, "exclusiveMinimum": 0})),
            json!({"v": 1})
        ),
        "v: must be at least 2, got 1"
    );
}

#[test]
fn range_ignores_non_numbers() {
    // Without "type", number keywords only apply to numbers.
    assert!(
        lax(
            json!({"properties": {"v": {"minimum": 5}}}),
            json!({"v": "x"})
        )
        .is_empty()
    );
}

#[test]
fn multiple_of() {
    let p = |s: Value| json!({"properties": {"v": s}});
    assert_eq!(
        one(
            p(json!({"multipleOf": 0.5, "x-unit": "mm"})),
            json!({"v": 0.3})
        ),
        "v: must be a multiple of 0.5 mm, got 0.3"
    );
    assert_eq!(
        one(p(json!({"multipleOf": 3})), json!({"v": 10})),
        "v: must be a multiple of 3, got 10"
    );
    assert!(lax(p(json!({"multipleOf": 0.1})), json!({"v": 0.3})).is_empty());
    assert!(lax(p(json!({"multipleOf": 0.01})), json!({"v": 19.99})).is_empty());
    assert!(lax(p(json!({"multipleOf": 3})), json!({"v": -9})).is_empty());
    assert!(lax(p(json!({"multipleOf": 2.0})), json!({"v": 4})).is_empty());
    assert_eq!(
        one(p(json!({"multipleOf": 1})), json!({"v": 1.0000000001})),
        "v: must be a multiple of 1, got 1.0000000001"
    );
    // A range violation and a multipleOf violation are reported separately.
    assert_eq!(
        lax(p(json!({"maximum": 10, "multipleOf": 4})), json!({"v": 11})),
        vec![
            "v: must be at most 10, got 11",
            "v: must be a multiple of 4, got 11"
        ]
    );
}

#[test]
fn exact_big_integer_bounds() {
    let p = |s: Value| json!({"properties": {"v": s}});
    // u64::MAX maximum: u64::MAX passes, 2^64 as a float does not.
    let s = p(json!({"maximum": u64::MAX}));
    assert!(lax(s.clone(), json!({"v": u64::MAX})).is_empty());
    assert_eq!(
        one(s, json!({"v": 18446744073709551616.0})),
        "v: must be at most 18446744073709551615, got 18446744073709552000"
    );
    // i64::MIN minimum.
    let s = p(json!({"minimum": i64::MIN}));
    assert!(lax(s.clone(), json!({"v": i64::MIN})).is_empty());
    assert_eq!(
        one(s.clone(), json!({"v": -9223372036854777856.0})),
        "v: must be at least -9223372036854775808, got -9223372036854778000"
    );
    assert!(lax(s, json!({"v": -9223372036854775808.0})).is_empty());
    // 2^53 + 1 is not <= 2^53 (an f64 comparison would say it is).
    let s = p(json!({"maximum": 9007199254740992u64}));
    assert_eq!(
        one(s.clone(), json!({"v": 9007199254740993u64})),
        "v: must be at most 9007199254740992, got 9007199254740993"
    );
    assert!(lax(s, json!({"v": 9007199254740992.0})).is_empty());
    // Integer value against a fractional bound.
    let s = p(json!({"maximum": 2.5}));
    assert!(lax(s.clone(), json!({"v": 2})).is_empty());
    assert_eq!(one(s, json!({"v": 3})), "v: must be at most 2.5, got 3");
    // Mixed signs across the u64 / i64 representations.
    let s = p(json!({"minimum": -1, "maximum": u64::MAX}));
    assert!(lax(s.clone(), json!({"v": u64::MAX})).is_empty());
    assert!(lax(s.clone(), json!({"v": -1})).is_empty());
    assert_eq!(
        one(s, json!({"v": i64::MIN})),
        format!("v: must be between -1 and {}, got {}", u64::MAX, i64::MIN)
    );
}

#[test]
fn key_heads_and_short_equality() {
    let text = b"abcdefghijklmnopqrstu";
    for n in 0..=text.len() {
        let key = &text[..n];
        let mut padded = [0u8; 8];
        padded[..n.min(8)].copy_from_slice(&key[..n.min(8)]);
        assert_eq!(key_head(key), u64::from_le_bytes(padded), "{n}");
        assert!(short_eq(key, key));
        for i in 0..n {
            // One byte different anywhere, or one byte shorter: not equal.
            let mut other = key.to_vec();
            other[i] ^= 0x20;
            assert!(!short_eq(key, &other), "{n} {i}");
            assert!(!same_key(key, key_head(key), &other, key_head(&other)) || n == 0);
        }
        if n > 0 {
            assert!(!short_eq(key, &key[..n - 1]));
        }
    }
}

/// Turns every shortcut off, so the general walk decides alone.
fn without_shortcuts(node: &mut Node) {
    node.fast = Fast::default();
    if let Some(o) = &mut node.object {
        for p in &mut o.props {
            without_shortcuts(&mut p.node);
        }
        if let Additional::Schema(n) = &mut o.additional {
            without_shortcuts(n);
        }
    }
    if let Some(a) = &mut node.array {
        a.prefix.iter_mut().for_each(without_shortcuts);
        if let Some(n) = &mut a.items {
            without_shortcuts(n);
        }
    }
    if let Some(c) = &mut node.comp {
        for n in c
            .all_of
            .iter_mut()
            .chain(&mut c.any_of)
            .chain(&mut c.one_of)
        {
            without_shortcuts(n);
        }
        if let Some(n) = &mut c.not {
            without_shortcuts(n);
        }
    }
}

#[test]
fn shortcuts_agree_with_the_general_walk() {
    let point = json!({
        "type": "object",
        "properties": {
            "x": {"type": "number", "minimum": -1, "maximum": 1},
            "y": {"type": "integer"},
            "z": {"type": "integer", "default": 0}
        },
        "required": ["x", "y"],
        "additionalProperties": false
    });
    let schemas = [
        json!({"type": "number", "minimum": -850, "maximum": 850}),
        json!({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 2.5}),
        json!({"type": "integer", "minimum": 0, "maximum": 100}),
        json!({"type": "integer", "maximum": 9007199254740992u64}),
        json!({"type": "integer", "minimum": i64::MIN, "maximum": u64::MAX}),
        json!({"type": ["number", "null"], "maximum": 1e300}),
        json!({"type": "number", "multipleOf": 0.5}),
        json!({"minimum": 1}),
        json!({"type": "string", "enum": ["fast", "safe", 3]}),
        json!({"type": "string", "minLength": 2, "maxLength": 3}),
        json!({"type": "string", "pattern": "^[a-z]+$"}),
        json!({"enum": [1, 2.0, "x", true]}),
        json!({"type": "boolean"}),
        json!({"type": ["boolean", "string"], "maxLength": 1}),
        json!({"const": 5}),
        json!({"type": "number", "not": {"const": 3}}),
        point.clone(),
        json!({"type": "object", "properties": {"p": point, "n": {"type": "integer", "default": 2}}}),
        json!({"type": "array", "items": point, "minItems": 1, "maxItems": 2}),
        json!({"type": "array", "items": {"type": "integer", "maximum": 3}}),
        json!({"type": "array", "items": point, "uniqueItems": true}),
        json!({"type": "object", "properties": {"x": {"type": "number"}}, "additionalProperties": {"type": "string"}}),
        json!({"type": ["object", "null"], "properties": {"x": {"type": "number", "default": 1}}, "required": ["y"]}),
        json!({"type": "object"}),
    ];
    let values = [
        json!(0),
        json!(-850),
        json!(-850.0),
        json!(850.5),
        json!(2.5),
        json!(2),
        json!(3),
        json!(3.0),
        json!(100),
        json!(101),
        json!(-1),
        json!(9007199254740992u64),
        json!(9007199254740993u64),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(1e300),
        json!(1.5),
        json!("fast"),
        json!("3"),
        json!("ab"),
        json!("é"),
        json!("ééé"),
        json!("éééé"),
        json!("abcd"),
        json!("Ab"),
        json!("true"),
        json!(true),
        json!(null),
        json!([1]),
        json!({"x": 1}),
        json!({"x": 1, "y": 2}),
        json!({"x": 1.5, "y": "2", "z": 3}),
        json!({"x": 1, "y": null}),
        json!({"y": 1}),
        json!({"x": 1, "y": 2, "w": 0}),
        json!({"p": {"x": 1, "y": 2}}),
        json!({"p": {"x": 1, "y": 2, "z": 3}, "n": 5}),
        json!({"p": {"x": 1}, "n": 2.0}),
        json!({"p": null}),
        json!([{"x": 1, "y": 2}, {"x": 1, "y": 2, "z": 3}]),
        json!([{"x": 1, "y": 2}, {"x": "1", "y": 2}]),
        json!([{"x": 1, "y": 2}, {"x": 1, "y": 2}, {"x": 1, "y": 2}]),
        json!([1, 2, 3.0]),
        json!([1, 2, 4]),
        json!([]),
        json!({"x": 1, "s": "a", "t": 2}),
    ];
    for schema in &schemas {
        let schema = json!({"properties": {"v": schema}, "required": ["v"]});
        let fast = Validator::compile(&schema).unwrap();
        let mut general = fast.clone();
        without_shortcuts(&mut general.root);
        for value in &values {
            for coercion in [Coercion::Lax, Coercion::Strict] {
                let mut a = json!({ "v": value });
                let mut b = a.clone();
                let ra = fast.validate(&mut a, coercion);
                let rb = general.validate(&mut b, coercion);
                assert_eq!(ra, rb, "{schema} {value} {coercion:?}");
                assert_eq!(a, b, "{schema} {value} {coercion:?}");
            }
        }
    }
}

#[test]
fn cmp_int_float_exact() {
    assert_eq!(
        cmp_int_float(u64::MAX as i128, 18446744073709551616.0),
        Ordering::Less
    );
    assert_eq!(cmp_int_float(3, 2.5), Ordering::Greater);
    assert_eq!(cmp_int_float(-3, -2.5), Ordering::Less);
    assert_eq!(cmp_int_float(2, 2.0), Ordering::Equal);
    assert_eq!(cmp_int_float(0, -0.0), Ordering::Equal);
    assert_eq!(cmp_int_float(i128::MAX, 1e300), Ordering::Less);
    assert_eq!(cmp_int_float(i128::MIN, -1e300), Ordering::Greater);
}

#[test]
fn number_formatting() {
    assert_eq!(fmt_f64(30.0), "30");
    assert_eq!(fmt_f64(0.1), "0.1");
    assert_eq!(fmt_f64(-2.5), "-2.5");
    assert_eq!(fmt_f64(1e300), "1e300");
    assert_eq!(fmt_f64(1.5e-9), "1.5e-9");
    assert_eq!(fmt_number(&Number::from(u64::MAX)), "18446744073709551615");
    assert_eq!(fmt_number(&Number::from(i64::MIN)), "-9223372036854775808");
}
