//! Gate 5: where the call would move its resource (`#[tool(target = ..)]`, `path = ..`),
//! checked against the resource's envelope from where the resource is now, before the user is
//! asked: a target outside it, a straight segment that crosses a keep-out or is longer than
//! `max_step`. Read from the validated arguments in their published units (the envelope's), so
//! before `units`. The points are kept: the check runs again when the call gets its turn
//! (`Inner::execute`), since the motions ahead of it move the resource.

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::Value;

use super::Stop;
use crate::toolbox::target::{Points, Refused};
use crate::toolbox::{Entry, Inner};

/// The call's points when the tool has a target, or its refusal.
#[inline]
pub(super) fn within<S: Send + Sync + 'static>(
    inner: &Inner<S>,
    entry: &Entry<S>,
    value: &Value,
) -> Result<Option<Points>, Stop> {
    let Some(target) = &entry.target else {
        return Ok(None);
    };
    let Some(points) = target.points(value) else {
        return Err(refusal(entry, None));
    };
    let empty = serde_json::Map::new();
    match target.check(&inner.state, &points, value.as_object().unwrap_or(&empty)) {
        // What the check settles for the body is settled again at the call's turn.
        Ok(_) => Ok(Some(points)),
        Err(refused) => Err(refusal(entry, Some(refused))),
    }
}

/// The answer to a motion the envelope refuses (or whose points cannot be read: the validator
/// lets no such arguments through).
#[cold]
fn refusal<S>(entry: &Entry<S>, refusal: Option<Refused>) -> Stop {
    (
        "outside_envelope",
        CallToolResult::error(vec![ContentBlock::text(refusal_text(
            entry, refusal, false,
        ))])
        .into(),
    )
}

/// What the model is told of a motion the envelope refuses.
#[cold]
/// `at_turn`: found when the call got its turn (the resource had moved since it arrived, and
/// the user may have been asked).
pub(in crate::toolbox) fn refusal_text<S>(
    entry: &Entry<S>,
    refusal: Option<Refused>,
    at_turn: bool,
) -> String {
    match refusal {
        #[cfg(feature = "robot")]
        Some(Refused::Robot { resource, refusal }) => {
            tracing::info!(
                tool = &*entry.name,
                problem = refusal.code,
                at_turn,
                "refused by the robot's check"
            );
            let footer = if at_turn {
                format!(
                    "`{}` did not run: this was found when its turn came, from where the arm was \
                     then (the motions before it moved it). Nothing moved. Change the motion as \
                     above and call it again.",
                    entry.name
                )
            } else {
                format!(
                    "`{}` did not run: nothing moved, and the user was not asked. Change the \
                     motion as above and call it again.",
                    entry.name
                )
            };
            format!("Robot `{resource}`: {refusal}\n\n{footer}")
        }
        Some(Refused::Envelope(refusal)) => {
            let codes: Vec<&str> = refusal.problems().iter().map(|p| p.kind().code()).collect();
            tracing::info!(tool = &*entry.name, problems = ?codes, at_turn, "refused by the envelope");
            let footer = if at_turn {
                format!(
                    "`{}` did not run: this was found when its turn came, from where the \
                     resource was then (the motions before it moved it). Nothing moved. Change \
                     the motion as above and call it again.",
                    entry.name
                )
            } else {
                format!(
                    "`{}` did not run: nothing moved, and the user was not asked. Change the \
                     motion as above and call it again.",
                    entry.name
                )
            };
            refusal.for_tool(&entry.name, footer).to_string()
        }
        None => format!(
            "`{}` did not run: its target could not be read from the arguments; nothing moved",
            entry.name
        ),
    }
}
