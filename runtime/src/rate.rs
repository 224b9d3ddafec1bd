//! Rate limits: how many calls one client may make, to one tool (`#[tool(rate_limit =
//! "10/min")]`) and to all tools together (`#[toolbox(client_rate_limit = "120/min")]`). A call
//! over its limit is refused at once with a retryable error saying how long to wait.
//!
//! Each limit is a generic cell rate algorithm (a token bucket without a refill task): `calls`
//! per `per`, in bursts of up to `calls`, and spread evenly after that. A client is whoever the
//! transport says it is: the authenticated principal over HTTP, else the HTTP session or the
//! peer's address; a stdio connection is one client.

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

    fn interval(self) -> Duration {
        Duration::from_millis(self.per_ms) / self.calls
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

/// The limits a toolbox enforces, and what each client has used of them.
#[derive(Debug, Default)]
pub(crate) struct Limiter {
    cells: Mutex<Cells>,
}

#[derive(Debug, Default)]
struct Cells {
    /// Theoretical arrival time of the next call allowed, by (client, tool); `usize::MAX`
    /// stands for the client's limit over all tools.
    tat: HashMap<(Arc<str>, usize), Instant>,
    /// The size at which the cells back to full are next forgotten (doubles with the live ones,
    /// so that many live cells do not make every call scan them all).
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
        let mut guard = self.cells.lock().unwrap_or_else(|p| p.into_inner());
        let Cells {
            tat: cells,
            sweep_at,
        } = &mut *guard;
        if cells.len() > (*sweep_at).max(10_000) {
            // Forget the cells back to full.
            cells.retain(|_, tat| *tat > now);
            *sweep_at = cells.len() * 2;
        }
        let limits = [(tool, tool_rate, false), (ALL_TOOLS, client_rate, true)];
        let mut next = [None, None];
        for (slot, (key, rate, all_tools)) in limits.into_iter().enumerate() {
            let Some(rate) = rate else { continue };
            let tat = cells
                .get(&(Arc::clone(client), key))
                .copied()
                .filter(|t| *t > now)
                .unwrap_or(now);
            // A burst of `calls` fits in one period: the bucket is full when `tat <= now`.
            let allowed_at = tat
                .checked_sub(rate.period() - rate.interval())
                .unwrap_or(now);
            if allowed_at > now {
                return Err(Limited {
                    rate,
                    all_tools,
                    wait: allowed_at - now,
                });
            }
            next[slot] = Some((key, tat + rate.interval()));
        }
        for (key, tat) in next.into_iter().flatten() {
            cells.insert((Arc::clone(client), key), tat);
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

    #[test]
    fn a_burst_of_the_limit_then_one_call_per_interval() {
        let limiter = Limiter::default();
        let client: Arc<str> = Arc::from("alice");
        let rate = Some(Rate::parse("3/s").unwrap());
        let t0 = Instant::now();
        for _ in 0..3 {
            assert_eq!(limiter.check(&client, 0, rate, None, t0), Ok(()));
        }
        let refused = limiter.check(&client, 0, rate, None, t0).unwrap_err();
        let third = Duration::from_secs(1) / 3;
        assert!(
            refused.wait.abs_diff(third) < Duration::from_micros(1),
            "{:?}",
            refused.wait
        );
        assert!(!refused.all_tools);
        // Another client and another tool have their own.
        assert_eq!(limiter.check(&Arc::from("bob"), 0, rate, None, t0), Ok(()));
        assert_eq!(limiter.check(&client, 1, rate, None, t0), Ok(()));
        // One interval later, one more call.
        let t1 = t0 + refused.wait;
        assert_eq!(limiter.check(&client, 0, rate, None, t1), Ok(()));
        assert!(limiter.check(&client, 0, rate, None, t1).is_err());
        // A full period later, the burst is back.
        let t2 = t1 + Duration::from_secs(1);
        for _ in 0..3 {
            assert_eq!(limiter.check(&client, 0, rate, None, t2), Ok(()));
        }
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
        assert_eq!(refused.wait, Duration::from_secs(30));
        assert_eq!(
            limited_message("read", &refused),
            "Tool `read` was not run: this client's limit over all tools is 2 calls per minute \
             and has been reached. Call it again in 30.0 s."
        );
    }
}
