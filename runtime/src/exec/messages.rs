//! What the model reads when a call ends early: each sentence says what really happened (a
//! stop is claimed only when one ran), what state the resources are in, and what to do next.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use super::policy::describe_duration;
use crate::context::{CancelReason, Gone};

/// Why the runtime told a call to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Why {
    /// Its deadline (the timeout) passed.
    Deadline(Duration),
    /// The client cancelled it.
    Client,
    /// The client went away (how).
    Gone(Gone),
    /// The server is shutting down.
    Shutdown,
    /// A stop tool (`#[tool(stop_for = "..")]`), named here, stopped its resource.
    Stopped(&'static str),
}

impl Why {
    /// The outcome's name: the `tool_call` span's `outcome`, the audit line's `detail`.
    pub(crate) fn detail(self) -> &'static str {
        match self {
            Why::Deadline(_) => "timeout",
            Why::Client => "cancelled",
            Why::Gone(Gone::Lease(_)) => "lease_expired",
            Why::Gone(_) => "client_gone",
            Why::Shutdown => "shutdown",
            Why::Stopped(_) => "stopped",
        }
    }

    /// What the body's [`Context`](crate::Context) says.
    pub(crate) fn reason(self) -> CancelReason {
        match self {
            Why::Deadline(_) => CancelReason::Deadline,
            Why::Client => CancelReason::Client,
            Why::Gone(_) => CancelReason::ClientGone,
            Why::Shutdown => CancelReason::Shutdown,
            Why::Stopped(_) => CancelReason::Stopped,
        }
    }

    /// The stop tool, when one stopped the call.
    pub(crate) fn stopped_by(self) -> Option<&'static str> {
        match self {
            Why::Stopped(by) => Some(by),
            _ => None,
        }
    }
}

/// How a client went away, in words: "its connection closed".
fn gone_how(gone: Gone) -> String {
    match gone {
        Gone::Disconnected => "its connection closed".to_owned(),
        Gone::NotResumed(window) => format!(
            "its event stream dropped and was not resumed within {}",
            describe_duration(window)
        ),
        Gone::Lease(lease) => format!(
            "nobody asked after its task for {} (the task's lease)",
            describe_duration(lease)
        ),
    }
}

/// "5.1 s", "250 ms": a time a call waited, to a tenth of a second.
fn describe_wait(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{} ms", d.as_millis())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// How long a call waited for its turn before its body started, and what for (`None`: the
/// server's concurrency limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Waited<'a> {
    pub(crate) time: Duration,
    pub(crate) resource: Option<&'a str>,
}

/// How the body ended after it was told to stop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ending {
    /// It returned within its grace period (`error`: what it said, when it returned an error;
    /// `None`: it returned its result, which the answer carries after the text).
    Stopped {
        after: Duration,
        error: Option<String>,
    },
    /// An async body that did not return within its grace period: dropped, no longer runs.
    Abandoned { grace: Duration },
    /// A blocking body that did not return within its grace period: still running.
    StillRunning { grace: Duration },
}

/// What a resource's safe stop did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StopOutcome {
    /// It ran; with what it reported (where the arm halted, …).
    Done(Option<String>),
    /// It returned an error or panicked.
    Failed(String),
    /// It did not finish within the limit.
    TooLong(Duration),
    /// The resource declares none.
    Undeclared,
}

impl StopOutcome {
    /// Whether the resource is in a known state after it.
    pub(crate) fn succeeded(&self) -> bool {
        matches!(self, StopOutcome::Done(_))
    }

    /// What went wrong, in words ("failed (encoder offline)"), for one that did not succeed.
    pub(crate) fn failure(&self) -> String {
        match self {
            StopOutcome::Done(_) => "succeeded".to_owned(),
            StopOutcome::Failed(e) => format!("failed ({})", trim_period(e)),
            StopOutcome::TooLong(limit) => {
                format!("did not finish within {}", describe_duration(*limit))
            }
            StopOutcome::Undeclared => "is not declared".to_owned(),
        }
    }
}

