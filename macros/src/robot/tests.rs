//! The reduction end to end: the real Panda (its URDF with STL meshes, MoveIt's limits file,
//! its SRDF), and each bad input the declaration can meet, with the message it gets.

use std::path::{Path, PathBuf};

use super::capsule::Capsule;
use super::decl::{Decl, LinkDecl, Site};
use super::math::{Pose, V3, point_segment_distance};
use super::model::{Kind, Robot};
use super::{mesh, read};

/// The examples crate, where the Panda's files are (`robots/..`).
fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

const URDF: &str = "robots/example-robot-data/robots/panda_description/urdf/panda.urdf";
const CAPSULES: &str =
    "robots/example-robot-data/robots/panda_description/urdf/panda_collision.urdf";
const SRDF: &str = "robots/example-robot-data/robots/panda_description/srdf/panda.srdf";
const LIMITS: &str = "robots/panda_moveit_config/joint_limits.yaml";

fn panda() -> Decl {
    let mut decl = Decl::new(URDF, "panda_hand_tcp");
    decl.packages = vec![(
        "example-robot-data".to_owned(),
        "robots/example-robot-data".to_owned(),
    )];
    decl.limits = Some(LIMITS.to_owned());
    decl.srdf = Some(SRDF.to_owned());
    decl.home = Some("default".to_owned());
    decl
}

fn ok(decl: &Decl) -> Robot {
    match read(decl, &examples()) {
        Ok(robot) => robot,
        Err(problems) => panic!("{:#?}", problems.0),
    }
}

/// The problems of `decl`, as `(site, message)`.
fn problems(decl: &Decl, base: &Path) -> Vec<(Site, String)> {
    match read(decl, base) {
        Ok(_) => panic!("expected problems"),
        Err(p) => p.0.into_iter().map(|p| (p.site, p.message)).collect(),
    }
}

#[test]
fn the_panda_reduces_to_seven_joints_with_their_limits_and_provenance() {
    let robot = ok(&panda());
    assert_eq!(robot.name, "panda");
    assert_eq!(robot.base, "panda_link0");
    let names: Vec<&str> = robot.joints.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "panda_joint1",
            "panda_joint2",
            "panda_joint3",
            "panda_joint4",
            "panda_joint5",
            "panda_joint6",
            "panda_joint7"
        ]
    );
    assert!(robot.joints.iter().all(|j| j.kind == Kind::Revolute));
    let j1 = &robot.joints[0].limits;
    assert_eq!((j1.lower, j1.upper), (-2.8973, 2.8973));
    assert_eq!(j1.velocity, 2.175);
    assert_eq!(j1.acceleration, Some(3.75));
    assert_eq!(j1.deceleration, Some(3.75));
    assert_eq!(j1.jerk, Some(300.0));
    assert!(
        j1.range_from
            .contains("`<safety_controller soft_lower_limit>`")
            || j1.range_from.contains("`<limit lower>`"),
        "{}",
        j1.range_from
    );
    assert_eq!(
        j1.acceleration_from.as_deref(),
        Some("`max_acceleration` in robots/panda_moveit_config/joint_limits.yaml")
    );
    let j4 = &robot.joints[3].limits;
    assert_eq!((j4.lower, j4.upper), (-3.0718, -0.0698));
    // The joint origins, folded: joint 1 sits 0.333 m up.
    assert_eq!(robot.joints[0].origin.xyz, [0.0, 0.0, 0.333]);
    assert_eq!(robot.sha256.len(), 64);
    // The tip: panda_hand_tcp rides joint 7's frame, 0.107 + 0.1034 up its z.
    assert_eq!(robot.tip.frame, 7);
    assert!(
        (robot.tip.point[2] - 0.2104).abs() < 1e-12,
        "{:?}",
        robot.tip
    );
    // Home is the SRDF's default state.
    assert_eq!(robot.home.values[3], -2.35619);
    // The SRDF's 35 pairs, as link indices.
    assert_eq!(robot.disabled.len(), 35);
    // Every file read is tracked: the URDF, the limits, the SRDF, 9 meshes.
    assert_eq!(robot.files.len(), 12, "{:?}", robot.files);
}

