//! A check's doc comment is published with its tool (`Before it runs: ..` ends the tool's
//! description), so it is required, and the two together fit the description's budget.
use toolwright::toolbox;

struct Gantry;

#[toolbox(resource(name = "gantry"))]
impl Gantry {
    /// Lower the gripper.
    #[tool(resource = "gantry", check = low_enough, confirm = "Lower it?")]
    async fn lower(
        &self,
        /// Height above the belt.
        #[param(unit = "mm", range = 0.0..=400.0)]
        z: f64,
    ) -> String {
        format!("{z}")
    }

    fn low_enough(&self, z: f64) -> Result<(), String> {
        let _ = z;
        Ok(())
    }

    /// Raise the gripper.
    #[tool(
        resource = "gantry",
        check = high_enough,
        confirm = "Raise it?",
        max_description_bytes = 60
    )]
    async fn raise(
        &self,
        /// Height above the belt.
        #[param(unit = "mm", range = 0.0..=400.0)]
        z: f64,
    ) -> String {
        format!("{z}")
    }

    /// Above 300 mm the gripper must be empty, or what it holds may swing into the camera.
    fn high_enough(&self, z: f64) -> Result<(), String> {
        let _ = z;
        Ok(())
    }
}

fn main() {}
