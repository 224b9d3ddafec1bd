//! Envelopes (issue 34) on the robot arm, through rmcp's client on both protocol revisions:
//! a target outside the reach, inside the camera mast, a straight path through the mast, a
//! step over `max_step`, a trajectory with one crossing segment: each refused before anything
//! moves and before the user is asked (with confirmation on), naming the shape or the segment;
//! a target just inside runs. The check runs again at the call's turn, from where the arm is
//! then. The tool's own `check` refuses before the user is asked too. An operator may narrow
//! the envelope (`with_envelopes`, `serve --envelope`) but never widen it; a resource a tool
//! names must be declared.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationCapability, ErrorData, Implementation,
};
use rmcp::service::{RequestContext, RoleClient, RunningService};
use serde_json::{Value, json};
use toolwright::{BuildError, ENVELOPE_META, Toolbox, ToolboxBuilder, tool, tool_defs};
use toolwright_examples::robot_arm::{self, RobotArm, SimConfig};

/// A user who accepts every confirmation, counting the questions.
#[derive(Clone, Default)]
struct User {
    asked: Arc<AtomicUsize>,
}

impl rmcp::ClientHandler for User {
    fn get_info(&self) -> rmcp::model::ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation = Some(ElicitationCapability::default());
        rmcp::model::ClientConfig::new(capabilities, Implementation::new("user", "1.0.0"))
    }

    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(json!({})))
    }
}

type Client = RunningService<RoleClient, User>;

/// The robot arm at 1/50 of real time, confirmation on.
fn arm() -> ToolboxBuilder<RobotArm> {
    robot_arm::server(SimConfig {
        time_scale: 0.02,
        seed: 3,
        ..SimConfig::default()
    })
}

async fn call(client: &Client, tool: &str, args: Value) -> rmcp::model::CallToolResult {
    let Value::Object(args) = args else {
        unreachable!()
    };
    client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(args))
        .await
        .expect("tools/call answers")
}

async fn position(client: &Client) -> Value {
    let state = call(client, "get_arm_state", json!({})).await;
    let state = state.structured_content.expect("structured");
    assert_eq!(state["moving"], json!(false));
    state["position"].clone()
}

fn point(x: f64, y: f64, z: f64) -> Value {
    json!({"x": x, "y": y, "z": z})
}

