//! What a refused motion is told: each problem says what was wrong, what is allowed and how to
//! fix it, with a point to use when one can be found. A suggested point is rounded to the
//! precision numbers print at, and checked *as printed* (parsed back) before it is suggested.
//! The whole text stays under [`MAX_REFUSAL_BYTES`].

use std::fmt::{self, Write as _};

use super::check::{Findings, Found};
use super::geometry::{Closest, add, at, dot, golden, is_finite, norm, scale, sub, unit};
use super::{Envelope, Kind, Point, Solid};
use crate::echo::echo;

/// The most bytes a refusal's text takes.
pub(crate) const MAX_REFUSAL_BYTES: usize = 2_000;

/// The most bytes one problem's line takes.
const MAX_LINE_BYTES: usize = 420;

/// A refused motion: the problems found (the first few, worded) and how many in all.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Refusal {
    resource: Option<String>,
    /// The tool whose call was refused, and what its caller is told after the problems.
    tool: Option<Box<(String, String)>>,
    frame: String,
    problems: Vec<Problem>,
    total: usize,
}

/// One problem of a refused motion.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Problem {
    kind: ProblemKind,
    message: String,
    suggestion: Option<Point>,
}

/// What kind of problem, for the audit log and telemetry. Shapes are named by their `name`,
/// else by list and index (`allow shape 2 (box)`); segment `i` is the one ending at point `i`
/// (segment 0 starts at the current position).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ProblemKind {
    /// A coordinate of point `point` (`None`: of the current position) is NaN or infinite.
    NotFinite {
        /// The point.
        point: Option<usize>,
    },
    /// A point's tool ball is not inside an allow shape.
    OutsideAllow {
        /// The allow shape.
        shape: String,
        /// The point.
        point: usize,
    },
    /// A point's tool ball meets a keep-out.
    InKeepOut {
        /// The keep-out.
        shape: String,
        /// The point.
        point: usize,
    },
    /// A straight segment meets a keep-out that neither of its ends does.
    PathCrossesKeepOut {
        /// The keep-out.
        shape: String,
        /// The segment.
        segment: usize,
    },
    /// The current position is within reach of a keep-out, and the first segment does not move
    /// straight out of it and clear of it.
    StartInKeepOut {
        /// The keep-out.
        shape: String,
    },
    /// A straight segment is longer than `max_step`.
    StepTooLong {
        /// The segment.
        segment: usize,
        /// Its length.
        length: f64,
    },
}

impl ProblemKind {
    /// A short code for the kind: `outside_allow`, `in_keep_out`, `path_crosses_keep_out`,
    /// `start_in_keep_out`, `step_too_long` or `not_finite`.
    pub(crate) fn code(&self) -> &'static str {
        match self {
            ProblemKind::NotFinite { .. } => "not_finite",
            ProblemKind::OutsideAllow { .. } => "outside_allow",
            ProblemKind::InKeepOut { .. } => "in_keep_out",
            ProblemKind::PathCrossesKeepOut { .. } => "path_crosses_keep_out",
            ProblemKind::StartInKeepOut { .. } => "start_in_keep_out",
            ProblemKind::StepTooLong { .. } => "step_too_long",
        }
    }
}

impl Problem {
    /// What kind of problem.
    pub(crate) fn kind(&self) -> &ProblemKind {
        &self.kind
    }

    /// The problem in words, for the model.
    #[cfg(test)]
    pub(crate) fn message(&self) -> &str {
        &self.message
    }

    /// The point the message suggests (a nearest allowed point, a point clear of a keep-out, a
    /// waypoint around one or in between), exactly as printed: it passes the checks the message
    /// says it does.
    #[cfg(test)]
    pub(crate) fn suggestion(&self) -> Option<Point> {
        self.suggestion
    }
}

