//! A simulated Franka Panda served as tools, its resource declared a robot (`resource(..,
//! robot(urdf = .., joints = PandaJoints, ..))`: the Panda read from its URDF, its joint-position
//! type generated): joint motions and
//! Cartesian targets checked link by link before anything moves, again at the call's turn, the
//! body handed the checked motion (`Context::motion`) with its timing, the robot published in
//! each moving tool's `_meta`, and an operator's narrowing applying to every link. A tool's
//! `target` naming joint positions is a joint motion; one naming a point, a Cartesian target
//! solved by the inverse kinematics; a `Speed` parameter times the motion.

use std::sync::{Mutex, OnceLock};

use nalgebra::Point3;
use serde_json::{Value, json};
use toolwright::__private::{Robot, RobotDef};
use toolwright::{Context, ENVELOPE_META, ROBOT_META, Speed, Toolbox, toolbox};

const PANDA: RobotDef = toolwright::__private::__robot_def!(
    urdf = "../examples/robots/example-robot-data/robots/panda_description/urdf/panda.urdf",
    tip = "panda_hand_tcp",
    limits = "../examples/robots/panda_moveit_config/joint_limits.yaml",
    srdf = "../examples/robots/example-robot-data/robots/panda_description/srdf/panda.srdf",
    home = "default",
    packages("example-robot-data" = "../examples/robots/example-robot-data"),
);

fn robot() -> &'static Robot {
    static ROBOT: OnceLock<Robot> = OnceLock::new();
    ROBOT.get_or_init(|| Robot::new(&PANDA).expect("the Panda"))
}

struct Panda {
    joints: Mutex<Vec<f64>>,
    moves: Mutex<usize>,
}

impl Panda {
    fn new() -> Self {
        Panda {
            joints: Mutex::new(robot().home().to_vec()),
            moves: Mutex::new(0),
        }
    }
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
        keep_out(name = "shelf", box(min = (-120, 300, 450), max = (120, 500, 1000)))
    )
))]
impl Panda {
    /// Where the joints are.
    fn joints_now(&self) -> Vec<f64> {
        self.joints.lock().unwrap().clone()
    }

    /// Where the tool point is (mm).
    fn tool_point(&self) -> [f64; 3] {
        let (p, _) = robot().tool_pose(&self.joints.lock().unwrap());
        [p[0] * 1000.0, p[1] * 1000.0, p[2] * 1000.0]
    }

    /// Move every joint to the given positions, at a fraction of the joints' caps.
    #[tool(
        resource = "arm",
        target = positions,
        confirm = false,
        because = "a simulation in a test: nothing real moves"
    )]
    fn move_joints(
        &self,
        /// Where the joints go.
        positions: PandaJoints,
        /// A fraction of the joints' speed caps.
        speed: Speed,
        ctx: Context,
    ) -> Value {
        let _ = (positions, speed);
        let motion = ctx.motion().expect("the checked motion");
        *self.joints.lock().unwrap() = motion.to().to_vec();
        *self.moves.lock().unwrap() += 1;
        json!({"positions": motion.to(), "duration": motion.duration().as_secs_f64()})
    }

    /// Move the tool point to a position in the base frame.
    #[tool(
        resource = "arm",
        target = target,
        confirm = false,
        because = "a simulation in a test: nothing real moves"
    )]
    fn move_to(
        &self,
        /// Where the tool point goes.
        #[param(unit = "mm", range = -150.0..=1000.0)]
        target: Point3<f64>,
        ctx: Context,
    ) -> Value {
        let _ = target;
        let motion = ctx.motion().expect("the checked motion");
        *self.joints.lock().unwrap() = motion.to().to_vec();
        *self.moves.lock().unwrap() += 1;
        json!({"positions": motion.to()})
    }
}

/// The Panda's toolbox, its resource the robot (`resource(.., robot(..))`).
fn panda(narrowing: Option<Value>) -> Result<Toolbox<Panda>, toolwright::BuildError> {
    let mut builder = Toolbox::builder(Panda::new());
    if let Some(n) = narrowing {
        builder = builder.with_envelopes(n);
    }
    builder.build()
}

fn joints(q: &[f64]) -> Value {
    let names = robot().joint_names();
    Value::Object(
        names
            .zip(q)
            .map(|(n, v)| (n.to_owned(), json!(v)))
            .collect(),
    )
}