#[test]
fn every_mesh_vertex_is_inside_its_link_s_capsule() {
    let robot = ok(&panda());
    let dir =
        examples().join("robots/example-robot-data/robots/panda_description/meshes/collision");
    for (link, file) in [
        ("panda_link0", "link0"),
        ("panda_link1", "link1"),
        ("panda_link2", "link2"),
        ("panda_link3", "link3"),
        ("panda_link4", "link4"),
        ("panda_link5", "link5"),
        ("panda_link6", "link6"),
        ("panda_link7", "link7"),
        ("panda_hand", "hand"),
    ] {
        let bytes = std::fs::read(dir.join(format!("{file}.stl"))).unwrap();
        let vertices = mesh::vertices(&bytes, file, [1.0; 3]).unwrap();
        let l = robot.links.iter().find(|l| l.name == link).unwrap();
        assert_eq!(l.capsules.len(), 1, "{link}");
        let c = l.capsules[0];
        for v in &vertices {
            assert!(
                point_segment_distance(*v, c.a, c.b) <= c.radius,
                "{link}: {v:?} outside {c:?}"
            );
        }
        // And not absurdly loose: a Panda link's capsule is under 12 cm in radius.
        assert!(c.radius < 0.12, "{link}: {c:?}");
    }
}

#[test]
fn the_fingers_are_swept_over_their_travel() {
    let robot = ok(&panda());
    let left = robot
        .links
        .iter()
        .find(|l| l.name == "panda_leftfinger")
        .unwrap();
    assert_eq!(left.swept_by.as_deref(), Some("panda_finger_joint1"));
    // It rides the hand (joint 7's frame).
    assert_eq!(left.frame, 7);
    // The rubber tip box (centre (0, 7.58e-3, 45.25e-3), half-size (8.75, 7.6, 9.25) mm) at
    // both ends of the travel (0..0.04 along y), in the finger's frame at zero.
    for s in [0.0, 0.02, 0.04] {
        for corner in super::capsule::box_corners([17.5e-3, 15.2e-3, 18.5e-3]) {
            let p = [corner[0], corner[1] + 7.58e-3 + s, corner[2] + 45.25e-3];
            assert!(
                left.capsules.iter().any(|c| c.excess(p, 0.0) <= 0.0),
                "{p:?} outside every capsule"
            );
        }
    }
}

#[test]
fn the_capsule_urdf_gives_one_capsule_per_link() {
    let mut decl = panda();
    decl.urdf = CAPSULES.to_owned();
    let robot = ok(&decl);
    let link3 = robot
        .links
        .iter()
        .find(|l| l.name == "panda_link3")
        .unwrap();
    // One cylinder and two spheres at its ends: the spheres are inside the cylinder's capsule.
    assert_eq!(link3.capsules.len(), 1, "{:?}", link3.capsules);
}

#[test]
fn margins_narrow_each_end_and_padding_grows_each_capsule() {
    let mut decl = panda();
    decl.margin = 0.02;
    decl.padding = 0.01;
    let robot = ok(&decl);
    let j1 = &robot.joints[0].limits;
    assert!((j1.lower - -2.8773).abs() < 1e-12 && (j1.upper - 2.8773).abs() < 1e-12);
    assert!(
        j1.range_from
            .ends_with("less the margin 0.02 rad at each end"),
        "{}",
        j1.range_from
    );
    let plain = ok(&panda());
    let (a, b) = (&robot.links[1].capsules[0], &plain.links[1].capsules[0]);
    assert!((a.radius - b.radius - 0.01).abs() < 1e-12);
}

