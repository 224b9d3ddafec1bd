//! Reading a URDF: its XML checked first with positions (roxmltree: a malformed document names
//! its line and column; every number toolwright uses is checked to be finite and of the right
//! count, naming the line, the element and the attribute; xacro is refused with how to expand
//! it), then read by urdf-rs (the URDF crate of the Rust robotics ecosystem: the URDF version's
//! defaults, `quat_xyzw`, `<limit>`, `<safety_controller>`, `<mimic>`, collision geometry) into
//! a [`Description`]: the links and joints with what toolwright needs of them, each with the
//! line it is on, and the tree checked (names unique, every parent and child known, one root,
//! no cycle).

use std::collections::{HashMap, HashSet};

use super::decl::did_you_mean;
use super::math::{Pose, Rot, V3, unit};

/// A joint's type, as the URDF says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JointKind {
    Revolute,
    Continuous,
    Prismatic,
    Fixed,
    Floating,
    Planar,
    Spherical,
}

impl JointKind {
    pub fn as_str(self) -> &'static str {
        match self {
            JointKind::Revolute => "revolute",
            JointKind::Continuous => "continuous",
            JointKind::Prismatic => "prismatic",
            JointKind::Fixed => "fixed",
            JointKind::Floating => "floating",
            JointKind::Planar => "planar",
            JointKind::Spherical => "spherical",
        }
    }
}

/// `<limit>`: each attribute the URDF gives (`None`: not written).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Limit {
    pub lower: Option<f64>,
    pub upper: Option<f64>,
    pub velocity: Option<f64>,
    pub effort: Option<f64>,
    /// URDF 1.2.
    pub acceleration: Option<f64>,
    /// URDF 1.2 (defaults to `acceleration` there).
    pub deceleration: Option<f64>,
    /// URDF 1.2.
    pub jerk: Option<f64>,
}

/// `<safety_controller>`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Safety {
    pub soft_lower: Option<f64>,
    pub soft_upper: Option<f64>,
}

/// `<mimic>`: this joint's value is `multiplier · leader + offset`.
#[derive(Debug, Clone, PartialEq)]
pub struct Mimic {
    pub joint: String,
    pub multiplier: f64,
    pub offset: f64,
}

/// A joint.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    pub name: String,
    pub line: u32,
    pub kind: JointKind,
    pub parent: String,
    pub child: String,
    /// The child link's frame in the parent link's frame at zero.
    pub origin: Pose,
    /// The unit axis, in the child's frame.
    pub axis: V3,
    pub limit: Option<Limit>,
    pub safety: Option<Safety>,
    pub mimic: Option<Mimic>,
}

/// A collision shape, in its link's frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Geometry {
    Box {
        size: V3,
    },
    Cylinder {
        radius: f64,
        length: f64,
    },
    /// URDF 1.2: `length` is the cylindrical part's, along z.
    Capsule {
        radius: f64,
        length: f64,
    },
    Sphere {
        radius: f64,
    },
    Mesh {
        filename: String,
        scale: V3,
    },
}

/// One `<collision>` of a link.
#[derive(Debug, Clone, PartialEq)]
pub struct Collision {
    pub line: u32,
    /// The shape's frame in the link's frame.
    pub origin: Pose,
    pub geometry: Geometry,
}

/// A link.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    pub name: String,
    pub line: u32,
    pub collisions: Vec<Collision>,
}

/// A URDF as toolwright reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Description {
    /// `<robot name>`.
    pub name: String,
    pub links: Vec<Link>,
    pub joints: Vec<Joint>,
    /// The link no joint has as its child.
    pub root: String,
}

impl Description {
    pub fn link(&self, name: &str) -> Option<&Link> {
        self.links.iter().find(|l| l.name == name)
    }

    pub fn joint(&self, name: &str) -> Option<&Joint> {
        self.joints.iter().find(|j| j.name == name)
    }

    /// The joint whose child is `link` (none for the root).
    pub fn parent_joint(&self, link: &str) -> Option<&Joint> {
        self.joints.iter().find(|j| j.child == link)
    }
}