impl Refusal {
    /// The refusal of a motion (`start`, `points`, `kind` as checked) for the problems found.
    pub(super) fn new(
        envelope: &Envelope,
        start: Option<Point>,
        points: &[Point],
        kind: Kind,
        found: Findings,
    ) -> Refusal {
        let words = Words::new(envelope, start, points, kind);
        Refusal {
            resource: None,
            tool: None,
            frame: envelope.frame.clone(),
            problems: found.kept.iter().map(|f| words.problem(f)).collect(),
            total: found.total,
        }
    }

    /// The same refusal naming the resource whose envelope refused (`arm`).
    pub(crate) fn with_resource(mut self, resource: &str) -> Refusal {
        self.resource = Some(resource.to_owned());
        self
    }

    /// The same refusal as the answer to a call of `tool`, ending with `footer` (what did not
    /// happen, and what to do) instead of the generic last line.
    pub(crate) fn for_tool(mut self, tool: &str, footer: String) -> Refusal {
        self.tool = Some(Box::new((tool.to_owned(), footer)));
        self
    }

    /// The first problems found (at most [`super::check::MAX_PROBLEMS`]), in the motion's order.
    pub(crate) fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// How many problems were found in all.
    #[cfg(test)]
    pub(crate) fn total(&self) -> usize {
        self.total
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const FOOTER: &str = "\nThe tool did not run: nothing moved. Change the motion as \
                              above and call it again.";
        let footer = match self.tool.as_deref() {
            Some((_, footer)) => format!("\n{footer}"),
            None => FOOTER.to_owned(),
        };
        let mut text = match self.tool.as_deref() {
            Some((tool, _)) => format!("Motion of {} refused by the envelope", echo(tool)),
            None => String::from("Motion refused by the envelope"),
        };
        if let Some(resource) = &self.resource {
            let _ = write!(text, " of {}", echo(resource));
        }
        let _ = write!(
            text,
            " (frame {}; {} problem{}):",
            echo(&self.frame),
            self.total,
            if self.total == 1 { "" } else { "s" }
        );
        let mut listed = 0;
        for problem in &self.problems {
            let line = cut(&problem.message, MAX_LINE_BYTES);
            // Room for this line, the "… and n more" line and the footer.
            if text.len() + line.len() + 3 + 120 + footer.len() > MAX_REFUSAL_BYTES {
                break;
            }
            text.push_str("\n- ");
            text.push_str(line.as_ref());
            listed += 1;
        }
        if self.total > listed {
            let _ = write!(
                text,
                "\n- … and {} more (fix the problems above first; the next call lists what \
                 remains)",
                self.total - listed
            );
        }
        text.push_str(&footer);
        f.write_str(&text)
    }
}

impl std::error::Error for Refusal {}

/// `line` cut to at most `max` bytes on a character boundary, ending in `…` when cut.
fn cut(line: &str, max: usize) -> std::borrow::Cow<'_, str> {
    if line.len() <= max {
        return line.into();
    }
    let mut end = max - '…'.len_utf8();
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &line[..end]).into()
}

/// `x` with at most `decimals` decimals, without trailing zeros (`300`, `808.1`, never
/// `2.5500000000000003`); `-0` as `0`; beyond 10¹⁵ in exponent form.
pub(crate) fn number(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    if x.abs() >= 1e15 {
        return format!("{x:e}");
    }
    let mut s = format!("{x:.decimals$}");
    if s.contains('.') {
        let len = s.trim_end_matches('0').trim_end_matches('.').len();
        s.truncate(len);
    }
    if s == "-0" {
        s = "0".to_owned();
    }
    s
}

/// `x` as its shortest round-trip text after rounding to 12 significant digits: a declared
/// value as written (`600`, `0.1`), a computed one without noise (`2.55`, not
/// `2.5500000000000003`).
pub(crate) fn clean(x: f64) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    let rounded: f64 = format!("{x:.11e}").parse().unwrap_or(x);
    if rounded == 0.0 {
        return "0".to_owned();
    }
    rounded.to_string()
}

