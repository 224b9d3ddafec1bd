//! Schema generation: from Rust types plus `#[param(..)]` declarations to inline JSON Schema 2020-12.
//!
//! Every schema toolwright publishes goes through this module:
//! - type schemas come from [`schemars`] with subschemas inlined, so no `$ref`/`$defs` reach a client
//!   (a recursive type cannot be inlined and is reported as an error);
//! - [`normalize`] removes what clients choke on: schemars' non-standard `format`s (`uint8`, `double`,
//!   …) become `minimum`/`maximum` from the Rust integer width, and `$schema` is dropped from subschemas;
//! - [`FieldSpec`] adds what a `#[param(..)]` declares (description, unit, range, lengths, items,
//!   pattern, default, examples) to a property.
//!
//! The same schema is then compiled into the run-time [`Validator`](crate::validate::Validator), so
//! what is published is what is enforced.

use std::fmt::Write as _;

use schemars::generate::{Contract, SchemaGenerator, SchemaSettings};
use schemars::{JsonSchema, Schema};
use serde_json::{Map, Number, Value, json};

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
    fn to_json(self) -> Value {
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

/// How a Rust type appears as a property: its schema, and whether it may be left out.
#[derive(Clone, Copy)]
pub struct TypeInfo {
    /// `Option<T>`: the property is optional, and the schema is `T`'s (not nullable on input).
    pub optional: bool,
    /// A [`Context`](crate::Context) parameter: filled from the call, not published.
    pub context: bool,
    /// Generates the (inner) type's schema.
    pub schema: fn(&mut SchemaGenerator) -> Schema,
}

impl TypeInfo {
    /// The information of a parameter, field or return type `T` (not a `Context`).
    pub fn of<T: JsonSchema>(optional: bool) -> Self {
        Self::made_by(optional, subschema::<T>)
    }

    /// The information of a type whose schema `schema` makes (uom quantities, nalgebra
    /// geometry, ROS messages: types that cannot implement `JsonSchema`).
    pub(crate) fn made_by(optional: bool, schema: fn(&mut SchemaGenerator) -> Schema) -> Self {
        TypeInfo {
            optional,
            context: false,
            schema,
        }
    }
}

impl std::fmt::Debug for TypeInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TypeInfo")
            .field("optional", &self.optional)
            .field("context", &self.context)
            .finish_non_exhaustive()
    }
}

/// The schema of `T` through `generator`, inlined unless `T` is recursive.
pub(crate) fn subschema<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

/// Settings of the generator used for inputs (`deserialize` contract) or outputs (`serialize`).
pub(crate) fn generator(contract: Contract) -> SchemaGenerator {
    SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
            s.contract = contract;
        })
        .into_generator()
}

/// Why a schema could not be published.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SchemaError {
    /// Where, as a path of property names (`target_position.x`).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Carries a problem found inside a derived type's `JsonSchema::json_schema` (which cannot fail)
/// to the toolbox build, which reports it with its path.
pub(crate) const ERROR_KEY: &str = "x-toolwright-error";

/// Formats that JSON Schema 2020-12 defines; any other `format` is dropped (clients such as Ajv
/// reject unknown formats).
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

fn integer_width(format: &str) -> Option<(Value, Value)> {
    Some(match format {
        "int8" => (json!(i8::MIN), json!(i8::MAX)),
        "int16" => (json!(i16::MIN), json!(i16::MAX)),
        "int32" => (json!(i32::MIN), json!(i32::MAX)),
        "uint8" => (json!(0), json!(u8::MAX)),
        "uint16" => (json!(0), json!(u16::MAX)),
        "uint32" => (json!(0), json!(u32::MAX)),
        _ => return None,
    })
}

/// 64-bit widths exceed what a JSON number states exactly (2^53), so they publish only the
/// lower bound of unsigned types; serde still refuses values that do not fit.
fn integer_width_64(format: &str) -> Option<Value> {
    matches!(format, "uint64" | "uint").then(|| json!(0))
}

