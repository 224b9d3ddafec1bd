//! nalgebra's geometry types (`Point3<f64>`, `Vector3<f64>`, `Translation3<f64>`,
//! `UnitQuaternion<f64>`, `Isometry3<f64>`, `Point2<f64>`, `Vector2<f64>`, `UnitComplex<f64>`,
//! `Isometry2<f64>`) as parameters, fields and outputs.
//!
//! As for uom's quantities (`crate::quantity`), the orphan rule keeps toolwright from
//! implementing `JsonSchema` for them, so generated code reaches them through inherent methods of
//! `Probe<T>` (and of `Probe<Option<T>>`, `Probe<Vec<T>>`, `Probe<Result<..>>` of one), chosen
//! before the trait methods at the same receiver. Their schemas are objects; nalgebra's serde
//! reads and writes arrays, so the tool's adapter converts between the two (`crate::adapt`).

// A failed argument is recorded in `Args` and reported with the others (as in `crate::probe`).
#![allow(clippy::result_unit_err)]

use nalgebra::{
    Isometry2, Isometry3, Point2, Point3, Translation3, UnitComplex, UnitQuaternion, Vector2,
    Vector3,
};
use schemars::Schema;
use schemars::generate::SchemaGenerator;
use serde_json::{Value, json};

use super::{angle, array_object, isometry, isometry2, quaternion};
use crate::adapt::Adapter;
use crate::contract::{Args, CallError};
use crate::error::ToolError;
use crate::probe::{
    AcceptsError, Marker, Probe, RangeTarget, SchemaShape, UnitTarget, to_json, to_output,
};
use crate::schema::units::{QuantityDef, QuantityTarget, UNIT_COMPLEX};
use crate::schema::{Components, ComponentsTarget, TypeInfo};

/// A nalgebra type toolwright publishes: its schema (with the private keywords the adapter is
/// compiled from).
trait Geometry: serde::Serialize {
    fn schema() -> Value;
}

fn coordinates(description: &str, names: &[&str], describe: fn(&str) -> String) -> Value {
    array_object(Some(description), names, describe)
}

fn coordinate(axis: &str) -> String {
    format!("{} coordinate.", axis.to_uppercase())
}

fn vector_component(axis: &str) -> String {
    format!("{} component.", axis.to_uppercase())
}

fn offset(axis: &str) -> String {
    format!("Offset along {}.", axis.to_uppercase())
}

impl Geometry for Point3<f64> {
    fn schema() -> Value {
        coordinates("A point (x, y, z).", &["x", "y", "z"], coordinate)
    }
}
impl Geometry for Point2<f64> {
    fn schema() -> Value {
        coordinates("A point (x, y).", &["x", "y"], coordinate)
    }
}
impl Geometry for Vector3<f64> {
    fn schema() -> Value {
        coordinates("A vector (x, y, z).", &["x", "y", "z"], vector_component)
    }
}
impl Geometry for Vector2<f64> {
    fn schema() -> Value {
        coordinates("A vector (x, y).", &["x", "y"], vector_component)
    }
}
impl Geometry for Translation3<f64> {
    fn schema() -> Value {
        coordinates("A translation (x, y, z).", &["x", "y", "z"], offset)
    }
}
impl Geometry for UnitQuaternion<f64> {
    fn schema() -> Value {
        quaternion()
    }
}
impl Geometry for Isometry3<f64> {
    fn schema() -> Value {
        isometry(
            coordinates("A translation (x, y, z).", &["x", "y", "z"], offset),
            <UnitQuaternion<f64> as Geometry>::schema(),
        )
    }
}

impl Geometry for UnitComplex<f64> {
    fn schema() -> Value {
        angle("Rotation angle, counterclockwise.")
    }
}
impl Geometry for Isometry2<f64> {
    fn schema() -> Value {
        isometry2(coordinates("A translation (x, y).", &["x", "y"], offset))
    }
}

/// A declared `default` or example of a `UnitComplex`: its angle, in the published unit (as
/// for a uom quantity).
fn declared_angle(value: &f64) -> Value {
    to_json(value)
}

