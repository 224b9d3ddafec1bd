//! A struct of joint positions written by hand must not promise what the robot refuses: the
//! error is at the end of the range that is out, with the interval the joint allows (its
//! enforced range, from the URDF) in the joint's unit and the range to write.
use serde::Deserialize;
use toolwright::{Context, ToolSchema, toolbox};

/// Where each joint goes.
#[derive(Deserialize, ToolSchema)]
struct Joints {
    /// Joint 1.
    #[param(unit = "rad", range = -2.8..=2.8)]
    panda_joint1: f64,
    /// Joint 2: the URDF stops it at 1.7628 rad.
    #[param(unit = "rad", range = -1.7..=2.0)]
    panda_joint2: f64,
    /// Joint 3.
    #[param(unit = "rad", range = -2.8..=2.8)]
    panda_joint3: f64,
    /// Joint 4.
    #[param(unit = "rad", range = -3.0..=-0.1)]
    panda_joint4: f64,
    /// Joint 5.
    #[param(unit = "rad", range = -2.8..=2.8)]
    panda_joint5: f64,
    /// Joint 6.
    #[param(unit = "rad", range = 0.0..=3.7)]
    panda_joint6: f64,
    /// Joint 7.
    #[param(unit = "rad", range = -2.8..=2.8)]
    panda_joint7: f64,
}

struct Arm;

#[toolbox(resource(
    name = "arm",
    position = joints,
    robot(urdf = "../../../../examples/robots/example-robot-data/robots/panda_description/urdf/panda.urdf", tip = "panda_hand", packages("example-robot-data" = "../../../../examples/robots/example-robot-data")),
    envelope(frame = "panda_link0", unit = "mm", allow(box(min = (-900, -900, -150), max = (900, 900, 1200))))
))]
impl Arm {
    /// Where the joints are.
    fn joints(&self) -> Vec<f64> {
        Vec::new()
    }

    /// Move every joint.
    #[tool(resource = "arm", target = positions, confirm = "Move the arm?")]
    async fn move_joints(&self, /// Where.
        positions: Joints, ctx: Context) -> String {
        let _ = (positions, ctx);
        String::new()
    }
}

fn main() {}
