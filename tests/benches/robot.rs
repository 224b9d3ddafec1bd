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
//! - `robot_check/forward_kinematics`: one forward kinematics;
//! - `robot_call/swept`: one `tools/call` of `move_joints` (the Panda declared with
//!   `resource(.., robot(..))`, confirmation off) through rmcp's client, in process over a
//!   duplex pipe, every call a motion of all seven joints between two configurations (checked
//!   before the user would be asked and again at the call's turn, timed by the caps);
//! - `robot_call/no_check`: the same tool, the same arguments and body, without its `target`
//!   (no check, no motion handed to the body): the floor the check adds to.

mod common;

use std::hint::black_box;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rmcp::ServiceExt as _;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService};
use serde::Serialize;
use toolwright::__private::{EnvelopeDef, Robot, RobotDef, ShapeDef, Solid, Solved, Space};
use toolwright::{Speed, ToolSchema, ToolSet, Toolbox, ToolboxBuilder, toolbox};

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

/// The Panda served as a tool: `move_joints` to the generated joint type, checked against the
/// same cell as the checks above.
struct Arm {
    joints: Mutex<Vec<f64>>,
}

/// Where the joints went.
#[derive(Serialize, ToolSchema)]
struct Moved {
    /// The joint positions reached.
    positions: PandaJoints,
}

#[toolbox(resource(
    name = "arm",
    position = joints_now,
    robot(
        urdf = "../examples/robots/example-robot-data/robots/panda_description/urdf/panda.urdf",
        tip = "panda_hand_tcp",
        joints = PandaJoints,
        limits = "../examples/robots/panda_moveit_config/joint_limits.yaml",
        srdf = "../examples/robots/example-robot-data/robots/panda_description/srdf/panda.srdf",
        home = "default",
        packages("example-robot-data" = "../examples/robots/example-robot-data"),
    ),
    envelope(
        frame = "panda_link0",
        unit = "mm",
        allow(name = "cell", box(min = (-1200, -1200, -150), max = (1200, 1200, 1600))),
        keep_out(name = "table", box(min = (-1200, -1200, -400), max = (1200, 1200, -100))),
        keep_out(name = "shelf", box(min = (-100, 400, 300), max = (400, 700, 350))),
        keep_out(name = "wall", box(min = (-700, -800, -100), max = (700, -750, 1500))),
        keep_out(name = "post", cylinder(center = (750, 0), radius = 60, z = (-100, 900)))
    )
))]
impl Arm {
    /// Where the joints are.
    fn joints_now(&self) -> Vec<f64> {
        self.joints.lock().unwrap().clone()
    }

    /// Move every joint to the given positions.
    #[tool(
        resource = "arm",
        target = positions,
        blocking = false,
        confirm = false,
        because = "a benchmark: nothing real moves"
    )]
    fn move_joints(
        &self,
        /// Where each joint goes.
        positions: PandaJoints,
        /// How fast.
        #[param(default = Speed::fraction(1.0))]
        speed: Speed,
    ) -> Moved {
        let _ = speed;
        *self.joints.lock().unwrap() = positions.values().to_vec();
        Moved { positions }
    }
}

/// The Panda's toolbox, `move_joints` with its check (`checked`) or without its target.
fn arm_toolbox(checked: bool) -> Toolbox<Arm> {
    let mut defs = Arm::tools();
    if !checked {
        for def in &mut defs {
            def.meta.target = None;
        }
    }
    let home = PandaJoints::HOME.values().to_vec();
    ToolboxBuilder::new(Arm {
        joints: Mutex::new(home),
    })
    .with_tools(defs)
    .with_declared_resources()
    .with_confirmation(false)
    .build()
    .expect("the Panda's toolbox")
}

/// One call after another, alternating between the target of the checks above and home, so
/// every call is a motion of all seven joints.
fn call_routine(checked: bool) -> Routine {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let home = PandaJoints::HOME.values();
    let to = target(&home);
    let request = |q: &[f64]| {
        let positions = serde_json::to_value(PandaJoints::from_values(q).unwrap()).unwrap();
        CallToolRequestParams::new("move_joints").with_arguments(
            serde_json::json!({"positions": positions})
                .as_object()
                .unwrap()
                .clone(),
        )
    };
    let requests = [request(&to), request(&home)];
    let client: RunningService<RoleClient, ()> = rt.block_on(async {
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        let toolbox = arm_toolbox(checked);
        tokio::spawn(async move {
            let running = toolbox.serve(server_io).await.expect("server starts");
            let _ = running.waiting().await;
        });
        let client = ().serve(client_io).await.expect("client connects");
        // Once each way, so that no benchmark times an error path.
        for r in &requests {
            let result = client.call_tool(r.clone()).await.expect("tools/call");
            assert_eq!(result.is_error, Some(false), "{result:?}");
        }
        client
    });
    let flip = AtomicBool::new(false);
    Box::new(move |iters| {
        rt.block_on(async {
            let start = Instant::now();
            for _ in 0..iters {
                let i = usize::from(flip.fetch_xor(true, Ordering::Relaxed));
                black_box(
                    client
                        .call_tool(requests[i].clone())
                        .await
                        .expect("tools/call"),
                );
            }
            start.elapsed()
        })
    })
}

fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario::new("robot_call", "swept", || call_routine(true)),
        Scenario::new("robot_call", "no_check", || call_routine(false)),
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
        Ratio::new("robot_call", "swept", "no_check", None),
        Ratio::new("robot_check", "swept_7_joints", "forward_kinematics", None),
        Ratio::new("robot_check", "swept_7_joints", "one_configuration", None),
        Ratio::new("robot_check", "refused_7_joints", "swept_7_joints", None),
    ];
    common::run("robot", scenarios(), &ratios);
}
