//! Who gets a connection slot (issue 43: a client with no token held 260 half-open
//! connections, the cap of 256 was reached before authentication, and `stop_arm` could not get
//! in for 16 s while the motion ran to its end).
//!
//! Every open connection is in the [`Door`]'s table, in one of four states: *fresh* (its first
//! request's headers have not all come), *receiving* (a request's body is being read), *busy*
//! (a request has been handed on and is answered or streamed) or *idle* (between requests).
//! Only busy connections do work; the others are held by a peer that has yet to show what it
//! wants, or no longer wants anything. So:
//!
//! - **At the cap, the newcomer gets in**: the oldest connection that is not busy and not
//!   authenticated (fresh, receiving, or idle after requests that were not authenticated) is
//!   shed (closed at once), then the oldest idle one. A flood of half-open connections sheds
//!   itself, oldest first, and a client that sends its request when it connects is served.
//! - **Per peer**: one address holds at most `per_peer` connections that are not busy; a new one
//!   from it sheds its own oldest first, never another peer's.
//! - **Kept for authenticated requests** (with a token or OAuth): connections not yet
//!   authenticated hold at most `max - kept` slots; beyond, a newcomer sheds the oldest of them.
//! - **A header deadline that shortens under pressure**: a connection accepted while more than
//!   half the slots are held by connections that are not busy has less time to send its headers,
//!   down to `min_header_timeout` when all are.
//! - **A reserve for the stop**: when every slot is busy, a newcomer gets one of `reserve` slots
//!   beyond the cap, on which only what a stop needs is served (a stop tool's call, and the
//!   `initialize` and `notifications/initialized` a new session on protocol 2025-11-25 needs
//!   first); anything else there is answered `503` and the connection closed. A stop tool's
//!   request is never refused for capacity.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

/// The door's limits.
#[derive(Debug, Clone)]
pub(crate) struct DoorLimits {
    /// The most connections (the regular slots).
    pub max: usize,
    /// The most connections one address holds that are not busy.
    pub per_peer: usize,
    /// Slots connections not yet authenticated may not take (0 without authentication).
    pub kept_for_authenticated: usize,
    /// Slots beyond `max` for what a stop needs, when every regular slot is busy.
    pub reserve: usize,
    /// The time a connection has to send its headers, at ease.
    pub header_timeout: Duration,
    /// ... and under the most pressure (never more than `header_timeout`).
    pub min_header_timeout: Duration,
    /// How long a new connection is shed only after every older one ([`YOUNG`]).
    pub young: Duration,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Fresh,
    Receiving,
    Busy,
    Idle,
}

/// How long a new connection is let send its first request before a flood from its own
/// address may shed it (a flood from anywhere still may, once every older connection is gone).
pub(crate) const YOUNG: Duration = Duration::from_millis(250);

#[derive(Debug)]
struct Conn {
    peer: IpAddr,
    /// When it was accepted.
    accepted: Instant,
    /// When it entered its state.
    since: Instant,
    /// Requests whose bodies are being read, and requests handed on (HTTP/2 multiplexes).
    receiving: u32,
    busy: u32,
    /// Whether it carried a request yet.
    served: bool,
    /// Whether a request on it was authenticated.
    authenticated: bool,
    reserve: bool,
    shed: CancellationToken,
}

impl Conn {
    fn state(&self) -> State {
        if self.busy > 0 {
            State::Busy
        } else if self.receiving > 0 {
            State::Receiving
        } else if self.served {
            State::Idle
        } else {
            State::Fresh
        }
    }

    /// Its rank among the connections that may be shed (lower first, then the longest in its
    /// state); `None`: busy, never. First those not authenticated (fresh, a body still coming,
    /// or idle after requests that were not authenticated, alike) that were accepted more than
    /// `young` ago ([`YOUNG`]); then the younger ones (a client that just connected to send
    /// its request is given the time to); then the authenticated ones.
    fn shed_rank(&self, now: Instant, young: Duration) -> Option<u8> {
        match self.state() {
            State::Busy => None,
            _ if self.authenticated => Some(2),
            _ if now.duration_since(self.accepted) < young => Some(1),
            _ => Some(0),
        }
    }
}