#[test]
fn a_margin_leaves_ranges_as_written_and_never_wider() {
    // -3.0718 + 0.01 is -3.0618000000000003 in binary: published as -3.0618 (inward).
    let mut decl = panda();
    decl.margin = 0.01;
    let robot = ok(&decl);
    let written: Vec<String> = robot
        .joints
        .iter()
        .flat_map(|j| [j.limits.lower, j.limits.upper])
        .map(|x| x.to_string())
        .collect();
    assert_eq!(
        written,
        [
            "-2.8873", "2.8873", "-1.7528", "1.7528", "-2.8873", "2.8873", "-3.0618", "-0.0798",
            "-2.8873", "2.8873", "-0.0075", "3.7425", "-2.8873", "2.8873"
        ]
    );
    let plain = ok(&panda());
    for (j, p) in robot.joints.iter().zip(&plain.joints) {
        assert!(j.limits.lower >= p.limits.lower + 0.01, "{}", j.name);
        assert!(j.limits.upper <= p.limits.upper - 0.01, "{}", j.name);
    }
    assert_eq!(super::reduce::decimal_inward(0.1 + 0.2, false), 0.3);
    assert_eq!(super::reduce::decimal_inward(0.1 + 0.2, true), 0.1 + 0.2);
    assert_eq!(super::reduce::decimal_inward(-3.0718 + 0.01, true), -3.0618);
}

#[test]
fn a_tip_at_the_flange_puts_the_hand_on_joint_7_and_declared_capsules_win() {
    let mut decl = panda();
    decl.tip = "panda_link8".to_owned();
    decl.links = vec![LinkDecl {
        name: "panda_hand".to_owned(),
        capsules: vec![Capsule {
            a: [0.0, -0.08, 0.05],
            b: [0.0, 0.08, 0.05],
            radius: 0.04,
        }],
    }];
    let robot = ok(&decl);
    assert_eq!(robot.tip.point, [0.0, 0.0, 0.107]);
    let hand = robot.links.iter().find(|l| l.name == "panda_hand").unwrap();
    assert_eq!(hand.frame, 7);
    assert_eq!(hand.capsules[0].b, [0.0, 0.08, 0.05]);
}

/// A scratch crate folder with `files` written into it.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str, files: &[(&str, &str)]) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("toolwright-robot-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, text) in files {
            let p = dir.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const ARM: &str = r#"<robot name="arm">
  <link name="base"><collision><geometry><cylinder radius="0.1" length="0.1"/></geometry></collision></link>
  <link name="upper"><collision><origin xyz="0 0 0.2"/><geometry><mesh filename="package://arm_description/meshes/upper.stl"/></geometry></collision></link>
  <link name="tool"/>
  <joint name="shoulder" type="revolute">
    <origin xyz="0 0 0.1"/><parent link="base"/><child link="upper"/><axis xyz="0 1 0"/>
    <limit lower="-1.5" upper="1.5" velocity="2.0" effort="10"/>
  </joint>
  <joint name="wrist" type="fixed">
    <origin xyz="0 0 0.4"/><parent link="upper"/><child link="tool"/>
  </joint>
</robot>
"#;

const UPPER_STL: &str = "solid u\nfacet normal 0 0 1\nouter loop\nvertex -0.05 0 -0.2\nvertex 0.05 0 -0.2\nvertex 0 0.05 0.2\nendloop\nendfacet\nendsolid u\n";

fn arm(extra: &[(&str, &str)]) -> Scratch {
    let mut files = vec![
        ("robots/arm.urdf", ARM),
        ("robots/arm_description/meshes/upper.stl", UPPER_STL),
    ];
    files.extend_from_slice(extra);
    Scratch::new(&format!("arm{}", extra.len()), &files)
}

fn arm_decl() -> Decl {
    let mut decl = Decl::new("robots/arm.urdf", "tool");
    decl.packages = vec![(
        "arm_description".to_owned(),
        "robots/arm_description".to_owned(),
    )];
    decl
}

#[test]
fn a_small_arm_reads_with_a_mesh_through_its_package() {
    let dir = arm(&[]);
    let robot = read(&arm_decl(), &dir.0).unwrap();
    assert_eq!(robot.joints.len(), 1);
    assert_eq!(robot.tip.point, [0.0, 0.0, 0.4]);
    let upper = &robot.links[1];
    assert_eq!(upper.frame, 1);
    assert_eq!(upper.capsules.len(), 1);
    // The base is static: frame 0.
    assert_eq!(robot.links[0].frame, 0);
}

