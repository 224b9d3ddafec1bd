//! [`Speed`]: the parameter type of a robot motion's speed, a fraction of the joints' caps.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// How fast a robot motion may go: a fraction of every joint's velocity cap (0 < speed <= 1),
/// applied uniformly so the path keeps its shape (see [`Motion`](crate::Motion)). A tool
/// parameter of this type is published as a number in `(0, 1]` and is the speed the checked
/// motion is timed at.
#[cfg_attr(docsrs, doc(cfg(feature = "robot")))]
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Speed(f64);

impl Speed {
    /// Full speed: every joint's caps.
    pub const FULL: Speed = Speed(1.0);

    /// A fraction of the caps, `0 < fraction <= 1` (outside it: a panic, a compile error in a
    /// `const` or a `#[param(default = Speed::fraction(0.5))]`).
    pub const fn fraction(fraction: f64) -> Speed {
        assert!(
            fraction > 0.0 && fraction <= 1.0,
            "a speed is a fraction of the caps: above 0, at most 1"
        );
        Speed(fraction)
    }

    /// The fraction.
    pub fn get(self) -> f64 {
        self.0
    }
}

impl Default for Speed {
    fn default() -> Self {
        Speed::FULL
    }
}

impl schemars::JsonSchema for Speed {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("Speed")
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "number",
            "exclusiveMinimum": 0,
            "maximum": 1,
            "description": "A fraction of every joint's speed cap (1: as fast as the caps allow); \
                            the motion's duration scales by its inverse",
            crate::schema::keys::SPEED_KEY: true,
        })
    }
}

impl crate::schema::ToolSchema for Speed {}
