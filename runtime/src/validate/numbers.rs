//! Numbers: exact comparison of JSON numbers with bounds and `multipleOf`, and the words for them.

use std::cmp::Ordering;
use std::fmt;

use serde_json::{Number, Value};

use super::tree::{Num, TWO_63, TWO_64};

impl Num {
    pub(super) fn of(n: &Number) -> Num {
        if let Some(u) = n.as_u64() {
            Num::Int(i128::from(u))
        } else if let Some(i) = n.as_i64() {
            Num::Int(i128::from(i))
        } else {
            Num::Float(n.as_f64().unwrap_or(f64::NAN))
        }
    }

    /// Integral floats within the i64/u64 range become integers (exact either way).
    pub(super) fn normalized(self) -> Num {
        match self {
            Num::Float(f) if f.fract() == 0.0 && (-TWO_63..TWO_64).contains(&f) => {
                Num::Int(f as i128)
            }
            n => n,
        }
    }

    pub(super) fn as_f64(self) -> f64 {
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
pub(super) fn cmp_int_float(i: i128, f: f64) -> Ordering {
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
pub(super) fn cmp_num(a: Num, b: Num) -> Ordering {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x.cmp(&y),
        (Num::Float(x), Num::Float(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        (Num::Int(x), Num::Float(y)) => cmp_int_float(x, y),
        (Num::Float(x), Num::Int(y)) => cmp_int_float(y, x).reverse(),
    }
}

pub(super) fn is_multiple(v: Num, m: Num) -> bool {
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

pub(super) fn is_integral(n: &Number) -> bool {
    n.is_u64()
        || n.is_i64()
        || n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// `5.0` → `5` when it fits in i64/u64.
pub(super) fn float_to_int(f: f64) -> Option<Number> {
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

pub(super) fn fmt_f64(f: f64) -> String {
    let a = f.abs();
    if a != 0.0 && !(1e-6..1e21).contains(&a) {
        format!("{f:e}")
    } else {
        format!("{f}")
    }
}

pub(super) fn fmt_number(n: &Number) -> String {
    if let Some(u) = n.as_u64() {
        u.to_string()
    } else if let Some(i) = n.as_i64() {
        i.to_string()
    } else {
        fmt_f64(n.as_f64().unwrap_or(f64::NAN))
    }
}

/// A string that is exactly a JSON number ("15", "-3", "0.5"): no whitespace, no unit.
pub(super) fn parse_bare_number(s: &str) -> Option<Number> {
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
pub(super) fn numeric_prefix(s: &str) -> Option<&str> {
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
