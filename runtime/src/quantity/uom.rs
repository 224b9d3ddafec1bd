//! uom's quantity types (`uom::si::f64::{Length, Force, ..}`) as parameters, fields and outputs.
//!
//! uom's types implement neither `JsonSchema` nor any trait of toolwright's, and the orphan rule
//! keeps toolwright from implementing `JsonSchema` for them. So generated code reaches them through
//! inherent methods of `Probe<Quantity<..>>` (and of `Probe<Option<..>>`, `Probe<Vec<..>>`,
//! `Probe<Result<..>>` of one): on the receiver `&Probe<_>` generated code writes, inherent
//! methods are chosen before any trait method, and `ParamOptional`, `ParamPlain`, `ReturnResult`
//! and `ReturnPlain` only come at later steps (see `Probe`), so the generated expressions
//! (`(&Probe::<T>::new()).type_info()`, ..) are the same as for any type.
//! The bound `QuantityTarget` sits on the methods, so a quantity without a unit in the
//! vocabulary is an error at the parameter's type saying so.

// A failed argument is recorded in `Args` and reported with the others (as in `crate::probe`).
#![allow(clippy::result_unit_err)]

use schemars::Schema;
use schemars::generate::SchemaGenerator;
use serde_json::{Value, json};

use crate::contract::{Args, CallError};
use crate::error::ToolError;
use crate::probe::{
    AcceptsError, Marker, Probe, RangeTarget, SchemaShape, UnitTarget, to_json, to_output,
};
use crate::schema::TypeInfo;
use crate::schema::keys::QUANTITY_KEY;
use crate::schema::units::{self as table, QuantityDef, QuantityTarget};

/// A uom quantity of the SI system, stored as an `f64` (the `uom::si::f64` types).
type Q<D> = uom::si::Quantity<D, uom::si::SI<f64>, f64>;

macro_rules! quantities {
    ($($ty:ident => $def:ident;)*) => {$(
        // Not listed to the user when a quantity has no unit: the list would be typenum noise.
        #[diagnostic::do_not_recommend]
        impl QuantityTarget for uom::si::f64::$ty {
            const QUANTITY: &'static QuantityDef = &table::$def;
        }
        #[diagnostic::do_not_recommend]
        impl RangeTarget for uom::si::f64::$ty {
            const NAME: &'static str = stringify!($ty);
            const INTEGER: bool = false;
            const MIN: i128 = i128::MIN;
            const MAX: i128 = i128::MAX;
        }
        #[diagnostic::do_not_recommend]
        impl UnitTarget for uom::si::f64::$ty {}
        impl SchemaShape for uom::si::f64::$ty {
            const DEPTH: usize = 0;
            const PROPERTIES: usize = 0;
        }
    )*};
}

quantities! {
    Length => LENGTH;
    Angle => ANGLE;
    Time => TIME;
    Frequency => FREQUENCY;
    Velocity => VELOCITY;
    AngularVelocity => ANGULAR_VELOCITY;
    Acceleration => ACCELERATION;
    AngularAcceleration => ANGULAR_ACCELERATION;
    Force => FORCE;
    Torque => TORQUE;
    Mass => MASS;
    Pressure => PRESSURE;
    ElectricPotential => VOLTAGE;
    ElectricCurrent => CURRENT;
    Power => POWER;
    ElectricalResistance => RESISTANCE;
    Energy => ENERGY;
    ThermodynamicTemperature => TEMPERATURE;
    Information => INFORMATION;
    Illuminance => ILLUMINANCE;
}

/// A number in the quantity's SI unit; `schema::property_schema` switches it to a declared unit.
fn number_schema<T: QuantityTarget>() -> Value {
    let q = T::QUANTITY;
    json!({"type": "number", "x-unit": q.si, QUANTITY_KEY: q.name})
}

fn quantity_schema<T: QuantityTarget>(_: &mut SchemaGenerator) -> Schema {
    crate::schema::to_schemars(number_schema::<T>())
}