/// The decimals numbers print with for an envelope whose allowed region spans `extent`: about
/// five significant digits of it (0.1 for 1700 mm, 0.0001 for 1.7 m).
fn decimals_for(extent: f64) -> usize {
    if !(extent > 0.0 && extent.is_finite()) {
        return 1;
    }
    (4 - extent.log10().floor() as i32).clamp(0, 9) as usize
}

/// What the refusal's sentences are made of.
struct Words<'a> {
    envelope: &'a Envelope,
    /// The current position as reported (perhaps not finite).
    reported: Option<Point>,
    /// The current position, when known and finite.
    start: Option<Point>,
    points: &'a [Point],
    kind: Kind,
    decimals: usize,
    /// The clearance beyond the tool radius a suggested point keeps from a keep-out.
    margin: f64,
}

impl<'a> Words<'a> {
    /// The words for a motion checked against `envelope`.
    fn new(envelope: &'a Envelope, start: Option<Point>, points: &'a [Point], kind: Kind) -> Self {
        let extent = envelope
            .bounding_box()
            .map(|(lo, hi)| (0..3).map(|i| hi[i] - lo[i]).fold(0.0, f64::max))
            .unwrap_or(0.0);
        let decimals = decimals_for(extent);
        let step = 10f64.powi(-(decimals as i32));
        let margin = (0.5 * envelope.tool_radius)
            .max(0.01 * extent)
            .max(10.0 * step);
        Words {
            envelope,
            reported: start,
            start: start.filter(|s| is_finite(*s)),
            points,
            kind,
            decimals,
            margin,
        }
    }

    /// The envelope's unit.
    fn unit(&self) -> &str {
        &self.envelope.unit
    }

    /// `x` at the refusal's precision.
    fn num(&self, x: f64) -> String {
        number(x, self.decimals)
    }

    /// `x` and `limit` printed with enough decimals to tell them apart.
    fn pair(&self, x: f64, limit: f64) -> (String, String) {
        let mut decimals = self.decimals;
        loop {
            let (a, b) = (number(x, decimals), number(limit, decimals));
            if a != b || x == limit || decimals >= self.decimals + 12 {
                return (a, b);
            }
            decimals += 1;
        }
    }

    /// A length with its unit: `40 mm`.
    fn len(&self, x: f64) -> String {
        format!("{} {}", self.num(x), self.unit())
    }

    /// `(x, y, z)`, without the unit.
    fn coords(&self, p: Point) -> String {
        format!(
            "({}, {}, {})",
            self.num(p[0]),
            self.num(p[1]),
            self.num(p[2])
        )
    }

    /// `(x, y, z) mm`.
    fn pt(&self, p: Point) -> String {
        format!("{} {}", self.coords(p), self.unit())
    }

    /// `p` rounded as it prints (each coordinate parsed back from its text).
    fn rounded(&self, p: Point) -> Point {
        p.map(|x| self.num(x).parse().unwrap_or(x))
    }

    /// `the target`, or `waypoint 3`.
    fn point_label(&self, i: usize) -> String {
        match self.kind {
            Kind::Target => "the target".to_owned(),
            Kind::Path => format!("waypoint {i}"),
        }
    }

    /// Where segment `i` starts: the current position, or the previous point.
    fn from(&self, i: usize) -> (Point, String) {
        match (i, self.start) {
            (0, Some(start)) => (start, "the current position".to_owned()),
            _ => (self.points[i - 1], self.point_label(i - 1)),
        }
    }

    /// ` with the tool's 40 mm radius`, or nothing for a point tool.
    fn with_tool(&self) -> String {
        let r = self.envelope.tool_radius;
        if r > 0.0 {
            format!(" with the tool's {} radius", self.len(r))
        } else {
            String::new()
        }
    }

    /// The shape's name for [`ProblemKind`]: its own, else `allow shape 2 (box)`.
    fn shape_name(&self, keep_out: bool, k: usize) -> String {
        let (list, word) = if keep_out {
            (&self.envelope.keep_out, "keep-out")
        } else {
            (&self.envelope.allow, "allow shape")
        };
        match &list[k].name {
            Some(name) => name.clone(),
            None => format!("{word} {k} ({})", list[k].solid.kind()),
        }
    }

