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

use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::sync::OnceLock;

use regex::Regex;
use serde_json::{Map, Number, Value};

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

/// Compiled validator for one JSON Schema.
///
/// Compile once with [`Validator::compile`], then call [`Validator::validate`] for every document.
#[derive(Debug, Clone)]
pub struct Validator {
    root: Node,
}

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
    /// `x-*`, ...) are ignored.
    pub fn compile(schema: &Value) -> Result<Validator, String> {
        let mut ptr = String::new();
        scan_refs(schema, &mut ptr)?;
        let root = compile_node(schema, &mut ptr)?;
        Ok(Validator { root })
    }

    /// Validates `value`, applying defaults and (in [`Coercion::Lax`] mode) coercions in place.
    ///
    /// Returns every violation found, in a deterministic order (schema property order, then
    /// unknown properties in document order, depth first). When validation fails, the document may
    /// have been partially coerced and should not be used.
    pub fn validate(&self, value: &mut Value, coercion: Coercion) -> Result<(), Vec<Violation>> {
        let mut ctx = Ctx {
            lax: coercion == Coercion::Lax,
            apply: true,
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

// ---------------------------------------------------------------------------------------------
// Compiled tree
// ---------------------------------------------------------------------------------------------

const T_NULL: u8 = 1;
const T_BOOLEAN: u8 = 2;
const T_OBJECT: u8 = 4;
const T_ARRAY: u8 = 8;
const T_NUMBER: u8 = 16;
const T_INTEGER: u8 = 32;
const T_STRING: u8 = 64;

/// Above this many properties, keys are looked up in a hash map instead of a linear scan.
const LINEAR_LOOKUP_MAX: usize = 16;
/// Above this many scalar items, `uniqueItems` sorts instead of comparing every pair.
const PAIRWISE_UNIQUE_MAX: usize = 32;
/// Strings longer than this (in characters) are cut in messages.
const QUOTE_MAX_CHARS: usize = 40;
/// 2^63 and 2^64 as f64 (exact).
const TWO_63: f64 = 9.223_372_036_854_776e18;
const TWO_64: f64 = 1.844_674_407_370_955_2e19;

#[derive(Debug, Clone, Default)]
struct Node {
    /// Accepts every value: nothing to check, do not walk.
    trivial: bool,
    /// The `false` schema.
    never: bool,
    /// Whether `null` is valid here (used for lax null-as-absent).
    accepts_null: bool,
    /// Bit set of `T_*`; 0 when `type` is absent.
    types: u8,
    unit: Option<String>,
    constant: Option<Value>,
    enumeration: Option<Vec<Value>>,
    number: Option<Box<NumRules>>,
    string: Option<Box<StrRules>>,
    array: Option<Box<ArrRules>>,
    object: Option<Box<ObjRules>>,
    comp: Option<Box<CompRules>>,
    default: Option<Value>,
    /// What a value of each kind needs beyond the general walk (computed by `finish`).
    fast: Fast,
}

/// Shortcuts for the values most arguments are: a number within plain bounds, a string of an
/// enum, a boolean. A shortcut only ever *accepts* (valid, nothing to coerce or insert); anything
/// it does not accept takes the general walk, which reports or coerces it, so the shortcuts cannot
/// change a result, only its cost.
#[derive(Debug, Clone, Copy, Default)]
struct Fast {
    /// A number passes when it lies within these bounds (as f64, exact: only set when the bounds
    /// and the number are exactly representable) and, when `integer`, is stored as an integer.
    number: Option<FastNum>,
    /// A string passes when it is one of `enumeration` (if set) and meets the string rules.
    string: bool,
    /// A boolean passes.
    boolean: bool,
    /// An object passes when each property it has passes its shortcut, no required one is
    /// missing, and there is no unknown property where they are refused. Only for objects whose
    /// properties fit in the masks (at most `LINEAR_LOOKUP_MAX`), all declared, without
    /// `minProperties`/`maxProperties` or an `additionalProperties` schema.
    object: Option<FastObj>,
    /// An array passes when every item passes the `items` shortcut and the count is within
    /// bounds (no `prefixItems`, no `uniqueItems`).
    array: bool,
}

#[derive(Debug, Clone, Copy)]
struct FastObj {
    /// Bit i: property i is required.
    required: u32,
    /// Bit i: property i has a default, to insert when it is absent.
    defaults: u32,
    /// Unknown properties are refused (else allowed and not checked).
    deny_unknown: bool,
}

#[derive(Debug, Clone, Copy)]
struct FastNum {
    integer: bool,
    lo: f64,
    lo_exclusive: bool,
    hi: f64,
    hi_exclusive: bool,
}

/// 2^53: integers of smaller magnitude are exact as f64.
const TWO_53_F64: f64 = 9_007_199_254_740_992.0;

#[derive(Debug, Clone, Copy)]
enum Num {
    Int(i128),
    Float(f64),
}

#[derive(Debug, Clone, Copy)]
struct Bound {
    value: Num,
    exclusive: bool,
}

#[derive(Debug, Clone, Default)]
struct NumRules {
    lo: Option<Bound>,
    hi: Option<Bound>,
    multiple_of: Option<Num>,
}

#[derive(Debug, Clone, Default)]
struct StrRules {
    min_len: Option<usize>,
    max_len: Option<usize>,
    pattern: Option<Regex>,
}

#[derive(Debug, Clone, Default)]
struct ArrRules {
    prefix: Vec<Node>,
    items: Option<Node>,
    min_items: Option<usize>,
    max_items: Option<usize>,
    unique: bool,
}

#[derive(Debug, Clone)]
struct Prop {
    name: String,
    /// The name's first 8 bytes (see [`key_head`]), compared before the name itself.
    head: u64,
    node: Node,
    required: bool,
    /// Listed in `properties` (a name only listed in `required` is not).
    declared: bool,
}

#[derive(Debug, Clone)]
enum Additional {
    Any,
    Deny,
    Schema(Box<Node>),
}

#[derive(Debug, Clone)]
struct ObjRules {
    /// Declared properties in schema order, then names only listed in `required`.
    props: Vec<Prop>,
    /// Name → index in `props`, for objects with more than `LINEAR_LOOKUP_MAX` properties.
    index: Option<HashMap<String, usize>>,
    additional: Additional,
    min_props: Option<usize>,
    max_props: Option<usize>,
    /// "a, b, c": rendered on the first unknown-property error.
    allowed: OnceLock<String>,
}

/// The discriminating property of an internally tagged `oneOf`/`anyOf`.
#[derive(Debug, Clone)]
struct Tag {
    key: String,
    /// The tag's constant in each branch, in branch order.
    consts: Vec<Value>,
    /// The tag is required in every branch and its constants are distinct: only the branch whose
    /// constant matches can pass.
    dispatch: bool,
}

#[derive(Debug, Clone, Default)]
struct CompRules {
    all_of: Vec<Node>,
    any_of: Vec<Node>,
    any_of_tag: Option<Tag>,
    one_of: Vec<Node>,
    one_of_tag: Option<Tag>,
    not: Option<Node>,
}

// ---------------------------------------------------------------------------------------------
// Compilation
// ---------------------------------------------------------------------------------------------

fn push_ptr(ptr: &mut String, segment: &str) {
    ptr.push('/');
    for c in segment.chars() {
        match c {
            '~' => ptr.push_str("~0"),
            '/' => ptr.push_str("~1"),
            c => ptr.push(c),
        }
    }
}

fn err_at(ptr: &str, msg: impl fmt::Display) -> String {
    format!("invalid schema at #{ptr}: {msg}")
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Rejects references anywhere in the schema (sub-schemas of any keyword, `$defs` included);
/// values of data keywords (`const`, `enum`, `default`, `examples`, `x-*`) are not schemas.
fn scan_refs(schema: &Value, ptr: &mut String) -> Result<(), String> {
    let Value::Object(map) = schema else {
        return Ok(());
    };
    for key in ["$ref", "$dynamicRef", "$recursiveRef"] {
        if map.contains_key(key) {
            let len = ptr.len();
            push_ptr(ptr, key);
            let e = err_at(
                ptr,
                format!(
                    "\"{key}\" is not supported; the schema must be fully inlined \
                     (a recursive type, for example, cannot be used in tool arguments)"
                ),
            );
            ptr.truncate(len);
            return Err(e);
        }
    }
    for (key, value) in map {
        if matches!(
            key.as_str(),
            "const" | "enum" | "default" | "examples" | "required"
        ) || key.starts_with("x-")
        {
            continue;
        }
        let len = ptr.len();
        push_ptr(ptr, key);
        let schema_map = matches!(
            key.as_str(),
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas"
        );
        match value {
            Value::Object(sub) if schema_map => {
                for (name, s) in sub {
                    let l = ptr.len();
                    push_ptr(ptr, name);
                    scan_refs(s, ptr)?;
                    ptr.truncate(l);
                }
            }
            Value::Object(_) => scan_refs(value, ptr)?,
            Value::Array(items) => {
                for (i, s) in items.iter().enumerate() {
                    let l = ptr.len();
                    push_ptr(ptr, &i.to_string());
                    scan_refs(s, ptr)?;
                    ptr.truncate(l);
                }
            }
            _ => {}
        }
        ptr.truncate(len);
    }
    Ok(())
}

fn type_bit(name: &str) -> Option<u8> {
    Some(match name {
        "null" => T_NULL,
        "boolean" => T_BOOLEAN,
        "object" => T_OBJECT,
        "array" => T_ARRAY,
        "number" => T_NUMBER,
        "integer" => T_INTEGER,
        "string" => T_STRING,
        _ => return None,
    })
}

/// Runs `f` with `key` appended to the pointer.
fn at_key<T>(
    ptr: &mut String,
    key: &str,
    f: impl FnOnce(&mut String) -> Result<T, String>,
) -> Result<T, String> {
    let len = ptr.len();
    push_ptr(ptr, key);
    let r = f(ptr);
    ptr.truncate(len);
    r
}

fn kw_num(map: &Map<String, Value>, key: &str, ptr: &mut String) -> Result<Option<Num>, String> {
    match map.get(key) {
        None => Ok(None),
        Some(Value::Number(n)) => Ok(Some(Num::of(n).normalized())),
        Some(other) => at_key(ptr, key, |p| {
            Err(err_at(
                p,
                format!("\"{key}\" must be a number, got {}", json_kind(other)),
            ))
        }),
    }
}

fn kw_count(
    map: &Map<String, Value>,
    key: &str,
    ptr: &mut String,
) -> Result<Option<usize>, String> {
    let Some(v) = map.get(key) else {
        return Ok(None);
    };
    let count = match v {
        Value::Number(n) => match n.as_u64() {
            Some(u) => Some(u),
            None => n
                .as_f64()
                .filter(|f| *f >= 0.0 && f.fract() == 0.0)
                .map(|f| {
                    if f >= u64::MAX as f64 {
                        u64::MAX
                    } else {
                        f as u64
                    }
                }),
        },
        _ => None,
    };
    match count {
        Some(c) => Ok(Some(usize::try_from(c).unwrap_or(usize::MAX))),
        None => at_key(ptr, key, |p| {
            Err(err_at(
                p,
                format!("\"{key}\" must be a non-negative integer, got {}", v),
            ))
        }),
    }
}

fn kw_bool(map: &Map<String, Value>, key: &str, ptr: &mut String) -> Result<Option<bool>, String> {
    match map.get(key) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => at_key(ptr, key, |p| {
            Err(err_at(
                p,
                format!("\"{key}\" must be a boolean, got {}", json_kind(other)),
            ))
        }),
    }
}

fn kw_schema(
    map: &Map<String, Value>,
    key: &str,
    ptr: &mut String,
) -> Result<Option<Node>, String> {
    match map.get(key) {
        None => Ok(None),
        Some(s) => at_key(ptr, key, |p| compile_node(s, p).map(Some)),
    }
}

fn kw_schemas(
    map: &Map<String, Value>,
    key: &str,
    ptr: &mut String,
) -> Result<Option<Vec<Node>>, String> {
    match map.get(key) {
        None => Ok(None),
        Some(Value::Array(items)) if !items.is_empty() => at_key(ptr, key, |p| {
            let mut nodes = Vec::with_capacity(items.len());
            for (i, s) in items.iter().enumerate() {
                nodes.push(at_key(p, &i.to_string(), |p| compile_node(s, p))?);
            }
            Ok(Some(nodes))
        }),
        Some(other) => at_key(ptr, key, |p| {
            Err(err_at(
                p,
                format!(
                    "\"{key}\" must be a non-empty array of schemas, got {}",
                    json_kind(other)
                ),
            ))
        }),
    }
}

fn tighter_lo(a: Option<Bound>, b: Option<Bound>) -> Option<Bound> {
    match (a, b) {
        (Some(a), Some(b)) => Some(match cmp_num(a.value, b.value) {
            Ordering::Greater => a,
            Ordering::Less => b,
            Ordering::Equal => {
                if a.exclusive {
                    a
                } else {
                    b
                }
            }
        }),
        (a, b) => a.or(b),
    }
}

fn tighter_hi(a: Option<Bound>, b: Option<Bound>) -> Option<Bound> {
    match (a, b) {
        (Some(a), Some(b)) => Some(match cmp_num(a.value, b.value) {
            Ordering::Less => a,
            Ordering::Greater => b,
            Ordering::Equal => {
                if a.exclusive {
                    a
                } else {
                    b
                }
            }
        }),
        (a, b) => a.or(b),
    }
}

fn compile_node(schema: &Value, ptr: &mut String) -> Result<Node, String> {
    let map = match schema {
        Value::Bool(true) => return Ok(Node::default().finish()),
        Value::Bool(false) => {
            return Ok(Node {
                never: true,
                ..Node::default()
            }
            .finish());
        }
        Value::Object(map) => map,
        other => {
            return Err(err_at(
                ptr,
                format!(
                    "a schema must be an object or a boolean, got {}",
                    json_kind(other)
                ),
            ));
        }
    };
    let mut node = Node::default();

    if let Some(t) = map.get("type") {
        node.types = at_key(ptr, "type", |p| {
            let bit = |s: &str| {
                type_bit(s).ok_or_else(|| err_at(p, format!("unknown type {}", json_str(s))))
            };
            match t {
                Value::String(s) => bit(s),
                Value::Array(names) if !names.is_empty() => {
                    let mut bits = 0;
                    for name in names {
                        match name {
                            Value::String(s) => bits |= bit(s)?,
                            other => {
                                return Err(err_at(
                                    p,
                                    format!("type names must be strings, got {}", json_kind(other)),
                                ));
                            }
                        }
                    }
                    Ok(bits)
                }
                other => Err(err_at(
                    p,
                    format!(
                        "\"type\" must be a string or a non-empty array of strings, got {}",
                        json_kind(other)
                    ),
                )),
            }
        })?;
    }

    if let Some(u) = map.get("x-unit") {
        match u {
            Value::String(s) => node.unit = Some(s.clone()),
            other => {
                return at_key(ptr, "x-unit", |p| {
                    Err(err_at(
                        p,
                        format!("\"x-unit\" must be a string, got {}", json_kind(other)),
                    ))
                });
            }
        }
    }
    node.constant = map.get("const").cloned();
    if let Some(e) = map.get("enum") {
        match e {
            Value::Array(values) => node.enumeration = Some(values.clone()),
            other => {
                return at_key(ptr, "enum", |p| {
                    Err(err_at(
                        p,
                        format!("\"enum\" must be an array, got {}", json_kind(other)),
                    ))
                });
            }
        }
    }
    node.default = map.get("default").cloned();

    // Numbers.
    let lo = tighter_lo(
        kw_num(map, "minimum", ptr)?.map(|value| Bound {
            value,
            exclusive: false,
        }),
        kw_num(map, "exclusiveMinimum", ptr)?.map(|value| Bound {
            value,
            exclusive: true,
        }),
    );
    let hi = tighter_hi(
        kw_num(map, "maximum", ptr)?.map(|value| Bound {
            value,
            exclusive: false,
        }),
        kw_num(map, "exclusiveMaximum", ptr)?.map(|value| Bound {
            value,
            exclusive: true,
        }),
    );
    let multiple_of = kw_num(map, "multipleOf", ptr)?;
    if let Some(m) = multiple_of
        && cmp_num(m, Num::Int(0)) != Ordering::Greater
    {
        return at_key(ptr, "multipleOf", |p| {
            Err(err_at(
                p,
                format!("\"multipleOf\" must be greater than 0, got {m}"),
            ))
        });
    }
    if lo.is_some() || hi.is_some() || multiple_of.is_some() {
        node.number = Some(Box::new(NumRules {
            lo,
            hi,
            multiple_of,
        }));
    }

    // Strings.
    let min_len = kw_count(map, "minLength", ptr)?;
    let max_len = kw_count(map, "maxLength", ptr)?;
    let pattern = match map.get("pattern") {
        None => None,
        Some(Value::String(p)) => Some(Regex::new(p).map_err(|e| {
            let mut at = ptr.clone();
            push_ptr(&mut at, "pattern");
            err_at(
                &at,
                format!("\"pattern\" is not a valid regular expression: {e}"),
            )
        })?),
        Some(other) => {
            return at_key(ptr, "pattern", |p| {
                Err(err_at(
                    p,
                    format!("\"pattern\" must be a string, got {}", json_kind(other)),
                ))
            });
        }
    };
    if min_len.is_some() || max_len.is_some() || pattern.is_some() {
        node.string = Some(Box::new(StrRules {
            min_len,
            max_len,
            pattern,
        }));
    }

    // Arrays.
    if let Some(Value::Array(_)) = map.get("items") {
        return at_key(ptr, "items", |p| {
            Err(err_at(
                p,
                "\"items\" must be a schema (use \"prefixItems\" for tuples)",
            ))
        });
    }
    let items = kw_schema(map, "items", ptr)?;
    let prefix = kw_schemas(map, "prefixItems", ptr)?.unwrap_or_default();
    let min_items = kw_count(map, "minItems", ptr)?;
    let max_items = kw_count(map, "maxItems", ptr)?;
    let unique = kw_bool(map, "uniqueItems", ptr)?.unwrap_or(false);
    let items = items.filter(|n| !n.trivial);
    if items.is_some() || !prefix.is_empty() || min_items.is_some() || max_items.is_some() || unique
    {
        node.array = Some(Box::new(ArrRules {
            prefix,
            items,
            min_items,
            max_items,
            unique,
        }));
    }

    // Objects.
    node.object = compile_object(map, ptr)?;

    // Composition.
    let all_of = kw_schemas(map, "allOf", ptr)?.unwrap_or_default();
    let any_of = kw_schemas(map, "anyOf", ptr)?.unwrap_or_default();
    let one_of = kw_schemas(map, "oneOf", ptr)?.unwrap_or_default();
    let not = kw_schema(map, "not", ptr)?;
    if !all_of.is_empty() || !any_of.is_empty() || !one_of.is_empty() || not.is_some() {
        node.comp = Some(Box::new(CompRules {
            any_of_tag: find_tag(&any_of),
            one_of_tag: find_tag(&one_of),
            all_of,
            any_of,
            one_of,
            not,
        }));
    }

    Ok(node.finish())
}

fn compile_object(
    map: &Map<String, Value>,
    ptr: &mut String,
) -> Result<Option<Box<ObjRules>>, String> {
    let mut required: Vec<&str> = Vec::new();
    if let Some(r) = map.get("required") {
        let bad = |p: &mut String| {
            Err(err_at(
                p,
                format!("\"required\" must be an array of strings, got {r}"),
            ))
        };
        let Value::Array(names) = r else {
            return at_key(ptr, "required", bad);
        };
        for name in names {
            match name {
                Value::String(s) => {
                    if !required.contains(&s.as_str()) {
                        required.push(s);
                    }
                }
                _ => return at_key(ptr, "required", bad),
            }
        }
    }

    let mut props = Vec::new();
    match map.get("properties") {
        None => {}
        Some(Value::Object(properties)) => {
            at_key(ptr, "properties", |p| {
                for (name, s) in properties {
                    let node = at_key(p, name, |p| compile_node(s, p))?;
                    props.push(Prop {
                        head: key_head(name.as_bytes()),
                        name: name.clone(),
                        node,
                        required: required.contains(&name.as_str()),
                        declared: true,
                    });
                }
                Ok(())
            })?;
        }
        Some(other) => {
            return at_key(ptr, "properties", |p| {
                Err(err_at(
                    p,
                    format!("\"properties\" must be an object, got {}", json_kind(other)),
                ))
            });
        }
    }
    for name in &required {
        if !props.iter().any(|p| p.name == *name) {
            props.push(Prop {
                head: key_head(name.as_bytes()),
                name: (*name).to_owned(),
                node: Node::default().finish(),
                required: true,
                declared: false,
            });
        }
    }

    let additional = match kw_schema(map, "additionalProperties", ptr)? {
        None => Additional::Any,
        Some(n) if n.trivial => Additional::Any,
        Some(n) if n.never => Additional::Deny,
        Some(n) => Additional::Schema(Box::new(n)),
    };
    let min_props = kw_count(map, "minProperties", ptr)?;
    let max_props = kw_count(map, "maxProperties", ptr)?;

    if props.is_empty()
        && matches!(additional, Additional::Any)
        && min_props.is_none()
        && max_props.is_none()
    {
        return Ok(None);
    }
    let index = (props.len() > LINEAR_LOOKUP_MAX).then(|| {
        props
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.clone(), i))
            .collect()
    });
    Ok(Some(Box::new(ObjRules {
        props,
        index,
        additional,
        min_props,
        max_props,
        allowed: OnceLock::new(),
    })))
}

