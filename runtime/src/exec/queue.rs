//! Fair, bounded queues for the resources tools declare (`resource = "arm"`): calls sharing a
//! resource run one at a time, in the order the server received them, and a call arriving when
//! the queue is full is refused at once.
//!
//! A call takes its place ([`Ticket`]) when it arrives, before anything else happens to it (the
//! transport stamps each `tools/call` as it reads it, see `arrival.rs`), so the order does not
//! depend on how the async runtime happens to schedule the calls' tasks. Its turn comes when
//! every ticket before it is gone; dropping a ticket (the call finished, failed validation or
//! was abandoned) hands the resource to the next one.
//!
//! A stop tool (`#[tool(stop_for = "arm")]`) [stops](ResourceQueue::stop) a queue: every call
//! that took its place before the stop is told so, the waiting ones at once (they never start),
//! the one using the resource once the stop tool's own body ran
//! ([`stop_holder`](ResourceQueue::stop_holder)), so that the body sees the motion it
//! interrupts. Calls arriving after the stop queue as usual. The stop tool then runs the
//! resource's safe stop and [reports](ResourceQueue::report) it to the call it stopped, which
//! does not run it again.
//!
//! A safe stop that fails or overruns [faults](ResourceQueue::fault) the resource: calls that
//! move it first run the safe stop again, and go on only once it succeeds (`exec::run`).

use std::collections::VecDeque;
use std::future::poll_fn;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Poll, Waker};
use std::time::SystemTime;

use super::messages::StopOutcome;

/// The default of `max_waiting`: calls waiting for one resource (not counting the one using it).
pub(crate) const DEFAULT_MAX_WAITING: usize = 16;

/// The queue of one resource.
#[derive(Debug)]
pub(crate) struct ResourceQueue {
    name: Arc<str>,
    max_waiting: usize,
    state: Mutex<QueueState>,
    /// Whether `fault` holds one (read by every call that moves the resource).
    faulted: AtomicBool,
    /// Why the resource refuses calls that move it: its safe stop failed.
    fault: Mutex<Option<Fault>>,
}

/// A safe stop that failed: when, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Fault {
    pub(crate) at: SystemTime,
    /// "failed (encoder offline)", "did not finish within 10 s".
    pub(crate) what: String,
}

/// The most safe-stop reports a queue keeps for the calls the stops interrupted.
const REPORTS_KEPT: usize = 8;

#[derive(Debug, Default)]
struct QueueState {
    next: u64,
    /// In arrival order; the first one holds the resource (or is about to).
    entries: VecDeque<Place>,
    /// The latest stop: every place numbered below `before` was stopped, by the tool `by`.
    stopped: Option<Stop>,
    /// How many stops there were.
    stops: u64,
    /// When the latest came.
    last_stop: Option<(std::time::SystemTime, &'static str)>,
    /// The safe stops stop tools ran, by the place they interrupted (the latest few).
    reports: VecDeque<(u64, StopOutcome)>,
}

#[derive(Debug, Clone, Copy)]
struct Stop {
    before: u64,
    by: &'static str,
    /// The place using the resource when the stop came, until the stop tool's body ran.
    spared: Option<u64>,
}

impl QueueState {
    /// The tool that stopped the place numbered `number`, if one did.
    fn stopped(&self, number: u64) -> Option<&'static str> {
        self.stopped
            .filter(|s| number < s.before && s.spared != Some(number))
            .map(|s| s.by)
    }

    /// The tool stopping the place numbered `number`, if one is: [`stopped`](Self::stopped), or
    /// the call using the resource while the stop tool's body runs (it is told to stop after
    /// that body, and the stop tool runs its safe stop).
    fn stopping(&self, number: u64) -> Option<&'static str> {
        self.stopped.filter(|s| number < s.before).map(|s| s.by)
    }
}

#[derive(Debug)]
struct Place {
    number: u64,
    waker: Option<Waker>,
}

impl ResourceQueue {
    /// An empty queue admitting `max_waiting` calls behind the one using the resource.
    pub(crate) fn new(name: Arc<str>, max_waiting: usize) -> Self {
        Self {
            name,
            max_waiting,
            state: Mutex::default(),
            faulted: AtomicBool::new(false),
            fault: Mutex::new(None),
        }
    }

