//! Exact distances between points, segments and the three solids.
//!
//! Every distance here is *to the solid*: 0 inside it or on its boundary. A segment's distance
//! is the minimum over `t ∈ [0, 1]` of the distance from `a + t (b − a)` to the solid, returned
//! with the minimising `t` (the earliest one among equals), so refusals can say where a motion
//! comes closest.
//!
//! How each minimum is found, exactly (up to rounding, never by sampling):
//! - sphere: the closest point of the segment to the centre, in closed form;
//! - box: the squared distance `Σ max(0, min_i − x_i(t), x_i(t) − max_i)²` is a quadratic in
//!   `t` between the breakpoints where a coordinate crosses a face's plane; each piece's
//!   minimum is in closed form;
//! - vertical cylinder: between the breakpoints where the segment crosses the lateral surface
//!   (a quadratic) or a cap's plane, the distance is `0` (inside), `ρ(t) − R` (beside it:
//!   minimum at the closest horizontal approach, closed form), `|z − cap|` (above or below it:
//!   linear, minimum at a piece's end), or `sqrt((ρ(t) − R)² + (z(t) − cap)²)` (beyond a rim:
//!   the distance from a line to a circle, whose closed form is a quartic). On such a piece the
//!   distance is convex (the distance to a convex set along a line is), so a golden-section
//!   search keeps a minimiser inside its bracket; it runs until the bracket is below f64's
//!   resolution in `t` (see [`golden`]), so the minimum it returns is exact up to rounding.
//!   The property tests (`tests/properties.rs`) check all three against dense sampling,
//!   grazing cases included.

use super::{Point, Solid};

/// The point of a segment closest to a solid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Closest {
    /// Where along the segment, from `0` (its start) to `1` (its end).
    pub(crate) t: f64,
    /// The distance from that point to the solid (`0` when the segment meets it).
    pub(crate) distance: f64,
}

