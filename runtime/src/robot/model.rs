//! The robot as the runtime uses it, built once from its [`RobotDef`]: the chain's joints as
//! nalgebra transforms, the links that have capsules ("bodies") with their capsules in their
//! chain frame, and the bounds the swept check rests on (how far a point of a body can move
//! per unit of each joint's motion), worked out here once.

use nalgebra::{Isometry3, Point3, Quaternion, Translation3, Unit, UnitQuaternion, Vector3};

use super::def::{JointKind, LimitsDef, RobotDef};

/// A moving joint of the chain.
#[derive(Debug, Clone)]
pub(crate) struct Joint {
    pub(crate) name: String,
    pub(crate) kind: JointKind,
    pub(crate) parent: String,
    pub(crate) child: String,
    /// Its frame at zero in the previous joint's frame.
    pub(crate) origin: Isometry3<f64>,
    pub(crate) axis: Unit<Vector3<f64>>,
    /// `(leader, multiplier, offset)`.
    pub(crate) mimic: Option<(usize, f64, f64)>,
    pub(crate) limits: LimitsDef,
    /// How far its frame's origin can be from the previous joint's: the origin's length, plus
    /// the travel for a prismatic joint.
    pub(crate) reach: f64,
}

/// A capsule in a chain frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Capsule {
    pub(crate) a: Point3<f64>,
    pub(crate) b: Point3<f64>,
    pub(crate) radius: f64,
}

/// A link that has capsules.
#[derive(Debug, Clone)]
pub(crate) struct Body {
    /// The link (an index into [`Robot::links`]).
    pub(crate) link: usize,
    /// The chain frame it moves with.
    pub(crate) frame: usize,
    /// Its capsules in that frame.
    pub(crate) capsules: Vec<Capsule>,
    /// A ball holding every capsule, in that frame: centre and radius.
    pub(crate) center: Point3<f64>,
    pub(crate) bound: f64,
    /// For each chain joint `j < frame`: how far a point of the body can move per unit of
    /// joint `j`'s motion, in any configuration (module docs of `sweep.rs`).
    pub(crate) rate: Vec<f64>,
}

/// A link of the URDF.
#[derive(Debug, Clone)]
pub(crate) struct Link {
    pub(crate) name: String,
    pub(crate) parent: Option<usize>,
    pub(crate) frame: usize,
    /// Its frame in its chain frame.
    pub(crate) placement: Isometry3<f64>,
    /// In its own frame, as declared.
    pub(crate) capsules: Vec<Capsule>,
    pub(crate) swept_by: Option<String>,
    /// Its body, when it has capsules.
    pub(crate) body: Option<usize>,
}

/// The robot: see the [module](self).
#[doc(hidden)]
#[derive(Debug, Clone)]
pub struct Robot {
    pub(crate) name: String,
    pub(crate) urdf: String,
    pub(crate) sha256: String,
    pub(crate) base: String,
    pub(crate) joints: Vec<Joint>,
    /// The chain index of each parameter joint, in order.
    pub(crate) params: Vec<usize>,
    pub(crate) links: Vec<Link>,
    pub(crate) bodies: Vec<Body>,
    /// The tool point: its frame, the point in it, the tip link and the declared offset.
    pub(crate) tip_frame: usize,
    pub(crate) tip_point: Point3<f64>,
    pub(crate) tip_link: String,
    pub(crate) tip_offset: [f64; 3],
    /// Body pairs checked for self-collision, smaller index first.
    pub(crate) pairs: Vec<(usize, usize)>,
    /// Link pairs an SRDF disables.
    pub(crate) disabled: Vec<(usize, usize)>,
    pub(crate) home: Vec<f64>,
    pub(crate) home_from: String,
}

fn isometry(xyz: [f64; 3], quat: [f64; 4]) -> Isometry3<f64> {
    let q = Quaternion::new(quat[3], quat[0], quat[1], quat[2]);
    Isometry3::from_parts(
        Translation3::new(xyz[0], xyz[1], xyz[2]),
        UnitQuaternion::from_quaternion(q),
    )
}

fn finite(xs: &[f64]) -> bool {
    xs.iter().all(|x| x.is_finite())
}

