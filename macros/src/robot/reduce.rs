//! From a declaration to the reduced robot: read the URDF, the limits file and the SRDF, find
//! the chain from the root link to the tip, fold the fixed joints into it, turn every link's
//! collision geometry into capsules (swept over the travel of any moving joint outside the
//! chain it hangs on), and work out each chain joint's enforced limits, tighten-only, with
//! where each came from. Every problem is collected, tied to the key it belongs to; nothing
//! panics.

use std::collections::HashMap;
use std::path::Path;

use sha2::Digest;

use super::capsule::Capsule;
use super::decl::{Decl, Problems, Site, did_you_mean};
use super::files::{self, Files, UriError};
use super::limits::{self, Entry};
use super::math::Pose;
use super::model::{Home, Joint, Kind, Limits, Link, Robot, Tip};
use super::srdf::{self, Srdf};
use super::urdf::{self, Description, Geometry, JointKind};
use super::{mesh, shapes};

/// Reads what `decl` names (paths relative to `base`, the crate's manifest directory) into the
/// reduced robot, or every problem found.
pub fn read(decl: &Decl, base: &Path) -> Result<Robot, Problems> {
    let mut files = Files::new(base);
    let mut problems = Problems::default();
    let urdf_path = files.path(&decl.urdf);
    let urdf_file = files.shown(&urdf_path);
    if decl.urdf.ends_with(".xacro") {
        problems.push(
            Site::Urdf,
            urdf::xacro_message(&urdf_file, "its name ends in `.xacro`"),
        );
        return Err(problems);
    }
    let bytes = match files.read(&urdf_path) {
        Ok(bytes) => bytes,
        Err(e) => {
            problems.push(Site::Urdf, e);
            return Err(problems);
        }
    };
    let sha256 = hex(&sha2::Sha256::digest(&bytes));
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            problems.push(
                Site::Urdf,
                format!(
                    "`{urdf_file}` is not UTF-8 text (at byte {})",
                    e.utf8_error().valid_up_to()
                ),
            );
            return Err(problems);
        }
    };
    let desc = match urdf::read(&text, &urdf_file) {
        Ok(desc) => desc,
        Err(messages) => {
            for m in messages {
                problems.push(Site::Urdf, m);
            }
            return Err(problems);
        }
    };
    let limits_file = decl.limits.as_deref().map(|l| files.shown(&files.path(l)));
    let entries = match &decl.limits {
        None => Vec::new(),
        Some(path) => {
            let path = files.path(path);
            match files
                .read_text(&path)
                .map_err(|e| vec![e])
                .and_then(|text| limits::read(&text, &files.shown(&path)))
            {
                Ok(entries) => entries,
                Err(messages) => {
                    for m in messages {
                        problems.push(Site::Limits, m);
                    }
                    Vec::new()
                }
            }
        }
    };
    let srdf = match &decl.srdf {
        None => None,
        Some(path) => {
            let path = files.path(path);
            match files
                .read_text(&path)
                .map_err(|e| vec![e])
                .and_then(|text| srdf::read(&text, &files.shown(&path)))
            {
                Ok(srdf) => Some((files.shown(&path), srdf)),
                Err(messages) => {
                    for m in messages {
                        problems.push(Site::Srdf, m);
                    }
                    None
                }
            }
        }
    };
    let names = Names::new(&desc);
    // The tip and the links given capsules must be links of the URDF.
    if desc.link(&decl.tip).is_none() {
        problems.push(
            Site::Tip,
            format!(
                "`{urdf_file}` has no link `{}`: {}",
                decl.tip,
                did_you_mean(&decl.tip, "links", names.links.iter().copied())
            ),
        );
    }
    for (i, link) in decl.links.iter().enumerate() {
        if desc.link(&link.name).is_none() {
            problems.push(
                Site::Link(i),
                format!(
                    "`{urdf_file}` has no link `{}`: {}",
                    link.name,
                    did_you_mean(&link.name, "links", names.links.iter().copied())
                ),
            );
        }
    }
    // Every joint the limits file names is a joint of the URDF.
    if let Some(file) = &limits_file {
        for entry in &entries {
            if desc.joint(&entry.joint).is_none() {
                problems.push(
                    Site::Limits,
                    format!(
                        "`{file}` line {}: joint `{}` is not in `{urdf_file}`: {}",
                        entry.line,
                        entry.joint,
                        did_you_mean(&entry.joint, "joints", names.joints.iter().copied())
                    ),
                );
            }
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let sources = Sources {
        urdf: &urdf_file,
        limits: limits_file.as_deref(),
    };
    let chain = match Chain::find(&desc, &decl.tip, &urdf_file) {
        Ok(chain) => chain,
        Err(m) => {
            problems.push(Site::Tip, m);
            return Err(problems);
        }
    };
    // Limits: every entry of the limits file is checked (tighten-only), whichever joint it is
    // for; the chain's moving joints get their enforced limits.
    let entry_of = |name: &str| entries.iter().find(|e| e.joint == name);
    let mut joints: Vec<Joint> = Vec::new();
    let mut chain_index: HashMap<&str, usize> = HashMap::new();
    for joint in &desc.joints {
        let on_chain = chain.moving.iter().any(|(j, _)| j == &joint.name);
        let moving = matches!(
            joint.kind,
            JointKind::Revolute | JointKind::Continuous | JointKind::Prismatic
        );
        if !moving {
            if let Some(entry) = entry_of(&joint.name) {
                problems.push(
                    Site::Limits,
                    format!(
                        "`{}` line {}: joint `{}` is {} in `{urdf_file}`: it has no limits to \
                         set; remove its entry",
                        sources.limits.unwrap_or_default(),
                        entry.line,
                        joint.name,
                        joint.kind.as_str()
                    ),
                );
            }
            continue;
        }
        let limits = enforce(decl, joint, entry_of(&joint.name), &sources);
        let limits = match limits {
            Ok(limits) => limits,
            Err(messages) => {
                for (site, m) in messages {
                    problems.push(site, m);
                }
                continue;
            }
        };
        if on_chain {
            chain_index.insert(&joint.name, joints.len());
            joints.push(Joint {
                name: joint.name.clone(),
                kind: match joint.kind {
                    JointKind::Revolute => Kind::Revolute,
                    JointKind::Continuous if !limits.wraps => Kind::Revolute,
                    JointKind::Continuous => Kind::Continuous,
                    _ => Kind::Prismatic,
                },
                parent: joint.parent.clone(),
                child: joint.child.clone(),
                origin: Pose::IDENTITY,
                axis: joint.axis,
                mimic: None,
                limits,
            });
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    // Put the chain's joints in chain order, with their folded origins.
    let mut ordered = Vec::new();
    for (name, origin) in &chain.moving {
        let mut joint = joints[chain_index[name.as_str()]].clone();
        joint.origin = *origin;
        ordered.push(joint);
    }
    let mut joints = ordered;
    mimics(&desc, &mut joints, &urdf_file, &mut problems);
    // Links and their capsules.
    let links = match links(decl, &desc, &chain, &mut files, &urdf_file) {
        Ok(links) => links,
        Err(messages) => {
            problems.0.extend(messages.0);
            return Err(problems);
        }
    };
    let index: HashMap<&str, usize> = links
        .iter()
        .enumerate()
        .map(|(i, l)| (l.name.as_str(), i))
        .collect();
    let mut disabled = Vec::new();
    if let Some((file, srdf)) = &srdf {
        for pair in &srdf.disabled {
            let mut ends = Vec::new();
            for link in [&pair.link1, &pair.link2] {
                match index.get(link.as_str()) {
                    Some(i) => ends.push(*i),
                    None => problems.push(
                        Site::Srdf,
                        format!(
                            "`{file}` line {}: `<disable_collisions>` names link `{link}`, which \
                             is not in `{urdf_file}`: {}",
                            pair.line,
                            did_you_mean(link, "links", names.links.iter().copied())
                        ),
                    ),
                }
            }
            if let [a, b] = ends[..] {
                let pair = (a.min(b), a.max(b));
                if a != b && !disabled.contains(&pair) {
                    disabled.push(pair);
                }
            }
        }
        disabled.sort_unstable();
    }
    let tip_link = &links[index[decl.tip.as_str()]];
    let tip = Tip {
        link: decl.tip.clone(),
        offset: decl.tip_offset,
        frame: tip_link.frame,
        point: tip_link.placement.apply(decl.tip_offset),
    };
    let home = home(decl, &joints, srdf.as_ref(), &mut problems);
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Robot {
        name: desc.name.clone(),
        urdf: decl.urdf.clone(),
        sha256,
        base: desc.root.clone(),
        joints,
        links,
        tip,
        disabled,
        home,
        files: files.read,
    })
}

/// The names of a description's links and joints, for did-you-mean.
struct Names<'d> {
    links: Vec<&'d str>,
    joints: Vec<&'d str>,
}

impl<'d> Names<'d> {
    fn new(desc: &'d Description) -> Self {
        Names {
            links: desc.links.iter().map(|l| l.name.as_str()).collect(),
            joints: desc.joints.iter().map(|j| j.name.as_str()).collect(),
        }
    }
}

/// The files limits come from, as shown in messages.
struct Sources<'s> {
    urdf: &'s str,
    limits: Option<&'s str>,
}