/// What a connection counts for in the [`Tally`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Counts {
    peer: IpAddr,
    reserve: bool,
    waiting: bool,
    authenticated: bool,
}

impl Conn {
    fn counts(&self) -> Counts {
        Counts {
            peer: self.peer,
            reserve: self.reserve,
            waiting: self.state() != State::Busy,
            authenticated: self.authenticated,
        }
    }
}

/// The table's counts, kept as connections come, change and go (so that letting one in costs no
/// walk over the table unless something must be shed).
#[derive(Debug, Default)]
struct Tally {
    regular: usize,
    reserve: usize,
    /// Regular connections that are not busy.
    waiting: usize,
    /// Regular connections not authenticated.
    unauthenticated: usize,
    /// Regular connections that are not busy, by address.
    waiting_by_peer: HashMap<IpAddr, usize>,
}

impl Tally {
    fn apply(&mut self, counts: Counts, add: bool) {
        let step = |n: &mut usize| {
            if add {
                *n += 1;
            } else {
                *n = n.saturating_sub(1);
            }
        };
        if counts.reserve {
            step(&mut self.reserve);
            return;
        }
        step(&mut self.regular);
        if !counts.authenticated {
            step(&mut self.unauthenticated);
        }
        if counts.waiting {
            step(&mut self.waiting);
            let here = self.waiting_by_peer.entry(counts.peer).or_default();
            step(here);
            if *here == 0 {
                self.waiting_by_peer.remove(&counts.peer);
            }
        }
    }
}

#[derive(Debug, Default)]
struct Table {
    conns: HashMap<u64, Conn>,
    tally: Tally,
    next: u64,
    /// Connections shed so far (for the log and the tests).
    shed: u64,
}

impl Table {
    fn insert(&mut self, id: u64, conn: Conn) {
        self.tally.apply(conn.counts(), true);
        self.conns.insert(id, conn);
    }

    fn remove(&mut self, id: u64) -> Option<Conn> {
        let conn = self.conns.remove(&id)?;
        self.tally.apply(conn.counts(), false);
        Some(conn)
    }

    /// The connection to shed among those `which` selects, of rank `at_most` or lower: the
    /// lowest rank, then the longest in its state.
    fn victim(&self, young: Duration, at_most: u8, which: impl Fn(&Conn) -> bool) -> Option<u64> {
        let now = Instant::now();
        self.conns
            .iter()
            .filter(|(_, c)| which(c))
            .filter_map(|(id, c)| Some((c.shed_rank(now, young)?, c.since, *id)))
            .filter(|(rank, ..)| *rank <= at_most)
            .min()
            .map(|(_, _, id)| id)
    }

    fn shed(&mut self, id: u64) {
        if let Some(conn) = self.remove(id) {
            self.shed += 1;
            tracing::info!(peer = %conn.peer, state = ?conn.state(), "connection shed to make room for a new one");
            conn.shed.cancel();
        }
    }
}

/// The connection table (module docs).
#[derive(Debug)]
pub(crate) struct Door {
    limits: DoorLimits,
    table: Mutex<Table>,
}

/// Why a connection was not let in: every slot, the reserve's too, is busy.
#[derive(Debug)]
pub(crate) struct Full;

impl Door {
    pub(crate) fn new(limits: DoorLimits) -> Arc<Door> {
        Arc::new(Door {
            limits,
            table: Mutex::default(),
        })
    }

