//! The published schemas agree with serde, over a corpus of derive fixtures that covers serde's
//! container, variant and field attributes.
//!
//! Each fixture `T` is the parameter and the return type of a tool `fn(value: T) -> T`. For
//! documents generated from the published `inputSchema` (valid ones, checked with the
//! `jsonschema` crate's draft 2020-12 validator as the reference):
//!
//! 1. serde deserializes the document into `T` (every document the schema accepts is one serde
//!    accepts);
//! 2. the call through the toolbox succeeds (toolwright's own checks accept it too);
//! 3. serde's serialization of the value, as the call's `structuredContent`, validates against
//!    the published `outputSchema` (what serde produces is what the schema promises).
//!
//! `TOOLWRIGHT_CORPUS_CASES` (documents per fixture, default 120) and `TOOLWRIGHT_CORPUS_SEED`
//! widen the run; DEVELOPERS.md ("Testing") records a longer one.

mod common;

use std::collections::{BTreeMap, HashMap};

use common::env_number;

use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use serde_json::{Map, Value, json};
use toolwright::{ToolSchema, Toolbox, tool, tool_defs};

// ---------------------------------------------------------------------------------------------
// The corpus
// ---------------------------------------------------------------------------------------------

/// A point on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
struct Position {
    /// Forward, mm.
    #[param(unit = "mm", range = -850.0..=850.0)]
    x: f64,
    /// Left, mm.
    #[param(unit = "mm", range = -850.0..=850.0)]
    y: f64,
}

/// Plain fields of every leaf kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
struct Plain {
    /// A number.
    number: f64,
    /// A small integer.
    small: u8,
    /// A signed integer.
    signed: i32,
    /// A large integer.
    large: u64,
    /// A name.
    name: String,
    /// A flag.
    flag: bool,
    /// A letter.
    letter: char,
}

macro_rules! renamed_struct {
    ($name:ident, $rule:literal) => {
        /// Fields named by a container rule.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
        #[serde(rename_all = $rule)]
        struct $name {
            /// The first value.
            first_value: f64,
            /// The second value.
            second_name: String,
            /// A one-word field.
            speed: u16,
        }
    };
}
renamed_struct!(RenameLower, "lowercase");
renamed_struct!(RenameUpper, "UPPERCASE");
renamed_struct!(RenamePascal, "PascalCase");
renamed_struct!(RenameCamel, "camelCase");
renamed_struct!(RenameSnake, "snake_case");
renamed_struct!(RenameScreamingSnake, "SCREAMING_SNAKE_CASE");
renamed_struct!(RenameKebab, "kebab-case");
renamed_struct!(RenameScreamingKebab, "SCREAMING-KEBAB-CASE");

/// Fields renamed one by one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
#[serde(rename_all = "camelCase")]
struct FieldRenames {
    /// Renamed over the container's rule.
    #[serde(rename = "x-position")]
    x_position: f64,
    /// Named by the container's rule.
    y_position: f64,
    /// A raw identifier.
    r#type: String,
}

/// Different names in and out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
#[serde(rename_all(serialize = "SCREAMING_SNAKE_CASE", deserialize = "camelCase"))]
struct InAndOut {
    /// Named by the rules.
    grip_force: f64,
    /// Named on its own.
    #[serde(rename(serialize = "WIDTH_OUT", deserialize = "widthIn"))]
    grip_width: f64,
}

fn five() -> u32 {
    5
}

/// Defaults on fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
struct FieldDefaults {
    /// Needed.
    needed: f64,
    /// The type's default when left out.
    #[serde(default)]
    count: u32,
    /// A function's value when left out.
    #[serde(default = "five")]
    retries: u32,
    /// Left out: none.
    #[serde(default)]
    note: Option<String>,
}

/// A default for the whole type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
#[serde(default)]
struct ContainerDefault {
    /// Speed fraction.
    #[param(range = 0.1..=1.0)]
    speed: f64,
    /// Label.
    label: String,
}