    /// Its safe stop failed (`what`): calls that move it are refused until one succeeds.
    pub(crate) fn fault(&self, what: String) {
        tracing::error!(
            resource = %self.name,
            safe_stop = %what,
            "the safe stop failed: the resource refuses calls that move it until its safe stop succeeds"
        );
        *self.fault.lock().unwrap_or_else(|p| p.into_inner()) = Some(Fault {
            at: SystemTime::now(),
            what,
        });
        self.faulted.store(true, Ordering::SeqCst);
    }

    /// Its safe stop succeeded: calls that move it go on again.
    pub(crate) fn clear_fault(&self) {
        if self.faulted.swap(false, Ordering::SeqCst) {
            let fault = self.fault.lock().unwrap_or_else(|p| p.into_inner()).take();
            tracing::warn!(
                resource = %self.name,
                ?fault,
                "the safe stop succeeded again: the resource takes calls that move it again"
            );
        }
    }

    /// Whether it refuses calls that move it (one atomic load).
    pub(crate) fn is_faulted(&self) -> bool {
        self.faulted.load(Ordering::SeqCst)
    }

    /// Why it refuses calls that move it, if it does (one atomic load when it does not).
    pub(crate) fn faulted(&self) -> Option<Fault> {
        if !self.faulted.load(Ordering::SeqCst) {
            return None;
        }
        self.fault.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The resource's name.
    pub(crate) fn name(&self) -> &Arc<str> {
        &self.name
    }

    /// How many calls may wait behind the one using the resource.
    pub(crate) fn max_waiting(&self) -> usize {
        self.max_waiting
    }

    /// Stops every call that took its place so far (the stop tool `by`): the waiting ones will
    /// not start; the one using the resource is stopped by [`stop_holder`](Self::stop_holder).
    /// Returns how many were waiting and whether one was using the resource.
    pub(crate) fn stop(&self, by: &'static str) -> (usize, bool) {
        let (wakers, waiting, holding) = {
            let mut state = self.lock();
            let before = state.next;
            let spared = state.entries.front().map(|p| p.number);
            state.stopped = Some(Stop { before, by, spared });
            state.stops += 1;
            state.last_stop = Some((std::time::SystemTime::now(), by));
            let count = state.entries.len();
            let wakers: Vec<Waker> = state
                .entries
                .iter_mut()
                .skip(1)
                .filter_map(|p| p.waker.take())
                .collect();
            (wakers, count.saturating_sub(1), count > 0)
        };
        for w in wakers {
            w.wake();
        }
        (waiting, holding)
    }

    /// Stops the call that was using the resource when [`stop`](Self::stop) came, if it still
    /// does; returns its place, for [`report`](Self::report).
    pub(crate) fn stop_holder(&self) -> Option<u64> {
        let (waker, spared) = {
            let mut state = self.lock();
            let spared = state.stopped.as_mut().and_then(|s| s.spared.take())?;
            let waker = state
                .entries
                .iter_mut()
                .find(|p| p.number == spared)
                .and_then(|p| p.waker.take());
            (waker, spared)
        };
        if let Some(w) = waker {
            w.wake();
        }
        Some(spared)
    }

    /// The safe stop a stop tool ran after it stopped the call at place `number`
    /// ([`stop_holder`](Self::stop_holder)): that call reports it, and does not run it again.
    pub(crate) fn report(&self, number: u64, outcome: StopOutcome) {
        let waker = {
            let mut state = self.lock();
            if state.reports.len() == REPORTS_KEPT {
                state.reports.pop_front();
            }
            state.reports.push_back((number, outcome));
            state
                .entries
                .iter_mut()
                .find(|p| p.number == number)
                .and_then(|p| p.waker.take())
        };
        if let Some(w) = waker {
            w.wake();
        }
    }

    /// How many times the queue was stopped, to give [`stopped_since`](Self::stopped_since)
    /// later.
    pub(crate) fn stops(&self) -> u64 {
        self.lock().stops
    }

    /// The stop tool that stopped the queue since it counted `stops` stops: a call waiting
    /// outside the queue (for its user's confirmation) was stopped too.
    pub(crate) fn stopped_since(&self, stops: u64) -> Option<&'static str> {
        let state = self.lock();
        (state.stops > stops)
            .then_some(state.stopped)
            .flatten()
            .map(|s| s.by)
    }