/// One resource's safe stop, as it ran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SafeStopReport {
    /// The resource.
    pub resource: Arc<str>,
    /// What happened.
    pub outcome: StopOutcome,
    /// The stop tool that ran it (`None`: the call itself).
    pub by: Option<&'static str>,
}

fn resource_name(name: &str) -> String {
    format!("`{name}`")
}

fn stops_text(text: &mut String, stops: &[SafeStopReport]) {
    for stop in stops {
        let r = resource_name(&stop.resource);
        let ran = match stop.by {
            Some(by) => format!("The safe stop of {r}, run by `{by}`,"),
            None => format!("The safe stop of {r}"),
        };
        let unknown = format!(
            "its state is unknown, and calls that move {r} are refused until its safe stop \
             succeeds again"
        );
        let _ = match &stop.outcome {
            StopOutcome::Done(Some(what)) => match stop.by {
                Some(by) => write!(text, " Safe stop of {r}, run by `{by}`: {what}."),
                None => write!(text, " Safe stop of {r}: {what}."),
            },
            StopOutcome::Done(None) => match stop.by {
                Some(by) => write!(text, " `{by}` ran the safe stop of {r}."),
                None => write!(text, " The safe stop of {r} ran."),
            },
            StopOutcome::Failed(e) => {
                write!(text, " {ran} failed ({}): {unknown}.", trim_period(e))
            }
            StopOutcome::TooLong(limit) => write!(
                text,
                " {ran} did not finish within {}: {unknown}.",
                describe_duration(*limit)
            ),
            StopOutcome::Undeclared => write!(
                text,
                " {r} has no safe stop: it is in whatever state the tool left it."
            ),
        };
    }
}

/// A call's safe stops as its request span's `toolwright.safe_stop.*` attributes: whether one
/// ran (a stop tool's, reported to the call, included) and what they reported.
pub(crate) fn stop_notes(stops: &[SafeStopReport]) -> Vec<crate::telemetry::mcp::Note> {
    use crate::telemetry::mcp::NoteValue;
    let ran = stops
        .iter()
        .any(|s| !matches!(s.outcome, StopOutcome::Undeclared));
    let mut text = String::new();
    stops_text(&mut text, stops);
    vec![
        ("toolwright.safe_stop.ran", NoteValue::Flag(ran)),
        (
            "toolwright.safe_stop.report",
            NoteValue::Text(text.trim().to_owned()),
        ),
    ]
}

fn trim_period(s: &str) -> &str {
    s.trim_end().trim_end_matches('.')
}

/// A call the runtime told to stop (deadline, client, stop tool, shutdown), and how it ended.
/// `waited`: how long it waited for its turn (said of a deadline); `reserved`: the resources a
/// still-running blocking body keeps until it returns.
pub(crate) fn ended_early(
    tool: &str,
    why: Why,
    waited: Option<Waited<'_>>,
    ending: &Ending,
    stops: &[SafeStopReport],
    reserved: &[Arc<str>],
) -> String {
    let mut text = match why {
        Why::Deadline(t) => {
            let mut text = format!(
                "Tool `{tool}` did not finish within its {} deadline",
                describe_duration(t)
            );
            if let Some(waited) = waited {
                let _ = write!(
                    text,
                    " ({} of it went by waiting for {})",
                    describe_wait(waited.time),
                    match waited.resource {
                        Some(r) => format!("{}, which other calls were using", resource_name(r)),
                        None => "the server's concurrency limit".to_owned(),
                    }
                );
            }
            text
        }
        Why::Client => format!("Tool `{tool}` was cancelled by the client before it finished"),
        Why::Gone(gone) => format!(
            "Tool `{tool}` was stopped before it finished because its client went away ({})",
            gone_how(gone)
        ),
        Why::Shutdown => format!(
            "Tool `{tool}` was stopped before it finished because the server is shutting down"
        ),
        Why::Stopped(by) => format!("Tool `{tool}` was stopped by `{by}` before it finished"),
    };
    let _ = match ending {
        Ending::Stopped { after, error } => {
            let _ = write!(
                text,
                "; it was told to stop and returned {} later",
                describe_duration(*after)
            );
            match error {
                Some(e) => write!(text, ", saying: {}.", trim_period(e)),
                None => write!(text, " with the result that follows, which may be partial."),
            }
        }
        Ending::Abandoned { grace } => write!(
            text,
            "; it was told to stop, did not return within its {} grace period, and was \
             abandoned (its code no longer runs).",
            describe_duration(*grace)
        ),
        Ending::StillRunning { grace } => write!(
            text,
            "; it was told to stop and is still running after its {} grace period (its code \
             blocks a thread and cannot be interrupted).",
            describe_duration(*grace)
        ),
    };
    stops_text(&mut text, stops);
    if !reserved.is_empty() {
        let names: Vec<String> = reserved.iter().map(|r| resource_name(r)).collect();
        let _ = write!(
            text,
            " {} stay{} reserved until the call returns; calls that need {} wait.",
            names.join(" and "),
            if names.len() == 1 { "s" } else { "" },
            if names.len() == 1 { "it" } else { "them" }
        );
    }
    text.push_str(if stops.is_empty() {
        " Its effects may be partial: check the current state before trying again."
    } else {
        " Check the current state before trying again."
    });
    text
}

