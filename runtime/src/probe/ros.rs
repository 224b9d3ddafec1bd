//! The ROS family's lookup traits (implemented in runtime/src/ros/mod.rs with the `ros` feature;
//! without it nothing implements them, and generated code imports them all the same, through
//! [`super::prelude`]).
//!
//! Implemented for `Probe<T>`, `Probe<Option<T>>`, `Probe<Vec<T>>` and `Probe<Result<T, E>>` with
//! `T: RosMessageType` on the impl: their `&self` methods are candidates at the first step of
//! method lookup on `&Probe<_>`, before `ParamOptional`/`ReturnResult` (`&&Probe`, the autoref
//! step) and `ParamPlain`/`ReturnPlain` (`Probe` by value, after the deref), and only for ROS types.

use serde_json::Value;

use crate::contract::{Args, CallError};
use crate::error::ToolError;
use crate::schema::TypeInfo;

use super::{AcceptsError, Marker};

/// A ROS message parameter, field or output.
pub trait RosPlain {
    /// The message type.
    type Message;
    /// Nothing to check: the family's own bounds say what a message needs.
    fn schema_marker(&self) -> Marker<()> {
        Marker::new()
    }
    /// A string `default` is refused by `value_json`'s type, not by this check.
    fn str_marker(&self) -> Marker<String> {
        Marker::new()
    }
    /// Nothing to check: the output is a message.
    fn output_marker(&self) -> Marker<()> {
        Marker::new()
    }
    /// No error type: `ToolError` itself.
    fn error_marker(&self) -> Marker<ToolError> {
        Marker::new()
    }
    /// The parameter's type information.
    fn type_info(&self) -> TypeInfo;
    /// The type information of a struct field.
    fn field_info(&self) -> TypeInfo;
    /// Takes the argument from a call.
    fn take_arg(&self, args: &mut Args, name: &str) -> Result<Self::Message, ()>;
    /// A declared `default` or example.
    fn value_json(&self, value: Self::Message) -> Value;
    /// The output's type information.
    fn output_info(&self) -> TypeInfo;
    /// Serializes a returned message.
    fn output_value(&self, ret: Self::Message) -> Result<Value, CallError>;
}

/// An optional ROS message parameter or field.
pub trait RosOptional {
    /// The message type.
    type Message;
    /// Nothing to check: the family's own bounds say what a message needs.
    fn schema_marker(&self) -> Marker<()> {
        Marker::new()
    }
    /// A string `default` is refused by `value_json`'s type, not by this check.
    fn str_marker(&self) -> Marker<String> {
        Marker::new()
    }
    /// The parameter's type information.
    fn type_info(&self) -> TypeInfo;
    /// The type information of a struct field.
    fn field_info(&self) -> TypeInfo;
    /// Takes the argument, if given.
    fn take_arg(&self, args: &mut Args, name: &str) -> Result<Option<Self::Message>, ()>;
    /// A declared `default` or example, typed as the message.
    fn value_json(&self, value: Self::Message) -> Value;
}

/// A list of ROS messages as a parameter, field or output.
pub trait RosList {
    /// The message type.
    type Message;
    /// Nothing to check: the family's own bounds say what a message needs.
    fn schema_marker(&self) -> Marker<()> {
        Marker::new()
    }
    /// A string `default` is refused by `value_json`'s type, not by this check.
    fn str_marker(&self) -> Marker<String> {
        Marker::new()
    }
    /// Nothing to check: the output is a message.
    fn output_marker(&self) -> Marker<()> {
        Marker::new()
    }
    /// No error type: `ToolError` itself.
    fn error_marker(&self) -> Marker<ToolError> {
        Marker::new()
    }
    /// The parameter's type information.
    fn type_info(&self) -> TypeInfo;
    /// The type information of a struct field.
    fn field_info(&self) -> TypeInfo;
    /// Takes the argument from a call.
    fn take_arg(&self, args: &mut Args, name: &str) -> Result<Vec<Self::Message>, ()>;
    /// A declared `default` or example.
    fn value_json(&self, value: Vec<Self::Message>) -> Value;
    /// The output's type information.
    fn output_info(&self) -> TypeInfo;
    /// Serializes the returned messages.
    fn output_value(&self, ret: Vec<Self::Message>) -> Result<Value, CallError>;
}

/// A ROS message output of a fallible tool.
pub trait RosResult {
    /// The message type.
    type Message;
    /// The error type.
    type Err;
    /// Nothing to check: the output is a message.
    fn output_marker(&self) -> Marker<()> {
        Marker::new()
    }
    /// The error type the checks name.
    fn error_marker(&self) -> Marker<Self::Err> {
        Marker::new()
    }
    /// The output's type information.
    fn output_info(&self) -> TypeInfo;
    /// Serializes the message, or makes the error an `isError` result.
    fn output_value(&self, ret: Result<Self::Message, Self::Err>) -> Result<Value, CallError>
    where
        ToolError: AcceptsError<Self::Err>;
}