/// The path from the root link to the tip.
struct Chain {
    /// The moving joints, in order, with their origins in the previous moving joint's frame
    /// (the fixed joints between folded in).
    moving: Vec<(String, Pose)>,
    /// Each link on the path: its chain frame and its placement in that frame.
    on_path: HashMap<String, (usize, Pose)>,
}

impl Chain {
    fn find(desc: &Description, tip: &str, urdf_file: &str) -> Result<Chain, String> {
        let mut path = Vec::new();
        let mut at = tip;
        while let Some(joint) = desc.parent_joint(at) {
            path.push(joint);
            at = &joint.parent;
        }
        path.reverse();
        let mut moving = Vec::new();
        let mut on_path = HashMap::new();
        on_path.insert(desc.root.clone(), (0, Pose::IDENTITY));
        let mut acc = Pose::IDENTITY;
        for joint in path {
            match joint.kind {
                JointKind::Fixed => {
                    acc = acc.then(&joint.origin);
                }
                JointKind::Revolute | JointKind::Continuous | JointKind::Prismatic => {
                    moving.push((joint.name.clone(), acc.then(&joint.origin)));
                    acc = Pose::IDENTITY;
                }
                other => {
                    return Err(format!(
                        "`{urdf_file}` line {}: joint `{}` between the root link and the tip is \
                         {}: toolwright reads chains of revolute, continuous, prismatic and \
                         fixed joints",
                        joint.line,
                        joint.name,
                        other.as_str()
                    ));
                }
            }
            on_path.insert(joint.child.clone(), (moving.len(), acc));
        }
        if moving.is_empty() {
            return Err(format!(
                "no joint moves between the root link `{}` and the tip `{tip}` of \
                 `{urdf_file}`: name the link at the arm's end (its flange or tool)",
                desc.root
            ));
        }
        Ok(Chain { moving, on_path })
    }
}