/// `a − b`.
pub(crate) fn sub(a: Point, b: Point) -> Point {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// `a + b`.
pub(crate) fn add(a: Point, b: Point) -> Point {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// `k a`.
pub(crate) fn scale(a: Point, k: f64) -> Point {
    [a[0] * k, a[1] * k, a[2] * k]
}

/// `a · b`.
pub(crate) fn dot(a: Point, b: Point) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `|a|`.
pub(crate) fn norm(a: Point) -> f64 {
    dot(a, a).sqrt()
}

/// `a` scaled to length 1, or `None` for a zero (or non-finite) vector.
pub(crate) fn unit(a: Point) -> Option<Point> {
    let n = norm(a);
    (n > 0.0 && n.is_finite()).then(|| scale(a, 1.0 / n))
}

/// The point at `t` along the segment from `a` to `b` (exactly `a` at 0 and `b` at 1).
pub(crate) fn at(a: Point, b: Point, t: f64) -> Point {
    if t == 1.0 {
        return b;
    }
    add(a, scale(sub(b, a), t))
}

/// Whether every coordinate is finite.
pub(crate) fn is_finite(p: Point) -> bool {
    p.iter().all(|x| x.is_finite())
}

/// How far `x` is outside `[lo, hi]` (0 inside).
fn excess(x: f64, lo: f64, hi: f64) -> f64 {
    (lo - x).max(x - hi).max(0.0)
}

/// The distance from `(x, y)` to the vertical axis through `center`.
fn radial(p: Point, center: [f64; 2]) -> f64 {
    let (dx, dy) = (p[0] - center[0], p[1] - center[1]);
    // Coordinates are bounded (a workspace), so no overflow for `hypot` to guard against, and
    // it costs some 90 instructions more per call.
    (dx * dx + dy * dy).sqrt()
}

impl Solid {
    /// `"box"`, `"sphere"` or `"cylinder"`.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Solid::Box { .. } => "box",
            Solid::Sphere { .. } => "sphere",
            Solid::Cylinder { .. } => "cylinder",
        }
    }

    /// The distance from `p` to the solid: 0 inside it or on its boundary.
    pub(crate) fn distance(&self, p: Point) -> f64 {
        match *self {
            Solid::Box { min, max } => {
                let mut s = 0.0;
                for i in 0..3 {
                    let e = excess(p[i], min[i], max[i]);
                    s += e * e;
                }
                s.sqrt()
            }
            Solid::Sphere { center, radius } => (norm(sub(p, center)) - radius).max(0.0),
            Solid::Cylinder {
                center,
                radius,
                z_min,
                z_max,
            } => {
                let dr = (radial(p, center) - radius).max(0.0);
                let dz = excess(p[2], z_min, z_max);
                (dr * dr + dz * dz).sqrt()
            }
        }
    }

    /// The signed distance from `p` to the solid's boundary: the distance outside, minus the
    /// depth inside. Convex (the solids are), so along a segment it has no local minimum but
    /// the global one.
    pub(crate) fn signed_distance(&self, p: Point) -> f64 {
        let outside = self.distance(p);
        if outside > 0.0 {
            return outside;
        }
        match *self {
            Solid::Box { min, max } => {
                let mut depth = f64::INFINITY;
                for i in 0..3 {
                    depth = depth.min(p[i] - min[i]).min(max[i] - p[i]);
                }
                -depth
            }
            Solid::Sphere { center, radius } => norm(sub(p, center)) - radius,
            Solid::Cylinder {
                center,
                radius,
                z_min,
                z_max,
            } => -(radius - radial(p, center))
                .min(p[2] - z_min)
                .min(z_max - p[2]),
        }
    }

    /// Whether the ball of radius `r` around `p` lies inside the solid (touching its boundary
    /// from inside counts as inside). False for a non-finite `p`.
    pub(crate) fn contains_ball(&self, p: Point, r: f64) -> bool {
        match *self {
            Solid::Box { min, max } => (0..3).all(|i| min[i] + r <= p[i] && p[i] <= max[i] - r),
            Solid::Sphere { center, radius } => norm(sub(p, center)) <= radius - r,
            Solid::Cylinder {
                center,
                radius,
                z_min,
                z_max,
            } => radial(p, center) <= radius - r && z_min + r <= p[2] && p[2] <= z_max - r,
        }
    }

    /// The solid shrunk by `r` (its points whose `r`-ball lies inside it), or `None` when
    /// nothing is left.
    pub(crate) fn eroded(&self, r: f64) -> Option<Solid> {
        let solid = match *self {
            Solid::Box { min, max } => Solid::Box {
                min: [min[0] + r, min[1] + r, min[2] + r],
                max: [max[0] - r, max[1] - r, max[2] - r],
            },
            Solid::Sphere { center, radius } => Solid::Sphere {
                center,
                radius: radius - r,
            },
            Solid::Cylinder {
                center,
                radius,
                z_min,
                z_max,
            } => Solid::Cylinder {
                center,
                radius: radius - r,
                z_min: z_min + r,
                z_max: z_max - r,
            },
        };
        solid.is_proper().then_some(solid)
    }

    /// Whether the solid holds at least one point (every `min <= max`, radius `>= 0`).
    fn is_proper(&self) -> bool {
        match *self {
            Solid::Box { min, max } => (0..3).all(|i| min[i] <= max[i]),
            Solid::Sphere { radius, .. } => radius >= 0.0,
            Solid::Cylinder {
                radius,
                z_min,
                z_max,
                ..
            } => radius >= 0.0 && z_min <= z_max,
        }
    }

    /// The solid's axis-aligned bounding box.
    pub(crate) fn aabb(&self) -> (Point, Point) {
        match *self {
            Solid::Box { min, max } => (min, max),
            Solid::Sphere { center: c, radius } => (
                [c[0] - radius, c[1] - radius, c[2] - radius],
                [c[0] + radius, c[1] + radius, c[2] + radius],
            ),
            Solid::Cylinder {
                center: c,
                radius,
                z_min,
                z_max,
            } => (
                [c[0] - radius, c[1] - radius, z_min],
                [c[0] + radius, c[1] + radius, z_max],
            ),
        }
    }

    /// The point of the solid closest to `p` (`p` itself inside).
    pub(crate) fn closest_point(&self, p: Point) -> Point {
        match *self {
            Solid::Box { min, max } => [
                p[0].clamp(min[0], max[0]),
                p[1].clamp(min[1], max[1]),
                p[2].clamp(min[2], max[2]),
            ],
            Solid::Sphere { center, radius } => {
                let v = sub(p, center);
                let n = norm(v);
                if n <= radius {
                    p
                } else {
                    add(center, scale(v, radius / n))
                }
            }
            Solid::Cylinder {
                center,
                radius,
                z_min,
                z_max,
            } => {
                let rho = radial(p, center);
                let (x, y) = if rho <= radius {
                    (p[0], p[1])
                } else {
                    let k = radius / rho;
                    (
                        center[0] + (p[0] - center[0]) * k,
                        center[1] + (p[1] - center[1]) * k,
                    )
                };
                [x, y, p[2].clamp(z_min, z_max)]
            }
        }
    }

    /// The direction in which `p` leaves the solid fastest: away from its closest point when
    /// outside, towards the nearest face inside (up when there is no better answer).
    pub(crate) fn exit_direction(&self, p: Point) -> Point {
        const UP: Point = [0.0, 0.0, 1.0];
        if self.distance(p) > 0.0 {
            return unit(sub(p, self.closest_point(p))).unwrap_or(UP);
        }
        match *self {
            Solid::Box { min, max } => {
                let mut best = (f64::INFINITY, UP);
                for i in 0..3 {
                    let mut dir = [0.0; 3];
                    dir[i] = -1.0;
                    if p[i] - min[i] < best.0 {
                        best = (p[i] - min[i], dir);
                    }
                    dir[i] = 1.0;
                    if max[i] - p[i] < best.0 {
                        best = (max[i] - p[i], dir);
                    }
                }
                best.1
            }
            Solid::Sphere { center, .. } => unit(sub(p, center)).unwrap_or(UP),
            Solid::Cylinder {
                center,
                radius,
                z_min,
                z_max,
            } => {
                let side = radius - radial(p, center);
                let (up, down) = (z_max - p[2], p[2] - z_min);
                if side < up && side < down {
                    unit([p[0] - center[0], p[1] - center[1], 0.0]).unwrap_or([1.0, 0.0, 0.0])
                } else if down < up {
                    [0.0, 0.0, -1.0]
                } else {
                    UP
                }
            }
        }
    }

    /// The solid with every coordinate and length multiplied by `k` (`k > 0`): the same solid
    /// in another unit.
    #[cfg(feature = "robot")]
    pub(crate) fn scaled(&self, k: f64) -> Solid {
        match *self {
            Solid::Box { min, max } => Solid::Box {
                min: scale(min, k),
                max: scale(max, k),
            },
            Solid::Sphere { center, radius } => Solid::Sphere {
                center: scale(center, k),
                radius: radius * k,
            },
            Solid::Cylinder {
                center,
                radius,
                z_min,
                z_max,
            } => Solid::Cylinder {
                center: [center[0] * k, center[1] * k],
                radius: radius * k,
                z_min: z_min * k,
                z_max: z_max * k,
            },
        }
    }

    /// The height of the solid's top.
    pub(crate) fn top(&self) -> f64 {
        self.aabb().1[2]
    }

    /// The segment from `a` to `b`'s closest point to the solid, exactly (module docs).
    pub(crate) fn segment_distance(&self, a: Point, b: Point) -> Closest {
        if !is_finite(sub(b, a)) {
            // Ends so far apart that f64 overflows: a clearance that cannot be computed is none.
            return Closest {
                t: 0.0,
                distance: 0.0,
            };
        }
        let mut best = Best::new(self, a, b);
        if a == b {
            return best.get();
        }
        match *self {
            Solid::Sphere { center, .. } => {
                let d = sub(b, a);
                let t = (dot(sub(center, a), d) / dot(d, d)).clamp(0.0, 1.0);
                best.consider(t);
            }
            Solid::Box { min, max } => best.boxed(min, max),
            Solid::Cylinder {
                center,
                radius,
                z_min,
                z_max,
            } => best.cylinder(center, radius, z_min, z_max),
        }
        best.get()
    }
}

