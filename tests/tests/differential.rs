//! The published schema and the enforced checks agree.
//!
//! For every tool, argument documents are generated around each constraint of its published
//! `inputSchema` (in range, exactly at each bound, just outside, wrong JSON types, missing and extra
//! properties, nested violations, enum values and near misses, array lengths around the limits,
//! `null` for optional properties, numeric strings, integral floats). Each document gets two
//! verdicts that must be equal:
//!
//! - toolwright's: the run-time [`Validator`] compiled from the published schema, in
//!   [`Coercion::Lax`] and in [`Coercion::Strict`] mode;
//! - the reference: the `jsonschema` crate's draft 2020-12 validator on the same published schema,
//!   applied (for lax mode) after the documented lax coercions, implemented here independently by
//!   [`reference_coerce`], or (for strict mode) to the document as sent.
//!
//! Documents come from a deterministic sweep (one change at a time to a valid document, over every
//! edge value of every property) and from proptest strategies derived from the schema (several
//! changes at once). `TOOLWRIGHT_DIFF_CASES` (random documents per tool, default 2,500) and
//! `TOOLWRIGHT_DIFF_SEED` (a number; default fixed) widen the search for exploratory runs.

mod common;

use common::env_number;

use std::cell::Cell;
use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value, json};
use toolwright::__private::{Coercion, Validator};
use toolwright::{ToolSchema, Toolbox, toolbox};
use toolwright_examples::robot_arm::{RobotArm, SimConfig};

// ---------------------------------------------------------------------------------------------
// Subjects
// ---------------------------------------------------------------------------------------------

/// One tool's published input schema, compiled both ways.
struct Subject {
    name: String,
    schema: Value,
    ours: Validator,
    reference: jsonschema::Validator,
}

impl Subject {
    fn new(name: &str, schema: Value) -> Subject {
        jsonschema::meta::validate(&schema)
            .unwrap_or_else(|e| panic!("{name}: the published schema is not valid: {e}"));
        Subject {
            name: name.to_owned(),
            ours: Validator::compile(&schema).expect("toolwright compiles its own schema"),
            reference: jsonschema::draft202012::new(&schema).expect("the reference compiles it"),
            schema,
        }
    }
}

fn subjects_of<S: Send + Sync + 'static>(toolbox: &Toolbox<S>) -> Vec<Subject> {
    toolbox
        .tools()
        .iter()
        .map(|t| Subject::new(&t.name, Value::Object(t.input_schema.as_ref().clone())))
        .collect()
}

fn robot_arm_subjects() -> Vec<Subject> {
    subjects_of(&Toolbox::new(RobotArm::new(SimConfig {
        time_scale: 0.0,
        seed: 1,
        ..SimConfig::default()
    })))
}

/// Keywords the robot arm does not use: integers of several widths, string lengths and patterns,
/// an exclusive bound, booleans, optional arrays of strings, a string map, a tagged enum.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
struct Sample {
    /// Sample label.
    #[param(min_length = 1, max_length = 8, pattern = "^[a-z_]+$")]
    label: String,
    /// Readings.
    #[param(unit = "V", range = -10.0..=10.0)]
    volts: Vec<f64>,
    /// Fraction of full scale.
    #[param(range = 0.0..1.0)]
    ratio: Option<f64>,
}

/// Where to store a sample.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Store {
    /// In memory.
    Memory {
        /// Slot number.
        #[param(range = 0..=15)]
        slot: u8,
    },
    /// On disk.
    File {
        /// File name.
        #[param(min_length = 1, max_length = 12)]
        name: String,
    },
}

/// The state of the extra tools (unused: only their schemas matter here).
struct Lab;

#[toolbox]
impl Lab {
    /// Record a sample.
    #[tool(allow(many_params))]
    fn record(
        &self,
        /// The sample.
        sample: Sample,
        /// How many copies to keep.
        #[param(range = 1..=5, default = 1)]
        copies: u8,
        /// Log the sample too.
        verbose: Option<bool>,
        /// Sequence number.
        sequence: Option<i64>,
        /// Byte counter.
        counter: Option<u64>,
        /// Tags.
        #[param(min_items = 1, max_items = 3)]
        tags: Option<Vec<String>>,
    ) -> usize {
        let _ = (sample, verbose, sequence, counter, tags);
        usize::from(copies)
    }

