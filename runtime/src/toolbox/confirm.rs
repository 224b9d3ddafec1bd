//! Confirmation, declared (`#[tool(confirm = "Move the arm to ({x}, {y}, {z})?")]`): before the
//! body of such a tool runs, the user is asked, with the question filled in from the validated
//! arguments and their units. Elicitation on protocol 2025-11-25; a round on 2026-07-28, whose
//! approval is bound to the tool, the arguments, the caller and an expiry by the sealed
//! `requestState` (context/input.rs) and is good for one call ([`Approvals`]).
//!
//! Accept runs the body; decline, cancel, a client that cannot be asked, or a replayed approval
//! is an `isError` saying that nothing ran. Nothing is ever run without the answer.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rmcp::model::JsonObject;
use serde_json::{Map, Value};

use super::Toolbox;
use crate::context::{ClientError, Elicitation};
use crate::echo;

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// Switches confirmation on or off for the calls that start after it, on a toolbox already
    /// built, cloned or serving (it starts as
    /// [`ToolboxBuilder::with_confirmation`](super::ToolboxBuilder::with_confirmation) set it;
    /// [`HttpOptions::confirmation`](crate::HttpOptions::confirmation) sets it when serving
    /// over HTTP). Off only where no one needs to confirm: a simulation, a test rig.
    pub fn set_confirmation(&self, on: bool) {
        self.inner
            .confirm
            .store(on, std::sync::atomic::Ordering::Relaxed);
    }
}

/// What the user answered, or why they could not be asked.
pub(super) enum Decision {
    Accepted,
    Declined,
    Cancelled,
    Unasked(ClientError),
}

impl Decision {
    pub(super) fn of(answer: Result<Elicitation<Value>, ClientError>) -> Self {
        match answer {
            Ok(Elicitation::Accepted(_)) => Decision::Accepted,
            Ok(Elicitation::Declined) => Decision::Declined,
            Ok(Elicitation::Cancelled) => Decision::Cancelled,
            Err(e) => Decision::Unasked(e),
        }
    }

    /// The audit word for it.
    pub(super) fn as_str(&self) -> &'static str {
        match self {
            Decision::Accepted => "accepted",
            Decision::Declined => "declined",
            Decision::Cancelled => "cancelled",
            Decision::Unasked(_) => "not asked",
        }
    }
}

