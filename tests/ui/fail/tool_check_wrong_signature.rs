use toolwright::toolbox;

struct Base;

#[toolbox(resource(name = "base"))]
impl Base {
    /// Drive the base.
    #[tool(resource = "base", check = drive_limits, confirm = "Run it?")]
    async fn drive(
        &self,
        /// Forward speed.
        #[param(unit = "m/s", range = -1.0..=1.0)]
        linear: f64,
        /// Turn rate.
        #[param(unit = "rad/s", range = -2.0..=2.0)]
        angular: f64,
    ) -> String {
        format!("{linear} {angular}")
    }

    /// Its check names a parameter the tool does not have (`angle`).
    fn drive_limits(&self, linear: f64, angle: f64) -> Result<(), String> {
        let _ = (linear, angle);
        Ok(())
    }

    /// Turn the base.
    #[tool(resource = "base", check = turn_ok, confirm = "Run it?")]
    async fn turn(
        &self,
        /// Turn rate.
        #[param(unit = "rad/s", range = -2.0..=2.0)]
        angular: f64,
    ) -> String {
        format!("{angular}")
    }

    /// Its check returns a `bool`, not a `Result` saying why.
    fn turn_ok(&self, angular: f64) -> bool {
        angular.abs() < 1.0
    }

    /// Spin the base.
    #[tool(resource = "base", check = spin_ok, confirm = "Run it?")]
    async fn spin(&self) -> String {
        String::new()
    }

    /// Its check takes `&mut self`.
    fn spin_ok(&mut self) -> Result<(), String> {
        Ok(())
    }
}

fn main() {}