/// Cleans a schemars schema for publication, in place.
///
/// Drops `$schema` and empty `$defs`, turns integer `format`s into width bounds, drops non-standard
/// formats, and refuses any `$ref` left over (a recursive type: toolwright inlines every subschema).
pub(crate) fn normalize(schema: &mut Value) -> Result<(), SchemaError> {
    normalize_at(schema, &mut String::new())
}

fn normalize_at(schema: &mut Value, path: &mut String) -> Result<(), SchemaError> {
    let Some(obj) = schema.as_object_mut() else {
        return Ok(());
    };
    obj.shift_remove("$schema");
    // `type` first: easier to read in tools/list and diffs.
    if let Some(ty) = obj.shift_remove("type") {
        obj.shift_insert(0, "type".to_owned(), ty);
    }
    if let Some(carried) = obj.get(ERROR_KEY) {
        let inner = carried
            .get("path")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let message = carried
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or_default();
        return Err(SchemaError {
            path: join_path(path, inner),
            message: message.to_owned(),
        });
    }
    if let Some(reference) = obj.get("$ref").and_then(Value::as_str) {
        let name = reference.rsplit('/').next().unwrap_or(reference);
        return Err(SchemaError {
            path: path.clone(),
            message: format!(
                "type `{name}` refers to itself; toolwright publishes fully inlined schemas \
                 (no `$ref`), so recursive types cannot be tool parameters. Use a bounded, \
                 non-recursive type (for example a `Vec` of flat items)"
            ),
        });
    }
    for defs in ["$defs", "definitions"] {
        if obj
            .get(defs)
            .and_then(Value::as_object)
            .is_some_and(Map::is_empty)
        {
            obj.shift_remove(defs);
        }
    }
    if let Some(format) = obj.get("format").and_then(Value::as_str).map(str::to_owned) {
        if let Some((min, max)) = integer_width(&format) {
            obj.entry("minimum").or_insert(min);
            obj.entry("maximum").or_insert(max);
        } else if let Some(min) = integer_width_64(&format) {
            obj.entry("minimum").or_insert(min);
        }
        if matches!(format.as_str(), "int64" | "int" | "uint64" | "uint") {
            // schemars only sets these for widths it can state; drop u64::MAX if present.
            if obj
                .get("maximum")
                .is_some_and(|m| m.as_u64() == Some(u64::MAX))
            {
                obj.shift_remove("maximum");
            }
        }
        if !STANDARD_FORMATS.contains(&format.as_str()) {
            obj.shift_remove("format");
        }
    }
    for key in ["items", "additionalProperties", "not", "contains"] {
        if let Some(sub) = obj.get_mut(key) {
            let len = path.len();
            if key == "items" {
                path.push_str("[]");
            }
            normalize_at(sub, path)?;
            path.truncate(len);
        }
    }
    for key in ["prefixItems", "anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(subs)) = obj.get_mut(key) {
            for sub in subs {
                normalize_at(sub, path)?;
            }
        }
    }
    if let Some(Value::Object(props)) = obj.get_mut("properties") {
        for (name, sub) in props.iter_mut() {
            let len = path.len();
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(name);
            normalize_at(sub, path)?;
            path.truncate(len);
        }
    }
    if let Some(defs) = obj.get("$defs").or_else(|| obj.get("definitions")) {
        let names: Vec<&String> = defs
            .as_object()
            .map(|m| m.keys().collect())
            .unwrap_or_default();
        return Err(SchemaError {
            path: path.clone(),
            message: format!(
                "schema still has definitions ({}) after inlining; toolwright publishes \
                 fully inlined schemas",
                names
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    Ok(())
}

/// Whether a schema's root is an object schema.
pub(crate) fn is_object_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// Generates and normalizes the schema of a [`TypeInfo`].
pub(crate) fn type_schema(
    generator: &mut SchemaGenerator,
    info: TypeInfo,
) -> Result<Value, SchemaError> {
    let mut schema = (info.schema)(generator).to_value();
    normalize(&mut schema)?;
    Ok(schema)
}

/// Appends "…, in newtons (N)." to a description.
pub(crate) fn describe_unit(description: Option<&str>, unit: Unit) -> String {
    let unit_words = if unit.words == unit.symbol {
        unit.symbol.to_owned()
    } else {
        format!("{} ({})", unit.words, unit.symbol)
    };
    match description.map(str::trim).filter(|d| !d.is_empty()) {
        Some(d) => {
            let d = d.strip_suffix('.').unwrap_or(d);
            format!("{d}, in {unit_words}.")
        }
        None => {
            let mut s = format!("In {unit_words}.");
            if let Some(first) = s.get_mut(0..1) {
                first.make_ascii_uppercase();
            }
            s
        }
    }
}

fn bound_cmp(a: &Value, b: &Value) -> std::cmp::Ordering {
    match (a.as_i64(), b.as_i64(), a.as_u64(), b.as_u64()) {
        (Some(x), Some(y), _, _) => x.cmp(&y),
        (_, _, Some(x), Some(y)) => x.cmp(&y),
        _ => {
            let (x, y) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
            x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal)
        }
    }
}

/// Applies a declared bound, keeping the tighter of it and any bound the type already carries
/// (an integer's width).
fn tighten(obj: &mut Map<String, Value>, bound: Bound, lower: bool) {
    let (incl, excl) = if lower {
        ("minimum", "exclusiveMinimum")
    } else {
        ("maximum", "exclusiveMaximum")
    };
    let new = bound.value.to_json();
    let tighter = |old: &Value| {
        let ord = bound_cmp(&new, old);
        if lower { ord.is_gt() } else { ord.is_lt() }
    };
    let existing_incl = obj.get(incl).cloned();
    let existing_excl = obj.get(excl).cloned();
    if bound.exclusive {
        let keep_old_excl = existing_excl.as_ref().is_some_and(|old| !tighter(old));
        let old_incl_tighter = existing_incl.as_ref().is_some_and(|old| {
            let ord = bound_cmp(old, &new);
            if lower { ord.is_gt() } else { ord.is_lt() }
        });
        if !keep_old_excl && !old_incl_tighter {
            obj.insert(excl.to_owned(), new);
            obj.shift_remove(incl);
        }
    } else {
        let old_excl_tighter = existing_excl.as_ref().is_some_and(|old| {
            let ord = bound_cmp(old, &new);
            if lower { !ord.is_lt() } else { !ord.is_gt() }
        });
        let old_incl_tighter = existing_incl.as_ref().is_some_and(|old| !tighter(old));
        if !old_excl_tighter && !old_incl_tighter {
            obj.insert(incl.to_owned(), new);
            obj.shift_remove(excl);
        }
    }
}

/// Folds the variant meanings of an enum schema into a property description:
/// "Gripper strategy. Options: parallel: two-finger jaw; suction: vacuum cup."
fn describe_enum(description: &str, options: &str) -> String {
    let d = description.trim();
    let d = d.strip_suffix('.').unwrap_or(d);
    let o = options.trim();
    let o = o.strip_suffix('.').unwrap_or(o);
    format!("{d}. Options: {o}.")
}

/// The published schema of one property: the type's schema plus everything `spec` declares.
///
/// Returns the schema and whether the property is required.
pub(crate) fn property_schema(
    generator: &mut SchemaGenerator,
    spec: &FieldSpec,
    info: TypeInfo,
) -> Result<(Value, bool), SchemaError> {
    let mut schema = type_schema(generator, info).map_err(|mut e| {
        e.path = join_path(spec.name, &e.path);
        e
    })?;
    let serialize = generator.contract().is_serialize();
    if serialize && info.optional && !spec.skip_serializing_if {
        allow_null(&mut schema);
    }
    let Some(obj) = schema.as_object_mut() else {
        // `true`/`false` schemas: nothing to attach to; wrap so the declaration is not lost.
        let mut wrapper = Map::new();
        if let Some(d) = spec.description {
            wrapper.insert("description".into(), d.into());
        }
        let required = !info.optional && spec.default.is_none() && !spec.serde_default;
        return Ok((Value::Object(wrapper), required));
    };

    // A quantity (with the `uom` feature) is published in its SI unit unless one is declared.
    let unit = spec.unit.or_else(|| {
        let mut si = None;
        crate::geometry::for_each_scalar(obj, &mut |_, _, scalar| {
            si = si.or_else(|| crate::quantity::si_unit(scalar));
        });
        si
    });
    // A geometry type's unit goes into each component's description ("X coordinate, in
    // millimeters (mm)."), where its `x-unit` is, not into the property's.
    let components = crate::geometry::for_each_scalar(obj, &mut |_, _, _| {});
    let type_description = obj
        .get("description")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let is_enum = obj.contains_key("enum");
    let mut description = match (spec.description, type_description) {
        (Some(d), Some(options)) if is_enum && d != options => Some(describe_enum(d, &options)),
        (Some(d), _) => Some(d.trim().to_owned()),
        (None, t) => t,
    };
    if let Some(unit) = unit.filter(|_| !components) {
        description = Some(describe_unit(description.as_deref(), unit));
    }
    if let Some(d) = description {
        obj.insert("description".into(), d.into());
    }
    for (key, v) in [("minItems", spec.min_items), ("maxItems", spec.max_items)] {
        if let Some(v) = v {
            obj.insert(key.into(), v.into());
        }
    }
    // Value constraints (unit, range, lengths, pattern) describe the scalar: on an array
    // (`Vec<f64>`, `Vec<Vec<String>>`) they apply to its items, on a geometry object (a
    // nalgebra point) to each of its components.
    let ranges = spec.component_ranges.map(|f| f());
    let mut problem = None;
    crate::geometry::for_each_scalar(obj, &mut |index, component, scalar| {
        // After the description, wherever the type's own schema put it (a uom quantity's SI
        // unit), so a quantity publishes exactly what an `f64` with the same unit does.
        let own_unit = scalar.shift_remove("x-unit");
        if let Some(symbol) = unit.map(|u| Value::from(u.symbol)).or(own_unit) {
            scalar.insert("x-unit".into(), symbol);
        }
        if let Err(message) = crate::quantity::settle_unit(scalar, spec.unit) {
            problem.get_or_insert(message);
        }
        let (minimum, maximum) = match &ranges {
            Some(ranges) => match ranges.get(index) {
                Some(r) => (r.minimum, r.maximum),
                None => {
                    problem.get_or_insert_with(|| {
                        let n = ranges.len();
                        let word = if n == 1 { "range" } else { "ranges" };
                        format!("`range` lists {n} {word}, fewer than the components of this type")
                    });
                    (None, None)
                }
            },
            None => (spec.minimum, spec.maximum),
        };
        if let Some(b) = minimum {
            tighten(scalar, b, true);
        }
        if let Some(b) = maximum {
            tighten(scalar, b, false);
        }
        for (key, v) in [
            ("minLength", spec.min_length),
            ("maxLength", spec.max_length),
        ] {
            if let Some(v) = v {
                scalar.insert(key.into(), v.into());
            }
        }
        if let Some(p) = spec.pattern {
            scalar.insert("pattern".into(), p.into());
        }
        if let Some(u) = unit.filter(|_| component) {
            let d = describe_unit(scalar.get("description").and_then(Value::as_str), u);
            scalar.insert("description".into(), d.into());
        }
    });
    if let Some(message) = problem {
        return Err(SchemaError {
            path: spec.name.to_owned(),
            message,
        });
    }
    if let Some(default) = spec.default {
        obj.insert("default".into(), default());
    }
    if let Some(examples) = spec.examples {
        obj.insert("examples".into(), Value::Array(examples()));
    }
    if let Some(header) = spec.header {
        mirror_in_header(obj, header);
    }
    let required = !info.optional && spec.default.is_none() && !spec.serde_default;
    Ok((schema, required))
}

/// The largest integer a header may carry: MCP bounds integers mirrored into `Mcp-Param-*`
/// headers to those an IEEE 754 double represents exactly (2^53 − 1), as JavaScript clients read
/// them.
const HEADER_SAFE_INTEGER: i128 = (1 << 53) - 1;

/// Publishes `x-mcp-header` on a property (a string, integer or boolean: the macro checks the
/// type), and bounds an integer to what a header may carry, so the validator refuses the rest.
fn mirror_in_header(property: &mut Map<String, Value>, header: &str) {
    if property.get("type").and_then(Value::as_str) == Some("integer") {
        for (value, lower) in [(-HEADER_SAFE_INTEGER, true), (HEADER_SAFE_INTEGER, false)] {
            let bound = Bound {
                value: Num::Int(value),
                exclusive: false,
            };
            tighten(property, bound, lower);
        }
    }
    property.insert("x-mcp-header".into(), header.into());
}

/// Makes a schema accept `null` too (an `Option` on output, which serde writes as `null`).
fn allow_null(schema: &mut Value) {
    let Some(obj) = schema.as_object_mut() else {
        return;
    };
    match obj.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let t = std::mem::take(t);
            obj.insert("type".into(), json!([t, "null"]));
            if let Some(Value::Array(values)) = obj.get_mut("enum") {
                values.push(Value::Null);
            }
        }
        Some(Value::Array(types)) => {
            if !types.iter().any(|t| t == "null") {
                types.push("null".into());
            }
        }
        _ => {
            let inner = std::mem::take(obj);
            obj.insert(
                "anyOf".into(),
                json!([Value::Object(inner), {"type": "null"}]),
            );
        }
    }
}

