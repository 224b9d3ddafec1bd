//! Compile-time checks.
//!
//! Generated code names these traits and functions under `quote_spanned!` at the user's token (a
//! parameter's type, a `#[param]` key's value), so a missing trait or a failed `const` evaluation
//! is reported there. Each trait carries `#[diagnostic::on_unimplemented]` saying how to fix it.

use std::borrow::Cow;
use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;

use serde_json::Value;

use super::Probe;
use crate::contract::{Args, CallError};
use crate::error::ToolError;
use crate::schema::{
    Components, ComponentsTarget, Holds, Msg, Num, QuantityDef, QuantityTarget, TypeInfo,
};

/// A type, named for a check: generated code writes
/// `<_ as ParamType>::check(probe.schema_marker())` at the user's type, a bound the trait states itself (so rustc reports it there with the
/// trait's message and nothing else), before the calls that need the same bound (whose error,
/// the same bound at the same place, rustc then does not repeat).
pub struct Marker<T: ?Sized>(PhantomData<*const T>);

impl<T: ?Sized> Marker<T> {
    /// The marker of `T`.
    pub const fn new() -> Self {
        Marker(PhantomData)
    }
}

impl<T: ?Sized> Default for Marker<T> {
    fn default() -> Self {
        Self::new()
    }
}

// The role traits below state no supertraits: a bound they state themselves is reported with
// their own message (`Pose: ParamType`), where a supertrait's would be reported as the
// supertrait's (`Pose: JsonSchema`, with a list of its implementations). Each offers what the
// probe's methods need of the type instead.

/// A tool parameter's type: its JSON Schema is published and the call's argument is read into
/// it. Implemented for every type with `JsonSchema` and `Deserialize`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter: it needs `JsonSchema` and `Deserialize`",
    label = "not a parameter type",
    note = "derive them: `#[derive(toolwright::ToolSchema, serde::Deserialize)]` on `{Self}` (`ToolSchema` implements `JsonSchema` from the doc comments and `#[param]`s)"
)]
pub trait ParamType: Sized {
    /// Requires `Self: ParamType` (generated code, at the parameter's type).
    #[doc(hidden)]
    fn check(_: Marker<Self>) {}
    /// Its type information (`optional`: an `Option` of it).
    #[doc(hidden)]
    fn info(optional: bool) -> TypeInfo;
    /// Reads the argument `name` (`Some` when given, for an `Option` of it).
    #[doc(hidden)]
    fn take(args: &mut Args, name: &str) -> Result<Self, ()>;
    /// Reads the argument `name`, if given.
    #[doc(hidden)]
    fn take_optional(args: &mut Args, name: &str) -> Result<Option<Self>, ()>;
}
#[diagnostic::do_not_recommend]
impl<T: JsonSchema + DeserializeOwned> ParamType for T {
    fn info(optional: bool) -> TypeInfo {
        TypeInfo::of::<T>(optional)
    }
    fn take(args: &mut Args, name: &str) -> Result<T, ()> {
        args.take(name)
    }
    fn take_optional(args: &mut Args, name: &str) -> Result<Option<T>, ()> {
        args.take(name)
    }
}

/// The type of a field of a `#[derive(ToolSchema)]` type: it has a JSON Schema.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of a `ToolSchema` type: it needs `JsonSchema`",
    label = "no JSON Schema for this type",
    note = "derive it: `#[derive(toolwright::ToolSchema)]` on `{Self}`, with serde's `Serialize`/`Deserialize`"
)]
pub trait FieldType {
    /// Requires `Self: FieldType` (generated code, at the field's type).
    #[doc(hidden)]
    fn check(_: Marker<Self>) {}
    /// Its type information (`optional`: an `Option` of it).
    #[doc(hidden)]
    fn info(optional: bool) -> TypeInfo;
}
#[diagnostic::do_not_recommend]
impl<T: JsonSchema> FieldType for T {
    fn info(optional: bool) -> TypeInfo {
        TypeInfo::of::<T>(optional)
    }
}

