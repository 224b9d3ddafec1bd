//! Rate limits and quotas counted in Redis for every replica, exactly as one process counts
//! them (`crate::rate`: at most the limit in any window of its period), and kept across a
//! restart of Redis.
//!
//! - Counted atomically in one Lua script with Redis's own clock: each limit is a hash of
//!   `slice -> calls` (slices as `Rate::slice_us` makes them), the slices that left the window
//!   dropped as they are read; both limits of a call (the tool's and the client's over all
//!   tools) are checked before either is charged.
//! - Kept across a restart of Redis: each replica also keeps, in its own memory, the calls it
//!   was granted (the [`Mirror`]), and the counts live under an *epoch*, a key naming a random
//!   id and the time it was made. A Redis that restarted (or was flushed) has no epoch: the
//!   first replica to notice makes one, and every replica, noticing within [`WATCH`], adds what
//!   it remembers back into it. Until every replica has had the time to (the [`SETTLE`] after
//!   the epoch was made) a limited call waits; then the counts are what they were, less the
//!   calls of replicas that stopped meanwhile (with Redis's persistence on, nothing is lost).
//! - Refusing when they cannot count: a Redis that does not answer within [`ANSWER_WITHIN`] is
//!   `Denied::Unreachable`, which the rate gate turns into a refusal for any tool that is not
//!   read-only (a read-only tool may go on uncounted, logged).

use std::collections::HashMap;
use std::sync::{Mutex, Weak};
use std::time::Duration;

use redis::aio::ConnectionManager;

use crate::rate::{Denied, Limited, Rate, Window};

/// How often each replica looks whether Redis still has the epoch it counts under.
pub(super) const WATCH: Duration = Duration::from_millis(250);

/// How long after a new epoch limited calls wait, so that every replica reachable has added
/// its calls back (several [`WATCH`]es).
pub(super) const SETTLE: Duration = Duration::from_secs(2);

/// The longest a limit waits for Redis's answer before the call is refused as unchecked.
pub(super) const ANSWER_WITHIN: Duration = Duration::from_secs(2);

/// One limit's `(period, calls, slice)` in microseconds for the script; `(0, 0, 1)`: none.
fn cell(rate: Option<Rate>) -> (u64, u64, u64) {
    match rate {
        Some(r) => (r.period_us(), u64::from(r.calls), r.slice_us()),
        None => (0, 0, 1),
    }
}