/// Finds the property that every branch pins to a constant (`{"type": {"const": "circle"}}`).
fn find_tag(branches: &[Node]) -> Option<Tag> {
    let first = branches.first()?.object.as_ref()?;
    'candidates: for p in first.props.iter().filter(|p| p.declared) {
        if p.node.tag_const().is_none() {
            continue;
        }
        let mut consts = Vec::with_capacity(branches.len());
        let mut all_required = true;
        for b in branches {
            let Some(o) = &b.object else {
                return None;
            };
            let found = o.props.iter().find(|q| q.declared && q.name == p.name);
            match found.and_then(|q| q.node.tag_const().map(|c| (q.required, c))) {
                Some((required, c)) => {
                    all_required &= required;
                    consts.push(c.clone());
                }
                None => continue 'candidates,
            }
        }
        let distinct = consts
            .iter()
            .enumerate()
            .all(|(i, a)| consts[..i].iter().all(|b| !json_eq(a, b)));
        return Some(Tag {
            key: p.name.clone(),
            consts,
            dispatch: all_required && distinct,
        });
    }
    None
}

impl Node {
    /// Computes the derived flags once the keywords are set.
    fn finish(mut self) -> Node {
        self.trivial = !self.never
            && self.types == 0
            && self.constant.is_none()
            && self.enumeration.is_none()
            && self.number.is_none()
            && self.string.is_none()
            && self.array.is_none()
            && self.object.is_none()
            && self.comp.is_none();
        let mut ctx = Ctx {
            lax: false,
            apply: false,
            collect: false,
            fails: 0,
            mutated: false,
            errors: Vec::new(),
        };
        let mut null = Value::Null;
        self.check(&mut null, &Path::ROOT, &mut ctx);
        self.accepts_null = ctx.fails == 0;
        self.fast = self.shortcuts();
        self
    }

