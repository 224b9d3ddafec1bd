//! The unit vocabulary: `#[param(unit = "..")]` accepts these symbols and nothing else.

/// One unit: its symbol (published as `x-unit`), its name in words, and spellings that point to it.
pub struct UnitDef {
    pub symbol: &'static str,
    pub words: &'static str,
    pub aliases: &'static [&'static str],
}

macro_rules! units {
    ($($symbol:literal => $words:literal $(, [$($alias:literal),*])?;)*) => {
        pub const UNITS: &[UnitDef] = &[
            $(UnitDef { symbol: $symbol, words: $words, aliases: &[$($($alias),*)?] },)*
        ];
    };
}

units! {
    // length
    "nm" => "nanometers", ["nanometer", "nanometre", "nanometres"];
    "µm" => "micrometers", ["um", "micron", "microns", "micrometer", "micrometre", "micrometres"];
    "mm" => "millimeters", ["millimeter", "millimetre", "millimetres", "millimeters"];
    "cm" => "centimeters", ["centimeter", "centimetre", "centimetres"];
    "m" => "meters", ["meter", "metre", "metres", "meters"];
    "km" => "kilometers", ["kilometer", "kilometre", "kilometres"];
    "in" => "inches", ["inch", "inches"];
    "ft" => "feet", ["foot", "feet"];
    // angle
    "deg" => "degrees", ["°", "degree", "degrees"];
    "rad" => "radians", ["radian", "radians"];
    "mrad" => "milliradians", ["milliradian", "milliradians"];
    // time
    "ns" => "nanoseconds", ["nanosecond", "nanoseconds"];
    "µs" => "microseconds", ["us", "microsecond", "microseconds"];
    "ms" => "milliseconds", ["msec", "millisecond", "milliseconds"];
    "s" => "seconds", ["sec", "secs", "second", "seconds"];
    "min" => "minutes", ["minute", "minutes", "mins"];
    "h" => "hours", ["hr", "hour", "hours"];
    // frequency
    "Hz" => "hertz", ["hz", "hertz"];
    "kHz" => "kilohertz", ["khz", "kilohertz"];
    "rpm" => "revolutions per minute", ["RPM", "rev/min"];
    // speed
    "mm/s" => "millimeters per second", ["mm/sec", "mmps"];
    "m/s" => "meters per second", ["m/sec", "mps"];
    "deg/s" => "degrees per second", ["deg/sec", "°/s"];
    "rad/s" => "radians per second", ["rad/sec"];
    // acceleration
    "mm/s^2" => "millimeters per second squared", ["mm/s²", "mm/s2"];
    "m/s^2" => "meters per second squared", ["m/s²", "m/s2"];
    "deg/s^2" => "degrees per second squared", ["deg/s²", "deg/s2"];
    "rad/s^2" => "radians per second squared", ["rad/s²", "rad/s2"];
    // force and torque
    "mN" => "millinewtons", ["millinewton", "millinewtons"];
    "N" => "newtons", ["newton", "newtons"];
    "kN" => "kilonewtons", ["kilonewton", "kilonewtons"];
    "N·m" => "newton-meters", ["Nm", "N*m", "N.m", "N-m", "newton-meter", "newton-metre", "newton meter"];
    "mN·m" => "millinewton-meters", ["mNm", "mN*m", "mN.m"];
    // mass
    "g" => "grams", ["gram", "grams"];
    "kg" => "kilograms", ["kilogram", "kilograms", "kgs"];
    // pressure
    "Pa" => "pascals", ["pascal", "pascals"];
    "kPa" => "kilopascals", ["kilopascal", "kilopascals"];
    "MPa" => "megapascals", ["megapascal", "megapascals"];
    "bar" => "bar", ["bars"];
    // electricity and power
    "V" => "volts", ["volt", "volts"];
    "mV" => "millivolts", ["millivolt", "millivolts"];
    "A" => "amperes", ["amp", "amps", "ampere", "amperes"];
    "mA" => "milliamperes", ["milliamp", "milliamps", "milliampere", "milliamperes"];
    "W" => "watts", ["watt", "watts"];
    "kW" => "kilowatts", ["kilowatt", "kilowatts"];
    "Ω" => "ohms", ["ohm", "ohms", "Ohm"];
    "J" => "joules", ["joule", "joules"];
    "Wh" => "watt-hours", ["watt-hour", "watt-hours"];
    "mAh" => "milliampere-hours", ["milliamp-hour", "milliamp-hours"];
    // temperature
    "°C" => "degrees Celsius", ["degC", "C", "celsius", "Celsius", "deg C"];
    "K" => "kelvins", ["kelvin", "kelvins"];
    // ratios, counts, data, light and sound
    "%" => "percent", ["percent", "pct"];
    "px" => "pixels", ["pixel", "pixels"];
    "B" => "bytes", ["byte", "bytes"];
    "KiB" => "kibibytes", ["kib", "kibibyte"];
    "MiB" => "mebibytes", ["mib", "mebibyte"];
    "lx" => "lux", ["lux"];
    "dB" => "decibels", ["db", "decibel", "decibels"];
}