fn list_schema<T: QuantityTarget>(_: &mut SchemaGenerator) -> Schema {
    crate::schema::to_schemars(json!({"type": "array", "items": number_schema::<T>()}))
}

fn info<T: QuantityTarget>(optional: bool) -> TypeInfo {
    TypeInfo::made_by(optional, quantity_schema::<T>)
}

fn list_info<T: QuantityTarget>(optional: bool) -> TypeInfo {
    TypeInfo::made_by(optional, list_schema::<T>)
}

impl<D> Probe<Q<D>>
where
    D: uom::si::Dimension + ?Sized,
{
    /// Nothing for the generic checks: a quantity's own bound says what a message needs.
    pub fn schema_marker(&self) -> Marker<()> {
        Marker::new()
    }
    /// A string `default` is refused by `value_json`'s type, not by this check.
    pub fn str_marker(&self) -> Marker<String> {
        Marker::new()
    }
    /// Nothing for the generic checks: the output is a quantity.
    pub fn output_marker(&self) -> Marker<()> {
        Marker::new()
    }
    /// No error type: `ToolError` itself.
    pub fn error_marker(&self) -> Marker<ToolError> {
        Marker::new()
    }
    /// A quantity parameter: a number in its unit.
    pub fn type_info(&self) -> TypeInfo
    where
        Q<D>: QuantityTarget,
    {
        info::<Q<D>>(false)
    }
    /// A quantity field.
    pub fn field_info(&self) -> TypeInfo
    where
        Q<D>: QuantityTarget,
    {
        info::<Q<D>>(false)
    }
    /// Takes the argument (already in SI: the toolbox converts the published unit).
    pub fn take_arg(&self, args: &mut Args, name: &str) -> Result<Q<D>, ()>
    where
        Q<D>: QuantityTarget,
    {
        args.take(name)
    }
    /// A declared `default` or example: a number in the published unit.
    pub fn value_json(&self, value: f64) -> Value {
        to_json(value)
    }
    /// A quantity output: a number in its SI unit.
    pub fn output_info(&self) -> TypeInfo
    where
        Q<D>: QuantityTarget,
    {
        info::<Q<D>>(false)
    }
    /// Serializes a returned quantity (its SI value).
    pub fn output_value(&self, ret: Q<D>) -> Result<Value, CallError>
    where
        Q<D>: QuantityTarget,
    {
        to_output(&ret)
    }
}

impl<D> Probe<Option<Q<D>>>
where
    D: uom::si::Dimension + ?Sized,
{
    /// Nothing for the generic checks: a quantity's own bound says what a message needs.
    pub fn schema_marker(&self) -> Marker<()> {
        Marker::new()
    }
    /// A string `default` is refused by `value_json`'s type, not by this check.
    pub fn str_marker(&self) -> Marker<String> {
        Marker::new()
    }
    /// An optional quantity parameter.
    pub fn type_info(&self) -> TypeInfo
    where
        Q<D>: QuantityTarget,
    {
        info::<Q<D>>(true)
    }
    /// An optional quantity field.
    pub fn field_info(&self) -> TypeInfo
    where
        Q<D>: QuantityTarget,
    {
        info::<Q<D>>(true)
    }
    /// Takes the argument, if given.
    pub fn take_arg(&self, args: &mut Args, name: &str) -> Result<Option<Q<D>>, ()>
    where
        Q<D>: QuantityTarget,
    {
        args.take(name)
    }
    /// A declared `default` or example: a number in the published unit.
    pub fn value_json(&self, value: f64) -> Value {
        to_json(value)
    }
}

