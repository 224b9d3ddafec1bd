//! Geometry as tool values: points, vectors, translations, rotations and poses published as
//! objects a model fills reliably (`{x, y, z}`, `{x, y, z, w}`, `{translation, rotation}`), and,
//! with the `nalgebra` feature, nalgebra's types as parameters, fields and outputs
//! (`nalgebra.rs`).
//!
//! A geometry schema carries private keywords until the toolbox is built, which compiles them
//! into the [`Adapter`](crate::adapt::Adapter) of the tool (or the validator, for the unit norm)
//! and strips them before anything is published:
//! - `x-toolwright-array`: the property names, in order, of an object that serde reads and
//!   writes as an array (nalgebra's `[x, y, z]`);
//! - `x-toolwright-components`: the properties a declared `unit` and `range` apply to, in
//!   component order (`["x", "y", "z"]`; an isometry's `["translation"]`, whose own components
//!   follow);
//! - `x-toolwright-unit-norm`: on an object whose number properties must have unit Euclidean
//!   norm (a quaternion), the tolerance; the validator refuses a value farther from 1, and the
//!   adapter divides a valid one by its norm before the body gets it;
//! - `x-toolwright-complex`: on a number, an angle that serde reads and writes as the unit
//!   complex number `[cos θ, sin θ]` (nalgebra's `UnitComplex`); with the quantity keywords of
//!   `crate::quantity`, so it is published in rad or in a declared unit of angle.

use serde_json::{Map, Value, json};

use crate::__private::Msg;

#[cfg(feature = "nalgebra")]
mod nalgebra;

/// Property names, in order, of an object serde sees as an array (removed before publication).
pub(crate) const ARRAY_KEY: &str = "x-toolwright-array";
/// Properties `unit` and `range` apply to, in component order (removed before publication).
pub(crate) const COMPONENTS_KEY: &str = "x-toolwright-components";
/// The tolerance of an object whose number properties must have unit norm (removed before
/// publication; the validator checks it).
pub(crate) const UNIT_NORM_KEY: &str = "x-toolwright-unit-norm";

/// On a number: serde sees the angle as `[cos θ, sin θ]` (removed before publication).
pub(crate) const COMPLEX_KEY: &str = "x-toolwright-complex";

/// How far a quaternion's norm may be from 1 before it is refused (a valid one is normalized).
#[cfg_attr(not(any(feature = "nalgebra", feature = "ros")), allow(dead_code))]
pub(crate) const UNIT_NORM_TOLERANCE: f64 = 1e-3;

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

/// The schema of one number component: `"X coordinate."`.
#[cfg_attr(not(feature = "nalgebra"), allow(dead_code))] // used by nalgebra.rs
fn component(description: String) -> Value {
    json!({"type": "number", "description": description})
}

/// An object of number components, all required, that serde sees as an array in this order;
/// `unit` and `range` apply to each component.
#[cfg_attr(not(feature = "nalgebra"), allow(dead_code))] // used by nalgebra.rs
pub(crate) fn array_object(
    description: Option<&str>,
    names: &[&str],
    describe: impl Fn(&str) -> String,
) -> Value {
    let mut properties = Map::new();
    for name in names {
        properties.insert((*name).to_owned(), component(describe(name)));
    }
    let mut obj = Map::new();
    obj.insert("type".into(), "object".into());
    if let Some(d) = description {
        obj.insert("description".into(), d.into());
    }
    obj.insert("properties".into(), Value::Object(properties));
    obj.insert("required".into(), json!(names));
    obj.insert("additionalProperties".into(), false.into());
    obj.insert(ARRAY_KEY.into(), json!(names));
    obj.insert(COMPONENTS_KEY.into(), json!(names));
    Value::Object(obj)
}

/// A unit quaternion `{x, y, z, w}`: unit norm checked at run time (which bounds every
/// component; separate bounds of -1..=1 would refuse `w = 1.0005` the norm's tolerance lets
/// through, and the last bit of a composed rotation's `w = 1.0000000000000002` on output); no
/// `unit` or `range` applies.
#[cfg_attr(not(feature = "nalgebra"), allow(dead_code))] // used by nalgebra.rs
pub(crate) fn quaternion() -> Value {
    let mut schema = array_object(
        Some(
            "Unit quaternion (x² + y² + z² + w² = 1); the identity rotation is \
             {x: 0, y: 0, z: 0, w: 1}.",
        ),
        &["x", "y", "z", "w"],
        |name| match name {
            "w" => "W (scalar) component.".to_owned(),
            axis => format!("{} (vector) component.", axis.to_uppercase()),
        },
    );
    if let Some(obj) = schema.as_object_mut() {
        obj.shift_remove(COMPONENTS_KEY);
        obj.insert(UNIT_NORM_KEY.into(), json!(UNIT_NORM_TOLERANCE));
    }
    schema
}

