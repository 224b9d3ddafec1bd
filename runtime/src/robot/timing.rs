//! A motion's timing: every joint moves along the straight joint-space path in step, with one
//! profile `s(t)` from 0 to 1 (so the path keeps its shape), as fast as the slowest joint's caps
//! allow at the requested speed, and no faster.
//!
//! At `speed` `k` (0 < k ≤ 1) every velocity cap is scaled by `k` and every acceleration and
//! deceleration cap by `k²`: the motion at speed `k` is the full-speed one played `1/k` times
//! slower. The joint that binds each cap sets the profile's: the profile's top rate is
//! `1 / maxᵢ(|Δqᵢ| / (k vᵢ))` (path fractions per second), its acceleration
//! `1 / maxᵢ(|Δqᵢ| / (k² aᵢ))` and deceleration likewise, over the joints that declare them.
//! The profile is then the fastest trapezoid (or triangle, when the top rate is never reached)
//! under those three, so each joint's velocity, acceleration and deceleration (its `|Δqᵢ|` times
//! the profile's) stays within its caps, and the duration is at least
//! `maxᵢ |Δqᵢ| / (k vᵢ)`, what the slowest joint's velocity cap allows. Without acceleration
//! caps the profile is a constant rate (a step in velocity): toolwright simulates kinematics,
//! not dynamics. Jerk caps are read and checked, not enforced.

use super::model::Robot;
use super::sweep::wrap;

/// A motion's timing.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timing {
    /// The whole motion, in seconds.
    pub duration: f64,
    /// The time spent speeding up and slowing down, in seconds.
    pub accelerating: f64,
    /// .. and slowing down.
    pub decelerating: f64,
    /// The profile's top rate, its acceleration and deceleration (path fractions per second,
    /// per second squared; infinite when not capped).
    rate: f64,
    accel: f64,
    decel: f64,
}

impl Timing {
    /// How far along the path the motion is `t` seconds after it starts (0 to 1).
    pub fn progress(&self, t: f64) -> f64 {
        if self.duration <= 0.0 || t >= self.duration {
            return 1.0;
        }
        if t <= 0.0 {
            return 0.0;
        }
        let top = self.accel * self.accelerating;
        let top = if self.accelerating > 0.0 {
            top
        } else {
            self.rate
        };
        let s = if t < self.accelerating {
            0.5 * self.accel * t * t
        } else if t <= self.duration - self.decelerating {
            0.5 * top * self.accelerating + top * (t - self.accelerating)
        } else {
            let left = self.duration - t;
            1.0 - 0.5 * self.decel * left * left
        };
        s.clamp(0.0, 1.0)
    }

    /// The profile's top rate in path fractions per second (multiply by a joint's `|Δq|` for
    /// its top velocity).
    pub fn top_rate(&self) -> f64 {
        if self.accelerating > 0.0 {
            self.accel * self.accelerating
        } else {
            self.rate
        }
    }
}

impl Robot {
    /// The timing of the motion from `from` to `to` at `speed` (a fraction of the caps,
    /// `0 < speed <= 1`; anything else is taken as 1).
    pub fn timing(&self, from: &[f64], to: &[f64], speed: f64) -> Timing {
        let k = if speed > 0.0 && speed <= 1.0 {
            speed
        } else {
            1.0
        };
        // Every chain joint's motion, mimics included, against its own caps.
        let n = self.params.len();
        let mut delta = vec![0.0; n];
        for (i, &j) in self.params.iter().enumerate() {
            let d = to.get(i).copied().unwrap_or(0.0) - from.get(i).copied().unwrap_or(0.0);
            delta[i] = if self.joints[j].limits.wraps {
                wrap(d)
            } else {
                d
            };
        }
        let mut chain = vec![0.0; self.joints.len()];
        self.chain_values(&delta, &mut chain);
        for (j, joint) in self.joints.iter().enumerate() {
            if let Some((leader, m, _)) = joint.mimic {
                chain[j] = m * chain[leader];
            }
        }
        let (mut lv, mut la, mut ld) = (0.0_f64, 0.0_f64, 0.0_f64);
        for (joint, d) in self.joints.iter().zip(&chain) {
            let d = d.abs();
            let l = &joint.limits;
            lv = lv.max(d / (k * l.velocity));
            if let Some(a) = l.acceleration {
                la = la.max(d / (k * k * a));
            }
            if let Some(dc) = l.deceleration.or(l.acceleration) {
                ld = ld.max(d / (k * k * dc));
            }
        }
        profile(lv, la, ld)
    }
}