/// A refused motion: an `isError` naming what refused it, nothing moved, nobody asked.
async fn refused(client: &Client, user: &User, tool: &str, args: Value, says: &[&str]) -> String {
    let before = position(client).await;
    let asked = user.asked.load(Ordering::SeqCst);
    let r = call(client, tool, args).await;
    let text = common::text(&r);
    assert_eq!(r.is_error, Some(true), "{text}");
    assert!(
        text.starts_with(&format!(
            "Motion of `{tool}` refused by the envelope of `arm`"
        )),
        "{text}"
    );
    for part in says {
        assert!(text.contains(part), "{part:?} not in:\n{text}");
    }
    assert!(
        text.ends_with(&format!(
            "`{tool}` did not run: nothing moved, and the user was not asked. Change the motion \
             as above and call it again."
        )),
        "{text}"
    );
    assert!(text.len() < 2000, "bounded: {} bytes", text.len());
    assert_eq!(position(client).await, before, "the arm did not move");
    assert_eq!(
        user.asked.load(Ordering::SeqCst),
        asked,
        "no question was asked"
    );
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn motions_outside_the_envelope_are_refused_before_anyone_is_asked_on_both_revisions() {
    for on_2026 in [false, true] {
        let user = User::default();
        let client = common::connect_client(arm().build().unwrap(), user.clone(), on_2026).await;
        assert_eq!(position(&client).await, point(300.0, 0.0, 400.0));

        // Inside every per-axis range, outside the reach (850 mm from the shoulder).
        let text = refused(
            &client,
            &user,
            "move_arm_to_pose",
            json!({"x": 800, "y": 800, "z": 100}),
            &[
                "outside the allowed sphere `reach`",
                "The nearest allowed point is",
            ],
        )
        .await;
        assert!(text.contains("(601, 601, 100) mm"), "{text}");
        // Inside the camera mast.
        refused(
            &client,
            &user,
            "move_arm_to_pose",
            json!({"x": -450, "y": 450, "z": 300}),
            &["keep-out `camera_mast`"],
        )
        .await;
        // The same through the grasp, whose target is a point parameter.
        refused(
            &client,
            &user,
            "grasp_object_force_control",
            json!({"target_position": {"x": -450, "y": 450, "z": 300}}),
            &["keep-out `camera_mast`"],
        )
        .await;
        // A step over `max_step` (1000 mm): 1001.2 mm from home.
        refused(
            &client,
            &user,
            "move_arm_to_pose",
            json!({"x": -650, "y": -300, "z": 300}),
            &["1001.2 mm long", "1000 mm"],
        )
        .await;

        // Just inside the reach: 849 mm from the shoulder (the user is asked once, and the arm
        // moves).
        let asked = user.asked.load(Ordering::SeqCst);
        let r = call(
            &client,
            "move_arm_to_pose",
            json!({"x": 0, "y": 849, "z": 100, "speed": 1.0}),
        )
        .await;
        assert_eq!(r.is_error, Some(false), "{}", common::text(&r));
        assert_eq!(user.asked.load(Ordering::SeqCst), asked + 1);
        assert_eq!(position(&client).await, point(0.0, 849.0, 100.0));
        // Next to the mast.
        let asked = user.asked.load(Ordering::SeqCst);
        let r = call(
            &client,
            "move_arm_to_pose",
            json!({"x": -450, "y": 250, "z": 300, "speed": 1.0}),
        )
        .await;
        assert_eq!(r.is_error, Some(false), "{}", common::text(&r));
        assert_eq!(user.asked.load(Ordering::SeqCst), asked + 1);
        assert_eq!(position(&client).await, point(-450.0, 250.0, 300.0));

        // Both ends outside the mast, the straight path between them through it.
        let text = refused(
            &client,
            &user,
            "move_arm_to_pose",
            json!({"x": -450, "y": 650, "z": 300}),
            &["straight path", "keep-out `camera_mast`"],
        )
        .await;
        assert!(text.contains("(-450, 250, 300) mm"), "{text}");
        // A trajectory with one crossing segment, planning only: the refusal names it.
        let text = refused(
            &client,
            &user,
            "plan_trajectory",
            json!({"waypoints": [
                point(-450.0, 300.0, 300.0),
                point(-450.0, 650.0, 300.0),
                point(-200.0, 650.0, 300.0),
            ]}),
            &["keep-out `camera_mast`", "waypoint 0", "waypoint 1"],
        )
        .await;
        assert!(text.contains("1 problem"), "{text}");

        // Just inside: 66 mm from the mast's axis (its radius 50 and the tool's 15).
        let r = call(
            &client,
            "move_arm_to_pose",
            json!({"x": -450, "y": 384, "z": 300, "speed": 1.0}),
        )
        .await;
        assert_eq!(r.is_error, Some(false), "{}", common::text(&r));
        assert_eq!(position(&client).await, point(-450.0, 384.0, 300.0));
        client.cancel().await.unwrap();
    }
}

/// The check runs again when the call gets its turn: a motion accepted on arrival (its path
/// from where the arm was then is clear) is refused when the motion ahead of it has moved the
/// arm to where its path crosses the mast.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_envelope_is_checked_again_from_where_the_arm_is_at_the_call_s_turn() {
    let toolbox = arm().with_confirmation(false).build().unwrap();
    let arm = toolbox.clone();
    let first = tokio::spawn({
        let arm = arm.clone();
        async move {
            arm.call(
                "move_arm_to_pose",
                json!({"x": -450, "y": 250, "z": 300, "speed": 0.2})
                    .as_object()
                    .cloned(),
            )
            .await
            .unwrap()
        }
    });
    // The first is moving (and holds the arm) when the second arrives.
    for _ in 0..200 {
        let state = toolbox.call("get_arm_state", None).await.unwrap();
        if state.structured_content.unwrap()["moving"] == json!(true) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let second = toolbox
        .call(
            "move_arm_to_pose",
            json!({"x": -450, "y": 650, "z": 300}).as_object().cloned(),
        )
        .await
        .unwrap();
    let first = first.await.unwrap();
    assert_eq!(first.is_error, Some(false), "{}", common::text(&first));
    let text = common::text(&second);
    assert_eq!(second.is_error, Some(true), "{text}");
    assert!(text.contains("keep-out `camera_mast`"), "{text}");
    assert!(
        text.contains("this was found when its turn came, from where the resource was then"),
        "{text}"
    );
    let state = toolbox.call("get_arm_state", None).await.unwrap();
    assert_eq!(
        state.structured_content.unwrap()["position"],
        point(-450.0, 250.0, 300.0)
    );
}

/// The tool's own check (`release_object`: the gripper must hold something) refuses before the
/// user is asked, on both revisions.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_s_check_refuses_before_the_user_is_asked() {
    for on_2026 in [false, true] {
        let user = User::default();
        let client = common::connect_client(arm().build().unwrap(), user.clone(), on_2026).await;
        let r = call(&client, "release_object", json!({})).await;
        assert_eq!(r.is_error, Some(true));
        assert_eq!(
            common::text(&r),
            "`release_object` did not run: the gripper is empty: there is nothing to release; \
             get_arm_state says what is on the table. Nothing moved, and the user was not asked."
        );
        assert_eq!(user.asked.load(Ordering::SeqCst), 0);
        client.cancel().await.unwrap();
    }
}