impl Default for ContainerDefault {
    fn default() -> Self {
        Self {
            speed: 0.5,
            label: "home".into(),
        }
    }
}

/// Fields serde skips, in one direction or both.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
struct Skips {
    /// Sent and answered.
    value: f64,
    /// Never sent nor answered.
    #[serde(skip)]
    cache: u32,
    /// Sent, never answered.
    #[serde(skip_serializing)]
    secret: String,
    /// Answered, never sent (its default on the way in).
    #[serde(skip_deserializing)]
    computed: u32,
    /// Answered when present.
    #[serde(skip_serializing_if = "Option::is_none")]
    remark: Option<String>,
}

/// Other names serde accepts on the way in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
struct Aliases {
    /// The color.
    #[serde(alias = "colour")]
    color: String,
    /// The size.
    #[serde(alias = "dimension", alias = "extent")]
    size: f64,
}

/// A labelled point: the point's fields are this object's own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
struct Flattened {
    /// Where.
    #[serde(flatten)]
    at: Position,
    /// What.
    label: String,
}

/// No other fields allowed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
#[serde(deny_unknown_fields)]
struct Strict {
    /// Force, N.
    #[param(unit = "N", range = 0.0..=30.0)]
    force: f64,
}

/// A distance, as a bare number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
#[serde(transparent)]
struct Meters {
    /// The distance.
    value: f64,
}

/// A temperature in degrees Celsius.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
struct Celsius(#[param(unit = "°C", range = -40.0..=120.0)] f64);

/// An identifier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
#[serde(transparent)]
struct Id(u32);

/// Objects inside objects and lists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
struct Nested {
    /// One point.
    at: Position,
    /// Several points.
    #[param(max_items = 4)]
    path: Vec<Position>,
    /// Maybe a point.
    via: Option<Position>,
    /// A newtype inside.
    temperature: Celsius,
}

/// Declared checks on every kind of leaf.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
struct Checked {
    /// Bounded integer.
    #[param(range = 1..=9)]
    level: u8,
    /// Bounded number, upper bound excluded.
    #[param(range = 0.5..2.5)]
    gain: f64,
    /// A code.
    #[param(pattern = "^[A-Z]{2}-[0-9]{3}$")]
    code: String,
    /// A short name.
    #[param(min_length = 1, max_length = 8)]
    short: String,
    /// Between one and three values.
    #[param(min_items = 1, max_items = 3)]
    values: Vec<f64>,
}

/// Leaves serde writes in particular ways.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
struct Containers {
    /// Three coordinates.
    xyz: [f64; 3],
    /// Named numbers.
    named: BTreeMap<String, f64>,
    /// Named counts.
    counts: HashMap<String, u32>,
    /// Bytes.
    #[param(max_items = 4)]
    bytes: Vec<u8>,
    /// Maybe a number.
    maybe: Option<i64>,
}

/// A direction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
enum Direction {
    /// Up.
    Up,
    /// Down.
    Down,
    /// Sideways.
    SideWays,
}

/// A speed setting, named by a rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
#[serde(rename_all = "kebab-case")]
enum SpeedSetting {
    /// Slow.
    VerySlow,
    /// Normal.
    Normal,
    /// Fast, under another name.
    #[serde(rename = "FAST")]
    Fast,
}

/// A unit variant kept out of the schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
enum WithSkipped {
    /// Usable.
    On,
    /// Usable.
    Off,
    /// Never sent nor answered.
    #[serde(skip)]
    #[allow(dead_code)]
    Internal,
}

/// Commands, externally tagged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
enum External {
    /// Move.
    Move {
        /// Where.
        to: Position,
        /// Speed fraction.
        #[param(range = 0.1..=1.0)]
        speed: f64,
    },
    /// Wait, seconds.
    Wait(f64),
    /// A point.
    Go(Position),
    /// Stop.
    Stop,
}

/// Commands with a `kind` field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
#[serde(tag = "kind")]
enum Internal {
    /// Move.
    Move {
        /// Where.
        to: Position,
    },
    /// A point's fields next to the tag.
    Go(Position),
    /// Stop.
    Stop,
}

/// Commands as tag and content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    /// Move.
    Move {
        /// Where.
        to: Position,
    },
    /// Wait, seconds.
    Wait(f64),
    /// Stop.
    Stop,
}