/// A tool's output type: its JSON Schema is published as the `outputSchema` and the result is
/// serialized from it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's output: it needs `JsonSchema` and `Serialize`",
    label = "not an output type",
    note = "derive them: `#[derive(toolwright::ToolSchema, serde::Serialize)]` on `{Self}`"
)]
pub trait OutputType {
    /// Requires `Self: OutputType` (generated code, at the return type).
    #[doc(hidden)]
    fn check(_: Marker<Self>) {}
    /// Its type information.
    #[doc(hidden)]
    fn info() -> TypeInfo;
    /// The result's JSON.
    #[doc(hidden)]
    fn output(&self) -> Result<Value, CallError>;
}
#[diagnostic::do_not_recommend]
impl<T: JsonSchema + Serialize> OutputType for T {
    fn info() -> TypeInfo {
        TypeInfo::of::<T>(false)
    }
    fn output(&self) -> Result<Value, CallError> {
        super::to_output(self)
    }
}

/// `ToolError` accepts the error type `E` of a tool returning `Result<T, E>`. (The bound is on
/// `ToolError`, like the `From` it requires, so this message is the one reported.)
#[diagnostic::on_unimplemented(
    message = "`{E}` cannot be a tool's error type: `ToolError` does not implement `From<{E}>`",
    label = "the `Err` of this `Result` must convert into `ToolError`",
    note = "convert it in the tool, `.map_err(|e| ToolError::new(e.to_string()))?` (its text is what the model is told), or implement `From<{E}> for ToolError` for an error type of your crate"
)]
pub trait AcceptsError<E> {
    /// Requires `ToolError: AcceptsError<E>` (generated code, at the return type).
    #[doc(hidden)]
    fn check(_: Marker<E>) {}
    /// The tool error of `error`.
    #[doc(hidden)]
    fn accept(error: E) -> ToolError;
}
#[diagnostic::do_not_recommend]
impl<E> AcceptsError<E> for ToolError
where
    ToolError: From<E>,
{
    fn accept(error: E) -> ToolError {
        ToolError::from(error)
    }
}

/// A declared `default` or example: it is serialized into the schema.
#[diagnostic::on_unimplemented(
    message = "a `default` or example of type `{Self}` cannot be published: `{Self}` does not implement `Serialize`",
    label = "declared here",
    note = "derive `serde::Serialize` on `{Self}`"
)]
pub trait DeclaredValue: Sized {
    /// Requires `Self: DeclaredValue` (generated code, at the value).
    #[doc(hidden)]
    fn check(_: Marker<Self>) {}
    /// The value's JSON.
    #[doc(hidden)]
    fn json(self) -> Value;
}
#[diagnostic::do_not_recommend]
impl<T: Serialize> DeclaredValue for T {
    fn json(self) -> Value {
        super::to_json(self)
    }
}

/// A `default` or example written as a string literal: the parameter's type is built from it.
#[diagnostic::on_unimplemented(
    message = "a string `default` or example does not fit a parameter of type `{Self}`",
    label = "`{Self}` is not a string type",
    note = "write the value as a Rust expression of the parameter's type: `default = 15.0`, `default = Mode::Fast`"
)]
pub trait FromStrLiteral {
    /// Requires `Self: FromStrLiteral` (generated code, at the value).
    #[doc(hidden)]
    fn check(_: Marker<Self>) {}
    /// The JSON of the value built from `literal`.
    #[doc(hidden)]
    fn json(literal: &'static str) -> Value;
}
#[diagnostic::do_not_recommend]
impl<T: Serialize + From<&'static str>> FromStrLiteral for T {
    fn json(literal: &'static str) -> Value {
        super::to_json(T::from(literal))
    }
}

/// A type `unit` applies to: a number, or a list of numbers (the unit applies to each item).
#[diagnostic::on_unimplemented(
    message = "`unit` needs a numeric type, and `{Self}` is not one",
    label = "`unit` on a non-numeric type",
    note = "`unit` describes integers and floats (also inside `Option` and the items of a `Vec`); for text, say what it means in the doc comment"
)]
pub trait UnitTarget {
    /// Requires `Self: UnitTarget` (generated code, at the key's value).
    #[doc(hidden)]
    const CHECK: () = ();
}