    /// The solid's dimensions: `(-100, 350, 0) to (100, 450, 950) mm`.
    fn geometry(&self, solid: &Solid) -> String {
        match *solid {
            Solid::Box { min, max } => format!("{} to {}", self.coords(min), self.pt(max)),
            Solid::Sphere { center, radius } => {
                format!("centre {}, radius {}", self.pt(center), self.len(radius))
            }
            Solid::Cylinder {
                center,
                radius,
                z_min,
                z_max,
            } => format!(
                "axis at ({}, {}) {}, radius {}, z from {} to {}",
                self.num(center[0]),
                self.num(center[1]),
                self.unit(),
                self.len(radius),
                self.num(z_min),
                self.len(z_max)
            ),
        }
    }

    /// The solid's kind and dimensions: `box (-100, 350, 0) to (100, 450, 950) mm`.
    fn kind_geometry(&self, solid: &Solid) -> String {
        match solid {
            Solid::Box { .. } => format!("box {}", self.geometry(solid)),
            Solid::Sphere { .. } => format!("sphere, {}", self.geometry(solid)),
            Solid::Cylinder { .. } => format!("vertical cylinder, {}", self.geometry(solid)),
        }
    }

    /// `the allowed sphere `reach` (centre .., radius ..)` or `allow shape 2 (box .. to ..)`.
    fn allow_ref(&self, k: usize) -> String {
        let shape = &self.envelope.allow[k];
        match &shape.name {
            Some(name) => format!(
                "the allowed {} {} ({})",
                shape.solid.kind(),
                echo(name),
                self.geometry(&shape.solid)
            ),
            None => format!("allow shape {k} ({})", self.kind_geometry(&shape.solid)),
        }
    }

    /// `keep-out `camera_mast` (box .. to ..)`.
    fn keep_out_ref(&self, k: usize) -> String {
        let shape = &self.envelope.keep_out[k];
        let geometry = self.kind_geometry(&shape.solid);
        match &shape.name {
            Some(name) => format!("keep-out {} ({geometry})", echo(name)),
            None => format!("keep-out {k} ({geometry})"),
        }
    }

    /// One problem, worded.
    fn problem(&self, found: &Found) -> Problem {
        let (kind, message, suggestion) = match *found {
            Found::NotFinite { point } => self.not_finite(point),
            Found::OutsideAllow { shape, point } => self.outside_allow(shape, point),
            Found::InKeepOut {
                shape,
                point,
                distance,
            } => self.in_keep_out(shape, point, distance),
            Found::Crosses {
                shape,
                segment,
                closest,
            } => self.crosses(shape, segment, closest),
            Found::StartInKeepOut { shape, moves_out } => self.start_in_keep_out(shape, moves_out),
            Found::StepTooLong { segment, length } => self.step_too_long(segment, length),
        };
        Problem {
            kind,
            message,
            suggestion,
        }
    }

    /// A point (or the current position) that is not finite.
    fn not_finite(&self, point: Option<usize>) -> (ProblemKind, String, Option<Point>) {
        let message = match point {
            None => format!(
                "the current position reported for the resource, {}, is not a finite point: \
                 no motion can be checked against the envelope until it is",
                self.coords(self.reported.unwrap_or([f64::NAN; 3]))
            ),
            Some(i) => format!(
                "{} {} has a coordinate that is not a finite number: give every coordinate as \
                 a number",
                self.point_label(i),
                self.coords(self.points[i])
            ),
        };
        (ProblemKind::NotFinite { point }, message, None)
    }

