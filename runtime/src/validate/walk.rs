//! The walk: a document checked against the compiled tree, with defaults and lax repairs applied in place.

use std::cmp::Ordering;

use serde_json::{Map, Number, Value};

use super::Violation;
use super::equality::{find_duplicate, json_eq};
use super::keys::{key_head, same_key};
use super::messages::{
    json_str, one_of_message, quote, received, render_list, suggest, type_words, word,
};
use super::numbers::{
    cmp_num, float_to_int, fmt_number, is_integral, is_multiple, numeric_prefix, parse_bare_number,
};
use super::paths::Path;
use super::tree::{
    Additional, ArrRules, CompRules, LINEAR_LOOKUP_MAX, Node, Num, NumRules, ObjRules,
    QUOTE_MAX_CHARS, StrRules, T_ARRAY, T_BOOLEAN, T_INTEGER, T_NULL, T_NUMBER, T_OBJECT, T_STRING,
    Tag,
};

pub(super) struct Ctx {
    pub(super) lax: bool,
    /// Apply coercions and defaults to the document (false while trying a branch).
    pub(super) apply: bool,
    /// Render violations (false while trying a branch: only count, stop early).
    pub(super) collect: bool,
    pub(super) fails: usize,
    /// A coercion or default was (or, when not applying, would have been) applied.
    pub(super) mutated: bool,
    pub(super) errors: Vec<Violation>,
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
    pub(super) fn check(&self, value: &mut Value, path: &Path<'_>, ctx: &mut Ctx) {
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
                let fails = ctx.fails;
                if let Some(r) = &self.object {
                    r.check(map, path, ctx);
                }
                // Only of an object whose components are valid: a missing one is reported alone.
                if let Some(tolerance) = self.unit_norm
                    && ctx.fails == fails
                {
                    check_unit_norm(tolerance, map, path, ctx);
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
    pub(super) fn coerce(&self, v: &Value) -> Option<Value> {
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

/// `x-toolwright-unit-norm`: the number properties of `map` (a quaternion's x, y, z, w) must have
/// a Euclidean norm within `tolerance` of 1.
#[inline(never)]
fn check_unit_norm(tolerance: f64, map: &Map<String, Value>, path: &Path<'_>, ctx: &mut Ctx) {
    let numbers = || map.iter().filter_map(|(k, v)| v.as_f64().map(|v| (k, v)));
    let norm = numbers().map(|(_, v)| v * v).sum::<f64>().sqrt();
    if (norm - 1.0).abs() <= tolerance {
        return;
    }
    ctx.fail(path, || {
        let squares: Vec<String> = numbers().map(|(k, _)| format!("{k}²")).collect();
        let shown = fmt_norm(norm);
        let message = format!(
            "must have unit norm ({} = 1), got norm {shown}",
            squares.join(" + ")
        );
        let hint =
            (norm > 0.0 && norm.is_finite()).then(|| format!("divide each component by {shown}"));
        (message, hint)
    });
}

/// A norm for a message: 4 decimals at most (`1.4142`, `2`).
fn fmt_norm(norm: f64) -> String {
    let s = format!("{norm:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_owned()
}

/// Whether `s` meets the string rules (what [`check_string`] checks, without reporting).
#[inline]
pub(super) fn string_ok(r: &StrRules, s: &str) -> bool {
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
    pub(super) fn check(&self, items: &mut [Value], path: &Path<'_>, ctx: &mut Ctx) {
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
    pub(super) fn find(&self, key: &str, next: &mut usize) -> Option<usize> {
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

    pub(super) fn allowed(&self) -> &str {
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
    pub(super) fn check(&self, map: &mut Map<String, Value>, path: &Path<'_>, ctx: &mut Ctx) {
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
    pub(super) fn check(&self, v: &mut Value, path: &Path<'_>, ctx: &mut Ctx) {
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
