//! Rate limits: how many calls one client may make, to one tool (`#[tool(rate_limit =
//! "10/min")]`) and to all tools together (`#[toolbox(client_rate_limit = "120/min")]`). A call
//! over its limit is refused at once with a retryable error saying how long to wait.
//!
//! `"4/min"` means what it says: at most 4 calls in any 60 seconds, however they are spread (a
//! sliding window, never a fixed one, and never a burst then a refill: the generic cell rate
//! algorithm this replaced granted 7 calls within 60 s for `4/min`, and 39 a day for `20/day`).
//! Each limit keeps the times of the calls it counted in its last period: exactly, to the
//! microsecond, for up to [`EXACT_UP_TO`] calls a period; above that in [`SLICES`] slices of the
//! period, each counted whole while any part of it is in the window, so a call may be refused
//! up to one slice early (never let through late). A client is whoever the transport says it
//! is: the authenticated principal over HTTP, else the peer's address; a stdio connection is
//! one client.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A rate: `calls` per `per_ms` milliseconds (`"10/min"` is `Rate { calls: 10, per_ms: 60_000 }`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    /// Calls allowed in one period (and in one burst).
    pub calls: u32,
    /// The period, in milliseconds.
    pub per_ms: u64,
}

impl Rate {
    /// Parses `"10/min"`, `"5/s"`, `"100/h"`, `"1000/day"` (spaces allowed around the parts).
    /// A `const fn`, so that `#[tool(rate_limit = "..")]` is checked when the crate compiles.
    pub const fn parse(text: &str) -> Option<Rate> {
        let b = text.as_bytes();
        let mut i = skip_spaces(b, 0);
        let mut calls: u64 = 0;
        let digits_from = i;
        while i < b.len() && b[i].is_ascii_digit() {
            calls = calls * 10 + (b[i] - b'0') as u64;
            if calls > u32::MAX as u64 {
                return None;
            }
            i += 1;
        }
        if i == digits_from || calls == 0 {
            return None;
        }
        i = skip_spaces(b, i);
        if i >= b.len() || b[i] != b'/' {
            return None;
        }
        i = skip_spaces(b, i + 1);
        let mut end = b.len();
        while end > i && b[end - 1] == b' ' {
            end -= 1;
        }
        let per_ms = match unit_ms(b, i, end) {
            Some(ms) => ms,
            None => return None,
        };
        Some(Rate {
            calls: calls as u32,
            per_ms,
        })
    }

    /// The rate a declaration names; a compile error (in `const` evaluation) when it names none.
    #[doc(hidden)]
    pub const fn declared(text: &str) -> Rate {
        match Self::parse(text) {
            Some(rate) => rate,
            None => panic!(
                "invalid rate: write a positive number of calls per period, e.g. \"10/min\", \"5/s\", \"100/h\" or \"1000/day\""
            ),
        }
    }

    fn period(self) -> Duration {
        Duration::from_millis(self.per_ms)
    }
}

const fn skip_spaces(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i] == b' ' {
        i += 1;
    }
    i
}

/// The period `b[from..to]` names, in milliseconds.
const fn unit_ms(b: &[u8], from: usize, to: usize) -> Option<u64> {
    const UNITS: [(&str, u64); 9] = [
        ("s", 1_000),
        ("sec", 1_000),
        ("second", 1_000),
        ("min", 60_000),
        ("minute", 60_000),
        ("h", 3_600_000),
        ("hour", 3_600_000),
        ("day", 86_400_000),
        ("d", 86_400_000),
    ];
    let mut u = 0;
    while u < UNITS.len() {
        let name = UNITS[u].0.as_bytes();
        if name.len() == to - from {
            let mut k = 0;
            while k < name.len() && name[k] == b[from + k] {
                k += 1;
            }
            if k == name.len() {
                return Some(UNITS[u].1);
            }
        }
        u += 1;
    }
    None
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let per = match self.per_ms {
            1_000 => "second",
            60_000 => "minute",
            3_600_000 => "hour",
            86_400_000 => "day",
            ms => return write!(f, "{} calls per {} ms", self.calls, ms),
        };
        write!(
            f,
            "{} call{} per {per}",
            self.calls,
            if self.calls == 1 { "" } else { "s" }
        )
    }
}

