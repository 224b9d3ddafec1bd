//! What the cameras see: the arm's state (table, objects, arm, gripper) drawn from straight above
//! as a small PNG, and the [`CameraView`] that says how to read it. `capture_image` (in `mod.rs`)
//! calls [`render`].
//!
//! The scene is flat colours, so a few filled shapes (rectangles, discs, rings, thick lines)
//! tested at each pixel's centre, without anti-aliasing, draw it: every pixel of an object has
//! exactly its legend colour, which is what a model (or a test) reads back. The `png` crate
//! encodes it as an indexed PNG: a 360 × 360 image is about 3 KB, drawn and encoded in about
//! 0.1 ms in a release build (5 ms in a debug build).

use nalgebra::Point3;

use super::{ArmState, Camera, CameraView, LegendEntry, Pixel};

/// Width and height of every image, px.
const SIZE: u32 = 360;

/// An RGB colour.
type Rgb = [u8; 3];

/// The table, the background of every image.
const TABLE: Rgb = [0xef, 0xe8, 0xd8];
/// Grid lines every 100 mm.
const GRID: Rgb = [0xd6, 0xcc, 0xb4];
/// The lines x = 0 and y = 0.
const AXES: Rgb = [0xa8, 0x9c, 0x80];
/// The robot base.
const BASE: Rgb = [0x50, 0x50, 0x50];
/// The arm, from the base to the gripper.
const ARM: Rgb = [0x8c, 0x8c, 0x8c];
/// The gripper ring.
const GRIPPER: Rgb = [0x1a, 0x1a, 0x1a];
/// An object the camera has no look for (the simulation has none such today).
const OTHER: Rgb = [0x9b, 0x59, 0xb6];

/// Pixel size of the overhead camera, mm.
const OVERHEAD_MM_PER_PX: f64 = 5.0;
/// Pixel size of the wrist camera, mm.
const WRIST_MM_PER_PX: f64 = 1.0;
/// Spacing of the grid lines, mm.
const GRID_STEP: f64 = 100.0;
/// Radius of the base disc, mm.
const BASE_RADIUS: f64 = 60.0;
/// Width of the band drawn for the arm, mm.
const ARM_WIDTH: f64 = 30.0;
/// Inner and outer radius of the gripper ring, mm.
const GRIPPER_RING: (f64, f64) = (32.0, 45.0);

/// An object's footprint seen from above, mm.
#[derive(Clone, Copy)]
enum Shape {
    /// A rectangle this long along x and along y.
    Rect(f64, f64),
    /// A disc of this diameter.
    Disc(f64),
}

/// How the camera sees an object: its colour and footprint.
fn look(name: &str) -> (Rgb, Shape) {
    match name {
        "red_cube" => ([0xd6, 0x27, 0x28], Shape::Rect(50.0, 50.0)),
        "glass_bottle" => ([0x1f, 0x77, 0xb4], Shape::Disc(80.0)),
        "sponge" => ([0xf2, 0xc2, 0x00], Shape::Rect(70.0, 110.0)),
        _ => (OTHER, Shape::Disc(60.0)),
    }
}

impl Shape {
    /// The footprint in words, for the legend.
    fn words(self) -> String {
        match self {
            Shape::Rect(x, y) if x == y => format!("{x:.0} mm square"),
            Shape::Rect(x, y) => format!("{x:.0} mm (along x) by {y:.0} mm (along y) rectangle"),
            Shape::Disc(d) => format!("disc {d:.0} mm across"),
        }
    }
}

/// Where a camera looks: the pixel of the base origin and the pixel size.
struct View {
    /// The pixel of the base origin (x = 0, y = 0).
    base: Pixel,
    /// Side of one pixel on the table, mm.
    mm_per_px: f64,
}

impl View {
    /// What `camera` sees with the gripper at `gripper`.
    fn of(camera: Camera, gripper: Point3<f64>) -> View {
        let centre = f64::from(SIZE / 2);
        match camera {
            Camera::Overhead => View {
                base: Pixel {
                    col: centre,
                    row: centre,
                },
                mm_per_px: OVERHEAD_MM_PER_PX,
            },
            // The gripper at the centre: the base is where the gripper's offset puts it.
            Camera::Wrist => View {
                base: Pixel {
                    col: centre + gripper.y / WRIST_MM_PER_PX,
                    row: centre + gripper.x / WRIST_MM_PER_PX,
                },
                mm_per_px: WRIST_MM_PER_PX,
            },
        }
    }

    /// The image point of (x, y) mm (up is +x, left is +y).
    fn px(&self, x: f64, y: f64) -> (f64, f64) {
        (
            self.base.col - y / self.mm_per_px,
            self.base.row - x / self.mm_per_px,
        )
    }

    /// A length in mm, in pixels.
    fn len(&self, mm: f64) -> f64 {
        mm / self.mm_per_px
    }
}

/// An image being drawn: one palette index per pixel (the scene has a dozen colours at most),
/// encoded as an indexed PNG. One byte per pixel instead of three keeps the image small at the
/// `png` crate's fast compression level.
struct Canvas {
    /// Palette indices, row by row from the top-left corner.
    pixels: Vec<u8>,
    /// The colours used so far; the first is the background.
    palette: Vec<Rgb>,
}

