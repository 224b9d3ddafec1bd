//! The gates a call passes before its body runs, in the order they run. Each gate is a function
//! in a file of its own; the order lives here, in [`Inner::admit`], and nowhere else.
//!
//! A gate either lets the call on (possibly with something it made for the gates after it) or
//! ends it with its answer, a [`Stop`]: the outcome's name (for the span and the audit line)
//! and what the client is told. A call a gate ends never ran its body, and gives back the places
//! it took in its resources' queues on arrival (they are dropped with its [`CallSite`]).
//!
//! | # | gate | ends the call when |
//! |---|---|---|
//! | 1 | [`task_required`] | the tool runs only as a task, and the request cannot be one |
//! | 2 | [`size`] | the arguments are larger than the limit (measured before they are read) |
//! | 3 | [`arguments`] | they do not match the published schema (all violations at once) |
//! | 4 | [`round`] | a 2026-07-28 retry brings a `requestState` not sealed for this call |
//! | 5 | [`envelope`] | its target or path leaves its resource's envelope (from where it is) |
//! | 6 | [`units`] | a value overflows the unit the body reads |
//! | 7 | [`describe`] | it is `describe_tool`: answered here |
//! | 8 | [`results`] | its result request (projection, summary) conflicts or does not compile |
//! | 9 | [`queue`] | its resource's queue was full when it arrived |
//! | 10 | [`rate`] | the tool's or the client's rate limit is spent |
//! | 11 | [`check`] | the tool's own check (`#[tool(check = ..)]`) refuses the arguments |
//! | 12 | [`confirm`] | the user did not confirm it (or a stop came while they decided) |
//! | 13 | [`task`] | it runs as a task: answered with the task |
//!
//! Everything that can refuse a call comes before the user is asked: a person is never asked
//! to confirm a motion that cannot run. The envelope and the check run again when the call
//! gets its turn (`Inner::execute`), from where the resource is then.
//!
//! What passes every gate is [`Ready`], which `Inner::execute` runs (`toolbox/call.rs`).

// A `Stop` is the call's whole answer (a `CallToolResult` is some 200 bytes), built once for a
// call that ends at a gate and moved out as it is: boxing it would add an allocation to every
// refusal and save nothing on the path of a call that passes (the gates are inlined into
// `admit`, whose future is measured by `a_call_future_stays_small`).
#![allow(clippy::result_large_err)]

mod arguments;
mod check;
mod confirm;
mod describe;
mod envelope;
mod queue;
mod rate;
mod results;
mod round;
mod size;
mod task;
mod task_required;
mod units;

use std::sync::Arc;

use rmcp::model::JsonObject;
use serde_json::{Map, Value};

use super::call::{CallSite, Response};
use super::{Entry, Inner};
use crate::audit::Receipt;
use crate::context::Round;
use crate::output::ResultRequest;

pub(super) use check::refusal_text as check_refusal;
pub(super) use confirm::carry_approval;
pub(super) use envelope::refusal_text as envelope_refusal;

/// A call ended at a gate: the outcome's name and the answer.
pub(super) type Stop = (&'static str, Response);

/// A call that passed every gate, its turn taken on arrival, ready for `Inner::execute`.
pub(super) struct Ready {
    /// The validated arguments, in the units the body reads, its result request taken out.
    pub(super) map: Map<String, Value>,
    /// What the call asks of its result (projection, summary).
    pub(super) request: ResultRequest,
    pub(super) site: CallSite,
    pub(super) trace_id: String,
    /// Protocol 2026-07-28: the call's questions and the answers it brought.
    pub(super) round: Option<Arc<Round>>,
    /// The approval claimed for this call (protocol 2026-07-28 with `confirm`).
    pub(super) claimed: Option<String>,
}

impl<S: Send + Sync + 'static> Inner<S> {
    /// Takes a call through every gate, in order (see the module's table): the call ready to
    /// run, or its answer.
    pub(super) async fn admit(
        this: &Arc<Self>,
        entry: &Entry<S>,
        arguments: Option<JsonObject>,
        mut site: CallSite,
        mut trace_id: String,
        receipt: &mut Option<Box<Receipt>>,
    ) -> Result<Ready, Stop> {
        task_required::refuse(entry, &site)?;
        size::within_limit(this, entry, arguments.as_ref())?;
        let mut value = arguments::validated(this, entry, arguments, receipt)?;
        let mut round = round::opened(this, entry, &value, &mut site)?;
        // The question and the points are read from the arguments in their published units.
        let mut question = confirm::question(this, entry, &value);
        site.points = envelope::within(this, entry, &value)?.map(Box::new);
        units::converted(entry, &mut value)?;
        let Value::Object(mut map) = value else {
            // The validator only accepts objects at the root.
            return Err(arguments::not_an_object(entry));
        };
        describe::answered(this, entry, &map)?;
        let mut request = results::requested(entry, &mut map).await?;
        queue::not_full(entry, &site)?;
        rate::within_limits(this, entry, &site).await?;
        let said = check::passed(this, entry, &map)?;
        if let Some(question) = &mut question {
            crate::toolbox::confirm::with_check(question, said.as_deref());
        }
        let mut claimed =
            confirm::confirmed(this, entry, question, &mut site, &trace_id, &round, receipt)
                .await?;
        if let Some(task) = task::started(
            this,
            entry,
            &mut map,
            &mut request,
            &mut site,
            &mut trace_id,
            &mut round,
            &mut claimed,
        )
        .await
        {
            return Err(task);
        }
        Ok(Ready {
            map,
            request,
            site,
            trace_id,
            round,
            claimed,
        })
    }
}