/// A value of one of several shapes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
#[serde(untagged)]
enum Untagged {
    /// A point.
    Point(Position),
    /// A label.
    Label {
        /// Its text.
        #[param(max_length = 8)]
        text: String,
    },
    /// A number.
    Number(f64),
}

/// Variants and fields named by rules at every level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
enum Rules {
    /// Named by the enum's rules.
    MoveTo {
        /// Speed.
        target_speed: f64,
    },
    /// The variant's own rule wins for its fields.
    #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
    SetLimit {
        /// Limit.
        max_force: f64,
    },
    /// Renamed itself.
    #[serde(rename = "halt-now")]
    HaltNow,
}

/// Variants that exist in one direction only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
#[serde(tag = "kind")]
enum OneWay {
    /// Both ways.
    Both {
        /// A value.
        value: f64,
    },
    /// Only ever answered.
    #[serde(skip_deserializing)]
    #[allow(dead_code)]
    Report {
        /// A value.
        value: f64,
    },
    /// Only ever sent.
    #[serde(skip_serializing)]
    Request {
        /// A value.
        value: f64,
    },
}

/// Other tag names accepted on the way in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
enum VariantAliases {
    /// Open.
    #[serde(alias = "opened")]
    Open,
    /// Closed.
    #[serde(alias = "shut")]
    Closed,
}

/// An unknown kind is `Other`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
#[serde(tag = "kind")]
enum WithOther {
    /// Known.
    Known,
    /// Any other kind.
    #[serde(other)]
    Other,
}

/// Options of every kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
struct Options {
    /// Maybe a direction.
    direction: Option<Direction>,
    /// Maybe a command.
    command: Option<External>,
    /// Maybe a list.
    list: Option<Vec<u8>>,
    /// Maybe maybe.
    nested: Option<Option<bool>>,
}

/// A renamed type: the name does not reach the wire.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
#[serde(rename = "gripper_state")]
struct Renamed {
    /// Open or not.
    open: bool,
}

/// Several enums in one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
struct Mixed {
    /// A direction.
    direction: Direction,
    /// A speed.
    speed: SpeedSetting,
    /// A command.
    command: Adjacent,
    /// A shape.
    shape: Untagged,
    /// Rules.
    rules: Rules,
}

/// A field that holds any JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
struct AnyJson {
    /// A name.
    name: String,
    /// Free-form data.
    data: Value,
}

/// A box and a tuple.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
struct Boxes {
    /// A boxed point.
    boxed: Box<Position>,
    /// A pair of numbers.
    pair: (f64, u8),
}

/// A unit enum, internally tagged (each variant an object with its tag).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
#[serde(tag = "mode", rename_all = "lowercase")]
enum TaggedUnits {
    /// Manual.
    Manual,
    /// Automatic.
    Automatic,
}

/// Struct variants only, adjacently tagged, renamed fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToolSchema)]
#[serde(tag = "op", content = "args", rename_all_fields = "kebab-case")]
enum AdjacentRules {
    /// Grip.
    Grip {
        /// Force.
        grip_force: f64,
    },
    /// Release.
    Release {
        /// Delay.
        #[serde(default)]
        delay_ms: u32,
    },
}

