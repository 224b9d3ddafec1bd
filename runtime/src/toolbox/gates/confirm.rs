//! Gate 10: the user confirms a call of a tool declared with `confirm` before anything runs,
//! and before the call takes its turn (`toolbox/confirm.rs` words the question and the
//! refusals). A stop tool is never confirmed.
//!
//! The places the call took in its resources' queues on arrival are given up while a person
//! decides (up to `CLIENT_ANSWER_LIMIT`): the calls behind it go on, and an approved call
//! queues from when it was approved. A stop tool that ran while the user decided voids the
//! approval: it came before the stop.

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::Value;

use super::Stop;
use crate::audit::{Approval, Confirmation, Receipt};
use crate::context::{AskedBy, Context, Round};
use crate::exec;
use crate::toolbox::call::{CallSite, Response};
use crate::toolbox::confirm::{self, Decision, NotClaimed};
use crate::toolbox::{Entry, Inner};

/// The question to ask, filled in from the validated arguments in their published units, when
/// the tool declares one, confirmation is on and it is not a stop tool.
#[inline]
pub(super) fn question<S>(inner: &Inner<S>, entry: &Entry<S>, value: &Value) -> Option<String> {
    let template = entry.meta.confirm?;
    if !entry.policy.stops.is_empty() || !inner.confirm.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    value
        .as_object()
        .map(|args| confirm::fill(template, args, &entry.tool.input_schema))
}

/// Asks `question` (when there is one): `Ok` with the approval claimed for the call (protocol
/// 2026-07-28), or the answer that nothing ran.
pub(super) async fn confirmed<S: Send + Sync + 'static>(
    inner: &Arc<Inner<S>>,
    entry: &Entry<S>,
    question: Option<String>,
    site: &mut CallSite,
    trace_id: &str,
    round: &Option<Arc<Round>>,
    receipt: &mut Option<Box<Receipt>>,
) -> Result<Option<String>, Stop> {
    let Some(question) = question else {
        return Ok(None);
    };
    site.arrival = None;
    let stops = entry.policy.stops();
    // Boxed: inline, its state would grow every call's future (`a_call_future_stays_small`).
    let claimed = Box::pin(ask(inner, entry, question, site, trace_id, round, receipt)).await?;
    // A stop tool ran while the user decided: the approval came before the stop.
    if let Some((queue, by)) = entry.policy.stopped_since(&stops) {
        let text = exec::messages::did_not_start(
            &entry.name,
            exec::messages::Why::Stopped(by),
            Some(queue.name()),
        );
        if let Some(receipt) = receipt {
            receipt.stopped_by(by);
        }
        return Err((
            "stopped",
            CallToolResult::error(vec![ContentBlock::text(text)]).into(),
        ));
    }
    Ok(claimed)
}

/// Asks the user: elicitation on protocol 2025-11-25, the call's round on 2026-07-28 (whose
/// approval is then claimed for this one call).
async fn ask<S: Send + Sync + 'static>(
    inner: &Inner<S>,
    entry: &Entry<S>,
    question: String,
    site: &CallSite,
    trace_id: &str,
    round: &Option<Arc<Round>>,
    receipt: &mut Option<Box<Receipt>>,
) -> Result<Option<String>, Stop> {
    let context = Context::new(
        Arc::clone(&entry.name),
        trace_id.to_owned(),
        site.link.clone(),
        None,
        Some(site.cancel.clone()),
        None,
        round.clone(),
    );
    let asked = async {
        match round {
            Some(round) => round.asked().await,
            None => std::future::pending().await,
        }
    };
    // What the person is shown, kept for the audit line of an approval.
    let shown = receipt.is_some().then(|| question.clone());
    let answer = tokio::select! {
        biased;
        answer = context.confirm(question) => answer,
        () = asked => {
            let round = round.as_ref().expect("only a round asks");
            if let Some(receipt) = receipt {
                receipt.confirmation(Confirmation::Asked);
            }
            if let Err(e) = asked_approval(inner, round).await {
                tracing::error!(error = %e, "question not recorded: Redis failed");
                return Err(unchecked(&entry.name));
            }
            return Err(("input_required", Response::InputRequired(Box::new(round.input_required()))));
        }
    };
    let (answer, asked_by) = match answer {
        Ok((answer, asked_by)) => (Ok(answer), Some(asked_by)),
        Err(e) => (Err(e), None),
    };
    let decision = Decision::of(answer);
    tracing::info!(decision = decision.as_str(), "confirmation");
    note_decision(decision.as_str());
    if let Some(receipt) = receipt {
        receipt.confirmation(match (&decision, asked_by, shown) {
            // An approval is written with the question shown and the answer's id, or not at all.
            (Decision::Accepted, Some(AskedBy { via, id }), Some(shown)) => {
                Confirmation::Accepted(Approval::of(&shown, via, id))
            }
            (Decision::Declined, ..) => Confirmation::Declined,
            (Decision::Cancelled, ..) => Confirmation::Cancelled,
            _ => Confirmation::NotAsked,
        });
    }
    if !matches!(decision, Decision::Accepted) {
        let resources: Vec<Arc<str>> = entry
            .policy
            .resources
            .iter()
            .map(|r| Arc::clone(r.queue.name()))
            .collect();
        let text = confirm::refusal(&entry.name, &resources, &decision, inner.config.confirm_off);
        return Err((
            "not_confirmed",
            CallToolResult::error(vec![ContentBlock::text(text)]).into(),
        ));
    }
    // On protocol 2026-07-28 the approval travels in the sealed state: one call each.
    let Some(round) = round else {
        return Ok(None);
    };
    // A stop tool ran since the call's first round: the approval given in it is void.
    if let Some((queue, by)) = entry
        .policy
        .queues
        .iter()
        .find_map(|q| q.stopped_after(round.born()).map(|by| (q, by)))
    {
        let text = format!(
            "cancelled by `{by}`: the user approved `{}` before `{by}` stopped `{}`, so the \
             approval no longer counts; it did not run. Call it again (without requestState) \
             only if it is still wanted: the user is asked again",
            entry.name,
            queue.name()
        );
        if let Some(receipt) = receipt {
            receipt.stopped_by(by);
        }
        return Err((
            "stopped",
            CallToolResult::error(vec![ContentBlock::text(text)]).into(),
        ));
    }
    let (id, expires) = round.id();
    let claimed = match claim_approval(
        inner,
        id,
        round.born(),
        round.presented(),
        expires,
        round.for_a_task(),
    )
    .await
    {
        Ok(claimed) => claimed,
        Err(e) => {
            tracing::error!(error = %e, "approval not checked: Redis failed");
            return Err(unchecked(&entry.name));
        }
    };
    match claimed {
        Ok(()) => Ok(Some(id.to_owned())),
        Err(NotClaimed::Used) => Err((
            "approval_reused",
            Response::Refused(Box::new(ErrorData::invalid_params(
                format!(
                    "requestState refused: the approval it carries was already used by a call \
                     of `{}` (an approval runs one call); nothing ran. Call again without \
                     requestState and inputResponses to ask the user again",
                    entry.name
                ),
                None,
            ))),
        )),
        Err(NotClaimed::Older) => Err((
            "approval_reused",
            Response::Refused(Box::new(ErrorData::invalid_params(
                format!(
                    "requestState refused: the approval it carries was given before this \
                     server's record of used approvals began (the server or its shared store \
                     restarted since), so whether it was already used cannot be known; nothing \
                     ran. Call `{}` again without requestState and inputResponses to ask the \
                     user again",
                    entry.name
                ),
                None,
            ))),
        )),
    }
}

