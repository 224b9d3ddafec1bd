//! A tool's results as published and answered: the payload (its type's schema, shaped by
//! [`OutputMode`]), what a tool opts into around it ([`ResultOptions`]: a `jmespath` projection,
//! `summary`, the over-budget envelope), the `outputSchema` that lists every shape a result can
//! take (`anyOf`, the payload first), and the check of every result against the payload's schema.

use std::sync::Arc;
use std::time::Instant;

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Map, Value};

use super::budget;
use super::projection::{self, Projection};
use super::summary;
use super::{OutputMode, SharedOutput};
use crate::contract::{OverBudget, ResultOptions, ToolMeta};
use crate::validate::{InvalidSchema, Validator, Violation};

/// What a call asked of its result, read from the arguments the tool's options inject.
#[derive(Debug, Default, Clone)]
pub(crate) enum Request {
    /// The whole result.
    #[default]
    Whole,
    /// The value a `jmespath` expression selects.
    Projection(Projection),
    /// `summary: true`.
    Summary,
}

/// Why a call's result arguments were refused before the tool ran.
pub(crate) enum Refused {
    /// Both `jmespath` and `summary`: an argument problem, refused like any other.
    Conflict(Violation),
    /// An expression that does not compile: the `_jmespath_error` envelope.
    Expression(Value),
}

/// An `outputSchema` as published (none for text and `()` results).
pub(crate) type Published = Option<Arc<Map<String, Value>>>;

/// A tool's results: how they are shaped, checked and answered.
#[derive(Debug)]
pub(crate) struct Results {
    mode: OutputMode,
    options: ResultOptions,
    /// The payload's schema, compiled, that results are checked against (none for text and
    /// `()`, which have no `outputSchema`).
    check: Option<Validator>,
    /// The payload's top-level keys as published, for the model to write an expression with.
    keys: Vec<String>,
    /// The payload's top-level list properties: what `summary` summarizes.
    lists: Vec<String>,
    /// The payload's schema as published, which an expression is checked against before the
    /// call runs (none for text and `()`).
    schema: Option<Value>,
    /// Whether the tool is declared `read_only`: only then may a result that could not be
    /// projected be replaced by the error (calling again changes nothing).
    read_only: bool,
}

impl Results {
    /// Results of a tool without options or checks (the `describe_tool` meta tool).
    pub(crate) fn plain(mode: OutputMode) -> Results {
        Results {
            mode,
            options: ResultOptions::default(),
            check: None,
            keys: Vec::new(),
            lists: Vec::new(),
            schema: None,
            read_only: true,
        }
    }