impl<D> Probe<Vec<Q<D>>>
where
    D: uom::si::Dimension + ?Sized,
{
    /// Nothing for the generic checks: a quantity's own bound says what a message needs.
    pub fn schema_marker(&self) -> Marker<()> {
        Marker::new()
    }
    /// A string `default` is refused by `value_json`'s type, not by this check.
    pub fn str_marker(&self) -> Marker<String> {
        Marker::new()
    }
    /// Nothing for the generic checks: the output is a quantity.
    pub fn output_marker(&self) -> Marker<()> {
        Marker::new()
    }
    /// No error type: `ToolError` itself.
    pub fn error_marker(&self) -> Marker<ToolError> {
        Marker::new()
    }
    /// A list of quantities: numbers in their unit.
    pub fn type_info(&self) -> TypeInfo
    where
        Q<D>: QuantityTarget,
    {
        list_info::<Q<D>>(false)
    }
    /// A list field.
    pub fn field_info(&self) -> TypeInfo
    where
        Q<D>: QuantityTarget,
    {
        list_info::<Q<D>>(false)
    }
    /// Takes the argument.
    pub fn take_arg(&self, args: &mut Args, name: &str) -> Result<Vec<Q<D>>, ()>
    where
        Q<D>: QuantityTarget,
    {
        args.take(name)
    }
    /// A declared `default` or example: numbers in the published unit.
    pub fn value_json(&self, value: Vec<f64>) -> Value {
        to_json(value)
    }
    /// A list output.
    pub fn output_info(&self) -> TypeInfo
    where
        Q<D>: QuantityTarget,
    {
        list_info::<Q<D>>(false)
    }
    /// Serializes a returned list (SI values).
    pub fn output_value(&self, ret: Vec<Q<D>>) -> Result<Value, CallError>
    where
        Q<D>: QuantityTarget,
    {
        to_output(&ret)
    }
}

impl<D, E> Probe<Result<Q<D>, E>>
where
    D: uom::si::Dimension + ?Sized,
{
    /// Nothing for the generic checks: the output is a quantity.
    pub fn output_marker(&self) -> Marker<()> {
        Marker::new()
    }
    /// The error type the checks name.
    pub fn error_marker(&self) -> Marker<E> {
        Marker::new()
    }
    /// A quantity output of a fallible tool.
    pub fn output_info(&self) -> TypeInfo
    where
        Q<D>: QuantityTarget,
    {
        info::<Q<D>>(false)
    }
    /// Serializes the quantity, or makes the error an `isError` result.
    pub fn output_value(&self, ret: Result<Q<D>, E>) -> Result<Value, CallError>
    where
        Q<D>: QuantityTarget,
        ToolError: AcceptsError<E>,
    {
        match ret {
            Ok(value) => to_output(&value),
            Err(e) => Err(CallError::Tool(ToolError::accept(e))),
        }
    }
}

