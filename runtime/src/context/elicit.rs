//! Asking the user through the client (MCP elicitation, `elicitation/create`, form mode): a
//! typed form from a `#[derive(ToolSchema)]` type, its answer checked against the type's full
//! schema, and raw forms for what the derive does not produce.

use rmcp::model::{
    ClientResult, ElicitRequestParams, ElicitationAction, ElicitationSchema, JsonObject,
    ServerRequest,
};
use schemars::generate::Contract;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::client::{AskedBy, ClientError, Request, unexpected};
use super::{Context, form};
use crate::ToolSchema;
use crate::adapt::Adapter;
use crate::schema::{self, TypeInfo};
use crate::validate::{Coercion, Validator};

/// What the user answered to [`Context::elicit`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Elicitation<T> {
    /// The user filled in the form and submitted it: its content.
    Accepted(T),
    /// The user explicitly refused to answer (the work may go on without the answer).
    Declined,
    /// The user dismissed the form without choosing (closed it, pressed Escape).
    Cancelled,
}

impl<T> Elicitation<T> {
    /// The content, when the user accepted.
    pub fn accepted(self) -> Option<T> {
        match self {
            Elicitation::Accepted(value) => Some(value),
            Elicitation::Declined | Elicitation::Cancelled => None,
        }
    }
}

impl Context {
    /// Asks the user to fill in a form for `T` (MCP elicitation, form mode), with `message`
    /// saying why, and returns their answer.
    ///
    /// The form is `T`'s schema exactly as toolwright publishes a tool's input (field
    /// descriptions with their units, defaults, enum values and their meanings), cut down to
    /// what a form can show: `T` must be a struct whose fields are strings, numbers, integers,
    /// booleans, unit-only enums or lists of unit-only enums (a nested struct or a list of
    /// anything else is a [`ClientError::InvalidRequest`] naming the field). Keywords a form cannot
    /// state (`pattern`, exclusive bounds, `x-unit`, …) are left out of the form, but the
    /// accepted content is checked against the full schema before it becomes a `T`, so ranges
    /// and patterns still hold: a content that breaks them is a [`ClientError::InvalidAnswer`]
    /// listing each problem.
    ///
    /// Fails with a [`ClientError`] when the call was made in-process, when the client did not
    /// declare form elicitation, or when the call is told to stop before the user answers. On
    /// protocol 2026-07-28 the question goes out with the call's result and the body runs again
    /// with the answer (see [`Context`]); its key in `inputRequests` is `T`'s name in snake case
    /// (`Grip` → `grip`, a second one `grip_2`). A client may answer it up front, in the
    /// call's first `inputResponses` under that key: the answer is data the client gives, as
    /// it would when asked, never proof that a person saw the question. To have a call
    /// approved, declare `confirm` on the tool: its answer counts only as the answer to a
    /// question this server asked.
    ///
    /// ```rust,no_run
    /// # use toolwright::{Context, Elicitation, ToolError, ToolSchema, tool};
    /// /// How to pick the part up.
    /// #[derive(serde::Deserialize, ToolSchema)]
    /// struct Grip {
    ///     /// Grip force.
    ///     #[param(unit = "N", range = 5.0..=30.0, default = 15.0)]
    ///     force: f64,
    ///     /// Whether to go slowly.
    ///     careful: bool,
    /// }
    ///
    /// /// Pick up the part, asking the operator how.
    /// #[tool]
    /// async fn pick(ctx: Context) -> Result<String, ToolError> {
    ///     match ctx.elicit::<Grip>("The part is fragile: how should I grip it?").await? {
    ///         Elicitation::Accepted(grip) => Ok(format!("picked with {} N", grip.force)),
    ///         Elicitation::Declined | Elicitation::Cancelled => Ok("not picked".into()),
    ///     }
    /// }
    /// ```
    pub async fn elicit<T: ToolSchema + DeserializeOwned>(
        &self,
        message: impl Into<String>,
    ) -> Result<Elicitation<T>, ClientError> {
        let type_name = std::any::type_name::<T>();
        let mut generator = schema::generator(Contract::Deserialize);
        let full = schema::type_schema(&mut generator, TypeInfo::of::<T>(false))
            .map_err(|e| invalid(format!("`{type_name}`: {e}")))?;
        let form = form::form_schema(&full).map_err(|e| invalid(format!("`{type_name}`: {e}")))?;
        let key = super::input::key_of_type(type_name);
        let mut content = match self.ask(message.into(), form, &key).await?.0 {
            // An answer without content is an empty form: defaults fill it, or the required
            // fields are named as missing.
            Elicitation::Accepted(Value::Null) => Value::Object(serde_json::Map::new()),
            Elicitation::Accepted(content) => content,
            Elicitation::Declined => return Ok(Elicitation::Declined),
            Elicitation::Cancelled => return Ok(Elicitation::Cancelled),
        };
        let validator =
            Validator::compile(&full).map_err(|e| invalid(format!("`{type_name}`: {e}")))?;
        if let Err(violations) = validator.validate(&mut content, Coercion::Lax) {
            let problems: Vec<String> = violations.iter().map(ToString::to_string).collect();
            return Err(ClientError::InvalidAnswer(format!(
                "{} problem{} with the form's content: {}",
                problems.len(),
                if problems.len() == 1 { "" } else { "s" },
                problems.join("; ")
            )));
        }
        // As for a call's arguments: numbers in a declared unit become SI (uom), objects become
        // nalgebra's arrays.
        if let Some(adapter) =
            Adapter::compile(&full).map_err(|e| invalid(format!("`{type_name}`: {e}")))?
        {
            adapter.to_serde(&mut content).map_err(|path| {
                ClientError::InvalidAnswer(format!(
                    "{path}: is too large to convert to the unit the form's type works in"
                ))
            })?;
        }
        serde_json::from_value(content)
            .map(Elicitation::Accepted)
            .map_err(|e| ClientError::InvalidAnswer(e.to_string()))
    }