/// The breakpoints of a piecewise minimisation: `0`, the crossings inside `(0, 1)`, `1`, sorted.
struct Breaks {
    ts: [f64; 8],
    n: usize,
}

impl Breaks {
    /// Just `0` and `1`.
    fn new() -> Self {
        let mut ts = [0.0; 8];
        ts[1] = 1.0;
        Breaks { ts, n: 2 }
    }

    /// Adds `t` if it is inside `(0, 1)` (a NaN is not).
    fn push(&mut self, t: f64) {
        if t > 0.0 && t < 1.0 && self.n < self.ts.len() {
            self.ts[self.n] = t;
            self.n += 1;
        }
    }

    /// The breakpoints in order, and how many.
    fn sorted(mut self) -> ([f64; 8], usize) {
        self.ts[..self.n].sort_unstable_by(f64::total_cmp);
        (self.ts, self.n)
    }
}

/// The running minimum of the distance along a segment.
struct Best<'s> {
    solid: &'s Solid,
    a: Point,
    b: Point,
    t: f64,
    distance: f64,
}

impl<'s> Best<'s> {
    /// The minimum over the segment's two ends.
    fn new(solid: &'s Solid, a: Point, b: Point) -> Self {
        let mut best = Best {
            solid,
            a,
            b,
            t: 0.0,
            distance: f64::INFINITY,
        };
        best.consider(0.0);
        best.consider(1.0);
        best
    }