/// The fastest profile over a path of length 1 with top rate `1/lv`, acceleration `1/la` and
/// deceleration `1/ld` (`0`: not capped).
fn profile(lv: f64, la: f64, ld: f64) -> Timing {
    if lv <= 0.0 || !lv.is_finite() {
        return Timing {
            duration: 0.0,
            accelerating: 0.0,
            decelerating: 0.0,
            rate: f64::INFINITY,
            accel: f64::INFINITY,
            decel: f64::INFINITY,
        };
    }
    let vmax = 1.0 / lv;
    let amax = if la > 0.0 { 1.0 / la } else { f64::INFINITY };
    let dmax = if ld > 0.0 { 1.0 / ld } else { f64::INFINITY };
    let ramps = vmax * vmax / (2.0 * amax) + vmax * vmax / (2.0 * dmax);
    let (peak, cruise) = if ramps <= 1.0 {
        (vmax, (1.0 - ramps) / vmax)
    } else {
        // Never reaches the top rate: v²/(2a) + v²/(2d) = 1.
        ((2.0 / (1.0 / amax + 1.0 / dmax)).sqrt(), 0.0)
    };
    let accelerating = if amax.is_finite() { peak / amax } else { 0.0 };
    let decelerating = if dmax.is_finite() { peak / dmax } else { 0.0 };
    Timing {
        duration: accelerating + cruise + decelerating,
        accelerating,
        decelerating,
        rate: peak,
        accel: amax,
        decel: dmax,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constant_rate_without_acceleration_caps() {
        let t = profile(2.0, 0.0, 0.0);
        assert_eq!(t.duration, 2.0);
        assert_eq!(t.progress(1.0), 0.5);
        assert_eq!(t.top_rate(), 0.5);
    }

    #[test]
    fn trapezoid_and_triangle() {
        // vmax 1, amax 4, dmax 2: ramps 1/8 + 1/4 < 1, a trapezoid.
        let t = profile(1.0, 0.25, 0.5);
        assert!((t.duration - (0.25 + 0.625 + 0.5)).abs() < 1e-12, "{t:?}");
        assert!((t.progress(t.duration) - 1.0).abs() < 1e-12);
        // Continuous at the corners.
        for c in [t.accelerating, t.duration - t.decelerating] {
            assert!((t.progress(c - 1e-9) - t.progress(c + 1e-9)).abs() < 1e-8);
        }
        // vmax 10, amax 1, dmax 1: a triangle, peak 1, 2 s.
        let t = profile(0.1, 1.0, 1.0);
        assert!((t.duration - 2.0).abs() < 1e-12, "{t:?}");
        assert!((t.progress(1.0) - 0.5).abs() < 1e-12);
        // No motion, no time.
        assert_eq!(profile(0.0, 0.0, 0.0).duration, 0.0);
    }

    #[test]
    fn the_progress_is_monotone_and_never_beyond_the_caps() {
        let t = profile(0.8, 0.3, 0.6);
        let mut last = 0.0;
        let dt = t.duration / 10_000.0;
        let mut last_v = 0.0;
        for i in 1..=10_000 {
            let s = t.progress(f64::from(i) * dt);
            assert!(s >= last);
            let v = (s - last) / dt;
            assert!(v <= 1.0 / 0.8 + 1e-6, "{v}");
            assert!((v - last_v) / dt <= 1.0 / 0.3 + 1e-3);
            assert!((last_v - v) / dt <= 1.0 / 0.6 + 1e-3);
            last = s;
            last_v = v;
        }
    }
}
