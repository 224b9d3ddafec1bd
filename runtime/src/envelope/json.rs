//! The published form of an envelope (in the tool's `_meta`) and its inverse:
//!
//! ```json
//! {"frame": "base_link", "unit": "mm", "toolRadius": 40,
//!  "allow": [{"name": "reach", "sphere": {"center": [0, 0, 100], "radius": 850}}],
//!  "keepOut": [{"name": "mast", "box": {"min": [-100, 350, 0], "max": [100, 450, 950]}},
//!              {"name": "column", "cylinder": {"center": [0, 0], "radius": 60,
//!                                              "zMin": 0, "zMax": 300}}],
//!  "maxStep": 600}
//! ```
//!
//! `toolRadius` is left out when 0 and `maxStep` when unbounded; whole numbers are written as
//! integers. Reading rejects unknown keys and malformed shapes, naming the JSON path.

use serde_json::{Map, Value};

use super::{Envelope, Shape, Solid};

/// The keys of an envelope's published form.
const ENVELOPE_KEYS: &[&str] = &["frame", "unit", "toolRadius", "allow", "keepOut", "maxStep"];

/// A number as JSON: an integer when it is a whole number f64 holds exactly.
pub(super) fn number_json(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Value::from(x as i64)
    } else {
        serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
    }
}

/// Numbers as a JSON array.
fn numbers_json(xs: &[f64]) -> Value {
    Value::Array(xs.iter().map(|&x| number_json(x)).collect())
}

/// One shape's published form: `{"name"?, "box" | "sphere" | "cylinder": {..}}`.
pub(super) fn shape_to_json(shape: &Shape) -> Value {
    let mut out = Map::new();
    if let Some(name) = &shape.name {
        out.insert("name".to_owned(), Value::String(name.clone()));
    }
    let mut body = Map::new();
    let kind = match shape.solid {
        Solid::Box { min, max } => {
            body.insert("min".to_owned(), numbers_json(&min));
            body.insert("max".to_owned(), numbers_json(&max));
            "box"
        }
        Solid::Sphere { center, radius } => {
            body.insert("center".to_owned(), numbers_json(&center));
            body.insert("radius".to_owned(), number_json(radius));
            "sphere"
        }
        Solid::Cylinder {
            center,
            radius,
            z_min,
            z_max,
        } => {
            body.insert("center".to_owned(), numbers_json(&center));
            body.insert("radius".to_owned(), number_json(radius));
            body.insert("zMin".to_owned(), number_json(z_min));
            body.insert("zMax".to_owned(), number_json(z_max));
            "cylinder"
        }
    };
    out.insert(kind.to_owned(), Value::Object(body));
    Value::Object(out)
}

impl Envelope {
    /// The published form (module docs).
    pub(crate) fn to_json(&self) -> Value {
        let mut out = Map::new();
        out.insert("frame".to_owned(), Value::String(self.frame.clone()));
        out.insert("unit".to_owned(), Value::String(self.unit.clone()));
        if self.tool_radius != 0.0 {
            out.insert("toolRadius".to_owned(), number_json(self.tool_radius));
        }
        let shapes = |list: &[Shape]| Value::Array(list.iter().map(shape_to_json).collect());
        out.insert("allow".to_owned(), shapes(&self.allow));
        out.insert("keepOut".to_owned(), shapes(&self.keep_out));
        if let Some(max) = self.max_step {
            out.insert("maxStep".to_owned(), number_json(max));
        }
        Value::Object(out)
    }

    /// Reads the published form back (the drift gate, tests): every problem, each naming its
    /// JSON path (`allow[1].box.min: ..`), joined by `; `; the envelope read must also pass
    /// [`Envelope::validate`]. `keepOut` may be left out (none).
    pub(crate) fn from_json(value: &Value) -> Result<Envelope, String> {
        let mut read = Reader::new("");
        let envelope = read.envelope(value);
        match envelope {
            Some(envelope) if read.errors.is_empty() => {
                envelope.validate().map_err(|e| e.join("; "))?;
                Ok(envelope)
            }
            _ => Err(read.errors.join("; ")),
        }
    }
}

/// An operator's file (`serve --envelope FILE`) as JSON, read strictly: a key repeated in one
/// object is refused, naming the key and its line, where a plain parse would keep the last
/// value and silently drop the first (`{"arm": {"allow": [..]}, "arm": {}}` would lose the
/// narrowing). Anything else serde_json refuses is refused with its line and column.
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub(crate) fn parse_strict(bytes: &[u8]) -> Result<Value, String> {
    serde_json::from_slice::<Strict>(bytes)
        .map(|strict| strict.0)
        .map_err(|e| e.to_string())
}