    fn table(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A slot for a connection from `peer`, shedding others as the module docs say; `Full`
    /// when every slot, the reserve's too, is busy.
    pub(crate) fn admit(self: &Arc<Self>, peer: IpAddr) -> Result<Slot, Full> {
        let limits = &self.limits;
        let mut table = self.table();
        let regular = |c: &Conn| !c.reserve;
        // One address's connections that are not busy: its own oldest unauthenticated one
        // goes first (none younger than `YOUNG`: then the address is over its share until the
        // cap, where the rule below applies).
        let idle_here = table.tally.waiting_by_peer.get(&peer).copied().unwrap_or(0);
        if idle_here >= limits.per_peer
            && let Some(victim) = table.victim(limits.young, 0, |c| regular(c) && c.peer == peer)
        {
            table.shed(victim);
        }
        // Slots kept for authenticated requests.
        if limits.kept_for_authenticated > 0
            && table.tally.unauthenticated
                >= limits.max.saturating_sub(limits.kept_for_authenticated)
            && let Some(victim) = table.victim(limits.young, 1, |c| regular(c) && !c.authenticated)
        {
            table.shed(victim);
        }
        let mut reserve = false;
        if table.tally.regular >= limits.max {
            match table.victim(limits.young, 2, regular) {
                Some(victim) => table.shed(victim),
                None => reserve = true,
            }
        }
        if reserve && table.tally.reserve >= limits.reserve {
            match table.victim(limits.young, 2, |c| c.reserve) {
                Some(victim) => table.shed(victim),
                None => return Err(Full),
            }
        }
        let header_timeout = if reserve {
            limits.min_header_timeout
        } else {
            pressed(limits, table.tally.waiting)
        };
        let id = table.next;
        table.next += 1;
        let shed = CancellationToken::new();
        let now = Instant::now();
        table.insert(
            id,
            Conn {
                peer,
                accepted: now,
                since: now,
                receiving: 0,
                busy: 0,
                served: false,
                authenticated: false,
                reserve,
                shed: shed.clone(),
            },
        );
        Ok(Slot {
            id,
            door: Arc::clone(self),
            shed,
            reserve,
            header_timeout,
        })
    }

    /// Connections shed so far (and, checked on the way, counts that match the table's).
    #[cfg(test)]
    fn shed_count(&self) -> u64 {
        let table = self.table();
        let count =
            |which: &dyn Fn(&Conn) -> bool| table.conns.values().filter(|c| which(c)).count();
        assert_eq!(table.tally.regular, count(&|c| !c.reserve));
        assert_eq!(table.tally.reserve, count(&|c| c.reserve));
        assert_eq!(
            table.tally.waiting,
            count(&|c| !c.reserve && c.state() != State::Busy)
        );
        assert_eq!(
            table.tally.unauthenticated,
            count(&|c| !c.reserve && !c.authenticated)
        );
        for (peer, n) in &table.tally.waiting_by_peer {
            assert_eq!(
                *n,
                count(&|c| !c.reserve && c.peer == *peer && c.state() != State::Busy)
            );
        }
        table.shed
    }
}

/// The header deadline of a connection accepted while `waiting` connections that are not busy
/// hold slots: `header_timeout` up to half the slots, then shorter in proportion, down to
/// `min_header_timeout` when they hold them all.
fn pressed(limits: &DoorLimits, waiting: usize) -> Duration {
    let half = limits.max / 2;
    if waiting <= half || limits.max == 0 {
        return limits.header_timeout;
    }
    let left = 1.0 - (waiting - half) as f64 / (limits.max - half).max(1) as f64;
    limits
        .min_header_timeout
        .max(limits.header_timeout.mul_f64(left.clamp(0.0, 1.0)))
        .min(limits.header_timeout)
}

/// One connection's place in the [`Door`]'s table; gone when dropped.
#[derive(Debug)]
pub(crate) struct Slot {
    id: u64,
    door: Arc<Door>,
    shed: CancellationToken,
    reserve: bool,
    header_timeout: Duration,
}

impl Slot {
    /// Cancelled when the connection is shed: close it at once.
    pub(crate) fn shed(&self) -> &CancellationToken {
        &self.shed
    }

    /// Whether it is a reserve slot, on which only what a stop needs is served.
    pub(crate) fn is_reserve(&self) -> bool {
        self.reserve
    }

    /// The time it has to send its headers.
    pub(crate) fn header_timeout(&self) -> Duration {
        self.header_timeout
    }

    fn with(&self, change: impl FnOnce(&mut Conn)) {
        let mut table = self.door.table();
        let table = &mut *table;
        let Some(conn) = table.conns.get_mut(&self.id) else {
            return;
        };
        let (state, counts) = (conn.state(), conn.counts());
        change(conn);
        if conn.state() != state {
            conn.since = Instant::now();
        }
        let now = conn.counts();
        if now != counts {
            table.tally.apply(counts, false);
            table.tally.apply(now, true);
        }
    }