/// The one problem of `decl` in `dir`: its site and message.
fn only(decl: &Decl, dir: &Path) -> (Site, String) {
    let mut p = problems(decl, dir);
    assert_eq!(p.len(), 1, "{p:#?}");
    p.remove(0)
}

#[test]
fn a_missing_urdf_names_the_path_tried() {
    let dir = arm(&[]);
    let mut decl = arm_decl();
    decl.urdf = "robots/amr.urdf".to_owned();
    let (site, m) = only(&decl, &dir.0);
    assert_eq!(site, Site::Urdf);
    assert!(
        m.starts_with("cannot read `robots/amr.urdf`: no such file (tried `"),
        "{m}"
    );
}

#[test]
fn xacro_is_refused() {
    let dir = arm(&[]);
    let mut decl = arm_decl();
    decl.urdf = "robots/arm.urdf.xacro".to_owned();
    let (site, m) = only(&decl, &dir.0);
    assert_eq!(site, Site::Urdf);
    assert!(
        m.contains("is xacro, not URDF (its name ends in `.xacro`)"),
        "{m}"
    );
}

#[test]
fn an_unknown_tip_link_or_package_gets_the_closest_name() {
    let dir = arm(&[]);
    let mut decl = arm_decl();
    decl.tip = "tol".to_owned();
    let (site, m) = only(&decl, &dir.0);
    assert_eq!(site, Site::Tip);
    assert_eq!(
        m,
        "`robots/arm.urdf` has no link `tol`: did you mean `tool`? (the links: `base`, \
         `upper`, `tool`)"
    );
    let mut decl = arm_decl();
    decl.links = vec![LinkDecl {
        name: "uper".to_owned(),
        capsules: vec![],
    }];
    let (site, m) = only(&decl, &dir.0);
    assert_eq!(site, Site::Link(0));
    assert!(
        m.contains("has no link `uper`: did you mean `upper`?"),
        "{m}"
    );
    let mut decl = arm_decl();
    decl.packages = vec![(
        "arm_descripton".to_owned(),
        "robots/arm_description".to_owned(),
    )];
    let (site, m) = only(&decl, &dir.0);
    assert_eq!(site, Site::Packages);
    assert!(
        m.contains(
            "its mesh `package://arm_description/meshes/upper.stl` is in package \
             `arm_description`, which `packages(..)` does not declare (nor any other mesh in \
             it): did you mean `arm_descripton`?"
        ),
        "{m}"
    );
    let mut decl = arm_decl();
    decl.packages.clear();
    let (site, m) = only(&decl, &dir.0);
    assert_eq!(site, Site::Urdf);
    assert!(
        m.contains("declare where it is: `packages(\"arm_description\" = "),
        "{m}"
    );
}

