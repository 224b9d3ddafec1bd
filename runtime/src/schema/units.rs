//! The quantities toolwright publishes and the units of its vocabulary that measure them, with
//! the factor (and offset) from each unit to the quantity's SI unit, as uom defines them.
//!
//! The vocabulary itself (symbols, words, aliases) is the macros' (macros/src/units.rs); this
//! table adds what the runtime needs of the symbols that measure a quantity. A test in the macros
//! crate checks that every symbol here is in the vocabulary with the same words, and one in this
//! file (with the `uom` feature) checks each factor against uom's.

use serde_json::{Map, Value, json};

use super::declare::Unit;
use super::keys::{QUANTITY_KEY, SCALE_KEY};
use super::msg::Msg;

/// A physical quantity: what a uom quantity type measures.
#[derive(Debug, PartialEq)]
pub struct QuantityDef {
    /// In words, for messages: `"length"`.
    pub name: &'static str,
    /// The type: `"Length"`.
    pub ty: &'static str,
    /// Its crate, for messages: `"uom"`.
    pub family: &'static str,
    /// The SI unit's symbol, published when no `unit` is declared: `"m"`.
    pub si: &'static str,
    /// The SI unit in words, as the vocabulary has it: `"meters"`.
    pub si_words: &'static str,
}

/// A unit of the vocabulary that measures a quantity.
#[derive(Debug, PartialEq)]
pub(crate) struct UnitScale {
    /// The symbol: `"mm"`.
    pub symbol: &'static str,
    /// What it measures.
    pub quantity: &'static QuantityDef,
    /// SI value = (value + `offset`) × `factor` (uom's conversion).
    pub factor: f64,
    /// Added before scaling (273.15 for °C); 0 for every other unit.
    pub offset: f64,
}

impl UnitScale {
    /// Whether values in this unit are the SI values.
    pub(crate) fn is_si(&self) -> bool {
        self.factor == 1.0 && self.offset == 0.0
    }
}

macro_rules! quantities {
    ($($id:ident = $name:literal, $ty:literal, $si:literal, $words:literal;)*) => {
        $(
            #[doc = concat!("The quantity `", $ty, "`.")]
            pub(crate) const $id: QuantityDef = QuantityDef {
                name: $name,
                ty: $ty,
                family: "uom",
                si: $si,
                si_words: $words,
            };
        )*
        /// Every quantity toolwright knows.
        pub(crate) const QUANTITIES: &[&QuantityDef] = &[$(&$id),*];
    };
}

quantities! {
    LENGTH = "length", "Length", "m", "meters";
    ANGLE = "angle", "Angle", "rad", "radians";
    TIME = "time", "Time", "s", "seconds";
    FREQUENCY = "frequency", "Frequency", "Hz", "hertz";
    VELOCITY = "velocity", "Velocity", "m/s", "meters per second";
    ANGULAR_VELOCITY = "angular velocity", "AngularVelocity", "rad/s", "radians per second";
    ACCELERATION = "acceleration", "Acceleration", "m/s^2", "meters per second squared";
    ANGULAR_ACCELERATION = "angular acceleration", "AngularAcceleration", "rad/s^2", "radians per second squared";
    FORCE = "force", "Force", "N", "newtons";
    TORQUE = "torque", "Torque", "N·m", "newton-meters";
    MASS = "mass", "Mass", "kg", "kilograms";
    PRESSURE = "pressure", "Pressure", "Pa", "pascals";
    VOLTAGE = "voltage", "ElectricPotential", "V", "volts";
    CURRENT = "electric current", "ElectricCurrent", "A", "amperes";
    POWER = "power", "Power", "W", "watts";
    RESISTANCE = "electrical resistance", "ElectricalResistance", "Ω", "ohms";
    ENERGY = "energy", "Energy", "J", "joules";
    TEMPERATURE = "temperature", "ThermodynamicTemperature", "K", "kelvins";
    INFORMATION = "information", "Information", "B", "bytes";
    ILLUMINANCE = "illuminance", "Illuminance", "lx", "lux";
}

macro_rules! units {
    ($($symbol:literal => $q:ident, $factor:expr $(, $offset:expr)?;)*) => {
        /// Every unit of the vocabulary that measures a quantity, grouped by quantity.
        pub(crate) const UNITS: &[UnitScale] = &[$(UnitScale {
            symbol: $symbol,
            quantity: &$q,
            factor: $factor,
            offset: 0.0 $(+ $offset)?,
        }),*];
    };
}