    /// The distance at `t`.
    fn eval(&self, t: f64) -> f64 {
        self.solid.distance(at(self.a, self.b, t))
    }

    /// Keeps `t` if the distance there is smaller (the earlier `t` among equals). A distance
    /// that cannot be computed (NaN, from coordinates near f64's limits) counts as 0: a motion
    /// whose clearance is unknown is refused.
    fn consider(&mut self, t: f64) {
        let d = self.eval(t);
        let d = if d.is_nan() { 0.0 } else { d };
        if d < self.distance || (d == self.distance && t < self.t) {
            self.t = t;
            self.distance = d;
        }
    }

    /// The minimum so far.
    fn get(&self) -> Closest {
        Closest {
            t: self.t,
            distance: self.distance,
        }
    }

    /// A box: closed form on each piece between the face-plane crossings.
    fn boxed(&mut self, min: Point, max: Point) {
        let (a, d) = (self.a, sub(self.b, self.a));
        let mut breaks = Breaks::new();
        for i in 0..3 {
            if d[i] != 0.0 {
                breaks.push((min[i] - a[i]) / d[i]);
                breaks.push((max[i] - a[i]) / d[i]);
            }
        }
        let (ts, n) = breaks.sorted();
        for w in ts[..n].windows(2) {
            let (t0, t1) = (w[0], w[1]);
            self.consider(t0);
            if t1 <= t0 {
                continue;
            }
            let mid = at(self.a, self.b, 0.5 * (t0 + t1));
            // On this piece each outside coordinate's excess is `c + s t`.
            let (mut num, mut den) = (0.0, 0.0);
            for i in 0..3 {
                let (c, s) = if mid[i] < min[i] {
                    (min[i] - a[i], -d[i])
                } else if mid[i] > max[i] {
                    (a[i] - max[i], d[i])
                } else {
                    continue;
                };
                num += c * s;
                den += s * s;
            }
            if den > 0.0 {
                self.consider((-num / den).clamp(t0, t1));
            } else {
                // Inside the box on the whole piece (or constant): its middle.
                self.consider(0.5 * (t0 + t1));
            }
        }
    }