async fn call(toolbox: &Toolbox<Panda>, tool: &str, args: Value) -> rmcp::model::CallToolResult {
    let Value::Object(args) = args else {
        unreachable!()
    };
    toolbox.call(tool, Some(args)).await.expect("answered")
}

fn text(result: &rmcp::model::CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn a_clear_joint_motion_runs_as_checked_and_takes_what_the_caps_allow() {
    let toolbox = panda(None).unwrap();
    let home = robot().home().to_vec();
    let mut to = home.clone();
    to[3] += 0.4; // the elbow opens, in the plane of the arm: away from the shelf
    to[5] -= 0.3;
    let result = call(
        &toolbox,
        "move_joints",
        json!({"positions": joints(&to), "speed": 1.0}),
    )
    .await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    let out = result.structured_content.expect("structured")["result"].clone();
    let reached: Vec<f64> = serde_json::from_value(out["positions"].clone()).unwrap();
    assert_eq!(reached, to);
    // Joint 4 turns 0.4 rad at 2.175 rad/s (accel 3.125): at least 0.4 / 2.175 s.
    let duration = out["duration"].as_f64().unwrap();
    assert!(duration >= 0.4 / 2.175, "{duration}");
    // At half speed: twice as long.
    let back = call(
        &toolbox,
        "move_joints",
        json!({"positions": joints(&home), "speed": 0.5}),
    )
    .await;
    let slow = back.structured_content.unwrap()["result"]["duration"]
        .as_f64()
        .unwrap();
    assert!((slow - 2.0 * duration).abs() < 1e-9, "{slow} vs {duration}");
}

#[tokio::test]
async fn a_motion_the_arm_sweeps_through_the_shelf_is_refused_naming_the_link() {
    let toolbox = panda(None).unwrap();
    let home = robot().home().to_vec();
    let mut to = home.clone();
    to[0] += 2.0; // the arm swings through +y, into the shelf
    let result = call(
        &toolbox,
        "move_joints",
        json!({"positions": joints(&to), "speed": 1.0}),
    )
    .await;
    assert_eq!(result.is_error, Some(true));
    let t = text(&result);
    assert!(t.starts_with("Robot `arm`: link `panda_"), "{t}");
    assert!(t.contains("of keep-out `shelf`"), "{t}");
    assert!(
        t.contains("% of the way through the motion (joints there: panda_joint1 "),
        "{t}"
    );
    assert!(
        t.contains("did not run: nothing moved, and the user was not asked"),
        "{t}"
    );
    assert_eq!(*toolbox.state().moves.lock().unwrap(), 0);
    assert_eq!(*toolbox.state().joints.lock().unwrap(), home);
}

#[tokio::test]
async fn a_joint_beyond_its_limit_is_refused_by_the_schema() {
    let toolbox = panda(None).unwrap();
    let mut to = robot().home().to_vec();
    to[3] = 0.5; // joint 4's range ends at -0.0698
    let result = call(
        &toolbox,
        "move_joints",
        json!({"positions": joints(&to), "speed": 1.0}),
    )
    .await;
    assert_eq!(result.is_error, Some(true));
    let t = text(&result);
    assert!(t.contains("panda_joint4"), "{t}");
    assert_eq!(*toolbox.state().moves.lock().unwrap(), 0);
}

#[tokio::test]
async fn a_cartesian_target_is_solved_checked_and_reached() {
    let toolbox = panda(None).unwrap();
    let result = call(
        &toolbox,
        "move_to",
        json!({"target": {"x": 400.0, "y": -150.0, "z": 350.0}}),
    )
    .await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    let p = toolbox.state().tool_point();
    let d = ((p[0] - 400.0).powi(2) + (p[1] + 150.0).powi(2) + (p[2] - 350.0).powi(2)).sqrt();
    assert!(d < 0.1, "{p:?}");
    // Out of reach: refused with what it could reach.
    let result = call(
        &toolbox,
        "move_to",
        json!({"target": {"x": 990.0, "y": 990.0, "z": 900.0}}),
    )
    .await;
    assert_eq!(result.is_error, Some(true));
    let t = text(&result);
    assert!(
        t.contains("cannot put its tool point at (990, 990, 900) mm"),
        "{t}"
    );
    assert!(t.contains("the closest it reaches is ("), "{t}");
}

#[tokio::test]
async fn the_robot_is_published_on_the_tools_that_move_it() {
    let toolbox = panda(None).unwrap();
    let tools = toolbox.listed_tools();
    let move_joints = tools.iter().find(|t| t.name == "move_joints").unwrap();
    let meta = move_joints.meta.as_ref().unwrap();
    let robot = &meta.0[ROBOT_META];
    assert_eq!(robot["resource"], "arm");
    assert_eq!(robot["positions"], "/positions");
    assert_eq!(robot["joints"][0]["name"], "panda_joint1");
    assert_eq!(robot["joints"][0]["maxVelocity"], 2.175);
    assert_eq!(robot["tip"]["link"], "panda_hand_tcp");
    let envelope = &meta.0[ENVELOPE_META];
    assert_eq!(envelope["resource"], "arm");
    assert!(envelope.get("target").is_none(), "{envelope}");
    let move_to = tools.iter().find(|t| t.name == "move_to").unwrap();
    let meta = move_to.meta.as_ref().unwrap();
    assert!(meta.0[ROBOT_META].get("positions").is_none());
    assert_eq!(
        meta.0[ENVELOPE_META]["target"],
        json!(["/target/x", "/target/y", "/target/z"])
    );
}

#[tokio::test]
async fn an_operator_s_narrowing_applies_to_every_link() {
    // A post where the elbow passes when joint 1 turns -1.5 rad from home (the elbow, behind
    // the base's axis, swings towards +y), where the tool point does not.
    let mut turned = robot().home().to_vec();
    turned[0] -= 1.5;
    let e = robot().link_origin(&turned, "panda_link4").unwrap();
    let post = json!({"arm": {"keepOut": [{"name": "post", "sphere": {
        "center": [e[0] * 1000.0, e[1] * 1000.0, e[2] * 1000.0], "radius": 40}}]}});
    let toolbox = panda(Some(post)).unwrap();
    let mut to = robot().home().to_vec();
    to[0] -= 2.0;
    let result = call(
        &toolbox,
        "move_joints",
        json!({"positions": joints(&to), "speed": 1.0}),
    )
    .await;
    assert_eq!(result.is_error, Some(true));
    let t = text(&result);
    assert!(t.contains("of keep-out `post`"), "{t}");
    // Without the narrowing it runs.
    let toolbox = panda(None).unwrap();
    let result = call(
        &toolbox,
        "move_joints",
        json!({"positions": joints(&to), "speed": 1.0}),
    )
    .await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
}

#[test]
fn a_keep_out_on_a_link_no_joint_moves_fails_the_build() {
    // A keep-out on the base: the static link is checked when the toolbox is built.
    let Err(e) = panda(Some(json!({"arm": {"keepOut": [{"name": "plinth", "box": {
        "min": [-50, -50, -50], "max": [50, 50, 50]}}]}})))
    else {
        panic!("a keep-out on the base is refused");
    };
    let e = e.to_string();
    assert!(
        e.contains("link `panda_link0`, which no joint moves, touches keep-out `plinth`"),
        "{e}"
    );
}

#[test]
fn a_changed_joint_limit_is_a_breaking_change_and_the_exports_say_what_is_checked() {
    let toolbox = panda(None).unwrap();
    let published = toolbox.listed_tools();
    // The same tools, joint 4's upper end moved.
    let mut changed = published.clone();
    for tool in &mut changed {
        if let Some(meta) = tool.meta.as_mut()
            && let Some(robot) = meta.0.get_mut(ROBOT_META)
        {
            robot["joints"][3]["upper"] = json!(-0.2);
        }
    }
    let report = toolwright::export::drift::compare(&published, &changed);
    assert!(report.is_breaking(), "{report}");
    assert!(
        report
            .to_string()
            .contains("joint `panda_joint4`'s limits changed"),
        "{report}"
    );
    assert!(toolwright::export::drift::compare(&published, &published).is_empty());
    // TOOLS.md says which robot, each joint's range and cap, and what is checked.
    let markdown = toolwright::export::render(&published, toolwright::export::Format::Markdown);
    assert!(
        markdown.contains("**Robot:** Moves robot `panda` (resource `arm`"),
        "{markdown}"
    );
    assert!(
        markdown.contains("`panda_joint4` -3.0718..-0.0698 rad (at most 2.175 rad/s)"),
        "{markdown}"
    );
    assert!(
        markdown.contains("stays more than 10 mm clear is accepted"),
        "{markdown}"
    );
}