// The factors are uom 0.38's (`prefix!`es and literals in uom/src/si/<quantity>.rs).
units! {
    "nm" => LENGTH, 1.0e-9;
    "µm" => LENGTH, 1.0e-6;
    "mm" => LENGTH, 1.0e-3;
    "cm" => LENGTH, 1.0e-2;
    "m" => LENGTH, 1.0;
    "km" => LENGTH, 1.0e3;
    "in" => LENGTH, 2.54e-2;
    "ft" => LENGTH, 3.048e-1;
    "deg" => ANGLE, 1.745_329_251_994_329_5e-2;
    "rad" => ANGLE, 1.0;
    "mrad" => ANGLE, 1.0e-3;
    "ns" => TIME, 1.0e-9;
    "µs" => TIME, 1.0e-6;
    "ms" => TIME, 1.0e-3;
    "s" => TIME, 1.0;
    "min" => TIME, 6.0e1;
    "h" => TIME, 3.6e3;
    "Hz" => FREQUENCY, 1.0;
    "kHz" => FREQUENCY, 1.0e3;
    "mm/s" => VELOCITY, 1.0e-3;
    "m/s" => VELOCITY, 1.0;
    "deg/s" => ANGULAR_VELOCITY, 1.745_329_251_994_329_5e-2;
    "rad/s" => ANGULAR_VELOCITY, 1.0;
    "rpm" => ANGULAR_VELOCITY, 1.047_197_551_196_597_7e-1;
    "mm/s^2" => ACCELERATION, 1.0e-3;
    "m/s^2" => ACCELERATION, 1.0;
    "deg/s^2" => ANGULAR_ACCELERATION, 1.745_329_251_994_329_5e-2;
    "rad/s^2" => ANGULAR_ACCELERATION, 1.0;
    "mN" => FORCE, 1.0e-3;
    "N" => FORCE, 1.0;
    "kN" => FORCE, 1.0e3;
    "mN·m" => TORQUE, 1.0e-3;
    "N·m" => TORQUE, 1.0;
    "g" => MASS, 1.0e-3;
    "kg" => MASS, 1.0;
    "Pa" => PRESSURE, 1.0;
    "kPa" => PRESSURE, 1.0e3;
    "MPa" => PRESSURE, 1.0e6;
    "bar" => PRESSURE, 1.0e5;
    "mV" => VOLTAGE, 1.0e-3;
    "V" => VOLTAGE, 1.0;
    "mA" => CURRENT, 1.0e-3;
    "A" => CURRENT, 1.0;
    "W" => POWER, 1.0;
    "kW" => POWER, 1.0e3;
    "Ω" => RESISTANCE, 1.0;
    "J" => ENERGY, 1.0;
    "Wh" => ENERGY, 3.6e3;
    "K" => TEMPERATURE, 1.0;
    "°C" => TEMPERATURE, 1.0, 273.15;
    "B" => INFORMATION, 1.0;
    "KiB" => INFORMATION, 1024.0;
    "MiB" => INFORMATION, 1_048_576.0;
    "lx" => ILLUMINANCE, 1.0;
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The unit with this symbol, if it measures a quantity.
pub(crate) const fn unit(symbol: &str) -> Option<&'static UnitScale> {
    let mut i = 0;
    while i < UNITS.len() {
        if str_eq(UNITS[i].symbol, symbol) {
            return Some(&UNITS[i]);
        }
        i += 1;
    }
    None
}

/// A nalgebra `UnitComplex` (the `nalgebra` feature): a rotation in the plane, published as its
/// angle. Not one of [`QUANTITIES`]: it measures [`ANGLE`], whose units it takes.
#[cfg_attr(not(feature = "nalgebra"), allow(dead_code))] // used by geometry/nalgebra.rs
pub(crate) const UNIT_COMPLEX: QuantityDef = QuantityDef {
    name: ANGLE.name,
    ty: "UnitComplex<f64>",
    family: "nalgebra",
    si: ANGLE.si,
    si_words: ANGLE.si_words,
};

/// The quantity with this name.
pub(crate) fn quantity(name: &str) -> Option<&'static QuantityDef> {
    QUANTITIES.iter().copied().find(|q| q.name == name)
}

/// Whether `unit = "<symbol>"` fits a property measuring `quantity` (any unit fits a plain
/// number: `None`).
pub const fn unit_fits(quantity: Option<&QuantityDef>, symbol: &str) -> bool {
    match (quantity, unit(symbol)) {
        (None, _) => true,
        (Some(q), Some(u)) => str_eq(u.quantity.name, q.name),
        (Some(_), None) => false,
    }
}

/// Why `unit = "<symbol>"` does not fit a property measuring `quantity`, and which units do.
pub const fn unit_mismatch(quantity: Option<&QuantityDef>, symbol: &str) -> Msg {
    let Some(q) = quantity else {
        return Msg::new();
    };
    let msg = Msg::new().str("unit `").str(symbol).str("` ");
    let msg = match unit(symbol) {
        Some(u) => msg.str("measures ").str(u.quantity.name),
        None => msg.str("measures no physical quantity"),
    };
    let mut msg = msg
        .str(", but this property is a ")
        .str(q.family)
        .str(" `")
        .str(q.ty)
        .str("` and measures ")
        .str(q.name)
        .str(": use a unit of ")
        .str(q.name)
        .str(" (");
    let mut i = 0;
    let mut first = true;
    while i < UNITS.len() {
        if str_eq(UNITS[i].quantity.name, q.name) {
            if !first {
                msg = msg.str(", ");
            }
            msg = msg.str(UNITS[i].symbol);
            first = false;
        }
        i += 1;
    }
    msg.str("), or leave `unit` out to publish it in ")
        .str(q.si)
}