    /// The stop tool that stopped the queue after `since`, if one did: an approval given
    /// before a stop no longer counts.
    pub(crate) fn stopped_after(&self, since: std::time::SystemTime) -> Option<&'static str> {
        self.lock()
            .last_stop
            .filter(|(at, _)| *at > since)
            .map(|(_, by)| by)
    }

    fn lock(&self) -> MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A call's place in one resource's queue; the resource is the call's while this ticket is
/// first. Dropping it leaves the queue.
#[derive(Debug)]
pub(crate) struct Ticket {
    queue: Arc<ResourceQueue>,
    number: u64,
}

impl Ticket {
    /// Completes when this ticket is first in its queue: the resource is the call's. `Err`
    /// names the stop tool that stopped the call before its turn came.
    pub(crate) async fn turn(&self) -> Result<(), &'static str> {
        poll_fn(|cx| {
            let mut state = self.queue.lock();
            if let Some(by) = state.stopped(self.number) {
                return Poll::Ready(Err(by));
            }
            let first = state.entries.front().map(|p| p.number);
            if first == Some(self.number) {
                return Poll::Ready(Ok(()));
            }
            self.register(&mut state, cx.waker());
            Poll::Pending
        })
        .await
    }

    /// The stop tool that stopped this call, or is stopping it (its body runs, and it runs this
    /// call's safe stop after it: [`stop_report`](Self::stop_report) says how it went), if one
    /// did.
    pub(crate) fn stopped_by(&self) -> Option<&'static str> {
        self.queue.lock().stopping(self.number)
    }

    /// What the safe stop did that the stop tool which stopped this call ran
    /// ([`ResourceQueue::report`]).
    pub(crate) async fn stop_report(&self) -> StopOutcome {
        poll_fn(|cx| {
            let mut state = self.queue.lock();
            if let Some((_, outcome)) = state.reports.iter().find(|(n, _)| *n == self.number) {
                return Poll::Ready(outcome.clone());
            }
            self.register(&mut state, cx.waker());
            Poll::Pending
        })
        .await
    }

    /// Ready with the stop tool's name once a stop tool stopped this call.
    fn poll_stopped(&self, cx: &mut std::task::Context<'_>) -> Poll<&'static str> {
        let mut state = self.queue.lock();
        if let Some(by) = state.stopped(self.number) {
            return Poll::Ready(by);
        }
        self.register(&mut state, cx.waker());
        Poll::Pending
    }

    fn register(&self, state: &mut QueueState, waker: &Waker) {
        if let Some(place) = state.entries.iter_mut().find(|p| p.number == self.number) {
            match &mut place.waker {
                Some(w) if w.will_wake(waker) => {}
                w => *w = Some(waker.clone()),
            }
        }
    }

    /// The resource's name.
    pub(crate) fn resource(&self) -> &Arc<str> {
        &self.queue.name
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let waker = {
            let mut state = self.queue.lock();
            let Some(i) = state.entries.iter().position(|p| p.number == self.number) else {
                return;
            };
            state.entries.remove(i);
            // The next call's turn came only if this one was first.
            if i == 0 {
                state.entries.front_mut().and_then(|p| p.waker.take())
            } else {
                None
            }
        };
        if let Some(w) = waker {
            w.wake();
        }
    }
}

/// A call's places in the queues of the resources it uses: usually one, without allocating.
#[derive(Debug, Default)]
pub(crate) enum Tickets {
    /// The tool uses no resource.
    #[default]
    None,
    /// One resource.
    One(Ticket),
    /// Several, in name order.
    Many(Vec<Ticket>),
}

impl Tickets {
    /// The tickets, in the order the call waits for them.
    pub(crate) fn as_slice(&self) -> &[Ticket] {
        match self {
            Tickets::None => &[],
            Tickets::One(t) => std::slice::from_ref(t),
            Tickets::Many(v) => v,
        }
    }

    /// The stop tool that stopped, or is stopping, any of these places.
    pub(crate) fn stopping(&self) -> Option<&'static str> {
        self.as_slice().iter().find_map(Ticket::stopped_by)
    }

    /// Completes with the stop tool's name once one stopped any of these places (never
    /// without places).
    pub(crate) async fn stopped(&self) -> &'static str {
        if let Tickets::None = self {
            return std::future::pending().await;
        }
        poll_fn(|cx| {
            for t in self.as_slice() {
                if let Poll::Ready(by) = t.poll_stopped(cx) {
                    return Poll::Ready(by);
                }
            }
            Poll::Pending
        })
        .await
    }
}