#[test]
fn a_looser_limit_an_unknown_joint_and_a_nan_are_refused_naming_file_joint_and_key() {
    let dir = arm(&[(
        "robots/limits.yaml",
        "joint_limits:\n  shoulder:\n    has_velocity_limits: true\n    max_velocity: 3.0\n    max_position: 1.6\n  sholder:\n    max_velocity: 1.0\n",
    )]);
    let mut decl = arm_decl();
    decl.limits = Some("robots/limits.yaml".to_owned());
    let p = problems(&decl, &dir.0);
    assert_eq!(
        p,
        [(
            Site::Limits,
            "`robots/limits.yaml` line 6: joint `sholder` is not in `robots/arm.urdf`: did you \
             mean `shoulder`? (the joints: `shoulder`, `wrist`)"
                .to_owned()
        )]
    );
    let dir = arm(&[(
        "robots/limits.yaml",
        "joint_limits:\n  shoulder:\n    has_velocity_limits: true\n    max_velocity: 3.0\n    max_position: 1.6\n    has_acceleration_limits: true\n    max_acceleration: .nan\n",
    )]);
    let p = problems(&decl, &dir.0);
    assert_eq!(
        p,
        [(
            Site::Limits,
            "`robots/limits.yaml` line 7, joint `shoulder`: `max_acceleration: .nan` is not \
             finite: toolwright refuses a NaN or infinite limit (leave the key out for none)"
                .to_owned()
        )]
    );
    let dir = arm(&[(
        "robots/limits.yaml",
        "joint_limits:\n  shoulder:\n    has_velocity_limits: true\n    max_velocity: 3.0\n    max_position: 1.6\n    min_position: -1.0\n    has_acceleration_limits: true\n    max_acceleration: 4\n",
    )]);
    let p = problems(&decl, &dir.0);
    assert_eq!(
        p,
        [
            (
                Site::Limits,
                "`robots/limits.yaml` line 5, joint `shoulder`: `max_position: 1.6` is looser \
                 than the URDF's 1.5 (`<limit upper>` in robots/arm.urdf): a limits file may \
                 only tighten the URDF (stricter or equal, as MoveIt's Pilz planner requires)"
                    .to_owned()
            ),
            (
                Site::Limits,
                "`robots/limits.yaml` line 4, joint `shoulder`: `max_velocity: 3` is looser than \
                 the URDF's 2 (`<limit velocity>` in robots/arm.urdf): a limits file may only \
                 tighten the URDF (stricter or equal, as MoveIt's Pilz planner requires)"
                    .to_owned()
            ),
        ]
    );
    // Tighter values apply, with where they came from.
    let dir = arm(&[(
        "robots/limits.yaml",
        "joint_limits:\n  shoulder:\n    max_velocity: 1.0\n    min_position: -1.0\n    max_acceleration: 4\n",
    )]);
    let robot = read(&decl, &dir.0).unwrap();
    let l = &robot.joints[0].limits;
    assert_eq!(
        (l.lower, l.upper, l.velocity, l.acceleration),
        (-1.0, 1.5, 1.0, Some(4.0))
    );
    assert_eq!(l.velocity_from, "`max_velocity` in robots/limits.yaml");
    assert!(
        l.range_from
            .starts_with("-1 (`min_position` in robots/limits.yaml) ..= 1.5")
    );
}

#[test]
fn inverted_and_nan_urdf_limits_and_a_margin_that_leaves_nothing_are_refused() {
    let inverted = ARM.replace(
        "lower=\"-1.5\" upper=\"1.5\"",
        "lower=\"1.5\" upper=\"-1.5\"",
    );
    let dir = Scratch::new(
        "inverted",
        &[
            ("robots/arm.urdf", &inverted),
            ("robots/arm_description/meshes/upper.stl", UPPER_STL),
        ],
    );
    let (site, m) = only(&arm_decl(), &dir.0);
    assert_eq!(site, Site::Urdf);
    assert!(
        m.contains("joint `shoulder`: its `<limit>` is inverted"),
        "{m}"
    );
    let nan = ARM.replace("velocity=\"2.0\"", "velocity=\"nan\"");
    let dir = Scratch::new(
        "nan",
        &[
            ("robots/arm.urdf", &nan),
            ("robots/arm_description/meshes/upper.stl", UPPER_STL),
        ],
    );
    let (_, m) = only(&arm_decl(), &dir.0);
    assert!(
        m.contains("joint `shoulder`: `<limit velocity=\"nan\">` is not finite"),
        "{m}"
    );
    let dir = arm(&[]);
    let mut decl = arm_decl();
    decl.margin = 2.0;
    let (site, m) = only(&decl, &dir.0);
    assert_eq!(site, Site::Margin);
    assert!(m.contains("joint `shoulder` is left no range"), "{m}");
}

