//! What generated code calls for envelopes and checks: a resource's position
//! (`#[toolbox(resource(.., position = tool_point))]`) read from what the method returns, and a
//! tool's check (`#[tool(check = ..)]`) given its arguments and answered.

use std::fmt::Display;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// What a `position` method may return: where the resource is, `[x, y, z]` in its envelope's
/// frame and unit, or `None` when it does not know.
#[diagnostic::on_unimplemented(
    message = "a `position` method returns where the resource is: `[f64; 3]`, `(f64, f64, f64)`, \
               a nalgebra `Point3<f64>` (feature `nalgebra`), or an `Option` of one of them \
               (`None`: not known)",
    label = "returns `{Self}`"
)]
pub trait IntoPosition {
    /// The position, `[x, y, z]`.
    fn into_position(self) -> Option<[f64; 3]>;
}

impl IntoPosition for [f64; 3] {
    fn into_position(self) -> Option<[f64; 3]> {
        Some(self)
    }
}

impl IntoPosition for (f64, f64, f64) {
    fn into_position(self) -> Option<[f64; 3]> {
        Some([self.0, self.1, self.2])
    }
}

impl<T: IntoPosition> IntoPosition for Option<T> {
    fn into_position(self) -> Option<[f64; 3]> {
        self.and_then(IntoPosition::into_position)
    }
}

#[cfg(feature = "nalgebra")]
impl IntoPosition for nalgebra::Point3<f64> {
    fn into_position(self) -> Option<[f64; 3]> {
        Some([self.x, self.y, self.z])
    }
}

/// The position a `position` method returned.
pub fn position_of<T: IntoPosition>(value: T) -> Option<[f64; 3]> {
    value.into_position()
}

/// Argument `name` of a call, read for the tool's check (an absent optional argument reads as
/// `null`).
pub fn check_arg<T: DeserializeOwned>(args: &Map<String, Value>, name: &str) -> Result<T, String> {
    T::deserialize(args.get(name).unwrap_or(&Value::Null))
        .map_err(|e| format!("`{name}` could not be read for the tool's check: {e}"))
}

/// What a check may return: `Ok(())`, or an error whose text the model is told.
#[diagnostic::on_unimplemented(
    message = "a `check` returns `Result<(), E>` where `E` says why the call is refused \
               (`String`, `&str`, `ToolError` or any `Display`)",
    label = "returns `{Self}`"
)]
pub trait CheckOutput {
    /// The refusal's text, if any.
    fn into_refusal(self) -> Result<(), String>;
}

impl<E: Display> CheckOutput for Result<(), E> {
    fn into_refusal(self) -> Result<(), String> {
        self.map_err(|e| e.to_string())
    }
}

/// The answer of a tool's check.
pub fn check_result<T: CheckOutput>(result: T) -> Result<(), String> {
    result.into_refusal()
}
