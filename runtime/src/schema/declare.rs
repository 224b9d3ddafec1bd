//! The declaration vocabulary: what `#[param(..)]`, `#[tool]` and `#[derive(ToolSchema)]` write
//! as constants for the schema (a property's [`FieldSpec`], its [`Unit`], [`Num`]bers and
//! [`Bound`]s, the [`Field`]s of an object, the [`Variant`]s of an enum).

use serde_json::{Number, Value};

use super::generate::TypeInfo;
use super::msg::Msg;

/// A unit of measurement from toolwright's vocabulary, checked at compile time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unit {
    /// The symbol published as `x-unit`, e.g. `"N"`.
    pub symbol: &'static str,
    /// The unit in words, plural, as the model reads it, e.g. `"newtons"`.
    pub words: &'static str,
}

/// A number written in a `#[param]` declaration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// An integer literal.
    Int(i128),
    /// A floating-point literal.
    Float(f64),
}

impl Num {
    pub(crate) fn to_json(self) -> Value {
        match self {
            Num::Int(i) => {
                if let Ok(v) = i64::try_from(i) {
                    Value::from(v)
                } else if let Ok(v) = u64::try_from(i) {
                    Value::from(v)
                } else {
                    Value::from(i as f64)
                }
            }
            Num::Float(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
        }
    }
}

/// One end of a declared range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bound {
    /// The bound.
    pub value: Num,
    /// `true` for `a..b`'s upper end (and never for lower ends written in Rust syntax).
    pub exclusive: bool,
}

/// One range of a per-component `range = [..]`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ComponentRange {
    /// Its lower end.
    pub minimum: Option<Bound>,
    /// Its upper end.
    pub maximum: Option<Bound>,
}

/// What `range = CONST` names: an array of inclusive ranges, one per component (the count is
/// checked against the type's components at compile time).
#[diagnostic::on_unimplemented(
    message = "`range = ..` names a const of type `{Self}`; a named range is an array of inclusive ranges, one per coordinate",
    label = "not `[RangeInclusive<f64>; N]`",
    note = "declare it as `const WORKSPACE: [RangeInclusive<f64>; 3] = [-1.0..=1.0, -1.0..=1.0, 0.0..=2.0];`, or write the range out (`range = 0.0..=1.0`)"
)]
pub trait ComponentRanges {
    /// How many ranges.
    const COUNT: usize;
    /// The ranges, in component order. An end that is not finite (an infinity for "unbounded")
    /// bounds nothing.
    fn component_ranges(&self) -> Vec<ComponentRange>;
}

#[diagnostic::do_not_recommend]
impl<const N: usize> ComponentRanges for [std::ops::RangeInclusive<f64>; N] {
    const COUNT: usize = N;
    fn component_ranges(&self) -> Vec<ComponentRange> {
        let bound = |value: f64| {
            value.is_finite().then_some(Bound {
                value: Num::Float(value),
                exclusive: false,
            })
        };
        self.iter()
            .map(|r| ComponentRange {
                minimum: bound(*r.start()),
                maximum: bound(*r.end()),
            })
            .collect()
    }
}

/// The ranges a `range = CONST` names, for the schema. Generated code writes
/// `(&NamedRanges(&CONST)).component_ranges()`: [`NamedRangesOf`] applies when the const is
/// [`ComponentRanges`], [`NamedRangesFallback`] (no ranges) otherwise, so a const of the wrong
/// type is reported once, by the count check ([`component_count`]), not again here.
pub struct NamedRanges<'a, T>(pub &'a T);

/// See [`NamedRanges`].
pub trait NamedRangesOf {
    /// The ranges, in component order.
    fn component_ranges(&self) -> Vec<ComponentRange>;
}

impl<T: ComponentRanges> NamedRangesOf for NamedRanges<'_, T> {
    fn component_ranges(&self) -> Vec<ComponentRange> {
        self.0.component_ranges()
    }
}

/// See [`NamedRanges`].
pub trait NamedRangesFallback {
    /// No ranges: the count check has reported the const's type.
    fn component_ranges(&self) -> Vec<ComponentRange> {
        Vec::new()
    }
}

impl<T> NamedRangesFallback for &NamedRanges<'_, T> {}

/// The number of ranges a `range = CONST` names (for the compile-time count check).
pub const fn component_count<T: ComponentRanges>(_: &T) -> usize {
    T::COUNT
}