    /// Point `i` outside allow shape `k`: by how much, and the nearest allowed point.
    fn outside_allow(&self, k: usize, i: usize) -> (ProblemKind, String, Option<Point>) {
        let p = self.points[i];
        let r = self.envelope.tool_radius;
        let solid = &self.envelope.allow[k].solid;
        let mut parts = Vec::new();
        let axes = |parts: &mut Vec<String>, lo: Point, hi: Point, from: usize| {
            for axis in from..3 {
                let name = ["x", "y", "z"][axis];
                if p[axis] < lo[axis] + r {
                    let (v, l) = self.pair(p[axis], lo[axis] + r);
                    parts.push(format!("{name} {v} is below the least allowed {l}"));
                } else if p[axis] > hi[axis] - r {
                    let (v, l) = self.pair(p[axis], hi[axis] - r);
                    parts.push(format!("{name} {v} is above the most allowed {l}"));
                }
            }
        };
        match *solid {
            Solid::Box { min, max } => axes(&mut parts, min, max, 0),
            Solid::Sphere { center, radius } => {
                let (d, most) = self.pair(norm(sub(p, center)), radius - r);
                parts.push(format!(
                    "it is {d} {u} from the centre, the most allowed is {most} {u}",
                    u = self.unit()
                ));
            }
            Solid::Cylinder {
                center,
                radius,
                z_min,
                z_max,
            } => {
                let rho = (p[0] - center[0]).hypot(p[1] - center[1]);
                if rho > radius - r {
                    let (d, most) = self.pair(rho, radius - r);
                    parts.push(format!(
                        "it is {d} {u} from the axis, the most allowed is {most} {u}",
                        u = self.unit()
                    ));
                }
                axes(&mut parts, [0.0, 0.0, z_min], [0.0, 0.0, z_max], 2);
            }
        }
        let tool = match (solid, self.with_tool()) {
            (_, none) if none.is_empty() => none,
            (Solid::Sphere { .. }, with) => with,
            (_, with) => format!(" ({})", with.trim_start()),
        };
        let mut message = format!(
            "{} {} is outside {}: {}{tool}.",
            self.point_label(i),
            self.pt(p),
            self.allow_ref(k),
            parts.join("; "),
        );
        let suggestion = self.nearest_allowed(p);
        match suggestion {
            Some(q) => {
                let _ = write!(message, " The nearest allowed point is {}.", self.pt(q));
            }
            None => message.push_str(" Choose a point inside it."),
        }
        let kind = ProblemKind::OutsideAllow {
            shape: self.shape_name(false, k),
            point: i,
        };
        (kind, message, suggestion)
    }

    /// The point nearest `p` inside every allow shape (shrunk by the tool radius and a margin
    /// for rounding), rounded as printed, if it passes the point's checks.
    fn nearest_allowed(&self, p: Point) -> Option<Point> {
        let step = 10f64.powi(-(self.decimals as i32));
        for margin in [step, 4.0 * step, 0.25 * step] {
            let shrink = self.envelope.tool_radius + margin;
            let sets: Option<Vec<Solid>> = self
                .envelope
                .allow
                .iter()
                .map(|s| s.solid.eroded(shrink))
                .collect();
            let Some(sets) = sets else { continue };
            let q = self.rounded(project(p, &sets));
            if self.envelope.point_ok(q) {
                return Some(q);
            }
        }
        None
    }