/// A body that panicked, and the safe stops that ran after it.
pub(crate) fn panicked(tool: &str, message: &str, stops: &[SafeStopReport]) -> String {
    let mut text = format!(
        "Tool `{tool}` failed with an internal error and did not complete: {}.",
        trim_period(message)
    );
    stops_text(&mut text, stops);
    text.push_str(" The server is still running; do not retry with the same arguments.");
    text
}

/// The deadline passed, or the client cancelled, before the call's turn came: it did not run.
/// `waiting_for`: the resource it was waiting for, or `None` for the server's concurrency limit.
pub(crate) fn did_not_start(tool: &str, why: Why, waiting_for: Option<&str>) -> String {
    let what = match waiting_for {
        Some(resource) => format!("{}, which other calls are using", resource_name(resource)),
        None => "the server's concurrency limit".to_owned(),
    };
    match why {
        Why::Deadline(t) => format!(
            "Tool `{tool}` timed out after {} while waiting for {what}; it did not run. Call it \
             again once they have finished.",
            describe_duration(t)
        ),
        Why::Client => format!(
            "Tool `{tool}` was cancelled by the client while waiting for {what}; it did not run."
        ),
        Why::Gone(gone) => format!(
            "Tool `{tool}` did not run: its client went away ({}) while it waited for {what}.",
            gone_how(gone)
        ),
        Why::Shutdown => format!(
            "Tool `{tool}` did not run: the server is shutting down, and it was waiting for \
             {what}."
        ),
        Why::Stopped(by) => {
            let moved = match waiting_for {
                Some(resource) => format!(", and {} did not move for it", resource_name(resource)),
                None => String::new(),
            };
            format!(
                "cancelled by `{by}`: `{tool}` was waiting for its turn and did not run{moved}. \
                 Call it again only if it is still wanted now that `{by}` stopped everything."
            )
        }
    }
}

/// A call refused because its resource's safe stop failed (at `since`, saying `first`) and,
/// run again before this call, did not succeed either (`again`).
pub(crate) fn faulted(tool: &str, resource: &str, since: &str, first: &str, again: &str) -> String {
    let r = resource_name(resource);
    format!(
        "Tool `{tool}` did not run, and {r} did not move: {r} refuses calls that move it since \
         its safe stop {first} at {since}, leaving it in an unknown state. Its safe stop was run \
         again before this call and {again}. Have someone check {r} and what stops it (the \
         device, its driver, its connection), then call again: each call first runs the safe \
         stop again and goes on only once it succeeds. Restarting the server also clears it."
    )
}

