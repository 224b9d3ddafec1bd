//! What generated code calls for envelopes and checks: a resource's position
//! (`#[toolbox(resource(.., position = tool_point))]`) read from what the method returns, and a
//! tool's check (`#[tool(check = ..)]`) given its arguments and answered. Generated code calls
//! these traits' methods by path with the type inferred (`<_ as IntoPosition>::into_position`),
//! so an unsatisfied bound is the trait's own, reported at the user's token.

use std::fmt::Display;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// What a `position` method may return: where the resource is, `[x, y, z]` in its envelope's
/// frame and unit, or `None` when it does not know.
#[diagnostic::on_unimplemented(
    message = "a `position` method returns where the resource is, not a `{Self}`",
    label = "returns `{Self}`",
    note = "return `[f64; 3]`, `(f64, f64, f64)`, a nalgebra `Point3<f64>` (feature `nalgebra`), or an `Option` of one of them (`None`: not known), in the envelope's frame and unit"
)]
pub trait IntoPosition {
    /// The position, `[x, y, z]`.
    fn into_position(self) -> Option<[f64; 3]>;
}

#[diagnostic::do_not_recommend]
impl IntoPosition for [f64; 3] {
    fn into_position(self) -> Option<[f64; 3]> {
        Some(self)
    }
}

#[diagnostic::do_not_recommend]
impl IntoPosition for (f64, f64, f64) {
    fn into_position(self) -> Option<[f64; 3]> {
        Some([self.0, self.1, self.2])
    }
}

#[diagnostic::do_not_recommend]
impl<T: IntoPosition> IntoPosition for Option<T> {
    fn into_position(self) -> Option<[f64; 3]> {
        self.and_then(IntoPosition::into_position)
    }
}

#[cfg(feature = "nalgebra")]
#[diagnostic::do_not_recommend]
impl IntoPosition for nalgebra::Point3<f64> {
    fn into_position(self) -> Option<[f64; 3]> {
        Some([self.x, self.y, self.z])
    }
}

/// A parameter of a tool's check: the tool's parameter of the same name, read from the
/// validated arguments as the tool's type `T` and converted into the check's (the same type, or
/// a conversion the author declared with `From<T>`). Generated code requires it at the check's
/// parameter type.
#[diagnostic::on_unimplemented(
    message = "this parameter of the check is a `{Self}`, but the tool's parameter of that name is a `{T}`",
    label = "write `{T}` here",
    note = "a check reads the validated arguments the tool is called with, so it takes each parameter with the tool's type (or a type implementing `From<{T}>`): another type would refuse values the tool accepts, or lose precision"
)]
pub trait CheckArgument<T>: Sized {
    /// Argument `name` of a call (an absent optional argument reads as `null`).
    fn read(args: &Map<String, Value>, name: &str) -> Result<Self, String>;
}

#[diagnostic::do_not_recommend]
impl<T: DeserializeOwned, C: From<T>> CheckArgument<T> for C {
    fn read(args: &Map<String, Value>, name: &str) -> Result<C, String> {
        T::deserialize(args.get(name).unwrap_or(&Value::Null))
            .map(C::from)
            .map_err(|e| format!("`{name}` could not be read for the tool's check: {e}"))
    }
}

/// What a check may return: `Ok(())`, or an error whose text the model is told; or
/// `Ok(String)`, what the user is told of the call when asked to confirm it (the question's
/// `{check}`).
#[diagnostic::on_unimplemented(
    message = "a `check` returns `Result<(), E>` or `Result<String, E>`, not a `{Self}`",
    label = "returns `{Self}`",
    note = "return `Ok(())` to let the call through (or `Ok(text)`, which the confirmation question shows as `{{check}}`), or `Err(why)` with a `String`, a `&str`, a `ToolError` or any `Display` saying why the call is refused: the model is told it"
)]
pub trait CheckOutput {
    /// The refusal's text, or what the question shows.
    fn into_refusal(self) -> crate::contract::CheckResult;
}

#[diagnostic::do_not_recommend]
impl<E: Display> CheckOutput for Result<(), E> {
    fn into_refusal(self) -> crate::contract::CheckResult {
        self.map(|()| None).map_err(|e| e.to_string())
    }
}

#[diagnostic::do_not_recommend]
impl<E: Display> CheckOutput for Result<String, E> {
    fn into_refusal(self) -> crate::contract::CheckResult {
        self.map(Some).map_err(|e| e.to_string())
    }
}

/// What a check returns when its tool's question shows it (`{check}`): the text shown.
#[diagnostic::on_unimplemented(
    message = "the tool's confirmation question shows `{{check}}`, so its check returns `Result<String, E>`, not a `{Self}`",
    label = "returns `{Self}`",
    note = "return `Ok(text)`, the text the question shows as `{{check}}` (what will happen: how far, how long), or `Err(why)` saying why the call is refused; or remove `{{check}}` from the question"
)]
pub trait CheckNote: CheckOutput + Sized {
    /// What the question shows, or the refusal's text.
    fn into_note(self) -> crate::contract::CheckResult {
        self.into_refusal()
    }
}

#[diagnostic::do_not_recommend]
impl<E: Display> CheckNote for Result<String, E> {}
