//! How two schemas differ, keyword by keyword, and which way each difference breaks clients
//! (inputs: a call the old schema accepted may be refused; outputs: the server may send what the
//! old schema did not allow).

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::Diff;
use crate::export::{required_names, words};

pub(super) fn hint(v: Option<bool>) -> String {
    v.map_or_else(|| "unset".to_owned(), |b| b.to_string())
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Side {
    Input,
    Output,
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

fn at(path: &str) -> String {
    if path.is_empty() {
        "the parameters".to_owned()
    } else {
        format!("`{path}`")
    }
}

fn type_set(n: &Map<String, Value>) -> BTreeSet<String> {
    match n.get("type") {
        Some(Value::String(t)) => [t.clone()].into(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => BTreeSet::new(),
    }
}

/// Whether every value of a type in `b` is a value of a type in `a`.
fn covers(a: &BTreeSet<String>, b: &BTreeSet<String>) -> bool {
    b.iter()
        .all(|t| a.contains(t) || (t == "integer" && a.contains("number")))
}

fn list(set: &BTreeSet<String>) -> String {
    set.iter().cloned().collect::<Vec<_>>().join(" or ")
}

/// A bound: (value, exclusive).
fn lower(n: &Map<String, Value>) -> Option<(f64, bool)> {
    n.get("minimum")
        .and_then(Value::as_f64)
        .map(|v| (v, false))
        .or_else(|| {
            n.get("exclusiveMinimum")
                .and_then(Value::as_f64)
                .map(|v| (v, true))
        })
}

fn upper(n: &Map<String, Value>) -> Option<(f64, bool)> {
    n.get("maximum")
        .and_then(Value::as_f64)
        .map(|v| (v, false))
        .or_else(|| {
            n.get("exclusiveMaximum")
                .and_then(Value::as_f64)
                .map(|v| (v, true))
        })
}

fn show(b: Option<(f64, bool)>, unit: &str) -> String {
    match b {
        None => "none".to_owned(),
        Some((v, e)) => {
            let n =
                serde_json::Number::from_f64(v).map_or_else(|| v.to_string(), |n| words::num(&n));
            format!("{}{n}{unit}", if e { "exclusive " } else { "" })
        }
    }
}

/// -1: the new lower bound admits less, 1: more, 0: same.
fn cmp_lower(old: Option<(f64, bool)>, new: Option<(f64, bool)>) -> i32 {
    match (old, new) {
        (None, None) => 0,
        (None, Some(_)) => -1,
        (Some(_), None) => 1,
        (Some((a, ea)), Some((b, eb))) => {
            if b > a || (b == a && eb && !ea) {
                -1
            } else if b < a || (b == a && !eb && ea) {
                1
            } else {
                0
            }
        }
    }
}

fn cmp_upper(old: Option<(f64, bool)>, new: Option<(f64, bool)>) -> i32 {
    let flip = |b: Option<(f64, bool)>| b.map(|(v, e)| (-v, e));
    cmp_lower(flip(old), flip(new))
}

/// Records a change that admits fewer (`narrower < 0`) or more (`> 0`) values.
fn narrowing(d: &mut Diff<'_>, side: Side, path: &str, direction: i32, what: String) {
    let input_breaks = direction < 0;
    let breaks = match side {
        Side::Input => input_breaks,
        Side::Output => !input_breaks,
    };
    match (side, breaks) {
        (Side::Input, true) => d.breaking(
            path,
            format!("{what}: calls that were valid before can now be refused."),
        ),
        (Side::Input, false) => d.compatible(path, format!("{what}: accepts more than before.")),
        (Side::Output, true) => d.breaking(
            path,
            format!("{what}: clients may now receive values they did not expect."),
        ),
        (Side::Output, false) => d.compatible(
            path,
            format!("{what}: outputs stay within what was published."),
        ),
    }
}

fn count_limit(
    d: &mut Diff<'_>,
    side: Side,
    path: &str,
    (a, b): (&Map<String, Value>, &Map<String, Value>),
    key: &str,
    what: &str,
) {
    let is_min = key.starts_with("min");
    let x = a.get(key).and_then(Value::as_u64);
    let y = b.get(key).and_then(Value::as_u64);
    if x == y {
        return;
    }
    // For a minimum, a larger one admits less; for a maximum, a smaller one does.
    let direction = match (x, y) {
        (None, Some(_)) => -1,
        (Some(_), None) => 1,
        (Some(x), Some(y)) if is_min => {
            if y > x {
                -1
            } else {
                1
            }
        }
        (Some(x), Some(y)) => {
            if y < x {
                -1
            } else {
                1
            }
        }
        (None, None) => 0,
    };
    let show = |v: Option<u64>| v.map_or_else(|| "none".to_owned(), |v| v.to_string());
    let verb = if direction < 0 { "tighter" } else { "relaxed" };
    narrowing(
        d,
        side,
        path,
        direction,
        format!("{verb} {what} limit `{key}` {} → {}", show(x), show(y)),
    );
}

fn enum_values(n: &Map<String, Value>) -> Option<Vec<Value>> {
    n.get("enum").and_then(Value::as_array).cloned()
}

/// A variant's identity across versions: its const, its tag, its single key, or its types.
fn variant_key(v: &Value) -> String {
    let Some(n) = v.as_object() else {
        return v.to_string();
    };
    if let Some(c) = n.get("const") {
        return format!("{c}");
    }
    if let Some(Value::Array(e)) = n.get("enum")
        && let [only] = e.as_slice()
    {
        return format!("{only}");
    }
    if let Some(Value::Object(props)) = n.get("properties") {
        for (name, p) in props {
            if let Some(c) = p.get("const") {
                return format!("{name} = {c}");
            }
        }
        if props.len() == 1 {
            return format!("{{{}}}", props.keys().next().expect("one key"));
        }
        return format!(
            "object with {}",
            props.keys().cloned().collect::<Vec<_>>().join(", ")
        );
    }
    list(&type_set(n))
}

pub(super) fn schema(old: &Value, new: &Value, path: &str, side: Side, d: &mut Diff<'_>) {
    if old == new {
        return;
    }
    let (Some(a), Some(b)) = (old.as_object(), new.as_object()) else {
        d.breaking(path, format!("{} changed from {old} to {new}.", at(path)));
        return;
    };
    if a.get("description") != b.get("description") {
        d.compatible(path, "description changed (text only).".to_owned());
    }
    if a.get("title") != b.get("title") {
        d.compatible(path, "title changed (text only).".to_owned());
    }
    if a.get("examples") != b.get("examples") {
        d.compatible(path, "examples changed (text only).".to_owned());
    }

    // Types.
    let (ta, tb) = (type_set(a), type_set(b));
    if ta != tb && !ta.is_empty() && !tb.is_empty() {
        let (wider, narrower) = (covers(&tb, &ta), covers(&ta, &tb));
        let what = format!("type changed from {} to {}", list(&ta), list(&tb));
        if wider && side == Side::Input {
            d.compatible(path, format!("{what}: accepts more than before."));
        } else if narrower && side == Side::Output {
            d.compatible(
                path,
                format!("{what}: outputs stay within what was published."),
            );
        } else {
            let why = match side {
                Side::Input => "calls that were valid before can now be refused.",
                Side::Output => "clients may now receive values they did not expect.",
            };
            d.breaking(path, format!("{what}: {why}"));
        }
        if !wider && !narrower {
            return; // Unrelated types: the rest of the comparison means nothing.
        }
    }

    // Unit.
    let (ua, ub) = (a.get("x-unit"), b.get("x-unit"));
    if ua != ub {
        match (ua, ub) {
            (Some(x), Some(y)) => d.breaking(
                path,
                format!("unit changed from {x} to {y}: the same number now means something else."),
            ),
            _ => d.compatible(
                path,
                "unit annotation added or removed (text only).".to_owned(),
            ),
        }
    }
    // The HTTP header an argument is mirrored into (`x-mcp-header`, SEP-2243): a client that
    // listed the tools before sends the headers it listed, and a request whose headers disagree
    // with its arguments is refused. Header names ignore case.
    if side == Side::Input {
        let header = |n: &Map<String, Value>| {
            n.get("x-mcp-header")
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let (ha, hb) = (header(a), header(b));
        let what = match (&ha, &hb) {
            (None, Some(h)) => Some(format!("now mirrored into the HTTP header `Mcp-Param-{h}`")),
            (Some(h), None) => Some(format!(
                "no longer mirrored into the HTTP header `Mcp-Param-{h}`"
            )),
            (Some(x), Some(y)) if !x.eq_ignore_ascii_case(y) => Some(format!(
                "HTTP header changed from `Mcp-Param-{x}` to `Mcp-Param-{y}`"
            )),
            _ => None,
        };
        if let Some(what) = what {
            d.breaking(
                path,
                format!(
                    "{what}: clients that listed the tools before send the headers they listed, \
                     and a call whose headers disagree with its arguments is refused (HTTP 400)."
                ),
            );
        }
    }
    // Each bound in its own unit: after a unit change, "500 mm" before, "0.5 m" after.
    let unit_of = |n: &Map<String, Value>, other: &Map<String, Value>| {
        n.get("x-unit")
            .or(other.get("x-unit"))
            .and_then(Value::as_str)
            .map(|u| format!(" {u}"))
            .unwrap_or_default()
    };
    let (unit_a, unit_b) = (unit_of(a, b), unit_of(b, a));

    // Range.
    let (la, lb) = (lower(a), lower(b));
    let c = cmp_lower(la, lb);
    if c != 0 {
        let verb = if c < 0 { "raised" } else { "lowered" };
        narrowing(
            d,
            side,
            path,
            c,
            format!(
                "minimum {verb} from {} to {}",
                show(la, &unit_a),
                show(lb, &unit_b)
            ),
        );
    }
    let (ua, ub) = (upper(a), upper(b));
    let c = cmp_upper(ua, ub);
    if c != 0 {
        let verb = if c < 0 { "lowered" } else { "raised" };
        narrowing(
            d,
            side,
            path,
            c,
            format!(
                "maximum {verb} from {} to {}",
                show(ua, &unit_a),
                show(ub, &unit_b)
            ),
        );
    }

    // Lengths and counts.
    count_limit(d, side, path, (a, b), "minLength", "length");
    count_limit(d, side, path, (a, b), "maxLength", "length");
    count_limit(d, side, path, (a, b), "minItems", "item-count");
    count_limit(d, side, path, (a, b), "maxItems", "item-count");
    count_limit(d, side, path, (a, b), "minProperties", "entry-count");
    count_limit(d, side, path, (a, b), "maxProperties", "entry-count");

    // Pattern.
    match (a.get("pattern"), b.get("pattern")) {
        (x, y) if x == y => {}
        (Some(x), None) => narrowing(d, side, path, 1, format!("pattern {x} removed")),
        (None, Some(y)) => narrowing(d, side, path, -1, format!("pattern {y} added")),
        (Some(x), Some(y)) => match side {
            Side::Input => d.breaking(
                path,
                format!("pattern changed from {x} to {y}: values that matched before may not match now."),
            ),
            Side::Output => d.breaking(
                path,
                format!("pattern changed from {x} to {y}: clients may now receive values they did not expect."),
            ),
        },
        _ => {}
    }

    // Enum and const.
    match (enum_values(a), enum_values(b)) {
        (Some(x), Some(y)) if x != y => {
            let gone: Vec<String> = x
                .iter()
                .filter(|v| !y.contains(v))
                .map(Value::to_string)
                .collect();
            let new: Vec<String> = y
                .iter()
                .filter(|v| !x.contains(v))
                .map(Value::to_string)
                .collect();
            if !gone.is_empty() {
                narrowing(
                    d,
                    side,
                    path,
                    -1,
                    format!(
                        "enum value{} {} removed",
                        if gone.len() == 1 { "" } else { "s" },
                        gone.join(", ")
                    ),
                );
            }
            if !new.is_empty() {
                narrowing(
                    d,
                    side,
                    path,
                    1,
                    format!(
                        "enum value{} {} added",
                        if new.len() == 1 { "" } else { "s" },
                        new.join(", ")
                    ),
                );
            }
            if gone.is_empty() && new.is_empty() {
                d.compatible(path, "enum values reordered.".to_owned());
            }
        }
        (None, Some(y)) => narrowing(
            d,
            side,
            path,
            -1,
            format!("restricted to the values {}", Value::Array(y)),
        ),
        (Some(_), None) => narrowing(
            d,
            side,
            path,
            1,
            "no longer restricted to a list of values".to_owned(),
        ),
        _ => {}
    }
    if a.get("const") != b.get("const") {
        let show = |v: Option<&Value>| v.map_or_else(|| "none".to_owned(), Value::to_string);
        d.breaking(
            path,
            format!(
                "constant changed from {} to {}.",
                show(a.get("const")),
                show(b.get("const"))
            ),
        );
    }

    // Default.
    if side == Side::Input && a.get("default") != b.get("default") {
        let show = |v: Option<&Value>| v.map_or_else(|| "none".to_owned(), words::value);
        d.compatible(
            path,
            format!(
                "default changed from {} to {}: calls that leave it out now get {}.",
                show(a.get("default")),
                show(b.get("default")),
                show(b.get("default"))
            ),
        );
    }

    // Properties.
    properties(a, b, path, side, d);

    // Other keys: open (absent or `true`), a map (a schema), or closed (`false`).
    match (a.get("additionalProperties"), b.get("additionalProperties")) {
        (Some(x @ Value::Object(_)), Some(y @ Value::Object(_))) => {
            schema(x, y, &join(path, "*"), side, d);
        }
        (x, y) => {
            let rank = |v: Option<&Value>| match v {
                None | Some(Value::Bool(true)) => 2,
                Some(Value::Object(_)) => 1,
                _ => 0,
            };
            let name = |v: Option<&Value>| match rank(v) {
                2 => "any other keys",
                1 => "keys of a declared type",
                _ => "no other keys",
            };
            let (ra, rb) = (rank(x), rank(y));
            if ra != rb {
                let what = format!("accepted {} before, {} now", name(x), name(y));
                match side {
                    Side::Input => narrowing(d, side, path, if rb < ra { -1 } else { 1 }, what),
                    // Clients ignore keys they do not know, as they do new output fields.
                    Side::Output => d.compatible(
                        path,
                        format!("{what} (clients ignore keys they do not know)."),
                    ),
                }
            }
        }
    }

    // Items.
    match (a.get("items"), b.get("items")) {
        (Some(x), Some(y)) => schema(x, y, &format!("{path}[]"), side, d),
        (None, Some(_)) => narrowing(d, side, path, -1, "items now constrained".to_owned()),
        (Some(_), None) => narrowing(d, side, path, 1, "items no longer constrained".to_owned()),
        (None, None) => {}
    }

    // Variants.
    for key in ["oneOf", "anyOf"] {
        let va = a.get(key).and_then(Value::as_array);
        let vb = b.get(key).and_then(Value::as_array);
        if va == vb {
            continue;
        }
        let va: Vec<&Value> = va.map(|v| v.iter().collect()).unwrap_or_default();
        let vb: Vec<&Value> = vb.map(|v| v.iter().collect()).unwrap_or_default();
        for x in &va {
            let k = variant_key(x);
            match vb.iter().find(|y| variant_key(y) == k) {
                Some(y) => schema(x, y, path, side, d),
                None => narrowing(d, side, path, -1, format!("variant {k} removed")),
            }
        }
        for y in &vb {
            let k = variant_key(y);
            if !va.iter().any(|x| variant_key(x) == k) {
                narrowing(d, side, path, 1, format!("variant {k} added"));
            }
        }
    }
}

fn properties(
    a: &Map<String, Value>,
    b: &Map<String, Value>,
    path: &str,
    side: Side,
    d: &mut Diff<'_>,
) {
    let empty = Map::new();
    let pa = a
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let pb = b
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let (ra, rb) = (required_names(a), required_names(b));
    let mut added: Vec<&String> = pb.keys().filter(|k| !pa.contains_key(*k)).collect();
    let noun = match side {
        Side::Input => "parameter",
        Side::Output => "output field",
    };
    for (name, x) in pa {
        let p = join(path, name);
        match pb.get(name) {
            Some(y) => {
                match (side, ra.contains(name), rb.contains(name)) {
                    (Side::Input, false, true) => d.breaking(
                        &p,
                        "optional parameter is now required: calls that leave it out are refused."
                            .to_owned(),
                    ),
                    (Side::Input, true, false) => {
                        d.compatible(&p, "required parameter is now optional.".to_owned())
                    }
                    (Side::Output, true, false) => d.breaking(
                        &p,
                        "output field may now be absent: clients that read it may fail.".to_owned(),
                    ),
                    (Side::Output, false, true) => {
                        d.compatible(&p, "output field is now always present.".to_owned())
                    }
                    _ => {}
                }
                schema(x, y, &p, side, d);
            }
            None => {
                let renamed = added.iter().position(|k| pb.get(*k) == Some(x));
                match renamed {
                    Some(i) => {
                        let to = added.remove(i);
                        let why = match side {
                            Side::Input => "calls that pass the old name are refused",
                            Side::Output => "clients that read the old name find nothing",
                        };
                        d.breaking(&p, format!("{noun} renamed to `{to}`: {why}."));
                    }
                    None => {
                        let why = match side {
                            Side::Input => {
                                "calls that pass it are refused (unknown parameters are not accepted)"
                            }
                            Side::Output => "clients that read it find nothing",
                        };
                        d.breaking(&p, format!("{noun} removed: {why}."));
                    }
                }
            }
        }
    }
    for name in added {
        let p = join(path, name);
        match (side, rb.contains(name)) {
            (Side::Input, true) => d.breaking(
                &p,
                "new required parameter: calls that do not pass it are refused (make it optional with a default instead).".to_owned(),
            ),
            (Side::Input, false) => d.compatible(&p, "new optional parameter.".to_owned()),
            (Side::Output, _) => d.compatible(&p, "new output field.".to_owned()),
        }
    }
}
