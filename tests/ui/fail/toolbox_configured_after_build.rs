// A built `Toolbox` is frozen: every setting belongs to its `ToolboxBuilder`, before `build()`.
use toolwright::{Toolbox, toolbox};

struct Arm;

#[toolbox(resource(name = "arm"))]
impl Arm {
    /// Move the arm home.
    #[tool(idempotent, resource = "arm", confirm = "Run it?")]
    fn home(&self) {}
}

fn main() {
    let toolbox = Toolbox::new(Arm);
    let _ = toolbox.with_max_waiting("arm", 4);
    let _ = Toolbox::builder(Arm).build().unwrap().with_describe_tool();
}
