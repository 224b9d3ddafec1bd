//! Between the values a model reads and writes (the published shapes) and the values serde
//! reads and writes: numbers in a declared unit that uom stores in SI (`crate::quantity`), and
//! objects that nalgebra reads and writes as arrays, unit quaternions included, and angles it
//! reads and writes as unit complex numbers (`crate::geometry`). Compiled once per tool and
//! direction from the private keywords of its schema (`x-toolwright-scale`,
//! `x-toolwright-array`, `x-toolwright-unit-norm`, `x-toolwright-complex`), applied to the
//! arguments after validation and to the result before it is checked and answered; the keywords
//! are stripped ([`keys::strip`](crate::schema::keys::strip)) before anything is published.

use serde_json::{Map, Value};

use crate::schema::keys::{ARRAY_KEY, COMPLEX_KEY, SCALE_KEY, UNIT_NORM_KEY};

/// Where the converted values of a value are.
#[derive(Debug, PartialEq)]
enum Node {
    /// A number in a unit that is not SI: SI = (value + offset) × factor.
    Scale { factor: f64, offset: f64 },
    /// An angle (in a unit: rad = (value + offset) × factor) that serde sees as
    /// `[cos θ, sin θ]` (a nalgebra `UnitComplex`); published back in the turn that starts at
    /// `floor`, the declared lower bound (else the half-open turn around 0 that `atan2` gives).
    Complex {
        factor: f64,
        offset: f64,
        floor: Option<f64>,
    },
    /// An object: some of its properties, and (a map's) other values.
    Object {
        properties: Vec<(String, Node)>,
        rest: Option<Box<Node>>,
        /// Serde sees it as an array of these properties, in this order.
        array: Option<Vec<String>>,
        /// Its number properties are divided by their norm on the way in.
        unit_norm: bool,
    },
    /// Each item of an array.
    Items(Box<Node>),
}

/// The converted values of one schema.
#[derive(Debug, PartialEq)]
pub(crate) struct Adapter(Node);

/// Keywords whose subschemas a value may or may not take: a conversion inside them is refused
/// when the toolbox is built (which branch a value took is not known after validation).
const BRANCHING: &[&str] = &[
    "oneOf",
    "anyOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "prefixItems",
    "patternProperties",
    "dependentSchemas",
];

/// The private keywords a conversion is compiled from, which cannot be applied inside a branch.
/// (`x-toolwright-unit-norm` is not one: the validator checks the norm in any branch, and a
/// ROS quaternion inside an enum needs no conversion, only the check; a nalgebra quaternion is
/// caught by its array keyword.)
const CONVERTING: &[&str] = &[COMPLEX_KEY, SCALE_KEY, ARRAY_KEY];

impl Adapter {
    /// The adapter of `schema`, or `None` when it has nothing to convert (the common case: no
    /// work per call). Errs with the path of a conversion it cannot apply.
    pub(crate) fn compile(schema: &Value) -> Result<Option<Adapter>, String> {
        Ok(compile(schema, "")?.map(Adapter))
    }

    /// The published shape to serde's, on validated arguments: declared units to SI, objects to
    /// arrays, unit-norm objects normalized. Errs with the path of a number too large to
    /// convert (its SI value would not be finite: `1e306` kN), which must not reach the body
    /// unconverted.
    pub(crate) fn to_serde(&self, value: &mut Value) -> Result<(), String> {
        apply(&self.0, value, true).map_err(|reversed| {
            reversed.iter().rev().fold(String::new(), |mut path, seg| {
                if !path.is_empty() && !seg.starts_with('[') {
                    path.push('.');
                }
                path.push_str(seg);
                path
            })
        })
    }

    /// Serde's shape to the published one, on a serialized result. A number too large to
    /// publish in its unit becomes `null` (the output check names it), never the SI number.
    pub(crate) fn to_published(&self, value: &mut Value) {
        let _ = apply(&self.0, value, false);
    }
}