/// What a `#[param(..)]` (and the doc comment) declares about one property.
///
/// Generated code builds these as constants; all fields are public so it can, and `Default` fills
/// what was not declared.
#[derive(Debug, Clone, Copy, Default)]
pub struct FieldSpec {
    /// The property name on the wire (after `rename`/`rename_all`).
    pub name: &'static str,
    /// From the doc comment or `description = ".."`.
    pub description: Option<&'static str>,
    /// `unit = ".."`.
    pub unit: Option<Unit>,
    /// Lower end of `range`.
    pub minimum: Option<Bound>,
    /// Upper end of `range`.
    pub maximum: Option<Bound>,
    /// `range = [a..=b, ..]` on a geometry type: one range per component, in component order
    /// (instead of `minimum`/`maximum`, which apply to every component).
    pub component_ranges: Option<fn() -> Vec<ComponentRange>>,
    /// `min_length`.
    pub min_length: Option<u64>,
    /// `max_length`.
    pub max_length: Option<u64>,
    /// `min_items`.
    pub min_items: Option<u64>,
    /// `max_items`.
    pub max_items: Option<u64>,
    /// `pattern`.
    pub pattern: Option<&'static str>,
    /// `default = <expr>`, serialized.
    pub default: Option<fn() -> Value>,
    /// `examples = [..]`, serialized.
    pub examples: Option<fn() -> Vec<Value>>,
    /// Absent values are filled by serde (`#[serde(default)]`), so the property is not required.
    pub serde_default: bool,
    /// `#[serde(skip_serializing_if = ..)]`: the property may be absent from output.
    pub skip_serializing_if: bool,
    /// `header = ".."` on a tool parameter: published as `x-mcp-header`, so a client over HTTP
    /// mirrors the argument into the header `Mcp-Param-<header>` (SEP-2243).
    pub header: Option<&'static str>,
}

/// One property of an object schema: its declaration and its type.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// What was declared.
    pub spec: FieldSpec,
    /// The Rust type.
    pub info: TypeInfo,
    /// `#[serde(flatten)]` / `#[param(flatten)]`: the type's properties are merged in.
    pub flatten: bool,
}

/// How a data-carrying enum is represented by serde.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnumTagging {
    /// `{"Variant": ..}` (serde's default); unit variants are plain strings.
    External,
    /// `#[serde(tag = "t")]`: `{"t": "Variant", ..fields}`.
    Internal(&'static str),
    /// `#[serde(tag = "t", content = "c")]`: `{"t": "Variant", "c": ..}`.
    Adjacent(&'static str, &'static str),
    /// `#[serde(untagged)]`: the variant's content alone.
    Untagged,
}

/// The shape of one enum variant.
#[derive(Debug, Clone)]
pub enum VariantShape {
    /// `Variant`.
    Unit,
    /// `Variant(T)`.
    Newtype(TypeInfo),
    /// `Variant { fields }`.
    Struct(Vec<Field>),
}

/// One variant of a data-carrying enum.
#[derive(Debug, Clone)]
pub struct Variant {
    /// The serde name.
    pub name: &'static str,
    /// Its doc comment.
    pub description: Option<&'static str>,
    /// Its shape.
    pub shape: VariantShape,
}

/// The components of a geometry type that `unit` and `range` apply to, for the compile-time
/// check of a per-component `range = [..]`.
#[derive(Clone, Copy)]
pub struct Components {
    /// How many (0: not a geometry type).
    pub count: usize,
    /// Their names, in order: `"x, y, z"`.
    pub names: &'static str,
    /// The type, for messages: `"Point3<f64>"`.
    pub ty: &'static str,
}

impl Components {
    /// Not a geometry type: no components.
    pub const NONE: Components = Components {
        count: 0,
        names: "",
        ty: "",
    };

    /// Whether a per-component `range` listing `ranges` ranges does not fit.
    pub const fn mismatch(self, ranges: usize) -> bool {
        self.count != ranges
    }

    /// Why a per-component `range` listing `ranges` ranges does not fit.
    pub const fn message(self, ranges: usize) -> Msg {
        let msg = Msg::new().str("`range` lists ").int(ranges as i128);
        let msg = if ranges == 1 {
            msg.str(" range")
        } else {
            msg.str(" ranges")
        };
        if self.count == 0 {
            return msg.str(
                ", one per component, but this type has no components: write one range \
                 (`a..=b`); per-component ranges apply to nalgebra points, vectors, translations \
                 and isometries",
            );
        }
        msg.str(", but `")
            .str(self.ty)
            .str("` has ")
            .int(self.count as i128)
            .str(" components (")
            .str(self.names)
            .str("): give one range per component in that order, or one range for all of them")
    }
}

/// A type with components `unit` and `range` apply to (a point, vector, translation or
/// isometry), or an `Option`, list or `Box` of one. Implemented with the `nalgebra` feature.
pub trait ComponentsTarget {
    /// Its components.
    const COMPONENTS: Components;
}

macro_rules! containers {
    ($([$($g:tt)*] $t:ty;)*) => {$(
        #[diagnostic::do_not_recommend]
        impl<$($g)*> ComponentsTarget for $t {
            const COMPONENTS: Components = T::COMPONENTS;
        }
    )*};
}
containers! {
    [T: ComponentsTarget] Option<T>;
    [T: ComponentsTarget + ?Sized] Box<T>;
    [T: ComponentsTarget] Vec<T>;
    [T: ComponentsTarget] std::collections::VecDeque<T>;
    [T: ComponentsTarget, const N: usize] [T; N];
    [T: ComponentsTarget] [T];
}