/// The numbers each element toolwright reads carries: `(attribute, how many numbers)`.
fn numeric_attributes(element: &str, parent: &str) -> &'static [(&'static str, usize)] {
    match (element, parent) {
        ("origin", "joint" | "collision") => &[("xyz", 3), ("rpy", 3), ("quat_xyzw", 4)],
        ("axis", "joint") => &[("xyz", 3)],
        ("limit", "joint") => &[
            ("lower", 1),
            ("upper", 1),
            ("effort", 1),
            ("velocity", 1),
            ("acceleration", 1),
            ("deceleration", 1),
            ("jerk", 1),
        ],
        ("safety_controller", "joint") => &[
            ("soft_lower_limit", 1),
            ("soft_upper_limit", 1),
            ("k_position", 1),
            ("k_velocity", 1),
        ],
        ("mimic", "joint") => &[("multiplier", 1), ("offset", 1)],
        ("box", "geometry") => &[("size", 3)],
        ("cylinder" | "capsule", "geometry") => &[("radius", 1), ("length", 1)],
        ("sphere", "geometry") => &[("radius", 1)],
        ("mesh", "geometry") => &[("scale", 3)],
        _ => &[],
    }
}

/// Reads the URDF `text` (of the file shown as `file` in messages).
pub fn read(text: &str, file: &str) -> Result<Description, Vec<String>> {
    let doc = match roxmltree::Document::parse(text) {
        Ok(doc) => doc,
        Err(e) => {
            let pos = e.pos();
            let message = e.to_string();
            // roxmltree ends its messages with " at ROW:COL"; say it our way.
            let what = message
                .rsplit_once(" at ")
                .map_or(message.as_str(), |(what, _)| what);
            return Err(vec![format!(
                "`{file}` line {}, column {}: malformed XML: {what}",
                pos.row, pos.col
            )]);
        }
    };
    let line = |node: roxmltree::Node| doc.text_pos_at(node.range().start).row;
    let root = doc.root_element();
    if let Some(node) = doc
        .descendants()
        .find(|n| n.is_element() && n.tag_name().namespace() == Some(XACRO_NS))
    {
        return Err(vec![xacro_message(
            file,
            &format!(
                "line {} is a xacro element (`<xacro:{}>`)",
                line(node),
                node.tag_name().name()
            ),
        )]);
    }
    if let Some((node, value)) = doc.descendants().find_map(|n| {
        n.attributes()
            .find(|a| a.value().contains("${") || a.value().contains("$("))
            .map(|a| (n, a.value().to_owned()))
    }) {
        return Err(vec![xacro_message(
            file,
            &format!("line {} holds a xacro expression (`{value}`)", line(node)),
        )]);
    }
    if root.tag_name().name() != "robot" {
        return Err(vec![format!(
            "`{file}` is not a URDF: its root element is `<{}>`, not `<robot>`",
            root.tag_name().name()
        )]);
    }
    let mut problems = Vec::new();
    // Every number toolwright uses: finite, and as many as the attribute holds.
    for node in root.descendants().filter(|n| n.is_element()) {
        let parent = node.parent_element().map_or("", |p| p.tag_name().name());
        for &(attribute, count) in numeric_attributes(node.tag_name().name(), parent) {
            let Some(value) = node.attribute(attribute) else {
                continue;
            };
            let numbers: Vec<Result<f64, _>> =
                value.split_whitespace().map(str::parse::<f64>).collect();
            let owner = owner(node);
            let at = format!(
                "`{file}` line {}{owner}: `<{} {attribute}=\"{value}\">`",
                line(node),
                node.tag_name().name()
            );
            if numbers.len() != count || numbers.iter().any(Result::is_err) {
                problems.push(format!(
                    "{at} is not {}",
                    if count == 1 {
                        "a number".to_owned()
                    } else {
                        format!("{count} numbers separated by spaces")
                    }
                ));
            } else if numbers.iter().flatten().any(|x| !x.is_finite()) {
                problems.push(format!(
                    "{at} is not finite: toolwright refuses a NaN or infinite number in a \
                     robot's description (leave a limit out, or give the real value)"
                ));
            }
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let robot = match urdf_rs::read_from_string(text) {
        Ok(robot) => robot,
        Err(e) => return Err(vec![format!("`{file}`: the URDF reader says: {e}")]),
    };
    // Positions, and which attributes are written, from the document itself.
    let element = |kind: &str, name: &str| {
        root.children()
            .find(|n| n.has_tag_name(kind) && n.attribute("name") == Some(name))
    };
    let mut links = Vec::new();
    let mut seen = HashSet::new();
    for link in &robot.links {
        let node = element("link", &link.name);
        let at = node.map_or(0, line);
        if !seen.insert(link.name.as_str()) {
            problems.push(format!(
                "`{file}` line {at}: a second link is named `{}`: link names must be unique",
                link.name
            ));
            continue;
        }
        let collision_nodes: Vec<roxmltree::Node> = node
            .map(|n| {
                n.children()
                    .filter(|c| c.has_tag_name("collision"))
                    .collect()
            })
            .unwrap_or_default();
        let mut collisions = Vec::new();
        for (k, collision) in link.collision.iter().enumerate() {
            let at = collision_nodes.get(k).map_or(at, |n| line(*n));
            let geometry = match &collision.geometry {
                urdf_rs::Geometry::Box { size } => Geometry::Box { size: size.0 },
                urdf_rs::Geometry::Cylinder { radius, length } => Geometry::Cylinder {
                    radius: *radius,
                    length: *length,
                },
                urdf_rs::Geometry::Capsule { radius, length } => Geometry::Capsule {
                    radius: *radius,
                    length: *length,
                },
                urdf_rs::Geometry::Sphere { radius } => Geometry::Sphere { radius: *radius },
                urdf_rs::Geometry::Mesh { filename, scale } => Geometry::Mesh {
                    filename: filename.clone(),
                    scale: scale.map_or([1.0; 3], |s| s.0),
                },
            };
            let dims: Vec<f64> = match &geometry {
                Geometry::Box { size } => size.to_vec(),
                Geometry::Cylinder { radius, length } | Geometry::Capsule { radius, length } => {
                    vec![*radius, *length]
                }
                Geometry::Sphere { radius } => vec![*radius],
                Geometry::Mesh { .. } => Vec::new(),
            };
            if dims.iter().any(|d| *d < 0.0) {
                problems.push(format!(
                    "`{file}` line {at}, link `{}`: a collision shape has a negative size",
                    link.name
                ));
            }
            collisions.push(Collision {
                line: at,
                origin: pose(&collision.origin),
                geometry,
            });
        }
        links.push(Link {
            name: link.name.clone(),
            line: at,
            collisions,
        });
    }
    let link_names: Vec<&str> = links.iter().map(|l| l.name.as_str()).collect();
    let mut joints = Vec::new();
    let mut joint_names = HashSet::new();
    for joint in &robot.joints {
        let node = element("joint", &joint.name);
        let at = node.map_or(0, line);
        let here = format!("`{file}` line {at}, joint `{}`", joint.name);
        if !joint_names.insert(joint.name.as_str()) {
            problems.push(format!(
                "`{file}` line {at}: a second joint is named `{}`: joint names must be unique",
                joint.name
            ));
            continue;
        }
        for (role, link) in [("parent", &joint.parent.link), ("child", &joint.child.link)] {
            if !link_names.contains(&link.as_str()) {
                problems.push(format!(
                    "{here}: its {role} link `{link}` is not a link of the URDF: {}",
                    did_you_mean(link, "links", link_names.iter().copied())
                ));
            }
        }
        let kind = match joint.joint_type {
            urdf_rs::JointType::Revolute => JointKind::Revolute,
            urdf_rs::JointType::Continuous => JointKind::Continuous,
            urdf_rs::JointType::Prismatic => JointKind::Prismatic,
            urdf_rs::JointType::Fixed => JointKind::Fixed,
            urdf_rs::JointType::Floating => JointKind::Floating,
            urdf_rs::JointType::Planar => JointKind::Planar,
            urdf_rs::JointType::Spherical => JointKind::Spherical,
        };
        let child = |tag: &str| node.and_then(|n| n.children().find(|c| c.has_tag_name(tag)));
        let written = |tag: &str, attribute: &str| {
            child(tag).is_some_and(|c| c.attribute(attribute).is_some())
        };
        let moving = matches!(
            kind,
            JointKind::Revolute | JointKind::Continuous | JointKind::Prismatic
        );
        let axis = if moving {
            match unit(joint.axis.xyz.0) {
                Some(axis) => axis,
                None => {
                    problems.push(format!(
                        "{here}: its `<axis xyz>` is zero: a moving joint needs a direction"
                    ));
                    [1.0, 0.0, 0.0]
                }
            }
        } else {
            [1.0, 0.0, 0.0]
        };
        let limit = child("limit").map(|_| {
            let l = &joint.limit;
            let given = |name: &str, value: f64| (written("limit", name)).then_some(value);
            Limit {
                lower: given("lower", l.lower),
                upper: given("upper", l.upper),
                velocity: given("velocity", l.velocity),
                effort: given("effort", l.effort),
                acceleration: given("acceleration", l.acceleration),
                deceleration: given("deceleration", l.deceleration)
                    .or_else(|| given("acceleration", l.acceleration)),
                jerk: given("jerk", l.jerk),
            }
            // (urdf-rs drops acceleration, deceleration and jerk before URDF 1.2, as urdfdom
            // does: read through `written`, they are kept only when urdf-rs kept them.)
        });
        let limit = limit.map(|mut l| {
            if !l.acceleration.is_some_and(f64::is_finite) {
                l.acceleration = None;
            }
            if !l.deceleration.is_some_and(f64::is_finite) {
                l.deceleration = None;
            }
            if !l.jerk.is_some_and(f64::is_finite) {
                l.jerk = None;
            }
            l
        });
        let safety = joint.safety_controller.as_ref().map(|s| Safety {
            soft_lower: written("safety_controller", "soft_lower_limit")
                .then_some(s.soft_lower_limit),
            soft_upper: written("safety_controller", "soft_upper_limit")
                .then_some(s.soft_upper_limit),
        });
        if let Some(l) = &limit
            && let (Some(lower), Some(upper)) = (l.lower, l.upper)
            && moving
            && kind != JointKind::Continuous
            && lower > upper
        {
            problems.push(format!(
                "{here}: its `<limit>` is inverted (lower {lower} is above upper {upper})"
            ));
        }
        if let Some(s) = &safety
            && let (Some(lower), Some(upper)) = (s.soft_lower, s.soft_upper)
            && moving
            && lower > upper
        {
            problems.push(format!(
                "{here}: its `<safety_controller>` is inverted (soft_lower_limit {lower} is \
                 above soft_upper_limit {upper})"
            ));
        }
        let mimic = joint.mimic.as_ref().map(|m| Mimic {
            joint: m.joint.clone(),
            multiplier: m.multiplier.unwrap_or(1.0),
            offset: m.offset.unwrap_or(0.0),
        });
        joints.push(Joint {
            name: joint.name.clone(),
            line: at,
            kind,
            parent: joint.parent.link.clone(),
            child: joint.child.link.clone(),
            origin: pose(&joint.origin),
            axis,
            limit,
            safety,
            mimic,
        });
    }
    // Mimics name joints that exist.
    let names: Vec<&str> = joints.iter().map(|j| j.name.as_str()).collect();
    for joint in &joints {
        if let Some(m) = &joint.mimic
            && !names.contains(&m.joint.as_str())
        {
            problems.push(format!(
                "`{file}` line {}, joint `{}`: its `<mimic joint=\"{}\">` is not a joint of the \
                 URDF: {}",
                joint.line,
                joint.name,
                m.joint,
                did_you_mean(&m.joint, "joints", names.iter().copied())
            ));
        }
    }
    // The tree: each link the child of at most one joint, one root, no cycle.
    let mut parent_of: HashMap<&str, &Joint> = HashMap::new();
    for joint in &joints {
        if let Some(first) = parent_of.insert(joint.child.as_str(), joint) {
            problems.push(format!(
                "`{file}` line {}: link `{}` is the child of two joints (`{}` and `{}`): a URDF \
                 is a tree",
                joint.line, joint.child, first.name, joint.name
            ));
        }
    }
    let roots: Vec<&str> = links
        .iter()
        .map(|l| l.name.as_str())
        .filter(|l| !parent_of.contains_key(l))
        .collect();
    let root_name = match roots.as_slice() {
        [one] => (*one).to_owned(),
        [] => {
            problems.push(format!(
                "`{file}`: every link is some joint's child, so the joints make a cycle: a URDF \
                 is a tree with one root link"
            ));
            String::new()
        }
        many => {
            problems.push(format!(
                "`{file}`: the URDF has {} root links ({}): no joint connects them; a URDF is \
                 one tree",
                many.len(),
                many.iter()
                    .map(|l| format!("`{l}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            String::new()
        }
    };
    if problems.is_empty() {
        // A cycle not through the root: walking up from any link must reach the root.
        for link in &links {
            let mut at = link.name.as_str();
            let mut steps = 0;
            while let Some(joint) = parent_of.get(at) {
                at = joint.parent.as_str();
                steps += 1;
                if steps > joints.len() {
                    problems.push(format!(
                        "`{file}`: the joints above link `{}` make a cycle: a URDF is a tree",
                        link.name
                    ));
                    break;
                }
            }
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Description {
        name: robot.name.clone(),
        links,
        joints,
        root: root_name,
    })
}

/// The xacro namespace.
const XACRO_NS: &str = "http://www.ros.org/wiki/xacro";

/// The refusal of a xacro file.
pub fn xacro_message(file: &str, why: &str) -> String {
    format!(
        "`{file}` is xacro, not URDF ({why}): toolwright reads URDF and does not expand \
         xacro; expand it once with `xacro {file} > robot.urdf` (ROS 2: `ros2 run xacro xacro \
         {file} -o robot.urdf`), commit the result and name it in `urdf = \"..\"`"
    )
}

/// Where an element belongs, for messages: `, joint `NAME`` or `, link `NAME``.
fn owner(node: roxmltree::Node) -> String {
    node.ancestors()
        .find(|a| a.has_tag_name("joint") || a.has_tag_name("link"))
        .map(|a| {
            format!(
                ", {} `{}`",
                a.tag_name().name(),
                a.attribute("name").unwrap_or("?")
            )
        })
        .unwrap_or_default()
}

/// urdf-rs's origin as a pose.
fn pose(origin: &urdf_rs::Pose) -> Pose {
    Pose {
        rot: Rot::from_rpy(origin.rpy.0),
        xyz: origin.xyz.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARM: &str = r#"<?xml version="1.0"?>
<robot name="arm">
  <link name="base"/>
  <link name="upper">
    <collision>
      <origin xyz="0 0 0.2" rpy="0 0 0"/>
      <geometry><cylinder radius="0.05" length="0.4"/></geometry>
    </collision>
  </link>
  <joint name="shoulder" type="revolute">
    <origin xyz="0 0 0.1" rpy="0 0 0"/>
    <parent link="base"/>
    <child link="upper"/>
    <axis xyz="0 1 0"/>
    <limit lower="-1.5" upper="1.5" velocity="2.0" effort="10"/>
    <safety_controller k_position="100" k_velocity="40" soft_lower_limit="-1.4" soft_upper_limit="1.45"/>
  </joint>
</robot>
"#;

    #[test]
    fn reads_joints_limits_and_collisions_with_their_lines() {
        let d = read(ARM, "arm.urdf").unwrap();
        assert_eq!(d.name, "arm");
        assert_eq!(d.root, "base");
        let j = d.joint("shoulder").unwrap();
        assert_eq!(j.line, 10);
        assert_eq!(j.kind, JointKind::Revolute);
        assert_eq!(j.axis, [0.0, 1.0, 0.0]);
        let l = j.limit.unwrap();
        assert_eq!(
            (l.lower, l.upper, l.velocity),
            (Some(-1.5), Some(1.5), Some(2.0))
        );
        assert_eq!(l.acceleration, None);
        let s = j.safety.unwrap();
        assert_eq!((s.soft_lower, s.soft_upper), (Some(-1.4), Some(1.45)));
        let c = &d.link("upper").unwrap().collisions[0];
        assert_eq!(
            c.geometry,
            Geometry::Cylinder {
                radius: 0.05,
                length: 0.4
            }
        );
        assert_eq!(c.origin.xyz, [0.0, 0.0, 0.2]);
    }

    #[test]
    fn malformed_xml_names_the_line() {
        let broken = ARM.replace("</joint>", "</join>");
        let e = read(&broken, "arm.urdf").unwrap_err();
        assert_eq!(e.len(), 1);
        assert!(e[0].starts_with("`arm.urdf` line 17, column"), "{e:?}");
        assert!(e[0].contains("malformed XML"), "{e:?}");
    }

    #[test]
    fn nan_infinite_and_inverted_limits_are_refused_naming_joint_and_attribute() {
        let nan = ARM.replace("lower=\"-1.5\"", "lower=\"NaN\"");
        let e = read(&nan, "arm.urdf").unwrap_err();
        assert!(
            e[0].contains("line 15, joint `shoulder`: `<limit lower=\"NaN\">` is not finite"),
            "{e:?}"
        );
        let inf = ARM.replace("velocity=\"2.0\"", "velocity=\"inf\"");
        let e = read(&inf, "arm.urdf").unwrap_err();
        assert!(
            e[0].contains("`<limit velocity=\"inf\">` is not finite"),
            "{e:?}"
        );
        let inverted = ARM.replace(
            "lower=\"-1.5\" upper=\"1.5\"",
            "lower=\"1.5\" upper=\"-1.5\"",
        );
        let e = read(&inverted, "arm.urdf").unwrap_err();
        assert!(
            e[0].contains(
                "joint `shoulder`: its `<limit>` is inverted (lower 1.5 is above upper -1.5)"
            ),
            "{e:?}"
        );
        let soft = ARM.replace("soft_lower_limit=\"-1.4\"", "soft_lower_limit=\"1.46\"");
        let e = read(&soft, "arm.urdf").unwrap_err();
        assert!(e[0].contains("`<safety_controller>` is inverted"), "{e:?}");
        let words = ARM.replace("xyz=\"0 1 0\"", "xyz=\"0 one 0\"");
        let e = read(&words, "arm.urdf").unwrap_err();
        assert!(
            e[0].contains("`<axis xyz=\"0 one 0\">` is not 3 numbers separated by spaces"),
            "{e:?}"
        );
    }

    #[test]
    fn xacro_is_refused_with_how_to_expand_it() {
        let xacro = ARM.replace(
            "<robot name=\"arm\">",
            "<robot name=\"arm\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n<xacro:property name=\"r\" value=\"1\"/>",
        );
        let e = read(&xacro, "arm.urdf.xacro").unwrap_err();
        assert!(e[0].contains("is xacro, not URDF"), "{e:?}");
        assert!(e[0].contains("xacro arm.urdf.xacro > robot.urdf"), "{e:?}");
        let expression = ARM.replace("length=\"0.4\"", "length=\"${l}\"");
        let e = read(&expression, "arm.urdf").unwrap_err();
        assert!(e[0].contains("holds a xacro expression (`${l}`)"), "{e:?}");
    }

    #[test]
    fn the_tree_is_checked() {
        let unknown = ARM.replace("<child link=\"upper\"/>", "<child link=\"uper\"/>");
        let e = read(&unknown, "arm.urdf").unwrap_err();
        assert!(
            e.iter().any(|m| m.contains(
                "its child link `uper` is not a link of the URDF: did you mean `upper`?"
            )),
            "{e:?}"
        );
        let two_roots = ARM.replace(
            "<link name=\"base\"/>",
            "<link name=\"base\"/><link name=\"loose\"/>",
        );
        let e = read(&two_roots, "arm.urdf").unwrap_err();
        assert!(e[0].contains("2 root links (`base`, `loose`)"), "{e:?}");
        let mimic = ARM.replace("</joint>", "<mimic joint=\"shouldr\"/></joint>");
        let e = read(&mimic, "arm.urdf").unwrap_err();
        assert!(
            e[0].contains(
                "`<mimic joint=\"shouldr\">` is not a joint of the URDF: did you mean `shoulder`?"
            ),
            "{e:?}"
        );
    }

    #[test]
    fn the_panda_reads() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/robots/example-robot-data/robots/panda_description/urdf/panda.urdf"
        ))
        .unwrap();
        let d = read(&text, "panda.urdf").unwrap();
        assert_eq!(d.root, "panda_link0");
        assert_eq!(d.joints.len(), 12);
        let j4 = d.joint("panda_joint4").unwrap();
        assert_eq!(j4.limit.unwrap().lower, Some(-3.0718));
        assert_eq!(j4.safety.unwrap().soft_upper, Some(-0.0698));
        let f2 = d.joint("panda_finger_joint2").unwrap();
        assert_eq!(f2.mimic.as_ref().unwrap().joint, "panda_finger_joint1");
        assert_eq!(f2.axis, [0.0, -1.0, 0.0]);
        assert_eq!(d.link("panda_leftfinger").unwrap().collisions.len(), 4);
    }
}