impl Robot {
    /// The model of `def`, or what is wrong with it (generated code writes what the macro read,
    /// so a problem here is a bug or a hand-written def).
    pub fn new(def: &RobotDef) -> Result<Robot, String> {
        let n = def.joints.len();
        let mut joints = Vec::with_capacity(n);
        for (k, j) in def.joints.iter().enumerate() {
            let l = &j.limits;
            if !finite(&j.xyz) || !finite(&j.quat) || !finite(&j.axis) {
                return Err(format!(
                    "joint `{}` has a number that is not finite",
                    j.name
                ));
            }
            if !(l.lower <= l.upper && l.lower.is_finite() && l.upper.is_finite()) {
                return Err(format!(
                    "joint `{}` has no range ({}..={})",
                    j.name, l.lower, l.upper
                ));
            }
            if !(l.velocity > 0.0 && l.velocity.is_finite()) {
                return Err(format!("joint `{}` has no velocity cap", j.name));
            }
            for cap in [l.acceleration, l.deceleration].into_iter().flatten() {
                if !(cap > 0.0 && cap.is_finite()) {
                    return Err(format!(
                        "joint `{}` has an acceleration cap that is not above 0",
                        j.name
                    ));
                }
            }
            let axis = Unit::try_new(Vector3::from(j.axis), 1e-12)
                .ok_or_else(|| format!("joint `{}` has a zero axis", j.name))?;
            let mimic = match j.mimic {
                None => None,
                Some(m) => {
                    let leader = usize::from(m.leader);
                    if leader >= n || def.joints[leader].mimic.is_some() || leader == k {
                        return Err(format!("joint `{}` mimics no parameter joint", j.name));
                    }
                    Some((leader, m.multiplier, m.offset))
                }
            };
            let travel = match j.kind {
                JointKind::Prismatic => l.lower.abs().max(l.upper.abs()),
                _ => 0.0,
            };
            joints.push(Joint {
                name: j.name.to_owned(),
                kind: j.kind,
                parent: j.parent.to_owned(),
                child: j.child.to_owned(),
                origin: isometry(j.xyz, j.quat),
                axis,
                mimic,
                limits: *l,
                reach: Vector3::from(j.xyz).norm() + travel,
            });
        }
        let params: Vec<usize> = (0..n).filter(|&k| joints[k].mimic.is_none()).collect();
        if def.home.len() != params.len() || !finite(def.home) {
            return Err("the home configuration does not give every joint".to_owned());
        }
        let mut links = Vec::with_capacity(def.links.len());
        let mut bodies = Vec::new();
        for (i, l) in def.links.iter().enumerate() {
            let frame = usize::from(l.frame);
            if frame > n || !finite(&l.xyz) || !finite(&l.quat) {
                return Err(format!("link `{}` is malformed", l.name));
            }
            let placement = isometry(l.xyz, l.quat);
            let mut own = Vec::with_capacity(l.capsules.len());
            for c in l.capsules {
                if !(finite(&c.a) && finite(&c.b) && c.radius >= 0.0 && c.radius.is_finite()) {
                    return Err(format!("link `{}` has a malformed capsule", l.name));
                }
                own.push(Capsule {
                    a: Point3::from(c.a),
                    b: Point3::from(c.b),
                    radius: c.radius,
                });
            }
            let body = if own.is_empty() {
                None
            } else {
                let capsules: Vec<Capsule> = own
                    .iter()
                    .map(|c| Capsule {
                        a: placement.transform_point(&c.a),
                        b: placement.transform_point(&c.b),
                        radius: c.radius,
                    })
                    .collect();
                let (center, bound) = bounding_ball(&capsules);
                bodies.push(Body {
                    link: i,
                    frame,
                    rate: rates_for(&joints, frame, &capsules),
                    capsules,
                    center,
                    bound,
                });
                Some(bodies.len() - 1)
            };
            links.push(Link {
                name: l.name.to_owned(),
                parent: l.parent.map(usize::from),
                frame,
                placement,
                capsules: own,
                swept_by: l.swept_by.map(str::to_owned),
                body,
            });
        }
        let mut disabled = Vec::new();
        for [a, b] in def.disabled {
            let (a, b) = (usize::from(*a), usize::from(*b));
            if a >= links.len() || b >= links.len() {
                return Err("a disabled pair names no link".to_owned());
            }
            disabled.push((a.min(b), a.max(b)));
        }
        let tip_frame = usize::from(def.tip.frame);
        if tip_frame > n || !finite(&def.tip.point) {
            return Err("the tip is malformed".to_owned());
        }
        let mut robot = Robot {
            name: def.name.to_owned(),
            urdf: def.urdf.to_owned(),
            sha256: def.sha256.to_owned(),
            base: def.base.to_owned(),
            joints,
            params,
            links,
            bodies,
            tip_frame,
            tip_point: Point3::from(def.tip.point),
            tip_link: def.tip.link.to_owned(),
            tip_offset: def.tip.offset,
            pairs: Vec::new(),
            disabled,
            home: def.home.to_vec(),
            home_from: def.home_from.to_owned(),
        };
        robot.pairs = robot.self_collision_pairs();
        Ok(robot)
    }

    /// The body pairs checked for self-collision: every pair of bodies in different chain
    /// frames (two bodies in one frame never move relative to each other) that are not
    /// adjacent (links joined by a joint, looking through links without capsules, as MoveIt
    /// does) and not disabled by the SRDF.
    fn self_collision_pairs(&self) -> Vec<(usize, usize)> {
        let mut pairs = Vec::new();
        for (i, bi) in self.bodies.iter().enumerate() {
            for (j, bj) in self.bodies.iter().enumerate().skip(i + 1) {
                if bi.frame == bj.frame {
                    continue;
                }
                let (li, lj) = (bi.link.min(bj.link), bi.link.max(bj.link));
                if self.disabled.contains(&(li, lj)) || self.adjacent(li, lj) {
                    continue;
                }
                pairs.push((i, j));
            }
        }
        pairs
    }

