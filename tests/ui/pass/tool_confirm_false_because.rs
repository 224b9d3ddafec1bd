use toolwright::{CONFIRM_NOT_NEEDED_META, Toolbox, toolbox};

struct Bench;

#[toolbox(resource(name = "lamp"))]
impl Bench {
    /// The check of `blink`: what the question shows.
    fn blink_plan(&self, times: u32) -> Result<String, String> {
        Ok(format!("{times} blinks, {} s", times / 2))
    }

    /// Switch the bench lamp on or off.
    #[tool(
        resource = "lamp",
        confirm = false,
        because = "a 5 W lamp on the bench: switching it harms no one"
    )]
    fn switch_lamp(
        &self,
        /// On or off.
        on: bool,
    ) -> bool {
        on
    }

    /// Blink the lamp.
    #[tool(resource = "lamp", confirm = "Blink the lamp ({check})?", check = blink_plan)]
    fn blink(
        &self,
        /// How many times.
        #[param(range = 1..=10)]
        times: u32,
    ) -> u32 {
        times
    }
}

fn main() {
    let toolbox = Toolbox::builder(Bench).build().unwrap();
    let meta = toolbox.tool("switch_lamp").unwrap().meta.clone().unwrap();
    assert_eq!(
        meta.0[CONFIRM_NOT_NEEDED_META],
        "a 5 W lamp on the bench: switching it harms no one"
    );
    assert!(toolbox.tool("blink").unwrap().meta.is_some());
}