    /// Point `i` within reach of keep-out `k`, and a point clear of it.
    fn in_keep_out(
        &self,
        k: usize,
        i: usize,
        distance: f64,
    ) -> (ProblemKind, String, Option<Point>) {
        let p = self.points[i];
        let r = self.envelope.tool_radius;
        let mut message = format!("{} {} ", self.point_label(i), self.pt(p));
        if distance == 0.0 {
            let _ = write!(message, "is inside {}.", self.keep_out_ref(k));
        } else {
            let (d, need) = self.pair(distance, r);
            let _ = write!(
                message,
                "is only {d} {u} from {}, and the tool needs more than {need} {u}.",
                self.keep_out_ref(k),
                u = self.unit()
            );
        }
        let solid = &self.envelope.keep_out[k].solid;
        let suggestion = self.clear_of(solid, p).into_iter().find(|&w| {
            let before = match (i, self.start) {
                (0, Some(s)) => self.envelope.segment_ok(s, w, true),
                (0, None) => true,
                _ => self.envelope.segment_ok(self.points[i - 1], w, false),
            };
            let after = match self.points.get(i + 1) {
                Some(&next) => self.envelope.segment_ok(w, next, false),
                None => true,
            };
            before && after
        });
        match suggestion {
            Some(w) => {
                let _ = write!(
                    message,
                    " Choose a point clear of it, such as {}.",
                    self.pt(w)
                );
            }
            None if r > 0.0 => {
                let _ = write!(
                    message,
                    " Choose a point more than {} from it.",
                    self.len(r)
                );
            }
            None => message.push_str(" Choose a point outside it."),
        }
        let kind = ProblemKind::InKeepOut {
            shape: self.shape_name(true, k),
            point: i,
        };
        (kind, message, suggestion)
    }

    /// Points near `p` clear of `solid` by the tool radius and the margin, rounded as printed,
    /// passing the point's checks: straight out of it, then over its top.
    fn clear_of(&self, solid: &Solid, p: Point) -> Vec<Point> {
        let clearance = self.envelope.tool_radius + self.margin;
        let out = solid.exit_direction(p);
        let mut candidates = Vec::new();
        for k in [1.0, 2.0, 4.0] {
            candidates.extend(push_out(solid, p, out, k * clearance));
        }
        for k in [1.0, 2.0, 4.0] {
            candidates.push([p[0], p[1], solid.top() + k * clearance]);
        }
        candidates
            .into_iter()
            .map(|w| self.rounded(w))
            .filter(|&w| self.envelope.point_ok(w))
            .collect()
    }

    /// Segment `i` meeting keep-out `k`, where, and a way around it.
    fn crosses(
        &self,
        k: usize,
        i: usize,
        closest: Closest,
    ) -> (ProblemKind, String, Option<Point>) {
        let (a, from) = self.from(i);
        let b = self.points[i];
        let to = self.point_label(i);
        let r = self.envelope.tool_radius;
        let solid = &self.envelope.keep_out[k].solid;
        // Through it: where it is deepest (any point of the stretch inside is as close).
        let t = if closest.distance == 0.0 {
            golden(|t| solid.signed_distance(at(a, b, t)), 0.0, 1.0).0
        } else {
            closest.t
        };
        let p = at(a, b, t);
        // Through it, or along or across its boundary only.
        let through = solid.signed_distance(p) < 0.0;
        let mut message = format!(
            "the straight path from {from} {} to {to} {} {} {}: ",
            self.pt(a),
            self.pt(b),
            match (closest.distance == 0.0, through) {
                (true, true) => "enters",
                (true, false) => "touches",
                (false, _) => "comes too close to",
            },
            self.keep_out_ref(k)
        );
        if closest.distance == 0.0 && through {
            let _ = write!(message, "it goes through it at {}", self.pt(p));
        } else if closest.distance == 0.0 {
            let _ = write!(
                message,
                "it touches it at {} (touching counts as entering)",
                self.pt(p)
            );
        } else {
            let (d, need) = self.pair(closest.distance, r);
            let _ = write!(
                message,
                "it comes within {d} {u} of it at {}, and the tool needs more than {need} {u}",
                self.pt(p),
                u = self.unit()
            );
        }
        let from_start = i == 0;
        let suggestion = self.detour(solid, a, b, p, from_start);
        match (suggestion, self.kind) {
            (Some(w), Kind::Target) => {
                let _ = write!(
                    message,
                    ". Go around it: move first to {}, then to the target.",
                    self.pt(w)
                );
            }
            (Some(w), Kind::Path) => {
                let _ = write!(
                    message,
                    ". Go around it: add a waypoint between them such as {}.",
                    self.pt(w)
                );
            }
            (None, _) => message.push_str(
                ". Go around it in several steps: no single point between them clears it.",
            ),
        }
        let kind = ProblemKind::PathCrossesKeepOut {
            shape: self.shape_name(true, k),
            segment: i,
        };
        (kind, message, suggestion)
    }