/// The unit with this exact symbol.
pub fn lookup(symbol: &str) -> Option<&'static UnitDef> {
    UNITS.iter().find(|u| u.symbol == symbol)
}

/// The symbol the user probably meant: an alias, a case-insensitive match, or a symbol within
/// a small edit distance.
pub fn suggest(input: &str) -> Option<&'static str> {
    let trimmed = input.trim();
    if let Some(u) = UNITS
        .iter()
        .find(|u| u.symbol == trimmed || u.aliases.contains(&trimmed))
    {
        return Some(u.symbol);
    }
    let lower = trimmed.to_lowercase();
    if let Some(u) = UNITS.iter().find(|u| {
        u.symbol.to_lowercase() == lower || u.aliases.iter().any(|a| a.to_lowercase() == lower)
    }) {
        return Some(u.symbol);
    }
    UNITS
        .iter()
        .flat_map(|u| {
            std::iter::once(u.symbol)
                .chain(u.aliases.iter().copied())
                .map(move |s| (u.symbol, s))
        })
        .map(|(symbol, spelling)| {
            (
                crate::util::levenshtein(&lower, &spelling.to_lowercase()),
                symbol,
            )
        })
        .filter(|&(d, _)| d <= 2 && d < lower.chars().count().max(2))
        .min_by_key(|&(d, _)| d)
        .map(|(_, symbol)| symbol)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_symbol_and_alias_is_unique() {
        let mut seen = std::collections::HashSet::new();
        for u in UNITS {
            assert!(seen.insert(u.symbol), "duplicate {}", u.symbol);
            for a in u.aliases {
                assert!(
                    seen.insert(*a) || lookup(a).is_some(),
                    "duplicate alias {a}"
                );
            }
        }
    }

    /// The runtime's table of the units that measure a quantity (runtime/src/schema/units.rs)
    /// names symbols of this vocabulary, and words for the SI ones: the same.
    #[test]
    fn the_runtime_quantity_table_uses_this_vocabulary() {
        let table = include_str!("../../runtime/src/schema/units.rs");
        let quoted = |line: &str| -> Vec<String> {
            line.split('"')
                .skip(1)
                .step_by(2)
                .map(str::to_owned)
                .collect()
        };
        let (mut units, mut quantities) = (0, 0);
        for line in table.lines().map(str::trim) {
            // `"mm" => LENGTH, 1.0e-3;`
            if line.starts_with('"') && line.contains("=>") {
                let symbol = &quoted(line)[0];
                assert!(
                    lookup(symbol).is_some(),
                    "`{symbol}` is not in the vocabulary"
                );
                units += 1;
            }
            // `LENGTH = "length", "Length", "m", "meters";`
            if let Some((_, rest)) = line.split_once(" = \"")
                && line.ends_with("\";")
            {
                let q = quoted(&format!("\"{rest}"));
                let u = lookup(&q[2]).unwrap_or_else(|| panic!("SI unit `{}` unknown", q[2]));
                assert_eq!(u.words, q[3], "the words of `{}`", q[2]);
                quantities += 1;
            }
        }
        assert!(units > 40, "{units} units read from the table");
        assert!(
            quantities > 15,
            "{quantities} quantities read from the table"
        );
    }

    #[test]
    fn suggestions() {
        assert_eq!(suggest("newton"), Some("N"));
        assert_eq!(suggest("Nm"), Some("N·m"));
        assert_eq!(suggest("MM"), Some("mm"));
        assert_eq!(suggest("degC"), Some("°C"));
        assert_eq!(suggest("mm/sec"), Some("mm/s"));
        assert_eq!(suggest("milimeters"), Some("mm"));
        assert_eq!(suggest("furlongs"), None);
        assert!(lookup("mm").is_some());
        assert!(lookup("millimeters").is_none());
    }
}