fn compile(schema: &Value, path: &str) -> Result<Option<Node>, String> {
    let Some(obj) = schema.as_object() else {
        return Ok(None);
    };
    let complex = obj.contains_key(COMPLEX_KEY);
    let floor = obj.get("minimum").and_then(Value::as_f64);
    if let Some(scale) = obj.get(SCALE_KEY) {
        let pair = scale
            .as_array()
            .map(|a| a.iter().map(Value::as_f64).collect::<Vec<_>>());
        return match pair.as_deref() {
            Some([Some(factor), Some(offset)]) if complex => Ok(Some(Node::Complex {
                factor: *factor,
                offset: *offset,
                floor,
            })),
            Some([Some(factor), Some(offset)]) => Ok(Some(Node::Scale {
                factor: *factor,
                offset: *offset,
            })),
            _ => Err(format!("{}: malformed `{SCALE_KEY}`", shown(path))),
        };
    }
    if complex {
        return Ok(Some(Node::Complex {
            factor: 1.0,
            offset: 0.0,
            floor,
        }));
    }
    for keyword in BRANCHING {
        if let Some(sub) = obj.get(*keyword)
            && let Some((inner, key)) = converted(sub, path)
        {
            let what = if key == SCALE_KEY {
                "a quantity in a unit other than its SI unit"
            } else {
                "a nalgebra point, vector, rotation or isometry"
            };
            let fix = if key == SCALE_KEY {
                "declare it without `unit` there, so it is published in its SI unit"
            } else {
                "use a struct with `f64` fields there"
            };
            return Err(format!(
                "{}: {what} cannot be inside `{keyword}` (an enum's variants, an untagged or \
                 nullable type) yet, because which variant a value took is not known after \
                 validation; {fix}",
                shown(&inner)
            ));
        }
    }
    let mut properties = Vec::new();
    if let Some(props) = obj.get("properties").and_then(Value::as_object) {
        for (name, sub) in props {
            if let Some(node) = compile(sub, &join(path, name))? {
                properties.push((name.clone(), node));
            }
        }
    }
    let rest = match obj.get("additionalProperties") {
        Some(sub) => compile(sub, &join(path, "*"))?.map(Box::new),
        None => None,
    };
    let array = match obj.get(ARRAY_KEY) {
        None => None,
        Some(names) => match names.as_array().and_then(|a| {
            a.iter()
                .map(|n| n.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()
        }) {
            Some(names) => Some(names),
            None => return Err(format!("{}: malformed `{ARRAY_KEY}`", shown(path))),
        },
    };
    let unit_norm = obj.contains_key(UNIT_NORM_KEY);
    if !properties.is_empty() || rest.is_some() || array.is_some() || unit_norm {
        return Ok(Some(Node::Object {
            properties,
            rest,
            array,
            unit_norm,
        }));
    }
    match obj.get("items") {
        Some(items) => Ok(compile(items, &format!("{path}[]"))?.map(|n| Node::Items(Box::new(n)))),
        None => Ok(None),
    }
}

/// The path and keyword of the first conversion inside `schema` (a branch's subschemas).
fn converted(schema: &Value, path: &str) -> Option<(String, &'static str)> {
    match schema {
        Value::Object(obj) => {
            if let Some(key) = CONVERTING.iter().find(|k| obj.contains_key(**k)) {
                return Some((path.to_owned(), key));
            }
            if let Some(props) = obj.get("properties").and_then(Value::as_object) {
                for (name, sub) in props {
                    if let Some(found) = converted(sub, &join(path, name)) {
                        return Some(found);
                    }
                }
            }
            obj.iter()
                .filter(|(k, _)| *k != "properties")
                .find_map(|(k, sub)| {
                    let inner = if k == "items" {
                        format!("{path}[]")
                    } else {
                        path.to_owned()
                    };
                    converted(sub, &inner)
                })
        }
        Value::Array(items) => items.iter().find_map(|s| converted(s, path)),
        _ => None,
    }
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

fn shown(path: &str) -> &str {
    if path.is_empty() { "the value" } else { path }
}

/// uom's own formulas (uom/src/system.rs `to_base`/`from_base` with SI base units), so a value
/// converted here equals the quantity's `get::<unit>()`.
fn to_si(v: f64, factor: f64, offset: f64) -> f64 {
    (v + offset) * factor
}

fn from_si(v: f64, factor: f64, offset: f64) -> f64 {
    if factor < 1.0 {
        v * (1.0 / factor) - offset
    } else {
        v / factor - offset
    }
}

/// A converted number as published, rounded to what the conversion can know: the value went
/// through an SI number of `magnitude` (in published units, offsets included), which holds about
/// 16 significant digits, so the digits below a few of its ulps are the conversion's noise.
/// Without this, 950 mm (0.95 m in SI) is published back as 950.0000000000001, over a declared
/// maximum of 950, and 0.1 °C as 0.10000000000002274.
fn tidy(v: f64, magnitude: f64) -> f64 {
    let noise = magnitude.abs().max(v.abs()) * 4.0 * f64::EPSILON;
    if !v.is_finite() || noise == 0.0 || !noise.is_finite() {
        return v;
    }
    let decimals = -noise.log10().ceil();
    if decimals < 0.0 {
        return v;
    }
    // Decimal text, then the nearest f64: rounding by multiplication would add its own error.
    format!("{v:.0$}", decimals as usize).parse().unwrap_or(v)
}

fn number(v: f64) -> Value {
    serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
}

/// Converts `value`; on input, errs with the reversed path of a number that overflows.
fn apply(node: &Node, value: &mut Value, to_serde: bool) -> Result<(), Vec<String>> {
    match (node, value) {
        (&Node::Scale { factor, offset }, value) => {
            let Some(v) = value.as_f64() else {
                return Ok(());
            };
            let converted = if to_serde {
                to_si(v, factor, offset)
            } else {
                tidy(from_si(v, factor, offset), v / factor)
            };
            if to_serde && !converted.is_finite() {
                return Err(Vec::new());
            }
            *value = number(converted);
        }
        (
            &Node::Complex {
                factor,
                offset,
                floor,
            },
            value,
        ) => {
            if to_serde {
                if let Some(v) = value.as_f64() {
                    let angle = to_si(v, factor, offset);
                    if !angle.is_finite() {
                        return Err(Vec::new());
                    }
                    let (sin, cos) = angle.sin_cos();
                    *value = Value::Array(vec![number(cos), number(sin)]);
                }
            } else if let Value::Array(pair) = &*value
                && let [Some(re), Some(im)] = [pair.first(), pair.get(1)].map(|c| c?.as_f64())
            {
                let mut angle = from_si(im.atan2(re), factor, offset);
                let turn = std::f64::consts::TAU / factor;
                if let Some(floor) = floor {
                    angle = floor + (angle - floor).rem_euclid(turn);
                }
                *value = number(tidy(angle, turn));
            }
        }
        (
            Node::Object {
                properties,
                rest,
                array,
                unit_norm,
            },
            value,
        ) => {
            if !to_serde
                && let Some(names) = array
                && let Value::Array(items) = value
            {
                let map: Map<String, Value> =
                    names.iter().cloned().zip(std::mem::take(items)).collect();
                *value = Value::Object(map);
            }
            let Value::Object(map) = value else {
                // `null` for an absent `Option` on output; anything else was refused by
                // validation.
                return Ok(());
            };
            for (name, v) in map.iter_mut() {
                let sub = match properties.iter().find(|(p, _)| p == name) {
                    Some((_, sub)) => Some(sub),
                    None => rest.as_deref(),
                };
                if let Some(sub) = sub {
                    apply(sub, v, to_serde).map_err(|mut path| {
                        path.push(name.clone());
                        path
                    })?;
                }
            }
            if to_serde && *unit_norm {
                normalize(map);
            }
            if to_serde && let Some(names) = array {
                let items = names
                    .iter()
                    .map(|n| map.get_mut(n).map_or(Value::Null, std::mem::take))
                    .collect();
                *value = Value::Array(items);
            }
        }
        (Node::Items(sub), Value::Array(items)) => {
            for (i, item) in items.iter_mut().enumerate() {
                apply(sub, item, to_serde).map_err(|mut path| {
                    path.push(format!("[{i}]"));
                    path
                })?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// Divides the number properties of a validated unit-norm object (a quaternion) by their norm.
fn normalize(map: &mut Map<String, Value>) {
    let norm = map
        .values()
        .filter_map(Value::as_f64)
        .map(|v| v * v)
        .sum::<f64>()
        .sqrt();
    if norm == 0.0 || !norm.is_finite() {
        return;
    }
    for v in map.values_mut() {
        if let Some(x) = v.as_f64()
            && let Some(n) = serde_json::Number::from_f64(x / norm)
        {
            *v = Value::Number(n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::keys::{QUANTITY_KEY, strip};
    use serde_json::json;

    fn mm() -> Value {
        json!({"type": "number", "x-unit": "mm", SCALE_KEY: [0.001, 0.0]})
    }

    #[test]
    fn no_scale_no_adapter() {
        let schema = json!({"type": "object", "properties": {"x": {"type": "number", QUANTITY_KEY: "length"}}});
        assert_eq!(Adapter::compile(&schema), Ok(None));
    }

    #[test]
    fn scales_properties_items_and_maps_both_ways() {
        let schema = json!({
            "type": "object",
            "properties": {
                "reach": mm(),
                "plain": {"type": "number"},
                "path": {"type": "array", "items": mm()},
                "named": {"type": "object", "additionalProperties": mm()},
                "temperature": {"type": "number", SCALE_KEY: [1.0, 273.15]},
            },
        });
        let adapter = Adapter::compile(&schema).unwrap().unwrap();
        let published = json!({
            "reach": 250, "plain": 250, "path": [1000, 300], "named": {"a": 5},
            "temperature": 25.0,
        });
        let mut v = published.clone();
        adapter.to_serde(&mut v).unwrap();
        assert_eq!(
            v,
            json!({
                "reach": 0.25, "plain": 250, "path": [1.0, 0.3], "named": {"a": 0.005},
                "temperature": 298.15,
            })
        );
        adapter.to_published(&mut v);
        assert_eq!(
            v,
            json!({
                "reach": 250.0, "plain": 250, "path": [1000.0, 300.0], "named": {"a": 5.0},
                "temperature": 25.0,
            })
        );
    }

    #[test]
    fn null_is_left_alone() {
        let adapter = Adapter::compile(&mm()).unwrap().unwrap();
        let mut v = Value::Null;
        adapter.to_published(&mut v);
        assert_eq!(v, Value::Null);
    }

    #[test]
    fn a_scale_inside_a_branch_is_refused_with_its_path() {
        let schema = json!({"type": "object", "properties": {"grip": {"oneOf": [{"type": "object", "properties": {"width": mm()}}]}}});
        let err = Adapter::compile(&schema).unwrap_err();
        assert!(
            err.starts_with(
                "grip.width: a quantity in a unit other than its SI unit cannot be inside `oneOf`"
            ),
            "{err}"
        );
    }

    #[test]
    fn strip_removes_every_private_keyword() {
        let mut schema = json!({"type": "object", "properties": {"reach": mm(), "f": {"type": "number", "x-unit": "N", QUANTITY_KEY: "force"}}, "x-toolwright-array": ["reach"], "x-keep": 1});
        assert!(strip(&mut schema));
        assert_eq!(
            schema,
            json!({"type": "object", "properties": {"reach": {"type": "number", "x-unit": "mm"}, "f": {"type": "number", "x-unit": "N"}}, "x-keep": 1})
        );
        assert!(!strip(&mut schema));
    }

    fn point() -> Value {
        json!({"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}, "z": {"type": "number"}}, ARRAY_KEY: ["x", "y", "z"]})
    }

    #[test]
    fn objects_become_arrays_in_key_order_and_back() {
        let schema = json!({
            "type": "object",
            "properties": {
                "target": point(),
                "path": {"type": "array", "items": point()},
                "pose": {"type": "object", "properties": {
                    "translation": point(),
                    "rotation": {"type": "object", ARRAY_KEY: ["x", "y", "z", "w"], UNIT_NORM_KEY: 1e-3},
                }},
            },
        });
        let adapter = Adapter::compile(&schema).unwrap().unwrap();
        let mut v = json!({
            "target": {"z": 3, "x": 1, "y": 2},
            "path": [{"x": 1, "y": 2, "z": 3}, {"x": 4, "y": 5, "z": 6}],
            "pose": {
                "translation": {"x": 1, "y": 0, "z": 0},
                "rotation": {"x": 0, "y": 0, "z": 0, "w": 2},
            },
        });
        adapter.to_serde(&mut v).unwrap();
        assert_eq!(
            v,
            json!({
                "target": [1, 2, 3],
                "path": [[1, 2, 3], [4, 5, 6]],
                "pose": {"translation": [1, 0, 0], "rotation": [0.0, 0.0, 0.0, 1.0]},
            })
        );
        adapter.to_published(&mut v);
        assert_eq!(
            v,
            json!({
                "target": {"x": 1, "y": 2, "z": 3},
                "path": [{"x": 1, "y": 2, "z": 3}, {"x": 4, "y": 5, "z": 6}],
                "pose": {
                    "translation": {"x": 1, "y": 0, "z": 0},
                    "rotation": {"x": 0.0, "y": 0.0, "z": 0.0, "w": 1.0},
                },
            })
        );
    }

    #[test]
    fn a_unit_norm_object_is_normalized_on_the_way_in_only() {
        let schema = json!({"type": "object", UNIT_NORM_KEY: 1e-3});
        let adapter = Adapter::compile(&schema).unwrap().unwrap();
        let mut v = json!({"x": 0.0, "y": 0.0, "z": 0.0006, "w": 1.0});
        adapter.to_serde(&mut v).unwrap();
        let norm: f64 = v
            .as_object()
            .unwrap()
            .values()
            .map(|c| c.as_f64().unwrap().powi(2))
            .sum::<f64>()
            .sqrt();
        assert!((norm - 1.0).abs() < 1e-15, "{norm}");
        assert_ne!(v["w"], json!(1.0));
        let mut out = json!({"x": 0.0, "y": 0.0, "z": 0.0, "w": 2.0});
        adapter.to_published(&mut out);
        assert_eq!(out["w"], json!(2.0));
    }

    #[test]
    fn a_point_inside_a_branch_is_refused_with_its_path() {
        let schema = json!({"type": "object", "properties": {"target": {"anyOf": [point(), {"type": "null"}]}}});
        let err = Adapter::compile(&schema).unwrap_err();
        assert!(
            err.starts_with(
                "target: a nalgebra point, vector, rotation or isometry cannot be inside `anyOf`"
            ),
            "{err}"
        );
    }

    #[test]
    fn an_angle_in_degrees_becomes_a_unit_complex_and_back() {
        let deg = crate::schema::units::unit("deg").unwrap().factor;
        let schema =
            json!({"type": "number", "x-unit": "deg", SCALE_KEY: [deg, 0.0], COMPLEX_KEY: true});
        let adapter = Adapter::compile(&schema).unwrap().unwrap();
        let mut v = json!(90);
        adapter.to_serde(&mut v).unwrap();
        let pair: Vec<f64> = serde_json::from_value(v.clone()).unwrap();
        assert!(
            pair[0].abs() < 1e-15 && (pair[1] - 1.0).abs() < 1e-15,
            "{v}"
        );
        adapter.to_published(&mut v);
        assert!((v.as_f64().unwrap() - 90.0).abs() < 1e-12, "{v}");
        let mut back = json!([-1.0, 0.0]);
        adapter.to_published(&mut back);
        assert_eq!(back, json!(180.0));
    }

    #[test]
    fn a_value_converted_to_si_and_back_is_the_number_it_was() {
        // 950 mm is 0.95 m, which uom's formula turns back into 950.0000000000001 mm: over a
        // declared maximum of 950.
        let schema =
            json!({"type": "number", "x-unit": "mm", SCALE_KEY: [0.001, 0.0], "maximum": 950.0});
        let adapter = Adapter::compile(&schema).unwrap().unwrap();
        assert_eq!(
            from_si(to_si(950.0, 0.001, 0.0), 0.001, 0.0),
            950.000_000_000_000_1
        );
        for sent in [950.0, 3.0, 0.1, 123.456, 1e-9, -850.0] {
            let mut v = json!(sent);
            adapter.to_serde(&mut v).unwrap();
            adapter.to_published(&mut v);
            assert_eq!(v, json!(sent));
        }
        let celsius = crate::schema::units::unit("°C").unwrap();
        let schema = json!({"type": "number", SCALE_KEY: [celsius.factor, celsius.offset]});
        let adapter = Adapter::compile(&schema).unwrap().unwrap();
        let mut v = json!(0.1);
        adapter.to_serde(&mut v).unwrap();
        adapter.to_published(&mut v);
        assert_eq!(v, json!(0.1));
    }

    #[test]
    fn a_number_that_overflows_is_refused_in_and_null_out() {
        let km = json!({"type": "number", SCALE_KEY: [1000.0, 0.0]});
        let schema =
            json!({"type": "object", "properties": {"legs": {"type": "array", "items": km}}});
        let adapter = Adapter::compile(&schema).unwrap().unwrap();
        let mut v = json!({"legs": [1.0, 1e306]});
        assert_eq!(adapter.to_serde(&mut v), Err("legs[1]".to_owned()));
        // Out: 1.7e308 m in nm is not a finite number: null, for the output check to name.
        let nm = json!({"type": "number", SCALE_KEY: [1e-9, 0.0]});
        let adapter = Adapter::compile(&nm).unwrap().unwrap();
        let mut out = json!(1.7e308);
        adapter.to_published(&mut out);
        assert_eq!(out, Value::Null);
    }

    #[test]
    fn an_angle_is_published_back_in_the_turn_its_range_declares() {
        let deg = crate::schema::units::unit("deg").unwrap().factor;
        let schema = json!({"type": "number", "x-unit": "deg", SCALE_KEY: [deg, 0.0], COMPLEX_KEY: true, "minimum": 0.0, "maximum": 360.0});
        let adapter = Adapter::compile(&schema).unwrap().unwrap();
        for (sent, back) in [(270.0, 270.0), (0.0, 0.0), (359.0, 359.0), (90.0, 90.0)] {
            let mut v = json!(sent);
            adapter.to_serde(&mut v).unwrap();
            adapter.to_published(&mut v);
            assert_eq!(v, json!(back), "{sent}");
        }
        // Without a range: atan2's turn, -180..=180.
        let schema =
            json!({"type": "number", "x-unit": "deg", SCALE_KEY: [deg, 0.0], COMPLEX_KEY: true});
        let adapter = Adapter::compile(&schema).unwrap().unwrap();
        let mut v = json!(270.0);
        adapter.to_serde(&mut v).unwrap();
        adapter.to_published(&mut v);
        assert_eq!(v, json!(-90.0));
    }

    #[test]
    fn strip_removes_any_private_keyword_but_not_data_or_names() {
        let mut schema = json!({
            "type": "object",
            "x-toolwright-unit-norm": 0.001,
            "properties": {"x-toolwright-name": {"type": "array", "items": {"x-toolwright-other": 1}}},
            "default": {"x-toolwright-data": 1}
        });
        assert!(strip(&mut schema));
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {"x-toolwright-name": {"type": "array", "items": {}}},
                "default": {"x-toolwright-data": 1}
            })
        );
    }
}
