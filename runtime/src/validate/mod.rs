//! Run-time validation of tool arguments against their published JSON Schema (draft 2020-12).
//!
//! A schema is compiled once into a typed tree ([`Validator::compile`]); every call then walks that
//! tree alongside the argument document ([`Validator::validate`]). The walk follows the schema, not
//! the document: a value the schema places no constraint on is never visited.
//!
//! Every problem is collected (validation never stops at the first one) and phrased for the model
//! that made the call: where ([`Violation::path`]), what was expected (with the unit from `x-unit`)
//! and what was received ([`Violation::message`]), plus a fix when there is one to suggest
//! ([`Violation::hint`]).
//!
//! In [`Coercion::Lax`] mode a few unambiguous mistakes are repaired in place: numbers and booleans
//! sent as strings, integral floats where an integer is expected, and `null` for an optional
//! argument. Defaults declared in the schema are inserted in both modes.
//!
//! The success path does not allocate except to apply such repairs and defaults: the current path is
//! a chain of stack frames and is rendered to a string only when a violation is reported.

use std::fmt;

use serde_json::Value;

use compile::{compile_node, scan_refs};
use paths::Path;
use tree::Node;
use walk::Ctx;

mod compile;
mod equality;
mod fast;
mod keys;
mod messages;
mod numbers;
mod paths;
pub(crate) mod refusals;
mod tree;
mod walk;

/// Key comparison the call path shares with the walk (`crate::contract::Args`).
pub(crate) use keys::short_eq;
pub(crate) use refusals::invalid_arguments_text;

/// Compiled validator for one JSON Schema.
///
/// Compile once with [`Validator::compile`], then call [`Validator::validate`] for every document.
#[derive(Debug, Clone)]
pub struct Validator {
    root: Node,
}

/// Why a schema cannot be compiled ([`Validator::compile`]): the problem and the JSON pointer where
/// it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidSchema(String);

impl fmt::Display for InvalidSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InvalidSchema {}

/// How forgiving validation is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Coercion {
    /// Repair unambiguous mistakes in place: `"15"` where a number is expected becomes `15`,
    /// `5.0` where an integer is expected becomes `5`, `"true"`/`"false"` where a boolean is
    /// expected become booleans, and `null` for an optional property that does not accept `null`
    /// is treated as absent. Defaults are inserted.
    #[default]
    Lax,
    /// Accept only documents that match the schema as sent; only defaults are inserted.
    Strict,
}

/// One problem with an argument document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// Path to the offending value: `""` for the root, `"force"`, `"target_position.x"`, `"waypoints[1].z"`, a key with odd characters as `["a b"]`.
    pub path: String,
    /// What is wrong, in words for the model, e.g. "must be between 5 and 30 N, got 100".
    pub message: String,
    /// How to fix it, when there is something more to say.
    pub hint: Option<String>,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() {
            "arguments"
        } else {
            &self.path
        };
        write!(f, "{path}: {}", self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, " (hint: {hint})")?;
        }
        Ok(())
    }
}

impl Validator {
    /// Compiles a JSON Schema (draft 2020-12, fully inlined) into a validator.
    ///
    /// Fails, naming the JSON pointer of the problem, on `$ref`/`$dynamicRef`/`$recursiveRef`,
    /// an unknown `type`, an invalid `pattern`, or a keyword whose value has the wrong JSON type.
    /// Keywords that do not affect validation (`description`, `title`, `examples`, `format`,
    /// `x-*`, ...) are ignored, except two of toolwright's own: `x-unit` (named in messages) and
    /// `x-toolwright-unit-norm` (on an object whose number properties must have a Euclidean norm
    /// within this tolerance of 1, such as a quaternion; the toolbox compiles it before stripping
    /// its private keywords from the published schema).
    pub fn compile(schema: &Value) -> Result<Validator, InvalidSchema> {
        let mut ptr = String::new();
        scan_refs(schema, &mut ptr).map_err(InvalidSchema)?;
        let root = compile_node(schema, &mut ptr).map_err(InvalidSchema)?;
        Ok(Validator { root })
    }

    /// Validates `value`, applying defaults and (in [`Coercion::Lax`] mode) coercions in place.
    ///
    /// Returns every violation found, in a deterministic order (schema property order, then
    /// unknown properties in document order, depth first). When validation fails, the document may
    /// have been partially coerced and should not be used.
    pub fn validate(&self, value: &mut Value, coercion: Coercion) -> Result<(), Vec<Violation>> {
        self.walk(value, coercion == Coercion::Lax, true)
    }

    /// Checks a tool's result against its output schema: strictly (no coercion), inserting no
    /// defaults, so `value` is never changed (it is `&mut` only because the walk is shared with
    /// [`Validator::validate`]).
    pub fn check_output(&self, value: &mut Value) -> Result<(), Vec<Violation>> {
        self.walk(value, false, false)
    }

    /// The walk both share: `lax` repairs, `apply` writes repairs and defaults into `value`.
    fn walk(&self, value: &mut Value, lax: bool, apply: bool) -> Result<(), Vec<Violation>> {
        let mut ctx = Ctx {
            lax,
            apply,
            collect: true,
            fails: 0,
            mutated: false,
            errors: Vec::new(),
        };
        self.root.check(value, &Path::ROOT, &mut ctx);
        if ctx.fails == 0 {
            Ok(())
        } else {
            Err(ctx.errors)
        }
    }
}

#[cfg(test)]
mod tests;