/// A link's capsules in its own frame, from its declaration or its collision geometry.
fn own_capsules(
    decl: &Decl,
    desc: &Description,
    link: &urdf::Link,
    files: &mut Files,
    urdf_file: &str,
    problems: &mut Problems,
    unknown_packages: &mut Vec<String>,
) -> Vec<Capsule> {
    if let Some((_, declared)) = decl
        .links
        .iter()
        .enumerate()
        .find(|(_, l)| l.name == link.name)
    {
        return declared.capsules.clone();
    }
    let urdf_dir = files
        .path(&decl.urdf)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let mut out = Vec::new();
    let instead = format!(
        "declare its capsules instead: `link(\"{}\", capsule(a = (x, y, z), b = (x, y, z), \
         radius = r))` (metres, in the link's frame)",
        link.name
    );
    for collision in &link.collisions {
        let here = format!(
            "`{urdf_file}` line {}, link `{}`",
            collision.line, link.name
        );
        let o = &collision.origin;
        let capsule = match &collision.geometry {
            Geometry::Sphere { radius } => Some(Capsule::ball(o.xyz, *radius)),
            Geometry::Cylinder { radius, length } => {
                let (half, big) = shapes::cylinder(*radius, *length);
                Some(shapes::along_z(o, half, big))
            }
            Geometry::Capsule { radius, length } => Some(shapes::along_z(o, length / 2.0, *radius)),
            Geometry::Box { size } => shapes::cuboid(o, *size),
            Geometry::Mesh { filename, scale } => {
                if !mesh::is_stl(filename) {
                    problems.push(
                        Site::Urdf,
                        format!(
                            "{here}: its collision mesh `{filename}` is not STL: toolwright \
                             reads STL meshes (binary or ASCII); convert it to STL, or {instead}"
                        ),
                    );
                    continue;
                }
                let path = match files::resolve(filename, &urdf_dir, &files.base, &decl.packages) {
                    Ok(path) => path,
                    Err(UriError::UnknownPackage(name)) => {
                        // Once per package: every mesh in it fails alike.
                        if unknown_packages.contains(&name) {
                            continue;
                        }
                        unknown_packages.push(name.clone());
                        let declared: Vec<&str> =
                            decl.packages.iter().map(|(n, _)| n.as_str()).collect();
                        let hint = if declared.is_empty() {
                            format!(
                                "declare where it is: `packages(\"{name}\" = \"path/to/{name}\")` \
                                 (relative to the crate's folder)"
                            )
                        } else {
                            format!(
                                "{}; or add it: `packages(\"{name}\" = \"path/to/{name}\")`",
                                did_you_mean(&name, "declared packages", declared.iter().copied())
                            )
                        };
                        problems.push(
                            if declared.is_empty() {
                                Site::Urdf
                            } else {
                                Site::Packages
                            },
                            format!(
                                "{here}: its mesh `{filename}` is in package `{name}`, which \
                                 `packages(..)` does not declare (nor any other mesh in it): \
                                 {hint}"
                            ),
                        );
                        continue;
                    }
                    Err(UriError::Scheme(scheme)) => {
                        problems.push(
                            Site::Urdf,
                            format!(
                                "{here}: its mesh `{filename}` is a `{scheme}://` URI: toolwright \
                                 reads `package://`, `file://` and paths relative to the URDF; \
                                 copy the mesh into the crate, or {instead}"
                            ),
                        );
                        continue;
                    }
                    Err(UriError::Malformed) => {
                        problems.push(
                            Site::Urdf,
                            format!(
                                "{here}: its mesh `{filename}` is not `package://PACKAGE/path`"
                            ),
                        );
                        continue;
                    }
                };
                let bytes = match files.read(&path) {
                    Ok(bytes) => bytes,
                    Err(e) => {
                        problems.push(
                            if filename.starts_with("package://") {
                                Site::Packages
                            } else {
                                Site::Urdf
                            },
                            format!("{here}: its mesh `{filename}`: {e}"),
                        );
                        continue;
                    }
                };
                match mesh::vertices(&bytes, &files.shown(&path), *scale) {
                    Ok(vertices) => shapes::mesh(o, &vertices),
                    Err(e) => {
                        problems.push(Site::Urdf, format!("{here}: {e}; or {instead}"));
                        continue;
                    }
                }
            }
        };
        match capsule {
            Some(c) => out.push(c),
            None => problems.push(
                Site::Urdf,
                format!("{here}: its collision shape has no finite size; {instead}"),
            ),
        }
    }
    let _ = desc;
    shapes::without_contained(out)
}

