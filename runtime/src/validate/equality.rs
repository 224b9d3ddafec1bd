//! JSON equality as JSON Schema defines it (`1` equals `1.0`), for `enum`, `const` and `uniqueItems`.

use std::cmp::Ordering;

use serde_json::Value;

use super::numbers::cmp_num;
use super::tree::{Num, PAIRWISE_UNIQUE_MAX};

/// JSON equality where numbers compare numerically (`1 == 1.0`).
pub(super) fn json_eq(a: &Value, b: &Value) -> bool {
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
pub(super) fn find_duplicate(items: &[Value]) -> Option<(usize, usize)> {
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
