//! A hosted parts catalogue for robot cells, as MCP tools: look up grippers, sensors and
//! actuators, compare them, and convert between the units their datasheets use.
//!
//! Unlike the robot arm, these tools touch no device (no `resource`), keep no state between
//! calls and are all read-only, so the server can run as several replicas behind a load
//! balancer, sharing its sessions and rate limits through Redis:
//! `parts_catalog serve --http 127.0.0.1:8101 --redis redis://127.0.0.1:6379/0` (see the
//! reference, `toolwright::reference`, "Replicas").

use serde::{Deserialize, Serialize};
use toolwright::{ToolError, ToolSchema, Toolbox, ToolboxBuilder, toolbox};

/// What a part is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToolSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// an end effector that holds objects
    Gripper,
    /// a force/torque or vision sensor
    Sensor,
    /// a motor or linear actuator
    Actuator,
}

/// A part of the catalogue.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct Part {
    /// The part number, e.g. `GR-2F-85`.
    pub number: String,
    /// What it is.
    pub kind: Kind,
    /// Its name.
    pub name: String,
    /// Its mass.
    #[param(unit = "kg")]
    pub mass: f64,
    /// The largest force it exerts or measures.
    #[param(unit = "N")]
    pub max_force: f64,
    /// Price per unit.
    pub price_eur: f64,
}

/// Parts matching a search.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct Parts {
    /// The matching parts, by part number.
    pub parts: Vec<Part>,
}

/// A supplier's quote.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct Quote {
    /// The part number.
    pub number: String,
    /// How many units.
    pub quantity: u32,
    /// The total price, volume discount included.
    pub total_eur: f64,
}

/// A converted value.
#[derive(Debug, Clone, Serialize, ToolSchema)]
pub struct Converted {
    /// The value in the unit asked for.
    pub value: f64,
    /// That unit.
    pub unit: LengthOrForce,
}

/// Units of length and force found in datasheets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToolSchema)]
pub enum LengthOrForce {
    /// millimetre
    #[serde(rename = "mm")]
    Millimetre,
    /// inch
    #[serde(rename = "in")]
    Inch,
    /// newton
    #[serde(rename = "N")]
    Newton,
    /// pound-force
    #[serde(rename = "lbf")]
    PoundForce,
}

impl LengthOrForce {
    /// (SI factor, dimension): mm for length, N for force.
    fn si(self) -> (f64, &'static str) {
        match self {
            LengthOrForce::Millimetre => (1.0, "length"),
            LengthOrForce::Inch => (25.4, "length"),
            LengthOrForce::Newton => (1.0, "force"),
            LengthOrForce::PoundForce => (4.448_221_615_260_5, "force"),
        }
    }
}

/// The catalogue: read-only, the same in every replica.
#[derive(Debug)]
pub struct Catalog {
    parts: Vec<Part>,
}

impl Default for Catalog {
    fn default() -> Self {
        let part = |number: &str, kind, name: &str, mass, max_force, price_eur| Part {
            number: number.to_owned(),
            kind,
            name: name.to_owned(),
            mass,
            max_force,
            price_eur,
        };
        Catalog {
            parts: vec![
                part(
                    "GR-2F-85",
                    Kind::Gripper,
                    "two-finger parallel gripper, 85 mm stroke",
                    0.9,
                    235.0,
                    4200.0,
                ),
                part(
                    "GR-VAC-S",
                    Kind::Gripper,
                    "vacuum gripper, single cup",
                    0.3,
                    60.0,
                    900.0,
                ),
                part(
                    "GR-SOFT-4",
                    Kind::Gripper,
                    "four-finger soft gripper",
                    0.6,
                    25.0,
                    2600.0,
                ),
                part(
                    "FT-300",
                    Kind::Sensor,
                    "six-axis force/torque sensor",
                    0.3,
                    300.0,
                    5900.0,
                ),
                part(
                    "CAM-RGBD",
                    Kind::Sensor,
                    "wrist RGB-D camera",
                    0.2,
                    0.0,
                    1100.0,
                ),
                part(
                    "LA-200",
                    Kind::Actuator,
                    "linear actuator, 200 mm",
                    1.8,
                    800.0,
                    1500.0,
                ),
            ],
        }
    }
}

