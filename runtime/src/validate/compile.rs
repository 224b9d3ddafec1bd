//! Compiling a JSON Schema into the tree: every keyword checked once, here, so the walk never looks at JSON Schema again.

use std::cmp::Ordering;
use std::fmt;
use std::sync::OnceLock;

use regex::Regex;
use serde_json::{Map, Value};

use super::equality::json_eq;
use super::keys::key_head;
use super::messages::{json_str, render_list, type_words};
use super::numbers::cmp_num;
use super::paths::Path;
use super::tree::{
    Additional, ArrRules, Bound, CompRules, LINEAR_LOOKUP_MAX, Node, Num, NumRules, ObjRules, Prop,
    StrRules, T_ARRAY, T_BOOLEAN, T_INTEGER, T_NULL, T_NUMBER, T_OBJECT, T_STRING, Tag,
};
use super::walk::Ctx;

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
pub(super) fn scan_refs(schema: &Value, ptr: &mut String) -> Result<(), String> {
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

pub(super) fn compile_node(schema: &Value, ptr: &mut String) -> Result<Node, String> {
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
    if let Some(t) = map.get(crate::schema::keys::UNIT_NORM_KEY) {
        match t.as_f64() {
            Some(t) if t >= 0.0 => node.unit_norm = Some(t),
            _ => {
                return at_key(ptr, crate::schema::keys::UNIT_NORM_KEY, |p| {
                    Err(err_at(
                        p,
                        format!(
                            "\"{}\" must be a non-negative number (the tolerance), got {t}",
                            crate::schema::keys::UNIT_NORM_KEY
                        ),
                    ))
                });
            }
        }
    }

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
    pub(super) fn finish(mut self) -> Node {
        self.trivial = !self.never
            && self.types == 0
            && self.constant.is_none()
            && self.enumeration.is_none()
            && self.number.is_none()
            && self.string.is_none()
            && self.array.is_none()
            && self.object.is_none()
            && self.unit_norm.is_none()
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

    /// The constant a branch pins a tag property to: `const`, or an `enum` of one value.
    fn tag_const(&self) -> Option<&Value> {
        self.constant.as_ref().or(match &self.enumeration {
            Some(values) if values.len() == 1 => values.first(),
            _ => None,
        })
    }

    pub(super) fn in_unit(&self) -> String {
        self.unit
            .as_ref()
            .map(|u| format!(" in {u}"))
            .unwrap_or_default()
    }

    pub(super) fn unit_suffix(&self) -> String {
        self.unit
            .as_ref()
            .map(|u| format!(" {u}"))
            .unwrap_or_default()
    }

    /// What is expected here, in words ("a number in N", "one of \"a\", \"b\"", ...).
    pub(super) fn describe(&self) -> Option<String> {
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