/// The published envelope: the declared one, and an operator's narrowing of it, which is what
/// calls are then checked against. A narrowing that would widen it, name another resource or
/// use another unit stops the build, naming the limit.
#[tokio::test]
async fn an_operator_may_narrow_the_envelope_and_never_widen_it() {
    let published = |toolbox: &Toolbox<RobotArm>| -> Value {
        let tools = toolbox.listed_tools();
        let moving = tools.iter().find(|t| t.name == "move_arm_to_pose").unwrap();
        moving.meta.as_ref().unwrap().0[ENVELOPE_META].clone()
    };
    let declared = published(&arm().build().unwrap());
    assert_eq!(declared["resource"], "arm");
    assert_eq!(declared["frame"], "base");
    assert_eq!(declared["unit"], "mm");
    assert_eq!(declared["toolRadius"], 15);
    assert_eq!(declared["maxStep"], 1000);
    assert_eq!(declared["target"], json!(["/x", "/y", "/z"]));
    assert_eq!(
        declared["keepOut"][1],
        json!({"name": "camera_mast", "cylinder": {"center": [-450, 450], "radius": 50, "zMin": 0, "zMax": 1400}})
    );

    let narrowed = arm()
        .with_confirmation(false)
        .with_envelopes(json!({"arm": {
            "keepOut": [{"name": "operator_zone", "box": {"min": [100, -100, 0], "max": [200, 100, 500]}}],
            "maxStep": 500,
        }}))
        .build()
        .unwrap();
    let envelope = published(&narrowed);
    assert_eq!(envelope["maxStep"], 500);
    assert_eq!(envelope["keepOut"][2]["name"], "operator_zone");
    let r = narrowed
        .call(
            "move_arm_to_pose",
            json!({"x": 150, "y": 0, "z": 300}).as_object().cloned(),
        )
        .await
        .unwrap();
    assert!(
        common::text(&r).contains("keep-out `operator_zone`"),
        "{}",
        common::text(&r)
    );
    // Within the declared max step, over the narrowed one.
    let r = narrowed
        .call(
            "move_arm_to_pose",
            json!({"x": -300, "y": 0, "z": 400}).as_object().cloned(),
        )
        .await
        .unwrap();
    assert!(
        common::text(&r).contains("the most one straight motion may travel is 500 mm"),
        "{}",
        common::text(&r)
    );

    for (file, says) in [
        (json!({"arm": {"maxStep": 2000}}), "maxStep"),
        (json!({"amr": {"maxStep": 500}}), "did you mean"),
        (json!({"arm": {"unit": "m", "maxStep": 0.5}}), "unit"),
        (json!({"arm": {"toolRadius": 5}}), "toolRadius"),
    ] {
        let err = arm().with_envelopes(file.clone()).build().err();
        let Some(BuildError::Envelope { problem }) = err else {
            panic!("{file}: {err:?}")
        };
        assert!(problem.contains(says), "{file}: {problem}");
    }
}

/// A tool that is a free function names a resource the toolbox must declare: a misspelt one
/// is refused when the toolbox is built, with the nearest name.
#[tool(
    resource = "bsae",
    confirm = false,
    because = "a test rig: nothing real moves"
)]
async fn turn() -> String {
    "turned".into()
}

/// The base's other tool.
#[tool(
    resource = "base",
    confirm = false,
    because = "a test rig: nothing real moves"
)]
async fn drive() -> String {
    "driven".into()
}