/// Checks and charges the tool's and the client's limits. KEYS: the epoch, the two limits'
/// hashes. ARGV: the epoch this replica counts under, the settle time, then each limit's
/// period, calls and slice (microseconds; a period of 0 is no limit). Returns `{0, 0, now}`
/// when charged, `{i, wait}` when limit `i` is spent (nothing charged), `{-1}` when the epoch
/// is not the one named (add what you remember first), `{-2, wait}` while the epoch settles.
const CHECK: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local epoch = redis.call('GET', KEYS[1])
if not epoch then return {-1, 0, 0} end
local sep = string.find(epoch, ':', 1, true)
if not sep or string.sub(epoch, 1, sep - 1) ~= ARGV[1] then return {-1, 0, 0} end
local settled = tonumber(string.sub(epoch, sep + 1)) + tonumber(ARGV[2])
if now < settled then return {-2, settled - now, 0} end
for i = 1, 2 do
  local period = tonumber(ARGV[3 * i])
  local calls = tonumber(ARGV[3 * i + 1])
  local width = tonumber(ARGV[3 * i + 2])
  if period > 0 then
    local fields = redis.call('HGETALL', KEYS[i + 1])
    local slices = {}
    local counted = 0
    for j = 1, #fields, 2 do
      local slice = tonumber(fields[j])
      local n = tonumber(fields[j + 1])
      if (slice + 1) * width + period - 1 > now then
        slices[#slices + 1] = {slice, n}
        counted = counted + n
      else
        redis.call('HDEL', KEYS[i + 1], fields[j])
      end
    end
    if counted >= calls then
      table.sort(slices, function(a, b) return a[1] < b[1] end)
      local must_leave = counted + 1 - calls
      for _, s in ipairs(slices) do
        must_leave = must_leave - s[2]
        if must_leave <= 0 then
          return {i, (s[1] + 1) * width + period - 1 - now, 0}
        end
      end
      return {i, period, 0}
    end
  end
end
for i = 1, 2 do
  local period = tonumber(ARGV[3 * i])
  local width = tonumber(ARGV[3 * i + 2])
  if period > 0 then
    redis.call('HINCRBY', KEYS[i + 1], string.format('%.0f', math.floor(now / width)), 1)
    redis.call('PEXPIRE', KEYS[i + 1], math.ceil((period + width) / 1000) + 1000)
  end
end
return {0, 0, now}
";

/// Makes the epoch when there is none: KEYS[1] the epoch; ARGV[1] a new id. Returns the epoch
/// (`id:microseconds`), the new one or the one another replica made.
const EPOCH: &str = r"
local epoch = redis.call('GET', KEYS[1])
if epoch then return epoch end
local t = redis.call('TIME')
epoch = ARGV[1] .. ':' .. string.format('%.0f', tonumber(t[1]) * 1000000 + tonumber(t[2]))
redis.call('SET', KEYS[1], epoch)
return epoch
";

/// What this replica was granted, by limit key (the hash's key in Redis), for the windows
/// still open: added back into a new epoch.
#[derive(Default)]
struct Mirror {
    windows: HashMap<String, (Rate, Window)>,
    /// The size at which spent windows are next forgotten.
    sweep_at: usize,
}

/// The limits, counted in Redis.
pub(crate) struct Limits {
    check: redis::Script,
    epoch_script: redis::Script,
    /// The key of the epoch.
    epoch_key: String,
    /// The epoch this replica counts under, and has added its calls to (`None`: not yet).
    epoch: Mutex<Option<String>>,
    mirror: Mutex<Mirror>,
    /// Held while this replica adds its calls to a new epoch.
    seeding: tokio::sync::Mutex<()>,
}

impl Limits {
    pub(super) fn new(prefix: &str) -> Self {
        Limits {
            check: redis::Script::new(CHECK),
            epoch_script: redis::Script::new(EPOCH),
            epoch_key: format!("{prefix}limits:epoch"),
            epoch: Mutex::new(None),
            mirror: Mutex::default(),
            seeding: tokio::sync::Mutex::new(()),
        }
    }

    fn epoch(&self) -> Option<String> {
        self.epoch.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Counts a call against its limits (`tool_key` and `client_key` are their hashes' keys),
    /// shared by every replica; `Denied::Unreachable` when Redis cannot say.
    pub(super) async fn check(
        &self,
        connection: &ConnectionManager,
        keys: [&str; 2],
        tool_rate: Option<Rate>,
        client_rate: Option<Rate>,
    ) -> Result<(), Denied> {
        let (tp, tc, tw) = cell(tool_rate);
        let (cp, cc, cw) = cell(client_rate);
        // At most: a new epoch, then its settling, then the count.
        for _ in 0..4 {
            let Some(epoch) = self.epoch() else {
                self.reseed(connection).await.map_err(Denied::Unreachable)?;
                continue;
            };
            let mut conn = connection.clone();
            let mut invocation = self.check.key(&self.epoch_key);
            let answer = invocation
                .key(keys[0])
                .key(keys[1])
                .arg(&epoch)
                .arg(SETTLE.as_micros() as u64)
                .arg(tp)
                .arg(tc)
                .arg(tw)
                .arg(cp)
                .arg(cc)
                .arg(cw)
                .invoke_async::<(i64, u64, u64)>(&mut conn);
            let answer = match tokio::time::timeout(ANSWER_WITHIN, answer).await {
                Ok(Ok(answer)) => answer,
                Ok(Err(e)) => return Err(Denied::Unreachable(e.to_string())),
                Err(_) => {
                    return Err(Denied::Unreachable(format!(
                        "no answer within {ANSWER_WITHIN:?}"
                    )));
                }
            };
            match answer {
                (0, _, now) => {
                    self.remember(keys, [tool_rate, client_rate], now);
                    return Ok(());
                }
                (which @ (1 | 2), wait_us, _) => {
                    let all_tools = which == 2;
                    let rate = if all_tools { client_rate } else { tool_rate };
                    return Err(Denied::Over(Limited {
                        rate: rate.unwrap_or(Rate {
                            calls: 1,
                            per_ms: 1000,
                        }),
                        all_tools,
                        wait: Duration::from_micros(wait_us),
                    }));
                }
                (-2, wait_us, _) => {
                    tokio::time::sleep(Duration::from_micros(wait_us).min(SETTLE)).await;
                }
                _ => {
                    // Another epoch (Redis restarted, or was flushed): add our calls first.
                    *self.epoch.lock().unwrap_or_else(|p| p.into_inner()) = None;
                    self.reseed(connection).await.map_err(Denied::Unreachable)?;
                }
            }
        }
        Err(Denied::Unreachable(
            "the shared counts kept changing epoch".to_owned(),
        ))
    }

    /// Records a call this replica was granted at Redis's `now_us`.
    fn remember(&self, keys: [&str; 2], rates: [Option<Rate>; 2], now_us: u64) {
        let mut mirror = self.mirror.lock().unwrap_or_else(|p| p.into_inner());
        let Mirror { windows, sweep_at } = &mut *mirror;
        if windows.len() > (*sweep_at).max(10_000) {
            windows.retain(|_, (rate, window)| !window.is_spent(*rate, now_us));
            *sweep_at = windows.len() * 2;
        }
        for (key, rate) in keys.into_iter().zip(rates) {
            let Some(rate) = rate else { continue };
            let (_, window) = windows
                .entry(key.to_owned())
                .or_insert_with(|| (rate, Window::default()));
            window.add(rate, now_us);
        }
    }

    /// Makes sure Redis has an epoch, and that this replica's calls are counted in it: adopts
    /// the epoch there (making one when there is none) and, when it is not the one this replica
    /// counted under, adds every call it remembers to it.
    async fn reseed(&self, connection: &ConnectionManager) -> Result<(), String> {
        let _seeding = self.seeding.lock().await;
        let mut connection = connection.clone();
        let fresh = random_id();
        let found = tokio::time::timeout(
            ANSWER_WITHIN,
            self.epoch_script
                .key(&self.epoch_key)
                .arg(&fresh)
                .invoke_async::<String>(&mut connection),
        )
        .await
        .map_err(|_| format!("no answer within {ANSWER_WITHIN:?}"))?
        .map_err(|e| e.to_string())?;
        let id = found.split(':').next().unwrap_or_default().to_owned();
        if self.epoch().as_deref() == Some(id.as_str()) {
            return Ok(());
        }
        // Everything remembered whose window is still open, as commands (one pipeline).
        let mut pipe = redis::pipe();
        let mut calls = 0u64;
        {
            let mirror = self.mirror.lock().unwrap_or_else(|p| p.into_inner());
            for (key, (rate, window)) in &mirror.windows {
                let mut any = false;
                for (slice, n) in window.slices() {
                    pipe.cmd("HINCRBY").arg(key).arg(slice).arg(n).ignore();
                    calls += u64::from(n);
                    any = true;
                }
                if any {
                    let ttl_ms = (rate.period_us() + rate.slice_us()).div_ceil(1000) + 1000;
                    pipe.cmd("PEXPIRE").arg(key).arg(ttl_ms).ignore();
                }
            }
        }
        if calls > 0 {
            tokio::time::timeout(ANSWER_WITHIN, pipe.query_async::<()>(&mut connection))
                .await
                .map_err(|_| format!("no answer within {ANSWER_WITHIN:?}"))?
                .map_err(|e| e.to_string())?;
        }
        let made = id == fresh;
        tracing::warn!(
            epoch = %id,
            calls,
            made,
            "the shared rate-limit counts were lost (Redis restarted or was flushed): this replica's calls added back"
        );
        *self.epoch.lock().unwrap_or_else(|p| p.into_inner()) = Some(id);
        Ok(())
    }

    /// Watches the epoch until `owner` is gone: a change is noticed within [`WATCH`] even by a
    /// replica that gets no limited call, so its calls are back before the epoch settles.
    pub(super) fn watch(owner: Weak<super::Redis>) {
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(WATCH).await;
                let Some(redis) = owner.upgrade() else { return };
                let limits = &redis.limits;
                if limits.epoch().is_none() {
                    // Not counting yet (no limited call so far): nothing to add back.
                    if limits
                        .mirror
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .windows
                        .is_empty()
                    {
                        continue;
                    }
                }
                let mut connection = redis.connection.clone();
                let current = tokio::time::timeout(
                    ANSWER_WITHIN,
                    redis::cmd("GET")
                        .arg(&limits.epoch_key)
                        .query_async::<Option<String>>(&mut connection),
                )
                .await;
                let Ok(Ok(current)) = current else {
                    // Unreachable: the calls are refused meanwhile; looked at again later.
                    continue;
                };
                let id = current
                    .as_deref()
                    .and_then(|e| e.split(':').next())
                    .map(str::to_owned);
                if (id.is_none() || id != limits.epoch())
                    && let Err(e) = limits.reseed(&redis.connection).await
                {
                    tracing::error!(error = %e, "the shared rate-limit counts could not be restored");
                }
            }
        });
    }
}

/// A random id (16 hex digits).
fn random_id() -> String {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the operating system's random source failed");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