/// A type `min_length`/`max_length` apply to: text, or a list of texts (each item).
#[diagnostic::on_unimplemented(
    message = "`min_length`/`max_length` count the characters of a string, and `{Self}` is not a string",
    label = "length limit on a non-string type",
    note = "for numbers use `range = a..=b`; for lists use `min_items`/`max_items`"
)]
pub trait LengthTarget {
    /// Requires `Self: LengthTarget` (generated code, at the key's value).
    #[doc(hidden)]
    const CHECK: () = ();
}

/// A type `pattern` applies to: text, or a list of texts (each item).
#[diagnostic::on_unimplemented(
    message = "`pattern` matches strings, and `{Self}` is not a string",
    label = "`pattern` on a non-string type",
    note = "for numbers use `range = a..=b`; for a fixed set of values use a unit-only enum deriving `ToolSchema`"
)]
pub trait PatternTarget {
    /// Requires `Self: PatternTarget` (generated code, at the key's value).
    #[doc(hidden)]
    const CHECK: () = ();
}

/// A type `min_items`/`max_items` apply to: a list (also inside `Option`).
#[diagnostic::on_unimplemented(
    message = "`min_items`/`max_items` count the items of a list, and `{Self}` is not a list",
    label = "item limit on a non-list type",
    note = "`min_items`/`max_items` apply to `Vec<T>`, `VecDeque<T>`, `[T; N]` and sets; for numbers use `range`, for strings `min_length`/`max_length`"
)]
pub trait ItemsTarget {
    /// Requires `Self: ItemsTarget` (generated code, at the key's value).
    #[doc(hidden)]
    const CHECK: () = ();
}

/// A type `header` applies to: what `x-mcp-header` allows, a string, an integer or a boolean (a
/// unit-only enum deriving `ToolSchema` is a string), also inside `Option`.
#[diagnostic::on_unimplemented(
    message = "`header` mirrors the argument into an HTTP header, and `{Self}` cannot be mirrored: only strings, integers and booleans can",
    label = "`header` on a `{Self}`",
    note = "MCP allows `x-mcp-header` (`Mcp-Param-*`) only on string, integer and boolean parameters, never on numbers with a fraction, lists or objects; mirror an integer instead (`#[param(unit = \"mm\", header = \"..\")] x: i64`), a unit-only enum deriving `ToolSchema`, or remove `header`"
)]
pub trait HeaderTarget {
    /// Requires `Self: HeaderTarget` (generated code, at the key's value).
    #[doc(hidden)]
    const CHECK: () = ();
}

/// `T` itself: generated code writes `Id<T>` so an error about `T` spans the whole key's value.
pub type Id<T> = T;

/// A type `range` applies to: a number, or a list of numbers (each item). Gives the scalar's width.
#[diagnostic::on_unimplemented(
    message = "`range` needs a numeric type, and `{Self}` is not one",
    label = "`range` on a non-numeric type",
    note = "`range` applies to integers and floats (also inside `Option` and to the items of a `Vec`); for strings use `min_length`/`max_length`, for lists `min_items`/`max_items`"
)]
pub trait RangeTarget {
    /// Requires `Self: RangeTarget` (generated code, at the range).
    #[doc(hidden)]
    const CHECK: () = ();
    /// The scalar's name, for messages.
    const NAME: &'static str;
    /// Whether the scalar is an integer type.
    const INTEGER: bool;
    /// The smallest value of an integer scalar.
    const MIN: i128;
    /// The largest value of an integer scalar (`i128::MAX` for `u128`).
    const MAX: i128;
}

