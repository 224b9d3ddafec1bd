use toolwright::toolbox;

struct Arm;

const MAST: [f64; 3] = [100.0, 400.0, 0.0];

#[toolbox(resource(
    name = "arm",
    position = at,
    envelope(
        frame = "base",
        unit = "mm",
        allow(box(min = (-500, -500, 0), max = (500, 500, 800))),
        // `min` above `max` in x, written out.
        keep_out(name = "shelf", box(min = (300, -100, 0), max = (200, 100, 400))),
        // The same mistake through consts.
        keep_out(name = "mast", box(min = MAST, max = (0, 450, 900))),
        // A cylinder's bottom above its top, and a keep-out without a name.
        keep_out(cylinder(center = (0, 0), radius = 50, z = (300, 100)))
    )
))]
impl Arm {
    /// Where the arm is.
    fn at(&self) -> [f64; 3] {
        [0.0, 0.0, 400.0]
    }

    /// Move the arm.
    #[tool(resource = "arm", confirm = "Run it?")]
    async fn move_home(&self) -> String {
        String::new()
    }
}

fn main() {}