    /// The shortcuts that apply to this node (see [`Fast`]): only for nodes whose checks on a
    /// value of that kind are the ones the shortcut performs.
    fn shortcuts(&self) -> Fast {
        let plain = !self.never && !self.trivial && self.constant.is_none() && self.comp.is_none();
        if !plain {
            return Fast::default();
        }
        let accepts = |bit: u8| self.types == 0 || self.types & bit != 0;
        let number = if self.enumeration.is_some() {
            None
        } else if accepts(T_NUMBER) || self.types & T_INTEGER != 0 {
            let integer = !accepts(T_NUMBER);
            let exact = |b: Option<Bound>, unbounded: f64| match b {
                None => Some((unbounded, false)),
                Some(Bound {
                    value: Num::Int(i),
                    exclusive,
                }) if i.unsigned_abs() < TWO_53_F64 as u128 => Some(((i as i64) as f64, exclusive)),
                Some(Bound {
                    value: Num::Float(f),
                    exclusive,
                }) => Some((f, exclusive)),
                Some(_) => None,
            };
            match self.number.as_deref() {
                Some(NumRules {
                    multiple_of: Some(_),
                    ..
                }) => None,
                rules => {
                    let lo = exact(rules.and_then(|r| r.lo), f64::NEG_INFINITY);
                    let hi = exact(rules.and_then(|r| r.hi), f64::INFINITY);
                    match (lo, hi) {
                        (Some((lo, lo_exclusive)), Some((hi, hi_exclusive))) => Some(FastNum {
                            integer,
                            lo,
                            lo_exclusive,
                            hi,
                            hi_exclusive,
                        }),
                        _ => None,
                    }
                }
            }
        } else {
            None
        };
        let object = match self.object.as_deref() {
            _ if self.enumeration.is_some() || !accepts(T_OBJECT) => None,
            None => Some(FastObj {
                required: 0,
                defaults: 0,
                deny_unknown: false,
            }),
            Some(r)
                if r.props.len() <= LINEAR_LOOKUP_MAX
                    && r.props.iter().all(|p| p.declared)
                    && r.min_props.is_none()
                    && r.max_props.is_none()
                    && !matches!(r.additional, Additional::Schema(_)) =>
            {
                let mask = |f: fn(&Prop) -> bool| {
                    r.props
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| f(p))
                        .fold(0u32, |m, (i, _)| m | 1 << i)
                };
                Some(FastObj {
                    required: mask(|p| p.required),
                    defaults: mask(|p| !p.required && p.node.default.is_some()),
                    deny_unknown: matches!(r.additional, Additional::Deny),
                })
            }
            Some(_) => None,
        };
        let array = self.enumeration.is_none()
            && accepts(T_ARRAY)
            && self
                .array
                .as_deref()
                .is_none_or(|r| r.prefix.is_empty() && !r.unique);
        Fast {
            number,
            string: accepts(T_STRING),
            boolean: accepts(T_BOOLEAN) && self.enumeration.is_none(),
            object,
            array,
        }
    }

    /// Whether a shortcut accepts `value` as valid with nothing to change, except, when
    /// `own_defaults`, inserting the defaults of this object's own absent properties (inserted
    /// only when `ctx.apply`, once every property has passed; nested objects missing a default
    /// are not accepted here, and the general walk, which checks each property with its own
    /// shortcut, inserts it).
    #[inline]
    fn fast_accepts(&self, value: &mut Value, ctx: &mut Ctx, own_defaults: bool) -> bool {
        match value {
            Value::Object(map) => match self.fast.object {
                Some(f) => self.fast_object(f, map, ctx, own_defaults),
                None => false,
            },
            Value::Array(items) => self.fast.array && self.fast_array(items, ctx),
            Value::Number(n) => self.fast_number(n),
            Value::String(s) => self.fast_string(s),
            Value::Bool(_) => self.fast.boolean,
            Value::Null => false,
        }
    }

    /// The number shortcut (inlined into the object and array loops: most leaves are numbers).
    #[inline(always)]
    fn fast_number(&self, n: &Number) -> bool {
        self.fast.number.is_some_and(|r| {
            let Some(f) = n.as_f64() else {
                return false;
            };
            let exact = if n.is_f64() {
                !r.integer
            } else {
                f.abs() < TWO_53_F64
            };
            exact
                && (if r.lo_exclusive { f > r.lo } else { f >= r.lo })
                && (if r.hi_exclusive { f < r.hi } else { f <= r.hi })
        })
    }

    /// The string shortcut.
    #[inline(always)]
    fn fast_string(&self, s: &str) -> bool {
        self.fast.string
            && self
                .enumeration
                .as_ref()
                .is_none_or(|values| values.iter().any(|x| x.as_str() == Some(s)))
            && self.string.as_deref().is_none_or(|r| string_ok(r, s))
    }

    /// A property's or an item's shortcut: leaves checked here, the rest by `fast_accepts`.
    #[inline(always)]
    fn fast_child(&self, v: &mut Value, ctx: &mut Ctx) -> bool {
        match v {
            _ if self.trivial => true,
            Value::Number(n) => self.fast_number(n),
            Value::String(s) => self.fast_string(s),
            Value::Bool(_) => self.fast.boolean,
            _ => self.fast_accepts(v, ctx, false),
        }
    }

    fn fast_object(
        &self,
        f: FastObj,
        map: &mut Map<String, Value>,
        ctx: &mut Ctx,
        own_defaults: bool,
    ) -> bool {
        let Some(r) = self.object.as_deref() else {
            return !f.deny_unknown;
        };
        let mut seen = 0u32;
        let mut next = 0;
        for (key, v) in map.iter_mut() {
            match r.find(key, &mut next) {
                Some(i) => {
                    seen |= 1 << i;
                    if !r.props[i].node.fast_child(v, ctx) {
                        return false;
                    }
                }
                None if f.deny_unknown => return false,
                None => {}
            }
        }
        if seen & f.required != f.required {
            return false;
        }
        let mut missing = f.defaults & !seen;
        if missing != 0 {
            if !own_defaults {
                return false;
            }
            ctx.mutated = true;
            if ctx.apply {
                while missing != 0 {
                    let p = &r.props[missing.trailing_zeros() as usize];
                    missing &= missing - 1;
                    if let Some(d) = &p.node.default {
                        map.insert(p.name.clone(), d.clone());
                    }
                }
            }
        }
        true
    }

    fn fast_array(&self, items: &mut [Value], ctx: &mut Ctx) -> bool {
        let Some(r) = self.array.as_deref() else {
            return true;
        };
        r.min_items.is_none_or(|min| items.len() >= min)
            && r.max_items.is_none_or(|max| items.len() <= max)
            && r.items.as_ref().is_none_or(|node| {
                node.trivial || items.iter_mut().all(|v| node.fast_child(v, ctx))
            })
    }

    /// The constant a branch pins a tag property to: `const`, or an `enum` of one value.
    fn tag_const(&self) -> Option<&Value> {
        self.constant.as_ref().or(match &self.enumeration {
            Some(values) if values.len() == 1 => values.first(),
            _ => None,
        })
    }

    fn in_unit(&self) -> String {
        self.unit
            .as_ref()
            .map(|u| format!(" in {u}"))
            .unwrap_or_default()
    }

    fn unit_suffix(&self) -> String {
        self.unit
            .as_ref()
            .map(|u| format!(" {u}"))
            .unwrap_or_default()
    }

    /// What is expected here, in words ("a number in N", "one of \"a\", \"b\"", ...).
    fn describe(&self) -> Option<String> {
        if self.never {
            return None;
        }
        if let Some(c) = &self.constant {
            return Some(c.to_string());
        }
        if let Some(values) = &self.enumeration {
            return Some(format!("one of {}", render_list(values.iter())));
        }
        if (self.types == T_OBJECT || self.types == 0)
            && let Some(o) = &self.object
        {
            let names: Vec<&str> = o
                .props
                .iter()
                .filter(|p| p.declared)
                .map(|p| p.name.as_str())
                .collect();
            if !names.is_empty() {
                return Some(format!("an object with fields {}", names.join(", ")));
            }
        }
        if self.types != 0 {
            return Some(format!("{}{}", type_words(self.types), self.in_unit()));
        }
        if let Some(c) = &self.comp {
            let branches = if c.one_of.is_empty() {
                &c.any_of
            } else {
                &c.one_of
            };
            let mut parts: Vec<String> = Vec::new();
            for b in branches {
                let d = b.describe()?;
                if !parts.contains(&d) {
                    parts.push(d);
                }
            }
            if !parts.is_empty() {
                return Some(parts.join(" or "));
            }
        }
        None
    }
}

// ---------------------------------------------------------------------------------------------
// Numbers
// ---------------------------------------------------------------------------------------------

impl Num {
    fn of(n: &Number) -> Num {
        if let Some(u) = n.as_u64() {
            Num::Int(i128::from(u))
        } else if let Some(i) = n.as_i64() {
            Num::Int(i128::from(i))
        } else {
            Num::Float(n.as_f64().unwrap_or(f64::NAN))
        }
    }

    /// Integral floats within the i64/u64 range become integers (exact either way).
    fn normalized(self) -> Num {
        match self {
            Num::Float(f) if f.fract() == 0.0 && (-TWO_63..TWO_64).contains(&f) => {
                Num::Int(f as i128)
            }
            n => n,
        }
    }

    fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::Int(i) => write!(f, "{i}"),
            Num::Float(x) => f.write_str(&fmt_f64(*x)),
        }
    }
}

/// Exact comparison of an integer with a float.
fn cmp_int_float(i: i128, f: f64) -> Ordering {
    const TWO_127: f64 = 1.701_411_834_604_692_3e38;
    const TWO_53: u128 = 1 << 53;
    if f.is_nan() {
        return Ordering::Equal;
    }
    if i.unsigned_abs() <= TWO_53 {
        // Exactly representable: a plain float comparison is exact.
        // (Through i64: converting an i128 to f64 directly is a slow library call.)
        return ((i as i64) as f64)
            .partial_cmp(&f)
            .unwrap_or(Ordering::Equal);
    }
    if f >= TWO_127 {
        return Ordering::Less;
    }
    if f < -TWO_127 {
        return Ordering::Greater;
    }
    let t = f.trunc();
    // `t` is integral and |t| < 2^127, so the conversion is exact.
    match i.cmp(&(t as i128)) {
        Ordering::Equal => {
            if f > t {
                Ordering::Less
            } else if f < t {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        }
        o => o,
    }
}

/// Exact numeric comparison (no rounding through f64 for integers).
fn cmp_num(a: Num, b: Num) -> Ordering {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x.cmp(&y),
        (Num::Float(x), Num::Float(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        (Num::Int(x), Num::Float(y)) => cmp_int_float(x, y),
        (Num::Float(x), Num::Int(y)) => cmp_int_float(y, x).reverse(),
    }
}

fn is_multiple(v: Num, m: Num) -> bool {
    match (v, m) {
        (Num::Int(a), Num::Int(b)) => b != 0 && a % b == 0,
        _ => {
            let q = v.as_f64() / m.as_f64();
            if !q.is_finite() {
                return false;
            }
            // Tolerate the rounding of the division itself (0.3 / 0.1 = 2.9999999999999996).
            (q - q.round()).abs() <= q.abs().max(1.0) * 4.0 * f64::EPSILON
        }
    }
}

fn is_integral(n: &Number) -> bool {
    n.is_u64()
        || n.is_i64()
        || n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// `5.0` → `5` when it fits in i64/u64.
fn float_to_int(f: f64) -> Option<Number> {
    if f.fract() != 0.0 || !f.is_finite() {
        return None;
    }
    if (0.0..TWO_64).contains(&f) {
        Some(Number::from(f as u64))
    } else if (-TWO_63..0.0).contains(&f) {
        Some(Number::from(f as i64))
    } else {
        None
    }
}

fn fmt_f64(f: f64) -> String {
    let a = f.abs();
    if a != 0.0 && !(1e-6..1e21).contains(&a) {
        format!("{f:e}")
    } else {
        format!("{f}")
    }
}

fn fmt_number(n: &Number) -> String {
    if let Some(u) = n.as_u64() {
        u.to_string()
    } else if let Some(i) = n.as_i64() {
        i.to_string()
    } else {
        fmt_f64(n.as_f64().unwrap_or(f64::NAN))
    }
}

/// A string that is exactly a JSON number ("15", "-3", "0.5"): no whitespace, no unit.
fn parse_bare_number(s: &str) -> Option<Number> {
    let b = s.as_bytes();
    let first = *b.first()?;
    let last = *b.last()?;
    if !(first == b'-' || first.is_ascii_digit()) || !last.is_ascii_digit() {
        return None;
    }
    match serde_json::from_str::<Value>(s) {
        Ok(Value::Number(n)) => Some(n),
        _ => None,
    }
}

/// The number a string starts with ("15N" → "15", " -2.5 mm" → "-2.5").
fn numeric_prefix(s: &str) -> Option<&str> {
    let t = s.trim_start();
    let b = t.as_bytes();
    let mut start = 0;
    let mut i = 0;
    if let Some(&c) = b.first()
        && (c == b'-' || c == b'+')
    {
        i = 1;
        if c == b'+' {
            start = 1;
        }
    }
    let digits = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i == digits {
        return None;
    }
    let mut end = i;
    if i < b.len() && b[i] == b'.' {
        let mut j = i + 1;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j > i + 1 {
            end = j;
        }
    }
    Some(&t[start..end])
}

// ---------------------------------------------------------------------------------------------
// Equality
// ---------------------------------------------------------------------------------------------

/// JSON equality where numbers compare numerically (`1 == 1.0`).
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => cmp_num(Num::of(x), Num::of(y)) == Ordering::Equal,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// Total order on scalars consistent with [`json_eq`].
fn cmp_scalar(a: &Value, b: &Value) -> Ordering {
    fn rank(v: &Value) -> u8 {
        match v {
            Value::Null => 0,
            Value::Bool(_) => 1,
            Value::Number(_) => 2,
            Value::String(_) => 3,
            Value::Array(_) => 4,
            Value::Object(_) => 5,
        }
    }
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Number(x), Value::Number(y)) => cmp_num(Num::of(x), Num::of(y)),
        (Value::String(x), Value::String(y)) => x.cmp(y),
        _ => rank(a).cmp(&rank(b)),
    }
}

/// The first item (in document order) that repeats an earlier one: `(earlier, later)`.
fn find_duplicate(items: &[Value]) -> Option<(usize, usize)> {
    let scalars = items.iter().all(|v| !v.is_array() && !v.is_object());
    if items.len() <= PAIRWISE_UNIQUE_MAX || !scalars {
        for j in 1..items.len() {
            if let Some(i) = (0..j).find(|&i| json_eq(&items[i], &items[j])) {
                return Some((i, j));
            }
        }
        return None;
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    // Stable: equal items stay in document order.
    order.sort_by(|&x, &y| cmp_scalar(&items[x], &items[y]));
    let eq = |x: usize, y: usize| cmp_scalar(&items[x], &items[y]) == Ordering::Equal;
    let mut best: Option<(usize, usize)> = None;
    for k in 1..order.len() {
        let second_of_group =
            eq(order[k - 1], order[k]) && (k == 1 || !eq(order[k - 2], order[k - 1]));
        if second_of_group && best.is_none_or(|(_, j)| order[k] < j) {
            best = Some((order[k - 1], order[k]));
        }
    }
    best
}

// ---------------------------------------------------------------------------------------------
// Message helpers
// ---------------------------------------------------------------------------------------------

fn type_words(types: u8) -> String {
    let mut parts: Vec<&str> = Vec::new();
    if types & T_NUMBER != 0 {
        parts.push("a number");
    } else if types & T_INTEGER != 0 {
        parts.push("an integer");
    }
    for (bit, word) in [
        (T_STRING, "a string"),
        (T_BOOLEAN, "a boolean"),
        (T_ARRAY, "an array"),
        (T_OBJECT, "an object"),
        (T_NULL, "null"),
    ] {
        if types & bit != 0 {
            parts.push(word);
        }
    }
    parts.join(" or ")
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// A string as a JSON literal, cut after 40 characters: `"aaaa…" (10485760 characters)`.
fn quote(s: &str) -> String {
    match s.char_indices().nth(QUOTE_MAX_CHARS) {
        None => json_str(s),
        Some((cut, _)) => {
            let head = json_str(&s[..cut]);
            let count = s.chars().count();
            format!("{}…\" ({count} characters)", &head[..head.len() - 1])
        }
    }
}

/// The received value, for "got ...": `100`, `string "15N"`, `true`, `null`, `an array`.
fn received(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => fmt_number(n),
        Value::String(s) => format!("string {}", quote(s)),
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}

/// The received value next to a list of literals: strings as `"magnetic"`.
fn received_literal(v: &Value) -> String {
    match v {
        Value::String(s) => quote(s),
        other => received(other),
    }
}

fn render_list<'v>(values: impl Iterator<Item = &'v Value>) -> String {
    let mut out = String::new();
    for (i, v) in values.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{v}");
    }
    out
}

/// "must be one of ..., got ..." with a did-you-mean hint for near-miss strings.
fn one_of_message(allowed: &[&Value], got: &Value) -> (String, Option<String>) {
    let message = format!(
        "must be one of {}, got {}",
        render_list(allowed.iter().copied()),
        received_literal(got)
    );
    let hint = match got {
        Value::String(s) => {
            let candidates: Vec<&str> = allowed.iter().filter_map(|v| v.as_str()).collect();
            suggest(s, &candidates, true).map(|c| format!("did you mean {}?", json_str(c)))
        }
        _ => None,
    };
    (message, hint)
}

fn word(root: bool) -> &'static str {
    if root { "argument" } else { "field" }
}

fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The candidate `got` was probably meant to be: same up to case and `-`/` `/`_`, else the
/// closest within edit distance 2 (and, with `short_guard`, less than half its length).
fn suggest<'c>(got: &str, candidates: &[&'c str], short_guard: bool) -> Option<&'c str> {
    fn norm(s: &str) -> String {
        s.chars()
            .flat_map(char::to_lowercase)
            .map(|c| if c == '-' || c == ' ' { '_' } else { c })
            .collect()
    }
    let g = norm(got);
    if let Some(c) = candidates.iter().find(|c| norm(c) == g) {
        return Some(c);
    }
    let got_len = got.chars().count();
    let mut best: Option<(usize, &'c str)> = None;
    for &c in candidates {
        let len = c.chars().count();
        if got_len.abs_diff(len) > 2 {
            continue;
        }
        let d = levenshtein(got, c);
        if d <= 2 && (!short_guard || d * 2 < len) && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

// ---------------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy)]
enum Seg<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

/// A path as a chain of stack frames; rendered only when a violation is reported.
#[derive(Debug, Clone, Copy)]
struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    seg: Seg<'a>,
}

impl<'a> Path<'a> {
    const ROOT: Path<'static> = Path {
        parent: None,
        seg: Seg::Root,
    };

    fn key<'b>(&'b self, key: &'b str) -> Path<'b>
    where
        'a: 'b,
    {
        Path {
            parent: Some(self),
            seg: Seg::Key(key),
        }
    }

    fn index<'b>(&'b self, index: usize) -> Path<'b>
    where
        'a: 'b,
    {
        Path {
            parent: Some(self),
            seg: Seg::Index(index),
        }
    }

    fn is_root(&self) -> bool {
        matches!(self.seg, Seg::Root)
    }

    fn render(&self) -> String {
        let mut segs = Vec::new();
        let mut cur = Some(self);
        while let Some(p) = cur {
            segs.push(p.seg);
            cur = p.parent;
        }
        let mut out = String::new();
        for seg in segs.iter().rev() {
            match seg {
                Seg::Root => {}
                Seg::Index(i) => {
                    let _ = write!(out, "[{i}]");
                }
                Seg::Key(k) => {
                    let plain = !k.is_empty()
                        && k.bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
                    if plain {
                        if !out.is_empty() {
                            out.push('.');
                        }
                        out.push_str(k);
                    } else {
                        out.push('[');
                        out.push_str(&json_str(k));
                        out.push(']');
                    }
                }
            }
        }
        out
    }
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

struct Ctx {
    lax: bool,
    /// Apply coercions and defaults to the document (false while trying a branch).
    apply: bool,
    /// Render violations (false while trying a branch: only count, stop early).
    collect: bool,
    fails: usize,
    /// A coercion or default was (or, when not applying, would have been) applied.
    mutated: bool,
    errors: Vec<Violation>,
}

impl Ctx {
    #[cold]
    #[inline(never)]
    fn fail(&mut self, path: &Path<'_>, f: impl FnOnce() -> (String, Option<String>)) {
        self.fails += 1;
        if self.collect {
            let (message, hint) = f();
            self.errors.push(Violation {
                path: path.render(),
                message,
                hint,
            });
        }
    }

    /// Trying a branch and it already failed: no need to look further.
    fn done(&self) -> bool {
        !self.collect && self.fails > 0
    }

    /// Checks `v` against `node` without changing it or rendering anything.
    /// Returns (valid, would coerce or insert a default).
    fn trial(&mut self, node: &Node, v: &mut Value, path: &Path<'_>) -> (bool, bool) {
        let saved = (self.apply, self.collect, self.fails, self.mutated);
        self.apply = false;
        self.collect = false;
        self.fails = 0;
        self.mutated = false;
        node.check(v, path, self);
        let result = (self.fails == 0, self.mutated);
        (self.apply, self.collect, self.fails, self.mutated) = saved;
        result
    }

    /// Checks `v` against `node` without changing it, collecting its violations separately.
    fn violations_of(&mut self, node: &Node, v: &mut Value, path: &Path<'_>) -> Vec<Violation> {
        let saved = (self.apply, self.collect, self.fails, self.mutated);
        let start = self.errors.len();
        self.apply = false;
        self.collect = true;
        node.check(v, path, self);
        let found = self.errors.split_off(start);
        (self.apply, self.collect, self.fails, self.mutated) = saved;
        found
    }
}

fn type_matches(types: u8, v: &Value) -> bool {
    let bit = match v {
        Value::Null => T_NULL,
        Value::Bool(_) => T_BOOLEAN,
        Value::Object(_) => T_OBJECT,
        Value::Array(_) => T_ARRAY,
        Value::String(_) => T_STRING,
        Value::Number(n) => {
            return types & T_NUMBER != 0 || (types & T_INTEGER != 0 && is_integral(n));
        }
    };
    types & bit != 0
}

impl Node {
    #[inline]
    fn check(&self, value: &mut Value, path: &Path<'_>, ctx: &mut Ctx) {
        if !self.trivial && !self.fast_accepts(value, ctx, true) {
            self.check_nontrivial(value, path, ctx);
        }
    }

    fn check_nontrivial(&self, value: &mut Value, path: &Path<'_>, ctx: &mut Ctx) {
        if self.never {
            ctx.fail(path, || ("no value is allowed here".to_owned(), None));
            return;
        }
        if self.types != 0
            && (!type_matches(self.types, value)
                || (ctx.lax
                    && self.types & (T_INTEGER | T_NUMBER) == T_INTEGER
                    && matches!(value, Value::Number(n) if n.is_f64())))
        {
            self.check_retyped(value, path, ctx);
        } else {
            self.check_value(value, path, ctx);
        }
    }

    /// The value is not of the expected type (or, lax, is an integral float where an integer is
    /// expected): coerce it if lax mode allows, else report the type.
    #[cold]
    #[inline(never)]
    fn check_retyped(&self, value: &mut Value, path: &Path<'_>, ctx: &mut Ctx) {
        let replacement = if !ctx.lax {
            None
        } else if type_matches(self.types, value) {
            match self.integral_float(value) {
                Some(c) => Some(c),
                // Out of the i64/u64 range: still an integer, left as is.
                None => return self.check_value(value, path, ctx),
            }
        } else {
            self.coerce(value)
        };
        let Some(c) = replacement else {
            self.type_fail(value, path, ctx);
            return;
        };
        ctx.mutated = true;
        if ctx.apply {
            *value = c;
            self.check_value(value, path, ctx);
        } else {
            let mut tmp = c;
            self.check_value(&mut tmp, path, ctx);
        }
    }

    /// Everything but `type`, on a value of the right type.
    #[inline]
    fn check_value(&self, value: &mut Value, path: &Path<'_>, ctx: &mut Ctx) {
        if (self.constant.is_some() || self.enumeration.is_some())
            && !self.check_literals(value, path, ctx)
        {
            return;
        }

        match &mut *value {
            Value::Number(n) => {
                if let Some(r) = &self.number {
                    self.check_number(r, n, path, ctx);
                }
            }
            Value::String(s) => {
                if let Some(r) = &self.string {
                    check_string(r, s, path, ctx);
                }
            }
            Value::Array(items) => {
                if let Some(r) = &self.array {
                    r.check(items, path, ctx);
                }
            }
            Value::Object(map) => {
                if let Some(r) = &self.object {
                    r.check(map, path, ctx);
                }
            }
            Value::Null | Value::Bool(_) => {}
        }
        if ctx.done() {
            return;
        }
        if let Some(c) = &self.comp {
            c.check(value, path, ctx);
        }
    }

    /// `const` and `enum`; false when the value is not allowed (and was reported).
    #[inline(never)]
    fn check_literals(&self, value: &Value, path: &Path<'_>, ctx: &mut Ctx) -> bool {
        if let Some(c) = &self.constant
            && !json_eq(value, c)
        {
            ctx.fail(path, || {
                (format!("must be {c}, got {}", received(value)), None)
            });
            return false;
        }
        if let Some(values) = &self.enumeration
            && !values.iter().any(|x| json_eq(value, x))
        {
            ctx.fail(path, || {
                let allowed: Vec<&Value> = values.iter().collect();
                one_of_message(&allowed, value)
            });
            return false;
        }
        true
    }

    /// Lax: an integral float where only integers are expected becomes an integer.
    fn integral_float(&self, v: &Value) -> Option<Value> {
        if self.types & T_INTEGER == 0 || self.types & T_NUMBER != 0 {
            return None;
        }
        match v {
            Value::Number(n) if n.is_f64() => float_to_int(n.as_f64()?).map(Value::Number),
            _ => None,
        }
    }

    /// Lax: the replacement for a value of the wrong type, if it can be read as the right one.
    fn coerce(&self, v: &Value) -> Option<Value> {
        let Value::String(s) = v else {
            return None;
        };
        if self.types & (T_NUMBER | T_INTEGER) != 0
            && let Some(n) = parse_bare_number(s)
        {
            if self.types & T_NUMBER != 0 {
                return Some(Value::Number(n));
            }
            if is_integral(&n) {
                let n = match n.as_f64() {
                    Some(f) if n.is_f64() => float_to_int(f).unwrap_or(n),
                    _ => n,
                };
                return Some(Value::Number(n));
            }
        }
        if self.types & T_BOOLEAN != 0 {
            match s.as_str() {
                "true" => return Some(Value::Bool(true)),
                "false" => return Some(Value::Bool(false)),
                _ => {}
            }
        }
        None
    }

    fn type_fail(&self, v: &Value, path: &Path<'_>, ctx: &mut Ctx) {
        ctx.fail(path, || {
            let in_unit = self.in_unit();
            let message = format!(
                "must be {}{in_unit}, got {}",
                type_words(self.types),
                received(v)
            );
            let hint = match v {
                Value::String(s) if self.types & (T_NUMBER | T_INTEGER) != 0 => {
                    let integer_only = self.types & T_NUMBER == 0;
                    // A prefix longer than a quoted string would be is no useful example (and
                    // would make the message as large as the input).
                    numeric_prefix(s)
                        .filter(|p| !(integer_only && p.contains('.')))
                        .filter(|p| p.len() <= QUOTE_MAX_CHARS)
                        .map(|p| format!("send a bare number{in_unit}, e.g. {p}"))
                }
                _ => None,
            };
            (message, hint)
        });
    }

    fn check_number(&self, r: &NumRules, n: &Number, path: &Path<'_>, ctx: &mut Ctx) {
        let v = Num::of(n);
        let lo_bad = r.lo.is_some_and(|b| {
            let o = cmp_num(v, b.value);
            if b.exclusive {
                o != Ordering::Greater
            } else {
                o == Ordering::Less
            }
        });
        let hi_bad = r.hi.is_some_and(|b| {
            let o = cmp_num(v, b.value);
            if b.exclusive {
                o != Ordering::Less
            } else {
                o == Ordering::Greater
            }
        });
        if lo_bad || hi_bad {
            ctx.fail(path, || {
                let range = match (r.lo, r.hi) {
                    (Some(lo), Some(hi)) if !lo.exclusive && !hi.exclusive => {
                        format!("between {} and {}", lo.value, hi.value)
                    }
                    (lo, hi) => {
                        let lo = lo.map(|b| {
                            let w = if b.exclusive {
                                "greater than"
                            } else {
                                "at least"
                            };
                            format!("{w} {}", b.value)
                        });
                        let hi = hi.map(|b| {
                            let w = if b.exclusive { "less than" } else { "at most" };
                            format!("{w} {}", b.value)
                        });
                        match (lo, hi) {
                            (Some(lo), Some(hi)) => format!("{lo} and {hi}"),
                            (lo, hi) => lo.or(hi).unwrap_or_default(),
                        }
                    }
                };
                (
                    format!(
                        "must be {range}{}, got {}",
                        self.unit_suffix(),
                        fmt_number(n)
                    ),
                    None,
                )
            });
        }
        if let Some(m) = r.multiple_of
            && !is_multiple(v, m)
        {
            ctx.fail(path, || {
                (
                    format!(
                        "must be a multiple of {m}{}, got {}",
                        self.unit_suffix(),
                        fmt_number(n)
                    ),
                    None,
                )
            });
        }
    }
}