/// The fixtures: each the parameter and return type of a tool `fn(value: T) -> T`.
macro_rules! corpus {
    ($($tool:ident: $ty:ty,)*) => {
        $(
            /// Answers the value it was given.
            #[tool(allow(deep_nesting))]
            fn $tool(
                /// The value under test.
                value: $ty,
            ) -> $ty {
                value
            }
        )*

        fn toolbox() -> Toolbox {
            Toolbox::from_tools((), tool_defs![$($tool),*])
        }

        /// Per fixture: its tool's name and serde's round trip of a document through `T`.
        fn fixtures() -> Vec<(&'static str, RoundTrip)> {
            vec![$((stringify!($tool), round_trip::<$ty> as RoundTrip)),*]
        }
    };
}

/// serde's round trip of a document: `Ok(None)` when it deserializes into a value serde is told
/// never to write (a `skip_serializing` variant).
type RoundTrip = fn(&Value) -> Result<Option<Value>, String>;

fn round_trip<T: Serialize + DeserializeOwned>(doc: &Value) -> Result<Option<Value>, String> {
    let value: T = serde_json::from_value(doc.clone()).map_err(|e| format!("deserialize: {e}"))?;
    match serde_json::to_value(&value) {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.to_string().contains("cannot be serialized") => Ok(None),
        Err(e) => Err(format!("serialize: {e}")),
    }
}

corpus! {
    position: Position,
    plain: Plain,
    rename_lower: RenameLower,
    rename_upper: RenameUpper,
    rename_pascal: RenamePascal,
    rename_camel: RenameCamel,
    rename_snake: RenameSnake,
    rename_screaming_snake: RenameScreamingSnake,
    rename_kebab: RenameKebab,
    rename_screaming_kebab: RenameScreamingKebab,
    field_renames: FieldRenames,
    in_and_out: InAndOut,
    field_defaults: FieldDefaults,
    container_default: ContainerDefault,
    skips: Skips,
    aliases: Aliases,
    flattened: Flattened,
    strict: Strict,
    meters: Meters,
    celsius: Celsius,
    id: Id,
    nested: Nested,
    checked: Checked,
    containers: Containers,
    direction: Direction,
    speed_setting: SpeedSetting,
    with_skipped: WithSkipped,
    external: External,
    internal: Internal,
    adjacent: Adjacent,
    untagged: Untagged,
    rules: Rules,
    one_way: OneWay,
    variant_aliases: VariantAliases,
    with_other: WithOther,
    options: Options,
    renamed: Renamed,
    mixed: Mixed,
    any_json: AnyJson,
    boxes: Boxes,
    tagged_units: TaggedUnits,
    adjacent_rules: AdjacentRules,
}

// ---------------------------------------------------------------------------------------------
// Documents a schema accepts
// ---------------------------------------------------------------------------------------------

/// Resolves a local `$ref` against the root schema.
fn resolve<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => r
            .strip_prefix('#')
            .and_then(|pointer| root.pointer(pointer))
            .unwrap_or_else(|| panic!("unresolvable $ref {r}")),
        None => schema,
    }
}