#[test]
fn meshes_that_are_not_stl_or_not_local_ask_for_a_capsule() {
    let dae = ARM.replace("upper.stl", "upper.dae");
    let dir = Scratch::new("dae", &[("robots/arm.urdf", &dae)]);
    let (site, m) = only(&arm_decl(), &dir.0);
    assert_eq!(site, Site::Urdf);
    assert!(m.contains("link `upper`: its collision mesh `package://arm_description/meshes/upper.dae` is not STL"), "{m}");
    assert!(
        m.contains("`link(\"upper\", capsule(a = (x, y, z), b = (x, y, z), radius = r))`"),
        "{m}"
    );
    let http = ARM.replace(
        "package://arm_description/meshes/upper.stl",
        "http://example.com/upper.stl",
    );
    let dir = Scratch::new("http", &[("robots/arm.urdf", &http)]);
    let (_, m) = only(&arm_decl(), &dir.0);
    assert!(m.contains("is a `http://` URI"), "{m}");
    // A declared capsule replaces what the URDF cannot give.
    let mut decl = arm_decl();
    decl.links = vec![LinkDecl {
        name: "upper".to_owned(),
        capsules: vec![Capsule {
            a: [0.0, 0.0, 0.0],
            b: [0.0, 0.0, 0.4],
            radius: 0.05,
        }],
    }];
    assert!(read(&decl, &dir.0).is_ok());
    // A missing mesh names the path tried.
    let dir = Scratch::new("nomesh", &[("robots/arm.urdf", ARM)]);
    let (site, m) = only(&arm_decl(), &dir.0);
    assert_eq!(site, Site::Packages);
    assert!(
        m.contains("cannot read `robots/arm_description/meshes/upper.stl`: no such file"),
        "{m}"
    );
}

#[test]
fn srdf_and_home_problems_name_their_line() {
    let dir = arm(&[(
        "robots/arm.srdf",
        "<robot name=\"arm\">\n<group_state name=\"home\" group=\"g\"><joint name=\"shoulder\" value=\"2.0\"/></group_state>\n<disable_collisions link1=\"base\" link2=\"uper\" reason=\"Never\"/>\n</robot>\n",
    )]);
    let mut decl = arm_decl();
    decl.srdf = Some("robots/arm.srdf".to_owned());
    decl.home = Some("hom".to_owned());
    let p = problems(&decl, &dir.0);
    assert_eq!(p.len(), 2, "{p:#?}");
    assert_eq!(p[0].0, Site::Srdf);
    assert!(p[0].1.contains("line 3: `<disable_collisions>` names link `uper`, which is not in `robots/arm.urdf`: did you mean `upper`?"), "{}", p[0].1);
    assert_eq!(p[1].0, Site::Home);
    assert!(
        p[1].1
            .contains("has no `<group_state name=\"hom\">`: did you mean `home`?"),
        "{}",
        p[1].1
    );
    decl.home = Some("home".to_owned());
    let p = problems(&decl, &dir.0);
    assert!(
        p[1].1.contains(
            "line 2: state `home` puts joint `shoulder` at 2, outside its enforced range -1.5..=1.5"
        ),
        "{p:#?}"
    );
}

#[test]
fn nothing_panics_on_garbage() {
    for (i, junk) in ["", "<robot/>", "<robot name=\"x\"><link/></robot>", "\u{0}\u{1}", "<robot><joint name=\"j\" type=\"revolute\"/></robot>", "<?xml version=\"1.0\"?><robot name=\"r\"><link name=\"a\"/><joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"a\"/></joint></robot>"].iter().enumerate() {
        let dir = Scratch::new(&format!("junk{i}"), &[("robots/arm.urdf", junk)]);
        assert!(read(&arm_decl(), &dir.0).is_err(), "{junk}");
    }
}

/// The tip point's place at q = 0 by composing the URDF's own origins by hand: the flange,
/// `panda_link8`, is at (0.088, 0, 0.926).
#[test]
fn the_folded_chain_puts_the_flange_where_the_urdf_does() {
    let mut decl = panda();
    decl.tip = "panda_link8".to_owned();
    let robot = ok(&decl);
    let mut pose = Pose::IDENTITY;
    for joint in &robot.joints {
        pose = pose.then(&joint.origin);
    }
    let p: V3 = pose.apply(robot.tip.point);
    assert!(
        (p[0] - 0.088).abs() < 1e-12 && p[1].abs() < 1e-12 && (p[2] - 0.926).abs() < 1e-12,
        "{p:?}"
    );
}