/// Whether `s` meets the string rules (what [`check_string`] checks, without reporting).
#[inline]
fn string_ok(r: &StrRules, s: &str) -> bool {
    r.min_len
        .is_none_or(|min| s.len() >= min && (s.is_ascii() || s.chars().count() >= min))
        && r.max_len
            .is_none_or(|max| s.len() <= max || s.chars().count() <= max)
        && r.pattern.as_ref().is_none_or(|re| re.is_match(s))
}

#[inline(never)]
fn check_string(r: &StrRules, s: &str, path: &Path<'_>, ctx: &mut Ctx) {
    // Byte length bounds the character count from above: count only when it matters.
    if let Some(min) = r.min_len
        && (s.len() < min || s.chars().count() < min)
    {
        ctx.fail(path, || {
            (
                format!(
                    "must be at least {min} characters long, got {}",
                    s.chars().count()
                ),
                None,
            )
        });
    }
    if let Some(max) = r.max_len
        && s.len() > max
        && s.chars().count() > max
    {
        ctx.fail(path, || {
            (
                format!(
                    "must be at most {max} characters long, got {}",
                    s.chars().count()
                ),
                None,
            )
        });
    }
    if let Some(re) = &r.pattern
        && !ctx.done()
        && !re.is_match(s)
    {
        ctx.fail(path, || {
            (
                format!(
                    "must match the pattern {}, got string {}",
                    re.as_str(),
                    quote(s)
                ),
                None,
            )
        });
    }
}

impl ArrRules {
    #[inline(never)]
    fn check(&self, items: &mut [Value], path: &Path<'_>, ctx: &mut Ctx) {
        let len = items.len();
        if let Some(min) = self.min_items
            && len < min
        {
            ctx.fail(path, || {
                (format!("must have at least {min} items, got {len}"), None)
            });
        }
        if let Some(max) = self.max_items
            && len > max
        {
            ctx.fail(path, || {
                (format!("must have at most {max} items, got {len}"), None)
            });
        }
        // Before the items are coerced, so that trying and applying see the same values.
        if self.unique
            && !ctx.done()
            && let Some((i, j)) = find_duplicate(items)
        {
            ctx.fail(path, || {
                (
                    format!("must not contain duplicate items; item {j} repeats item {i}"),
                    None,
                )
            });
        }
        if ctx.done() || (self.items.is_none() && self.prefix.is_empty()) {
            return;
        }
        for (i, item) in items.iter_mut().enumerate() {
            let node = match self.prefix.get(i) {
                Some(n) => n,
                None => match &self.items {
                    Some(n) => n,
                    None => break,
                },
            };
            node.check(item, &path.index(i), ctx);
            if ctx.done() {
                return;
            }
        }
    }
}

/// The first 8 bytes of a property name as a number (zero-padded): names of different heads
/// differ, so most comparisons are one integer comparison.
#[inline(always)]
fn key_head(b: &[u8]) -> u64 {
    let n = b.len();
    if let Some(head) = b.first_chunk::<8>() {
        return u64::from_le_bytes(*head);
    }
    // Shorter: overlapping loads; the bytes they share are the same bytes at the same places.
    let at = |i: usize| u64::from(b[i]) << (8 * i);
    if n >= 4 {
        let word = |i: usize| {
            u64::from(u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])) << (8 * i)
        };
        word(0) | word(n - 4)
    } else if n > 0 {
        at(0) | at(n / 2) | at(n - 1)
    } else {
        0
    }
}

/// Whether `name` (whose [`key_head`] is `head`) equals `key` (whose head is `key_head`): the
/// heads, the lengths, then the rest.
#[inline(always)]
fn same_key(name: &[u8], head: u64, key: &[u8], key_head: u64) -> bool {
    if head != key_head || name.len() != key.len() {
        return false;
    }
    let len = key.len();
    if len <= 8 {
        return true;
    }
    short_eq(&name[8..], &key[8..])
}

/// Byte equality for the short strings names usually are, without a `memcmp` call: up to 16
/// bytes are compared as two overlapping words.
#[inline]
pub(crate) fn short_eq(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n > 16 {
        return a == b;
    }
    if n >= 8 {
        let word =
            |x: &[u8], at: usize| u64::from_le_bytes(x[at..at + 8].try_into().unwrap_or_default());
        return word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8);
    }
    if n >= 4 {
        let word =
            |x: &[u8], at: usize| u32::from_le_bytes(x[at..at + 4].try_into().unwrap_or_default());
        return word(a, 0) == word(b, 0) && word(a, n - 4) == word(b, n - 4);
    }
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// A change to make to an object once its properties are checked.
#[derive(Clone, Copy)]
enum Fix {
    /// Lax: drop an optional `null` that the property's schema does not accept.
    Remove(usize),
    /// Insert (or overwrite a dropped `null` with) the property's default.
    Default(usize),
}

impl ObjRules {
    /// Index in `props` of the property named `key`. `next` is where the linear scan starts
    /// (just after the previous match), so documents in schema order are matched in one step.
    #[inline(always)]
    fn find(&self, key: &str, next: &mut usize) -> Option<usize> {
        if let Some(index) = &self.index {
            return index.get(key).copied();
        }
        let props = self.props.as_slice();
        let n = props.len();
        let key = key.as_bytes();
        let head = key_head(key);
        // From `next` to the end, then from the beginning.
        let mut i = (*next).min(n);
        for _ in 0..n {
            if i == n {
                i = 0;
            }
            let p = &props[i];
            if same_key(p.name.as_bytes(), p.head, key, head) {
                *next = i + 1;
                return Some(i);
            }
            i += 1;
        }
        None
    }

    fn allowed(&self) -> &str {
        self.allowed.get_or_init(|| {
            let names: Vec<&str> = self
                .props
                .iter()
                .filter(|p| p.declared)
                .map(|p| p.name.as_str())
                .collect();
            if names.is_empty() {
                "none".to_owned()
            } else {
                names.join(", ")
            }
        })
    }

    #[inline(never)]
    fn check(&self, map: &mut Map<String, Value>, path: &Path<'_>, ctx: &mut Ctx) {
        let len = map.len();
        if let Some(min) = self.min_props
            && len < min
        {
            ctx.fail(path, || {
                (format!("must have at least {min} fields, got {len}"), None)
            });
        }
        if let Some(max) = self.max_props
            && len > max
        {
            ctx.fail(path, || {
                (format!("must have at most {max} fields, got {len}"), None)
            });
        }
        if ctx.done() {
            return;
        }

        let n = self.props.len();
        let root = path.is_root();
        let mut fixes: Vec<Fix> = Vec::new();
        let mut unknown = len;
        if n <= LINEAR_LOOKUP_MAX {
            // One pass over the document parks each property's value in its schema slot (no
            // hashing); the slots are then checked in schema order.
            let mut slots: [Option<&mut Value>; LINEAR_LOOKUP_MAX] =
                [const { None }; LINEAR_LOOKUP_MAX];
            let mut next = 0;
            for (key, v) in map.iter_mut() {
                if let Some(i) = self.find(key, &mut next) {
                    unknown -= usize::from(self.props[i].declared);
                    slots[i] = Some(v);
                }
            }
            for (i, slot) in slots[..n].iter_mut().enumerate() {
                if !self.check_prop(i, slot.take(), &mut fixes, root, path, ctx) {
                    return;
                }
            }
        } else {
            // Many properties: one lookup per property, in schema order.
            for (i, p) in self.props.iter().enumerate() {
                let v = map.get_mut(p.name.as_str());
                unknown -= usize::from(v.is_some() && p.declared);
                if !self.check_prop(i, v, &mut fixes, root, path, ctx) {
                    return;
                }
            }
        }

        if unknown > 0 && !matches!(self.additional, Additional::Any) {
            let mut next = 0;
            for (key, v) in map.iter_mut() {
                if self
                    .find(key, &mut next)
                    .is_some_and(|i| self.props[i].declared)
                {
                    continue;
                }
                let child = path.key(key);
                match &self.additional {
                    Additional::Any => {}
                    Additional::Deny => ctx.fail(&child, || {
                        let names: Vec<&str> = self
                            .props
                            .iter()
                            .filter(|p| p.declared)
                            .map(|p| p.name.as_str())
                            .collect();
                        let hint = suggest(key, &names, false)
                            .map(|c| format!("did you mean {}?", json_str(c)));
                        let message = if names.is_empty() {
                            if root {
                                "unknown argument; this tool takes no arguments".to_owned()
                            } else {
                                "unknown field; this object has no fields".to_owned()
                            }
                        } else {
                            format!("unknown {}; allowed: {}", word(root), self.allowed())
                        };
                        (message, hint)
                    }),
                    Additional::Schema(node) => node.check(v, &child, ctx),
                }
                if ctx.done() {
                    return;
                }
            }
        }

        for fix in fixes {
            match fix {
                // `retain` keeps the order of the other keys (`remove` would not, with
                // serde_json's `preserve_order`).
                Fix::Remove(i) => map.retain(|k, _| *k != self.props[i].name),
                Fix::Default(i) => {
                    let p = &self.props[i];
                    if let Some(d) = &p.node.default {
                        map.insert(p.name.clone(), d.clone());
                    }
                }
            }
        }
    }

    /// Checks property `i` (`value` is `None` when absent); records the change to apply, if any,
    /// in `fixes` (only when applying). Returns false when a trial has already failed.
    #[inline]
    fn check_prop(
        &self,
        i: usize,
        value: Option<&mut Value>,
        fixes: &mut Vec<Fix>,
        root: bool,
        path: &Path<'_>,
        ctx: &mut Ctx,
    ) -> bool {
        let p = &self.props[i];
        let absent = match value {
            Some(v) if ctx.lax && v.is_null() && !p.required && !p.node.accepts_null => {
                // Treated as absent: dropped, or replaced by the default below.
                ctx.mutated = true;
                if ctx.apply && p.node.default.is_none() {
                    fixes.push(Fix::Remove(i));
                }
                true
            }
            Some(v) => {
                p.node.check(v, &path.key(&p.name), ctx);
                false
            }
            None => true,
        };
        if absent {
            if p.required {
                ctx.fail(&path.key(&p.name), || {
                    let w = word(root);
                    let message = match p.node.describe() {
                        Some(d) => format!("required {w} is missing; expected {d}"),
                        None => format!("required {w} is missing"),
                    };
                    (message, None)
                });
            } else if p.node.default.is_some() {
                ctx.mutated = true;
                if ctx.apply {
                    fixes.push(Fix::Default(i));
                }
            }
        }
        !ctx.done()
    }
}

/// How to explain that no branch of a `oneOf`/`anyOf` matched.
enum Report<'s> {
    /// Report this branch's violations as if it were the only schema.
    Branch(usize),
    /// One violation, at the given child key (or at the value itself).
    Fail {
        key: Option<&'s str>,
        message: String,
        hint: Option<String>,
    },
    /// "must match one of the allowed forms", with this branch's violations as the hint.
    Closest(usize),
}

impl CompRules {
    #[inline(never)]
    fn check(&self, v: &mut Value, path: &Path<'_>, ctx: &mut Ctx) {
        for branch in &self.all_of {
            branch.check(v, path, ctx);
            if ctx.done() {
                return;
            }
        }
        if !self.any_of.is_empty() {
            check_choice(&self.any_of, self.any_of_tag.as_ref(), false, v, path, ctx);
            if ctx.done() {
                return;
            }
        }
        if !self.one_of.is_empty() {
            check_choice(&self.one_of, self.one_of_tag.as_ref(), true, v, path, ctx);
            if ctx.done() {
                return;
            }
        }
        if let Some(not) = &self.not
            && ctx.trial(not, v, path).0
        {
            ctx.fail(path, || {
                ("must not match the excluded form".to_owned(), None)
            });
        }
    }
}

/// `oneOf` (`exactly_one`) or `anyOf`.
fn check_choice(
    branches: &[Node],
    tag: Option<&Tag>,
    exactly_one: bool,
    v: &mut Value,
    path: &Path<'_>,
    ctx: &mut Ctx,
) {
    // Internally tagged with a required, distinct tag: only the branch named by the tag can pass,
    // so check it directly (in place: a failure here fails the whole document).
    if let Some(tag) = tag.filter(|t| t.dispatch)
        && let Value::Object(map) = &*v
    {
        let picked = map
            .get(&tag.key)
            .and_then(|t| tag.consts.iter().position(|c| json_eq(c, t)));
        match picked {
            Some(i) => branches[i].check(v, path, ctx),
            None if ctx.collect => report_choice(branches, Some(tag), v, path, ctx),
            None => ctx.fails += 1,
        }
        return;
    }

    let mut first: Option<(usize, bool)> = None;
    let mut matches = 0;
    for (i, branch) in branches.iter().enumerate() {
        let (ok, mutated) = ctx.trial(branch, v, path);
        if ok {
            matches += 1;
            if first.is_none() {
                first = Some((i, mutated));
            }
            if !exactly_one || matches > 1 {
                break;
            }
        }
    }
    if matches > 1 {
        ctx.fail(path, || {
            ("matches more than one allowed form".to_owned(), None)
        });
        return;
    }
    match first {
        Some((i, mutated)) => {
            if mutated {
                if ctx.apply {
                    // Apply the passing branch's coercions and defaults; the others never touched `v`.
                    branches[i].check(v, path, ctx);
                } else {
                    ctx.mutated = true;
                }
            }
        }
        None if ctx.collect => report_choice(branches, tag, v, path, ctx),
        None => ctx.fails += 1,
    }
}