    /// A request's headers came: its body is being read.
    pub(crate) fn receiving(&self) {
        self.with(|c| {
            c.receiving += 1;
            c.served = true;
        });
    }

    /// The request was read and handed on.
    pub(crate) fn delivered(&self) {
        self.with(|c| {
            c.receiving = c.receiving.saturating_sub(1);
            c.busy += 1;
        });
    }

    /// A request ended (answered, or refused while it was read: `delivered` says which).
    pub(crate) fn ended(&self, delivered: bool) {
        self.with(|c| {
            if delivered {
                c.busy = c.busy.saturating_sub(1);
            } else {
                c.receiving = c.receiving.saturating_sub(1);
            }
        });
    }

    /// A request on it was authenticated.
    pub(crate) fn authenticated(&self) {
        self.with(|c| c.authenticated = true);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.door.table().remove(self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn door(max: usize, per_peer: usize, kept: usize, reserve: usize) -> Arc<Door> {
        Door::new(DoorLimits {
            max,
            per_peer,
            kept_for_authenticated: kept,
            reserve,
            header_timeout: Duration::from_secs(10),
            min_header_timeout: Duration::from_secs(1),
            young: Duration::ZERO,
        })
    }

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    #[test]
    fn at_the_cap_the_oldest_connection_that_is_not_busy_makes_room() {
        let door = door(4, 100, 0, 2);
        let busy = door.admit(ip(1)).unwrap();
        busy.receiving();
        busy.delivered();
        let idle = door.admit(ip(1)).unwrap();
        idle.receiving();
        idle.delivered();
        idle.ended(true);
        let fresh_old = door.admit(ip(2)).unwrap();
        let fresh_new = door.admit(ip(3)).unwrap();
        // Full: the newcomer sheds the connection waiting longest (the idle one), then the
        // fresh ones from the oldest; the newest goes last, the busy one never.
        let newcomer = door.admit(ip(4)).unwrap();
        assert!(idle.shed().is_cancelled());
        assert!(!fresh_old.shed().is_cancelled() && !fresh_new.shed().is_cancelled());
        assert!(!newcomer.is_reserve());
        let _a = door.admit(ip(5)).unwrap();
        assert!(fresh_old.shed().is_cancelled());
        let _b = door.admit(ip(6)).unwrap();
        assert!(fresh_new.shed().is_cancelled());
        let _c = door.admit(ip(7)).unwrap();
        assert!(newcomer.shed().is_cancelled());
        assert!(!busy.shed().is_cancelled());
        assert_eq!(door.shed_count(), 4);
    }

    #[test]
    fn when_every_slot_is_busy_a_newcomer_gets_the_reserve() {
        let door = door(2, 100, 0, 2);
        let busy: Vec<Slot> = (0..2)
            .map(|i| {
                let s = door.admit(ip(i)).unwrap();
                s.receiving();
                s.delivered();
                s
            })
            .collect();
        let first = door.admit(ip(9)).unwrap();
        assert!(first.is_reserve());
        assert_eq!(first.header_timeout(), Duration::from_secs(1));
        let second = door.admit(ip(9)).unwrap();
        assert!(second.is_reserve());
        // The reserve full of fresh ones: the newest gets in, the oldest is shed.
        let third = door.admit(ip(9)).unwrap();
        assert!(third.is_reserve() && first.shed().is_cancelled());
        // A reserve slot whose request is being served is kept; when all are, no room.
        for s in [&second, &third] {
            s.receiving();
            s.delivered();
        }
        assert!(door.admit(ip(9)).is_err());
        drop(busy);
        assert!(!door.admit(ip(9)).unwrap().is_reserve(), "room again");
        assert_eq!(door.shed_count(), 1);
    }

    #[test]
    fn one_peer_sheds_its_own_connections_before_anyone_elses() {
        let door = door(8, 2, 0, 0);
        let other = door.admit(ip(1)).unwrap();
        let mine: Vec<Slot> = (0..2).map(|_| door.admit(ip(2)).unwrap()).collect();
        let newest = door.admit(ip(2)).unwrap();
        assert!(mine[0].shed().is_cancelled(), "its own oldest");
        assert!(
            !other.shed().is_cancelled(),
            "not another peer's, older though it is"
        );
        assert!(!newest.shed().is_cancelled());
        // Busy connections do not count against the peer.
        for s in [&mine[1], &newest] {
            s.receiving();
            s.delivered();
        }
        let more = door.admit(ip(2)).unwrap();
        let _again = door.admit(ip(2)).unwrap();
        assert!(!more.shed().is_cancelled());
        assert_eq!(door.shed_count(), 1);
    }

    /// A connection just accepted is shed by its own address's flood only once it is no longer
    /// young (the address goes over its share meanwhile), and at the cap only after every older
    /// one.
    #[test]
    fn a_new_connection_has_the_time_to_send_its_request() {
        let door = Door::new(DoorLimits {
            max: 6,
            per_peer: 2,
            kept_for_authenticated: 0,
            reserve: 0,
            header_timeout: Duration::from_secs(10),
            min_header_timeout: Duration::from_secs(1),
            young: Duration::from_secs(3600),
        });
        let old = door.admit(ip(1)).unwrap();
        let stop = door.admit(ip(2)).unwrap();
        // The flood, from the stop's own address: none is shed for the address's share.
        let flood: Vec<Slot> = (0..3).map(|_| door.admit(ip(2)).unwrap()).collect();
        assert!(!stop.shed().is_cancelled());
        assert!(flood.iter().all(|s| !s.shed().is_cancelled()));
        // At the cap (6): the oldest goes, then the next oldest; the stop before the flood's
        // newer ones only.
        let _sixth = door.admit(ip(2)).unwrap();
        let _one = door.admit(ip(2)).unwrap();
        assert!(old.shed().is_cancelled());
        assert!(!stop.shed().is_cancelled());
        let _two = door.admit(ip(2)).unwrap();
        assert!(stop.shed().is_cancelled());
        assert!(flood.iter().all(|s| !s.shed().is_cancelled()));
        assert_eq!(door.shed_count(), 2);
    }

    #[test]
    fn unauthenticated_connections_leave_room_for_authenticated_ones() {
        let door = door(4, 100, 2, 0);
        let authenticated = door.admit(ip(1)).unwrap();
        authenticated.receiving();
        authenticated.authenticated();
        authenticated.delivered();
        authenticated.ended(true);
        let a = door.admit(ip(2)).unwrap();
        let b = door.admit(ip(3)).unwrap();
        // Two unauthenticated are the most: a third sheds the oldest of them.
        let c = door.admit(ip(4)).unwrap();
        assert!(a.shed().is_cancelled() && !b.shed().is_cancelled() && !c.shed().is_cancelled());
        assert!(
            !authenticated.shed().is_cancelled(),
            "an authenticated idle one is kept"
        );
        assert_eq!(door.shed_count(), 1);
    }

    #[test]
    fn the_header_deadline_shortens_under_pressure() {
        let limits = DoorLimits {
            max: 100,
            per_peer: 100,
            kept_for_authenticated: 0,
            reserve: 0,
            header_timeout: Duration::from_secs(10),
            min_header_timeout: Duration::from_secs(1),
            young: Duration::ZERO,
        };
        assert_eq!(pressed(&limits, 0), Duration::from_secs(10));
        assert_eq!(pressed(&limits, 50), Duration::from_secs(10));
        assert_eq!(pressed(&limits, 75), Duration::from_secs(5));
        assert_eq!(pressed(&limits, 99), Duration::from_millis(1000));
        assert_eq!(pressed(&limits, 100), Duration::from_secs(1));
        let door = door(4, 100, 0, 0);
        let held: Vec<Slot> = (0..3).map(|i| door.admit(ip(i)).unwrap()).collect();
        assert!(door.admit(ip(9)).unwrap().header_timeout() < Duration::from_secs(10));
        drop(held);
    }
}