    /// Asks the user to fill in a form given as an elicitation `requestedSchema` (an object
    /// schema of primitive properties), for forms `#[derive(ToolSchema)]` does not produce:
    /// titled enums (`oneOf` of `const`/`title`), multi-selects with titles, `enumNames`.
    ///
    /// Returns the content as the client sent it (`Value::Null` if an accepted answer has
    /// none), unchecked. Fails like [`Context::elicit`], and with [`ClientError::InvalidRequest`] when
    /// `schema` is not a valid elicitation schema.
    pub async fn elicit_with_schema(
        &self,
        message: impl Into<String>,
        schema: JsonObject,
    ) -> Result<Elicitation<Value>, ClientError> {
        self.ask(message.into(), schema, "elicitation")
            .await
            .map(|(answer, _)| answer)
    }

    /// Asks the user to confirm `message` (a form without fields: accept, decline or cancel),
    /// for a tool declared with `confirm`, and how the question reached them. Its key in a round
    /// is `confirm`.
    pub(crate) async fn confirm(
        &self,
        message: String,
    ) -> Result<(Elicitation<Value>, AskedBy), ClientError> {
        let mut form = JsonObject::new();
        form.insert("type".into(), Value::from("object"));
        form.insert("properties".into(), Value::Object(serde_json::Map::new()));
        self.ask(message, form, "confirm").await
    }

    /// Sends the form and waits for the answer.
    async fn ask(
        &self,
        message: String,
        form: JsonObject,
        key: &str,
    ) -> Result<(Elicitation<Value>, AskedBy), ClientError> {
        let requested_schema = ElicitationSchema::from_json_schema(form)
            .map_err(|e| invalid(format!("the schema is not a valid elicitation form: {e}")))?;
        let link = self.link_for(Request::Elicitation)?;
        let params = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message,
            requested_schema,
        };
        let message = ServerRequest::ElicitRequest(rmcp::model::Request::new(params));
        let (result, asked_by) = match self.send(link, Request::Elicitation, message, key).await? {
            (ClientResult::ElicitResult(result), asked_by) => (result, asked_by),
            (other, _) => return Err(unexpected(&other)),
        };
        let answer = match result.action {
            ElicitationAction::Accept => {
                Elicitation::Accepted(result.content.unwrap_or(Value::Null))
            }
            ElicitationAction::Decline => Elicitation::Declined,
            ElicitationAction::Cancel => Elicitation::Cancelled,
            other => {
                return Err(ClientError::InvalidAnswer(format!(
                    "unknown action {other:?}"
                )));
            }
        };
        Ok((answer, asked_by))
    }
}

/// An elicitation the body cannot send as it made it.
fn invalid(problem: String) -> ClientError {
    ClientError::InvalidRequest {
        request: "elicitation",
        problem,
    }
}