/// A JSON value whose objects have no repeated key ([`parse_strict`]).
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
struct Strict(Value);

impl<'de> serde::Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(Strict)
    }
}

#[cfg_attr(not(feature = "cli"), allow(dead_code))]
struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut entries: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = entries.next_key::<String>()? {
            if map.contains_key(&key) {
                // serde_json adds where: the line and column just past the repeated key.
                return Err(serde::de::Error::custom(format_args!(
                    "the key {} appears twice in one object (a repeated key would silently \
                     replace the first; write each key once)",
                    crate::echo::echo(&key)
                )));
            }
            let Strict(value) = entries.next_value()?;
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }
}

/// Reads JSON into the model, collecting every problem with its path.
pub(super) struct Reader {
    /// Where the value read sits (`arm.` in a narrowing file), before each path.
    prefix: String,
    /// The problems found.
    pub(super) errors: Vec<String>,
}

impl Reader {
    /// A reader whose paths start with `prefix` (`arm.`, or nothing).
    pub(super) fn new(prefix: &str) -> Reader {
        Reader {
            prefix: prefix.to_owned(),
            errors: Vec::new(),
        }
    }

    /// Records a problem at `path` (relative to the prefix).
    pub(super) fn error(&mut self, path: &str, message: impl std::fmt::Display) {
        let full = format!("{}{path}", self.prefix);
        let full = full.trim_end_matches('.');
        if full.is_empty() {
            self.errors.push(message.to_string());
        } else {
            self.errors.push(format!("{full}: {message}"));
        }
    }