/// A full queue: the call was not admitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct QueueFull {
    /// The resource.
    pub resource: Arc<str>,
    /// Calls waiting for it (its `max_waiting`).
    pub waiting: usize,
}

/// Places a call in the queue of each of `queues` (sorted by name, so that calls needing
/// several resources always queue for them in the same order), or in none if one is full.
/// `arrival` is held while a call needing several resources takes its places, so two such calls
/// are in the same order in every queue they share (no two can wait for each other).
pub(crate) fn enqueue(
    queues: &[Arc<ResourceQueue>],
    arrival: &Mutex<()>,
) -> Result<Tickets, QueueFull> {
    match queues {
        [] => return Ok(Tickets::None),
        [one] => return place(one).map(Tickets::One),
        _ => {}
    }
    let _together = arrival.lock().unwrap_or_else(|p| p.into_inner());
    let mut tickets = Vec::with_capacity(queues.len());
    for queue in queues {
        // Places taken so far leave their queues when `tickets` is dropped.
        tickets.push(place(queue)?);
    }
    Ok(Tickets::Many(tickets))
}

/// A place at the back of one queue, unless it is full.
fn place(queue: &Arc<ResourceQueue>) -> Result<Ticket, QueueFull> {
    let mut state = queue.lock();
    // The first entry is the call using the resource; the others wait.
    let waiting = state.entries.len().saturating_sub(1);
    if waiting >= queue.max_waiting && !state.entries.is_empty() {
        return Err(QueueFull {
            resource: Arc::clone(&queue.name),
            waiting,
        });
    }
    let number = state.next;
    state.next += 1;
    state.entries.push_back(Place {
        number,
        waker: None,
    });
    Ok(Ticket {
        queue: Arc::clone(queue),
        number,
    })
}

#[cfg(test)]
mod tests {
    use std::future::Future;
    use std::pin::{Pin, pin};
    use std::task::Context;

    use futures::task::noop_waker_ref;

    use super::*;

    fn queue(name: &str, max_waiting: usize) -> Arc<ResourceQueue> {
        Arc::new(ResourceQueue::new(Arc::from(name), max_waiting))
    }

    fn ready(ticket: &Ticket) -> bool {
        let mut turn = pin!(ticket.turn());
        turn.as_mut()
            .poll(&mut Context::from_waker(noop_waker_ref()))
            .is_ready()
    }

    #[test]
    fn turns_come_in_arrival_order_whoever_asks_first() {
        let arm = queue("arm", 16);
        let lock = Mutex::new(());
        let tickets: Vec<Ticket> = (0..5)
            .map(|_| match enqueue(&[Arc::clone(&arm)], &lock).unwrap() {
                Tickets::One(t) => t,
                other => panic!("{other:?}"),
            })
            .collect();
        // Asked from the back: only the first is ready.
        for t in tickets.iter().rev() {
            assert_eq!(ready(t), t.number == tickets[0].number);
        }
        let mut tickets = VecDeque::from(tickets);
        // A ticket leaving from the middle hands nothing over.
        let third = tickets.remove(2).unwrap();
        drop(third);
        assert!(!ready(&tickets[1]));
        while let Some(first) = tickets.pop_front() {
            assert!(ready(&first));
            assert!(tickets.iter().all(|t| !ready(t)));
            drop(first);
        }
        assert!(arm.lock().entries.is_empty());
    }

    fn one(arm: &Arc<ResourceQueue>, lock: &Mutex<()>) -> Tickets {
        enqueue(&[Arc::clone(arm)], lock).unwrap()
    }

    fn poll<F: Future>(f: Pin<&mut F>) -> Poll<F::Output> {
        f.poll(&mut Context::from_waker(noop_waker_ref()))
    }