impl Canvas {
    /// An image of `background` only.
    fn new(background: Rgb) -> Canvas {
        Canvas {
            pixels: vec![0; (SIZE * SIZE) as usize],
            palette: vec![background],
        }
    }

    /// The palette index of `color`, added if new.
    fn index(&mut self, color: Rgb) -> u8 {
        let i = match self.palette.iter().position(|&c| c == color) {
            Some(i) => i,
            None => {
                self.palette.push(color);
                self.palette.len() - 1
            }
        };
        u8::try_from(i).expect("fewer than 256 colours")
    }

    /// Paints `color` on every pixel of the box (cols `c0..=c1`, rows `r0..=r1`, clipped to
    /// the image) whose centre is `inside`; returns how many it painted.
    fn fill(
        &mut self,
        (c0, r0, c1, r1): (f64, f64, f64, f64),
        color: Rgb,
        inside: impl Fn(f64, f64) -> bool,
    ) -> usize {
        let index = self.index(color);
        let max = f64::from(SIZE - 1);
        let (c0, c1) = (c0.floor().max(0.0), c1.ceil().min(max));
        let (r0, r1) = (r0.floor().max(0.0), r1.ceil().min(max));
        let mut painted = 0;
        let mut row = r0;
        while row <= r1 {
            let mut col = c0;
            while col <= c1 {
                if inside(col, row) {
                    self.pixels[row as usize * SIZE as usize + col as usize] = index;
                    painted += 1;
                }
                col += 1.0;
            }
            row += 1.0;
        }
        painted
    }

    /// A rectangle centred on (col, row), `half_w` and `half_h` pixels each side (half-open,
    /// so a half-width of 0.5 is one pixel wide).
    fn rect(&mut self, (col, row): (f64, f64), half_w: f64, half_h: f64, color: Rgb) -> usize {
        let bbox = (col - half_w, row - half_h, col + half_w, row + half_h);
        self.fill(bbox, color, |c, r| {
            (-half_w..half_w).contains(&(c - col)) && (-half_h..half_h).contains(&(r - row))
        })
    }

    /// A ring between radii `inner` (exclusive) and `outer` (inclusive), px; `inner` < 0 fills
    /// a disc.
    fn ring(&mut self, (col, row): (f64, f64), inner: f64, outer: f64, color: Rgb) -> usize {
        let bbox = (col - outer, row - outer, col + outer, row + outer);
        let inner2 = if inner < 0.0 { -1.0 } else { inner * inner };
        self.fill(bbox, color, |c, r| {
            let d2 = (c - col).powi(2) + (r - row).powi(2);
            d2 > inner2 && d2 <= outer * outer
        })
    }

    /// A disc of `radius` px.
    fn disc(&mut self, centre: (f64, f64), radius: f64, color: Rgb) -> usize {
        self.ring(centre, -1.0, radius, color)
    }

    /// A band `half_width` pixels each side of the segment from `a` to `b`.
    fn line(&mut self, a: (f64, f64), b: (f64, f64), half_width: f64, color: Rgb) -> usize {
        let (dc, dr) = (b.0 - a.0, b.1 - a.1);
        let len2 = (dc * dc + dr * dr).max(f64::EPSILON);
        let bbox = (
            a.0.min(b.0) - half_width,
            a.1.min(b.1) - half_width,
            a.0.max(b.0) + half_width,
            a.1.max(b.1) + half_width,
        );
        self.fill(bbox, color, |c, r| {
            let t = (((c - a.0) * dc + (r - a.1) * dr) / len2).clamp(0.0, 1.0);
            let (pc, pr) = (a.0 + t * dc, a.1 + t * dr);
            (c - pc).powi(2) + (r - pr).powi(2) <= half_width * half_width
        })
    }

    /// The image as a PNG file.
    fn png(&self) -> Result<Vec<u8>, png::EncodingError> {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, SIZE, SIZE);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(self.palette.concat());
        encoder.set_compression(png::Compression::Fast);
        encoder.write_header()?.write_image_data(&self.pixels)?;
        Ok(out)
    }
}

/// `#rrggbb`.
fn hex([r, g, b]: Rgb) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The legend being collected: only what was painted shows.
struct Legend(Vec<LegendEntry>);

impl Legend {
    /// Adds `name` if it painted any pixel (a later shape may still cover them all).
    fn add(&mut self, painted: usize, name: &str, color: Rgb, drawn_as: String) {
        if painted > 0 {
            self.0.push(LegendEntry {
                name: name.to_owned(),
                color: hex(color),
                drawn_as,
            });
        }
    }
}