fn report_choice(
    branches: &[Node],
    tag: Option<&Tag>,
    v: &mut Value,
    path: &Path<'_>,
    ctx: &mut Ctx,
) {
    match plan_report(branches, tag, v, path.is_root()) {
        Report::Branch(i) => {
            let saved = (ctx.apply, ctx.mutated);
            ctx.apply = false;
            branches[i].check(v, path, ctx);
            (ctx.apply, ctx.mutated) = saved;
        }
        Report::Fail { key, message, hint } => match key {
            Some(k) => ctx.fail(&path.key(k), || (message, hint)),
            None => ctx.fail(path, || (message, hint)),
        },
        Report::Closest(i) => {
            let found = ctx.violations_of(&branches[i], v, path);
            let hint = (!found.is_empty()).then(|| {
                let messages: Vec<&str> = found.iter().map(|e| e.message.as_str()).collect();
                format!("closest form: {}", messages.join("; "))
            });
            ctx.fail(path, || {
                (
                    format!("must match one of the allowed forms, got {}", received(v)),
                    hint,
                )
            });
        }
    }
}

fn plan_report<'s>(
    branches: &'s [Node],
    tag: Option<&'s Tag>,
    v: &Value,
    root: bool,
) -> Report<'s> {
    if let Value::Object(map) = v {
        // (a) Internally tagged: {"type": "circle", ...}.
        if let Some(tag) = tag {
            let consts: Vec<&Value> = tag.consts.iter().collect();
            return match map.get(&tag.key) {
                Some(t) => match tag.consts.iter().position(|c| json_eq(c, t)) {
                    Some(i) => Report::Branch(i),
                    None => {
                        let (message, hint) = one_of_message(&consts, t);
                        Report::Fail {
                            key: Some(&tag.key),
                            message,
                            hint,
                        }
                    }
                },
                None => Report::Fail {
                    key: Some(&tag.key),
                    message: format!(
                        "required {} is missing; expected one of {}",
                        word(root),
                        render_list(consts.into_iter())
                    ),
                    hint: None,
                },
            };
        }
        // (b) Externally tagged: {"circle": {...}}.
        if map.len() == 1
            && let Some(keys) = external_keys(branches)
            && let Some(got) = map.keys().next()
        {
            return match keys.iter().find(|(_, k)| *k == got.as_str()) {
                Some(&(i, _)) => Report::Branch(i),
                None => {
                    let names: Vec<String> = keys.iter().map(|(_, k)| json_str(k)).collect();
                    Report::Fail {
                        key: None,
                        message: format!(
                            "must be an object with exactly one of the keys {}, got key {}",
                            names.join(", "),
                            quote(got)
                        ),
                        hint: None,
                    }
                }
            };
        }
    }
    // (c) A string where string constants are expected.
    if v.is_string()
        && let Some(allowed) = string_choices(branches)
    {
        let (message, hint) = one_of_message(&allowed, v);
        return Report::Fail {
            key: None,
            message,
            hint,
        };
    }
    // (d) The first branch of the value's type (else the first branch) as the closest form.
    let closest = branches
        .iter()
        .position(|b| b.types != 0 && type_matches(b.types, v))
        .unwrap_or(0);
    Report::Closest(closest)
}

/// Branch index and key of every object branch, when each requires exactly one property.
fn external_keys(branches: &[Node]) -> Option<Vec<(usize, &str)>> {
    let mut keys = Vec::new();
    for (i, b) in branches.iter().enumerate() {
        if let Some(o) = &b.object {
            let mut required = o.props.iter().filter(|p| p.required);
            match (required.next(), required.next()) {
                (Some(p), None) => keys.push((i, p.name.as_str())),
                _ => return None,
            }
        } else if b.types & T_OBJECT != 0 {
            return None;
        }
    }
    (!keys.is_empty()).then_some(keys)
}