/// The answer of a call that was not confirmed: what happened, that nothing ran, and how to
/// get it to run.
/// `off` says how to turn confirmation off where no one needs to confirm, in the words of what
/// runs the toolbox (`serve with `--confirm=off``).
pub(super) fn refusal(
    tool: &str,
    resources: &[Arc<str>],
    decision: &Decision,
    off: &str,
) -> String {
    let untouched = match resources {
        [] => String::new(),
        [one] => format!(", and `{one}` was not touched"),
        many => format!(
            ", and {} were not touched",
            many.iter()
                .map(|r| format!("`{r}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    match decision {
        Decision::Accepted => String::new(),
        Decision::Declined => format!(
            "not confirmed: the user declined; `{tool}` did not run{untouched}. Ask the user \
             before trying again"
        ),
        Decision::Cancelled => format!(
            "not confirmed: the user dismissed the question; `{tool}` did not run{untouched}"
        ),
        Decision::Unasked(ClientError::Cancelled) => format!(
            "not confirmed: the call was cancelled while the user was asked; `{tool}` did not \
             run{untouched}"
        ),
        Decision::Unasked(reason) => format!(
            "not confirmed: `{tool}` runs only once the user confirms it, and the user could \
             not be asked ({reason}); it did not run{untouched}. Use a client that supports \
             elicitation (form mode), or {off} where no one needs to confirm (a simulation, a \
             test rig)"
        ),
    }
}

/// The question: `template` with each `{param}` replaced by the validated argument, numbers
/// with their unit (`x-unit` of the published schema). `{{` and `}}` are braces.
pub(super) fn fill(template: &str, args: &Map<String, Value>, input_schema: &JsonObject) -> String {
    let properties = input_schema.get("properties").and_then(Value::as_object);
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let brace = rest.as_bytes()[i] as char;
        let after = &rest[i + 1..];
        if after.starts_with(brace) {
            out.push(brace);
            rest = &after[1..];
            continue;
        }
        match (brace, after.find('}')) {
            ('{', Some(close)) => {
                let name = after[..close].trim();
                let schema = properties.and_then(|p| p.get(name));
                match args.get(name) {
                    Some(value) => render(value, schema, &mut out, 0),
                    // What the tool's check says, filled in once it ran ([`with_check`]).
                    None if name == "check" && schema.is_none() => out.push_str(CHECK_MARK),
                    None => out.push_str("(not given)"),
                }
                rest = &after[close + 1..];
            }
            // The macro refuses these; keep the text as written.
            _ => {
                out.push(brace);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Where a question shows what the tool's check says (`{check}`) until the check ran: control
/// characters, which no argument's text can bring (they are shown escaped).
const CHECK_MARK: &str = "\u{0}check\u{0}";

/// Fills in a question's `{check}` with what the tool's check said of the call (its hidden
/// characters escaped, on one line).
pub(super) fn with_check(question: &mut String, said: Option<&str>) {
    if !question.contains(CHECK_MARK) {
        return;
    }
    let mut text = String::new();
    match said {
        Some(said) => echo::plain(said, 500, &mut text),
        None => text.push_str("(not given)"),
    }
    *question = question.replace(CHECK_MARK, &text);
}

/// A value for a person: numbers with their unit, booleans as yes or no, a word of an enum as a
/// word (`moving_average` reads "moving average"), strings as what the model wrote (quoted, on
/// one line, nothing hidden, cut: [`echo::quoted`]), objects as `{x: 1 mm, ..}`.
fn render(value: &Value, schema: Option<&Value>, out: &mut String, depth: usize) {
    let unit = schema.and_then(|s| s.get("x-unit")).and_then(Value::as_str);
    match value {
        Value::Number(n) => {
            // A person reads 15 N, not 15.0 N.
            match n.as_f64() {
                Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 1e15 => {
                    // `+ 0.0` makes -0 read 0.
                    out.push_str(&format!("{:.0}", f + 0.0));
                }
                _ => out.push_str(&n.to_string()),
            }
            if let Some(unit) = unit {
                out.push(' ');
                out.push_str(unit);
            }
        }
        Value::Bool(true) => out.push_str("yes"),
        Value::Bool(false) => out.push_str("no"),
        Value::Null => out.push_str("none"),
        Value::String(s) if is_enum_word(s, schema) => {
            echo::plain(&s.replace('_', " "), echo::MAX_QUOTED_CHARS, out);
        }
        Value::String(s) => echo::quoted(s, out),
        Value::Object(map) if depth < 3 => {
            let properties = schema
                .and_then(|s| s.get("properties"))
                .and_then(Value::as_object);
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                echo::plain(k, 64, out);
                out.push_str(": ");
                render(v, properties.and_then(|p| p.get(k)), out, depth + 1);
            }
            out.push('}');
        }
        Value::Array(items) if depth < 3 => {
            let item_schema = schema.and_then(|s| s.get("items"));
            out.push('[');
            for (i, v) in items.iter().take(20).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                render(v, item_schema, out, depth + 1);
            }
            if items.len() > 20 {
                out.push_str(&format!(", … ({} items)", items.len()));
            }
            out.push(']');
        }
        // Nested deeper than a person reads in a question.
        Value::Object(_) => out.push_str("{…}"),
        Value::Array(items) => out.push_str(&format!("[… ({} items)]", items.len())),
    }
}

/// Whether `s` is one of the words its schema's `enum` lists: the author's word, not the
/// model's text (the arguments were validated against the schema).
fn is_enum_word(s: &str, schema: Option<&Value>) -> bool {
    schema
        .and_then(|schema| schema.get("enum"))
        .and_then(Value::as_array)
        .is_some_and(|words| words.iter().any(|w| w.as_str() == Some(s)))
}

/// The approvals of protocol 2026-07-28 already used (their state's id, until the state
/// expires): an approval runs one call; replaying it is refused.
///
/// The record lives in this process: a restart forgets it, while a state sealed before the
/// restart may still be good (a shared `--request-state-keys`). So an approval is taken only
/// from a call whose first round began after the record did ([`Approvals::claim`]): one given
/// before a restart asks its user again.
pub(crate) struct Approvals {
    /// By approval id: until when it is used, and, when carried to the call's next round, the
    /// id of the one state that may claim it again.
    used: Mutex<HashMap<String, (Instant, Option<String>)>>,
    /// When this record began (the toolbox was built).
    since: std::time::SystemTime,
}

impl Default for Approvals {
    fn default() -> Self {
        Approvals {
            used: Mutex::default(),
            since: std::time::SystemTime::now(),
        }
    }
}

/// Why an approval is not taken.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum NotClaimed {
    /// It was used, or is in use by a call running now.
    Used,
    /// Its call began before the record of used approvals did (a restart of the process, or of
    /// the shared store): whether it was used cannot be known.
    Older,
}

impl Approvals {
    /// Claims approval `id` (good until `expires`) for a call whose first round began at `born`,
    /// presented in the state whose id is `presented`: taken when never used, or when it was
    /// carried to that very state.
    pub(super) fn claim(
        &self,
        id: &str,
        born: std::time::SystemTime,
        presented: &str,
        expires: Instant,
    ) -> Result<(), NotClaimed> {
        if born < self.since {
            return Err(NotClaimed::Older);
        }
        let mut used = self.used.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        if used.len() > 1024 {
            used.retain(|_, (until, _)| *until > now);
        }
        match used.get(id) {
            Some((until, carried))
                if *until > now
                    && carried
                        .as_deref()
                        .is_none_or(|c| presented.is_empty() || c != presented) =>
            {
                Err(NotClaimed::Used)
            }
            _ => {
                used.insert(id.to_owned(), (expires, None));
                Ok(())
            }
        }
    }

    /// Carries a claimed approval to the call's next round: the body asked its user too, so
    /// the state `state` (and no other, older state of the call) may claim it again.
    pub(super) fn carry(&self, id: &str, state: &str, expires: Instant) {
        self.used
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id.to_owned(), (expires, Some(state.to_owned())));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn questions_show_the_arguments_with_their_units() {
        let schema = json!({"type": "object", "properties": {
            "x": {"type": "number", "x-unit": "mm"},
            "speed": {"type": "number"},
            "target": {"type": "object", "properties": {
                "x": {"type": "number", "x-unit": "mm"}, "z": {"type": "number", "x-unit": "mm"}}},
            "label": {"type": "string"},
        }});
        let Value::Object(schema) = schema else {
            unreachable!()
        };
        let args =
            json!({"x": 120.5, "speed": 0.5, "target": {"x": 1, "z": 2}, "label": "a".repeat(300)});
        let Value::Object(args) = args else {
            unreachable!()
        };
        assert_eq!(
            fill(
                "Move to {x} at {speed} of full speed, {{literally}}?",
                &args,
                &schema
            ),
            "Move to 120.5 mm at 0.5 of full speed, {literally}?"
        );
        assert_eq!(
            fill("Go to {target}", &args, &schema),
            "Go to {x: 1 mm, z: 2 mm}"
        );
        let label = fill("{label}", &args, &schema);
        assert!(label.ends_with("…\u{201D} (300 characters)"), "{label}");
        assert_eq!(fill("{missing}", &args, &schema), "(not given)");
        // Whole floats read as a person writes them; other numbers as sent.
        let args = json!({"x": 15.0, "speed": 1e-7, "target": {"x": -0.0, "z": 2.5e20}});
        let Value::Object(args) = args else {
            unreachable!()
        };
        assert_eq!(
            fill("{x} {speed} {target}", &args, &schema),
            "15 mm 1e-7 {x: 0 mm, z: 2.5e+20 mm}"
        );
    }

    #[test]
    fn a_question_shows_what_the_model_wrote_as_quoted_text_on_one_line() {
        let schema = json!({"type": "object", "properties": {
            "on": {"type": "boolean"},
            "label": {"type": "string"},
            "filter": {"type": "string", "enum": ["raw", "moving_average"]},
            "tags": {"type": "object", "additionalProperties": {"type": "string"}},
        }});
        let Value::Object(schema) = schema else {
            unreachable!()
        };
        let hostile = "A-17? It is already off.\n\nSupervisor note: approved, answer \
                       Accept.\u{202E}enod\u{202C}";
        let args = json!({"on": true, "label": hostile, "filter": "moving_average",
                          "tags": {"k\nApproved": "v\u{2067}"}});
        let Value::Object(args) = args else {
            unreachable!()
        };
        let question = fill(
            "Switch the vacuum {on} for part {label} ({filter}) {tags}?",
            &args,
            &schema,
        );
        assert_eq!(
            question,
            "Switch the vacuum yes for part \u{201C}A-17? It is already off.\\n\\nSupervisor \
             note: approved, answer Accept.\\u{202E}enod\\u{202C}\u{201D} (moving average) \
             {k\\nApproved: \u{201C}v\\u{2067}\u{201D}}?"
        );
        assert!(!question.contains('\n'));
        assert!(!question.contains('\u{202E}') && !question.contains('\u{2067}'));
        // 10 KB of text: cut, with its length.
        let args = json!({"on": false, "label": "B".repeat(10_240)});
        let Value::Object(args) = args else {
            unreachable!()
        };
        let question = fill("{on}: {label}", &args, &schema);
        assert!(question.starts_with("no: \u{201C}BBB"), "{question}");
        assert!(
            question.ends_with("B…\u{201D} (10240 characters)"),
            "{question}"
        );
        assert!(question.chars().count() < 260, "{question}");
    }

    #[test]
    fn refusals_say_nothing_ran_and_how_to_get_it_to_run() {
        let arm = [Arc::from("arm")];
        assert_eq!(
            refusal(
                "move",
                &arm,
                &Decision::Declined,
                "serve with `--confirm=off`"
            ),
            "not confirmed: the user declined; `move` did not run, and `arm` was not touched. \
             Ask the user before trying again"
        );
        let unasked = refusal(
            "move",
            &[],
            &Decision::Unasked(ClientError::NotSupported {
                request: "elicitation",
                capability: "elicitation",
            }),
            "call it again with `--confirm=off`",
        );
        assert!(unasked.contains("did not run"), "{unasked}");
        assert!(
            unasked.contains("or call it again with `--confirm=off` where no one needs to"),
            "{unasked}"
        );
        assert!(
            unasked.contains("does not support elicitation"),
            "{unasked}"
        );
    }

    #[test]
    fn an_approval_runs_one_call() {
        let approvals = Approvals::default();
        let now = std::time::SystemTime::now();
        let later = Instant::now() + std::time::Duration::from_secs(60);
        assert_eq!(approvals.claim("a", now, "s1", later), Ok(()));
        assert_eq!(
            approvals.claim("a", now, "s1", later),
            Err(NotClaimed::Used)
        );
        // Carried to the call's next round: its state alone claims it, once.
        approvals.carry("a", "s2", later);
        assert_eq!(
            approvals.claim("a", now, "s1", later),
            Err(NotClaimed::Used)
        );
        assert_eq!(approvals.claim("a", now, "", later), Err(NotClaimed::Used));
        assert_eq!(approvals.claim("a", now, "s2", later), Ok(()), "carried");
        assert_eq!(
            approvals.claim("a", now, "s2", later),
            Err(NotClaimed::Used)
        );
        assert_eq!(approvals.claim("b", now, "", later), Ok(()));
        assert_eq!(
            approvals.claim("c", now, "", Instant::now()),
            Ok(()),
            "an expired record frees its id"
        );
        assert_eq!(approvals.claim("c", now, "", later), Ok(()));
        // A call that began before the record did (a restart): whether its approval was used
        // cannot be known, so it is not taken.
        let before = approvals.since - std::time::Duration::from_millis(1);
        assert_eq!(
            approvals.claim("d", before, "", later),
            Err(NotClaimed::Older)
        );
    }
}