    /// `value` as an object with only `allowed` keys (each unknown key is a problem).
    pub(super) fn object<'v>(
        &mut self,
        value: &'v Value,
        path: &str,
        allowed: &[&str],
    ) -> Option<&'v Map<String, Value>> {
        let Some(map) = value.as_object() else {
            self.error(path, format!("expected an object, found {}", shown(value)));
            return None;
        };
        for key in map.keys() {
            if !allowed.contains(&key.as_str()) {
                let hint = suggest(key, allowed)
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                let at = join(path, &key_path(key));
                self.error(
                    &at,
                    format!("unknown key; expected one of {}{hint}", allowed.join(", ")),
                );
            }
        }
        Some(map)
    }

    /// `value` as a string.
    pub(super) fn string(&mut self, value: &Value, path: &str) -> Option<String> {
        match value.as_str() {
            Some(s) => Some(s.to_owned()),
            None => {
                self.error(path, format!("expected a string, found {}", shown(value)));
                None
            }
        }
    }

    /// `value` as a finite number.
    pub(super) fn number(&mut self, value: &Value, path: &str) -> Option<f64> {
        match value.as_f64() {
            Some(x) if x.is_finite() => Some(x),
            _ => {
                self.error(path, format!("expected a number, found {}", shown(value)));
                None
            }
        }
    }

    /// A required key of `map`.
    fn required<'v>(
        &mut self,
        map: &'v Map<String, Value>,
        key: &str,
        path: &str,
    ) -> Option<&'v Value> {
        let value = map.get(key);
        if value.is_none() {
            self.error(path, format!("missing `{key}`"));
        }
        value
    }

    /// A required number of `map`.
    fn required_number(&mut self, map: &Map<String, Value>, key: &str, path: &str) -> Option<f64> {
        let value = self.required(map, key, path)?;
        self.number(value, &join(path, key))
    }

    /// `N` numbers (a point `[x, y, z]` or an axis `[x, y]`).
    fn numbers<const N: usize>(
        &mut self,
        map: &Map<String, Value>,
        key: &str,
        path: &str,
    ) -> Option<[f64; N]> {
        let value = self.required(map, key, path)?;
        let at = join(path, key);
        let items = value.as_array().filter(|a| a.len() == N);
        let numbers: Option<Vec<f64>> = items.and_then(|a| {
            a.iter()
                .map(|v| v.as_f64().filter(|x| x.is_finite()))
                .collect()
        });
        match numbers {
            Some(v) => v.try_into().ok(),
            None => {
                self.error(
                    &at,
                    format!("expected an array of {N} numbers, found {}", shown(value)),
                );
                None
            }
        }
    }

    /// A list of shapes.
    pub(super) fn shapes(&mut self, value: &Value, path: &str) -> Option<Vec<Shape>> {
        let Some(items) = value.as_array() else {
            self.error(
                path,
                format!("expected an array of shapes, found {}", shown(value)),
            );
            return None;
        };
        let before = self.errors.len();
        let shapes: Vec<Shape> = items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| self.shape(item, &format!("{path}[{i}]")))
            .collect();
        (self.errors.len() == before).then_some(shapes)
    }

    /// One shape: `{"name"?, "box" | "sphere" | "cylinder": {..}}`.
    fn shape(&mut self, value: &Value, path: &str) -> Option<Shape> {
        let map = self.object(value, path, &["name", "box", "sphere", "cylinder"])?;
        let name = match map.get("name") {
            Some(v) => Some(self.string(v, &join(path, "name"))?),
            None => None,
        };
        let kinds: Vec<&str> = ["box", "sphere", "cylinder"]
            .into_iter()
            .filter(|k| map.contains_key(*k))
            .collect();
        let kind = match kinds.as_slice() {
            [kind] => *kind,
            [] => {
                self.error(path, "expected one of `box`, `sphere` or `cylinder`");
                return None;
            }
            _ => {
                self.error(
                    path,
                    format!(
                        "has both `{}` and `{}`: one solid per shape",
                        kinds[0], kinds[1]
                    ),
                );
                return None;
            }
        };
        let at = join(path, kind);
        let solid = match kind {
            "box" => {
                let body = self.object(&map[kind], &at, &["min", "max"])?;
                let min = self.numbers::<3>(body, "min", &at);
                let max = self.numbers::<3>(body, "max", &at);
                Solid::Box {
                    min: min?,
                    max: max?,
                }
            }
            "sphere" => {
                let body = self.object(&map[kind], &at, &["center", "radius"])?;
                let center = self.numbers::<3>(body, "center", &at);
                let radius = self.required_number(body, "radius", &at);
                Solid::Sphere {
                    center: center?,
                    radius: radius?,
                }
            }
            _ => {
                let body = self.object(&map[kind], &at, &["center", "radius", "zMin", "zMax"])?;
                let center = self.numbers::<2>(body, "center", &at);
                let radius = self.required_number(body, "radius", &at);
                let z_min = self.required_number(body, "zMin", &at);
                let z_max = self.required_number(body, "zMax", &at);
                Solid::Cylinder {
                    center: center?,
                    radius: radius?,
                    z_min: z_min?,
                    z_max: z_max?,
                }
            }
        };
        Some(Shape { name, solid })
    }

    /// A whole envelope.
    fn envelope(&mut self, value: &Value) -> Option<Envelope> {
        let map = self.object(value, "", ENVELOPE_KEYS)?;
        let frame = self
            .required(map, "frame", "")
            .and_then(|v| self.string(v, "frame"));
        let unit = self
            .required(map, "unit", "")
            .and_then(|v| self.string(v, "unit"));
        let tool_radius = match map.get("toolRadius") {
            Some(v) => self.number(v, "toolRadius"),
            None => Some(0.0),
        };
        let allow = self
            .required(map, "allow", "")
            .and_then(|v| self.shapes(v, "allow"));
        let keep_out = match map.get("keepOut") {
            Some(v) => self.shapes(v, "keepOut"),
            None => Some(Vec::new()),
        };
        let max_step = match map.get("maxStep") {
            Some(v) => Some(self.number(v, "maxStep")?),
            None => None,
        };
        Some(Envelope {
            frame: frame?,
            unit: unit?,
            tool_radius: tool_radius?,
            allow: allow?,
            keep_out: keep_out?,
            max_step,
        })
    }
}

/// `path.key`, or `key` at the root.
pub(super) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// A key as a path segment: as is when plain, else quoted.
fn key_path(key: &str) -> String {
    let plain = !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if plain {
        key.to_owned()
    } else {
        format!("[{}]", shown(&Value::String(key.to_owned())))
    }
}

/// A JSON value as text, cut to 60 bytes.
pub(super) fn shown(value: &Value) -> String {
    let text = value.to_string();
    if text.len() <= 60 {
        return text;
    }
    let mut end = 57;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}

/// The candidate `got` was probably meant to be: equal ignoring case, else the closest within
/// edit distance 2 and under half its length.
pub(crate) fn suggest<'c>(got: &str, candidates: &[&'c str]) -> Option<&'c str> {
    if let Some(c) = candidates.iter().find(|c| c.eq_ignore_ascii_case(got)) {
        return Some(c);
    }
    candidates
        .iter()
        .map(|c| (levenshtein(got, c), *c))
        .filter(|&(d, c)| d <= 2 && d * 2 < c.chars().count())
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// The edit distance between `a` and `b`, a swap of two neighbours counting as one edit
/// (`amr` is 1 from `arm`); cut short past 64 characters: names are short.
fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().take(64).collect();
    let b: Vec<char> = b.chars().take(64).collect();
    // d[i][j]: the distance between a[..i] and b[..j].
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}