/// The published form of a declared `default` or example (nalgebra serializes arrays).
fn published<T: Geometry>(value: &T) -> Value {
    let mut v = to_json(value);
    if let Ok(Some(adapter)) = Adapter::compile(&T::schema()) {
        adapter.to_published(&mut v);
    }
    v
}

fn schema_of<T: Geometry>(_: &mut SchemaGenerator) -> Schema {
    crate::schema::to_schemars(T::schema())
}

fn list_schema_of<T: Geometry>(_: &mut SchemaGenerator) -> Schema {
    crate::schema::to_schemars(json!({"type": "array", "items": T::schema()}))
}

fn info<T: Geometry>(optional: bool) -> TypeInfo {
    TypeInfo::made_by(optional, schema_of::<T>)
}

fn list_info<T: Geometry>(optional: bool) -> TypeInfo {
    TypeInfo::made_by(optional, list_schema_of::<T>)
}

macro_rules! geometry {
    ($($ty:ty => $depth:expr, [$($component:literal),*], $declared:ty, $publish:expr;)*) => {$(
        impl SchemaShape for $ty {
            const DEPTH: usize = $depth;
            const PROPERTIES: usize = 0;
        }

        impl Probe<$ty> {
            /// Nothing for the generic checks: a geometry type has its own schema.
            pub fn schema_marker(&self) -> Marker<()> {
                Marker::new()
            }
            /// A string `default` is refused by `value_json`'s type, not by this check.
            pub fn str_marker(&self) -> Marker<String> {
                Marker::new()
            }
            /// Nothing for the generic checks: the output is a geometry value.
            pub fn output_marker(&self) -> Marker<()> {
                Marker::new()
            }
            /// No error type: `ToolError` itself.
            pub fn error_marker(&self) -> Marker<ToolError> {
                Marker::new()
            }
            /// A geometry parameter: an object of its components.
            pub fn type_info(&self) -> TypeInfo {
                info::<$ty>(false)
            }
            /// A geometry field.
            pub fn field_info(&self) -> TypeInfo {
                info::<$ty>(false)
            }
            /// Takes the argument (already an array: the toolbox converts the object).
            pub fn take_arg(&self, args: &mut Args, name: &str) -> Result<$ty, ()> {
                args.take(name)
            }
            /// A declared `default` or example, published as the model writes it.
            pub fn value_json(&self, value: $declared) -> Value {
                $publish(&value)
            }
            /// A geometry output.
            pub fn output_info(&self) -> TypeInfo {
                info::<$ty>(false)
            }
            /// Serializes a returned value (nalgebra's array; the toolbox converts it).
            pub fn output_value(&self, ret: $ty) -> Result<Value, CallError> {
                to_output(&ret)
            }
        }

        impl Probe<Option<$ty>> {
            /// Nothing for the generic checks: a geometry type has its own schema.
            pub fn schema_marker(&self) -> Marker<()> {
                Marker::new()
            }
            /// A string `default` is refused by `value_json`'s type, not by this check.
            pub fn str_marker(&self) -> Marker<String> {
                Marker::new()
            }
            /// An optional geometry parameter.
            pub fn type_info(&self) -> TypeInfo {
                info::<$ty>(true)
            }
            /// An optional geometry field.
            pub fn field_info(&self) -> TypeInfo {
                info::<$ty>(true)
            }
            /// Takes the argument, if given.
            pub fn take_arg(&self, args: &mut Args, name: &str) -> Result<Option<$ty>, ()> {
                args.take(name)
            }
            /// A declared `default` or example, published as the model writes it.
            pub fn value_json(&self, value: $declared) -> Value {
                $publish(&value)
            }
        }

        impl Probe<Vec<$ty>> {
            /// Nothing for the generic checks: a geometry type has its own schema.
            pub fn schema_marker(&self) -> Marker<()> {
                Marker::new()
            }
            /// A string `default` is refused by `value_json`'s type, not by this check.
            pub fn str_marker(&self) -> Marker<String> {
                Marker::new()
            }
            /// Nothing for the generic checks: the output is a geometry value.
            pub fn output_marker(&self) -> Marker<()> {
                Marker::new()
            }
            /// No error type: `ToolError` itself.
            pub fn error_marker(&self) -> Marker<ToolError> {
                Marker::new()
            }
            /// A list of geometry values.
            pub fn type_info(&self) -> TypeInfo {
                list_info::<$ty>(false)
            }
            /// A list field.
            pub fn field_info(&self) -> TypeInfo {
                list_info::<$ty>(false)
            }
            /// Takes the argument.
            pub fn take_arg(&self, args: &mut Args, name: &str) -> Result<Vec<$ty>, ()> {
                args.take(name)
            }
            /// A declared `default` or example, published as the model writes it.
            pub fn value_json(&self, value: Vec<$declared>) -> Value {
                Value::Array(value.iter().map($publish).collect())
            }
            /// A list output.
            pub fn output_info(&self) -> TypeInfo {
                list_info::<$ty>(false)
            }
            /// Serializes a returned list.
            pub fn output_value(&self, ret: Vec<$ty>) -> Result<Value, CallError> {
                to_output(&ret)
            }
        }

        impl<E> Probe<Result<$ty, E>> {
            /// Nothing for the generic checks: the output is a geometry value.
            pub fn output_marker(&self) -> Marker<()> {
                Marker::new()
            }
            /// The error type the checks name.
            pub fn error_marker(&self) -> Marker<E> {
                Marker::new()
            }
            /// A geometry output of a fallible tool.
            pub fn output_info(&self) -> TypeInfo {
                info::<$ty>(false)
            }
            /// Serializes the value, or makes the error an `isError` result.
            pub fn output_value(&self, ret: Result<$ty, E>) -> Result<Value, CallError>
            where
                ToolError: AcceptsError<E>,
            {
                match ret {
                    Ok(value) => to_output(&value),
                    Err(e) => Err(CallError::Tool(ToolError::accept(e))),
                }
            }
        }

        impl<E> Probe<Result<Vec<$ty>, E>> {
            /// Nothing for the generic checks: the output is a geometry value.
            pub fn output_marker(&self) -> Marker<()> {
                Marker::new()
            }
            /// The error type the checks name.
            pub fn error_marker(&self) -> Marker<E> {
                Marker::new()
            }
            /// A list output of a fallible tool.
            pub fn output_info(&self) -> TypeInfo {
                list_info::<$ty>(false)
            }
            /// Serializes the list, or makes the error an `isError` result.
            pub fn output_value(&self, ret: Result<Vec<$ty>, E>) -> Result<Value, CallError>
            where
                ToolError: AcceptsError<E>,
            {
                match ret {
                    Ok(value) => to_output(&value),
                    Err(e) => Err(CallError::Tool(ToolError::accept(e))),
                }
            }
        }

        geometry!(@components $ty, [$($component),*]);
    )*};
    (@components $ty:ty, []) => {};
    (@components $ty:ty, [$($component:literal),+]) => {
        // `unit` and `range` apply to each coordinate (an isometry's translation). Not listed
        // when `range` or `unit` is put on another type: the list is for numbers.
        #[diagnostic::do_not_recommend]
        impl RangeTarget for $ty {
            const NAME: &'static str = "f64";
            const INTEGER: bool = false;
            const MIN: i128 = i128::MIN;
            const MAX: i128 = i128::MAX;
        }
        #[diagnostic::do_not_recommend]
        impl UnitTarget for $ty {}
        #[diagnostic::do_not_recommend]
        impl ComponentsTarget for $ty {
            const COMPONENTS: Components = Components {
                count: [$($component),+].len(),
                names: geometry!(@names $($component),+),
                ty: stringify!($ty),
            };
        }
    };
    (@names $first:literal $(, $rest:literal)*) => {
        concat!($first $(, ", ", $rest)*)
    };
}

