// A robot resource read from its URDF: the generated joint-position type as a tool's target,
// a `Speed`, and a Cartesian target, all in one impl.
use nalgebra::Point3;
use toolwright::{Context, Speed, toolbox};

struct Arm;

#[toolbox(resource(
    name = "arm",
    position = joints,
    robot(
        urdf = "../../../../examples/robots/example-robot-data/robots/panda_description/urdf/panda.urdf",
        tip = "panda_hand_tcp",
        joints = PandaJoints,
        limits = "../../../../examples/robots/panda_moveit_config/joint_limits.yaml",
        srdf = "../../../../examples/robots/example-robot-data/robots/panda_description/srdf/panda.srdf",
        home = "default",
        margin = "1 deg",
        packages("example-robot-data" = "../../../../examples/robots/example-robot-data"),
    ),
    envelope(frame = "panda_link0", unit = "mm", allow(box(min = (-900, -900, -150), max = (900, 900, 1200))))
))]
impl Arm {
    /// Where the joints are.
    fn joints(&self) -> PandaJoints {
        PandaJoints::HOME
    }

    /// Move the joints.
    #[tool(resource = "arm", target = positions, confirm = "Move the joints?")]
    async fn move_joints(
        &self,
        /// Where the joints go.
        positions: PandaJoints,
        /// How fast.
        speed: Speed,
        /// The call.
        ctx: Context,
    ) -> String {
        let _ = (positions, speed, ctx.motion());
        String::new()
    }

    /// Move the tool point.
    #[tool(resource = "arm", target = target, confirm = false, because = "a test: nothing moves")]
    async fn move_to(
        &self,
        /// Where, mm.
        #[param(unit = "mm", range = -150.0..=900.0)]
        target: Point3<f64>,
    ) -> String {
        let _ = target;
        String::new()
    }
}

fn main() {
    let (p, _) = PandaJoints::HOME.tool_pose();
    assert!(p[2] > 0.0);
}
