//! The swept check of a joint-space motion: every link against the envelope (inside every allow
//! shape, clear of every keep-out) and against the other links (self-collision), over the whole
//! straight path in joint space from the current configuration to the target. Sound, not
//! sampled: a motion that passes never brings a link's capsules into contact; a motion that
//! clears everything by more than [`TOLERANCE`] is accepted.
//!
//! # The bound
//!
//! The path is `q(τ) = q₀ + τ Δq`, `τ` from 0 to 1 (a continuous joint's `Δq` is the short way
//! round). A point of a body (a link's capsules) moves, between `q(τ)` and `q(τ')`, by at most
//! `Σⱼ ρⱼ |Δqⱼ| |τ' − τ|`: change the joints one at a time; a revolute joint turns the points
//! below it about its axis, each along an arc no longer than its distance from the axis times
//! the angle, and `ρⱼ` bounds that distance in every configuration (`model.rs`, `rates`); a
//! prismatic joint slides them by its own motion (`ρⱼ = 1`); a mimic joint moves by its
//! multiplier times its leader. The sum is the body's *rate* `B`. Two bodies move relative to
//! each other only by the joints above one and not the other (the joints above both carry them
//! together, rigidly), so a pair's rate sums those joints alone.
//!
//! # The check (conservative advancement)
//!
//! At a checked configuration `τ`, each pair's clearance `c` (a body's distance to a keep-out, its
//! depth inside an allow shape, two bodies' distance; each exact for capsules, less their
//! radii) is computed. Until `τ + c / B` no point can have moved by `c`, so that pair cannot
//! touch before it: it is checked again there (pairs due within [`EARLY`] of a configuration
//! are checked in it too, earlier than needed, to share configurations), and the next
//! configuration examined is the earliest any pair is due. A pair whose clearance exceeds what
//! the rest of the motion can take off (`c > B (1 − τ)`) is proven for the rest of the motion
//! and dropped. A checked configuration where a pair's clearance is [`TOLERANCE`] or less is
//! refused: so each pair's steps are at least `TOLERANCE / B` long, and it is checked at most
//! `B / TOLERANCE + 1` times before the check ends (passed, or refused). At the start, a pair
//! already closer than [`TOLERANCE`] (but not touching) is held to half its starting clearance
//! instead, so an arm that ended up close to something can move away from it.
//!
//! So: a motion that passes never brings two checked things into contact (every `τ` lies in
//! some pair's proven interval, for every pair), and a motion whose every pair's clearance stays
//! above [`TOLERANCE`] along the whole path passes (no checked configuration can be refused).
//!
//! Every clearance is first bounded from below through a ball around each body (cheap); when
//! that bound proves the pair clear for at least [`BALL_STEP`] of the motion it schedules the
//! pair, and only otherwise are the capsules measured exactly.

use nalgebra::{Isometry3, Point3};

use super::def::JointKind;
use super::distance::segment_segment;
use super::kinematics::Frames;
use super::model::{Body, Capsule, Robot, rates_for};
use crate::envelope::{Envelope, EnvelopeDef, Solid};

/// The stated bound, in metres: a motion whose every link clears every keep-out, every allow
/// shape's boundary and every other checked link by more than this is accepted; a checked
/// configuration closer than this is refused.
pub const TOLERANCE: f64 = 0.01;

/// Subtracted from every computed clearance before it is trusted (rounding in the kinematics
/// and distances is some 1e-15 m): a nanometre.
const ROUNDING: f64 = 1e-9;

/// The most configurations one check examines before refusing the motion as too close to
/// check (only a motion that stays closer than about `B / MAX_STEPS` to something for its whole
/// length gets there).
const MAX_STEPS: usize = 20_000;

/// A shape of the envelope, in metres.
#[derive(Debug, Clone)]
pub(crate) struct Region {
    pub(crate) name: Option<String>,
    pub(crate) solid: Solid,
}