macro_rules! integers {
    ($($t:ty => $min:expr, $max:expr;)*) => {$(
        #[diagnostic::do_not_recommend]
        impl RangeTarget for $t {
            const NAME: &'static str = stringify!($t);
            const INTEGER: bool = true;
            const MIN: i128 = $min;
            const MAX: i128 = $max;
        }
        #[diagnostic::do_not_recommend]
        impl UnitTarget for $t {}
        #[diagnostic::do_not_recommend]
        impl HeaderTarget for $t {}
    )*};
}

integers! {
    i8 => i8::MIN as i128, i8::MAX as i128;
    i16 => i16::MIN as i128, i16::MAX as i128;
    i32 => i32::MIN as i128, i32::MAX as i128;
    i64 => i64::MIN as i128, i64::MAX as i128;
    i128 => i128::MIN, i128::MAX;
    isize => isize::MIN as i128, isize::MAX as i128;
    u8 => 0, u8::MAX as i128;
    u16 => 0, u16::MAX as i128;
    u32 => 0, u32::MAX as i128;
    u64 => 0, u64::MAX as i128;
    u128 => 0, i128::MAX;
    usize => 0, usize::MAX as i128;
    std::num::NonZeroI8 => i8::MIN as i128, i8::MAX as i128;
    std::num::NonZeroI16 => i16::MIN as i128, i16::MAX as i128;
    std::num::NonZeroI32 => i32::MIN as i128, i32::MAX as i128;
    std::num::NonZeroI64 => i64::MIN as i128, i64::MAX as i128;
    std::num::NonZeroU8 => 1, u8::MAX as i128;
    std::num::NonZeroU16 => 1, u16::MAX as i128;
    std::num::NonZeroU32 => 1, u32::MAX as i128;
    std::num::NonZeroU64 => 1, u64::MAX as i128;
    std::num::NonZeroUsize => 1, usize::MAX as i128;
}

macro_rules! floats {
    ($($t:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl RangeTarget for $t {
            const NAME: &'static str = stringify!($t);
            const INTEGER: bool = false;
            const MIN: i128 = i128::MIN;
            const MAX: i128 = i128::MAX;
        }
        #[diagnostic::do_not_recommend]
        impl UnitTarget for $t {}
    )*};
}
floats!(f32, f64);

macro_rules! strings {
    ($($t:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl LengthTarget for $t {}
        #[diagnostic::do_not_recommend]
        impl PatternTarget for $t {}
    )*};
}
strings!(
    String,
    str,
    char,
    std::sync::Arc<str>,
    std::rc::Rc<str>,
    Cow<'_, str>,
    std::path::PathBuf
);

