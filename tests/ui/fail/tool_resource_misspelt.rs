use toolwright::toolbox;

struct Base;

#[toolbox(resource(name = "base", safe_stop = halt))]
impl Base {
    /// Halt the base.
    fn halt(&self) -> String {
        String::new()
    }

    /// Drive the base.
    #[tool(resource = "base", confirm = "Run it?")]
    async fn drive(&self) -> String {
        String::new()
    }

    /// Turn the base in place: `bsae` is a typo, so it would queue on a resource of its own,
    /// next to `drive`, and `stop` would not stop it.
    #[tool(resource = "bsae", confirm = "Run it?")]
    async fn turn(&self) -> String {
        String::new()
    }

    /// Stop the base.
    #[tool(stop_for = "base")]
    fn stop(&self) -> String {
        String::new()
    }
}

fn main() {}