    /// A tool's results from its payload's shared schema and its options, and the
    /// `outputSchema` to publish; or the problems that stop the toolbox's build (an option the
    /// result's shape cannot honour), each naming the tool.
    pub(crate) fn new(
        (payload, mode): SharedOutput,
        meta: &ToolMeta,
    ) -> Result<(Results, Published), Vec<String>> {
        let tool = meta.name;
        let mut options = meta.results;
        let mut problems = Vec::new();
        let structured = matches!(mode, OutputMode::Structured | OutputMode::Wrapped);
        if options.projection_from_toolbox && !structured {
            options.projection = false;
        }
        let content = matches!(
            mode,
            OutputMode::Content(_) | OutputMode::WithContent { .. }
        );
        if content && meta.max_output_bytes.is_some() {
            problems.push(format!(
                "tool `{tool}`: `max_output_bytes` does not apply to content blocks (images, \
                 audio, resources are never cut): size them in the tool, and remove the budget"
            ));
        }
        if options.over_budget == OverBudget::Envelope
            && meta.read_only != Some(true)
            && meta.idempotent != Some(true)
        {
            problems.push(format!(
                "tool `{tool}`: `over_budget = \"envelope\"` is allowed only on `read_only` or \
                 `idempotent` tools (the result of a write would be lost)"
            ));
        }
        let returns = match mode {
            OutputMode::Text => "text (a `String`)",
            OutputMode::Unit => "nothing (`()`)",
            _ => "content blocks (images, audio, resources)",
        };
        for (on, key) in [
            (options.projection, "`projection`"),
            (options.summary, "`summary`"),
            (
                options.over_budget == OverBudget::Envelope,
                "`over_budget = \"envelope\"`",
            ),
        ] {
            if on && !structured {
                problems.push(format!(
                    "tool `{tool}`: {key} needs a structured result (an object or a list), and \
                     the tool returns {returns}"
                ));
            }
        }
        let payload_value = payload.as_deref().map(|m| Value::Object(m.clone()));
        let summary_branch = payload_value.as_ref().and_then(summary::branch);
        if options.summary && structured && summary_branch.is_none() {
            problems.push(format!(
                "tool `{tool}`: `summary` shows the lists at the top of a result as counts and \
                 samples, and this tool's result has none; remove `summary`"
            ));
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let check = payload_value
            .as_ref()
            .map(Validator::compile)
            .transpose()
            .map_err(|e: InvalidSchema| {
                vec![format!(
                    "tool `{tool}`: output schema cannot be checked: {e}"
                )]
            })?;
        let keys = payload_value
            .as_ref()
            .and_then(|p| p.get("properties"))
            .and_then(Value::as_object)
            .map(|props| props.keys().cloned().collect())
            .unwrap_or_default();
        let lists = payload_value
            .as_ref()
            .map(summary::list_properties)
            .unwrap_or_default();
        let mut branches = Vec::new();
        if options.projection {
            branches.extend(projection::branches());
        }
        if options.summary {
            branches.extend(summary_branch);
        }
        if options.over_budget == OverBudget::Envelope {
            branches.push(budget::branch());
        }
        let published = match payload {
            Some(payload) if !branches.is_empty() => {
                branches.insert(0, Value::Object(Arc::unwrap_or_clone(payload)));
                let mut schema = Map::new();
                schema.insert("type".into(), Value::from("object"));
                schema.insert("anyOf".into(), Value::Array(branches));
                Some(Arc::new(schema))
            }
            shared => shared,
        };
        let results = Results {
            mode,
            options,
            check,
            keys,
            lists,
            schema: payload_value.filter(|_| options.projection),
            read_only: meta.read_only == Some(true),
        };
        Ok((results, published))
    }

    /// The arguments the tool's options add to its input schema: (name, schema), each
    /// described for the model.
    pub(crate) fn arguments(&self) -> Vec<(String, Value)> {
        let mut arguments = Vec::new();
        let list = |names: &[String]| {
            names
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if self.options.projection {
            let mut description = projection::DESCRIPTION.to_owned();
            if !self.keys.is_empty() {
                description.push_str(&format!(
                    " Top-level keys of this tool's result: {}.",
                    list(&self.keys)
                ));
            }
            arguments.push((
                projection::ARGUMENT.to_owned(),
                projection::argument_schema(description),
            ));
        }
        if self.options.summary {
            let description = format!(
                "{} Lists in this tool's result: {}.",
                summary::DESCRIPTION,
                list(&self.lists)
            );
            arguments.push((
                summary::ARGUMENT.to_owned(),
                summary::argument_schema(description),
            ));
        }
        arguments
    }

    /// What content blocks the tool returns, if it returns any.
    pub(crate) fn content_kind(&self) -> Option<crate::content::ContentKind> {
        match self.mode {
            OutputMode::Content(kind) => Some(kind),
            OutputMode::WithContent { .. } => Some(crate::content::ContentKind::Mixed),
            _ => None,
        }
    }

    /// The names of the arguments the options add (`jmespath`, `summary`).
    pub(crate) fn argument_names(&self) -> Vec<&'static str> {
        let mut names = Vec::new();
        if self.options.projection {
            names.push(projection::ARGUMENT);
        }
        if self.options.summary {
            names.push(summary::ARGUMENT);
        }
        names
    }

    /// Takes the result arguments out of a call's validated arguments (they never reach the
    /// body) and compiles the expression, before the tool runs.
    pub(crate) async fn take_request(
        &self,
        map: &mut Map<String, Value>,
    ) -> Result<Request, Refused> {
        if !self.options.projection && !self.options.summary {
            return Ok(Request::Whole);
        }
        let expression = if self.options.projection {
            map.shift_remove(projection::ARGUMENT)
        } else {
            None
        };
        let summary = self.options.summary
            && map
                .shift_remove(summary::ARGUMENT)
                .is_some_and(|v| v == Value::Bool(true));
        match (expression, summary) {
            (Some(Value::String(_)), true) => Err(Refused::Conflict(Violation {
                path: summary::ARGUMENT.to_owned(),
                message: format!("cannot be combined with `{}`", projection::ARGUMENT),
                hint: Some(format!(
                    "send either `{}` (to select part of the result) or `summary: true` (to see \
                     its lists as counts and samples)",
                    projection::ARGUMENT
                )),
            })),
            (Some(Value::String(expression)), false) => {
                // Compiled, and checked against the result's schema, before anything runs.
                let checked = Projection::compile(&expression).await.and_then(|p| {
                    match self.schema.as_ref().and_then(|s| p.check_against(s)) {
                        Some(problem) => Err(format!(
                            "the expression cannot apply to any result of this tool: {problem}"
                        )),
                        None => Ok(p),
                    }
                });
                match checked {
                    Ok(p) => Ok(Request::Projection(p)),
                    Err(message) => Err(Refused::Expression(projection::error_envelope(
                        &message,
                        &expression,
                        &self.keys,
                        false,
                    ))),
                }
            }
            (_, true) => Ok(Request::Summary),
            (_, false) => Ok(Request::Whole),
        }
    }

    /// The result of a successful call: checked against the payload's schema when `check` is
    /// on, then projected or summarized as asked, then held to the tool's budget. A projection
    /// not done by `answer_by` (the call's deadline) is answered as a failed expression.
    pub(crate) async fn answer(
        &self,
        tool: &str,
        value: Value,
        request: Request,
        budget: Option<usize>,
        check: bool,
        answer_by: Option<Instant>,
    ) -> CallToolResult {
        if let OutputMode::Content(_) | OutputMode::WithContent { .. } = self.mode {
            // Blocks are neither projected, summarized nor cut: a tool returning images sizes them.
            return self.answer_content(tool, value, check);
        }
        let mut payload = self.mode.payload(value);
        if check
            && let Some(validator) = &self.check
            && let Err(violations) = validator.check_output(&mut payload)
        {
            return broken_output(tool, &violations);
        }
        let (structured, projected) = match request {
            Request::Whole => match self.mode {
                OutputMode::Structured | OutputMode::Wrapped => (payload, false),
                _ => return budget::hold_text(self.mode.result_of(payload), budget),
            },
            Request::Projection(p) => {
                let keys: Vec<String> = payload
                    .as_object()
                    .map(|m| m.keys().cloned().collect())
                    .unwrap_or_default();
                // A tool that is not read-only keeps its result: the projection's error is
                // answered beside it, never as a reason to run the tool again.
                let kept = (!self.read_only).then(|| payload.clone());
                match p.apply(payload, answer_by).await {
                    Ok(value) => (projection::wrap(value), true),
                    Err(message) => match kept {
                        Some(payload) => {
                            tracing::info!(tool, %message, "a projection failed after the tool ran: its whole result is answered");
                            let note = projection::failed_beside(tool, &message, p.as_str());
                            let mut result = match budget {
                                Some(budget) => budget::cut_structured(payload, budget, false),
                                None => budget::structured_result(payload, false),
                            };
                            result.content.push(ContentBlock::text(note));
                            return result;
                        }
                        None => {
                            let envelope =
                                projection::error_envelope(&message, p.as_str(), &keys, true);
                            return CallToolResult::structured(envelope);
                        }
                    },
                }
            }
            Request::Summary => (summary::summarize(payload, &self.lists), false),
        };
        let Some(budget) = budget else {
            return budget::structured_result(structured, projected);
        };
        match self.options.over_budget {
            OverBudget::Cut => budget::cut_structured(structured, budget, projected),
            OverBudget::Envelope => {
                let actual = budget::size(&structured);
                if actual <= budget {
                    return budget::structured_result(structured, projected);
                }
                CallToolResult::structured(budget::envelope(
                    budget,
                    actual,
                    &self.argument_names(),
                    &self.keys,
                ))
            }
        }
    }
}

impl Results {
    /// The result of a tool returning content blocks: the blocks in order, after the structured
    /// value's JSON for `WithContent<T>` (checked like any structured result).
    fn answer_content(&self, tool: &str, value: Value, check: bool) -> CallToolResult {
        let (structured, blocks) = match (self.mode, value) {
            (OutputMode::WithContent { .. }, Value::Object(mut map)) => {
                let value = map.remove("value").unwrap_or_default();
                let blocks = map.remove("content").unwrap_or_default();
                (Some(self.mode.payload(value)), blocks)
            }
            // `WithContent` of a text (or of nothing): the text first.
            (_, Value::Object(mut map))
                if map.contains_key("content") && !map.contains_key("type") =>
            {
                let mut blocks = match map.remove("content") {
                    Some(Value::Array(blocks)) => blocks,
                    _ => Vec::new(),
                };
                if let Some(Value::String(text)) = map.remove("value") {
                    blocks.insert(0, serde_json::json!({"type": "text", "text": text}));
                }
                (None, Value::Array(blocks))
            }
            (_, one @ Value::Object(_)) => (None, Value::Array(vec![one])),
            (_, many) => (None, many),
        };
        let blocks: Vec<ContentBlock> = match serde_json::from_value(blocks) {
            Ok(blocks) => blocks,
            Err(e) => {
                return broken_output(
                    tool,
                    &[Violation {
                        path: String::new(),
                        message: format!("not MCP content blocks: {e}"),
                        hint: None,
                    }],
                );
            }
        };
        let Some(mut payload) = structured else {
            return CallToolResult::success(blocks);
        };
        if check
            && let Some(validator) = &self.check
            && let Err(violations) = validator.check_output(&mut payload)
        {
            return broken_output(tool, &violations);
        }
        let mut result = CallToolResult::structured(payload);
        result.content.extend(blocks);
        result
    }
}

/// A published `outputSchema` split into the result's own shape and the keys its envelope
/// branches require (`projection`, `_jmespath_error`, `summary`, `_budget_exceeded`, in that
/// order); `None` for a schema without result options.
pub(crate) fn split_published(schema: &Map<String, Value>) -> Option<(&Value, Vec<&str>)> {
    let known = [
        projection::PROJECTION_KEY,
        projection::ERROR_KEY,
        summary::KEY,
        budget::EXCEEDED_KEY,
    ];
    let branches = schema.get("anyOf")?.as_array()?;
    let (payload, envelopes) = branches.split_first()?;
    let keys = envelopes
        .iter()
        .map(|b| {
            b.get("required")?
                .get(0)?
                .as_str()
                .filter(|k| known.contains(k))
        })
        .collect::<Option<Vec<&str>>>()?;
    (!keys.is_empty()).then_some((payload, keys))
}

/// The most problems a broken-output report lists.
const MAX_LISTED: usize = 5;

/// The `isError` result for a result that breaks the tool's own `outputSchema`: a bug in the
/// tool, reported as such (to the model and in the log) and never sent on as if valid.
#[cold]
fn broken_output(tool: &str, violations: &[Violation]) -> CallToolResult {
    let listed: Vec<String> = violations
        .iter()
        .take(MAX_LISTED)
        .map(|v| {
            let path = if v.path.is_empty() { "result" } else { &v.path };
            let mut line = format!("{path}: {}", v.message);
            if line.len() > 300 {
                let mut end = 297;
                while !line.is_char_boundary(end) {
                    end -= 1;
                }
                line.truncate(end);
                line.push('…');
            }
            line
        })
        .collect();
    tracing::error!(
        tool,
        problems = violations.len(),
        first = %listed.first().map_or("", String::as_str),
        "a tool returned a result that does not match its outputSchema"
    );
    let more = match violations.len().saturating_sub(MAX_LISTED) {
        0 => String::new(),
        n => format!("\n- … and {n} more"),
    };
    let text = format!(
        "Tool `{tool}` produced a result that does not match its published outputSchema, so it \
         was not sent. This is a bug in the tool, not in the call; retrying will not help, \
         report it to the tool's developer. Problems:\n- {}{more}",
        listed.join("\n- ")
    );
    CallToolResult::error(vec![ContentBlock::text(text)])
}