    /// Whether links `a` and `b` are joined by a joint, directly or through links without
    /// capsules.
    fn adjacent(&self, a: usize, b: usize) -> bool {
        // The nearest ancestor with capsules (or the root).
        let up = |mut l: usize| {
            while let Some(p) = self.links[l].parent {
                l = p;
                if self.links[l].body.is_some() {
                    break;
                }
            }
            l
        };
        (self.links[a].parent.is_some() && up(a) == b)
            || (self.links[b].parent.is_some() && up(b) == a)
    }

    /// How many joints a position gives (the parameters, mimics excluded).
    pub fn dof(&self) -> usize {
        self.params.len()
    }

    /// The parameter joints' names, in order.
    pub fn joint_names(&self) -> impl Iterator<Item = &str> {
        self.params.iter().map(|&k| self.joints[k].name.as_str())
    }

    /// The parameter joints' enforced ranges, in order.
    pub fn ranges(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        self.params
            .iter()
            .map(|&k| (self.joints[k].limits.lower, self.joints[k].limits.upper))
    }

    /// The parameter joints' units (`rad`, or `m` for a prismatic joint), in order.
    pub fn units(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.params.iter().map(|&k| self.joints[k].kind.unit())
    }

    /// The home configuration.
    pub fn home(&self) -> &[f64] {
        &self.home
    }

    /// The link pairs checked for self-collision, by name.
    pub fn checked_pairs(&self) -> Vec<(&str, &str)> {
        self.pairs
            .iter()
            .map(|&(a, b)| {
                (
                    self.links[self.bodies[a].link].name.as_str(),
                    self.links[self.bodies[b].link].name.as_str(),
                )
            })
            .collect()
    }

    /// Every chain joint's value for the parameter values `q` (mimics computed).
    pub(crate) fn chain_values(&self, q: &[f64], out: &mut [f64]) {
        for (i, &k) in self.params.iter().enumerate() {
            out[k] = q[i];
        }
        for (k, joint) in self.joints.iter().enumerate() {
            if let Some((leader, m, o)) = joint.mimic {
                out[k] = m * out[leader] + o;
            }
        }
    }
}

/// The ball about the capsules' ends' midpoint holding them all.
fn bounding_ball(capsules: &[Capsule]) -> (Point3<f64>, f64) {
    let mut sum = Vector3::zeros();
    for c in capsules {
        sum += c.a.coords + c.b.coords;
    }
    let center = Point3::from(sum / (2.0 * capsules.len() as f64));
    let bound = capsules
        .iter()
        .map(|c| (c.a - center).norm().max((c.b - center).norm()) + c.radius)
        .fold(0.0, f64::max);
    (center, bound)
}

/// For a body in chain frame `frame` with `capsules` (in that frame), how far any of its points
/// can move per unit of each joint `j < frame`'s motion, in any configuration:
///
/// - a prismatic joint translates every point below it by its own motion: 1;
/// - a revolute joint turns every point below it about its axis: a point at distance `d` from
///   the axis moves at most `d` per radian (an arc is longer than its chord). For the body
///   right below the joint (`frame == j + 1`) `d` is exact: the largest distance of a capsule's
///   end from the axis plus its radius (the distance to a line is convex, so largest at an
///   end). Further down, the joints between move the body, so `d` is bounded by the distance
///   from the joint's origin: at most the lengths of the origins between plus their prismatic
///   travel (rotations keep lengths) plus the body's farthest point from its own frame's
///   origin.
pub(crate) fn rates_for(joints: &[Joint], frame: usize, capsules: &[Capsule]) -> Vec<f64> {
    let far = capsules
        .iter()
        .map(|c| c.a.coords.norm().max(c.b.coords.norm()) + c.radius)
        .fold(0.0, f64::max);
    (0..frame)
        .map(|j| match joints[j].kind {
            JointKind::Prismatic => 1.0,
            JointKind::Revolute | JointKind::Continuous => {
                if frame == j + 1 {
                    let axis = joints[j].axis;
                    let off_axis = |p: &Point3<f64>| {
                        let v = p.coords;
                        (v - axis.into_inner() * v.dot(&axis)).norm()
                    };
                    capsules
                        .iter()
                        .map(|c| off_axis(&c.a).max(off_axis(&c.b)) + c.radius)
                        .fold(0.0, f64::max)
                } else {
                    joints[j + 1..frame].iter().map(|k| k.reach).sum::<f64>() + far
                }
            }
        })
        .collect()
}