/// Claims approval `id`, given in a call whose first round began at `born`, for one call: in
/// this process, or with Redis for every replica. A task's approval is claimed in the process
/// that runs the task: its answers never leave the server (no state to replay), and its
/// question may wait longer than a state lives.
async fn claim_approval<S>(
    inner: &Inner<S>,
    id: &str,
    born: std::time::SystemTime,
    presented: &str,
    expires: std::time::Instant,
    task: bool,
) -> Result<Result<(), NotClaimed>, String> {
    #[cfg(feature = "redis")]
    if let Some(redis) = inner.shared.get().filter(|_| !task) {
        let ttl = expires.saturating_duration_since(std::time::Instant::now());
        return redis.claim_approval(id, presented, ttl).await;
    }
    let _ = task;
    Ok(inner.approvals.claim(id, born, presented, expires))
}

/// Records, in the replicas' shared store, that the call's confirmation was asked: only an
/// approval whose question is on record there can be claimed (in one process, the record of
/// used approvals began when it started, [`Approvals`](crate::toolbox::confirm::Approvals)).
async fn asked_approval<S>(inner: &Inner<S>, round: &Round) -> Result<(), String> {
    #[cfg(feature = "redis")]
    if let Some(redis) = inner.shared.get()
        && !round.for_a_task()
    {
        let (id, expires) = round.id();
        let ttl = expires.saturating_duration_since(std::time::Instant::now());
        return redis.asked_approval(id, ttl).await;
    }
    let _ = (inner, round);
    Ok(())
}

/// The answer when the shared store could not check or record an approval: nothing ran.
fn unchecked(tool: &str) -> Stop {
    (
        "approval_unchecked",
        Response::Refused(Box::new(ErrorData::internal_error(
            format!(
                "the approval for `{tool}` could not be checked against the other replicas \
                 (their shared store failed); nothing ran. Call again in a moment"
            ),
            None,
        ))),
    )
}

/// Carries a claimed approval to the call's next round (the body asked its user too): the
/// state `state` that round's result carries, and no older state of the call, claims it again.
pub(in crate::toolbox) async fn carry_approval<S>(
    inner: &Inner<S>,
    id: &str,
    state: &str,
    expires: std::time::Instant,
    task: bool,
) {
    #[cfg(feature = "redis")]
    if let Some(redis) = inner.shared.get().filter(|_| !task) {
        let ttl = expires.saturating_duration_since(std::time::Instant::now());
        return redis.carry_approval(id, state, ttl).await;
    }
    let _ = task;
    inner.approvals.carry(id, state, expires);
}

/// The user's answer on the request's span (`toolwright.confirmation`; out of line, so as not
/// to grow the call's future).
#[inline(never)]
fn note_decision(decision: &'static str) {
    crate::telemetry::mcp::note(|| {
        vec![(
            "toolwright.confirmation",
            crate::telemetry::mcp::NoteValue::Text(decision.to_owned()),
        )]
    });
}