    /// A point `w` such that the motion `a → w → b` passes every check (`w` rounded as
    /// printed): the segment's closest point `p` pushed away from the solid, then over its top.
    fn detour(
        &self,
        solid: &Solid,
        a: Point,
        b: Point,
        p: Point,
        from_start: bool,
    ) -> Option<Point> {
        let clearance = self.envelope.tool_radius + self.margin;
        let along = unit(sub(b, a));
        let (lo, hi) = solid.aabb();
        let from_centre = sub(p, scale(add(lo, hi), 0.5));
        // Away from the solid's closest point (when the segment passes outside it), then
        // sideways (horizontally across the segment, the side away from its centre first),
        // then across the segment away from its centre.
        let mut directions: Vec<Point> = unit(sub(p, solid.closest_point(p))).into_iter().collect();
        if let Some(side) = across(cross(along.unwrap_or([0.0; 3]), [0.0, 0.0, 1.0]), along)
            .or_else(|| across([1.0, 0.0, 0.0], along))
        {
            let side = if dot(side, from_centre) >= 0.0 {
                side
            } else {
                scale(side, -1.0)
            };
            directions.extend([side, scale(side, -1.0)]);
        }
        directions.extend(across(from_centre, along));
        let mut candidates = Vec::new();
        for direction in directions {
            for k in [1.0, 2.0, 4.0] {
                candidates.extend(push_out(solid, p, direction, k * clearance));
            }
        }
        for k in [1.0, 2.0, 4.0] {
            candidates.push([p[0], p[1], solid.top() + k * clearance]);
        }
        candidates.into_iter().map(|w| self.rounded(w)).find(|&w| {
            self.envelope.point_ok(w)
                && self.envelope.segment_ok(a, w, from_start)
                && self.envelope.segment_ok(w, b, false)
        })
    }

    /// A first segment that does not move straight out of keep-out `k`, and a way out.
    fn start_in_keep_out(&self, k: usize, moves_out: bool) -> (ProblemKind, String, Option<Point>) {
        let a = self.start.unwrap_or([f64::NAN; 3]);
        let b = self.points[0];
        let solid = &self.envelope.keep_out[k].solid;
        let r = self.envelope.tool_radius;
        let distance = solid.distance(a);
        let mut message = format!("the current position {} is ", self.pt(a));
        if distance == 0.0 {
            message.push_str("inside ");
        } else {
            let _ = write!(message, "only {} from ", self.len(distance));
        }
        let _ = write!(
            message,
            "{}, so the only motion allowed is straight out of it; the path to {} {} ",
            self.keep_out_ref(k),
            self.point_label(0),
            self.pt(b)
        );
        let end = solid.distance(b);
        if !moves_out {
            message.push_str("does not move away from it");
        } else if end == 0.0 {
            message.push_str("ends inside it");
        } else {
            let (d, need) = self.pair(end, r);
            let _ = write!(
                message,
                "ends only {d} {u} from it (the tool needs more than {need} {u})",
                u = self.unit()
            );
        }
        let clearance = r + self.margin;
        let suggestion = [1.0, 2.0, 4.0]
            .into_iter()
            .filter_map(|m| push_out(solid, a, solid.exit_direction(a), m * clearance))
            .map(|w| self.rounded(w))
            .find(|&w| self.envelope.point_ok(w) && self.envelope.segment_ok(a, w, true));
        match suggestion {
            Some(w) => {
                let _ = write!(
                    message,
                    ". Move straight out of it first, for example to {}, then on.",
                    self.pt(w)
                );
            }
            None => message.push_str(". Move straight out of it first, then on."),
        }
        let kind = ProblemKind::StartInKeepOut {
            shape: self.shape_name(true, k),
        };
        (kind, message, suggestion)
    }

