use serde::{Deserialize, Serialize};
use toolwright::ToolSchema;

mod as_text {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

fn parse_force<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    f64::deserialize(d)
}

/// A grip.
#[derive(Serialize, Deserialize, ToolSchema)]
struct Grip {
    /// Width, written as text: the schema would say number.
    #[serde(with = "as_text")]
    width: f64,
    /// Force.
    #[serde(deserialize_with = "parse_force")]
    force: f64,
}

fn main() {}