    /// Store a sample.
    #[tool]
    fn store(
        &self,
        /// Where.
        target: Store,
        /// Extra metadata.
        metadata: Option<BTreeMap<String, String>>,
        /// Retries.
        #[param(range = 0..=3)]
        retries: Option<i32>,
    ) -> usize {
        let _ = (target, metadata, retries);
        0
    }
}

// ---------------------------------------------------------------------------------------------
// The reference coercion (independent of toolwright's)
// ---------------------------------------------------------------------------------------------

/// The JSON types a schema allows (empty: no `type` keyword).
fn types_of(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn type_allowed(types: &[&str], v: &Value) -> bool {
    if types.is_empty() {
        return true;
    }
    match v {
        Value::Number(n) => {
            types.contains(&"number")
                || (types.contains(&"integer")
                    && (n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)))
        }
        other => types.contains(&json_type(other)),
    }
}

/// Exactly the JSON number grammar (RFC 8259), no whitespace.
fn is_json_number_literal(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == b.len()
}

/// An integral float as an integer, when it fits in i64 or u64.
fn integral_to_int(f: f64) -> Option<Number> {
    if !f.is_finite() || f.fract() != 0.0 {
        return None;
    }
    if (0.0..18_446_744_073_709_551_616.0).contains(&f) {
        Some(Number::from(f as u64))
    } else if (-9_223_372_036_854_775_808.0..0.0).contains(&f) {
        Some(Number::from(f as i64))
    } else {
        None
    }
}