    /// Segment `i` longer than `max_step`, and a first step.
    fn step_too_long(&self, i: usize, length: f64) -> (ProblemKind, String, Option<Point>) {
        let (a, from) = self.from(i);
        let b = self.points[i];
        let max = self.envelope.max_step.unwrap_or(f64::INFINITY);
        let (l, m) = self.pair(length, max);
        let u = self.unit();
        let steps = (length / max).ceil().max(2.0);
        let from_start = i == 0;
        let suggestion = (0..3)
            .map(|extra| self.rounded(at(a, b, 1.0 / (steps + f64::from(extra)))))
            .find(|&w| self.envelope.point_ok(w) && self.envelope.segment_ok(a, w, from_start));
        let mut message = match self.kind {
            Kind::Target => format!(
                "the motion from the current position {} to the target {} is {l} {u} long; the \
                 most one straight motion may travel is {m} {u}: move there in {} steps",
                self.pt(a),
                self.pt(b),
                number(steps, 0)
            ),
            Kind::Path => {
                let between = if steps <= 2.0 {
                    "a waypoint".to_owned()
                } else {
                    format!("at least {} waypoints", number(steps - 1.0, 0))
                };
                let from = if from_start {
                    format!("from the current position {}", self.pt(a))
                } else {
                    from
                };
                format!(
                    "segment {i} ({from} to waypoint {i}) is {l} {u} long; the most one \
                     straight motion may travel is {m} {u}: add {between} between them"
                )
            }
        };
        match (suggestion, self.kind) {
            (Some(w), Kind::Target) => {
                let _ = write!(message, ", the first to {}.", self.pt(w));
            }
            (Some(w), Kind::Path) if steps <= 2.0 => {
                let _ = write!(message, ", such as {}.", self.pt(w));
            }
            (Some(w), Kind::Path) => {
                let _ = write!(message, ", the first such as {}.", self.pt(w));
            }
            (None, _) => message.push('.'),
        }
        let kind = ProblemKind::StepTooLong { segment: i, length };
        (kind, message, suggestion)
    }
}

/// The point along the ray from `p` in direction `dir` where the distance to `solid` first
/// reaches `want` (within 64 steps, each the shortfall: the distance is 1-Lipschitz).
pub(super) fn push_out(solid: &Solid, p: Point, dir: Point, want: f64) -> Option<Point> {
    let mut lambda = (want - solid.distance(p)).max(0.0);
    for _ in 0..64 {
        let w = add(p, scale(dir, lambda));
        let d = solid.distance(w);
        if d >= want {
            return Some(w);
        }
        lambda += (want - d).max(0.01 * want);
    }
    None
}

/// `a × b`.
fn cross(a: Point, b: Point) -> Point {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `v` without its component along `along` (a unit vector), scaled to length 1.
fn across(v: Point, along: Option<Point>) -> Option<Point> {
    let whole = norm(v);
    let v = match along {
        Some(s) => sub(v, scale(s, dot(v, s))),
        None => v,
    };
    let n = norm(v);
    // A direction (almost) along the segment says nothing about which side to go round.
    (n > 1e-9 * whole).then(|| scale(v, 1.0 / n))
}

/// The point nearest `p` in the intersection of convex `sets` (Dykstra's alternating
/// projections, which converge to the projection onto the intersection; not exact, which is why
/// the caller shrinks the sets by a margin and checks the result).
pub(super) fn project(p: Point, sets: &[Solid]) -> Point {
    if let [only] = sets {
        return only.closest_point(p);
    }
    let mut x = p;
    let mut corrections = vec![[0.0; 3]; sets.len()];
    for _ in 0..500 {
        let before = x;
        for (set, correction) in sets.iter().zip(&mut corrections) {
            let y = add(x, *correction);
            x = set.closest_point(y);
            *correction = sub(y, x);
        }
        if norm(sub(x, before)) <= 1e-12 * (1.0 + norm(x)) {
            break;
        }
    }
    x
}