/// All string constants of the branches, unless some other branch takes strings.
fn string_choices(branches: &[Node]) -> Option<Vec<&Value>> {
    let mut allowed = Vec::new();
    for b in branches {
        if let Some(c) = &b.constant {
            if c.is_string() {
                allowed.push(c);
            }
        } else if let Some(values) = &b.enumeration {
            allowed.extend(values.iter().filter(|x| x.is_string()));
        } else if b.types & T_STRING != 0 {
            return None;
        }
    }
    (!allowed.is_empty()).then_some(allowed)
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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

    // --- Display -------------------------------------------------------------------------

    #[test]
    fn display_forms() {
        let v = Violation {
            path: String::new(),
            message: "m".into(),
            hint: None,
        };
        assert_eq!(v.to_string(), "arguments: m");
        let v = Violation {
            path: "a.b".into(),
            message: "m".into(),
            hint: Some("h".into()),
        };
        assert_eq!(v.to_string(), "a.b: m (hint: h)");
    }

    // --- Types ---------------------------------------------------------------------------

    #[test]
    fn type_number_with_unit_and_hint() {
        assert_eq!(
            one(force_schema(), json!({"force": "15N"})),
            "force: must be a number in N, got string \"15N\" (hint: send a bare number in N, e.g. 15)"
        );
        assert_eq!(
            one(force_schema(), json!({"force": "15 N"})),
            "force: must be a number in N, got string \"15 N\" (hint: send a bare number in N, e.g. 15)"
        );
    }

    #[test]
    fn long_numeric_prefixes_get_no_example() {
        // 40 digits: still an example; 41 or 10 MB of digits: none, and the message stays short.
        let forty = "1".repeat(40);
        assert_eq!(
            one(force_schema(), json!({"force": format!("{forty}N")})),
            format!(
                "force: must be a number in N, got string \"{forty}…\" (41 characters) (hint: send a bare number in N, e.g. {forty})"
            )
        );
        let e = one(force_schema(), json!({"force": format!("{forty}1N")}));
        assert_eq!(
            e,
            format!("force: must be a number in N, got string \"{forty}…\" (42 characters)")
        );
        let e = one(force_schema(), json!({"force": "7".repeat(10 << 20)}));
        assert!(
            e.len() < 200 && !e.contains("hint"),
            "{}",
            &e[..e.floor_char_boundary(300)]
        );
    }

    #[test]
    fn type_number_without_unit() {
        let s = json!({"properties": {"d": {"type": "number"}}});
        assert_eq!(
            one(s.clone(), json!({"d": "20mm"})),
            "d: must be a number, got string \"20mm\" (hint: send a bare number, e.g. 20)"
        );
        assert_eq!(
            one(s.clone(), json!({"d": "abc"})),
            "d: must be a number, got string \"abc\""
        );
        assert_eq!(
            one(s.clone(), json!({"d": true})),
            "d: must be a number, got true"
        );
        assert_eq!(
            one(s.clone(), json!({"d": [1]})),
            "d: must be a number, got an array"
        );
        assert_eq!(
            one(s, json!({"d": {}})),
            "d: must be a number, got an object"
        );
    }

    #[test]
    fn type_root_object() {
        let s = json!({"type": "object"});
        assert_eq!(
            one(s.clone(), json!([1, 2])),
            "arguments: must be an object, got an array"
        );
        assert_eq!(
            one(s.clone(), json!(null)),
            "arguments: must be an object, got null"
        );
        assert_eq!(one(s, json!(3)), "arguments: must be an object, got 3");
    }

    #[test]
    fn type_integer() {
        let s = json!({"properties": {"n": {"type": "integer"}}});
        assert_eq!(
            one(s.clone(), json!({"n": 5.5})),
            "n: must be an integer, got 5.5"
        );
        assert_eq!(
            one(s.clone(), json!({"n": "7 pcs"})),
            "n: must be an integer, got string \"7 pcs\" (hint: send a bare number, e.g. 7)"
        );
        // A non-integral prefix gives no integer example.
        assert_eq!(
            one(s.clone(), json!({"n": "5.5"})),
            "n: must be an integer, got string \"5.5\""
        );
        assert_eq!(
            one(
                json!({"properties": {"n": {"type": "integer", "x-unit": "mm"}}}),
                json!({"n": 0.25})
            ),
            "n: must be an integer in mm, got 0.25"
        );
        // 5.0 is an integer, also in strict mode (and is then left as is).
        assert!(strict(s.clone(), json!({"n": 5.0})).is_empty());
        assert_eq!(
            fixed(s, json!({"n": 5.0}), Coercion::Strict),
            json!({"n": 5.0})
        );
    }

    #[test]
    fn type_union_words() {
        let s = json!({"properties": {"t": {"type": ["number", "null"], "x-unit": "s"}}});
        assert_eq!(
            one(s, json!({"t": "x"})),
            "t: must be a number or null in s, got string \"x\""
        );
        let s = json!({"properties": {"t": {"type": ["null", "string", "integer"]}}});
        assert_eq!(
            one(s, json!({"t": true})),
            "t: must be an integer or a string or null, got true"
        );
        let s = json!({"properties": {"t": {"type": ["boolean", "array", "object"]}}});
        assert_eq!(
            one(s, json!({"t": 1})),
            "t: must be a boolean or an array or an object, got 1"
        );
    }

    #[test]
    fn received_string_truncation() {
        let s = json!({"properties": {"n": {"type": "integer"}}});
        let forty = "a".repeat(40);
        assert_eq!(
            one(s.clone(), json!({"n": forty})),
            format!("n: must be an integer, got string \"{forty}\"")
        );
        let long = "a".repeat(10_485_760);
        assert_eq!(
            one(s.clone(), json!({"n": long})),
            format!("n: must be an integer, got string \"{forty}…\" (10485760 characters)")
        );
        let accents = "é".repeat(41);
        assert_eq!(
            one(s, json!({"n": accents})),
            format!(
                "n: must be an integer, got string \"{}…\" (41 characters)",
                "é".repeat(40)
            )
        );
    }

    #[test]
    fn received_string_is_json_escaped() {
        let s = json!({"properties": {"n": {"type": "integer"}}});
        assert_eq!(
            one(s, json!({"n": "a\"b\n"})),
            "n: must be an integer, got string \"a\\\"b\\n\""
        );
    }

    #[test]
    fn boolean_expected() {
        let s = json!({"properties": {"on": {"type": "boolean"}}});
        assert_eq!(
            one(s, json!({"on": "yes"})),
            "on: must be a boolean, got string \"yes\""
        );
    }

    // --- Ranges --------------------------------------------------------------------------

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

    // --- Enum / const --------------------------------------------------------------------

    fn grip_schema() -> Value {
        json!({"properties": {"grip": {"type": "string", "enum": ["parallel", "suction", "adaptive"]}}})
    }

    #[test]
    fn enum_message_and_hints() {
        assert_eq!(
            one(grip_schema(), json!({"grip": "magnetic"})),
            "grip: must be one of \"parallel\", \"suction\", \"adaptive\", got \"magnetic\""
        );
        assert_eq!(
            one(grip_schema(), json!({"grip": "Parallel"})),
            "grip: must be one of \"parallel\", \"suction\", \"adaptive\", got \"Parallel\" (hint: did you mean \"parallel\"?)"
        );
        assert_eq!(
            one(grip_schema(), json!({"grip": "suctoin"})),
            "grip: must be one of \"parallel\", \"suction\", \"adaptive\", got \"suctoin\" (hint: did you mean \"suction\"?)"
        );
        let s = json!({"properties": {"m": {"enum": ["fast_mode", "slow_mode", "ab"]}}});
        assert_eq!(
            one(s.clone(), json!({"m": "Fast-Mode"})),
            "m: must be one of \"fast_mode\", \"slow_mode\", \"ab\", got \"Fast-Mode\" (hint: did you mean \"fast_mode\"?)"
        );
        assert_eq!(
            one(s.clone(), json!({"m": "slow mode"})),
            "m: must be one of \"fast_mode\", \"slow_mode\", \"ab\", got \"slow mode\" (hint: did you mean \"slow_mode\"?)"
        );
        // Distance 1 but not less than half of a 2-character word: no hint.
        assert_eq!(
            one(s.clone(), json!({"m": "ax"})),
            "m: must be one of \"fast_mode\", \"slow_mode\", \"ab\", got \"ax\""
        );
        assert_eq!(
            one(s, json!({"m": 3})),
            "m: must be one of \"fast_mode\", \"slow_mode\", \"ab\", got 3"
        );
    }

    #[test]
    fn enum_numeric_equality() {
        let s = json!({"properties": {"n": {"enum": [1, 2.5, null]}}});
        assert!(lax(s.clone(), json!({"n": 1.0})).is_empty());
        assert!(lax(s.clone(), json!({"n": null})).is_empty());
        assert_eq!(
            one(s, json!({"n": 2})),
            "n: must be one of 1, 2.5, null, got 2"
        );
        let s = json!({"properties": {"n": {"enum": [[1, {"a": 2}]]}}});
        assert!(lax(s, json!({"n": [1.0, {"a": 2.0}]})).is_empty());
    }

    #[test]
    fn const_message() {
        let s = json!({"properties": {"k": {"const": "circle"}}});
        assert_eq!(
            one(s.clone(), json!({"k": "square"})),
            "k: must be \"circle\", got string \"square\""
        );
        assert_eq!(one(s, json!({"k": 1})), "k: must be \"circle\", got 1");
        let s = json!({"properties": {"k": {"const": 3}}});
        assert!(lax(s.clone(), json!({"k": 3.0})).is_empty());
        assert_eq!(one(s, json!({"k": [3]})), "k: must be 3, got an array");
    }

    // --- Required ------------------------------------------------------------------------

    #[test]
    fn required_messages() {
        let s = json!({
            "type": "object",
            "properties": {
                "anything": {},
                "force": {"type": "number", "x-unit": "N"},
                "grip": {"type": "string", "enum": ["a", "b"]},
                "kind": {"const": "box"},
                "tags": {"type": "array"},
                "target_position": {
                    "type": "object",
                    "properties": {
                        "x": {"type": "number"},
                        "y": {"type": "number"},
                        "z": {"type": "number", "x-unit": "m"}
                    },
                    "required": ["x", "y", "z"]
                }
            },
            "required": ["anything", "force", "grip", "kind", "tags", "target_position", "extra"]
        });
        assert_eq!(
            lax(s.clone(), json!({})),
            vec![
                "anything: required argument is missing",
                "force: required argument is missing; expected a number in N",
                "grip: required argument is missing; expected one of \"a\", \"b\"",
                "kind: required argument is missing; expected \"box\"",
                "tags: required argument is missing; expected an array",
                "target_position: required argument is missing; expected an object with fields x, y, z",
                "extra: required argument is missing",
            ]
        );
        let doc = json!({"force": 1, "grip": "a", "target_position": {"y": 1}, "tags": [], "anything": 0, "kind": "box", "extra": 1});
        assert_eq!(
            lax(s, doc),
            vec![
                "target_position.x: required field is missing; expected a number",
                "target_position.z: required field is missing; expected a number in m",
            ]
        );
    }

    #[test]
    fn required_null_is_not_absent() {
        let s = json!({"properties": {"a": {"type": "number"}}, "required": ["a"]});
        assert_eq!(one(s, json!({"a": null})), "a: must be a number, got null");
    }

    // --- Additional properties -----------------------------------------------------------

    #[test]
    fn unknown_properties() {
        let s = json!({
            "type": "object",
            "properties": {
                "force": {"type": "number"},
                "pose": {
                    "type": "object",
                    "properties": {"pitch": {}, "roll": {}, "yaw": {}},
                    "additionalProperties": false
                },
                "width": {"type": "number"}
            },
            "additionalProperties": false
        });
        assert_eq!(
            lax(s.clone(), json!({"forse": 1})),
            vec![
                "forse: unknown argument; allowed: force, pose, width (hint: did you mean \"force\"?)"
            ]
        );
        assert_eq!(
            lax(s.clone(), json!({"Width": 1})),
            vec![
                "Width: unknown argument; allowed: force, pose, width (hint: did you mean \"width\"?)"
            ]
        );
        assert_eq!(
            lax(s.clone(), json!({"speed": 1})),
            vec!["speed: unknown argument; allowed: force, pose, width"]
        );
        assert_eq!(
            lax(s.clone(), json!({"pose": {"a b": 2, "jaw": 1}})),
            vec![
                "pose[\"a b\"]: unknown field; allowed: pitch, roll, yaw",
                "pose.jaw: unknown field; allowed: pitch, roll, yaw (hint: did you mean \"yaw\"?)",
            ]
        );
    }

    #[test]
    fn additional_properties_schema() {
        let s = json!({
            "properties": {"a": {"type": "string"}},
            "additionalProperties": {"type": "integer", "minimum": 0}
        });
        assert!(lax(s.clone(), json!({"a": "x", "b": 1, "c": 2})).is_empty());
        assert_eq!(
            lax(s.clone(), json!({"a": "x", "b": -1, "c": "z"})),
            vec![
                "b: must be at least 0, got -1",
                "c: must be an integer, got string \"z\""
            ]
        );
        // Extra values are coerced too.
        assert_eq!(fixed(s, json!({"b": "4"}), Coercion::Lax), json!({"b": 4}));
    }

    #[test]
    fn required_only_names_are_not_declared() {
        let s = json!({"properties": {"a": {}}, "required": ["b"], "additionalProperties": false});
        assert_eq!(
            lax(s, json!({"b": 1})),
            vec!["b: unknown argument; allowed: a (hint: did you mean \"a\"?)"]
        );
    }

    #[test]
    fn many_properties_use_index() {
        let mut props = Map::new();
        for i in 0..40 {
            props.insert(format!("p{i:02}"), json!({"type": "integer"}));
        }
        let s = json!({"properties": props, "additionalProperties": false});
        let v = compile(s);
        assert!(errs(&v, json!({"p00": 1, "p39": 2}), Coercion::Strict).is_empty());
        let e = errs(&v, json!({"p00": 1, "p40": 2}), Coercion::Strict);
        assert_eq!(e.len(), 1);
        assert!(
            e[0].starts_with("p40: unknown argument; allowed: p00, p01,"),
            "{e:?}"
        );
        assert!(e[0].ends_with("p39 (hint: did you mean \"p00\"?)"), "{e:?}");
    }

    #[test]
    fn many_properties_required_defaults_and_nulls() {
        let mut props = Map::new();
        for i in 0..20 {
            props.insert(format!("p{i:02}"), json!({"type": "integer"}));
        }
        props.insert("p10".into(), json!({"type": "integer", "default": 7}));
        let s =
            json!({"properties": props, "required": ["p03", "p05"], "additionalProperties": false});
        let v = compile(s);
        assert_eq!(
            errs(&v, json!({"p03": 1, "p04": "x", "zz": 0}), Coercion::Lax),
            vec![
                "p04: must be an integer, got string \"x\"",
                "p05: required argument is missing; expected an integer",
                "zz: unknown argument; allowed: p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, \
                 p10, p11, p12, p13, p14, p15, p16, p17, p18, p19",
            ]
        );
        let mut doc = json!({"p03": "1", "p05": 2, "p12": null, "p10": null});
        assert_eq!(v.validate(&mut doc, Coercion::Lax), Ok(()));
        assert_eq!(doc, json!({"p03": 1, "p05": 2, "p10": 7}));
    }

    #[test]
    fn coercion_default_is_lax() {
        assert_eq!(Coercion::default(), Coercion::Lax);
    }

    // --- Strings -------------------------------------------------------------------------

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

    // --- Arrays --------------------------------------------------------------------------

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

    // --- Objects -------------------------------------------------------------------------

    #[test]
    fn object_sizes() {
        let s = json!({"properties": {"o": {"type": "object", "minProperties": 1, "maxProperties": 2}}});
        assert_eq!(
            one(s.clone(), json!({"o": {}})),
            "o: must have at least 1 fields, got 0"
        );
        assert_eq!(
            one(s, json!({"o": {"a": 1, "b": 2, "c": 3}})),
            "o: must have at most 2 fields, got 3"
        );
    }

    // --- Paths ---------------------------------------------------------------------------

    #[test]
    fn path_rendering() {
        let s = json!({"properties": {
            "": {"type": "integer"},
            "a b": {"type": "integer"},
            "x": {"properties": {"k-1_B": {"type": "integer"}, "é": {"type": "integer"}}}
        }});
        assert_eq!(
            lax(
                s,
                json!({"a b": "z", "": "z", "x": {"é": "z", "k-1_B": "z"}})
            ),
            vec![
                "[\"\"]: must be an integer, got string \"z\"",
                "[\"a b\"]: must be an integer, got string \"z\"",
                "x.k-1_B: must be an integer, got string \"z\"",
                "x[\"é\"]: must be an integer, got string \"z\"",
            ]
        );
        let s = json!({"type": "array", "items": {"type": "array", "items": {"type": "integer"}}});
        assert_eq!(
            lax(s, json!([[1], [2, "x"]])),
            vec!["[1][1]: must be an integer, got string \"x\""]
        );
    }

    // --- Coercion ------------------------------------------------------------------------

    fn coerce_schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "count": {"type": "integer"},
                "force": {"type": "number"},
                "maybe": {"type": ["integer", "null"]},
                "on": {"type": "boolean"},
                "s": {"type": "string"}
            }
        })
    }

    #[test]
    fn lax_coercions() {
        let doc = json!({"force": "15", "count": "5", "on": "true", "maybe": 7.0, "s": "15"});
        assert_eq!(
            fixed(coerce_schema(), doc, Coercion::Lax),
            json!({"force": 15, "count": 5, "on": true, "maybe": 7, "s": "15"})
        );
        let doc = json!({"force": "0.5", "count": 5.0, "on": "false"});
        assert_eq!(
            fixed(coerce_schema(), doc, Coercion::Lax),
            json!({"force": 0.5, "count": 5, "on": false})
        );
        let doc = json!({"force": "-3", "count": "5.0", "maybe": "-2"});
        let out = fixed(coerce_schema(), doc, Coercion::Lax);
        assert_eq!(out, json!({"force": -3, "count": 5, "maybe": -2}));
        assert!(out["count"].is_u64() && out["maybe"].is_i64());
        // Large integral floats stay floats when out of the i64/u64 range (still integers).
        let out = fixed(coerce_schema(), json!({"count": 1e20}), Coercion::Lax);
        assert!(out["count"].is_f64());
    }

    #[test]
    fn lax_refuses_ambiguous_strings() {
        for bad in [
            " 15", "15 ", "15N", "1_000", "0x10", "NaN", "", "+5", "1e400", "5.", ".5",
        ] {
            let e = lax(coerce_schema(), json!({"force": bad}));
            assert_eq!(e.len(), 1, "{bad:?} should not be coerced");
        }
        assert_eq!(
            lax(coerce_schema(), json!({"on": "True", "count": "2.5"})),
            vec![
                "count: must be an integer, got string \"2.5\"",
                "on: must be a boolean, got string \"True\"",
            ]
        );
    }

    #[test]
    fn coerced_values_are_then_checked() {
        assert_eq!(
            one(force_schema(), json!({"force": "100"})),
            "force: must be between 5 and 30 N, got 100"
        );
        assert_eq!(
            fixed(force_schema(), json!({"force": "7.5"}), Coercion::Lax),
            json!({"force": 7.5})
        );
        let s = json!({"properties": {"m": {"type": "integer", "enum": [1, 2]}}});
        assert_eq!(fixed(s, json!({"m": "2"}), Coercion::Lax), json!({"m": 2}));
    }

    #[test]
    fn strict_refuses_coercions() {
        assert_eq!(
            strict(
                coerce_schema(),
                json!({"force": "15", "count": "5", "on": "true", "maybe": 7.0})
            ),
            vec![
                "count: must be an integer, got string \"5\" (hint: send a bare number, e.g. 5)",
                "force: must be a number, got string \"15\" (hint: send a bare number, e.g. 15)",
                "on: must be a boolean, got string \"true\"",
            ]
        );
        assert_eq!(
            fixed(coerce_schema(), json!({"maybe": 7.0}), Coercion::Strict),
            json!({"maybe": 7.0})
        );
        assert_eq!(
            strict(coerce_schema(), json!({"force": null})),
            vec!["force: must be a number, got null"]
        );
    }

    #[test]
    fn null_as_absent_in_lax_mode() {
        let s = json!({
            "type": "object",
            "properties": {
                "a": {"type": "number", "default": 3},
                "b": {"type": "string"},
                "c": {"type": ["string", "null"], "default": "x"},
                "d": {"type": "integer"}
            },
            "required": ["d"],
            "additionalProperties": false
        });
        assert_eq!(
            fixed(
                s.clone(),
                json!({"a": null, "b": null, "c": null, "d": 1}),
                Coercion::Lax
            ),
            json!({"a": 3, "c": null, "d": 1})
        );
        assert_eq!(
            strict(s, json!({"a": null, "b": null, "c": null, "d": null})),
            vec![
                "a: must be a number, got null",
                "b: must be a string, got null",
                "d: must be an integer, got null"
            ]
        );
    }

    #[test]
    fn defaults_inserted_in_both_modes() {
        let s = json!({
            "type": "object",
            "properties": {
                "speed": {"type": "number", "default": 0.5},
                "mode": {"enum": ["a", "b"], "default": "a"},
                "nested": {
                    "type": "object",
                    "properties": {"k": {"type": "integer", "default": 1}},
                    "default": {}
                },
                "given": {"type": "integer", "default": 9}
            },
            "additionalProperties": false
        });
        let expected = json!({"speed": 0.5, "mode": "a", "nested": {}, "given": 2});
        assert_eq!(
            fixed(s.clone(), json!({"given": 2}), Coercion::Lax),
            expected
        );
        assert_eq!(
            fixed(s.clone(), json!({"given": 2}), Coercion::Strict),
            expected
        );
        // Defaults inside a present nested object.
        assert_eq!(
            fixed(s, json!({"nested": {}}), Coercion::Strict),
            json!({"speed": 0.5, "mode": "a", "nested": {"k": 1}, "given": 9})
        );
    }

    // --- oneOf / anyOf / allOf / not ------------------------------------------------------

    fn shape_schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "shape": {
                    "oneOf": [
                        {
                            "type": "object",
                            "properties": {
                                "kind": {"type": "string", "const": "circle"},
                                "radius": {"type": "number", "exclusiveMinimum": 0, "x-unit": "m"}
                            },
                            "required": ["kind", "radius"],
                            "additionalProperties": false
                        },
                        {
                            "type": "object",
                            "properties": {
                                "kind": {"type": "string", "const": "square"},
                                "side": {"type": "number", "default": 1}
                            },
                            "required": ["kind"],
                            "additionalProperties": false
                        }
                    ]
                }
            },
            "required": ["shape"]
        })
    }

    #[test]
    fn internally_tagged_selection() {
        assert_eq!(
            fixed(
                shape_schema(),
                json!({"shape": {"kind": "circle", "radius": "2"}}),
                Coercion::Lax
            ),
            json!({"shape": {"kind": "circle", "radius": 2}})
        );
        assert_eq!(
            fixed(
                shape_schema(),
                json!({"shape": {"kind": "square"}}),
                Coercion::Strict
            ),
            json!({"shape": {"kind": "square", "side": 1}})
        );
        assert_eq!(
            lax(
                shape_schema(),
                json!({"shape": {"kind": "circle", "radius": -1, "side": 2}})
            ),
            vec![
                "shape.radius: must be greater than 0 m, got -1",
                "shape.side: unknown field; allowed: kind, radius",
            ]
        );
        assert_eq!(
            lax(shape_schema(), json!({"shape": {"kind": "Square"}})),
            vec![
                "shape.kind: must be one of \"circle\", \"square\", got \"Square\" (hint: did you mean \"square\"?)"
            ]
        );
        assert_eq!(
            lax(shape_schema(), json!({"shape": {"radius": 1}})),
            vec!["shape.kind: required field is missing; expected one of \"circle\", \"square\""]
        );
        assert_eq!(
            lax(shape_schema(), json!({})),
            vec![
                "shape: required argument is missing; expected an object with fields kind, radius or an object with fields kind, side"
            ]
        );
    }

    #[test]
    fn internally_tagged_at_root_without_dispatch() {
        // The tag is not required, so every branch is tried; reporting still uses the tag.
        let s = json!({"anyOf": [
            {"properties": {"kind": {"const": "a"}, "x": {"type": "integer"}}, "required": ["x"]},
            {"properties": {"kind": {"const": "b"}, "y": {"type": "integer"}}, "required": ["y"]}
        ]});
        assert!(lax(s.clone(), json!({"y": 1})).is_empty());
        assert_eq!(
            lax(s.clone(), json!({"kind": "b", "y": "z"})),
            vec!["y: must be an integer, got string \"z\""]
        );
        assert_eq!(
            lax(s.clone(), json!({"kind": "c"})),
            vec!["kind: must be one of \"a\", \"b\", got \"c\""]
        );
        assert_eq!(
            lax(s, json!({"z": 1})),
            vec!["kind: required argument is missing; expected one of \"a\", \"b\""]
        );
    }

    fn external_schema() -> Value {
        json!({"properties": {"action": {"oneOf": [
            {"type": "string", "const": "stop"},
            {"type": "string", "enum": ["home", "park"]},
            {
                "type": "object",
                "properties": {"move": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}},
                "required": ["move"],
                "additionalProperties": false
            },
            {
                "type": "object",
                "properties": {"grip": {"type": "number", "maximum": 10, "x-unit": "N"}},
                "required": ["grip"],
                "additionalProperties": false
            }
        ]}}})
    }

    #[test]
    fn externally_tagged_selection() {
        assert!(lax(external_schema(), json!({"action": "stop"})).is_empty());
        assert!(lax(external_schema(), json!({"action": "park"})).is_empty());
        assert_eq!(
            fixed(
                external_schema(),
                json!({"action": {"move": {"x": "1.5"}}}),
                Coercion::Lax
            ),
            json!({"action": {"move": {"x": 1.5}}})
        );
        assert_eq!(
            lax(external_schema(), json!({"action": {"grip": 20}})),
            vec!["action.grip: must be at most 10 N, got 20"]
        );
        assert_eq!(
            lax(external_schema(), json!({"action": {"move": {}}})),
            vec!["action.move.x: required field is missing; expected a number"]
        );
        assert_eq!(
            lax(external_schema(), json!({"action": {"jump": 1}})),
            vec![
                "action: must be an object with exactly one of the keys \"move\", \"grip\", got key \"jump\""
            ]
        );
        // A string: an enum violation over all string constants.
        assert_eq!(
            lax(external_schema(), json!({"action": "Home"})),
            vec![
                "action: must be one of \"stop\", \"home\", \"park\", got \"Home\" (hint: did you mean \"home\"?)"
            ]
        );
        // Anything else: closest form.
        assert_eq!(
            lax(external_schema(), json!({"action": 3})),
            vec![
                "action: must match one of the allowed forms, got 3 (hint: closest form: must be a string, got 3)"
            ]
        );
    }

    #[test]
    fn closest_form_fallback() {
        let s = json!({"properties": {"t": {"anyOf": [
            {"type": "number", "minimum": 5, "maximum": 30, "x-unit": "N"},
            {"type": "null"}
        ]}}});
        assert!(lax(s.clone(), json!({"t": null})).is_empty());
        assert_eq!(
            fixed(s.clone(), json!({"t": "7"}), Coercion::Lax),
            json!({"t": 7})
        );
        assert_eq!(
            lax(s.clone(), json!({"t": 100})),
            vec![
                "t: must match one of the allowed forms, got 100 (hint: closest form: must be between 5 and 30 N, got 100)"
            ]
        );
        assert_eq!(
            lax(s, json!({"t": "fast"})),
            vec![
                "t: must match one of the allowed forms, got string \"fast\" (hint: closest form: must be a number in N, got string \"fast\")"
            ]
        );
        // The branch of the value's type is the closest form, even if it is not the first.
        let s = json!({"properties": {"t": {"oneOf": [
            {"type": "null"},
            {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}
        ]}}});
        assert_eq!(
            lax(s, json!({"t": {"a": "x"}})),
            vec![
                "t: must match one of the allowed forms, got an object (hint: closest form: must be an integer, got string \"x\"; required field is missing; expected an integer)"
            ]
        );
    }

    #[test]
    fn string_choices_need_no_other_string_branch() {
        let s = json!({"properties": {"v": {"oneOf": [
            {"const": "auto"},
            {"type": "string", "pattern": "^[0-9]+ms$"}
        ]}}});
        assert!(lax(s.clone(), json!({"v": "auto"})).is_empty());
        assert!(lax(s.clone(), json!({"v": "15ms"})).is_empty());
        assert_eq!(
            lax(s, json!({"v": "soon"})),
            vec![
                "v: must match one of the allowed forms, got string \"soon\" (hint: closest form: must match the pattern ^[0-9]+ms$, got string \"soon\")"
            ]
        );
    }

    #[test]
    fn one_of_more_than_one_match() {
        let s = json!({"properties": {"v": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}]}}});
        assert!(lax(s.clone(), json!({"v": -1})).is_empty());
        assert!(lax(s.clone(), json!({"v": 0.5})).is_empty());
        assert_eq!(
            lax(s, json!({"v": 1})),
            vec!["v: matches more than one allowed form"]
        );
    }

    #[test]
    fn coercion_in_failing_branch_does_not_leak() {
        let s = json!({"oneOf": [
            {"properties": {"x": {"type": "integer"}}, "required": ["x", "y"]},
            {"properties": {"x": {"type": "string"}}, "required": ["x"], "additionalProperties": false}
        ]});
        assert_eq!(
            fixed(s.clone(), json!({"x": "5"}), Coercion::Lax),
            json!({"x": "5"})
        );
        assert_eq!(
            fixed(s, json!({"x": "5", "y": 0}), Coercion::Lax),
            json!({"x": 5, "y": 0})
        );
        // anyOf keeps the first passing branch's coercions only.
        let s = json!({"anyOf": [
            {"properties": {"x": {"type": "integer"}, "d": {"default": 1}}, "required": ["x", "y"]},
            {"properties": {"x": {"type": "boolean"}, "e": {"default": 2}}}
        ]});
        assert_eq!(
            fixed(s.clone(), json!({"x": "true"}), Coercion::Lax),
            json!({"x": true, "e": 2})
        );
        assert_eq!(
            fixed(s, json!({"x": "3", "y": 0}), Coercion::Lax),
            json!({"x": 3, "y": 0, "d": 1})
        );
    }

    #[test]
    fn nested_choices_apply_once() {
        // A oneOf inside an anyOf branch: the inner coercion is applied when the outer branch is.
        let s = json!({"anyOf": [
            {"type": "null"},
            {"type": "object", "properties": {"v": {"oneOf": [{"type": "boolean"}, {"type": "integer", "minimum": 10}]}}}
        ]});
        assert_eq!(
            fixed(s.clone(), json!({"v": "12"}), Coercion::Lax),
            json!({"v": 12})
        );
        assert_eq!(
            fixed(s.clone(), json!({"v": "false"}), Coercion::Lax),
            json!({"v": false})
        );
        assert_eq!(
            lax(s, json!({"v": "3"})),
            vec![
                "arguments: must match one of the allowed forms, got an object (hint: closest form: must match one of the allowed forms, got string \"3\")"
            ]
        );
    }

    #[test]
    fn all_of_reports_every_branch() {
        let s = json!({"properties": {"v": {"allOf": [
            {"type": "integer", "minimum": 0},
            {"maximum": 10},
            {"multipleOf": 5}
        ]}}});
        assert!(lax(s.clone(), json!({"v": "5"})).is_empty());
        assert_eq!(
            lax(s, json!({"v": 12})),
            vec![
                "v: must be at most 10, got 12",
                "v: must be a multiple of 5, got 12"
            ]
        );
    }

    #[test]
    fn not_keyword() {
        let s =
            json!({"properties": {"v": {"type": "string", "not": {"enum": ["root", "admin"]}}}});
        assert!(lax(s.clone(), json!({"v": "bob"})).is_empty());
        assert_eq!(
            one(s, json!({"v": "root"})),
            "v: must not match the excluded form"
        );
    }

    #[test]
    fn boolean_schemas() {
        assert!(lax(json!(true), json!({"anything": [1, 2]})).is_empty());
        assert_eq!(
            lax(json!(false), json!({})),
            vec!["arguments: no value is allowed here"]
        );
        let s = json!({"properties": {"gone": false, "any": true}});
        assert_eq!(
            one(s.clone(), json!({"gone": 1, "any": 2})),
            "gone: no value is allowed here"
        );
        assert!(lax(s, json!({"any": {"deep": [1]}})).is_empty());
    }

    // --- Ordering ------------------------------------------------------------------------

    #[test]
    fn all_violations_in_order() {
        let s = json!({
            "type": "object",
            "properties": {
                "arm": {"type": "string", "enum": ["left", "right"]},
                "force": {"type": "number", "minimum": 5, "maximum": 30, "x-unit": "N"},
                "pose": {
                    "type": "object",
                    "properties": {
                        "x": {"type": "number"},
                        "y": {"type": "number"}
                    },
                    "required": ["x", "y"]
                },
                "speed": {"type": "number"}
            },
            "required": ["arm", "force", "pose", "speed"],
            "additionalProperties": false
        });
        assert_eq!(
            lax(
                s,
                json!({"arm": "lft", "bogus": 1, "force": 100, "pose": {"x": "a"}, "zzz": 2})
            ),
            vec![
                "arm: must be one of \"left\", \"right\", got \"lft\" (hint: did you mean \"left\"?)",
                "force: must be between 5 and 30 N, got 100",
                "pose.x: must be a number, got string \"a\"",
                "pose.y: required field is missing; expected a number",
                "speed: required argument is missing; expected a number",
                "bogus: unknown argument; allowed: arm, force, pose, speed",
                "zzz: unknown argument; allowed: arm, force, pose, speed",
            ]
        );
    }

    #[test]
    fn unconstrained_values_are_not_walked() {
        // Far deeper than the schema: accepted without walking (no recursion on the document).
        // (Building and dropping such a value recurses, hence the large stack.)
        let run = || {
            let mut deep = json!(1);
            for _ in 0..10_000 {
                deep = Value::Array(vec![deep]);
            }
            let s = json!({"type": "object", "properties": {"payload": {"type": "array"}}});
            assert!(lax(s, json!({"payload": deep})).is_empty());
        };
        let handle = std::thread::Builder::new().stack_size(256 << 20).spawn(run);
        assert!(handle.is_ok_and(|h| h.join().is_ok()));
    }

    #[test]
    fn validator_is_reusable() {
        let v = compile(force_schema());
        for _ in 0..3 {
            assert!(errs(&v, json!({"force": 10}), Coercion::Lax).is_empty());
            assert_eq!(errs(&v, json!({"force": 1}), Coercion::Lax).len(), 1);
        }
    }

    // --- Compile errors ------------------------------------------------------------------

    fn compile_err(schema: Value) -> String {
        match Validator::compile(&schema) {
            Ok(_) => panic!("schema should not compile: {schema}"),
            Err(e) => e,
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
}