fn types(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn number(schema: &Value, key: &str) -> Option<f64> {
    schema.get(key).and_then(Value::as_f64)
}

/// A strategy for documents `schema` accepts (aiming at them: the reference validator has the
/// last word). `depth` bounds recursion through `$ref`.
fn valid(root: &Value, schema: &Value, depth: u32) -> BoxedStrategy<Value> {
    let schema = resolve(root, schema);
    if let Some(c) = schema.get("const") {
        return Just(c.clone()).boxed();
    }
    if let Some(Value::Array(values)) = schema.get("enum") {
        return select(values.clone()).boxed();
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(Value::Array(branches)) = schema.get(key) {
            let options: Vec<BoxedStrategy<Value>> = branches
                .iter()
                .map(|b| {
                    // Keywords next to `oneOf` (a description, a shared `type`) apply too.
                    let mut merged = schema.as_object().cloned().unwrap_or_default();
                    merged.remove(key);
                    if let Some(b) = resolve(root, b).as_object() {
                        merged.extend(b.clone());
                    }
                    valid(root, &Value::Object(merged), depth)
                })
                .collect();
            return proptest::strategy::Union::new(options).boxed();
        }
    }
    let ts = types(schema);
    let mut options: Vec<BoxedStrategy<Value>> = Vec::new();
    for t in &ts {
        options.push(match *t {
            "null" => Just(Value::Null).boxed(),
            "boolean" => any::<bool>().prop_map(Value::from).boxed(),
            "integer" => {
                let lo = number(schema, "minimum").unwrap_or(-1e6).max(-9e15) as i64;
                let hi = number(schema, "maximum").unwrap_or(1e6).min(9e15) as i64;
                (lo..=hi).prop_map(Value::from).boxed()
            }
            "number" => {
                let lo = number(schema, "minimum")
                    .or(number(schema, "exclusiveMinimum").map(|m| m + 1e-6))
                    .unwrap_or(-1e6);
                let hi = number(schema, "maximum")
                    .or(number(schema, "exclusiveMaximum").map(|m| m - 1e-6))
                    .unwrap_or(1e6);
                prop_oneof![
                    (lo..=hi).prop_map(Value::from),
                    select(vec![lo, hi]).prop_map(Value::from),
                    (lo.ceil() as i64..=hi.floor() as i64).prop_map(Value::from),
                ]
                .boxed()
            }
            "string" => {
                let min = number(schema, "minLength").unwrap_or(0.0) as usize;
                let max = number(schema, "maxLength").unwrap_or(12.0) as usize;
                match schema.get("pattern").and_then(Value::as_str) {
                    Some(p) => proptest::string::string_regex(
                        p.trim_start_matches('^').trim_end_matches('$'),
                    )
                    .expect("a valid pattern")
                    .prop_map(Value::from)
                    .boxed(),
                    None => {
                        proptest::string::string_regex(&format!("[a-zA-Z0-9 éß_-]{{{min},{max}}}"))
                            .expect("a valid pattern")
                            .prop_map(Value::from)
                            .boxed()
                    }
                }
            }
            "array" => {
                let min = number(schema, "minItems").unwrap_or(0.0) as usize;
                let max = number(schema, "maxItems").map_or(min + 3, |m| m as usize);
                let max = if depth == 0 { min } else { max };
                if let Some(Value::Array(prefix)) = schema.get("prefixItems") {
                    let items: Vec<BoxedStrategy<Value>> =
                        prefix.iter().map(|s| valid(root, s, depth)).collect();
                    items.prop_map(Value::Array).boxed()
                } else {
                    let item = valid(
                        root,
                        schema.get("items").unwrap_or(&json!({})),
                        depth.saturating_sub(1),
                    );
                    proptest::collection::vec(item, min..=max)
                        .prop_map(Value::Array)
                        .boxed()
                }
            }
            "object" => object(root, schema, depth),
            other => panic!("unexpected type {other} in {schema}"),
        });
    }
    if options.is_empty() {
        if schema.get("properties").is_some() {
            return object(root, schema, depth);
        }
        // No type: any JSON.
        return prop_oneof![
            Just(Value::Null),
            any::<i32>().prop_map(Value::from),
            "[a-z]{0,6}".prop_map(Value::from),
            Just(json!({"k": [1, "two"]})),
        ]
        .boxed();
    }
    proptest::strategy::Union::new(options).boxed()
}

fn object(root: &Value, schema: &Value, depth: u32) -> BoxedStrategy<Value> {
    let props = schema
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let fields: Vec<BoxedStrategy<Option<(String, Value)>>> = props
        .iter()
        .map(|(name, sub)| {
            let is_required = required.contains(&name.as_str());
            let name = name.clone();
            let value = valid(root, sub, depth).prop_map(move |v| Some((name.clone(), v)));
            if is_required {
                value.boxed()
            } else {
                prop_oneof![2 => value, 1 => Just(None)].boxed()
            }
        })
        .collect();
    let extra: BoxedStrategy<Vec<(String, Value)>> = match schema.get("additionalProperties") {
        Some(s @ Value::Object(_)) => proptest::collection::vec(
            ("[a-z]{1,6}", valid(root, s, depth.saturating_sub(1))),
            0..=2,
        )
        .boxed(),
        _ => Just(Vec::new()).boxed(),
    };
    (fields, extra)
        .prop_map(|(fields, extra)| {
            let mut map = Map::new();
            for (k, v) in extra {
                map.insert(k, v);
            }
            for (k, v) in fields.into_iter().flatten() {
                map.insert(k, v);
            }
            Value::Object(map)
        })
        .boxed()
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

#[derive(Default, Debug)]
struct Tally {
    generated: usize,
    accepted: usize,
}

async fn check_fixture(
    toolbox: &Toolbox,
    tool: &str,
    round_trip: RoundTrip,
    cases: usize,
    seed: u64,
) -> Result<Tally, Vec<String>> {
    let def = toolbox.tool(tool).expect("the fixture's tool");
    let input = Value::Object((*def.input_schema).clone());
    let output = Value::Object(
        (*def
            .output_schema
            .clone()
            .unwrap_or_else(|| panic!("{tool} has an outputSchema")))
        .clone(),
    );
    let input_check = jsonschema::draft202012::new(&input)
        .map_err(|e| vec![format!("{tool}: inputSchema: {e}")])?;
    let output_check = jsonschema::draft202012::new(&output)
        .map_err(|e| vec![format!("{tool}: outputSchema: {e}")])?;
    let strategy = valid(&input, &input["properties"]["value"], 3);
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    seed_bytes[8..16].copy_from_slice(&(tool.len() as u64).to_le_bytes());
    for (i, b) in tool.bytes().enumerate() {
        seed_bytes[16 + i % 16] ^= b;
    }
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
    );
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for _ in 0..cases {
        if failures.len() >= 3 {
            break;
        }
        let doc = strategy
            .new_tree(&mut runner)
            .expect("a document")
            .current();
        tally.generated += 1;
        let args = json!({ "value": doc });
        if !input_check.is_valid(&args) {
            continue; // aimed at valid documents, missed: the reference decides
        }
        tally.accepted += 1;
        // 1. serde accepts what the schema accepts.
        let serde_out = match round_trip(&doc) {
            Ok(Some(out)) => out,
            Ok(None) => continue, // accepted; never answered, by the type's own declaration
            Err(e) => {
                failures.push(format!(
                    "{tool}: the schema accepts {doc} but serde refuses it: {e}"
                ));
                continue;
            }
        };
        // 2. and 3. the whole call: toolwright's checks accept it, and the answer validates.
        let result = toolbox
            .call(tool, args.as_object().cloned())
            .await
            .map_err(|e| vec![format!("{tool}: {e:?}")])?;
        if result.is_error == Some(true) {
            failures.push(format!(
                "{tool}: the schema accepts {doc} but the call is refused: {}",
                result.content[0].as_text().map_or("", |t| t.text.as_str())
            ));
            continue;
        }
        let structured = result.structured_content.clone().unwrap_or(Value::Null);
        // The answer is serde's own serialization (a value that is not an object comes wrapped
        // in one, under one key).
        let unwrapped = match structured.as_object() {
            Some(o) if structured != serde_out && o.len() == 1 => o.values().next().unwrap(),
            _ => &structured,
        };
        if *unwrapped != serde_out {
            failures.push(format!(
                "{tool}: the call answered {structured}, serde wrote {serde_out}"
            ));
        }
        // 3. what serde produces is what the outputSchema promises.
        if let Err(e) = output_check.validate(&structured) {
            failures.push(format!(
                "{tool}: serde answered {structured} for {doc}, which the outputSchema refuses: {e}"
            ));
        }
    }
    if failures.is_empty() {
        Ok(tally)
    } else {
        Err(failures)
    }
}

#[tokio::test]
async fn every_fixture_agrees_with_serde_both_ways() {
    let cases = env_number("TOOLWRIGHT_CORPUS_CASES", 120) as usize;
    let seed = env_number("TOOLWRIGHT_CORPUS_SEED", 2026);
    let toolbox = toolbox();
    let fixtures = fixtures();
    assert!(
        fixtures.len() >= 40,
        "the corpus has {} fixtures",
        fixtures.len()
    );
    let mut failures = Vec::new();
    let (mut generated, mut accepted) = (0, 0);
    for (tool, round_trip) in &fixtures {
        match check_fixture(&toolbox, tool, *round_trip, cases, seed).await {
            Ok(t) => {
                // Most generated documents must be valid, or the run checks little.
                assert!(
                    t.accepted * 2 >= t.generated,
                    "{tool}: only {} of {} generated documents are valid",
                    t.accepted,
                    t.generated
                );
                generated += t.generated;
                accepted += t.accepted;
            }
            Err(f) => failures.extend(f),
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!(
        "serde corpus: {} fixtures, {generated} documents generated, {accepted} valid ones checked both ways (seed {seed})",
        fixtures.len()
    );
}

/// Values serde writes but never reads (so the documents above never produce them): they
/// validate against the output schemas, and are absent from the input schemas.
#[test]
fn values_only_serde_writes_validate_against_the_output_schema() {
    let toolbox = toolbox();
    let schemas = |tool: &str| {
        let def = toolbox.tool(tool).unwrap();
        (
            Value::Object((*def.input_schema).clone()),
            Value::Object((*def.output_schema.clone().unwrap()).clone()),
        )
    };
    // A result that is not a plain object comes wrapped as `{"result": ..}`.
    let answer = |output: &Value, v: &Value| {
        if output["required"] == json!(["result"]) {
            json!({ "result": v })
        } else {
            v.clone()
        }
    };
    let (input, output) = schemas("one_way");
    let report = serde_json::to_value(OneWay::Report { value: 2.5 }).unwrap();
    assert_eq!(report, json!({"kind": "Report", "value": 2.5}));
    assert!(
        jsonschema::draft202012::is_valid(&output, &answer(&output, &report)),
        "{output}"
    );
    assert!(
        !jsonschema::draft202012::is_valid(&input, &json!({"value": report})),
        "{input}"
    );
    // `Request` is read, never written: in the input schema only.
    let request = json!({"kind": "Request", "value": 2.5});
    assert!(jsonschema::draft202012::is_valid(
        &input,
        &json!({"value": request})
    ));
    assert!(
        !jsonschema::draft202012::is_valid(&output, &answer(&output, &request)),
        "{output}"
    );

    let (input, output) = schemas("skips");
    let written = serde_json::to_value(Skips {
        value: 1.0,
        cache: 7,
        secret: "s".into(),
        computed: 3,
        remark: None,
    })
    .unwrap();
    assert_eq!(written, json!({"value": 1.0, "computed": 3}));
    assert!(
        jsonschema::draft202012::is_valid(&output, &answer(&output, &written)),
        "{output}"
    );
    let input_props = &input["properties"]["value"]["properties"];
    assert!(
        input_props.get("computed").is_none() && input_props.get("secret").is_some(),
        "{input}"
    );

    let (input, output) = schemas("in_and_out");
    let props = |s: &Value| -> Vec<String> {
        let p = if s["properties"].get("value").is_some() {
            &s["properties"]["value"]["properties"]
        } else {
            &s["properties"]
        };
        p.as_object().unwrap().keys().cloned().collect()
    };
    assert_eq!(props(&input), ["gripForce", "widthIn"]);
    assert_eq!(props(&output), ["GRIP_FORCE", "WIDTH_OUT"]);
}