/// Every link, in the URDF's order, with its frame, placement and capsules.
fn links(
    decl: &Decl,
    desc: &Description,
    chain: &Chain,
    files: &mut Files,
    urdf_file: &str,
) -> Result<Vec<Link>, Problems> {
    let mut problems = Problems::default();
    let mut out = Vec::new();
    let mut unknown_packages = Vec::new();
    for link in &desc.links {
        let own = own_capsules(
            decl,
            desc,
            link,
            files,
            urdf_file,
            &mut problems,
            &mut unknown_packages,
        );
        // Walk up to the chain, sweeping over each moving joint on the way.
        let mut capsules = own;
        let mut placement = Pose::IDENTITY;
        let mut swept_by = Vec::new();
        let mut at = link.name.as_str();
        let (frame, carrier) = loop {
            if let Some((frame, pose)) = chain.on_path.get(at) {
                break (*frame, *pose);
            }
            let Some(joint) = desc.parent_joint(at) else {
                // Unreachable: every link is below the root, which is on the path.
                break (0, Pose::IDENTITY);
            };
            let swept: Vec<Capsule> = match joint.kind {
                JointKind::Fixed => capsules,
                JointKind::Prismatic => {
                    // Its whole hard travel: toolwright does not command it.
                    let (lo, hi) = joint
                        .limit
                        .and_then(|l| Some((l.lower?, l.upper?)))
                        .unwrap_or((0.0, 0.0));
                    swept_by.push(joint.name.clone());
                    capsules
                        .iter()
                        .filter_map(|c| shapes::swept_prismatic(c, joint.axis, lo, hi))
                        .collect()
                }
                JointKind::Revolute | JointKind::Continuous => {
                    swept_by.push(joint.name.clone());
                    capsules
                        .iter()
                        .map(|c| shapes::swept_revolute(c, joint.axis))
                        .collect()
                }
                other => {
                    problems.push(
                        Site::Urdf,
                        format!(
                            "`{urdf_file}` line {}: link `{}` hangs on joint `{}`, which is {}: \
                             toolwright cannot bound where it is; choose a tip below it, or \
                             declare the link's capsules and make the joint fixed",
                            joint.line,
                            link.name,
                            joint.name,
                            other.as_str()
                        ),
                    );
                    capsules
                }
            };
            capsules = swept
                .iter()
                .map(|c| shapes::placed(&joint.origin, c))
                .collect();
            placement = joint.origin.then(&placement);
            at = &joint.parent;
        };
        // Back into the link's own frame (at the zero of the joints it hangs on).
        let back = placement.inverse();
        let capsules = capsules
            .iter()
            .map(|c| {
                let mut c = shapes::placed(&back, c);
                c.radius += decl.padding;
                c
            })
            .collect();
        out.push(Link {
            name: link.name.clone(),
            parent: None,
            frame,
            placement: carrier.then(&placement),
            capsules,
            swept_by: (!swept_by.is_empty()).then(|| swept_by.join(", ")),
        });
    }
    let index: HashMap<String, usize> = out
        .iter()
        .enumerate()
        .map(|(i, l)| (l.name.clone(), i))
        .collect();
    for link in &mut out {
        link.parent = desc
            .parent_joint(&link.name)
            .and_then(|j| index.get(&j.parent).copied());
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// One chain joint's enforced limits (module docs), or the problems with the limits file.
fn enforce(
    decl: &Decl,
    joint: &urdf::Joint,
    entry: Option<&Entry>,
    sources: &Sources,
) -> Result<Limits, Vec<(Site, String)>> {
    let urdf_file = sources.urdf;
    let name = &joint.name;
    let here = format!("`{urdf_file}` line {}, joint `{name}`", joint.line);
    let mut problems: Vec<(Site, String)> = Vec::new();
    let limit = joint.limit.unwrap_or_default();
    let unit = if joint.kind == JointKind::Prismatic {
        "m"
    } else {
        "rad"
    };
    // The range, end by end, with where each end came from.
    let limited = joint.kind != JointKind::Continuous;
    let (mut lo, mut hi): ((f64, String), (f64, String));
    if limited {
        match (limit.lower, limit.upper) {
            (Some(l), Some(u)) => {
                lo = (l, format!("`<limit lower>` in {urdf_file}"));
                hi = (u, format!("`<limit upper>` in {urdf_file}"));
            }
            _ => {
                problems.push((
                    Site::Urdf,
                    format!(
                        "{here}: a {} joint needs `<limit lower=\"..\" upper=\"..\">` (or make \
                         it continuous)",
                        joint.kind.as_str()
                    ),
                ));
                return Err(problems);
            }
        }
    } else {
        lo = (-std::f64::consts::PI, "continuous: wraps".to_owned());
        hi = (std::f64::consts::PI, "continuous: wraps".to_owned());
    }
    let mut wraps = !limited;
    if let Some(s) = joint.safety {
        if let Some(l) = s.soft_lower
            && limited
            && l > lo.0
        {
            lo = (
                l,
                format!("`<safety_controller soft_lower_limit>` in {urdf_file}"),
            );
        }
        if let Some(u) = s.soft_upper
            && limited
            && u < hi.0
        {
            hi = (
                u,
                format!("`<safety_controller soft_upper_limit>` in {urdf_file}"),
            );
        }
    }
    let mut velocity = limit
        .velocity
        .filter(|v| *v > 0.0)
        .map(|v| (v, format!("`<limit velocity>` in {urdf_file}")));
    let mut acceleration = limit
        .acceleration
        .map(|a| (a, format!("`<limit acceleration>` in {urdf_file}")));
    let mut deceleration = limit
        .deceleration
        .map(|d| (d, format!("`<limit deceleration>` in {urdf_file}")));
    let mut jerk = limit.jerk;
    let mut effort = limit.effort.filter(|e| *e > 0.0);
    if let (Some(entry), Some(file)) = (entry, sources.limits) {
        let at = |line: usize| format!("`{file}` line {line}, joint `{name}`");
        let looser = |key: &str, value: f64, line: usize, urdf: f64, what: &str| {
            (
                Site::Limits,
                format!(
                    "{}: `{key}: {value}` is looser than the URDF's {urdf} ({what} in \
                     {urdf_file}): a limits file may only tighten the URDF (stricter or equal, \
                     as MoveIt's Pilz planner requires)",
                    at(line)
                ),
            )
        };
        let removes = |key: &str, line: usize, what: &str| {
            (
                Site::Limits,
                format!(
                    "{}: `{key}: false` would remove the URDF's {what} (in {urdf_file}): a \
                     limits file may only tighten the URDF",
                    at(line)
                ),
            )
        };
        // Position.
        if let Some((false, line)) = entry.flag("has_position_limits")
            && limited
        {
            problems.push(removes("has_position_limits", line, "position limits"));
        }
        if let Some((true, line)) = entry.flag("angle_wraparound")
            && limited
        {
            problems.push((
                Site::Limits,
                format!(
                    "{}: `angle_wraparound: true` on a {} joint: only a continuous joint wraps",
                    at(line),
                    joint.kind.as_str()
                ),
            ));
        }
        for (key, lower) in [
            ("min_position", true),
            ("max_position", false),
            ("soft_lower_limit", true),
            ("soft_upper_limit", false),
        ] {
            let Some((value, line)) = entry.number(key) else {
                continue;
            };
            if limited {
                let (urdf, what) = if lower {
                    (limit.lower.unwrap_or(f64::NEG_INFINITY), "`<limit lower>`")
                } else {
                    (limit.upper.unwrap_or(f64::INFINITY), "`<limit upper>`")
                };
                if (lower && value < urdf) || (!lower && value > urdf) {
                    problems.push(looser(key, value, line, urdf, what));
                    continue;
                }
            } else {
                wraps = false;
            }
            let from = format!("`{key}` in {file}");
            if lower && (value > lo.0 || !limited && lo.1.starts_with("continuous")) {
                lo = (value, from);
            } else if !lower && (value < hi.0 || !limited && hi.1.starts_with("continuous")) {
                hi = (value, from);
            }
        }
        if !limited && !wraps && (lo.1.starts_with("continuous") || hi.1.starts_with("continuous"))
        {
            problems.push((
                Site::Limits,
                format!(
                    "{}: a continuous joint given position limits needs both ends \
                     (`min_position` and `max_position`)",
                    at(entry.line)
                ),
            ));
        }
        // Velocity, acceleration, deceleration, jerk, effort: each at most the URDF's.
        let mut cap = |key: &str,
                       flag: &str,
                       current: &mut Option<(f64, String)>,
                       urdf: Option<f64>,
                       what: &str| {
            if let Some((false, line)) = entry.flag(flag)
                && urdf.is_some()
            {
                problems.push(removes(flag, line, what));
            }
            if let Some((value, line)) = entry.number(key) {
                let value = value.abs();
                if let Some(u) = urdf
                    && value > u
                {
                    problems.push(looser(key, value, line, u, what));
                } else if current.as_ref().is_none_or(|(c, _)| value <= *c) {
                    *current = Some((value, format!("`{key}` in {file}")));
                }
            }
        };
        let urdf_velocity = limit.velocity.filter(|v| *v > 0.0);
        cap(
            "max_velocity",
            "has_velocity_limits",
            &mut velocity,
            urdf_velocity,
            "`<limit velocity>`",
        );
        cap(
            "max_acceleration",
            "has_acceleration_limits",
            &mut acceleration,
            limit.acceleration,
            "`<limit acceleration>`",
        );
        cap(
            "max_deceleration",
            "has_deceleration_limits",
            &mut deceleration,
            limit.deceleration,
            "`<limit deceleration>`",
        );
        let mut j = jerk.map(|j| (j, String::new()));
        cap(
            "max_jerk",
            "has_jerk_limits",
            &mut j,
            limit.jerk,
            "`<limit jerk>`",
        );
        jerk = j.map(|(j, _)| j);
        let mut e = effort.map(|e| (e, String::new()));
        cap(
            "max_effort",
            "has_effort_limits",
            &mut e,
            limit.effort.filter(|e| *e > 0.0),
            "`<limit effort>`",
        );
        effort = e.map(|(e, _)| e);
    }
    // Deceleration defaults to acceleration (MoveIt's Pilz, URDF 1.2).
    if deceleration.is_none()
        && let Some((a, from)) = &acceleration
    {
        deceleration = Some((
            *a,
            format!("{from} (no deceleration given: as acceleration)"),
        ));
    }
    if let Some((a, _)) = &acceleration
        && *a <= 0.0
    {
        problems.push((
            Site::Limits,
            format!("joint `{name}`: its acceleration cap is 0: nothing could move it"),
        ));
    }
    if let Some((d, _)) = &deceleration
        && *d <= 0.0
    {
        problems.push((
            Site::Limits,
            format!("joint `{name}`: its deceleration cap is 0: nothing could stop it"),
        ));
    }
    let Some(velocity) = velocity else {
        problems.push((
            Site::Urdf,
            format!(
                "{here}: it has no velocity cap (`<limit velocity>` is missing or 0): give one \
                 in the URDF or as `max_velocity` in a limits file (`limits = \"..\"`); \
                 toolwright times every motion by its joints' caps"
            ),
        ));
        return Err(problems);
    };
    // The margin narrows each end of a limited range.
    let margin = if joint.kind == JointKind::Prismatic {
        decl.linear_margin
    } else {
        decl.margin
    };
    let mut range_from = format!("{} ({}) ..= {} ({})", lo.0, lo.1, hi.0, hi.1);
    if !wraps {
        if margin > 0.0 {
            // Rounded inward to the shortest decimal within a nanounit, so the published
            // range reads as written (`-3.0618`, not `-3.0618000000000003`) and still lies
            // within what the margin leaves.
            lo.0 = decimal_inward(lo.0 + margin, true);
            hi.0 = decimal_inward(hi.0 - margin, false);
            range_from.push_str(&format!(", less the margin {margin} {unit} at each end"));
        }
        if lo.0 > hi.0 {
            problems.push((
                if margin > 0.0 {
                    if joint.kind == JointKind::Prismatic {
                        Site::LinearMargin
                    } else {
                        Site::Margin
                    }
                } else {
                    Site::Limits
                },
                format!("joint `{name}` is left no range: {range_from} is empty; lower the margin"),
            ));
        }
    } else {
        range_from = "continuous: any angle, taken the short way round".to_owned();
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Limits {
        lower: lo.0,
        upper: hi.0,
        wraps,
        velocity: velocity.0,
        acceleration: acceleration.as_ref().map(|a| a.0),
        deceleration: deceleration.as_ref().map(|d| d.0),
        jerk,
        effort,
        range_from,
        velocity_from: velocity.1,
        acceleration_from: acceleration.map(|a| a.1),
        deceleration_from: deceleration.map(|d| d.1),
    })
}

/// `x` as the shortest decimal (at most 9 places) within 1e-9 of it on the inside of a range:
/// not below it for a lower end (`up`), not above it for an upper end; `x` itself when none is.
pub(super) fn decimal_inward(x: f64, up: bool) -> f64 {
    for places in 0..=9 {
        let scale = 10f64.powi(places);
        let r = (x * scale).round() / scale;
        let inside = if up { r >= x } else { r <= x };
        if inside && (r - x).abs() <= 1e-9 {
            return r;
        }
    }
    x
}

/// Resolves the chain's mimic joints: each follows a chain joint (`multiplier · leader +
/// offset`), whose range and caps are narrowed so the mimic stays within its own.
fn mimics(desc: &Description, joints: &mut [Joint], urdf_file: &str, problems: &mut Problems) {
    for i in 0..joints.len() {
        let Some(m) = desc.joint(&joints[i].name).and_then(|j| j.mimic.clone()) else {
            continue;
        };
        let Some(leader) = joints.iter().position(|j| j.name == m.joint) else {
            problems.push(
                Site::Urdf,
                format!(
                    "`{urdf_file}`: joint `{}` of the chain mimics `{}`, which is not between the \
                     root link and the tip: choose a tip below `{}`",
                    joints[i].name, m.joint, m.joint
                ),
            );
            continue;
        };
        if joints[leader].limits.wraps || joints[i].limits.wraps {
            problems.push(
                Site::Urdf,
                format!(
                    "`{urdf_file}`: joint `{}` mimics `{}` and one of them is continuous: \
                     toolwright cannot follow a wrapping mimic",
                    joints[i].name, m.joint
                ),
            );
            continue;
        }
        if desc
            .joint(&m.joint)
            .is_some_and(|leader| leader.mimic.is_some())
        {
            problems.push(
                Site::Urdf,
                format!(
                    "`{urdf_file}`: joint `{}` mimics `{}`, itself a mimic: name the joint that \
                     leads",
                    joints[i].name, m.joint
                ),
            );
            continue;
        }
        let (mult, offset) = (m.multiplier, m.offset);
        let mimic = joints[i].limits.clone();
        let name = joints[i].name.clone();
        let lead = &mut joints[leader].limits;
        if mult == 0.0 {
            if offset < mimic.lower || offset > mimic.upper {
                problems.push(
                    Site::Urdf,
                    format!(
                        "`{urdf_file}`: joint `{name}` mimics with multiplier 0 at {offset}, \
                         outside its range {}..={}",
                        mimic.lower, mimic.upper
                    ),
                );
            }
        } else {
            let (a, b) = ((mimic.lower - offset) / mult, (mimic.upper - offset) / mult);
            let (lo, hi) = (a.min(b), a.max(b));
            if lo > lead.lower || hi < lead.upper {
                lead.lower = lead.lower.max(lo);
                lead.upper = lead.upper.min(hi);
                lead.range_from.push_str(&format!(
                    ", narrowed so that mimic joint `{name}` stays in range"
                ));
            }
            if lead.lower > lead.upper {
                problems.push(
                    Site::Urdf,
                    format!(
                        "`{urdf_file}`: joint `{}` is left no range by its mimic `{name}`",
                        m.joint
                    ),
                );
            }
            let k = mult.abs();
            if mimic.velocity / k < lead.velocity {
                lead.velocity = mimic.velocity / k;
                lead.velocity_from = format!("mimic joint `{name}`'s cap, {}", mimic.velocity_from);
            }
            for (cap, from, theirs, theirs_from) in [
                (
                    &mut lead.acceleration,
                    &mut lead.acceleration_from,
                    mimic.acceleration,
                    &mimic.acceleration_from,
                ),
                (
                    &mut lead.deceleration,
                    &mut lead.deceleration_from,
                    mimic.deceleration,
                    &mimic.deceleration_from,
                ),
            ] {
                if let Some(t) = theirs
                    && cap.is_none_or(|c| t / k < c)
                {
                    *cap = Some(t / k);
                    *from = Some(format!(
                        "mimic joint `{name}`'s cap, {}",
                        theirs_from.clone().unwrap_or_default()
                    ));
                }
            }
        }
        joints[i].mimic = Some((leader, mult, offset));
    }
}

/// The home configuration: the SRDF state the declaration names, or each joint at 0 (or the
/// nearest end of its range).
fn home(
    decl: &Decl,
    joints: &[Joint],
    srdf: Option<&(String, Srdf)>,
    problems: &mut Problems,
) -> Home {
    let parameters: Vec<&Joint> = joints.iter().filter(|j| j.mimic.is_none()).collect();
    let zero = || Home {
        values: parameters
            .iter()
            .map(|j| 0.0_f64.clamp(j.limits.lower, j.limits.upper))
            .collect(),
        from: "each joint at 0, or the nearest end of its range".to_owned(),
    };
    let Some(name) = &decl.home else {
        return zero();
    };
    let Some((file, srdf)) = srdf else {
        problems.push(
            Site::Home,
            "`home` names a `group_state` of the SRDF: declare it with `srdf = \"..\"`",
        );
        return zero();
    };
    let Some(state) = srdf.states.iter().find(|s| &s.name == name) else {
        problems.push(
            Site::Home,
            format!(
                "`{file}` has no `<group_state name=\"{name}\">`: {}",
                did_you_mean(name, "states", srdf.states.iter().map(|s| s.name.as_str()))
            ),
        );
        return zero();
    };
    let mut values = Vec::new();
    for joint in &parameters {
        match state.joints.iter().find(|(j, _, _)| *j == joint.name) {
            Some((_, value, line)) => {
                let l = &joint.limits;
                if !l.wraps && (*value < l.lower || *value > l.upper) {
                    problems.push(
                        Site::Home,
                        format!(
                            "`{file}` line {line}: state `{name}` puts joint `{}` at {value}, \
                             outside its enforced range {}..={}",
                            joint.name, l.lower, l.upper
                        ),
                    );
                }
                values.push(*value);
            }
            None => {
                problems.push(
                    Site::Home,
                    format!(
                        "`{file}` line {}: state `{name}` does not give joint `{}`",
                        state.line, joint.name
                    ),
                );
                values.push(0.0);
            }
        }
    }
    Home {
        values,
        from: format!("`<group_state name=\"{name}\">` in {file}"),
    }
}

/// Lower-case hexadecimal.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