/// A pose `{translation, rotation}`: serde sees it as an object already (nalgebra's isometry
/// keys); `unit` and `range` apply to the translation's components.
#[cfg_attr(not(feature = "nalgebra"), allow(dead_code))] // used by nalgebra.rs
pub(crate) fn isometry(translation: Value, rotation: Value) -> Value {
    let with = |mut s: Value, d: &str| {
        if let Some(obj) = s.as_object_mut() {
            obj.insert("description".into(), d.into());
        }
        s
    };
    json!({
        "type": "object",
        "description": "A pose: where (translation), then how it is turned (rotation).",
        "properties": {
            "translation": with(translation, "Translation: where the origin goes."),
            "rotation": with(rotation, "Rotation, as a unit quaternion (x² + y² + z² + w² = 1); the identity is {x: 0, y: 0, z: 0, w: 1}."),
        },
        "required": ["translation", "rotation"],
        "additionalProperties": false,
        COMPONENTS_KEY: ["translation"],
    })
}

/// What [`for_each_scalar`] calls: the component index, whether the scalar is a component of a
/// geometry object, and the scalar's schema.
pub(crate) type ScalarFn<'a> = dyn FnMut(usize, bool, &mut Map<String, Value>) + 'a;

/// A rotation in the plane as its angle (a nalgebra `UnitComplex`): a number in rad, or in the
/// declared unit of angle (`crate::quantity` settles it, as for a uom `Angle`).
#[cfg_attr(not(feature = "nalgebra"), allow(dead_code))] // used by nalgebra.rs
pub(crate) fn angle(description: &str) -> Value {
    json!({
        "type": "number",
        "description": description,
        "x-unit": crate::quantity::table::ANGLE.si,
        crate::quantity::QUANTITY_KEY: crate::quantity::table::ANGLE.name,
        COMPLEX_KEY: true,
    })
}

/// A pose in the plane `{translation: {x, y}, rotation: <angle>}`: `unit` and `range` apply to
/// the translation's components; the rotation is in rad.
#[cfg_attr(not(feature = "nalgebra"), allow(dead_code))] // used by nalgebra.rs
pub(crate) fn isometry2(translation: Value) -> Value {
    let mut translation = translation;
    if let Some(obj) = translation.as_object_mut() {
        obj.insert(
            "description".into(),
            "Translation: where the origin goes.".into(),
        );
    }
    json!({
        "type": "object",
        "description": "A pose in the plane: where (translation), then how it is turned (rotation).",
        "properties": {
            "translation": translation,
            "rotation": angle("Rotation angle, counterclockwise, in radians (rad)."),
        },
        "required": ["translation", "rotation"],
        "additionalProperties": false,
        COMPONENTS_KEY: ["translation"],
    })
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_of_an_isometry_are_its_translations() {
        let mut schema = isometry(
            array_object(None, &["x", "y", "z"], |n| n.to_string()),
            quaternion(),
        );
        let mut seen = Vec::new();
        let obj = schema.as_object_mut().unwrap();
        assert!(for_each_scalar(obj, &mut |i, component, s| {
            assert!(component);
            seen.push((i, s["description"].as_str().unwrap().to_owned()));
        }));
        assert_eq!(
            seen,
            [
                (0, "x".to_owned()),
                (1, "y".to_owned()),
                (2, "z".to_owned())
            ]
        );
        let mut number = json!({"type": "array", "items": {"type": "number"}});
        let mut count = 0;
        assert!(!for_each_scalar(
            number.as_object_mut().unwrap(),
            &mut |_, _, _| count += 1
        ));
        assert_eq!(count, 1);
    }

    #[test]
    fn component_count_messages() {
        let point = Components {
            count: 3,
            names: "x, y, z",
            ty: "Point3<f64>",
        };
        assert!(point.mismatch(2));
        assert!(!point.mismatch(3));
        assert_eq!(
            point.message(2).as_str(),
            "`range` lists 2 ranges, but `Point3<f64>` has 3 components (x, y, z): give one \
             range per component in that order, or one range for all of them"
        );
        assert!(
            Components::NONE
                .message(3)
                .as_str()
                .contains("this type has no components")
        );
    }
}
