//! The fast path: a shortcut per node for the common valid value (a number in its range, a
//! string within its rules, an object of such leaves), decided when the node is compiled; a
//! value the shortcut does not accept takes the general walk, which reports the problems.

use serde_json::{Map, Number, Value};

use super::tree::{
    Additional, Bound, Fast, FastNum, FastObj, LINEAR_LOOKUP_MAX, Node, Num, NumRules, Prop,
    T_ARRAY, T_BOOLEAN, T_INTEGER, T_NUMBER, T_OBJECT, T_STRING, TWO_53_F64,
};
use super::walk::{Ctx, string_ok};

impl Node {
    /// The shortcuts that apply to this node (see [`Fast`]): only for nodes whose checks on a
    /// value of that kind are the ones the shortcut performs.
    pub(super) fn shortcuts(&self) -> Fast {
        let plain = !self.never
            && !self.trivial
            && self.constant.is_none()
            && self.comp.is_none()
            && self.unit_norm.is_none();
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
    pub(super) fn fast_accepts(
        &self,
        value: &mut Value,
        ctx: &mut Ctx,
        own_defaults: bool,
    ) -> bool {
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

    // `#[inline]`: `fast_accepts` is instantiated in the walk's codegen unit, and this is
    // its loop; without it the walk calls across units (+300 instructions on a 10-waypoint plan).
    #[inline]
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

    #[inline]
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
}
