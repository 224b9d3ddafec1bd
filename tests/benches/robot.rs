//! What checking a robot's motion costs: the Franka Panda read from its URDF (`__robot_def!`),
//! a motion of all seven joints from the SRDF's `default` configuration, checked link by link
//! against an envelope with four keep-outs (a table under the base, a shelf, a wall, a post)
//! and for self-collision: the whole swept check, as a `tools/call` gate runs it.
//!
//! `cargo bench -p toolwright-tests --bench robot` (criterion, release), or
//! `tests/bench-scripts/instructions.sh robot_` (instructions per check). Baselines in the same
//! process: one forward kinematics of the seven joints (the check's unit of work), and the
//! check of a motion of no length (one configuration).
//!
//! Scenarios:
//! - `robot_check/swept_7_joints`: the motion (clear: passes);
//! - `robot_check/refused_7_joints`: a motion through the shelf (refused, with its words and
//!   the suggestion's two checks);
//! - `robot_check/one_configuration`: the target alone;
//! - `robot_check/forward_kinematics`: one forward kinematics.

mod common;

use std::hint::black_box;
use std::time::Instant;

use toolwright::__private::{EnvelopeDef, Robot, RobotDef, ShapeDef, Solid, Solved, Space};

use common::{Ratio, Routine, Scenario};

const PANDA: RobotDef = toolwright::__private::__robot_def!(
    urdf = "../examples/robots/example-robot-data/robots/panda_description/urdf/panda.urdf",
    tip = "panda_hand_tcp",
    limits = "../examples/robots/panda_moveit_config/joint_limits.yaml",
    srdf = "../examples/robots/example-robot-data/robots/panda_description/srdf/panda.srdf",
    home = "default",
    packages("example-robot-data" = "../examples/robots/example-robot-data"),
);

/// The cell, in millimetres: the table's top 100 mm under the base's frame (the base link's
/// bounding capsule reaches 82 mm below it), a shelf and a wall beside the arm, a post in front.
const CELL: EnvelopeDef = EnvelopeDef {
    frame: "panda_link0",
    unit: "mm",
    tool_radius: 0.0,
    allow: &[ShapeDef {
        name: Some("cell"),
        solid: Solid::Box {
            min: [-1200.0, -1200.0, -150.0],
            max: [1200.0, 1200.0, 1600.0],
        },
    }],
    keep_out: &[
        ShapeDef {
            name: Some("table"),
            solid: Solid::Box {
                min: [-1200.0, -1200.0, -400.0],
                max: [1200.0, 1200.0, -100.0],
            },
        },
        ShapeDef {
            name: Some("shelf"),
            solid: Solid::Box {
                min: [-100.0, 400.0, 300.0],
                max: [400.0, 700.0, 350.0],
            },
        },
        ShapeDef {
            name: Some("wall"),
            solid: Solid::Box {
                min: [-700.0, -800.0, -100.0],
                max: [700.0, -750.0, 1500.0],
            },
        },
        ShapeDef {
            name: Some("post"),
            solid: Solid::Cylinder {
                center: [750.0, 0.0],
                radius: 60.0,
                z_min: -100.0,
                z_max: 900.0,
            },
        },
    ],
    max_step: None,
};

fn setup() -> (Robot, Space, Vec<f64>) {
    let robot = Robot::new(&PANDA).expect("the Panda");
    let space = Space::from_def(&robot, &CELL).expect("the cell");
    let home = robot.home().to_vec();
    (robot, space, home)
}

/// Every joint moves: 0.4 to 0.9 rad, towards the front-right.
fn target(home: &[f64]) -> Vec<f64> {
    let delta = [-0.8, 0.5, 0.4, 0.6, -0.5, -0.4, 0.9];
    home.iter().zip(delta).map(|(h, d)| h + d).collect()
}

fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario::new("robot_check", "swept_7_joints", || {
            let (robot, space, home) = setup();
            let to = target(&home);
            let cleared = robot.check(&space, &home, &to).expect("a clear motion");
            eprintln!(
                "swept_7_joints: {} configurations examined, least clearance {:.1} mm",
                cleared.steps,
                cleared.least * 1000.0
            );
            Box::new(move |n: u64| {
                let start = Instant::now();
                for _ in 0..n {
                    black_box(
                        robot
                            .check(&space, black_box(&home), black_box(&to))
                            .is_ok(),
                    );
                }
                start.elapsed()
            }) as Routine
        }),
        Scenario::new("robot_check", "refused_7_joints", || {
            let (robot, space, home) = setup();
            // The tool point onto the shelf: refused (at the target, or before).
            let Solved::Reached(to) = robot.solve([0.15, 0.55, 0.36], None, &home) else {
                panic!("the shelf is in reach")
            };
            let refusal = robot
                .check(&space, &home, &to)
                .expect_err("through the shelf");
            eprintln!("refused_7_joints: {refusal}");
            Box::new(move |n: u64| {
                let start = Instant::now();
                for _ in 0..n {
                    black_box(
                        robot
                            .check(&space, black_box(&home), black_box(&to))
                            .is_err(),
                    );
                }
                start.elapsed()
            }) as Routine
        }),
        Scenario::new("robot_check", "one_configuration", || {
            let (robot, space, home) = setup();
            let to = target(&home);
            Box::new(move |n: u64| {
                let start = Instant::now();
                for _ in 0..n {
                    black_box(robot.check(&space, black_box(&to), black_box(&to)).is_ok());
                }
                start.elapsed()
            }) as Routine
        }),
        Scenario::new("robot_check", "forward_kinematics", || {
            let (robot, _, home) = setup();
            let to = target(&home);
            Box::new(move |n: u64| {
                let start = Instant::now();
                for _ in 0..n {
                    black_box(robot.tool_pose(black_box(&to)));
                }
                start.elapsed()
            }) as Routine
        }),
    ]
}

fn main() {
    let ratios = [
        Ratio::new("robot_check", "swept_7_joints", "forward_kinematics", None),
        Ratio::new("robot_check", "swept_7_joints", "one_configuration", None),
        Ratio::new("robot_check", "refused_7_joints", "swept_7_joints", None),
    ];
    common::run("robot", scenarios(), &ratios);
}
