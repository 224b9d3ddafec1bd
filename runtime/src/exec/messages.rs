//! What the model reads when a call ends early: each sentence says what really happened (a
//! stop is claimed only when one ran), what state the resources are in, and what to do next.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use super::policy::describe_duration;

/// Why the runtime told a call to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Why {
    /// Its deadline (the timeout) passed.
    Deadline(Duration),
    /// The client cancelled it or disconnected.
    Client,
    /// A stop tool (`#[tool(stop_for = "..")]`), named here, stopped its resource.
    Stopped(&'static str),
}

/// How the body ended after it was told to stop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ending {
    /// It returned within its grace period (`error`: what it said, when it returned an error).
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

/// One resource's safe stop, as it ran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SafeStopReport {
    /// The resource.
    pub resource: Arc<str>,
    /// What happened.
    pub outcome: StopOutcome,
}

fn resource_name(name: &str) -> String {
    format!("`{name}`")
}

fn stops_text(text: &mut String, stops: &[SafeStopReport]) {
    for stop in stops {
        let r = resource_name(&stop.resource);
        let _ = match &stop.outcome {
            StopOutcome::Done(Some(what)) => write!(text, " Safe stop of {r}: {what}."),
            StopOutcome::Done(None) => write!(text, " The safe stop of {r} ran."),
            StopOutcome::Failed(e) => write!(
                text,
                " The safe stop of {r} failed ({e}): its state is unknown."
            ),
            StopOutcome::TooLong(limit) => write!(
                text,
                " The safe stop of {r} did not finish within {}: its state is unknown.",
                describe_duration(*limit)
            ),
            StopOutcome::Undeclared => write!(
                text,
                " {r} has no safe stop: it is in whatever state the tool left it."
            ),
        };
    }
}

fn trim_period(s: &str) -> &str {
    s.trim_end().trim_end_matches('.')
}

/// A call the runtime told to stop (deadline or client), and how it ended. `reserved`: the
/// resources a still-running blocking body keeps until it returns.
pub(crate) fn ended_early(
    tool: &str,
    why: Why,
    ending: &Ending,
    stops: &[SafeStopReport],
    reserved: &[Arc<str>],
) -> String {
    let mut text = match why {
        Why::Deadline(t) => format!(
            "Tool `{tool}` did not finish within its {} deadline",
            describe_duration(t)
        ),
        Why::Client => format!(
            "Tool `{tool}` was cancelled by the client (or the client disconnected) before it \
             finished"
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
                None => write!(text, "."),
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
            &Ending::Abandoned {
                grace: Duration::from_secs(1),
            },
            &[],
            &[],
        );
        assert_eq!(
            text,
            "Tool `sense` was cancelled by the client (or the client disconnected) before it \
             finished; it was told to stop, did not return within its 1 s grace period, and was \
             abandoned (its code no longer runs). Its effects may be partial: check the current \
             state before trying again."
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
                },
            ],
        );
        assert_eq!(
            text,
            "Tool `grasp` failed with an internal error and did not complete: index out of \
             bounds. The safe stop of `arm` failed (driver offline): its state is unknown. The \
             safe stop of `gripper` did not finish within 10 s: its state is unknown. The server \
             is still running; do not retry with the same arguments."
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