/// The most calls a period counted exactly ([`Rate::slice_us`]).
pub(crate) const EXACT_UP_TO: u32 = 64;

/// Into how many slices the period of a larger limit is cut.
pub(crate) const SLICES: u64 = 64;

impl Rate {
    /// The period, in microseconds.
    pub(crate) fn period_us(self) -> u64 {
        self.per_ms.saturating_mul(1000)
    }

    /// How finely the calls a limit counted are remembered, in microseconds: each call's own
    /// time (1) for up to [`EXACT_UP_TO`] calls a period, else a [`SLICES`]th of the period.
    pub(crate) fn slice_us(self) -> u64 {
        if self.calls <= EXACT_UP_TO {
            1
        } else {
            self.period_us().div_ceil(SLICES).max(1)
        }
    }
}

/// The calls one limit counted in its last period: `(slice, calls)`, oldest first, a slice
/// being a time in microseconds divided by [`Rate::slice_us`].
#[derive(Debug, Default, Clone)]
pub(crate) struct Window {
    slices: std::collections::VecDeque<(u64, u32)>,
}

impl Window {
    /// Forgets the slices wholly before the window that ends at `now_us`.
    fn forget(&mut self, rate: Rate, now_us: u64) {
        let width = rate.slice_us();
        while let Some(&(slice, _)) = self.slices.front() {
            if leaves(rate, width, slice) > now_us {
                break;
            }
            self.slices.pop_front();
        }
    }

    /// Whether one more call at `now_us` keeps the limit; else how long until one would.
    pub(crate) fn admits(&mut self, rate: Rate, now_us: u64) -> Result<(), Duration> {
        self.forget(rate, now_us);
        let counted: u64 = self.slices.iter().map(|&(_, n)| u64::from(n)).sum();
        if counted < u64::from(rate.calls) {
            return Ok(());
        }
        // The oldest calls must leave the window until one fewer than the limit remain.
        let mut must_leave = counted + 1 - u64::from(rate.calls);
        for &(slice, n) in &self.slices {
            must_leave = must_leave.saturating_sub(u64::from(n));
            if must_leave == 0 {
                let at = leaves(rate, rate.slice_us(), slice);
                return Err(Duration::from_micros(at.saturating_sub(now_us)));
            }
        }
        Err(rate.period())
    }

    /// Counts one call at `now_us`.
    pub(crate) fn add(&mut self, rate: Rate, now_us: u64) {
        self.add_many(now_us / rate.slice_us(), 1);
    }

    /// Counts `n` calls in `slice` (slices arrive in order, or are merged where they belong).
    fn add_many(&mut self, slice: u64, n: u32) {
        match self.slices.iter().rposition(|&(s, _)| s <= slice) {
            Some(i) if self.slices[i].0 == slice => {
                self.slices[i].1 = self.slices[i].1.saturating_add(n);
            }
            Some(i) => self.slices.insert(i + 1, (slice, n)),
            None => self.slices.push_front((slice, n)),
        }
    }

    /// The slices counted, oldest first.
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    pub(crate) fn slices(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        self.slices.iter().copied()
    }

    /// Whether it counts nothing in the window that ends at `now_us`.
    pub(crate) fn is_spent(&mut self, rate: Rate, now_us: u64) -> bool {
        self.forget(rate, now_us);
        self.slices.is_empty()
    }
}

/// When the calls of `slice` (of `width` microseconds) leave the window: a period after the
/// last microsecond of the slice (for a call's own microsecond, a period after the call), so
/// a limit holds in every window `[t, t + period)`.
fn leaves(rate: Rate, width: u64, slice: u64) -> u64 {
    (slice + 1)
        .saturating_mul(width)
        .saturating_add(rate.period_us())
        - 1
}

/// The limits a toolbox enforces, and what each client has used of them.
#[derive(Debug)]
pub(crate) struct Limiter {
    /// What the microseconds of its windows count from.
    start: Instant,
    cells: Mutex<Cells>,
}

impl Default for Limiter {
    fn default() -> Self {
        Limiter {
            start: Instant::now(),
            cells: Mutex::default(),
        }
    }
}