/// The documented lax coercions, driven by the schema: numeric strings become numbers where a
/// number or integer is expected, integral floats become integers where an integer is expected,
/// "true"/"false" become booleans where a boolean is expected, and `null` for a property that is
/// not required (and whose schema does not accept `null`) is dropped. Only values of a type the
/// schema does not allow are coerced.
fn reference_coerce(schema: &Value, value: &mut Value) {
    let types = types_of(schema);
    let numeric = types.contains(&"number") || types.contains(&"integer");
    let integer_only = types.contains(&"integer") && !types.contains(&"number");
    if !type_allowed(&types, value)
        && let Value::String(s) = &*value
    {
        let s = s.as_str();
        if numeric && is_json_number_literal(s) {
            // A literal that overflows f64 (1e400) is not a number serde_json can hold.
            if let Ok(Value::Number(n)) = serde_json::from_str::<Value>(s) {
                *value = Value::Number(n);
            }
        } else if types.contains(&"boolean") && (s == "true" || s == "false") {
            *value = Value::Bool(s == "true");
        }
    }
    if integer_only
        && let Value::Number(n) = &*value
        && n.is_f64()
        && let Some(i) = n.as_f64().and_then(integral_to_int)
    {
        *value = Value::Number(i);
    }
    match value {
        Value::Object(map) => {
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if let Some(Value::Object(props)) = schema.get("properties") {
                for (name, sub) in props {
                    let drop = match map.get(name) {
                        Some(Value::Null) => {
                            !required.contains(&name.as_str())
                                && !jsonschema::draft202012::is_valid(sub, &Value::Null)
                        }
                        _ => false,
                    };
                    if drop {
                        map.remove(name);
                    } else if let Some(v) = map.get_mut(name) {
                        reference_coerce(sub, v);
                    }
                }
            }
            if let Some(extra @ Value::Object(_)) = schema.get("additionalProperties") {
                let declared: Vec<String> = schema
                    .get("properties")
                    .and_then(Value::as_object)
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default();
                for (k, v) in map.iter_mut() {
                    if !declared.contains(k) {
                        reference_coerce(extra, v);
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.get("items") {
                for v in items {
                    reference_coerce(item, v);
                }
            }
        }
        _ => {}
    }
    // A `oneOf`/`anyOf` of objects tagged by a constant: coerce along the branch the tag names.
    for key in ["oneOf", "anyOf"] {
        if let Some(Value::Array(branches)) = schema.get(key)
            && let Value::Object(map) = &*value
        {
            let picked = branches.iter().find(|b| {
                b.get("properties")
                    .and_then(Value::as_object)
                    .is_some_and(|props| {
                        props
                            .iter()
                            .any(|(k, p)| p.get("const").is_some_and(|c| map.get(k) == Some(c)))
                    })
            });
            if let Some(branch) = picked {
                reference_coerce(branch, value);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Verdicts
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    documents: usize,
    lax_accepted: usize,
    strict_accepted: usize,
    /// Accepted only thanks to a coercion.
    coerced: usize,
}

/// Both verdicts in both modes; `Err` describes a disagreement.
fn compare(subject: &Subject, doc: &Value, tally: &mut Tally) -> Result<(), String> {
    let mut ours_doc = doc.clone();
    let ours_lax = subject.ours.validate(&mut ours_doc, Coercion::Lax);
    let mut coerced = doc.clone();
    reference_coerce(&subject.schema, &mut coerced);
    let ref_lax = subject.reference.is_valid(&coerced);

    let mut strict_doc = doc.clone();
    let ours_strict = subject.ours.validate(&mut strict_doc, Coercion::Strict);
    let ref_strict = subject.reference.is_valid(doc);

    tally.documents += 1;
    tally.lax_accepted += usize::from(ours_lax.is_ok());
    tally.strict_accepted += usize::from(ours_strict.is_ok());
    tally.coerced += usize::from(ours_lax.is_ok() && ours_strict.is_err());

    let mut problems = Vec::new();
    if ours_lax.is_ok() != ref_lax {
        let why = match &ours_lax {
            Ok(()) => format!(
                "toolwright accepts, the reference refuses the coerced document {coerced}: {:?}",
                subject
                    .reference
                    .iter_errors(&coerced)
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
            ),
            Err(v) => format!(
                "toolwright refuses ({v:?}), the reference accepts the coerced document {coerced}"
            ),
        };
        problems.push(format!("lax: {why}"));
    }
    if ours_strict.is_ok() != ref_strict {
        let why = match &ours_strict {
            Ok(()) => format!(
                "toolwright accepts, the reference refuses: {:?}",
                subject
                    .reference
                    .iter_errors(doc)
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
            ),
            Err(v) => format!("toolwright refuses ({v:?}), the reference accepts"),
        };
        problems.push(format!("strict: {why}"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "tool `{}`, document {doc}:\n  {}",
            subject.name,
            problems.join("\n  ")
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// Edge values, from the schema
// ---------------------------------------------------------------------------------------------

fn num(f: f64) -> Value {
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}

fn bound(schema: &Value, key: &str) -> Option<f64> {
    schema.get(key).and_then(Value::as_f64)
}

/// Values of the wrong JSON type for anything.
fn wrong_types() -> Vec<Value> {
    vec![
        Value::Null,
        json!(true),
        json!(false),
        json!([]),
        json!([15]),
        json!({}),
        json!({"value": 15}),
        json!("true"),
        json!(""),
        json!(0),
    ]
}

/// Strings that look like numbers but are not exactly a JSON number.
fn non_numeric_strings() -> Vec<Value> {
    [
        "15N",
        " 15",
        "15 ",
        "abc",
        "0x10",
        "+5",
        ".5",
        "5.",
        "01",
        "-",
        "1e",
        "1e400",
        "-1e400",
        "NaN",
        "Infinity",
        "-Infinity",
        "1_000",
        "1,5",
        "\u{ff11}\u{ff15}",
        "\u{663}",
        "15\u{200d}",
        "1 5",
        "--1",
        "15mm",
        "0.5.1",
    ]
    .into_iter()
    .map(Value::from)
    .collect()
}

fn number_edges(schema: &Value) -> Vec<Value> {
    let integer_only = types_of(schema) == ["integer"];
    let mut xs: Vec<f64> = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        2.5,
        1e-9,
        1e15,
        9_007_199_254_740_992.0,
        9_223_372_036_854_775_808.0,
        -9_223_372_036_854_775_808.0,
        18_446_744_073_709_551_616.0,
        1e20,
        1e308,
        -1e308,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
    ];
    let mut bounds = Vec::new();
    for key in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
        if let Some(b) = bound(schema, key) {
            bounds.push(b);
        }
    }
    for &b in &bounds {
        xs.extend([
            b,
            b.next_up(),
            b.next_down(),
            b + 1e-9,
            b - 1e-9,
            b + 0.001,
            b - 0.001,
            b + 0.5,
            b - 0.5,
            b + 1.0,
            b - 1.0,
            b * 2.0,
            b / 2.0,
            -b,
        ]);
    }
    if let [lo, hi] = bounds[..] {
        xs.push((lo + hi) / 2.0);
    }
    let mut out: Vec<Value> = Vec::new();
    for &x in &xs {
        if !x.is_finite() {
            continue;
        }
        out.push(num(x));
        if let Some(i) = integral_to_int(x) {
            out.push(Value::Number(i));
        }
    }
    out.extend([
        json!(i64::MIN),
        json!(i64::MAX),
        json!(u64::MAX),
        json!(i64::MIN + 1),
        json!(i64::MAX - 1),
    ]);
    // Numeric strings, coercible in lax mode: the JSON form of some of the numbers above, and
    // other spellings of JSON numbers.
    let mut strings: Vec<Value> = out
        .iter()
        .step_by(2)
        .map(|v| Value::from(v.to_string()))
        .collect();
    for s in [
        "15",
        "15.0",
        "-0",
        "0",
        "1e1",
        "1E1",
        "1e+1",
        "-2.5e-1",
        "3.0",
        "3.5",
        "100000000000000000000",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "1e308",
        "0.1",
    ] {
        strings.push(Value::from(s));
    }
    out.extend(strings);
    out.extend(non_numeric_strings());
    if integer_only {
        out.extend([
            json!(3.0),
            json!(-3.0),
            json!(0.0),
            json!(2.000001),
            json!(1e20),
        ]);
    }
    out.extend(wrong_types());
    out
}

fn bool_edges() -> Vec<Value> {
    let mut out = vec![
        json!(true),
        json!(false),
        json!("true"),
        json!("false"),
        json!("True"),
        json!("FALSE"),
        json!("1"),
        json!("0"),
        json!("yes"),
        json!(" true"),
        json!(1),
        json!(0),
    ];
    out.extend(wrong_types());
    out
}

/// Near misses of an enum value: case, spaces, look-alikes, invisible characters, truncation.
fn near_misses(s: &str) -> Vec<String> {
    let mut out = vec![
        s.to_uppercase(),
        format!("{s} "),
        format!(" {s}"),
        format!("{s}\u{200b}"),
        format!("{s}\u{0}"),
        s.chars().rev().collect(),
        s.replace('_', "-"),
        s.replace('_', " "),
    ];
    let mut chars = s.chars();
    if let Some(first) = chars.next() {
        out.push(first.to_uppercase().chain(chars.clone()).collect());
        out.push(chars.collect());
    }
    if s.len() > 1 {
        let mid = s
            .char_indices()
            .nth(s.chars().count() / 2)
            .map_or(0, |(i, _)| i);
        out.push(format!("{}\u{200d}{}", &s[..mid], &s[mid..]));
        out.push(s[..s.len() - 1].to_owned());
    }
    // Cyrillic look-alikes.
    for (latin, cyrillic) in [
        ('a', 'а'),
        ('e', 'е'),
        ('o', 'о'),
        ('c', 'с'),
        ('p', 'р'),
        ('x', 'х'),
    ] {
        if s.contains(latin) {
            out.push(s.replacen(latin, &cyrillic.to_string(), 1));
        }
    }
    // Fullwidth letters.
    out.push(
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    char::from_u32(c as u32 - 0x21 + 0xff01).unwrap_or(c)
                } else {
                    c
                }
            })
            .collect(),
    );
    out.retain(|m| m != s);
    out
}

fn enum_edges(values: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = values.to_vec();
    for v in values {
        if let Some(s) = v.as_str() {
            out.extend(near_misses(s).into_iter().map(Value::from));
            out.push(json!([s]));
            out.push(json!({ s: true }));
        }
    }
    out.extend(wrong_types());
    out
}

fn string_edges(schema: &Value) -> Vec<Value> {
    let min = schema.get("minLength").and_then(Value::as_u64);
    let max = schema.get("maxLength").and_then(Value::as_u64);
    let mut lengths = vec![0u64, 1, 2, 5, 40];
    for b in [min, max].into_iter().flatten() {
        lengths.extend([b.saturating_sub(1), b, b + 1]);
    }
    let mut out = Vec::new();
    for n in lengths {
        let n = n as usize;
        out.push(Value::from("a".repeat(n)));
        out.push(Value::from("é".repeat(n)));
        out.push(Value::from("🦀".repeat(n)));
        out.push(Value::from("A_".repeat(n / 2 + 1)));
        out.push(Value::from(
            "x_".repeat(n).chars().take(n).collect::<String>(),
        ));
    }
    for s in [
        "probe",
        "a b",
        "a\nb",
        "abc\n",
        "\nabc",
        "snake_case",
        "CamelCase",
        "tab\t",
        "ß",
        "\u{0}",
    ] {
        out.push(Value::from(s));
    }
    out.extend([json!(15), json!(1.5)]);
    out.extend(wrong_types());
    out
}

/// Every candidate value of a leaf schema (number, integer, boolean, string, enum, const).
fn leaf_edges(schema: &Value) -> Vec<Value> {
    if let Some(Value::Array(values)) = schema.get("enum") {
        return enum_edges(values);
    }
    if let Some(c) = schema.get("const") {
        let mut out = vec![c.clone()];
        if let Some(s) = c.as_str() {
            out.extend(near_misses(s).into_iter().map(Value::from));
        }
        out.extend(wrong_types());
        return out;
    }
    let types = types_of(schema);
    if types.contains(&"number") || types.contains(&"integer") {
        number_edges(schema)
    } else if types.contains(&"boolean") {
        bool_edges()
    } else if types.contains(&"string") {
        string_edges(schema)
    } else {
        wrong_types()
    }
}

fn extra_names(schema: &Value) -> Vec<String> {
    let mut out = vec![
        "extra".to_owned(),
        String::new(),
        "$ref".to_owned(),
        "__proto__".to_owned(),
        "a b".to_owned(),
    ];
    if let Some(Value::Object(props)) = schema.get("properties") {
        for name in props.keys().take(3) {
            out.push(name.to_uppercase());
            out.push(format!("{name} "));
            out.push(format!("{name}\u{200b}"));
            if name.len() > 1 {
                out.push(name[..name.len() - 1].to_owned());
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Valid documents, and one-change variants of them
// ---------------------------------------------------------------------------------------------

fn is_object_schema(schema: &Value) -> bool {
    types_of(schema) == ["object"] || schema.get("properties").is_some()
}

/// A document the reference accepts as sent, built from the schema.
fn valid_example(schema: &Value) -> Value {
    if let Some(Value::Array(branches)) = schema.get("oneOf").or(schema.get("anyOf")) {
        return valid_example(&branches[0]);
    }
    if let Some(c) = schema.get("const") {
        return c.clone();
    }
    if let Some(Value::Array(values)) = schema.get("enum") {
        return values[0].clone();
    }
    if is_object_schema(schema) {
        let mut map = Map::new();
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(Value::Object(props)) = schema.get("properties") {
            for (name, sub) in props {
                if required.contains(&name.as_str()) {
                    map.insert(name.clone(), valid_example(sub));
                }
            }
        }
        return Value::Object(map);
    }
    let types = types_of(schema);
    if types.contains(&"array") {
        let n = schema
            .get("minItems")
            .and_then(Value::as_u64)
            .unwrap_or(1)
            .max(1);
        let item = schema.get("items").cloned().unwrap_or(json!({}));
        return Value::Array((0..n).map(|_| valid_example(&item)).collect());
    }
    // A leaf: the first edge value that is valid as sent.
    let validator = jsonschema::draft202012::new(schema).expect("leaf schema compiles");
    leaf_edges(schema)
        .into_iter()
        .find(|v| validator.is_valid(v))
        .unwrap_or_else(|| panic!("no valid example for {schema}"))
}

/// Documents that differ from `value` (valid for `schema`) in exactly one place.
fn variants(schema: &Value, value: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    if let Some(Value::Array(branches)) = schema.get("oneOf").or(schema.get("anyOf")) {
        for b in branches {
            let base = valid_example(b);
            out.push(base.clone());
            out.extend(variants(b, &base));
        }
        out.extend(wrong_types());
        return out;
    }
    match value {
        Value::Object(map) if is_object_schema(schema) => {
            let props = schema
                .get("properties")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            for (name, sub) in &props {
                let with = |v: Value| {
                    let mut m = map.clone();
                    m.insert(name.clone(), v);
                    Value::Object(m)
                };
                match map.get(name) {
                    Some(current) => {
                        for v in variants(sub, current) {
                            out.push(with(v));
                        }
                        let mut m = map.clone();
                        m.remove(name);
                        out.push(Value::Object(m));
                    }
                    None => {
                        let base = valid_example(sub);
                        out.push(with(base.clone()));
                        for v in variants(sub, &base) {
                            out.push(with(v));
                        }
                    }
                }
                out.push(with(Value::Null));
            }
            let extra_schema = schema.get("additionalProperties").filter(|s| s.is_object());
            for name in extra_names(schema) {
                if props.contains_key(&name) {
                    continue;
                }
                let values = match extra_schema {
                    Some(s) => leaf_edges(s),
                    None => vec![json!(1)],
                };
                for v in values {
                    let mut m = map.clone();
                    m.insert(name.clone(), v);
                    out.push(Value::Object(m));
                }
            }
            if !matches!(
                schema.get("additionalProperties"),
                Some(Value::Bool(false)) | None
            ) {
                // Several extra entries at once.
                let mut m = map.clone();
                m.insert("k1".into(), json!("v"));
                m.insert("k2".into(), json!(2));
                out.push(Value::Object(m));
            }
        }
        Value::Array(items) if types_of(schema).contains(&"array") => {
            let item_schema = schema.get("items").cloned().unwrap_or(json!({}));
            let n = items.len();
            for i in [0, n.saturating_sub(1)] {
                if i < n {
                    for v in variants(&item_schema, &items[i]) {
                        let mut a = items.clone();
                        a[i] = v;
                        out.push(Value::Array(a));
                    }
                }
            }
            let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
            let max = schema
                .get("maxItems")
                .and_then(Value::as_u64)
                .map(|m| m as usize);
            let fill = items
                .first()
                .cloned()
                .unwrap_or_else(|| valid_example(&item_schema));
            let mut lengths = vec![0, 1, min.saturating_sub(1), min, min + 1];
            if let Some(max) = max {
                lengths.extend([max.saturating_sub(1), max, max + 1]);
            }
            for len in lengths {
                out.push(Value::Array(vec![fill.clone(); len]));
            }
            out.push(Value::Array(vec![Value::Null; min.max(1)]));
            out.extend(wrong_types());
        }
        _ => out.extend(leaf_edges(schema)),
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Random documents: proptest strategies derived from the schema
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
enum Presence {
    Absent,
    Null,
    Present(Value),
}

fn any_leaf(schema: &Value) -> BoxedStrategy<Value> {
    let edges = leaf_edges(schema);
    let types = types_of(schema);
    let lo = bound(schema, "minimum").or(bound(schema, "exclusiveMinimum"));
    let hi = bound(schema, "maximum").or(bound(schema, "exclusiveMaximum"));
    let in_range: BoxedStrategy<Value> =
        if schema.get("enum").is_some() || schema.get("const").is_some() {
            select(edges.clone()).boxed()
        } else if types.contains(&"integer") {
            let lo = lo.unwrap_or(-1e6).max(-1e18) as i64;
            let hi = hi.unwrap_or(1e6).min(1e18) as i64;
            prop_oneof![
                (lo - 2..=hi + 2).prop_map(Value::from),
                (lo - 2..=hi + 2).prop_map(|i| num(i as f64)),
                (lo - 2..=hi + 2).prop_map(|i| Value::from(i.to_string())),
            ]
            .boxed()
        } else if types.contains(&"number") {
            let lo = lo.unwrap_or(-1e6);
            let hi = hi.unwrap_or(1e6);
            let margin = (hi - lo) * 0.05;
            prop_oneof![
                4 => (lo..=hi).prop_map(num),
                2 => ((lo - margin)..=(hi + margin)).prop_map(num),
                1 => (lo as i64 - 1..=hi as i64 + 1).prop_map(Value::from),
                1 => (lo..=hi).prop_map(|f| Value::from(num(f).to_string())),
            ]
            .boxed()
        } else if types.contains(&"boolean") {
            any::<bool>().prop_map(Value::from).boxed()
        } else if types.contains(&"string") {
            let pattern = schema
                .get("pattern")
                .and_then(Value::as_str)
                .unwrap_or(".{0,12}");
            let pattern = pattern.trim_start_matches('^').trim_end_matches('$');
            prop_oneof![
                proptest::string::string_regex(pattern)
                    .expect("pattern is a valid regex")
                    .prop_map(Value::from),
                ".{0,12}".prop_map(Value::from),
            ]
            .boxed()
        } else {
            select(wrong_types()).boxed()
        };
    prop_oneof![7 => in_range, 3 => select(edges)].boxed()
}

fn any_value(schema: &Value) -> BoxedStrategy<Value> {
    if let Some(Value::Array(branches)) = schema.get("oneOf").or(schema.get("anyOf")) {
        let mut options: Vec<BoxedStrategy<Value>> = branches.iter().map(any_value).collect();
        options.push(select(wrong_types()).boxed());
        return proptest::strategy::Union::new(options).boxed();
    }
    if is_object_schema(schema) {
        return any_object(schema);
    }
    if types_of(schema).contains(&"array") {
        let item = any_value(&schema.get("items").cloned().unwrap_or(json!({})));
        let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = schema
            .get("maxItems")
            .and_then(Value::as_u64)
            .map(|m| m as usize);
        let mut options = vec![
            (
                6,
                proptest::collection::vec(item.clone(), min..=min + 3)
                    .prop_map(Value::Array)
                    .boxed(),
            ),
            (
                1,
                proptest::collection::vec(item.clone(), 0..=min.max(1))
                    .prop_map(Value::Array)
                    .boxed(),
            ),
            (1, select(wrong_types()).boxed()),
        ];
        if let Some(max) = max {
            options.push((
                1,
                proptest::collection::vec(item, max.saturating_sub(1)..=max + 1)
                    .prop_map(Value::Array)
                    .boxed(),
            ));
        }
        return proptest::strategy::Union::new_weighted(options).boxed();
    }
    any_leaf(schema)
}

fn any_object(schema: &Value) -> BoxedStrategy<Value> {
    let props = schema
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let required: Vec<String> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let fields: Vec<BoxedStrategy<(String, Presence)>> = props
        .iter()
        .map(|(name, sub)| {
            let (present, absent, null) = if required.contains(name) {
                (38, 1, 1)
            } else {
                (10, 8, 2)
            };
            let name = name.clone();
            prop_oneof![
                present => any_value(sub).prop_map(Presence::Present),
                absent => Just(Presence::Absent),
                null => Just(Presence::Null),
            ]
            .prop_map(move |p| (name.clone(), p))
            .boxed()
        })
        .collect();
    let extra_value = match schema.get("additionalProperties") {
        Some(s @ Value::Object(_)) => any_value(s),
        _ => select(vec![json!(1), json!("x"), Value::Null, json!({})]).boxed(),
    };
    let extras = prop_oneof![
        8 => Just(Vec::new()),
        2 => proptest::collection::vec((select(extra_names(schema)), extra_value), 1..=2),
    ];
    (fields, extras)
        .prop_map(|(fields, extras)| {
            let mut map = Map::new();
            for (name, p) in fields {
                match p {
                    Presence::Absent => {}
                    Presence::Null => {
                        map.insert(name, Value::Null);
                    }
                    Presence::Present(v) => {
                        map.insert(name, v);
                    }
                }
            }
            for (name, v) in extras {
                map.entry(name).or_insert(v);
            }
            Value::Object(map)
        })
        .boxed()
}

// ---------------------------------------------------------------------------------------------
// The runs
// ---------------------------------------------------------------------------------------------

/// Checks one subject: the sweep, then `cases` random documents. Returns the tally, or the
/// disagreements (proptest's shrunk, minimal document for the random part).
fn check_subject(subject: &Subject, cases: u32, seed: u64) -> Result<Tally, Vec<String>> {
    let mut tally = Tally::default();
    let mut disagreements = Vec::new();

    let base = valid_example(&subject.schema);
    assert!(
        subject.reference.is_valid(&base),
        "{}: the base document {base} is valid",
        subject.name
    );
    let mut sweep = vec![base.clone()];
    sweep.extend(variants(&subject.schema, &base));
    for doc in &sweep {
        if let Err(e) = compare(subject, doc, &mut tally) {
            disagreements.push(format!("sweep: {e}"));
        }
    }

    let strategy = any_object(&subject.schema);
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    seed_bytes[8..16].copy_from_slice(&(subject.name.len() as u64).to_le_bytes());
    for (i, b) in subject.name.bytes().enumerate() {
        seed_bytes[16 + i % 16] ^= b;
    }
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 20_000,
        ..Config::default()
    };
    let mut runner = TestRunner::new_with_rng(
        config,
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
    );
    let random = Cell::new(Tally::default());
    let result = runner.run(&strategy, |doc| {
        let mut t = random.get();
        let r = compare(subject, &doc, &mut t);
        random.set(t);
        r.map_err(TestCaseError::fail)
    });
    match result {
        Ok(()) => {}
        Err(TestError::Fail(reason, minimal)) => {
            disagreements.push(format!("random (shrunk to {minimal}): {reason}"));
        }
        Err(e) => disagreements.push(format!("random: {e}")),
    }
    let r = random.get();
    tally.documents += r.documents;
    tally.lax_accepted += r.lax_accepted;
    tally.strict_accepted += r.strict_accepted;
    tally.coerced += r.coerced;

    if disagreements.is_empty() {
        Ok(tally)
    } else {
        Err(disagreements)
    }
}

fn run_all(subjects: &[Subject], cases: u32) -> (Tally, Vec<(String, Tally)>) {
    let seed = env_number("TOOLWRIGHT_DIFF_SEED", 0x7001_5eed);
    let mut total = Tally::default();
    let mut per_tool = Vec::new();
    let mut failures = Vec::new();
    for subject in subjects {
        // Tools without arguments have few distinct documents: fewer random ones.
        let has_args = subject
            .schema
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty());
        let n = if has_args { cases } else { cases / 10 };
        match check_subject(subject, n, seed) {
            Ok(t) => {
                println!(
                    "differential: {:<28} {:>6} documents; lax: {:>5} accepted, strict: {:>5} accepted, {:>5} accepted only after coercion",
                    subject.name, t.documents, t.lax_accepted, t.strict_accepted, t.coerced
                );
                total.documents += t.documents;
                total.lax_accepted += t.lax_accepted;
                total.strict_accepted += t.strict_accepted;
                total.coerced += t.coerced;
                per_tool.push((subject.name.clone(), t));
            }
            Err(d) => failures.extend(d),
        }
    }
    assert!(
        failures.is_empty(),
        "toolwright and the reference validator disagree ({} cases, seed {seed}):\n{}",
        failures.len(),
        failures.join("\n")
    );
    println!(
        "differential: {} documents checked in total (seed {seed}), every verdict agreed",
        total.documents
    );
    (total, per_tool)
}

#[test]
fn robot_arm_schemas_and_checks_agree() {
    let subjects = robot_arm_subjects();
    assert_eq!(subjects.len(), 9);
    let cases = env_number("TOOLWRIGHT_DIFF_CASES", 2_500) as u32;
    let (total, per_tool) = run_all(&subjects, cases);
    assert!(
        total.documents >= 10_000,
        "only {} documents checked",
        total.documents
    );
    // Not vacuous: for every tool with arguments, documents are accepted, many are refused, and
    // some are accepted only thanks to a coercion.
    for (name, t) in &per_tool {
        if ["release_object", "stop_arm", "get_arm_state"].contains(&name.as_str()) {
            assert!(
                t.lax_accepted > 0 && t.lax_accepted < t.documents,
                "{name}: {t:?}"
            );
            continue;
        }
        assert!(
            t.lax_accepted * 100 > t.documents,
            "{name}: too few accepted: {t:?}"
        );
        assert!(
            t.lax_accepted * 10 < t.documents * 9,
            "{name}: too few refused: {t:?}"
        );
        assert!(
            t.coerced * 100 > t.documents,
            "{name}: too few coerced: {t:?}"
        );
    }
}

#[test]
fn extra_keyword_schemas_and_checks_agree() {
    let subjects = subjects_of(&Toolbox::new(Lab));
    assert_eq!(subjects.len(), 2);
    let cases = env_number("TOOLWRIGHT_DIFF_CASES", 2_500) as u32;
    let (total, per_tool) = run_all(&subjects, cases);
    assert!(
        total.documents >= 4_000,
        "only {} documents",
        total.documents
    );
    for (name, t) in &per_tool {
        assert!(
            t.lax_accepted > 0 && t.lax_accepted < t.documents,
            "{name}: {t:?}"
        );
        assert!(t.coerced > 0, "{name}: {t:?}");
    }
}

#[test]
fn reference_coercion_does_what_the_docs_say() {
    let s = json!({
        "type": "object",
        "properties": {
            "n": {"type": "number"},
            "i": {"type": "integer"},
            "b": {"type": "boolean"},
            "s": {"type": "string"},
            "o": {"type": "number"},
            "r": {"type": "number"},
            "a": {"type": "array", "items": {"type": "integer"}}
        },
        "required": ["r"]
    });
    let mut doc = json!({
        "n": "15", "i": "3.0", "b": "true", "s": "15", "o": null, "r": null,
        "a": ["1", 2.0, "x", "2.5"]
    });
    reference_coerce(&s, &mut doc);
    assert_eq!(
        doc,
        json!({"n": 15, "i": 3, "b": true, "s": "15", "r": null, "a": [1, 2, "x", 2.5]})
    );
    for (text, is_number) in [
        ("15", true),
        ("-0", true),
        ("1E+2", true),
        ("0.5", true),
        ("15N", false),
        (" 15", false),
        ("01", false),
        (".5", false),
        ("5.", false),
        ("+5", false),
        ("1e", false),
        ("", false),
    ] {
        assert_eq!(is_json_number_literal(text), is_number, "{text:?}");
    }
}