/// Value constraints (`unit`, `range`, lengths, `pattern`) pass through `Option`, `Box` and the
/// items of lists, as the published schema does (runtime/src/schema/property.rs applies them to the
/// innermost item of arrays).
macro_rules! value_containers {
    ($($(#[$m:meta])* [$($g:tt)*] $t:ty;)*) => {$(
        #[diagnostic::do_not_recommend]
        impl<$($g)*> RangeTarget for $t {
            const NAME: &'static str = T::NAME;
            const INTEGER: bool = T::INTEGER;
            const MIN: i128 = T::MIN;
            const MAX: i128 = T::MAX;
        }
    )*};
}
value_containers! {
    [T: RangeTarget] Option<T>;
    [T: RangeTarget + ?Sized] Box<T>;
    [T: RangeTarget] Vec<T>;
    [T: RangeTarget] std::collections::VecDeque<T>;
    [T: RangeTarget, const N: usize] [T; N];
    [T: RangeTarget] [T];
    [T: RangeTarget, S] std::collections::HashSet<T, S>;
    [T: RangeTarget] std::collections::BTreeSet<T>;
}

macro_rules! marker_containers {
    ($($trait:ident),*) => {$(
        #[diagnostic::do_not_recommend]
        impl<T: $trait> $trait for Option<T> {}
        #[diagnostic::do_not_recommend]
        impl<T: $trait + ?Sized> $trait for Box<T> {}
        #[diagnostic::do_not_recommend]
        impl<T: $trait> $trait for Vec<T> {}
        #[diagnostic::do_not_recommend]
        impl<T: $trait> $trait for std::collections::VecDeque<T> {}
        #[diagnostic::do_not_recommend]
        impl<T: $trait, const N: usize> $trait for [T; N] {}
        #[diagnostic::do_not_recommend]
        impl<T: $trait> $trait for [T] {}
        #[diagnostic::do_not_recommend]
        impl<T: $trait, S> $trait for std::collections::HashSet<T, S> {}
        #[diagnostic::do_not_recommend]
        impl<T: $trait> $trait for std::collections::BTreeSet<T> {}
    )*};
}
marker_containers!(UnitTarget, LengthTarget, PatternTarget);

// A header carries one value: strings (`str` included, for `Box<str>`), integers (above),
// booleans, and `Option`s and `Box`es of them (an absent argument sends no header).
#[diagnostic::do_not_recommend]
impl HeaderTarget for String {}
#[diagnostic::do_not_recommend]
impl HeaderTarget for str {}
#[diagnostic::do_not_recommend]
impl HeaderTarget for std::sync::Arc<str> {}
#[diagnostic::do_not_recommend]
impl HeaderTarget for std::rc::Rc<str> {}
#[diagnostic::do_not_recommend]
impl HeaderTarget for Cow<'_, str> {}
#[diagnostic::do_not_recommend]
impl HeaderTarget for char {}
#[diagnostic::do_not_recommend]
impl HeaderTarget for bool {}
#[diagnostic::do_not_recommend]
impl<T: HeaderTarget> HeaderTarget for Option<T> {}
#[diagnostic::do_not_recommend]
impl<T: HeaderTarget + ?Sized> HeaderTarget for Box<T> {}

#[diagnostic::do_not_recommend]
impl<T> ItemsTarget for Vec<T> {}
#[diagnostic::do_not_recommend]
impl<T> ItemsTarget for std::collections::VecDeque<T> {}
#[diagnostic::do_not_recommend]
impl<T, const N: usize> ItemsTarget for [T; N] {}
#[diagnostic::do_not_recommend]
impl<T> ItemsTarget for [T] {}
#[diagnostic::do_not_recommend]
impl<T, S> ItemsTarget for std::collections::HashSet<T, S> {}
#[diagnostic::do_not_recommend]
impl<T> ItemsTarget for std::collections::BTreeSet<T> {}
#[diagnostic::do_not_recommend]
impl<T> ItemsTarget for std::collections::LinkedList<T> {}
#[diagnostic::do_not_recommend]
impl<T: ItemsTarget> ItemsTarget for Option<T> {}
#[diagnostic::do_not_recommend]
impl<T: ItemsTarget + ?Sized> ItemsTarget for Box<T> {}

/// The values of a `range`'s scalar type, for width checks.
#[derive(Clone, Copy)]
pub struct Width {
    /// The scalar's name.
    pub name: &'static str,
    /// Whether it is an integer type (floats take any bound).
    pub integer: bool,
    /// Smallest value.
    pub min: i128,
    /// Largest value.
    pub max: i128,
}

impl Width {
    /// No limit (a float, or a type that is not numeric: `range_target` reports that).
    pub const ANY: Width = Width {
        name: "",
        integer: false,
        min: i128::MIN,
        max: i128::MAX,
    };

    /// Whether `bound` lies outside these values: beyond an integer type's width, or not a
    /// whole number for an integer type.
    pub const fn excludes(self, bound: Num) -> bool {
        if !self.integer {
            return false;
        }
        match bound {
            Num::Int(i) => i < self.min || i > self.max,
            Num::Float(f) => f != f.floor() || f < self.min as f64 || f > self.max as f64,
        }
    }

    /// `prefix`, then the type and its values, then `suffix`.
    pub const fn message(self, prefix: &str, suffix: &str) -> Msg {
        Msg::new()
            .str(prefix)
            .str(" `")
            .str(self.name)
            .str("`, whose values are whole numbers from ")
            .int(self.min)
            .str(" to ")
            .int(self.max)
            .str(suffix)
    }
}

impl<T: RangeTarget> Probe<T> {
    /// The values of `T`'s scalar.
    pub const WIDTH: Width = Width {
        name: T::NAME,
        integer: T::INTEGER,
        min: T::MIN,
        max: T::MAX,
    };
}

/// `a > b` for declared numbers (`a >= b` when `or_equal`).
pub const fn num_above(a: Num, b: Num, or_equal: bool) -> bool {
    let (a, b) = (num_f64(a), num_f64(b));
    a > b || (or_equal && a == b)
}

const fn num_f64(n: Num) -> f64 {
    match n {
        Num::Int(i) => i as f64,
        Num::Float(f) => f,
    }
}

macro_rules! num_from {
    ($($t:ty => $v:ident),*) => {$(
        impl From<$t> for Num {
            fn from(value: $t) -> Num {
                Num::$v(value as _)
            }
        }
    )*};
}
num_from!(i8 => Int, i16 => Int, i32 => Int, i64 => Int, i128 => Int, isize => Int,
          u8 => Int, u16 => Int, u32 => Int, u64 => Int, usize => Int, f32 => Float, f64 => Float);

impl<T: QuantityTarget> Probe<T> {
    /// What `T`'s numbers measure (a uom quantity, or a list of them), for the check of a
    /// declared `unit`.
    pub const QUANTITY: Option<&'static QuantityDef> = Some(T::QUANTITY);
}

impl<T: ComponentsTarget> Probe<T> {
    /// The components of a geometry type (or a list of them), for the check of a
    /// per-component `range = [..]`.
    pub const COMPONENTS: Components = T::COMPONENTS;
}

/// A tool parameter has a description, or needs none: only the call's
/// [`Context`](crate::Context) is not published. Generated code requires
/// `Holds<{ described || !Probe::<T>::PUBLISHED }>: Described` at the parameter's name.
#[diagnostic::on_unimplemented(
    message = "this parameter has no description",
    label = "add a doc comment on it",
    note = "write `/// Grip force …` above the parameter, or `#[param(description = \"..\")]`: the model reads it to choose a value"
)]
pub trait Described {
    /// Requires the rule (generated code).
    #[doc(hidden)]
    const CHECK: () = ();
}
#[diagnostic::do_not_recommend]
impl Described for Holds<true> {}