#[derive(Debug, Default)]
struct Cells {
    /// The calls counted, by (client, tool); `usize::MAX` stands for the client's limit over
    /// all tools. Each with the rate it counts for (to forget the spent ones).
    windows: HashMap<(Arc<str>, usize), (Rate, Window)>,
    /// The size at which the spent windows are next forgotten (doubles with the live ones, so
    /// that many live windows do not make every call scan them all).
    sweep_at: usize,
}

/// Past a limit: how long to wait.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Limited {
    /// The limit reached.
    pub rate: Rate,
    /// Whether it is the client's limit over all tools (else the tool's).
    pub all_tools: bool,
    /// When the call would be allowed.
    pub wait: Duration,
}

/// Why a call was not counted in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Denied {
    /// Past a limit.
    Over(Limited),
    /// The store the replicas count in cannot say (it does not answer): the limit is unknown.
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    Unreachable(String),
}

const ALL_TOOLS: usize = usize::MAX;

impl Limiter {
    /// Counts a call of `client` to tool `tool` against the tool's limit and the client's limit,
    /// or says how long to wait (counting nothing).
    pub(crate) fn check(
        &self,
        client: &Arc<str>,
        tool: usize,
        tool_rate: Option<Rate>,
        client_rate: Option<Rate>,
        now: Instant,
    ) -> Result<(), Limited> {
        if tool_rate.is_none() && client_rate.is_none() {
            return Ok(());
        }
        let now_us = now.saturating_duration_since(self.start).as_micros() as u64;
        let mut guard = self.cells.lock().unwrap_or_else(|p| p.into_inner());
        let Cells { windows, sweep_at } = &mut *guard;
        if windows.len() > (*sweep_at).max(10_000) {
            windows.retain(|_, (rate, window)| !window.is_spent(*rate, now_us));
            *sweep_at = windows.len() * 2;
        }
        let limits = [(tool, tool_rate, false), (ALL_TOOLS, client_rate, true)];
        for (key, rate, all_tools) in limits {
            let Some(rate) = rate else { continue };
            if let Some((_, window)) = windows.get_mut(&(Arc::clone(client), key))
                && let Err(wait) = window.admits(rate, now_us)
            {
                return Err(Limited {
                    rate,
                    all_tools,
                    wait,
                });
            }
        }
        for (key, rate, _) in limits {
            let Some(rate) = rate else { continue };
            let (_, window) = windows
                .entry((Arc::clone(client), key))
                .or_insert_with(|| (rate, Window::default()));
            window.add(rate, now_us);
        }
        Ok(())
    }
}