impl<D, E> Probe<Result<Vec<Q<D>>, E>>
where
    D: uom::si::Dimension + ?Sized,
{
    /// Nothing for the generic checks: the output is a quantity.
    pub fn output_marker(&self) -> Marker<()> {
        Marker::new()
    }
    /// The error type the checks name.
    pub fn error_marker(&self) -> Marker<E> {
        Marker::new()
    }
    /// A list output of a fallible tool.
    pub fn output_info(&self) -> TypeInfo
    where
        Q<D>: QuantityTarget,
    {
        list_info::<Q<D>>(false)
    }
    /// Serializes the list, or makes the error an `isError` result.
    pub fn output_value(&self, ret: Result<Vec<Q<D>>, E>) -> Result<Value, CallError>
    where
        Q<D>: QuantityTarget,
        ToolError: AcceptsError<E>,
    {
        match ret {
            Ok(value) => to_output(&value),
            Err(e) => Err(CallError::Tool(ToolError::accept(e))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::table::unit;
    use uom::Conversion;
    use uom::si::{
        acceleration, angle, angular_acceleration, angular_velocity, electric_current,
        electric_potential, electrical_resistance, energy, force, frequency, illuminance,
        information, length, mass, power, pressure, thermodynamic_temperature, time, torque,
        velocity,
    };

    fn factor<U: Conversion<f64, T = f64>>() -> f64 {
        U::coefficient()
    }

    /// Every factor in the table is uom's (so 250 mm converted here is uom's 250 mm).
    #[test]
    fn factors_are_uoms() {
        let cases: &[(&str, f64)] = &[
            ("nm", factor::<length::nanometer>()),
            ("µm", factor::<length::micrometer>()),
            ("mm", factor::<length::millimeter>()),
            ("cm", factor::<length::centimeter>()),
            ("m", factor::<length::meter>()),
            ("km", factor::<length::kilometer>()),
            ("in", factor::<length::inch>()),
            ("ft", factor::<length::foot>()),
            ("deg", factor::<angle::degree>()),
            ("rad", factor::<angle::radian>()),
            ("ns", factor::<time::nanosecond>()),
            ("µs", factor::<time::microsecond>()),
            ("ms", factor::<time::millisecond>()),
            ("s", factor::<time::second>()),
            ("min", factor::<time::minute>()),
            ("h", factor::<time::hour>()),
            ("Hz", factor::<frequency::hertz>()),
            ("kHz", factor::<frequency::kilohertz>()),
            ("mm/s", factor::<velocity::millimeter_per_second>()),
            ("m/s", factor::<velocity::meter_per_second>()),
            ("deg/s", factor::<angular_velocity::degree_per_second>()),
            ("rad/s", factor::<angular_velocity::radian_per_second>()),
            ("rpm", factor::<angular_velocity::revolution_per_minute>()),
            (
                "mm/s^2",
                factor::<acceleration::millimeter_per_second_squared>(),
            ),
            ("m/s^2", factor::<acceleration::meter_per_second_squared>()),
            (
                "deg/s^2",
                factor::<angular_acceleration::degree_per_second_squared>(),
            ),
            (
                "rad/s^2",
                factor::<angular_acceleration::radian_per_second_squared>(),
            ),
            ("mN", factor::<force::millinewton>()),
            ("N", factor::<force::newton>()),
            ("kN", factor::<force::kilonewton>()),
            ("mN·m", factor::<torque::millinewton_meter>()),
            ("N·m", factor::<torque::newton_meter>()),
            ("g", factor::<mass::gram>()),
            ("kg", factor::<mass::kilogram>()),
            ("Pa", factor::<pressure::pascal>()),
            ("kPa", factor::<pressure::kilopascal>()),
            ("MPa", factor::<pressure::megapascal>()),
            ("bar", factor::<pressure::bar>()),
            ("mV", factor::<electric_potential::millivolt>()),
            ("V", factor::<electric_potential::volt>()),
            ("mA", factor::<electric_current::milliampere>()),
            ("A", factor::<electric_current::ampere>()),
            ("W", factor::<power::watt>()),
            ("kW", factor::<power::kilowatt>()),
            ("Ω", factor::<electrical_resistance::ohm>()),
            ("J", factor::<energy::joule>()),
            ("Wh", factor::<energy::watt_hour>()),
            ("K", factor::<thermodynamic_temperature::kelvin>()),
            ("°C", factor::<thermodynamic_temperature::degree_celsius>()),
            ("B", factor::<information::byte>()),
            ("KiB", factor::<information::kibibyte>()),
            ("MiB", factor::<information::mebibyte>()),
            ("lx", factor::<illuminance::lux>()),
        ];
        for (symbol, expected) in cases {
            let u = unit(symbol).unwrap_or_else(|| panic!("{symbol} is not in the table"));
            assert_eq!(u.factor, *expected, "{symbol}");
        }
        let celsius = unit("°C").unwrap();
        assert_eq!(
            celsius.offset,
            <thermodynamic_temperature::degree_celsius as Conversion<f64>>::constant(
                uom::ConstantOp::Add
            )
        );
        // Every unit with a uom counterpart is checked above (milliradians have none in uom).
        assert_eq!(cases.len() + 1, super::table::UNITS.len());
    }
}