/// A full queue: refused at once.
pub(crate) fn queue_full(tool: &str, resource: &str, waiting: usize) -> String {
    format!(
        "Tool `{tool}` was not run: {waiting} call{s} {are} already waiting for {r} (the most it \
         queues) behind the one using it. Call it again once some have finished.",
        s = if waiting == 1 { "" } else { "s" },
        are = if waiting == 1 { "is" } else { "are" },
        r = resource_name(resource),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arm(outcome: StopOutcome) -> SafeStopReport {
        SafeStopReport {
            resource: Arc::from("arm"),
            outcome,
            by: None,
        }
    }

    #[test]
    fn a_stop_is_claimed_only_when_one_ran() {
        let stopped = Ending::Stopped {
            after: Duration::from_millis(12),
            error: Some("motion stopped at (1, 2, 3) mm.".into()),
        };
        assert_eq!(
            ended_early(
                "move",
                Why::Deadline(Duration::from_secs(30)),
                None,
                &stopped,
                &[arm(StopOutcome::Done(Some(
                    "halted at (1, 2, 3) mm".into()
                )))],
                &[]
            ),
            "Tool `move` did not finish within its 30 s deadline; it was told to stop and \
             returned 12 ms later, saying: motion stopped at (1, 2, 3) mm. Safe stop of `arm`: \
             halted at (1, 2, 3) mm. Check the current state before trying again."
        );
        let text = ended_early(
            "slow",
            Why::Deadline(Duration::from_secs(1)),
            None,
            &Ending::StillRunning {
                grace: Duration::from_millis(100),
            },
            &[arm(StopOutcome::Undeclared)],
            &[Arc::from("arm")],
        );
        assert_eq!(
            text,
            "Tool `slow` did not finish within its 1 s deadline; it was told to stop and is \
             still running after its 100 ms grace period (its code blocks a thread and cannot be \
             interrupted). `arm` has no safe stop: it is in whatever state the tool left it. \
             `arm` stays reserved until the call returns; calls that need it wait. Check the \
             current state before trying again."
        );
        assert!(!text.contains("was stopped"));
        let text = ended_early(
            "sense",
            Why::Client,
            None,
            &Ending::Abandoned {
                grace: Duration::from_secs(1),
            },
            &[],
            &[],
        );
        assert_eq!(
            text,
            "Tool `sense` was cancelled by the client before it finished; it was told to stop, \
             did not return within its 1 s grace period, and was abandoned (its code no longer \
             runs). Its effects may be partial: check the current state before trying again."
        );
    }

    #[test]
    fn failed_and_slow_safe_stops_say_the_state_is_unknown() {
        let text = panicked(
            "grasp",
            "index out of bounds.",
            &[
                arm(StopOutcome::Failed("driver offline".into())),
                SafeStopReport {
                    resource: Arc::from("gripper"),
                    outcome: StopOutcome::TooLong(Duration::from_secs(10)),
                    by: None,
                },
            ],
        );
        assert_eq!(
            text,
            "Tool `grasp` failed with an internal error and did not complete: index out of \
             bounds. The safe stop of `arm` failed (driver offline): its state is unknown, and \
             calls that move `arm` are refused until its safe stop succeeds again. The safe stop \
             of `gripper` did not finish within 10 s: its state is unknown, and calls that move \
             `gripper` are refused until its safe stop succeeds again. The server is still \
             running; do not retry with the same arguments."
        );
        assert_eq!(
            faulted(
                "move",
                "arm",
                "2026-12-01T17:05:09.123Z",
                &StopOutcome::Failed("driver offline.".into()).failure(),
                &StopOutcome::TooLong(Duration::from_secs(10)).failure(),
            ),
            "Tool `move` did not run, and `arm` did not move: `arm` refuses calls that move it \
             since its safe stop failed (driver offline) at 2026-12-01T17:05:09.123Z, leaving it \
             in an unknown state. Its safe stop was run again before this call and did not \
             finish within 10 s. Have someone check `arm` and what stops it (the device, its \
             driver, its connection), then call again: each call first runs the safe stop again \
             and goes on only once it succeeds. Restarting the server also clears it."
        );
    }

    #[test]
    fn each_way_a_call_is_told_to_stop_is_named() {
        let back = Ending::Stopped {
            after: Duration::from_millis(40),
            error: None,
        };
        let by_tool = SafeStopReport {
            by: Some("stop_arm"),
            ..arm(StopOutcome::Done(Some("halted at (1, 2, 3) mm".into())))
        };
        assert_eq!(
            ended_early(
                "move",
                Why::Stopped("stop_arm"),
                None,
                &back,
                &[by_tool],
                &[]
            ),
            "Tool `move` was stopped by `stop_arm` before it finished; it was told to stop and \
             returned 40 ms later with the result that follows, which may be partial. Safe stop \
             of `arm`, run by `stop_arm`: halted at (1, 2, 3) mm. Check the current state before \
             trying again."
        );
        let waited = Waited {
            time: Duration::from_millis(5_140),
            resource: Some("arm"),
        };
        assert!(
            ended_early(
                "move",
                Why::Deadline(Duration::from_secs(6)),
                Some(waited),
                &back,
                &[],
                &[]
            )
            .starts_with(
                "Tool `move` did not finish within its 6 s deadline (5.1 s of it went by waiting \
                 for `arm`, which other calls were using); it was told to stop"
            )
        );
        for (gone, how) in [
            (Gone::Disconnected, "its connection closed"),
            (
                Gone::NotResumed(Duration::from_secs(2)),
                "its event stream dropped and was not resumed within 2 s",
            ),
            (
                Gone::Lease(Duration::from_secs(10)),
                "nobody asked after its task for 10 s (the task's lease)",
            ),
        ] {
            assert!(
                ended_early("move", Why::Gone(gone), None, &back, &[], &[]).starts_with(&format!(
                    "Tool `move` was stopped before it finished because its client went away \
                     ({how}); it was told to stop"
                ))
            );
            assert_eq!(
                did_not_start("move", Why::Gone(gone), Some("arm")),
                format!(
                    "Tool `move` did not run: its client went away ({how}) while it waited for \
                     `arm`, which other calls are using."
                )
            );
        }
        assert!(
            ended_early("move", Why::Shutdown, None, &back, &[], &[]).starts_with(
                "Tool `move` was stopped before it finished because the server is shutting down;"
            )
        );
        let details: Vec<&str> = [
            Why::Deadline(Duration::ZERO),
            Why::Client,
            Why::Gone(Gone::Disconnected),
            Why::Gone(Gone::Lease(Duration::ZERO)),
            Why::Shutdown,
            Why::Stopped("stop_arm"),
        ]
        .iter()
        .map(|w| w.detail())
        .collect();
        assert_eq!(
            details,
            [
                "timeout",
                "cancelled",
                "client_gone",
                "lease_expired",
                "shutdown",
                "stopped"
            ]
        );
    }

    #[test]
    fn waiting_and_full_queues() {
        assert_eq!(
            did_not_start("move", Why::Deadline(Duration::from_secs(3)), Some("arm")),
            "Tool `move` timed out after 3 s while waiting for `arm`, which other calls are \
             using; it did not run. Call it again once they have finished."
        );
        assert_eq!(
            did_not_start("move", Why::Client, None),
            "Tool `move` was cancelled by the client while waiting for the server's concurrency \
             limit; it did not run."
        );
        assert_eq!(
            queue_full("move", "arm", 16),
            "Tool `move` was not run: 16 calls are already waiting for `arm` (the most it \
             queues) behind the one using it. Call it again once some have finished."
        );
        assert!(queue_full("move", "arm", 1).contains("1 call is already waiting"));
        assert_eq!(
            did_not_start("move", Why::Stopped("stop_arm"), Some("arm")),
            "cancelled by `stop_arm`: `move` was waiting for its turn and did not run, and `arm` \
             did not move for it. Call it again only if it is still wanted now that `stop_arm` \
             stopped everything."
        );
        assert!(
            ended_early(
                "move",
                Why::Stopped("stop_arm"),
                None,
                &Ending::Stopped {
                    after: Duration::from_millis(50),
                    error: None
                },
                &[],
                &[]
            )
            .starts_with("Tool `move` was stopped by `stop_arm` before it finished; it was told")
        );
    }
}