    /// A vertical cylinder: closed form on each piece, a golden-section search beyond a rim.
    fn cylinder(&mut self, center: [f64; 2], radius: f64, z_min: f64, z_max: f64) {
        let (a, d) = (self.a, sub(self.b, self.a));
        let h0 = [a[0] - center[0], a[1] - center[1]];
        let qa = d[0] * d[0] + d[1] * d[1];
        let qb = h0[0] * d[0] + h0[1] * d[1];
        let qc = h0[0] * h0[0] + h0[1] * h0[1] - radius * radius;
        let mut breaks = Breaks::new();
        // The closest horizontal approach to the axis, where ρ(t) is smallest.
        let t_axis = if qa > 0.0 { -qb / qa } else { 0.0 };
        if qa > 0.0 {
            let disc = qb * qb - qa * qc;
            if disc >= 0.0 {
                let s = disc.sqrt();
                breaks.push((-qb - s) / qa);
                breaks.push((-qb + s) / qa);
            }
        }
        if d[2] != 0.0 {
            breaks.push((z_min - a[2]) / d[2]);
            breaks.push((z_max - a[2]) / d[2]);
        }
        let (ts, n) = breaks.sorted();
        for w in ts[..n].windows(2) {
            let (t0, t1) = (w[0], w[1]);
            self.consider(t0);
            if t1 <= t0 {
                continue;
            }
            let tm = 0.5 * (t0 + t1);
            let mid = at(self.a, self.b, tm);
            let beside = radial(mid, center) > radius;
            let beyond = mid[2] < z_min || mid[2] > z_max;
            match (beside, beyond) {
                // Inside on the whole piece.
                (false, false) => self.consider(tm),
                // ρ(t) − R: smallest at the closest horizontal approach.
                (true, false) => self.consider(t_axis.clamp(t0, t1)),
                // |z − cap|, linear: smallest at an end, both considered.
                (false, true) => {}
                // Beyond a rim: convex, bracketed; skipped when no point of the piece can
                // beat the best so far: there, the distance is at least
                // `hypot(min dr, min dz)`, `dr` smallest at the closest horizontal approach
                // and `dz` (linear) at an end.
                (true, true) => {
                    let (p0, p1) = (at(a, self.b, t0), at(a, self.b, t1));
                    let dr =
                        (radial(at(a, self.b, t_axis.clamp(t0, t1)), center) - radius).max(0.0);
                    let dz = excess(p0[2], z_min, z_max).min(excess(p1[2], z_min, z_max));
                    if (dr * dr + dz * dz).sqrt() < self.distance {
                        let (t, _) = golden(|t| self.eval(t), t0, t1);
                        self.consider(t);
                    }
                }
            }
        }
    }
}

/// The minimiser of `f`, convex on `[lo, hi]`, by golden-section search: each step keeps a
/// bracket that holds a minimiser (for a convex `f`, if `f(x1) <= f(x2)` with `x1 < x2`, a
/// minimiser lies left of `x2`, else right of `x1`), and the search stops when the bracket no
/// longer shrinks in f64 (at most 100 steps: 0.618¹⁰⁰ < 10⁻²⁰). The error in the minimum is
/// then the rounding of `f` near it. Returns `(t, f(t))`, the best point evaluated.
pub(crate) fn golden(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> (f64, f64) {
    const K: f64 = 0.618_033_988_749_894_8; // 1/φ
    let mut x1 = hi - K * (hi - lo);
    let mut x2 = lo + K * (hi - lo);
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..100 {
        if x1 >= x2 || hi - lo <= f64::EPSILON * hi.abs().max(lo.abs()) {
            break;
        }
        if f1 <= f2 {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - K * (hi - lo);
            f1 = f(x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + K * (hi - lo);
            f2 = f(x2);
        }
    }
    if f1 <= f2 { (x1, f1) } else { (x2, f2) }
}