    #[test]
    fn a_stop_ends_every_place_taken_before_it_and_no_later_one() {
        let arm = queue("arm", 16);
        let lock = Mutex::new(());
        let holder = one(&arm, &lock);
        let waiting: Vec<Tickets> = (0..3).map(|_| one(&arm, &lock)).collect();
        assert_eq!(arm.stops(), 0);
        {
            let mut held = pin!(holder.stopped());
            assert!(poll(held.as_mut()).is_pending());
            assert_eq!(arm.stop("stop_arm"), (3, true));
            assert_eq!(arm.stops(), 1);
            assert_eq!(arm.stopped_since(0), Some("stop_arm"));
            assert_eq!(arm.stopped_since(1), None);
            // The waiting ones never start; the one using the resource learns it was stopped once
            // the stop tool's body ran.
            for w in &waiting {
                let mut turn = pin!(w.as_slice()[0].turn());
                assert_eq!(poll(turn.as_mut()), Poll::Ready(Err("stop_arm")));
            }
            assert!(poll(held.as_mut()).is_pending());
            let number = arm.stop_holder().expect("a holder");
            assert_eq!(poll(held.as_mut()), Poll::Ready("stop_arm"));
            assert_eq!(arm.stop_holder(), None, "stopped once");
            // The stop tool's safe stop is the holder's.
            let holder_ticket = &holder.as_slice()[0];
            assert_eq!(holder_ticket.stopped_by(), Some("stop_arm"));
            let mut report = pin!(holder_ticket.stop_report());
            assert!(poll(report.as_mut()).is_pending());
            arm.report(number, StopOutcome::Done(Some("parked".into())));
            assert_eq!(
                poll(report.as_mut()),
                Poll::Ready(StopOutcome::Done(Some("parked".into())))
            );
        }
        // A call arriving after the stop waits for the holder, then runs.
        let later = one(&arm, &lock);
        {
            let mut turn = pin!(later.as_slice()[0].turn());
            assert!(poll(turn.as_mut()).is_pending());
        }
        drop(waiting);
        drop(holder);
        {
            let mut turn = pin!(later.as_slice()[0].turn());
            assert_eq!(poll(turn.as_mut()), Poll::Ready(Ok(())));
            let mut not_stopped = pin!(later.stopped());
            assert!(poll(not_stopped.as_mut()).is_pending());
        }
        // A stop of an idle queue stops nothing.
        drop(later);
        assert_eq!(arm.stop("stop_arm"), (0, false));
        let mut never = pin!(Tickets::None.stopped());
        assert!(poll(never.as_mut()).is_pending());
    }

    #[test]
    fn a_fault_lasts_until_cleared() {
        let arm = queue("arm", 16);
        assert_eq!(arm.faulted(), None);
        arm.fault("failed (encoder offline)".into());
        let fault = arm.faulted().expect("faulted");
        assert_eq!(fault.what, "failed (encoder offline)");
        assert!(fault.at <= SystemTime::now());
        arm.clear_fault();
        assert_eq!(arm.faulted(), None);
    }

    #[test]
    fn a_full_queue_refuses_at_once_and_takes_no_place() {
        let arm = queue("arm", 2);
        let gripper = queue("gripper", 16);
        let lock = Mutex::new(());
        let both = [Arc::clone(&arm), Arc::clone(&gripper)];
        let holder = enqueue(&both, &lock).unwrap();
        let w1 = enqueue(&both, &lock).unwrap();
        let w2 = enqueue(&[Arc::clone(&arm)], &lock).unwrap();
        let full = enqueue(&both, &lock).unwrap_err();
        assert_eq!(
            full,
            QueueFull {
                resource: Arc::from("arm"),
                waiting: 2
            }
        );
        assert_eq!(gripper.lock().entries.len(), 2, "no place left behind");
        drop((holder, w1, w2));
        assert!(arm.lock().entries.is_empty() && gripper.lock().entries.is_empty());
        // Nobody using it: a queue of 0 waiters still admits the one call that uses it.
        let solo = queue("solo", 0);
        let first = enqueue(&[Arc::clone(&solo)], &lock).unwrap();
        assert!(enqueue(&[Arc::clone(&solo)], &lock).is_err());
        drop(first);
        assert!(enqueue(&[solo], &lock).is_ok());
    }

    #[tokio::test]
    async fn the_next_call_is_woken_when_the_first_leaves() {
        let arm = queue("arm", 16);
        let lock = Mutex::new(());
        let first = enqueue(&[Arc::clone(&arm)], &lock).unwrap();
        let second = enqueue(&[Arc::clone(&arm)], &lock).unwrap();
        let waiter = tokio::spawn(async move {
            second.as_slice()[0].turn().await.expect("no stop");
            second
        });
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        drop(first);
        let second = tokio::time::timeout(std::time::Duration::from_secs(5), waiter)
            .await
            .expect("woken")
            .unwrap();
        assert!(ready(&second.as_slice()[0]));
    }
}
