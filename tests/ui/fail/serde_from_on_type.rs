use serde::{Deserialize, Serialize};
use toolwright::ToolSchema;

#[derive(Serialize, Deserialize)]
struct Raw {
    mm: f64,
}

/// A distance, read through `Raw`: its own fields are not what serde reads.
#[derive(Clone, Serialize, Deserialize, ToolSchema)]
#[serde(from = "Raw", into = "Raw")]
struct Distance {
    /// Meters.
    meters: f64,
}

impl From<Raw> for Distance {
    fn from(r: Raw) -> Self {
        Distance { meters: r.mm / 1000.0 }
    }
}

impl From<Distance> for Raw {
    fn from(d: Distance) -> Self {
        Raw { mm: d.meters * 1000.0 }
    }
}

fn main() {}
