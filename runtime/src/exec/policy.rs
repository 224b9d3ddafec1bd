//! Execution policy declared on a tool: deadlines, resource locks, a concurrency cap, retries,
//! cancellation and an output budget, declared next to the tool (the budget is applied in
//! [`crate::output::budget`]).

use std::sync::Arc;
use std::time::Duration;

use super::queue::ResourceQueue;
use crate::contract::{Position, SafeStop};
use crate::envelope::Envelope;

/// The grace period of tools that declare none: how long a body told to stop (deadline or
/// cancel) has to return before it is abandoned.
pub(crate) const DEFAULT_GRACE: Duration = Duration::from_secs(1);

/// The longest grace period of a call stopped because its client went away or the server is
/// shutting down: no one waits for its answer, and the device must not go on unsupervised.
pub(crate) const DEPARTURE_GRACE: Duration = Duration::from_secs(2);

/// The policy of one tool, resolved when the toolbox is built.
pub(crate) struct Policy<S> {
    /// Deadline for waiting for resources plus running (the tool's, else the toolbox's default).
    pub timeout: Option<Duration>,
    /// How long the body has to return once told to stop (the tool's, else the toolbox's
    /// default, else [`DEFAULT_GRACE`]).
    pub grace: Option<Duration>,
    /// The resources this tool uses, sorted by name (so calls needing several always queue for
    /// them in the same order and cannot wait for each other).
    pub resources: Arc<[Arc<Resource<S>>]>,
    /// Their queues, in the same order.
    pub queues: Vec<Arc<ResourceQueue>>,
    /// Extra attempts on timeout or on a retryable error.
    pub retry: u32,
    /// Largest result, in bytes of JSON, before it is cut.
    pub max_output_bytes: Option<usize>,
    /// A stop tool's (`stop_for = ".."`): the resources it stops, sorted by name.
    pub stops: Arc<[Arc<Resource<S>>]>,
    /// Whether its calls may move what they hold (it is not `read_only`): a resource whose safe
    /// stop failed refuses them until its safe stop succeeds again.
    pub moves: bool,
    /// Whether it holds a resource with a safe stop: once told to stop, the safe stop runs
    /// whatever the body returns.
    pub supervised: bool,
}

impl<S> Policy<S> {
    /// How many times each of its queues was stopped so far, for
    /// [`stopped_since`](Self::stopped_since).
    pub(crate) fn stops(&self) -> Vec<u64> {
        self.queues.iter().map(|q| q.stops()).collect()
    }

    /// The first of its queues a stop tool stopped since `stops` ([`stops`](Self::stops)) was
    /// counted, and that stop tool's name: an approval given before it no longer counts.
    pub(crate) fn stopped_since(&self, stops: &[u64]) -> Option<(&ResourceQueue, &'static str)> {
        self.queues
            .iter()
            .zip(stops)
            .find_map(|(q, n)| q.stopped_since(*n).map(|by| (&**q, by)))
    }
}

impl<S> Default for Policy<S> {
    fn default() -> Self {
        Self {
            timeout: None,
            grace: None,
            resources: Arc::from([]),
            queues: Vec::new(),
            retry: 0,
            max_output_bytes: None,
            stops: Arc::from([]),
            moves: true,
            supervised: false,
        }
    }
}

/// A resource tools share: its queue, and what brings it to a known state when a call holding
/// it is abandoned.
pub(crate) struct Resource<S> {
    pub queue: Arc<ResourceQueue>,
    pub safe_stop: Option<SafeStop<S>>,
    /// Where the resource is now (`position = ..`), in its envelope's frame and unit.
    pub position: Option<Position<S>>,
    /// Where it may go, as checked (the declared envelope, narrowed by the operator).
    pub envelope: Option<Arc<Envelope>>,
    /// The robot it is, when declared with `robot(..)`.
    #[cfg(feature = "robot")]
    pub robot: Option<Arc<Arm<S>>>,
}

/// A robot resource, built: the robot, its envelope in metres (the checked one), and where its
/// joints are.
#[cfg(feature = "robot")]
pub(crate) struct Arm<S> {
    pub robot: crate::robot::Robot,
    pub space: crate::robot::Space,
    pub joints: crate::contract::Joints<S>,
}

/// "3 s", "250 ms", "1.5 s", "2 min".
pub(crate) fn describe_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms.is_multiple_of(60_000) {
        format!("{} min", ms / 60_000)
    } else if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{} s", d.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_naturally() {
        assert_eq!(describe_duration(Duration::from_secs(3)), "3 s");
        assert_eq!(describe_duration(Duration::from_millis(250)), "250 ms");
        assert_eq!(describe_duration(Duration::from_millis(1500)), "1.5 s");
        assert_eq!(describe_duration(Duration::from_secs(120)), "2 min");
    }
}
