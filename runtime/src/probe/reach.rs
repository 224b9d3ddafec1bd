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

/// What a check may return: `Ok(())`, or an error whose text the model is told; or
/// `Ok(String)`, what the user is told of the call when asked to confirm it (the question's
/// `{check}`).
#[diagnostic::on_unimplemented(
    message = "a `check` returns `Result<(), E>` where `E` says why the call is refused \
               (`String`, `&str`, `ToolError` or any `Display`), or `Result<String, E>` whose \
               text the confirmation question shows as `{{check}}`",
    label = "returns `{Self}`"
)]
pub trait CheckOutput {
    /// The refusal's text, or what the question shows.
    fn into_refusal(self) -> crate::contract::CheckResult;
}

impl<E: Display> CheckOutput for Result<(), E> {
    fn into_refusal(self) -> crate::contract::CheckResult {
        self.map(|()| None).map_err(|e| e.to_string())
    }
}

impl<E: Display> CheckOutput for Result<String, E> {
    fn into_refusal(self) -> crate::contract::CheckResult {
        self.map(Some).map_err(|e| e.to_string())
    }
}

/// What a check returns when its tool's question shows it (`{check}`): the text shown.
#[diagnostic::on_unimplemented(
    message = "the tool's confirmation question shows `{{check}}`, so its check returns \
               `Result<String, E>`: the text the question shows there, or why the call is refused",
    label = "returns `{Self}`"
)]
pub trait CheckNote: CheckOutput {}

impl<E: Display> CheckNote for Result<String, E> {}

/// The answer of a tool's check.
pub fn check_result<T: CheckOutput>(result: T) -> crate::contract::CheckResult {
    result.into_refusal()
}

/// The answer of a tool's check whose text its question shows (`{check}`).
pub fn check_note<T: CheckNote>(result: T) -> crate::contract::CheckResult {
    result.into_refusal()
}
