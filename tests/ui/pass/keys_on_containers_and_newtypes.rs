//! Value keys (`unit`, `range`, lengths, `pattern`) apply through `Option` and to list items;
//! item keys to lists, also inside `Option`; newtypes deriving `ToolSchema` take their field's
//! keys; defaults of an `Option<T>` are `T`s.
use serde::{Deserialize, Serialize};
use toolwright::{ToolSchema, tool, tools};

/// A distance.
#[derive(Serialize, Deserialize, ToolSchema)]
struct Millimeters(f64);

/// An object id.
#[derive(Serialize, Deserialize, ToolSchema)]
struct ObjectId(String);

/// A labelled point.
#[derive(Serialize, Deserialize, ToolSchema)]
struct Labelled {
    /// Label.
    #[param(min_length = 1, max_length = 16, pattern = "^[a-z]+$", default = "origin")]
    label: String,
    /// Height above the table.
    #[param(range = 0.0..=500.0)]
    height: Millimeters,
}

/// A chain of links (`Self` in a field type; recursive, so never a tool input).
#[derive(Serialize, Deserialize, ToolSchema)]
struct Chain {
    /// Link length.
    #[param(unit = "mm", range = 0.0..)]
    length: f64,
    /// The next link.
    next: Option<Box<Self>>,
}

/// Scan objects.
#[tool]
fn scan(
    /// Readings per axis.
    #[param(unit = "V", range = -10.0..=10.0, min_items = 3, max_items = 3)]
    volts: Option<Vec<f64>>,
    /// Object ids.
    #[param(min_length = 3, pattern = "^obj-", min_items = 1)]
    ids: Vec<String>,
    /// Fixed-size offsets.
    #[param(unit = "mm", range = -5.0..=5.0)]
    offsets: [f64; 3],
    /// Scan distance.
    #[param(unit = "mm", range = 10.0..=800.0, default = Millimeters(100.0))]
    distance: Millimeters,
    /// Object to start from.
    #[param(pattern = "^obj-[0-9]+$", default = "obj-1")]
    start: Option<ObjectId>,
) -> Vec<Labelled> {
    let _ = (volts, ids, offsets, distance.0, start.map(|s| s.0));
    Vec::new()
}

impl From<&'static str> for ObjectId {
    fn from(s: &'static str) -> Self {
        ObjectId(s.to_owned())
    }
}

/// Move at a speed.
#[tool]
fn go(
    /// Speed.
    #[param(range = 0.1..=1.0, default = 0.5)]
    speed: Option<f64>,
) {
    let _ = speed;
}

fn main() {
    let _ = Chain {
        length: 1.0,
        next: None,
    };
    assert_eq!(tools![scan, go].build().unwrap().tools().len(), 2);
}
