//! What a robot declaration says, as plain values (the attribute's tokens are read into this in
//! `attr.rs`), and the problems found reading what it names, each tied to the key that named it
//! so the compile error lands on that token.

use super::capsule::Capsule;

/// The key of the declaration a problem belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Site {
    /// `urdf = ".."` (and whatever the URDF says).
    Urdf,
    /// `tip = ".."`.
    Tip,
    /// `tip_offset = (..)`.
    TipOffset,
    /// `margin = ".."`.
    Margin,
    /// `linear_margin = ".."`.
    LinearMargin,
    /// `limits = ".."` (and whatever the limits file says).
    Limits,
    /// `srdf = ".."`.
    Srdf,
    /// The `i`th entry of `packages(..)`.
    Package(usize),
    /// `packages(..)` as a whole (a package the URDF names is missing from it).
    Packages,
    /// The `i`th `link(..)`.
    Link(usize),
    /// `padding = ".."`.
    Padding,
    /// `home = ".."`.
    Home,
}

/// One problem: where, and what (a sentence that says how to fix it).
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub site: Site,
    pub message: String,
}

impl Problem {
    pub fn new(site: Site, message: impl Into<String>) -> Problem {
        Problem {
            site,
            message: message.into(),
        }
    }
}

/// Collects problems.
#[derive(Debug, Default)]
pub struct Problems(pub Vec<Problem>);

impl Problems {
    pub fn push(&mut self, site: Site, message: impl Into<String>) {
        self.0.push(Problem::new(site, message));
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Capsules declared for a link, replacing what its URDF collision geometry would give.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkDecl {
    pub name: String,
    /// In the link's frame, in metres.
    pub capsules: Vec<Capsule>,
}

/// A robot declaration (`robot(..)` on a resource).
#[derive(Debug, Clone, PartialEq)]
pub struct Decl {
    /// The URDF, relative to the crate's manifest directory.
    pub urdf: String,
    /// The link whose point the tool's Cartesian targets name (the end of the kinematic chain).
    pub tip: String,
    /// The tool point in the tip link's frame, in metres.
    pub tip_offset: [f64; 3],
    /// What each end of a revolute joint's range is narrowed by, in radians.
    pub margin: f64,
    /// What each end of a prismatic joint's range is narrowed by, in metres.
    pub linear_margin: f64,
    /// An optional `joint_limits.yaml` (ros2_control / MoveIt), relative to the manifest
    /// directory.
    pub limits: Option<String>,
    /// An optional SRDF whose `disable_collisions` pairs are not checked for self-collision.
    pub srdf: Option<String>,
    /// `package://NAME/..` resolves to the folder given for `NAME` (relative to the manifest
    /// directory).
    pub packages: Vec<(String, String)>,
    /// Added to every capsule's radius, in metres.
    pub padding: f64,
    /// Links given their capsules explicitly.
    pub links: Vec<LinkDecl>,
    /// The configuration drawn and documented as home: a `group_state` of the SRDF, by name.
    pub home: Option<String>,
}

impl Decl {
    /// A declaration of `urdf` with `tip` and nothing else.
    pub fn new(urdf: &str, tip: &str) -> Decl {
        Decl {
            urdf: urdf.to_owned(),
            tip: tip.to_owned(),
            tip_offset: [0.0; 3],
            margin: 0.0,
            linear_margin: 0.0,
            limits: None,
            srdf: None,
            packages: Vec::new(),
            padding: 0.0,
            links: Vec::new(),
            home: None,
        }
    }
}

/// The name among `candidates` nearest to `got` by edit distance, for "did you mean": always
/// one when there are candidates (a name that is not there is a typo or a different robot;
/// either way the nearest is the best hint).
pub fn nearest<'c>(got: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    candidates
        .into_iter()
        .map(|c| (crate::util::levenshtein(got, c), c))
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// "did you mean `x`?" for the nearest of `candidates`, or what there is when there is nothing.
pub fn did_you_mean<'c>(
    got: &str,
    what: &str,
    candidates: impl IntoIterator<Item = &'c str> + Clone,
) -> String {
    match nearest(got, candidates.clone()) {
        Some(near) => {
            let all: Vec<&str> = candidates.into_iter().collect();
            if all.len() <= 12 {
                format!(
                    "did you mean `{near}`? (the {what}: {})",
                    all.iter()
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                format!("did you mean `{near}`?")
            }
        }
        None => format!("there are no {what}"),
    }
}