/// The refusal of a call over a limit.
pub(crate) fn limited_message(tool: &str, limited: &Limited) -> String {
    let wait = limited.wait.as_secs_f64();
    let whose = if limited.all_tools {
        "this client's limit over all tools".to_owned()
    } else {
        format!("the limit of `{tool}` for each client")
    };
    format!(
        "Tool `{tool}` was not run: {whose} is {} and has been reached. Call it again in {:.1} s.",
        limited.rate,
        (wait * 10.0).ceil() / 10.0
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_parse_and_read_naturally() {
        assert_eq!(
            Rate::parse("10/min"),
            Some(Rate {
                calls: 10,
                per_ms: 60_000
            })
        );
        assert_eq!(Rate::parse(" 5 / s "), Rate::parse("5/s"));
        assert_eq!(
            Rate::parse("1000/day").unwrap().to_string(),
            "1000 calls per day"
        );
        assert_eq!(Rate::parse("1/h").unwrap().to_string(), "1 call per hour");
        for bad in ["0/min", "10", "10/week", "-1/s", "ten/min"] {
            assert_eq!(Rate::parse(bad), None, "{bad}");
        }
    }

    /// Issue 43: `4/min` granted 7 calls within 60 s (a burst of 4, then one every 15 s).
    #[test]
    fn never_more_than_the_limit_in_any_window_of_its_period() {
        let limiter = Limiter::default();
        let client: Arc<str> = Arc::from("alice");
        let rate = Rate::parse("4/min").unwrap();
        let t0 = Instant::now();
        let at = |s: f64| t0 + Duration::from_secs_f64(s);
        // A call every second for three minutes, and every refused one says when to come back.
        let mut granted: Vec<f64> = Vec::new();
        for second in 0..180 {
            let t = f64::from(second);
            match limiter.check(&client, 0, Some(rate), None, at(t)) {
                Ok(()) => granted.push(t),
                Err(refused) => {
                    // Told to wait until the oldest call in the window leaves it.
                    let oldest = granted[granted.len() - 4];
                    let leaves = oldest + 60.0;
                    assert!(
                        (refused.wait.as_secs_f64() - (leaves - t)).abs() < 1e-3,
                        "{t}: {refused:?}"
                    );
                }
            }
        }
        // In every window of 60 s, whatever its start, at most 4.
        for (i, &first) in granted.iter().enumerate() {
            let within = granted[i..]
                .iter()
                .take_while(|&&t| t - first < 60.0)
                .count();
            assert!(within <= 4, "{within} calls from {first} s: {granted:?}");
        }
        assert_eq!(
            granted,
            [
                0.0, 1.0, 2.0, 3.0, 60.0, 61.0, 62.0, 63.0, 120.0, 121.0, 122.0, 123.0
            ]
        );
        // Another client and another tool have their own.
        assert_eq!(
            limiter.check(&Arc::from("bob"), 0, Some(rate), None, at(1.0)),
            Ok(())
        );
        assert_eq!(limiter.check(&client, 1, Some(rate), None, at(1.0)), Ok(()));
    }

    /// Above `EXACT_UP_TO` calls a period, slices of 1/64 of it: refused at most one slice
    /// early, never late.
    #[test]
    fn a_large_limit_counts_in_slices_and_never_lets_more_through() {
        let limiter = Limiter::default();
        let client: Arc<str> = Arc::from("alice");
        let rate = Rate::parse("1000/h").unwrap();
        let slice = Duration::from_secs(3600) / 64;
        let t0 = Instant::now();
        for i in 0..1000 {
            let t = t0 + Duration::from_millis(i);
            assert_eq!(
                limiter.check(&client, 0, Some(rate), None, t),
                Ok(()),
                "{i}"
            );
        }
        let refused = limiter
            .check(&client, 0, Some(rate), None, t0 + Duration::from_secs(60))
            .unwrap_err();
        let free_at = Duration::from_secs(60) + refused.wait;
        // The first call (at 0) leaves at 3600 s; its slice is counted whole, so at most one
        // slice later, and never before.
        assert!(free_at >= Duration::from_secs(3600), "{free_at:?}");
        assert!(free_at <= Duration::from_secs(3600) + slice, "{free_at:?}");
        assert!(
            limiter
                .check(
                    &client,
                    0,
                    Some(rate),
                    None,
                    t0 + free_at - Duration::from_millis(1)
                )
                .is_err()
        );
        assert_eq!(
            limiter.check(&client, 0, Some(rate), None, t0 + free_at),
            Ok(())
        );
    }

    #[test]
    fn the_client_limit_spans_tools_and_a_refusal_counts_nothing() {
        let limiter = Limiter::default();
        let client: Arc<str> = Arc::from("alice");
        let all = Some(Rate::parse("2/min").unwrap());
        let tool = Some(Rate::parse("1/min").unwrap());
        let t0 = Instant::now();
        assert_eq!(limiter.check(&client, 0, tool, all, t0), Ok(()));
        // The tool's own limit refuses; the client's limit is not charged for it.
        assert!(
            !limiter
                .check(&client, 0, tool, all, t0)
                .unwrap_err()
                .all_tools
        );
        assert_eq!(limiter.check(&client, 1, None, all, t0), Ok(()));
        let refused = limiter.check(&client, 2, None, all, t0).unwrap_err();
        assert!(refused.all_tools);
        // The first call leaves the window a minute after it was made.
        assert_eq!(refused.wait, Duration::from_secs(60));
        assert_eq!(
            limited_message("read", &refused),
            "Tool `read` was not run: this client's limit over all tools is 2 calls per minute \
             and has been reached. Call it again in 60.0 s."
        );
    }
}
