//! The type-level constants generated `const` checks read (`Probe::<T>::DEPTH`, `PROPERTIES`,
//! `PUBLISHED`, `WIDTH`, `QUANTITY`, `COMPONENTS`), and what they are for a type without them.

use std::borrow::Cow;

use super::Probe;
use super::checks::Width;
use crate::schema::{Components, QuantityDef};

/// Nesting depth and property count of a type, as they appear in a tool's input: a scalar is 0
/// levels deep, each object, array or map adds one. Implemented for std types here and by
/// `#[derive(ToolSchema)]`; any other type counts as one level (see [`ProbeFallback`]).
pub trait SchemaShape {
    /// Levels of objects/arrays/maps in the type's values.
    const DEPTH: usize;
    /// Properties the type contributes when flattened into a tool's input (0 if not an object).
    const PROPERTIES: usize;
}

macro_rules! scalar_shapes {
    ($($t:ty),*) => {$(
        impl SchemaShape for $t {
            const DEPTH: usize = 0;
            const PROPERTIES: usize = 0;
        }
    )*};
}
scalar_shapes!(
    bool,
    char,
    str,
    String,
    (),
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    f32,
    f64,
    std::sync::Arc<str>,
    std::rc::Rc<str>,
    Cow<'_, str>,
    std::path::PathBuf,
    std::num::NonZeroI8,
    std::num::NonZeroI16,
    std::num::NonZeroI32,
    std::num::NonZeroI64,
    std::num::NonZeroU8,
    std::num::NonZeroU16,
    std::num::NonZeroU32,
    std::num::NonZeroU64,
    std::num::NonZeroUsize
);

impl<T: SchemaShape> SchemaShape for Option<T> {
    const DEPTH: usize = T::DEPTH;
    const PROPERTIES: usize = T::PROPERTIES;
}
impl<T: SchemaShape + ?Sized> SchemaShape for Box<T> {
    const DEPTH: usize = T::DEPTH;
    const PROPERTIES: usize = T::PROPERTIES;
}

macro_rules! list_shapes {
    ($([$($g:tt)*] $t:ty;)*) => {$(
        impl<$($g)*> SchemaShape for $t {
            const DEPTH: usize = 1 + T::DEPTH;
            const PROPERTIES: usize = 0;
        }
    )*};
}
list_shapes! {
    [T: SchemaShape] Vec<T>;
    [T: SchemaShape] std::collections::VecDeque<T>;
    [T: SchemaShape, const N: usize] [T; N];
    [T: SchemaShape] [T];
    [T: SchemaShape, S] std::collections::HashSet<T, S>;
    [T: SchemaShape] std::collections::BTreeSet<T>;
    [T: SchemaShape] std::collections::LinkedList<T>;
    [K, T: SchemaShape, S] std::collections::HashMap<K, T, S>;
    [K, T: SchemaShape] std::collections::BTreeMap<K, T>;
}

/// The depth of a type that contains itself (`#[derive(ToolSchema)]` sees the field's type name
/// the type's own): unbounded. Recursion through other types is a `const` cycle instead.
pub const RECURSIVE: usize = 1 << 20;

/// The larger of two depths (for generated `const`s).
pub const fn max(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

impl<T: SchemaShape> Probe<T> {
    /// `T`'s nesting depth.
    pub const DEPTH: usize = T::DEPTH;
    /// `T`'s property count when flattened.
    pub const PROPERTIES: usize = T::PROPERTIES;
}

impl Probe<crate::Context> {
    /// A [`Context`](crate::Context) parameter is not published.
    pub const PUBLISHED: bool = false;
}

/// What `Probe::<T>::{WIDTH, DEPTH, PROPERTIES, PUBLISHED, QUANTITY, COMPONENTS}` are for types without the inherent consts
/// above (inherent consts win when their bounds hold): a type toolwright does not know (a
/// `JsonSchema` type not derived with `ToolSchema`, such as `serde_json::Value`, or a list of
/// them) counts as one level deep and adds no flattened property; every type but `Context` is
/// published.
pub trait ProbeFallback {
    /// Not a number: no width (`range_target` reports the mistake).
    const WIDTH: Width = Width::ANY;
    /// One level.
    const DEPTH: usize = 1;
    /// Unknown.
    const PROPERTIES: usize = 0;
    /// Published.
    const PUBLISHED: bool = true;
    /// Not a quantity: any `unit` fits.
    const QUANTITY: Option<&'static QuantityDef> = None;
    /// Not a geometry type: no components for a per-component `range`.
    const COMPONENTS: Components = Components::NONE;
}
impl<T> ProbeFallback for Probe<T> {}
