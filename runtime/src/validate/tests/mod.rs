//! Unit tests of the validator, by topic; the helpers every topic uses.

use super::*;
#[allow(unused_imports)]
use super::{
    compile::*, equality::*, keys::*, messages::*, numbers::*, paths::*, tree::*, walk::*,
};
use serde_json::json;
#[allow(unused_imports)]
use serde_json::{Map, Number};
#[allow(unused_imports)]
use std::cmp::Ordering;

fn compile(schema: Value) -> Validator {
    Validator::compile(&schema).unwrap_or_else(|e| panic!("schema should compile: {e}"))
}

/// Validates and returns the rendered violations (empty when valid).
fn errs(schema: &Validator, mut doc: Value, coercion: Coercion) -> Vec<String> {
    match schema.validate(&mut doc, coercion) {
        Ok(()) => Vec::new(),
        Err(v) => v.iter().map(ToString::to_string).collect(),
    }
}

fn lax(schema: Value, doc: Value) -> Vec<String> {
    errs(&compile(schema), doc, Coercion::Lax)
}

fn strict(schema: Value, doc: Value) -> Vec<String> {
    errs(&compile(schema), doc, Coercion::Strict)
}

/// Validates in place and returns the (possibly coerced) document.
fn fixed(schema: Value, mut doc: Value, coercion: Coercion) -> Value {
    let v = compile(schema);
    if let Err(e) = v.validate(&mut doc, coercion) {
        panic!("expected valid, got {e:?}");
    }
    doc
}

fn one(schema: Value, doc: Value) -> String {
    let e = lax(schema, doc);
    assert_eq!(e.len(), 1, "expected exactly one violation, got {e:?}");
    e.into_iter().next().unwrap_or_default()
}

fn force_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "force": {"type": "number", "minimum": 5, "maximum": 30, "x-unit": "N"}
        },
        "required": ["force"],
        "additionalProperties": false
    })
}

mod additional_properties;
mod arrays;
mod coercion;
mod combinators;
mod compile_errors;
mod display;
mod enum_const;
mod objects;
mod ordering;
mod paths;
mod ranges;
mod required;
mod strings;
mod types;
mod unit_norm;
