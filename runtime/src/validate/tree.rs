//! The compiled form of a schema: one typed node per subschema, and the type bits.

use std::collections::HashMap;
use std::sync::OnceLock;

use regex::Regex;
use serde_json::Value;

pub(super) const T_NULL: u8 = 1;
pub(super) const T_BOOLEAN: u8 = 2;
pub(super) const T_OBJECT: u8 = 4;
pub(super) const T_ARRAY: u8 = 8;
pub(super) const T_NUMBER: u8 = 16;
pub(super) const T_INTEGER: u8 = 32;
pub(super) const T_STRING: u8 = 64;

/// Above this many properties, keys are looked up in a hash map instead of a linear scan.
pub(super) const LINEAR_LOOKUP_MAX: usize = 16;
/// Above this many scalar items, `uniqueItems` sorts instead of comparing every pair.
pub(super) const PAIRWISE_UNIQUE_MAX: usize = 32;
/// Strings longer than this (in characters) are cut in messages.
pub(super) const QUOTE_MAX_CHARS: usize = 40;
/// 2^63 and 2^64 as f64 (exact).
pub(super) const TWO_63: f64 = 9.223_372_036_854_776e18;
pub(super) const TWO_64: f64 = 1.844_674_407_370_955_2e19;

#[derive(Debug, Clone, Default)]
pub(super) struct Node {
    /// Accepts every value: nothing to check, do not walk.
    pub(super) trivial: bool,
    /// The `false` schema.
    pub(super) never: bool,
    /// Whether `null` is valid here (used for lax null-as-absent).
    pub(super) accepts_null: bool,
    /// Bit set of `T_*`; 0 when `type` is absent.
    pub(super) types: u8,
    pub(super) unit: Option<String>,
    pub(super) constant: Option<Value>,
    pub(super) enumeration: Option<Vec<Value>>,
    pub(super) number: Option<Box<NumRules>>,
    pub(super) string: Option<Box<StrRules>>,
    pub(super) array: Option<Box<ArrRules>>,
    pub(super) object: Option<Box<ObjRules>>,
    pub(super) comp: Option<Box<CompRules>>,
    pub(super) default: Option<Value>,
    /// `x-toolwright-unit-norm`: an object whose number properties must have unit Euclidean
    /// norm (a quaternion), within this tolerance.
    pub(super) unit_norm: Option<f64>,
    /// What a value of each kind needs beyond the general walk (computed by `finish`).
    pub(super) fast: Fast,
}

/// Shortcuts for the values most arguments are: a number within plain bounds, a string of an
/// enum, a boolean. A shortcut only ever *accepts* (valid, nothing to coerce or insert); anything
/// it does not accept takes the general walk, which reports or coerces it, so the shortcuts cannot
/// change a result, only its cost.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Fast {
    /// A number passes when it lies within these bounds (as f64, exact: only set when the bounds
    /// and the number are exactly representable) and, when `integer`, is stored as an integer.
    pub(super) number: Option<FastNum>,
    /// A string passes when it is one of `enumeration` (if set) and meets the string rules.
    pub(super) string: bool,
    /// A boolean passes.
    pub(super) boolean: bool,
    /// An object passes when each property it has passes its shortcut, no required one is
    /// missing, and there is no unknown property where they are refused. Only for objects whose
    /// properties fit in the masks (at most `LINEAR_LOOKUP_MAX`), all declared, without
    /// `minProperties`/`maxProperties` or an `additionalProperties` schema.
    pub(super) object: Option<FastObj>,
    /// An array passes when every item passes the `items` shortcut and the count is within
    /// bounds (no `prefixItems`, no `uniqueItems`).
    pub(super) array: bool,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct FastObj {
    /// Bit i: property i is required.
    pub(super) required: u32,
    /// Bit i: property i has a default, to insert when it is absent.
    pub(super) defaults: u32,
    /// Unknown properties are refused (else allowed and not checked).
    pub(super) deny_unknown: bool,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct FastNum {
    pub(super) integer: bool,
    pub(super) lo: f64,
    pub(super) lo_exclusive: bool,
    pub(super) hi: f64,
    pub(super) hi_exclusive: bool,
}

/// 2^53: integers of smaller magnitude are exact as f64.
pub(super) const TWO_53_F64: f64 = 9_007_199_254_740_992.0;

#[derive(Debug, Clone, Copy)]
pub(super) enum Num {
    Int(i128),
    Float(f64),
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Bound {
    pub(super) value: Num,
    pub(super) exclusive: bool,
}

#[derive(Debug, Clone, Default)]
pub(super) struct NumRules {
    pub(super) lo: Option<Bound>,
    pub(super) hi: Option<Bound>,
    pub(super) multiple_of: Option<Num>,
}

#[derive(Debug, Clone, Default)]
pub(super) struct StrRules {
    pub(super) min_len: Option<usize>,
    pub(super) max_len: Option<usize>,
    pub(super) pattern: Option<Regex>,
}

#[derive(Debug, Clone, Default)]
pub(super) struct ArrRules {
    pub(super) prefix: Vec<Node>,
    pub(super) items: Option<Node>,
    pub(super) min_items: Option<usize>,
    pub(super) max_items: Option<usize>,
    pub(super) unique: bool,
}

#[derive(Debug, Clone)]
pub(super) struct Prop {
    pub(super) name: String,
    /// The name's first 8 bytes (see [`key_head`]), compared before the name itself.
    pub(super) head: u64,
    pub(super) node: Node,
    pub(super) required: bool,
    /// Listed in `properties` (a name only listed in `required` is not).
    pub(super) declared: bool,
}

#[derive(Debug, Clone)]
pub(super) enum Additional {
    Any,
    Deny,
    Schema(Box<Node>),
}

#[derive(Debug, Clone)]
pub(super) struct ObjRules {
    /// Declared properties in schema order, then names only listed in `required`.
    pub(super) props: Vec<Prop>,
    /// Name → index in `props`, for objects with more than `LINEAR_LOOKUP_MAX` properties.
    pub(super) index: Option<HashMap<String, usize>>,
    pub(super) additional: Additional,
    pub(super) min_props: Option<usize>,
    pub(super) max_props: Option<usize>,
    /// "a, b, c": rendered on the first unknown-property error.
    pub(super) allowed: OnceLock<String>,
}

/// The discriminating property of an internally tagged `oneOf`/`anyOf`.
#[derive(Debug, Clone)]
pub(super) struct Tag {
    pub(super) key: String,
    /// The tag's constant in each branch, in branch order.
    pub(super) consts: Vec<Value>,
    /// The tag is required in every branch and its constants are distinct: only the branch whose
    /// constant matches can pass.
    pub(super) dispatch: bool,
}

#[derive(Debug, Clone, Default)]
pub(super) struct CompRules {
    pub(super) all_of: Vec<Node>,
    pub(super) any_of: Vec<Node>,
    pub(super) any_of_tag: Option<Tag>,
    pub(super) one_of: Vec<Node>,
    pub(super) one_of_tag: Option<Tag>,
    pub(super) not: Option<Node>,
}