// A unit quaternion has no `unit` and no `range`: its components are bound by its norm.
geometry! {
    Point3<f64> => 1, ["x", "y", "z"], Point3<f64>, published::<Point3<f64>>;
    Point2<f64> => 1, ["x", "y"], Point2<f64>, published::<Point2<f64>>;
    Vector3<f64> => 1, ["x", "y", "z"], Vector3<f64>, published::<Vector3<f64>>;
    Vector2<f64> => 1, ["x", "y"], Vector2<f64>, published::<Vector2<f64>>;
    Translation3<f64> => 1, ["x", "y", "z"], Translation3<f64>, published::<Translation3<f64>>;
    UnitQuaternion<f64> => 1, [], UnitQuaternion<f64>, published::<UnitQuaternion<f64>>;
    Isometry3<f64> => 2, ["x", "y", "z"], Isometry3<f64>, published::<Isometry3<f64>>;
    Isometry2<f64> => 2, ["x", "y"], Isometry2<f64>, published::<Isometry2<f64>>;
    UnitComplex<f64> => 0, [], f64, declared_angle;
}

// A `UnitComplex` is an angle: `unit` (a unit of angle, converted like a uom `Angle`) and
// `range` (in that unit) apply to it.
#[diagnostic::do_not_recommend]
impl RangeTarget for UnitComplex<f64> {
    const NAME: &'static str = "f64";
    const INTEGER: bool = false;
    const MIN: i128 = i128::MIN;
    const MAX: i128 = i128::MAX;
}
#[diagnostic::do_not_recommend]
impl UnitTarget for UnitComplex<f64> {}
#[diagnostic::do_not_recommend]
impl QuantityTarget for UnitComplex<f64> {
    const QUANTITY: &'static QuantityDef = &UNIT_COMPLEX;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T>(value: T, published_form: Value)
    where
        T: Geometry + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        let adapter = Adapter::compile(&T::schema()).unwrap().unwrap();
        let mut v = to_json(&value);
        adapter.to_published(&mut v);
        assert_eq!(v, published_form);
        adapter.to_serde(&mut v).unwrap();
        assert_eq!(serde_json::from_value::<T>(v).unwrap(), value);
    }

    #[test]
    fn every_type_round_trips_through_its_published_form() {
        round_trip(
            Point3::new(1.0, 2.0, 3.0),
            json!({"x": 1.0, "y": 2.0, "z": 3.0}),
        );
        round_trip(Point2::new(1.0, 2.0), json!({"x": 1.0, "y": 2.0}));
        round_trip(
            Vector3::new(1.0, -2.0, 0.5),
            json!({"x": 1.0, "y": -2.0, "z": 0.5}),
        );
        round_trip(Vector2::new(0.0, 4.0), json!({"x": 0.0, "y": 4.0}));
        round_trip(
            Translation3::new(1.0, 2.0, 3.0),
            json!({"x": 1.0, "y": 2.0, "z": 3.0}),
        );
        let q = UnitQuaternion::from_euler_angles(0.0, 0.0, std::f64::consts::FRAC_PI_2);
        let (s, c) = (q.k, q.w);
        round_trip(q, json!({"x": 0.0, "y": 0.0, "z": s, "w": c}));
        round_trip(
            Isometry3::from_parts(Translation3::new(400.0, 0.0, 200.0), q),
            json!({
                "rotation": {"x": 0.0, "y": 0.0, "z": s, "w": c},
                "translation": {"x": 400.0, "y": 0.0, "z": 200.0},
            }),
        );
    }

    #[test]
    fn a_unit_complex_is_its_angle_in_rad() {
        let turn = UnitComplex::new(0.5);
        let adapter = Adapter::compile(&<UnitComplex<f64>>::schema())
            .unwrap()
            .unwrap();
        let mut v = to_json(turn);
        adapter.to_published(&mut v);
        assert!((v.as_f64().unwrap() - 0.5).abs() < 1e-15, "{v}");
        adapter.to_serde(&mut v).unwrap();
        let back: UnitComplex<f64> = serde_json::from_value(v).unwrap();
        assert!((back.angle() - 0.5).abs() < 1e-15);
        let pose = Isometry2::new(Vector2::new(10.0, -5.0), -2.0);
        let adapter = Adapter::compile(&<Isometry2<f64>>::schema())
            .unwrap()
            .unwrap();
        let mut v = to_json(pose);
        adapter.to_published(&mut v);
        assert_eq!(v["translation"], json!({"x": 10.0, "y": -5.0}));
        assert!((v["rotation"].as_f64().unwrap() + 2.0).abs() < 1e-15, "{v}");
        adapter.to_serde(&mut v).unwrap();
        let back: Isometry2<f64> = serde_json::from_value(v).unwrap();
        assert_eq!(back.translation.vector, Vector2::new(10.0, -5.0));
        assert!((back.rotation.angle() + 2.0).abs() < 1e-15);
    }

    #[test]
    fn defaults_are_published_as_objects() {
        let probe = Probe::<Vec<Point3<f64>>>::new();
        assert_eq!(
            probe.value_json(vec![Point3::new(1.0, 2.0, 3.0)]),
            json!([{"x": 1.0, "y": 2.0, "z": 3.0}])
        );
    }

    #[test]
    fn components_are_counted_for_per_component_ranges() {
        let point = <Point3<f64> as ComponentsTarget>::COMPONENTS;
        assert_eq!((point.count, point.names), (3, "x, y, z"));
        let pose = <Vec<Isometry3<f64>> as ComponentsTarget>::COMPONENTS;
        assert_eq!((pose.count, pose.ty), (3, "Isometry3<f64>"));
        assert_eq!(<Vector2<f64> as ComponentsTarget>::COMPONENTS.count, 2);
    }

    #[test]
    fn component_ranges_bound_each_coordinate_and_must_cover_them() {
        use crate::schema::{Bound, ComponentRange, FieldSpec, Num, Unit, property_schema};
        use schemars::generate::Contract;
        let bound = |v: f64| {
            Some(Bound {
                value: Num::Float(v),
                exclusive: false,
            })
        };
        let mut g = crate::schema::generator(Contract::Deserialize);
        let spec = FieldSpec {
            name: "target",
            description: Some("Where to go."),
            unit: Some(Unit {
                symbol: "mm",
                words: "millimeters",
            }),
            component_ranges: Some(|| {
                vec![
                    ComponentRange {
                        minimum: Some(Bound {
                            value: Num::Float(-1.0),
                            exclusive: false,
                        }),
                        maximum: None,
                    },
                    ComponentRange::default(),
                    ComponentRange {
                        minimum: Some(Bound {
                            value: Num::Float(0.0),
                            exclusive: false,
                        }),
                        maximum: Some(Bound {
                            value: Num::Float(2.0),
                            exclusive: true,
                        }),
                    },
                ]
            }),
            ..FieldSpec::default()
        };
        let probe = Probe::<Point3<f64>>::new();
        let (schema, required) = property_schema(&mut g, &spec, probe.type_info()).unwrap();
        assert!(required);
        assert_eq!(schema["description"], json!("Where to go."));
        let props = &schema["properties"];
        assert_eq!(
            props["x"],
            json!({"type": "number", "description": "X coordinate, in millimeters (mm).", "x-unit": "mm", "minimum": -1.0})
        );
        assert_eq!(
            props["y"],
            json!({"type": "number", "description": "Y coordinate, in millimeters (mm).", "x-unit": "mm"})
        );
        assert_eq!(props["z"]["exclusiveMaximum"], json!(2.0));
        assert_eq!(props["z"]["minimum"], json!(0.0));
        // Fewer ranges than coordinates (the macros refuse it at compile time).
        let short = FieldSpec {
            component_ranges: Some(|| vec![ComponentRange::default()]),
            minimum: bound(0.0),
            ..spec
        };
        let err = property_schema(&mut g, &short, probe.type_info()).unwrap_err();
        assert_eq!(err.path, "target");
        assert!(err.message.contains("lists 1 range, fewer"), "{err}");
    }
}
