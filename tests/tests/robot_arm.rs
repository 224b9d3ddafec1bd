//! The robot-arm example through rmcp's client, in-process: tools/list matches the committed
//! docs (examples/docs/robot_arm/tools.json), every tool works, invalid calls get exact
//! model-facing errors.

mod common;

use common::{assert_json_file, call, connect, robot_arm_docs, text};
use rmcp::model::ErrorCode;
use serde_json::{Value, json};
use toolwright::{Toolbox, ToolboxBuilder};
use toolwright_examples::robot_arm::{self, RobotArm, SimConfig};

fn arm() -> Toolbox<RobotArm> {
    arm_builder().build().unwrap()
}

fn arm_builder() -> ToolboxBuilder<RobotArm> {
    Toolbox::builder(RobotArm::new(SimConfig {
        time_scale: 0.0,
        seed: 7,
        ..SimConfig::default()
    }))
    .with_confirmation(false)
}

#[tokio::test]
async fn tools_list_matches_the_committed_docs() {
    // As examples/robot_arm.rs serves it: the nine tools, then `describe_tool`.
    let client = connect(
        robot_arm::server(SimConfig {
            time_scale: 0.0,
            seed: 7,
            ..SimConfig::default()
        })
        .build()
        .unwrap(),
    )
    .await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "move_arm_to_pose",
            "grasp_object_force_control",
            "release_object",
            "stop_arm",
            "read_ft_sensor",
            "plan_trajectory",
            "follow_trajectory",
            "get_arm_state",
            "capture_image",
            "describe_tool"
        ]
    );
    let listed = serde_json::to_value(&tools).unwrap();
    let rendered = serde_json::to_string(&listed).unwrap();
    assert!(
        !rendered.contains("$ref") && !rendered.contains("$defs"),
        "schemas must be inline"
    );
    assert!(!rendered.contains("\"format\""), "no non-standard formats");
    // tools/list as the client received it is, byte for byte, the committed `mcp` export.
    assert_json_file(
        &robot_arm_docs().join("tools.json"),
        &json!({ "tools": listed }),
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn every_tool_succeeds_on_a_valid_call() {
    let client = connect(arm()).await;

    let r = call(&client, "get_arm_state", json!({})).await;
    assert_eq!(r.is_error, Some(false));
    let state = r.structured_content.clone().unwrap();
    assert_eq!(state["position"], json!({"x": 300.0, "y": 0.0, "z": 400.0}));
    assert_eq!(state["objects"].as_array().unwrap().len(), 3);
    assert_eq!(
        text(&r),
        serde_json::to_string(&state).unwrap(),
        "text mirrors structuredContent"
    );

    let r = call(
        &client,
        "move_arm_to_pose",
        json!({"x": 400, "y": 0, "z": 200}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let moved = r.structured_content.unwrap();
    assert_eq!(moved["position"], json!({"x": 400.0, "y": 0.0, "z": 200.0}));
    assert_eq!(moved["distance"], json!(223.6));
    assert_eq!(moved["duration"], json!(0.89), "default speed 0.5 applied");

    let r = call(
        &client,
        "grasp_object_force_control",
        json!({"target_position": {"x": 400, "y": 0, "z": 25}}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let grasp = r.structured_content.unwrap();
    assert_eq!(grasp["object"], "red_cube");
    assert_eq!(grasp["applied_force"], json!(15.0));
    assert_eq!(grasp["strategy"], "parallel");

    let r = call(&client, "read_ft_sensor", json!({"axes": ["Fz"]})).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let reading = r.structured_content.unwrap();
    assert_eq!(reading["filter"], "kalman");
    let fz = reading["readings"][0]["value"].as_f64().unwrap();
    assert!(
        (fz + 0.2 * 9.81).abs() < 0.1,
        "the held cube pulls down: {fz}"
    );
    assert_eq!(reading["readings"][0]["unit"], "N");

    let r = call(&client, "read_ft_sensor", json!({"filter": "raw"})).await;
    assert_eq!(
        r.structured_content.unwrap()["readings"]
            .as_array()
            .unwrap()
            .len(),
        6
    );

    // From the cube's grasp point (400, 0, 25): up 175 mm, then 300 mm and 200 mm.
    let waypoints = json!([{"x": 400, "y": 0, "z": 200}, {"x": 400, "y": 300, "z": 200}, {"x": 200, "y": 300, "z": 200}]);
    let r = call(&client, "plan_trajectory", json!({"waypoints": waypoints})).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let plan = r.structured_content.unwrap();
    assert_eq!(plan["start"], json!({"x": 400.0, "y": 0.0, "z": 25.0}));
    assert_eq!(plan["total_length"], json!(675.0));
    assert_eq!(plan["segments"].as_array().unwrap().len(), 3);
    assert_eq!(
        plan["estimated_duration"],
        json!(2.7),
        "675 mm at 0.5 of 500 mm/s"
    );

    let r = call(
        &client,
        "follow_trajectory",
        json!({"waypoints": waypoints, "speed": 1.0}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let run = r.structured_content.unwrap();
    assert_eq!(run["reached_waypoints"], json!(3));
    assert_eq!(run["position"], json!({"x": 200.0, "y": 300.0, "z": 200.0}));
    assert_eq!(run["distance"], json!(675.0));

    let r = call(&client, "release_object", json!({})).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    assert_eq!(r.structured_content.unwrap()["object"], "red_cube");

    let r = call(&client, "stop_arm", json!({})).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    assert_eq!(
        r.structured_content.unwrap()["interrupted_motion"],
        json!(false)
    );

    client.cancel().await.unwrap();
}

#[tokio::test]
async fn tool_errors_say_why_and_what_to_do() {
    let client = connect(arm()).await;
    let r = call(
        &client,
        "move_arm_to_pose",
        json!({"x": 800, "y": 800, "z": 100}),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
    // Out of reach: the arm's envelope (declared on its resource) refuses it before the body
    // runs, names the shape, and says where the nearest allowed point is.
    assert_eq!(
        text(&r),
        "Motion of `move_arm_to_pose` refused by the envelope of `arm` (frame `base`; 1 problem):\n\
         - the target (800, 800, 100) mm is outside the allowed sphere `reach` (centre (0, 0, 100) mm, radius 865 mm): \
         it is 1131.4 mm from the centre, the most allowed is 850 mm with the tool's 15 mm radius. \
         The nearest allowed point is (601, 601, 100) mm.\n\
         `move_arm_to_pose` did not run: nothing moved, and the user was not asked. Change the motion as above and call it again."
    );
    // The tool's own check (`check = gripper_holds_something`), before the user is asked.
    let r = call(&client, "release_object", json!({})).await;
    assert_eq!(
        text(&r),
        "`release_object` did not run: the gripper is empty: there is nothing to release; \
         get_arm_state says what is on the table. Nothing moved, and the user was not asked."
    );
    let r = call(
        &client,
        "grasp_object_force_control",
        json!({"target_position": {"x": 300, "y": -300, "z": 20}, "grasp_strategy": "suction"}),
    )
    .await;
    assert_eq!(
        text(&r),
        "suction cannot hold sponge: its surface is porous\nHint: use grasp_strategy \"adaptive\" or \"parallel\""
    );
    client.cancel().await.unwrap();
}

/// (tool, arguments, the exact isError text)
fn invalid_calls() -> Vec<(&'static str, Value, &'static str)> {
    const FIX: &str = "\nThe tool did not run. Fix the arguments above and call it again.";
    let _ = FIX;
    vec![
        (
            "grasp_object_force_control",
            json!({"target_position": {"x": 400, "y": 0, "z": 25}, "force": 100}),
            "Invalid arguments for tool `grasp_object_force_control` (1 problem):\n\
             - force: must be between 5 and 30 N, got 100\n\
             The tool did not run. Fix the arguments above and call it again.",
        ),
        (
            "grasp_object_force_control",
            json!({"target_position": {"x": 400, "y": 0, "z": 25}, "force": "15N"}),
            "Invalid arguments for tool `grasp_object_force_control` (1 problem):\n\
             - force: must be a number in N, got string \"15N\" (hint: send a bare number in N, e.g. 15)\n\
             The tool did not run. Fix the arguments above and call it again.",
        ),
        (
            "grasp_object_force_control",
            json!({"target_position": {"x": "a", "y": 0, "z": -5}}),
            "Invalid arguments for tool `grasp_object_force_control` (2 problems):\n\
             - target_position.x: must be a number in mm, got string \"a\"\n\
             - target_position.z: must be between 15 and 950 mm, got -5\n\
             The tool did not run. Fix the arguments above and call it again.",
        ),
        (
            "grasp_object_force_control",
            json!({}),
            "Invalid arguments for tool `grasp_object_force_control` (1 problem):\n\
             - target_position: required argument is missing; expected an object with fields x, y, z\n\
             The tool did not run. Fix the arguments above and call it again.",
        ),
        (
            "grasp_object_force_control",
            json!({"target_position": {"x": 400, "y": 0, "z": 25}, "grip": 10}),
            "Invalid arguments for tool `grasp_object_force_control` (1 problem):\n\
             - grip: unknown argument; allowed: target_position, force, grasp_strategy, timeout\n\
             The tool did not run. Fix the arguments above and call it again.",
        ),
        (
            "grasp_object_force_control",
            json!({"target_position": {"x": 400, "y": 0, "z": 25}, "grasp_strategy": "magnetic"}),
            "Invalid arguments for tool `grasp_object_force_control` (1 problem):\n\
             - grasp_strategy: must be one of \"parallel\", \"suction\", \"adaptive\", got \"magnetic\"\n\
             The tool did not run. Fix the arguments above and call it again.",
        ),
        (
            "grasp_object_force_control",
            json!({"target_position": {"x": 400, "y": 0, "z": 25}, "grasp_strategy": "Suction"}),
            "Invalid arguments for tool `grasp_object_force_control` (1 problem):\n\
             - grasp_strategy: must be one of \"parallel\", \"suction\", \"adaptive\", got \"Suction\" (hint: did you mean \"suction\"?)\n\
             The tool did not run. Fix the arguments above and call it again.",
        ),
        (
            "grasp_object_force_control",
            json!({"target_position": {"x": 400, "y": 0, "z": 25}, "frce": 10}),
            "Invalid arguments for tool `grasp_object_force_control` (1 problem):\n\
             - frce: unknown argument; allowed: target_position, force, grasp_strategy, timeout (hint: did you mean \"force\"?)\n\
             The tool did not run. Fix the arguments above and call it again.",
        ),
        (
            "grasp_object_force_control",
            json!({"target_position": [400, 0, 25], "force": 2, "timeout": 0}),
            "Invalid arguments for tool `grasp_object_force_control` (3 problems):\n\
             - target_position: must be an object, got an array\n\
             - force: must be between 5 and 30 N, got 2\n\
             - timeout: must be between 1 and 60 s, got 0\n\
             The tool did not run. Fix the arguments above and call it again.",
        ),
        (
            "move_arm_to_pose",
            json!({"x": 100, "y": 0, "z": 300, "speed": 5}),
            "Invalid arguments for tool `move_arm_to_pose` (1 problem):\n\
             - speed: must be between 0.1 and 1, got 5\n\
             The tool did not run. Fix the arguments above and call it again.",
        ),
        (
            "move_arm_to_pose",
            json!({"x": 100, "z": 300}),
            "Invalid arguments for tool `move_arm_to_pose` (1 problem):\n\
             - y: required argument is missing; expected a number in mm\n\
             The tool did not run. Fix the arguments above and call it again.",
        ),
        (
            "move_arm_to_pose",
            json!({"x": 9000, "y": -9000, "z": 1e6}),
            "Invalid arguments for tool `move_arm_to_pose` (3 problems):\n\
             - x: must be between -850 and 850 mm, got 9000\n\
             - y: must be between -850 and 850 mm, got -9000\n\
             - z: must be between 15 and 950 mm, got 1000000\n\
             The tool did not run. Fix the arguments above and call it again.",
        ),
        (
            "move_arm_to_pose",
            json!({"x": true, "y": null, "z": [1]}),
            "Invalid arguments for tool `move_arm_to_pose` (3 problems):\n\
             - x: must be a number in mm, got true\n\
             - y: must be a number in mm, got null\n\
             - z: must be a number in mm, got an array\n\
             The tool did not run. Fix the arguments above and call it again.",
        ),
        (
            "plan_trajectory",
            json!({"waypoints": []}),
            "Invalid arguments for tool `plan_trajectory` (1 problem):\n\
             - waypoints: must have at least 1 items, got 0\n\
             The tool did not run. Fix the arguments above and call it again.",
        ),
        (
            "plan_trajectory",
            json!({"waypoints": [{"x": 400, "y": 0, "z": 200}, {"x": 400, "y": 0}]}),
            "Invalid arguments for tool `plan_trajectory` (1 problem):\n\
             - waypoints[1].z: required field is missing; expected a number in mm\n\
             The tool did not run. Fix the arguments above and call it again.",
        ),
        (
            "read_ft_sensor",
            json!({"axes": ["Fx", "Fw"], "filter": "median"}),
            "Invalid arguments for tool `read_ft_sensor` (2 problems):\n\
             - filter: must be one of \"raw\", \"kalman\", \"moving_average\", got \"median\"\n\
             - axes[1]: must be one of \"Fx\", \"Fy\", \"Fz\", \"Mx\", \"My\", \"Mz\", got \"Fw\"\n\
             The tool did not run. Fix the arguments above and call it again.",
        ),
        (
            "read_ft_sensor",
            json!({"axes": []}),
            "Invalid arguments for tool `read_ft_sensor` (1 problem):\n\
             - axes: must have at least 1 items, got 0\n\
             The tool did not run. Fix the arguments above and call it again.",
        ),
        (
            "get_arm_state",
            json!({"verbose": true}),
            "Invalid arguments for tool `get_arm_state` (1 problem):\n\
             - verbose: unknown argument; allowed: jmespath, summary\n\
             The tool did not run. Fix the arguments above and call it again.",
        ),
    ]
}

#[tokio::test]
async fn invalid_calls_get_exact_model_facing_errors() {
    let client = connect(arm()).await;
    let cases = invalid_calls();
    assert!(cases.len() >= 15);
    for (tool, args, expected) in cases {
        let r = call(&client, tool, args.clone()).await;
        assert_eq!(r.is_error, Some(true), "{tool} {args}");
        assert_eq!(r.structured_content, None);
        assert_eq!(text(&r), expected, "{tool} {args}");
    }
    // The server is still fine, and nothing moved.
    let r = call(&client, "get_arm_state", json!({})).await;
    assert_eq!(
        r.structured_content.unwrap()["position"],
        json!({"x": 300.0, "y": 0.0, "z": 400.0})
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn lax_coercion_accepts_numeric_strings_and_nulls() {
    let client = connect(arm()).await;
    let r = call(
        &client,
        "move_arm_to_pose",
        json!({"x": "400", "y": 0, "z": "200.5", "speed": null}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    assert_eq!(
        r.structured_content.unwrap()["position"],
        json!({"x": 400.0, "y": 0.0, "z": 200.5})
    );
    client.cancel().await.unwrap();

    let strict = connect(arm_builder().strict(true).build().unwrap()).await;
    let r = call(
        &strict,
        "move_arm_to_pose",
        json!({"x": "400", "y": 0, "z": 200}),
    )
    .await;
    assert_eq!(
        text(&r),
        "Invalid arguments for tool `move_arm_to_pose` (1 problem):\n\
         - x: must be a number in mm, got string \"400\" (hint: send a bare number in mm, e.g. 400)\n\
         The tool did not run. Fix the arguments above and call it again."
    );
    strict.cancel().await.unwrap();
}

#[tokio::test]
async fn unknown_tool_is_invalid_params_naming_the_tools() {
    let client = connect(arm()).await;
    let err = client
        .call_tool(rmcp::model::CallToolRequestParams::new("move_arm"))
        .await
        .unwrap_err();
    match err {
        rmcp::ServiceError::McpError(e) => {
            assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
            assert_eq!(
                e.message,
                "unknown tool `move_arm`; available tools: move_arm_to_pose, grasp_object_force_control, \
                 release_object, stop_arm, read_ft_sensor, plan_trajectory, follow_trajectory, \
                 get_arm_state, capture_image"
            );
        }
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
    client.cancel().await.unwrap();
}

fn slow_arm() -> Toolbox<RobotArm> {
    // 20 ms of wall time per simulated second: a 400 mm move at speed 0.1 (50 mm/s) takes 8 s
    // simulated, 160 ms real.
    Toolbox::builder(RobotArm::new(SimConfig {
        time_scale: 0.02,
        seed: 7,
        ..SimConfig::default()
    }))
    .with_confirmation(false)
    .build()
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_and_stop_answer_while_the_arm_moves() {
    let client = std::sync::Arc::new(connect(slow_arm()).await);
    let mover = std::sync::Arc::clone(&client);
    let motion = tokio::spawn(async move {
        call(
            &mover,
            "move_arm_to_pose",
            json!({"x": 300, "y": 0, "z": 800, "speed": 0.1}),
        )
        .await
    });
    // get_arm_state shares no resource: it answers during the motion and sees it.
    let mut seen_moving = false;
    for _ in 0..100 {
        let s = call(&client, "get_arm_state", json!({}))
            .await
            .structured_content
            .unwrap();
        if s["moving"] == json!(true) {
            seen_moving = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    assert!(
        seen_moving,
        "get_arm_state answers while the arm moves, and sees it moving"
    );
    let r = call(&client, "read_ft_sensor", json!({"axes": ["Fz"]})).await;
    assert_eq!(r.is_error, Some(false));
    let stop = call(&client, "stop_arm", json!({})).await;
    assert_eq!(
        stop.structured_content.unwrap()["interrupted_motion"],
        json!(true)
    );
    let moved = motion.await.unwrap();
    assert_eq!(moved.is_error, Some(true));
    // `stop_for = "arm"`: the runtime stops the motion too, and the safe stop `stop_arm` ran
    // is the motion's (it does not run twice).
    assert!(
        text(&moved).starts_with(
            "Tool `move_arm_to_pose` was stopped by `stop_arm` before it finished; it was told \
             to stop and returned"
        ) && text(&moved).contains("Safe stop of `arm`, run by `stop_arm`: halted at ("),
        "{}",
        text(&moved)
    );
    let state = call(&client, "get_arm_state", json!({}))
        .await
        .structured_content
        .unwrap();
    assert_eq!(state["moving"], json!(false));
    assert!(
        state["position"]["z"].as_f64().unwrap() < 800.0,
        "stopped on the way"
    );
}

/// Calls a toolbox in-process, as its local client.
struct Local(Toolbox<RobotArm>);

/// Anything that calls a tool: a client over a transport, or the toolbox in-process.
trait Caller {
    async fn call_tool(&self, tool: &str, args: Value) -> rmcp::model::CallToolResult;
}

impl Caller for Local {
    async fn call_tool(&self, tool: &str, args: Value) -> rmcp::model::CallToolResult {
        self.0
            .call(tool, args.as_object().cloned())
            .await
            .expect("a known tool")
    }
}

impl<H: rmcp::ClientHandler> Caller for rmcp::service::RunningService<rmcp::RoleClient, H> {
    async fn call_tool(&self, tool: &str, args: Value) -> rmcp::model::CallToolResult {
        call(self, tool, args).await
    }
}

/// With 16 motions waiting for the arm and the client over its rate limit, `stop_arm`
/// (`stop_for = "arm"`) gets through at once: it is never queued or rate-limited. It halts the
/// moving one, every waiting motion is refused without running, and the arm then stays still.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_arm_gets_through_and_stops_every_waiting_motion() {
    use std::time::{Duration, Instant};
    // Half speed: a motion to (-600, 0, 300) at speed 0.1 takes about 9 s.
    let toolbox = Toolbox::builder(RobotArm::new(SimConfig {
        time_scale: 0.5,
        seed: 7,
        ..SimConfig::default()
    }))
    .with_confirmation(false)
    .with_client_rate_limit(toolwright::Rate::parse("17/min").unwrap())
    .build()
    .unwrap();
    // Over HTTP without a token, every session from one address is one client for the rate
    // limit (issue 43): the observer calls in-process, a client of its own (the local one).
    let local = toolbox.clone();
    let server = toolbox
        .serve_http("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let session = || async {
        use rmcp::ServiceExt as _;
        ().serve(rmcp::transport::StreamableHttpClientTransport::from_uri(
            server.url(),
        ))
        .await
        .expect("connects")
    };
    let mover = std::sync::Arc::new(session().await);
    let observer = Local(local);
    let far = json!({"x": -600, "y": 0, "z": 300, "speed": 0.1});
    let motions: Vec<_> = (0..17)
        .map(|_| {
            let (mover, far) = (std::sync::Arc::clone(&mover), far.clone());
            tokio::spawn(async move { call(&mover, "move_arm_to_pose", far).await })
        })
        .collect();
    // The 17 motions arrive: one moves the arm, 16 wait (the most `arm` queues: the observer's
    // motion is refused), and the client's next call is over its limit.
    let mut seen_moving = false;
    for _ in 0..200 {
        let s = observer
            .call_tool("get_arm_state", json!({}))
            .await
            .structured_content
            .unwrap();
        if s["moving"] == json!(true) {
            seen_moving = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(seen_moving);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let limited = call(&mover, "get_arm_state", json!({})).await;
    assert!(
        text(&limited).contains("this client's limit over all tools is 17 calls per minute"),
        "{}",
        text(&limited)
    );
    let full = observer.call_tool("move_arm_to_pose", far.clone()).await;
    assert!(
        text(&full).contains("16 calls are already waiting for `arm`"),
        "{}",
        text(&full)
    );
    let moving = observer
        .call_tool("get_arm_state", json!({}))
        .await
        .structured_content
        .unwrap();
    assert_eq!(moving["moving"], json!(true));

    let asked = Instant::now();
    let stop = call(&mover, "stop_arm", json!({})).await;
    let answered = asked.elapsed();
    assert_eq!(stop.is_error, Some(false), "{}", text(&stop));
    assert_eq!(
        stop.structured_content.unwrap()["interrupted_motion"],
        json!(true)
    );
    // Far from the seconds the motions ahead of it would take (it waits for none of them).
    assert!(
        answered < Duration::from_millis(100),
        "stop_arm took {answered:?}"
    );

    let mut stopped = 0;
    let mut cancelled = 0;
    for motion in motions {
        let r = motion.await.unwrap();
        assert_eq!(r.is_error, Some(true), "{}", text(&r));
        let t = text(&r);
        if t.starts_with("cancelled by `stop_arm`: `move_arm_to_pose` was waiting for its turn and did not run, and `arm` did not move for it.") {
            cancelled += 1;
        } else {
            assert!(
                t.starts_with("motion interrupted by stop_arm at (")
                    || t.starts_with("Tool `move_arm_to_pose` was stopped by `stop_arm`"),
                "{t}"
            );
            stopped += 1;
        }
    }
    assert_eq!((stopped, cancelled), (1, 16));
    // The arm stays where the stop left it.
    let state = || async {
        observer
            .call_tool("get_arm_state", json!({}))
            .await
            .structured_content
            .unwrap()
    };
    let first = state().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let later = state().await;
    assert_eq!(first["moving"], json!(false));
    assert_eq!(
        later["position"], first["position"],
        "the arm did not drift"
    );
    assert!(
        first["position"]["x"].as_f64().unwrap() > -600.0,
        "stopped on the way"
    );
    // The arm is usable again: a motion that arrives after the stop runs.
    let next = observer
        .call_tool(
            "move_arm_to_pose",
            json!({"x": 300, "y": 0, "z": 400, "speed": 1.0}),
        )
        .await;
    assert_eq!(next.is_error, Some(false), "{}", text(&next));
}

/// `with_read_only(true)` (`serve --read-only`): only the tools that change nothing are listed
/// and run; a motion (or the stop) is refused with an `isError` saying why, and nothing moves.
#[tokio::test]
async fn read_only_serves_only_the_tools_that_change_nothing() {
    let client = connect(
        arm_builder()
            .with_describe_tool()
            .with_read_only(true)
            .build()
            .unwrap(),
    )
    .await;
    let names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(
        names,
        [
            "read_ft_sensor",
            "plan_trajectory",
            "get_arm_state",
            "capture_image",
            "describe_tool"
        ]
    );
    let before = call(&client, "get_arm_state", json!({})).await;
    for tool in [
        "move_arm_to_pose",
        "follow_trajectory",
        "release_object",
        "stop_arm",
    ] {
        let r = call(&client, tool, json!({"x": 300, "y": 0, "z": 200})).await;
        assert_eq!(r.is_error, Some(true));
        assert!(
            text(&r).starts_with(&format!(
                "Tool `{tool}` was not run: this server is read-only"
            )),
            "{}",
            text(&r)
        );
    }
    let described = call(
        &client,
        "describe_tool",
        json!({"name": "move_arm_to_pose"}),
    )
    .await;
    assert!(
        text(&described).contains("this server is read-only"),
        "{}",
        text(&described)
    );
    let after = call(&client, "get_arm_state", json!({})).await;
    assert_eq!(after.structured_content, before.structured_content);
}

/// `plan_trajectory` checks and estimates and never moves; `follow_trajectory` moves along the
/// same waypoints, with progress after each.
#[tokio::test]
async fn plan_trajectory_plans_and_follow_trajectory_moves_with_progress() {
    let (client, recorder) = common::connect_recording(arm()).await;
    let waypoints = json!([{"x": 400, "y": 0, "z": 300}, {"x": 400, "y": 200, "z": 300}, {"x": 250, "y": 200, "z": 250}]);
    let planned =
        common::call_with_progress(&client, "plan_trajectory", json!({"waypoints": waypoints}))
            .await;
    let plan = planned.structured_content.unwrap();
    assert_eq!(plan["start"], json!({"x": 300.0, "y": 0.0, "z": 400.0}));
    assert_eq!(
        plan["segments"],
        json!([{"to": 0, "length": 141.4}, {"to": 1, "length": 200.0}, {"to": 2, "length": 158.1}])
    );
    // The plan takes no `execute`: it cannot be made to move.
    let refused = call(
        &client,
        "plan_trajectory",
        json!({"waypoints": waypoints, "execute": true}),
    )
    .await;
    assert_eq!(refused.is_error, Some(true));
    assert!(
        text(&refused).contains("execute: unknown argument"),
        "{}",
        text(&refused)
    );
    let state = call(&client, "get_arm_state", json!({}))
        .await
        .structured_content
        .unwrap();
    assert_eq!(
        state["position"],
        json!({"x": 300.0, "y": 0.0, "z": 400.0}),
        "planning does not move"
    );

    let r = common::call_with_progress(
        &client,
        "follow_trajectory",
        json!({"waypoints": waypoints, "speed": 1.0}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    assert_eq!(r.structured_content.unwrap()["reached_waypoints"], json!(3));
    assert!(common::eventually(|| recorder.0.lock().unwrap().len() == 3).await);
    let seen = recorder.0.lock().unwrap().clone();
    assert_eq!(
        seen,
        [
            (
                1.0,
                Some(3.0),
                Some("reached waypoint 0 at (400, 0, 300) mm".to_owned())
            ),
            (
                2.0,
                Some(3.0),
                Some("reached waypoint 1 at (400, 200, 300) mm".to_owned())
            ),
            (
                3.0,
                Some(3.0),
                Some("reached waypoint 2 at (250, 200, 250) mm".to_owned())
            ),
        ]
    );
    let state = call(&client, "get_arm_state", json!({}))
        .await
        .structured_content
        .unwrap();
    assert_eq!(
        state["position"],
        json!({"x": 250.0, "y": 200.0, "z": 250.0})
    );
    client.cancel().await.unwrap();
}

/// Each filter does what its description tells the model: `raw` is one sample, `moving_average`
/// the mean of the last 10 (spread about √10 times smaller), `kalman` the least noisy.
#[tokio::test]
async fn the_force_torque_filters_do_what_they_say() {
    let arm = arm();
    let mut spread = Vec::new();
    for filter in ["raw", "moving_average", "kalman"] {
        let mut values = Vec::new();
        for _ in 0..60 {
            let r = arm
                .call(
                    "read_ft_sensor",
                    json!({"filter": filter, "axes": ["Fz"]})
                        .as_object()
                        .cloned(),
                )
                .await
                .unwrap();
            let reading = r.structured_content.unwrap();
            assert_eq!(reading["filter"], filter);
            values.push(reading["readings"][0]["value"].as_f64().unwrap());
        }
        // Nothing is held: the true Fz is 0.
        let rms = (values.iter().map(|v| v * v).sum::<f64>() / values.len() as f64).sqrt();
        spread.push(rms);
    }
    let [raw, average, kalman] = spread[..] else {
        unreachable!()
    };
    // Uniform noise of ±0.3 N: RMS 0.173 per sample, 0.055 for the mean of 10, 0.025 for 50.
    assert!((0.12..0.23).contains(&raw), "raw RMS {raw}");
    let ratio = raw / average;
    assert!((2.2..4.5).contains(&ratio), "raw/average RMS {ratio}");
    assert!(
        kalman < average * 0.75,
        "kalman {kalman} vs average {average}"
    );
}

/// A `capture_image` result: how to read the image, and its pixels decoded from the PNG.
struct Capture {
    view: Value,
    width: usize,
    height: usize,
    rgb: Vec<u8>,
}

impl Capture {
    /// The colour (`#rrggbb`) of the pixel showing the point (x, y) mm, by the view's mapping;
    /// `None` outside the image.
    fn at(&self, x: f64, y: f64) -> Option<String> {
        let mm = self.view["mm_per_px"].as_f64().unwrap();
        let base = &self.view["base_pixel"];
        let col = (base["col"].as_f64().unwrap() - y / mm).round();
        let row = (base["row"].as_f64().unwrap() - x / mm).round();
        if col < 0.0 || row < 0.0 || col >= self.width as f64 || row >= self.height as f64 {
            return None;
        }
        let i = (row as usize * self.width + col as usize) * 3;
        let [r, g, b] = [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]];
        Some(format!("#{r:02x}{g:02x}{b:02x}"))
    }

    /// The legend entry of `name`, if it shows.
    fn legend(&self, name: &str) -> Option<&Value> {
        self.view["legend"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
    }

    /// The legend colour of `name`.
    fn color(&self, name: &str) -> String {
        let entry = self
            .legend(name)
            .unwrap_or_else(|| panic!("{name} not in {}", self.view));
        entry["color"].as_str().unwrap().to_owned()
    }
}

/// Calls `capture_image` with `camera` and decodes the PNG it returns.
async fn capture(client: &common::Client, camera: &str) -> Capture {
    use base64::Engine as _;
    use rmcp::model::ContentBlock;

    let r = call(client, "capture_image", json!({"camera": camera})).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let view = r.structured_content.clone().unwrap();
    assert_eq!(view["camera"], camera);
    assert_eq!(r.content.len(), 2, "the view as JSON text, then the image");
    assert_eq!(
        r.content[0].as_text().unwrap().text,
        serde_json::to_string(&view).unwrap()
    );
    let ContentBlock::Image(image) = &r.content[1] else {
        panic!("{:?}", r.content[1])
    };
    assert_eq!(image.mime_type, "image/png");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(&image.data)
        .unwrap();
    // An indexed PNG: decode its palette to 8-bit RGB.
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a valid PNG");
    let mut rgb = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut rgb).expect("a valid PNG");
    assert_eq!(
        (info.color_type, info.bit_depth),
        (png::ColorType::Rgb, png::BitDepth::Eight)
    );
    assert_eq!(
        (json!(info.width), json!(info.height)),
        (view["width"].clone(), view["height"].clone()),
        "the view says the image's size"
    );
    rgb.truncate(info.buffer_size());
    let capture = Capture {
        width: info.width as usize,
        height: info.height as usize,
        rgb,
        view,
    };
    // Every colour is one thing: the legend's colours are distinct, and every pixel has one.
    let colors: Vec<String> = capture.view["legend"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["color"].as_str().unwrap().to_owned())
        .collect();
    let distinct: std::collections::BTreeSet<&String> = colors.iter().collect();
    assert_eq!(distinct.len(), colors.len(), "{}", capture.view);
    let mut seen = std::collections::BTreeSet::new();
    for px in capture.rgb.chunks_exact(3) {
        seen.insert(format!("#{:02x}{:02x}{:02x}", px[0], px[1], px[2]));
    }
    assert_eq!(
        seen,
        colors.into_iter().collect(),
        "the image shows exactly the legend's colours"
    );
    capture
}

/// What get_arm_state says.
async fn arm_state(client: &common::Client) -> Value {
    let r = call(client, "get_arm_state", json!({})).await;
    r.structured_content.unwrap()
}

/// Asserts that `capture` shows each object of `state` on the table in its colour, and the
/// gripper where `state` says it is (a held object inside its ring).
fn assert_shows(capture: &Capture, state: &Value) {
    for object in state["objects"].as_array().unwrap() {
        let name = object["name"].as_str().unwrap();
        let (x, y) = (
            object["position"]["x"].as_f64().unwrap(),
            object["position"]["y"].as_f64().unwrap(),
        );
        if let Some(color) = capture.at(x, y) {
            assert_eq!(color, capture.color(name), "{name} at ({x}, {y}) mm");
            let drawn_as = capture.legend(name).unwrap()["drawn_as"].as_str().unwrap();
            assert!(drawn_as.ends_with("on the table"), "{drawn_as}");
        }
    }
    let (x, y) = (
        state["position"]["x"].as_f64().unwrap(),
        state["position"]["y"].as_f64().unwrap(),
    );
    // The ring is 64 to 90 mm across: 38.5 mm from the tool point is on it, on every side.
    for (dx, dy) in [(38.5, 0.0), (-38.5, 0.0), (0.0, 38.5), (0.0, -38.5)] {
        assert_eq!(
            capture.at(x + dx, y + dy),
            Some(capture.color("gripper")),
            "the gripper ring around ({x}, {y}) mm"
        );
    }
    let centre = capture.at(x, y).unwrap();
    let gripper = capture.legend("gripper").unwrap()["drawn_as"]
        .as_str()
        .unwrap();
    match state["gripper"]["held_object"].as_str() {
        Some(held) => {
            assert_eq!(
                centre,
                capture.color(held),
                "{held} is drawn in the gripper"
            );
            assert!(gripper.ends_with(&format!("closed on {held}")), "{gripper}");
            let drawn_as = capture.legend(held).unwrap()["drawn_as"].as_str().unwrap();
            assert!(drawn_as.ends_with("held, not on the table"), "{drawn_as}");
        }
        None => {
            assert!(gripper.ends_with("open"), "{gripper}");
            // The open ring is hollow, and the arm stops at its rim: what is below shows.
            assert_ne!(centre, capture.color("gripper"));
            if capture.legend("arm").is_some() {
                assert_ne!(centre, capture.color("arm"));
            }
        }
    }
}

#[tokio::test]
async fn capture_image_shows_the_objects_where_get_arm_state_says() {
    let client = connect(arm()).await;
    let s = arm_state(&client).await;
    let overhead = capture(&client, "overhead").await;
    assert_eq!((overhead.width, overhead.height), (360, 360));
    assert_eq!(overhead.view["mm_per_px"], json!(5.0));
    assert_eq!(
        overhead.view["base_pixel"],
        json!({"col": 180.0, "row": 180.0})
    );
    assert_eq!(
        (&overhead.view["image_up"], &overhead.view["image_left"]),
        (&json!("+x"), &json!("+y"))
    );
    assert_shows(&overhead, &s);
    assert_eq!(overhead.at(0.0, 0.0), Some(overhead.color("base")));
    let pixels_of = |c: &Capture, name: &str| -> Vec<(usize, usize)> {
        let color = c.color(name);
        (0..c.width * c.height)
            .filter(|i| {
                let px = &c.rgb[i * 3..i * 3 + 3];
                format!("#{:02x}{:02x}{:02x}", px[0], px[1], px[2]) == color
            })
            .map(|i| (i % c.width, i / c.width))
            .collect()
    };
    let cube = pixels_of(&overhead, "red_cube");
    assert_eq!(cube.len(), 100, "a 50 mm square at 5 mm per pixel");
    assert!(
        cube.iter()
            .all(|&(col, row)| (175..185).contains(&col) && (95..105).contains(&row))
    );
    // Up is +x, left is +y, whatever the mapping says: the bottle (y = 250) is left of the cube
    // (y = 0), the sponge (y = -300) right of it, and the cube (x = 400) above the gripper
    // (x = 300).
    let cols = |pixels: &[(usize, usize)]| {
        let cols = pixels.iter().map(|p| p.0);
        (cols.clone().min().unwrap(), cols.max().unwrap())
    };
    let rows = |pixels: &[(usize, usize)]| {
        let rows = pixels.iter().map(|p| p.1);
        (rows.clone().min().unwrap(), rows.max().unwrap())
    };
    assert!(cols(&pixels_of(&overhead, "glass_bottle")).1 < cols(&cube).0);
    assert!(cols(&pixels_of(&overhead, "sponge")).0 > cols(&cube).1);
    assert!(rows(&cube).1 < rows(&pixels_of(&overhead, "gripper")).0);
    let red = overhead.color("red_cube");
    assert_eq!(overhead.at(400.0, 0.0), Some(red.clone()));

    // The wrist camera, at 1 mm per pixel, sees only the cube, 100 mm ahead of the gripper.
    let wrist = capture(&client, "wrist").await;
    assert_eq!(wrist.view["mm_per_px"], json!(1.0));
    assert_eq!(
        wrist.view["base_pixel"],
        json!({"col": 180.0, "row": 480.0})
    );
    assert_shows(&wrist, &s);
    assert!(wrist.legend("glass_bottle").is_none() && wrist.legend("sponge").is_none());
    assert_eq!(pixels_of(&wrist, "red_cube").len(), 50 * 50);

    // Grasp the cube and carry it away: it is no longer on the table but in the gripper.
    let r = call(
        &client,
        "grasp_object_force_control",
        json!({"target_position": {"x": 400, "y": 0, "z": 25}}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let r = call(
        &client,
        "move_arm_to_pose",
        json!({"x": 200, "y": -150, "z": 300}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let s = arm_state(&client).await;
    assert_eq!(s["gripper"]["held_object"], "red_cube");
    let overhead = capture(&client, "overhead").await;
    assert_shows(&overhead, &s);
    assert_eq!(overhead.at(200.0, -150.0), Some(red.clone()));
    assert_ne!(
        overhead.at(400.0, 0.0),
        Some(red.clone()),
        "not where it was"
    );
    let wrist = capture(&client, "wrist").await;
    assert_shows(&wrist, &s);
    assert_eq!(wrist.at(200.0, -150.0), Some(red.clone()));

    // Put it down there and go home: it lies where it was released.
    let r = call(&client, "release_object", json!({})).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let r = call(
        &client,
        "move_arm_to_pose",
        json!({"x": 300, "y": 0, "z": 400}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let s = arm_state(&client).await;
    let overhead = capture(&client, "overhead").await;
    assert_shows(&overhead, &s);
    assert_eq!(overhead.at(200.0, -150.0), Some(red));
    client.cancel().await.unwrap();
}
