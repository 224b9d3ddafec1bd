//! The nalgebra family (the `nalgebra` feature): points, vectors, translations, rotations and
//! poses published as objects a model fills reliably (`{x, y, z}`, `{x, y, z, w}`,
//! `{translation, rotation}`): the schema builders here, nalgebra's types as parameters, fields
//! and outputs in `nalgebra.rs` (see [`crate::probe`] for how a family plugs in).
//!
//! A geometry schema carries private keywords ([`crate::schema::keys`]) until the toolbox is
//! built, which compiles them into the [`Adapter`](crate::adapt::Adapter) of the tool (or the
//! validator, for the unit norm) and strips them before anything is published:
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

use crate::schema::keys::{
    ARRAY_KEY, COMPLEX_KEY, COMPONENTS_KEY, UNIT_NORM_KEY, UNIT_NORM_TOLERANCE,
};

mod nalgebra;

/// The schema of one number component: `"X coordinate."`.
fn component(description: String) -> Value {
    json!({"type": "number", "description": description})
}

/// An object of number components, all required, that serde sees as an array in this order;
/// `unit` and `range` apply to each component.
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

/// A rotation in the plane as its angle (a nalgebra `UnitComplex`): a number in rad, or in the
/// declared unit of angle (`crate::schema::units` settles it, as for a uom `Angle`).
pub(crate) fn angle(description: &str) -> Value {
    json!({
        "type": "number",
        "description": description,
        "x-unit": crate::schema::units::ANGLE.si,
        crate::schema::keys::QUANTITY_KEY: crate::schema::units::ANGLE.name,
        COMPLEX_KEY: true,
    })
}

/// A pose in the plane `{translation: {x, y}, rotation: <angle>}`: `unit` and `range` apply to
/// the translation's components; the rotation is in rad.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Components;
    use crate::schema::keys::for_each_scalar;

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