/// The world a robot's motions are checked in: its envelope, in metres.
#[doc(hidden)]
#[derive(Debug, Clone)]
pub struct Space {
    pub(crate) allow: Vec<Region>,
    pub(crate) keep_out: Vec<Region>,
    /// The envelope's unit and how many of it make a metre.
    pub(crate) unit: String,
    pub(crate) per_metre: f64,
    /// The longest straight distance the tool point may go in one motion, in metres.
    pub(crate) max_step: Option<f64>,
    /// The tool ball as a body (when `tool_radius > 0`).
    pub(crate) tool: Option<Body>,
}

/// How many of a length unit make a metre, for the units an envelope may be in.
pub(crate) fn per_metre(unit: &str) -> Option<f64> {
    Some(match unit {
        "m" => 1.0,
        "cm" => 100.0,
        "mm" => 1000.0,
        _ => return None,
    })
}

impl Space {
    /// The envelope `envelope` for `robot`, or what is wrong: an envelope not in a length
    /// unit, or a link no joint moves (the base) outside an allow shape or touching a keep-out
    /// (checked here, once, exactly).
    pub(crate) fn new(robot: &Robot, envelope: &Envelope) -> Result<Space, Vec<String>> {
        let Some(per_metre) = per_metre(&envelope.unit) else {
            return Err(vec![format!(
                "a robot's envelope is in a length unit (`m`, `cm` or `mm`), not `{}`",
                envelope.unit
            )]);
        };
        let k = 1.0 / per_metre;
        let region = |s: &crate::envelope::Shape| Region {
            name: s.name.clone(),
            solid: s.solid.scaled(k),
        };
        let tool_radius = envelope.tool_radius * k;
        let tool = (tool_radius > 0.0).then(|| {
            let capsules = vec![Capsule {
                a: robot.tip_point,
                b: robot.tip_point,
                radius: tool_radius,
            }];
            Body {
                link: usize::MAX,
                frame: robot.tip_frame,
                rate: rates_for(&robot.joints, robot.tip_frame, &capsules),
                center: robot.tip_point,
                bound: tool_radius,
                capsules,
            }
        });
        let space = Space {
            allow: envelope.allow.iter().map(region).collect(),
            keep_out: envelope.keep_out.iter().map(region).collect(),
            unit: envelope.unit.clone(),
            per_metre,
            max_step: envelope.max_step.map(|m| m * k),
            tool,
        };
        let mut problems = Vec::new();
        let origin = Isometry3::identity();
        for body in robot.bodies.iter().filter(|b| b.frame == 0) {
            let name = &robot.links[body.link].name;
            let world = placed(&origin, &body.capsules);
            for (i, r) in space.keep_out.iter().enumerate() {
                let c = keep_out_clearance(&r.solid, &world);
                if c <= 0.0 {
                    problems.push(format!(
                        "link `{name}`, which no joint moves, touches keep-out {}: move the \
                         keep-out clear of it",
                        label(r, i)
                    ));
                }
            }
            for (i, r) in space.allow.iter().enumerate() {
                let c = allow_clearance(&r.solid, &world);
                if c < 0.0 {
                    problems.push(format!(
                        "link `{name}`, which no joint moves, is not inside allow shape {}: \
                         the allow shapes must hold it",
                        label(r, i)
                    ));
                }
            }
        }
        if problems.is_empty() {
            Ok(space)
        } else {
            Err(problems)
        }
    }

    /// [`Space::new`] from a declared envelope (tests, benchmarks).
    pub fn from_def(robot: &Robot, def: &EnvelopeDef) -> Result<Space, Vec<String>> {
        let envelope = def.to_envelope();
        envelope.validate()?;
        Space::new(robot, &envelope)
    }
}

/// A region's name for messages: `"shelf"`, or `#1 (box)`.
pub(crate) fn label(r: &Region, i: usize) -> String {
    match &r.name {
        Some(n) => format!("`{n}`"),
        None => format!("#{i} ({})", r.solid.kind()),
    }
}

/// Capsules moved by `frame`.
fn placed(frame: &Isometry3<f64>, capsules: &[Capsule]) -> Vec<Capsule> {
    capsules
        .iter()
        .map(|c| Capsule {
            a: frame.transform_point(&c.a),
            b: frame.transform_point(&c.b),
            radius: c.radius,
        })
        .collect()
}

fn arr(p: &Point3<f64>) -> [f64; 3] {
    [p.x, p.y, p.z]
}

