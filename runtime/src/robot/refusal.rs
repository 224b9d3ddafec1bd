//! What a refused motion is told: the link, the keep-out or allow shape or other link, how far
//! along the motion and the joints there, how close, and how to go around (a way through the
//! home configuration, suggested only when both of its motions pass the same check).

use super::model::Robot;
use super::sweep::{Against, Blocked, Space, TOLERANCE, label};

/// A refusal: a short code for logs and the words for the model.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// `joint_range`, `keep_out`, `outside_allow`, `self_collision`, `at_start`, `max_step`,
    /// `too_close`, `malformed`.
    pub code: &'static str,
    /// What was wrong and how to go on.
    pub message: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// `x` to at most `decimals` decimals, without trailing zeros.
fn number(x: f64, decimals: usize) -> String {
    let s = format!("{x:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    };
    if s == "-0" { "0".to_owned() } else { s }
}

impl Robot {
    /// The joints `values` as `name value unit, ..`.
    pub(crate) fn describe(&self, values: &[f64]) -> String {
        self.params
            .iter()
            .zip(values)
            .map(|(&k, v)| {
                let j = &self.joints[k];
                format!("{} {} {}", j.name, number(*v, 4), j.kind.unit())
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A length in metres in the envelope's unit, for messages.
    fn shown(&self, space: &Space, metres: f64) -> String {
        format!(
            "{} {}",
            number(
                metres * space.per_metre,
                if space.per_metre >= 1000.0 { 1 } else { 4 }
            ),
            space.unit
        )
    }

    /// The words of a refused motion from `from` to `to`.
    pub(crate) fn refusal(
        &self,
        space: &Space,
        from: &[f64],
        to: &[f64],
        blocked: &Blocked,
    ) -> Refusal {
        let tolerance = self.shown(space, TOLERANCE);
        let what = |pair: &Against| -> (&'static str, String) {
            match *pair {
                Against::KeepOut { body, shape } => (
                    "keep_out",
                    format!(
                        "link `{}` would come within {{d}} of keep-out {}",
                        self.body_name(body),
                        label(&space.keep_out[shape], shape)
                    ),
                ),
                Against::Allow { body, shape } => (
                    "outside_allow",
                    format!(
                        "link `{}` would come within {{d}} of the edge of allow shape {} (or \
                         leave it)",
                        self.body_name(body),
                        label(&space.allow[shape], shape)
                    ),
                ),
                Against::Bodies { a, b } => (
                    "self_collision",
                    format!(
                        "link `{}` would come within {{d}} of link `{}` (the arm hitting itself)",
                        self.body_name(a),
                        self.body_name(b)
                    ),
                ),
            }
        };
        let shown_clearance = |c: f64| {
            if c <= 0.0 {
                "touching distance".to_owned()
            } else {
                self.shown(space, c)
            }
        };
        match blocked {
            Blocked::Malformed(m) => Refusal {
                code: "malformed",
                message: format!("the joint positions cannot be checked: {m}"),
            },
            Blocked::OutOfRange { joint, value } => {
                let j = &self.joints[self.params[*joint]];
                let l = &j.limits;
                Refusal {
                    code: "joint_range",
                    message: format!(
                        "joint `{}` = {} {} is outside its enforced range {}..={} {} ({}): \
                         choose a value within it",
                        j.name,
                        number(*value, 4),
                        j.kind.unit(),
                        number(l.lower, 4),
                        number(l.upper, 4),
                        j.kind.unit(),
                        l.range_from
                    ),
                }
            }
            Blocked::StartOutOfRange { joint, value } => {
                let j = &self.joints[self.params[*joint]];
                Refusal {
                    code: "at_start",
                    message: format!(
                        "prismatic joint `{}` is at {} m now, outside its enforced range: \
                         nothing moves until it is back within it (move it by other means)",
                        j.name,
                        number(*value, 4)
                    ),
                }
            }
            Blocked::AtStart { pair, clearance } => {
                let (_, text) = what(pair);
                let text = text
                    .replace("would come within {d} of", "already touches")
                    .replace(
                        "would come within {d} of the edge of allow shape",
                        "is already outside allow shape",
                    );
                Refusal {
                    code: "at_start",
                    message: format!(
                        "in the current configuration ({}), {text} ({}): every motion from here \
                         is refused; move the arm clear by other means (jog it), or check the \
                         envelope",
                        self.describe(from),
                        shown_clearance(*clearance)
                    ),
                }
            }
            Blocked::Close {
                pair,
                clearance,
                at,
                values,
            } => {
                let (code, text) = what(pair);
                let text = text.replace("{d}", &shown_clearance(*clearance));
                let whereabouts = if *at >= 1.0 {
                    "at the target".to_owned()
                } else {
                    format!("{}% of the way through the motion", number(at * 100.0, 0))
                };
                let advice = if *at >= 1.0 {
                    "Choose a target that keeps every link clear.".to_owned()
                } else {
                    match self.via_home(space, from, to) {
                        Some(home) => format!(
                            "Go around it through the home configuration: move to {home} first, \
                             then to the target (both motions pass this check)."
                        ),
                        None => "Go around it: move in steps, through configurations that keep \
                                 this link clear (for a keep-out, lift or turn the link away from \
                                 it first)."
                            .to_owned(),
                    }
                };
                Refusal {
                    code,
                    message: format!(
                        "{text} {whereabouts} (joints there: {}); every link must stay more than \
                         {tolerance} clear (the swept check's bound). {advice}",
                        self.describe(values)
                    ),
                }
            }
            Blocked::TooFar { distance, max } => Refusal {
                code: "max_step",
                message: format!(
                    "the tool point would move {} in one motion, more than the envelope's \
                     max_step {}: split the motion into shorter ones",
                    self.shown(space, *distance),
                    self.shown(space, *max)
                ),
            },
            Blocked::TooManySteps { pair, at } => {
                let (_, text) = what(pair);
                let text = text.replace("would come within {d} of", "stays close to");
                Refusal {
                    code: "too_close",
                    message: format!(
                        "{text} for so much of the motion (from {}% on) that it could not be \
                         proven clear: keep the links further from it",
                        number(at * 100.0, 0)
                    ),
                }
            }
        }
    }

    /// The home configuration, described, when going there from `from` and then to `to` both
    /// pass the check (and it is not where the motion starts or ends).
    fn via_home(&self, space: &Space, from: &[f64], to: &[f64]) -> Option<String> {
        let home = &self.home;
        if home.as_slice() == from || home.as_slice() == to {
            return None;
        }
        self.sweep(space, from, home).ok()?;
        self.sweep(space, home, to).ok()?;
        Some(format!("home ({})", self.describe(home)))
    }
}