/// A name in `confirm = ".."` or `target = ..` is an argument of the call: not its
/// [`Context`](crate::Context), which the model does not send.
#[diagnostic::on_unimplemented(
    message = "this names the call's `Context`, which is not an argument of the tool",
    label = "not an argument",
    note = "`confirm` placeholders and `target` coordinates name the arguments the model sends; the `Context` is the call's own handle to the client"
)]
pub trait AnArgument {
    /// Requires the rule (generated code).
    #[doc(hidden)]
    const CHECK: () = ();
}
#[diagnostic::do_not_recommend]
impl AnArgument for Holds<true> {}

/// A `range` whose bounds are `const`s leaves some value: its lower bound is below its upper
/// one (literal bounds are checked by the macro).
#[diagnostic::on_unimplemented(
    message = "empty range: no value satisfies this `range`",
    label = "its lower bound is not below its upper bound",
    note = "write the smaller bound first; `a..b` excludes `b`, so `a..a` is empty too"
)]
pub trait NonEmptyRange {
    /// Requires the rule (generated code).
    #[doc(hidden)]
    const CHECK: () = ();
}
#[diagnostic::do_not_recommend]
impl NonEmptyRange for Holds<true> {}

/// A declared `default` or example lies inside its `range` (checked by the compiler when a
/// bound or the value is a `const`; by the macro when all are literals).
#[diagnostic::on_unimplemented(
    message = "this value is outside the parameter's `range`",
    label = "a call with it would be refused",
    note = "the published `default` and examples must be values the tool accepts: pick one inside the range, or widen the range"
)]
pub trait WithinRange {
    /// Requires the rule (generated code).
    #[doc(hidden)]
    const CHECK: () = ();
}
#[diagnostic::do_not_recommend]
impl WithinRange for Holds<true> {}
