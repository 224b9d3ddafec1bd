use serde::Deserialize;
use toolwright::ToolSchema;

/// A target.
#[derive(Deserialize, ToolSchema)]
enum Target {
    /// A named place.
    Named {
        /// Its name.
        name: String,
    },
    /// Coordinates, untagged: the schema cannot mix both forms yet.
    #[serde(untagged)]
    Point {
        /// X, mm.
        x: f64,
    },
}

fn main() {}
