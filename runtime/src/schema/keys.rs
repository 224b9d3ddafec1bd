//! The private `x-toolwright-*` keywords: the one list of them.
//!
//! A type's schema may carry these until the toolbox is built. They tell the toolbox what serde's
//! shape and the published shape do not say by themselves (a unit to convert, an array read as an
//! object, a content type); the toolbox reads them once per tool, compiles what they ask into the
//! tool's [`Adapter`](crate::adapt::Adapter)s and [`Validator`](crate::validate::Validator), and
//! [`strip`]s every one of them (anything starting with [`PRIVATE_PREFIX`]) before the schema is
//! published (`toolbox/build.rs`, input and output). None of them reaches a client.
//!
//! | key | written by | read by |
//! |---|---|---|
//! | [`ERROR_KEY`] | `schema/property.rs` via the derive helpers (`schema/derive.rs`), `ros/` | `schema/generate.rs` (`normalize` turns it into a [`SchemaError`](super::SchemaError)) |
//! | [`CONTENT_KEY`] | `content.rs` (the content types' schemas) | `content.rs`, `output/mod.rs` (the output mode) |
//! | [`QUANTITY_KEY`] | `quantity/uom.rs`, `geometry/` (angles) | `schema/units.rs` (`si_unit`, `settle_unit`, which removes it) |
//! | [`SCALE_KEY`] | `schema/units.rs` (`settle_unit`) | `adapt.rs` |
//! | [`ARRAY_KEY`] | `geometry/` | `adapt.rs`, `toolbox/build.rs` |
//! | [`COMPONENTS_KEY`] | `geometry/` | [`for_each_scalar`] (where `unit` and `range` apply) |
//! | [`UNIT_NORM_KEY`] | `geometry/` (quaternions), `ros/` (`Quaternion`) | `validate/compile.rs`, `adapt.rs` |
//! | [`COMPLEX_KEY`] | `geometry/` (angles of `UnitComplex`) | `adapt.rs` |
//! | [`ROS_KEY`] | `ros/` (each message's root) | `ros/` (the depth check of `toolbox/build.rs`) |
//! | [`SPEED_KEY`] | `robot/speed.rs` (`Speed`) | `toolbox/build.rs` (the tool's speed argument) |

use serde_json::{Map, Value};

/// The prefix of every private keyword: they drive the toolbox and are never published.
pub(crate) const PRIVATE_PREFIX: &str = "x-toolwright-";

/// Carries a problem found inside a derived type's `JsonSchema::json_schema` (which cannot fail)
/// to the toolbox build, which reports it with its path.
pub(crate) const ERROR_KEY: &str = "x-toolwright-error";

/// The schema keyword that marks a content type, with its kind as value (`"image"`, `"audio"`,
/// `"resource"`, `"resource_link"`, `"any"`, or `"with"` for
/// [`WithContent`](crate::WithContent)). It is read when the toolbox is built and never published.
pub(crate) const CONTENT_KEY: &str = "x-toolwright-content";

/// Names the quantity of a number schema (so an undeclared unit defaults to its SI unit).
pub(crate) const QUANTITY_KEY: &str = "x-toolwright-quantity";

/// `[factor, offset]` from the published unit to SI, when the declared unit is not the SI one.
pub(crate) const SCALE_KEY: &str = "x-toolwright-scale";

/// Property names, in order, of an object serde sees as an array (nalgebra's `[x, y, z]`).
pub(crate) const ARRAY_KEY: &str = "x-toolwright-array";

/// Properties `unit` and `range` apply to, in component order (`["x", "y", "z"]`; an isometry's
/// `["translation"]`, whose own components follow).
pub(crate) const COMPONENTS_KEY: &str = "x-toolwright-components";

/// The tolerance of an object whose number properties must have unit Euclidean norm (a
/// quaternion): the validator refuses a value farther from 1, and the adapter divides a valid one
/// by its norm before the body gets it.
pub(crate) const UNIT_NORM_KEY: &str = "x-toolwright-unit-norm";

/// How far a quaternion's norm may be from 1 before it is refused (the value of
/// [`UNIT_NORM_KEY`]).
#[cfg_attr(not(any(feature = "nalgebra", feature = "ros")), allow(dead_code))]
pub(crate) const UNIT_NORM_TOLERANCE: f64 = 1e-3;

/// On a number: serde sees the angle as the unit complex number `[cos θ, sin θ]`.
pub(crate) const COMPLEX_KEY: &str = "x-toolwright-complex";

/// Marks the root of a ROS message's schema (which counts its real depth).
#[cfg_attr(not(feature = "ros"), allow(dead_code))]
pub(crate) const ROS_KEY: &str = "x-toolwright-ros";

/// Marks a robot motion's speed parameter ([`Speed`](crate::robot::Speed)): the toolbox times
/// the checked motion at its value.
#[cfg_attr(not(feature = "robot"), allow(dead_code))]
pub(crate) const SPEED_KEY: &str = "x-toolwright-speed";

/// Removes the private keywords (every `x-toolwright-*` key) from a schema before it is
/// published; returns whether there were any. Property names and values (`default`, `enum`, ..)
/// are data, not keywords, and are left alone.
pub(crate) fn strip(schema: &mut Value) -> bool {
    match schema {
        Value::Object(obj) => {
            let before = obj.len();
            obj.retain(|k, _| !k.starts_with(PRIVATE_PREFIX));
            let mut found = obj.len() != before;
            for (k, v) in obj.iter_mut() {
                match (k.as_str(), v) {
                    ("default" | "examples" | "example" | "const" | "enum", _) => {}
                    (
                        "properties" | "patternProperties" | "$defs" | "definitions",
                        Value::Object(m),
                    ) => {
                        for sub in m.values_mut() {
                            found |= strip(sub);
                        }
                    }
                    (_, v) => found |= strip(v),
                }
            }
            found
        }
        Value::Array(items) => items.iter_mut().fold(false, |found, v| strip(v) | found),
        _ => false,
    }
}

/// What [`for_each_scalar`] calls: the component index, whether the scalar is a component of a
/// geometry object, and the scalar's schema.
pub(crate) type ScalarFn<'a> = dyn FnMut(usize, bool, &mut Map<String, Value>) + 'a;

/// Calls `f` on each scalar of `obj` that a declared `unit` and `range` apply to, with its
/// component index: `obj` itself, the innermost items of nested arrays, or each component of a
/// geometry object (recursively, in component order). Returns whether the scalars are
/// components (the unit then goes into their descriptions, not the property's).
pub(crate) fn for_each_scalar(obj: &mut Map<String, Value>, f: &mut ScalarFn<'_>) -> bool {
    let mut index = 0;
    visit(obj, f, &mut index, false)
}

fn visit(
    obj: &mut Map<String, Value>,
    f: &mut ScalarFn<'_>,
    index: &mut usize,
    component: bool,
) -> bool {
    let is_array = obj.get("type").and_then(Value::as_str) == Some("array")
        && obj.get("items").is_some_and(Value::is_object);
    if is_array {
        return match obj.get_mut("items") {
            Some(Value::Object(items)) => visit(items, f, index, component),
            _ => false,
        };
    }
    let names: Option<Vec<String>> = obj.get(COMPONENTS_KEY).and_then(|c| {
        c.as_array().map(|a| {
            a.iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect()
        })
    });
    let Some(names) = names else {
        f(*index, component, obj);
        *index += 1;
        return component;
    };
    if let Some(Value::Object(props)) = obj.get_mut("properties") {
        for name in names {
            if let Some(Value::Object(sub)) = props.get_mut(&name) {
                visit(sub, f, index, true);
            }
        }
    }
    true
}