fn join_path(head: &str, tail: &str) -> String {
    match (head.is_empty(), tail.is_empty()) {
        (true, _) => tail.to_owned(),
        (_, true) => head.to_owned(),
        _ if tail.starts_with('[') => format!("{head}{tail}"),
        _ => format!("{head}.{tail}"),
    }
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

/// Builds an object schema: `properties` in declaration order, `required`, and
/// `additionalProperties: false` unless `allow_unknown`.
pub(crate) fn object_schema(
    generator: &mut SchemaGenerator,
    description: Option<&str>,
    fields: &[Field],
    allow_unknown: bool,
) -> Result<Value, SchemaError> {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for field in fields {
        if field.info.context {
            continue;
        }
        if field.flatten {
            let inner = type_schema(generator, field.info)?;
            merge_flattened(&inner, &mut properties, &mut required).map_err(|message| {
                SchemaError {
                    path: field.spec.name.to_owned(),
                    message,
                }
            })?;
            continue;
        }
        let (schema, is_required) = property_schema(generator, &field.spec, field.info)?;
        if properties
            .insert(field.spec.name.to_owned(), schema)
            .is_some()
        {
            return Err(SchemaError {
                path: field.spec.name.to_owned(),
                message: "two properties have this name".into(),
            });
        }
        if is_required {
            required.push(Value::from(field.spec.name));
        }
    }
    let mut obj = Map::new();
    obj.insert("type".into(), "object".into());
    if let Some(d) = description.map(str::trim).filter(|d| !d.is_empty()) {
        obj.insert("description".into(), d.into());
    }
    obj.insert("properties".into(), Value::Object(properties));
    obj.insert("required".into(), Value::Array(required));
    // Inputs refuse unknown properties (and the validator enforces it); outputs stay open so a
    // server can add result fields without breaking clients that validate structuredContent.
    if !allow_unknown && generator.contract().is_deserialize() {
        obj.insert("additionalProperties".into(), false.into());
    }
    Ok(Value::Object(obj))
}

fn merge_flattened(
    inner: &Value,
    properties: &mut Map<String, Value>,
    required: &mut Vec<Value>,
) -> Result<(), String> {
    if !is_object_schema(inner) {
        return Err(
            "a flattened type must have an object schema (a struct with named fields)".into(),
        );
    }
    if let Some(Value::Object(props)) = inner.get("properties") {
        for (k, v) in props {
            if properties.insert(k.clone(), v.clone()).is_some() {
                return Err(format!("flattened property `{k}` is declared twice"));
            }
        }
    }
    if let Some(Value::Array(req)) = inner.get("required") {
        required.extend(req.iter().cloned());
    }
    Ok(())
}

/// Builds the schema of a unit-only enum: `{"type": "string", "enum": [..]}`, with the variants'
/// doc comments folded into the description ("parallel: two-finger jaw; suction: vacuum cup").
pub(crate) fn unit_enum_schema(
    type_description: Option<&str>,
    variants: &[(&'static str, Option<&'static str>)],
) -> Value {
    let mut obj = Map::new();
    obj.insert("type".into(), "string".into());
    obj.insert(
        "enum".into(),
        Value::Array(variants.iter().map(|(n, _)| Value::from(*n)).collect()),
    );
    let mut meanings = String::new();
    for (name, doc) in variants {
        if let Some(doc) = doc.map(str::trim).filter(|d| !d.is_empty()) {
            if !meanings.is_empty() {
                meanings.push_str("; ");
            }
            let doc = doc.strip_suffix('.').unwrap_or(doc);
            let _ = write!(meanings, "{name}: {doc}");
        }
    }
    if !meanings.is_empty() {
        obj.insert("description".into(), meanings.into());
    } else if let Some(d) = type_description.map(str::trim).filter(|d| !d.is_empty()) {
        obj.insert("description".into(), d.into());
    }
    Value::Object(obj)
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

/// Builds the schema of a data-carrying enum following serde's representation, as `oneOf`.
pub(crate) fn data_enum_schema(
    generator: &mut SchemaGenerator,
    type_description: Option<&str>,
    tagging: EnumTagging,
    variants: &[Variant],
) -> Result<Value, SchemaError> {
    let mut branches = Vec::new();
    for v in variants {
        let content = match &v.shape {
            VariantShape::Unit => None,
            VariantShape::Newtype(info) => {
                Some(type_schema(generator, *info).map_err(|mut e| {
                    e.path = join_path(v.name, &e.path);
                    e
                })?)
            }
            VariantShape::Struct(fields) => Some(object_schema(generator, None, fields, false)?),
        };
        let tag_schema = json!({"type": "string", "const": v.name});
        let mut branch = match (tagging, content) {
            (EnumTagging::External, None) => tag_schema,
            (EnumTagging::External, Some(c)) => json!({
                "type": "object",
                "properties": { v.name: c },
                "required": [v.name],
                "additionalProperties": false,
            }),
            (EnumTagging::Internal(tag), None) => json!({
                "type": "object",
                "properties": { tag: tag_schema },
                "required": [tag],
                "additionalProperties": false,
            }),
            (EnumTagging::Internal(tag), Some(mut c)) => {
                let Some(obj) = c
                    .as_object_mut()
                    .filter(|o| o.get("type") == Some(&json!("object")))
                else {
                    return Err(SchemaError {
                        path: v.name.to_owned(),
                        message: "an internally tagged variant must hold an object".into(),
                    });
                };
                if let Some(Value::Object(props)) = obj.get_mut("properties") {
                    props.shift_insert(0, tag.to_owned(), tag_schema);
                }
                if let Some(Value::Array(req)) = obj.get_mut("required") {
                    req.insert(0, Value::from(tag));
                }
                c
            }
            (EnumTagging::Adjacent(tag, _), None) => json!({
                "type": "object",
                "properties": { tag: tag_schema },
                "required": [tag],
                "additionalProperties": false,
            }),
            (EnumTagging::Adjacent(tag, content), Some(c)) => json!({
                "type": "object",
                "properties": { tag: tag_schema, content: c },
                "required": [tag, content],
                "additionalProperties": false,
            }),
            (EnumTagging::Untagged, None) => json!({"type": "null"}),
            (EnumTagging::Untagged, Some(c)) => c,
        };
        if let (Some(d), Some(obj)) = (v.description, branch.as_object_mut()) {
            obj.insert("description".into(), d.trim().into());
        }
        branches.push(branch);
    }
    let mut obj = Map::new();
    if let Some(d) = type_description.map(str::trim).filter(|d| !d.is_empty()) {
        obj.insert("description".into(), d.into());
    }
    let key = if tagging == EnumTagging::Untagged {
        "anyOf"
    } else {
        "oneOf"
    };
    obj.insert(key.into(), Value::Array(branches));
    Ok(Value::Object(obj))
}

/// Converts a published schema into a [`schemars::Schema`] (for `JsonSchema` impls).
pub(crate) fn to_schemars(value: Value) -> Schema {
    Schema::try_from(value).unwrap_or_else(|_| Schema::from(true))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info<T: JsonSchema>() -> TypeInfo {
        TypeInfo::of::<T>(false)
    }

    #[test]
    fn integer_formats_become_width_bounds() {
        let mut g = generator(Contract::Deserialize);
        assert_eq!(
            type_schema(&mut g, info::<u8>()).unwrap(),
            json!({"type": "integer", "minimum": 0, "maximum": 255})
        );
        assert_eq!(
            type_schema(&mut g, info::<u64>()).unwrap(),
            json!({"type": "integer", "minimum": 0})
        );
        assert_eq!(
            type_schema(&mut g, info::<i64>()).unwrap(),
            json!({"type": "integer"})
        );
        assert_eq!(
            type_schema(&mut g, info::<f64>()).unwrap(),
            json!({"type": "number"})
        );
        assert_eq!(
            type_schema(&mut g, info::<Vec<i32>>()).unwrap(),
            json!({"type": "array", "items": {"type": "integer", "minimum": i32::MIN, "maximum": i32::MAX}})
        );
    }

    #[test]
    fn declared_range_intersects_the_width() {
        let mut g = generator(Contract::Deserialize);
        let spec = FieldSpec {
            name: "n",
            description: Some("Count."),
            minimum: Some(Bound {
                value: Num::Int(-5),
                exclusive: false,
            }),
            maximum: Some(Bound {
                value: Num::Int(10),
                exclusive: true,
            }),
            ..FieldSpec::default()
        };
        let (s, required) = property_schema(&mut g, &spec, info::<u8>()).unwrap();
        assert!(required);
        assert_eq!(
            s,
            json!({"type": "integer", "minimum": 0, "exclusiveMaximum": 10, "description": "Count."})
        );
    }

    #[test]
    fn unit_goes_into_words_and_x_unit() {
        let mut g = generator(Contract::Deserialize);
        let spec = FieldSpec {
            name: "force",
            description: Some("Grip force."),
            unit: Some(Unit {
                symbol: "N",
                words: "newtons",
            }),
            minimum: Some(Bound {
                value: Num::Float(5.0),
                exclusive: false,
            }),
            maximum: Some(Bound {
                value: Num::Float(30.0),
                exclusive: false,
            }),
            default: Some(|| json!(15.0)),
            ..FieldSpec::default()
        };
        let (s, required) = property_schema(&mut g, &spec, info::<f64>()).unwrap();
        assert!(!required);
        assert_eq!(
            s,
            json!({"type": "number", "description": "Grip force, in newtons (N).", "x-unit": "N",
                   "minimum": 5.0, "maximum": 30.0, "default": 15.0})
        );
        assert_eq!(
            describe_unit(
                None,
                Unit {
                    symbol: "%",
                    words: "percent"
                }
            ),
            "In percent (%)."
        );
    }

    #[test]
    fn enum_meanings_fold_into_the_property_description() {
        let e = unit_enum_schema(
            Some("Strategies."),
            &[
                ("parallel", Some("two-finger jaw.")),
                ("suction", Some("vacuum cup")),
                ("adaptive", None),
            ],
        );
        assert_eq!(
            e,
            json!({"type": "string", "enum": ["parallel", "suction", "adaptive"],
                   "description": "parallel: two-finger jaw; suction: vacuum cup"})
        );
        assert_eq!(
            describe_enum(
                "Gripper strategy.",
                "parallel: two-finger jaw; suction: vacuum cup"
            ),
            "Gripper strategy. Options: parallel: two-finger jaw; suction: vacuum cup."
        );
    }

    #[test]
    fn recursive_types_are_refused() {
        #[derive(JsonSchema)]
        #[allow(dead_code)]
        struct Node {
            children: Vec<Node>,
        }
        let mut g = generator(Contract::Deserialize);
        let err = type_schema(&mut g, info::<Node>()).unwrap_err();
        assert!(err.message.contains("refers to itself"), "{err}");
    }

    #[test]
    fn output_options_are_nullable() {
        let mut g = generator(Contract::Serialize);
        let spec = FieldSpec {
            name: "held",
            ..FieldSpec::default()
        };
        let (s, required) = property_schema(&mut g, &spec, TypeInfo::of::<String>(true)).unwrap();
        assert!(!required);
        assert_eq!(s, json!({"type": ["string", "null"]}));
    }
}