/// How far the capsules are from a keep-out (negative or 0: touching).
fn keep_out_clearance(solid: &Solid, capsules: &[Capsule]) -> f64 {
    capsules
        .iter()
        .map(|c| solid.segment_distance(arr(&c.a), arr(&c.b)).distance - c.radius)
        .fold(f64::INFINITY, f64::min)
}

/// How deep inside an allow shape the capsules are (negative: some point outside): a convex
/// solid holds a capsule iff it holds both of its end balls.
fn allow_clearance(solid: &Solid, capsules: &[Capsule]) -> f64 {
    capsules
        .iter()
        .map(|c| {
            (-solid.signed_distance(arr(&c.a))).min(-solid.signed_distance(arr(&c.b))) - c.radius
        })
        .fold(f64::INFINITY, f64::min)
}

/// How far two sets of capsules are apart (negative or 0: touching).
fn bodies_clearance(a: &[Capsule], b: &[Capsule]) -> f64 {
    let mut best = f64::INFINITY;
    for x in a {
        for y in b {
            best = best.min(segment_segment(&x.a, &x.b, &y.a, &y.b) - x.radius - y.radius);
        }
    }
    best
}

/// What a pair is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Against {
    /// A body (an index into the robot's bodies, or `usize::MAX` for the tool ball) and a
    /// keep-out.
    KeepOut { body: usize, shape: usize },
    /// A body and an allow shape.
    Allow { body: usize, shape: usize },
    /// Two bodies.
    Bodies { a: usize, b: usize },
}

/// Why a motion is refused.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Blocked {
    /// A joint's target is not a finite number, or the position has the wrong length.
    Malformed(String),
    /// A target beyond a joint's enforced range: the joint (a parameter index) and the value.
    OutOfRange { joint: usize, value: f64 },
    /// A prismatic joint starts outside its range (the bound assumes it is within).
    StartOutOfRange { joint: usize, value: f64 },
    /// At the start a pair already touches (or a link is outside an allow shape).
    AtStart { pair: Against, clearance: f64 },
    /// A pair comes within its threshold at `at` (0..=1 along the motion), where the joints are
    /// `values` (parameters).
    Close {
        pair: Against,
        clearance: f64,
        at: f64,
        values: Vec<f64>,
    },
    /// The tool point would go further than the envelope's `max_step` (metres).
    TooFar { distance: f64, max: f64 },
    /// The motion stays so close to something for so long that it was not settled in
    /// [`MAX_STEPS`] configurations.
    TooManySteps { pair: Against, at: f64 },
}

/// What a check that passed found.
#[derive(Debug, Clone, Copy, PartialEq)]
#[doc(hidden)]
pub struct Cleared {
    /// How many configurations were examined.
    pub steps: usize,
    /// The least clearance measured exactly at an examined configuration, in metres
    /// (`INFINITY` when the balls around the links settled every pair).
    pub least: f64,
}

/// One pair being checked.
#[derive(Debug, Clone, Copy)]
struct Pair {
    against: Against,
    /// How fast its clearance can shrink per unit of `τ`.
    rate: f64,
    /// A checked configuration at or below this is refused.
    threshold: f64,
    /// Proven clear until this `τ`: it must be checked again there.
    due: f64,
}

/// Pairs due within this much `τ` of a configuration being examined are checked in it too
/// (earlier than needed, which is as sound), so configurations are shared.
const EARLY: f64 = 0.1;

/// The balls' lower bound is used to schedule a pair's next check instead of its exact
/// clearance when it proves the pair clear for at least this much `τ`.
const BALL_STEP: f64 = 0.05;