/// The parts-catalogue server, to build or to run the command line with.
pub fn server() -> ToolboxBuilder<Catalog> {
    Toolbox::builder(Catalog::default())
        .with_title("Robot parts catalogue")
        .with_describe_tool()
}

#[toolbox]
impl Catalog {
    /// Find parts by kind, and by the force they must handle.
    ///
    /// Use it to shortlist grippers, sensors or actuators for a task; then get_part for one.
    /// A long list is not sent whole: narrow it by kind or force, select fields with
    /// `jmespath`, or ask for a `summary` first.
    #[tool(
        read_only,
        open_world = false,
        blocking = false,
        projection,
        summary,
        // Small on purpose, so this small demo catalogue shows the envelope: the whole
        // catalogue is over it, one kind of part is not.
        max_output_bytes = 512,
        over_budget = "envelope"
    )]
    fn find_parts(
        &self,
        /// The kind of part; all kinds when omitted.
        kind: Option<Kind>,
        /// Only parts rated for at least this force.
        #[param(unit = "N", range = 0.0..=10_000.0, default = 0.0)]
        min_force: f64,
    ) -> Parts {
        let parts = self
            .parts
            .iter()
            .filter(|p| kind.is_none_or(|k| p.kind == k) && p.max_force >= min_force)
            .cloned()
            .collect();
        Parts { parts }
    }

    /// Get one part by its part number.
    #[tool(read_only, open_world = false, blocking = false)]
    fn get_part(
        &self,
        /// The part number, e.g. `GR-2F-85`.
        #[param(min_length = 3, max_length = 32, pattern = "^[A-Z0-9-]+$")]
        number: String,
    ) -> Result<Part, ToolError> {
        self.parts
            .iter()
            .find(|p| p.number == number)
            .cloned()
            .ok_or_else(|| {
                ToolError::new(format!("no part `{number}` in the catalogue"))
                    .with_hint("call find_parts to list the part numbers")
            })
    }

    /// Ask the supplier for a price quote on a quantity of one part.
    ///
    /// Each quote is a request to the supplier's system, so every client gets at most 20 a day
    /// (the answer to the 21st says how long to wait).
    #[tool(read_only, open_world = true, blocking = false, rate_limit = "20/day")]
    fn request_quote(
        &self,
        /// The part number.
        #[param(min_length = 3, max_length = 32, pattern = "^[A-Z0-9-]+$")]
        number: String,
        /// How many units.
        #[param(range = 1..=10_000)]
        quantity: u32,
    ) -> Result<Quote, ToolError> {
        let part = self.get_part(number)?;
        let discount = match quantity {
            0..=9 => 0.0,
            10..=99 => 0.05,
            _ => 0.12,
        };
        Ok(Quote {
            number: part.number,
            quantity,
            total_eur: (part.price_eur * f64::from(quantity) * (1.0 - discount) * 100.0).round()
                / 100.0,
        })
    }

    /// Convert a length or a force between the units datasheets use.
    #[tool(read_only, open_world = false, blocking = false)]
    fn convert_units(
        &self,
        /// The value to convert.
        #[param(range = -1.0e9..=1.0e9)]
        value: f64,
        /// Its unit.
        from: LengthOrForce,
        /// The unit wanted (of the same dimension).
        to: LengthOrForce,
    ) -> Result<Converted, ToolError> {
        let ((f, a), (g, b)) = (from.si(), to.si());
        if a != b {
            return Err(ToolError::new(format!("cannot convert a {a} into a {b}"))
                .with_hint("convert mm and in between themselves, N and lbf between themselves"));
        }
        Ok(Converted {
            value: value * f / g,
            unit: to,
        })
    }
}