/// Draws the object `name` at `at` in its colour and footprint.
fn object(
    canvas: &mut Canvas,
    legend: &mut Legend,
    view: &View,
    name: &str,
    at: Point3<f64>,
    held: bool,
) {
    let (color, shape) = look(name);
    let centre = view.px(at.x, at.y);
    let painted = match shape {
        // Along x is up and down the image, along y across it.
        Shape::Rect(along_x, along_y) => canvas.rect(
            centre,
            view.len(along_y) / 2.0,
            view.len(along_x) / 2.0,
            color,
        ),
        Shape::Disc(d) => canvas.disc(centre, view.len(d) / 2.0, color),
    };
    let place = if held {
        "inside the gripper ring: held, not on the table"
    } else {
        "centred on its grasp point on the table"
    };
    legend.add(painted, name, color, format!("{}, {place}", shape.words()));
}

/// Draws the grid lines every 100 mm and the axes through the base (darker).
fn grid(canvas: &mut Canvas, legend: &mut Legend, view: &View) {
    let step = view.len(GRID_STEP);
    let edge = f64::from(SIZE);
    // At most one line per pixel either way, whatever the base's position (a view far from the
    // base, or a non-finite one, draws no more than the image holds).
    let bound = i64::from(SIZE);
    let first = |base: f64| (-((base / step).floor())).clamp(-bound as f64, bound as f64) as i64;
    let last = |base: f64| {
        (((edge - 1.0 - base) / step).floor()).clamp(-bound as f64, bound as f64) as i64
    };
    // Rows are lines of constant x (across the image), columns lines of constant y (down it).
    let (mut grid, mut x_axis, mut y_axis) = (0, 0, 0);
    for k in first(view.base.row)..=last(view.base.row) {
        let row = (view.base.row + k as f64 * step).round();
        let (color, count) = if k == 0 {
            (AXES, &mut x_axis)
        } else {
            (GRID, &mut grid)
        };
        *count += canvas.rect((edge / 2.0, row), edge / 2.0, 0.5, color);
    }
    for k in first(view.base.col)..=last(view.base.col) {
        let col = (view.base.col + k as f64 * step).round();
        let (color, count) = if k == 0 {
            (AXES, &mut y_axis)
        } else {
            (GRID, &mut grid)
        };
        *count += canvas.rect((col, edge / 2.0), 0.5, edge / 2.0, color);
    }
    legend.add(
        grid,
        "grid",
        GRID,
        "1 px lines every 100 mm: across the image at constant x, down it at constant y".to_owned(),
    );
    let axes = match (x_axis > 0, y_axis > 0) {
        (true, true) => "1 px lines through the base: x = 0 across the image, y = 0 down it",
        (true, false) => "1 px line x = 0 across the image",
        _ => "1 px line y = 0 down the image",
    };
    legend.add(x_axis + y_axis, "axes", AXES, axes.to_owned());
}

/// Draws `state` as `camera` sees it: the PNG and how to read it. Only what shows in the image
/// is in the legend.
pub(super) fn render(
    state: &ArmState,
    camera: Camera,
) -> Result<(Vec<u8>, CameraView), png::EncodingError> {
    let view = View::of(camera, state.position);
    let mut canvas = Canvas::new(TABLE);
    let mut legend = Legend(Vec::new());
    legend.add(1, "table", TABLE, "the background".to_owned());
    grid(&mut canvas, &mut legend, &view);
    for o in &state.objects {
        object(&mut canvas, &mut legend, &view, &o.name, o.position, false);
    }

    // The arm, above the table, from the base to the gripper ring (not into it, so what is
    // under the gripper shows); the base on top of it, where the arm rises from it.
    let base = view.px(0.0, 0.0);
    let p = state.position;
    let reach = p.x.hypot(p.y);
    let (inner, outer) = GRIPPER_RING;
    if reach > outer {
        let end = (reach - outer) / reach;
        let painted = canvas.line(
            base,
            view.px(p.x * end, p.y * end),
            view.len(ARM_WIDTH) / 2.0,
            ARM,
        );
        legend.add(
            painted,
            "arm",
            ARM,
            format!(
                "band {ARM_WIDTH:.0} mm wide from the base to the gripper, above the table: it hides what lies under it"
            ),
        );
    }

    let painted = canvas.disc(base, view.len(BASE_RADIUS), BASE);
    legend.add(
        painted,
        "base",
        BASE,
        format!("disc {:.0} mm across at x = 0, y = 0", 2.0 * BASE_RADIUS),
    );
    if let Some(name) = &state.gripper.held_object {
        object(&mut canvas, &mut legend, &view, name, p, true);
    }
    let painted = canvas.ring(view.px(p.x, p.y), view.len(inner), view.len(outer), GRIPPER);
    let holding = match &state.gripper.held_object {
        Some(name) => format!("closed on {name}"),
        None => "open".to_owned(),
    };
    legend.add(
        painted,
        "gripper",
        GRIPPER,
        format!(
            "ring {:.0} to {:.0} mm across centred on the tool point ({:.0}, {:.0}) mm, {holding}",
            2.0 * inner,
            2.0 * outer,
            p.x,
            p.y
        ),
    );

    let png = canvas.png()?;
    Ok((
        png,
        CameraView {
            camera,
            width: SIZE,
            height: SIZE,
            mm_per_px: view.mm_per_px,
            base_pixel: view.base,
            image_up: "+x".to_owned(),
            image_left: "+y".to_owned(),
            legend: legend.0,
        },
    ))
}