impl Robot {
    /// Checks the motion from `from` to `to` (parameter values) against `space` and the
    /// robot's own links ([module](self)).
    pub(crate) fn sweep(
        &self,
        space: &Space,
        from: &[f64],
        to: &[f64],
    ) -> Result<Cleared, Blocked> {
        let n = self.params.len();
        if from.len() != n || to.len() != n {
            return Err(Blocked::Malformed(format!(
                "a position gives {n} joints, not {}",
                to.len()
            )));
        }
        if let Some(i) = from.iter().chain(to).position(|x| !x.is_finite()) {
            return Err(Blocked::Malformed(format!(
                "joint `{}` is not a finite number",
                self.joints[self.params[i % n]].name
            )));
        }
        // The targets within range; a continuous joint's step the short way round.
        let mut delta = vec![0.0; n];
        for (i, &k) in self.params.iter().enumerate() {
            let l = &self.joints[k].limits;
            if l.wraps {
                delta[i] = wrap(to[i] - from[i]);
            } else {
                if to[i] < l.lower || to[i] > l.upper {
                    return Err(Blocked::OutOfRange {
                        joint: i,
                        value: to[i],
                    });
                }
                if self.joints[k].kind == JointKind::Prismatic
                    && (from[i] < l.lower || from[i] > l.upper)
                {
                    return Err(Blocked::StartOutOfRange {
                        joint: i,
                        value: from[i],
                    });
                }
                delta[i] = to[i] - from[i];
            }
        }
        // Every chain joint's motion (mimics follow their leaders).
        let mut chain = vec![0.0; self.joints.len()];
        self.chain_values(&delta, &mut chain);
        for (k, joint) in self.joints.iter().enumerate() {
            if let Some((leader, m, _)) = joint.mimic {
                chain[k] = m * chain[leader];
            }
        }
        let body_rate = |b: &Body| -> f64 {
            b.rate
                .iter()
                .zip(&chain)
                .map(|(r, d)| r * d.abs())
                .sum::<f64>()
        };
        // The tool point's straight distance (the envelope's `max_step`).
        if let Some(max) = space.max_step {
            let (a, _) = self.tool_pose(from);
            let (b, _) = self.tool_pose(to);
            let d = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
            if d > max {
                return Err(Blocked::TooFar { distance: d, max });
            }
        }
        let tool = space.tool.as_ref();
        let body = |i: usize| -> &Body {
            if i == usize::MAX {
                tool.expect("the tool ball")
            } else {
                &self.bodies[i]
            }
        };
        // The pairs, with their rates.
        let mut pairs: Vec<Pair> = Vec::new();
        let moving = self
            .bodies
            .iter()
            .enumerate()
            .filter(|(_, b)| b.frame > 0)
            .map(|(i, _)| i)
            .chain(tool.map(|_| usize::MAX));
        for i in moving {
            let rate = body_rate(body(i));
            for shape in 0..space.keep_out.len() {
                pairs.push(Pair {
                    against: Against::KeepOut { body: i, shape },
                    rate,
                    threshold: TOLERANCE,
                    due: 0.0,
                });
            }
            for shape in 0..space.allow.len() {
                pairs.push(Pair {
                    against: Against::Allow { body: i, shape },
                    rate,
                    threshold: TOLERANCE,
                    due: 0.0,
                });
            }
        }
        for &(a, b) in &self.pairs {
            let (fa, fb) = (self.bodies[a].frame, self.bodies[b].frame);
            // Only the joints above the lower body and not above the upper one move them
            // apart; they move the lower body.
            let (lo, hi) = if fa < fb { (a, b) } else { (b, a) };
            let (f_lo, f_hi) = (self.bodies[lo].frame, self.bodies[hi].frame);
            let rate = (f_lo..f_hi)
                .map(|j| self.bodies[hi].rate[j] * chain[j].abs())
                .sum();
            pairs.push(Pair {
                against: Against::Bodies { a, b },
                rate,
                threshold: TOLERANCE,
                due: 0.0,
            });
        }
        let mut frames = Frames::new(self);
        let mut q = from.to_vec();
        let mut world: Vec<Option<Vec<Capsule>>> = vec![None; self.bodies.len() + 1];
        let slot = |i: usize| {
            if i == usize::MAX {
                self.bodies.len()
            } else {
                i
            }
        };
        let mut least = f64::INFINITY;
        let mut configurations = 0;
        while !pairs.is_empty() {
            // The next configuration: the earliest any pair is due.
            let tau = pairs
                .iter()
                .map(|p| p.due)
                .fold(f64::INFINITY, f64::min)
                .min(1.0);
            configurations += 1;
            if configurations > MAX_STEPS {
                return Err(Blocked::TooManySteps {
                    pair: pairs[0].against,
                    at: tau,
                });
            }
            for (i, x) in q.iter_mut().enumerate() {
                *x = if tau == 1.0 {
                    from[i] + delta[i]
                } else {
                    from[i] + tau * delta[i]
                };
            }
            self.forward_into(&q, &mut frames);
            world.iter_mut().for_each(|w| *w = None);
            let remaining = 1.0 - tau;
            let first = tau == 0.0;
            let mut k = 0;
            while k < pairs.len() {
                let pair = pairs[k];
                // Checking a pair before it is due is as sound as checking it when due; the
                // ones due soon are checked now, in this configuration.
                if pair.due > tau + EARLY {
                    k += 1;
                    continue;
                }
                // A lower bound first, through the bodies' balls.
                let ball = |i: usize| {
                    let b = body(i);
                    (frames.frames[b.frame].transform_point(&b.center), b.bound)
                };
                let bound = match pair.against {
                    Against::KeepOut { body: i, shape } => {
                        let (c, r) = ball(i);
                        space.keep_out[shape].solid.distance(arr(&c)) - r
                    }
                    Against::Allow { body: i, shape } => {
                        let (c, r) = ball(i);
                        -space.allow[shape].solid.signed_distance(arr(&c)) - r
                    }
                    Against::Bodies { a, b } => {
                        let ((ca, ra), (cb, rb)) = (ball(a), ball(b));
                        (ca - cb).norm() - ra - rb
                    }
                } - ROUNDING;
                if bound > pair.threshold {
                    if bound > pair.rate * remaining {
                        // Settled for the rest of the motion.
                        pairs.swap_remove(k);
                        continue;
                    }
                    if bound >= pair.rate * BALL_STEP {
                        pairs[k].due = tau + bound / pair.rate;
                        k += 1;
                        continue;
                    }
                }
                for i in match pair.against {
                    Against::KeepOut { body: i, .. } | Against::Allow { body: i, .. } => [i, i],
                    Against::Bodies { a, b } => [a, b],
                } {
                    let s = slot(i);
                    if world[s].is_none() {
                        let b = body(i);
                        world[s] = Some(placed(&frames.frames[b.frame], &b.capsules));
                    }
                }
                let capsules = |i: usize| world[slot(i)].as_deref().unwrap_or_default();
                let clearance = match pair.against {
                    Against::KeepOut { body: i, shape } => {
                        keep_out_clearance(&space.keep_out[shape].solid, capsules(i))
                    }
                    Against::Allow { body: i, shape } => {
                        allow_clearance(&space.allow[shape].solid, capsules(i))
                    }
                    Against::Bodies { a, b } => bodies_clearance(capsules(a), capsules(b)),
                } - ROUNDING;
                least = least.min(clearance);
                if first {
                    if clearance <= 0.0 {
                        return Err(Blocked::AtStart {
                            pair: pair.against,
                            clearance: clearance + ROUNDING,
                        });
                    }
                    if clearance <= TOLERANCE {
                        pairs[k].threshold = clearance / 2.0;
                    }
                } else if clearance <= pair.threshold {
                    return Err(Blocked::Close {
                        pair: pair.against,
                        clearance: clearance + ROUNDING,
                        at: tau,
                        values: q,
                    });
                }
                if clearance > pair.rate * remaining {
                    pairs.swap_remove(k);
                    continue;
                }
                pairs[k].due = tau + clearance / pair.rate;
                k += 1;
            }
        }
        Ok(Cleared {
            steps: configurations,
            least,
        })
    }

    /// The name of a body (or the tool ball).
    pub(crate) fn body_name(&self, body: usize) -> &str {
        if body == usize::MAX {
            "the tool point's ball"
        } else {
            &self.links[self.bodies[body].link].name
        }
    }
}

/// `x` wrapped into `(-π, π]`.
pub(crate) fn wrap(x: f64) -> f64 {
    let tau = std::f64::consts::TAU;
    let mut y = x.rem_euclid(tau);
    if y > std::f64::consts::PI {
        y -= tau;
    }
    y
}