#[test]
fn a_misspelt_resource_of_a_free_function_is_refused_when_built() {
    let err = ToolboxBuilder::new(())
        .with_tools(tool_defs![turn, drive])
        .with_resource("base")
        .build()
        .err();
    let Some(BuildError::Tools { problems }) = err else {
        panic!("{err:?}")
    };
    assert_eq!(
        problems,
        [
            "tool `turn`: `resource = \"bsae\"` names a resource this toolbox does not declare \
             (it declares `base`): did you mean `base`?"
        ]
    );
    assert!(
        ToolboxBuilder::new(())
            .with_tools(tool_defs![drive])
            .with_resource("base")
            .build()
            .is_ok()
    );
}

/// A rig in meters whose targets are what users already have: uom lengths as flat parameters,
/// and ROS 2 `geometry_msgs/Pose` waypoints (their `position`).
mod other_types {
    use serde_json::json;
    use toolwright::{ENVELOPE_META, Toolbox, toolbox};
    use toolwright_examples::ros_arm::msgs::geometry_msgs::Pose;
    use uom::si::f64::Length;
    use uom::si::length::meter;

    #[derive(Default)]
    pub(super) struct Rig;

    #[toolbox(resource(
        name = "rig",
        position = at,
        envelope(
            frame = "base_link",
            unit = "m",
            allow(box(min = (-1, -1, 0), max = (1, 1, 1))),
            keep_out(name = "post", cylinder(center = (0.5, 0), radius = 0.1, z = (0, 1)))
        )
    ))]
    impl Rig {
        /// Where the rig's tool is.
        fn at(&self) -> (f64, f64, f64) {
            (0.0, 0.0, 0.5)
        }

        /// Move the tool to a point given as lengths.
        #[tool(resource = "rig", target = (x, y, z), confirm = false, because = "a test rig: nothing real moves")]
        async fn move_to(
            &self,
            /// X.
            #[param(unit = "m", range = -1.0..=1.0)]
            x: Length,
            /// Y.
            #[param(unit = "m", range = -1.0..=1.0)]
            y: Length,
            /// Z.
            #[param(unit = "m", range = 0.0..=1.0)]
            z: Length,
        ) -> String {
            format!(
                "at {:.2}, {:.2}, {:.2} m",
                x.get::<meter>(),
                y.get::<meter>(),
                z.get::<meter>()
            )
        }

        /// Follow ROS poses.
        #[tool(resource = "rig", path = waypoints, confirm = false, because = "a test rig: nothing real moves")]
        async fn follow(
            &self,
            /// The poses, in `base_link`.
            waypoints: Vec<Pose>,
        ) -> String {
            format!("{} poses", waypoints.len())
        }
    }

    #[tokio::test]
    async fn uom_lengths_and_ros_poses_are_targets() {
        let toolbox = Toolbox::new(Rig);
        let tools = toolbox.listed_tools();
        let follow = tools.iter().find(|t| t.name == "follow").unwrap();
        assert_eq!(
            follow.meta.as_ref().unwrap().0[ENVELOPE_META]["path"],
            json!({"array": "/waypoints", "point": ["/position/x", "/position/y", "/position/z"]})
        );
        let ok = toolbox
            .call(
                "move_to",
                json!({"x": 0.2, "y": 0.3, "z": 0.4}).as_object().cloned(),
            )
            .await
            .unwrap();
        assert_eq!(super::common::text(&ok), "at 0.20, 0.30, 0.40 m");
        // Through the post (x 0.4 to 0.6 at y 0).
        let through = toolbox
            .call(
                "move_to",
                json!({"x": 0.9, "y": 0, "z": 0.5}).as_object().cloned(),
            )
            .await
            .unwrap();
        assert!(
            super::common::text(&through).contains("keep-out `post`"),
            "{}",
            super::common::text(&through)
        );
        let pose = |x: f64, y: f64| json!({"position": {"x": x, "y": y, "z": 0.5}, "orientation": {"x": 0, "y": 0, "z": 0, "w": 1}});
        let ok = toolbox
            .call(
                "follow",
                json!({"waypoints": [pose(0.2, 0.3), pose(0.2, -0.3)]})
                    .as_object()
                    .cloned(),
            )
            .await
            .unwrap();
        assert_eq!(ok.is_error, Some(false), "{}", super::common::text(&ok));
        let refused = toolbox
            .call(
                "follow",
                json!({"waypoints": [pose(0.2, 0.3), pose(0.5, 0.0)]})
                    .as_object()
                    .cloned(),
            )
            .await
            .unwrap();
        let text = super::common::text(&refused);
        assert!(
            text.contains("waypoint 1") && text.contains("keep-out `post`"),
            "{text}"
        );
    }
}