/// A type whose numbers measure a quantity: a uom quantity toolwright knows, or an `Option`,
/// list or `Box` of one (the quantity of each item). Implemented with the `uom` feature.
#[diagnostic::on_unimplemented(
    message = "this uom quantity has no unit in toolwright's vocabulary",
    label = "no unit toolwright publishes measures this quantity",
    note = "toolwright publishes Length, Angle, Time, Frequency, Velocity, AngularVelocity, Acceleration, AngularAcceleration, Force, Torque, Mass, Pressure, ElectricPotential, ElectricCurrent, Power, ElectricalResistance, Energy, ThermodynamicTemperature, Information and Illuminance (as `uom::si::f64` types); for another quantity, take an `f64` with a doc comment saying its unit and build the quantity in the body"
)]
pub trait QuantityTarget {
    /// What the numbers measure.
    const QUANTITY: &'static QuantityDef;
}

macro_rules! containers {
    ($([$($g:tt)*] $t:ty;)*) => {$(
        #[diagnostic::do_not_recommend]
        impl<$($g)*> QuantityTarget for $t {
            const QUANTITY: &'static QuantityDef = T::QUANTITY;
        }
    )*};
}
containers! {
    [T: QuantityTarget] Option<T>;
    [T: QuantityTarget + ?Sized] Box<T>;
    [T: QuantityTarget] Vec<T>;
    [T: QuantityTarget] std::collections::VecDeque<T>;
    [T: QuantityTarget, const N: usize] [T; N];
    [T: QuantityTarget] [T];
}

/// The SI unit of a quantity's number schema: what is published when no `unit` is declared.
pub(crate) fn si_unit(scalar: &Map<String, Value>) -> Option<Unit> {
    let q = quantity(scalar.get(QUANTITY_KEY)?.as_str()?)?;
    Some(Unit {
        symbol: q.si,
        words: q.si_words,
    })
}

/// Settles the unit of a quantity's number schema: its quantity keyword is dropped and, when
/// the declared unit is not the SI one, its scale is recorded for the toolbox to convert with.
/// Errs when the declared unit does not measure the quantity (the macros refuse that at compile
/// time; this catches hand-written `FieldSpec`s).
pub(crate) fn settle_unit(
    scalar: &mut Map<String, Value>,
    declared: Option<Unit>,
) -> Result<(), String> {
    let Some(name) = scalar.shift_remove(QUANTITY_KEY) else {
        return Ok(());
    };
    let Some(declared) = declared else {
        return Ok(());
    };
    let Some(q) = name.as_str().and_then(quantity) else {
        return Err(format!("unknown quantity {name}"));
    };
    match unit(declared.symbol) {
        Some(u) if u.quantity == q => {
            if !u.is_si() {
                scalar.insert(SCALE_KEY.into(), json!([u.factor, u.offset]));
            }
            Ok(())
        }
        _ => Err(unit_mismatch(Some(q), declared.symbol).as_str().to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_quantity_has_its_si_unit_and_only_known_units() {
        for q in QUANTITIES {
            let si = unit(q.si).unwrap_or_else(|| panic!("no SI unit for {}", q.name));
            assert_eq!(si.quantity, *q);
            assert!(si.is_si(), "{} is not SI", q.si);
        }
        for u in UNITS {
            assert!(QUANTITIES.contains(&u.quantity), "{}", u.symbol);
        }
    }

    #[test]
    fn units_fit_their_quantity_only() {
        assert!(unit_fits(Some(&LENGTH), "mm"));
        assert!(unit_fits(None, "N"));
        assert!(!unit_fits(Some(&LENGTH), "N"));
        assert!(!unit_fits(Some(&LENGTH), "px"));
        assert!(
            !unit_fits(Some(&TORQUE), "J"),
            "torque and energy share a dimension"
        );
        assert_eq!(
            unit_mismatch(Some(&LENGTH), "N").as_str(),
            "unit `N` measures force, but this property is a uom `Length` and measures length: \
             use a unit of length (nm, µm, mm, cm, m, km, in, ft), or leave `unit` out to \
             publish it in m"
        );
        assert_eq!(
            unit_mismatch(Some(&ANGLE), "px").as_str(),
            "unit `px` measures no physical quantity, but this property is a uom `Angle` and \
             measures angle: use a unit of angle (deg, rad, mrad), or leave `unit` out to \
             publish it in rad"
        );
    }
}
