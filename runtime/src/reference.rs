//! # Reference
//!
//! Everything a declaration can say, and what each key becomes in the published schema and in
//! the run-time check; then how a toolbox is built, served, deployed and operated. Every
//! published constraint is enforced before the function body runs, at any nesting depth.
//!
//! ## `#[tool]` — on a fn or on a method in a `#[toolbox] impl`
//!
//! | key | example | effect |
//! |---|---|---|
//! | *(doc comment)* | `/// Move the arm to …` | the tool's `description` (required) |
//! | `description` | `description = "…"` | instead of the doc comment |
//! | `name` | `name = "move_arm"` | the tool name (default: the fn name) |
//! | `title` | `title = "Move arm"` | `title`, and `annotations.title` |
//! | `read_only` | `read_only` or `read_only = false` | `annotations.readOnlyHint`; implies `idempotentHint: true`, `destructiveHint: false` |
//! | `destructive` | `destructive = false` | `annotations.destructiveHint` |
//! | `idempotent` | `idempotent` | `annotations.idempotentHint` |
//! | `open_world` | `open_world = false` | `annotations.openWorldHint` |
//! | `timeout` | `timeout = "3s"` (`ms`, `s`, `min`, `h`) | the call's deadline, waiting for resources included ([`Context::remaining`](crate::Context::remaining)); past it the body is told to stop (see *When a call ends early*) and the result is an `isError` saying what happened; a call still waiting for a resource did not run, and says so |
//! | `grace` | `grace = "500ms"`, `grace = "0s"` | how long a body told to stop has to return before it is abandoned (default 1 s, or the toolbox's `grace`; at most 2 s when the client went away or the server is shutting down) |
//! | `resource` | `resource = "arm"`, `resource = ["arm", "gripper"]` | calls that share a resource run one at a time, in the order the server received them; at most `max_waiting` (default 16) wait, and the next is refused at once with a retryable `isError` (`_meta["io.toolwright/retryable"]: true`) saying how many wait; calls with no shared resource run concurrently |
//! | `blocking` | `blocking = false` | sync fns only: run the body on the async runtime instead of tokio's blocking pool; only for bodies that never block (read memory, no I/O, no locks held long) |
//! | `retry` | `retry = 2` | extra attempts after a timeout or an error marked [`ToolError::retryable`](crate::ToolError::retryable); only on `read_only` or `idempotent` tools (a compile error otherwise: retrying a write can repeat it) |
//! | `max_output_bytes` | `max_output_bytes = 65536` | a larger result is cut on structure (items of its largest array, never bytes inside a value), with a note saying what was cut and how to ask for the rest, and `_meta["io.toolwright/truncated"]` |
//! | `scopes` | `scopes = ["arm:move"]` | over HTTP with OAuth, an access token must grant these scopes to call the tool (else `403 insufficient_scope` naming them); published in the tool's `_meta["io.toolwright/scopes"]` and in `TOOLS.md`; each must be an RFC 6749 scope token (a compile error otherwise). A token's `scope` claim is split on spaces (U+0020) only: any other character, a no-break space or a tab too, is part of a scope, so `"arm:read\u{a0}arm:move"` grants neither |
//! | `rate_limit` | `rate_limit = "10/min"` (`/s`, `/min`, `/h`, `/day`) | calls one client may make to this tool: at most that many in any window of the period, however they are spread (`4/min` never grants a fifth call within 60 s; see *Limits and quotas*); past it a retryable `isError` says how long to wait (`_meta["io.toolwright/retryAfterMs"]`). A client is the authenticated principal over HTTP, else its address; the connection over stdio |
//! | `confirm` | `confirm = "Move the arm to ({x}, {y}, {z}) at {speed} of full speed?"`; `confirm = false, because = ".."` | the user confirms each call before the body runs, asked with the question filled in from the validated arguments: numbers with their units, booleans as yes or no, enum values as words, and a string as what the model wrote, in quotes (“A-17”), on one line, its line breaks, control characters, bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069), zero-width characters and quotes shown escaped, never rendered, and cut after 200 characters with its length; `{check}` shows what the tool's `check` says of the call (its waypoints, length and duration, say). Elicitation on protocol 2025-11-25; an `input_required` round on 2026-07-28, whose approval is sealed to the tool, the arguments, the caller and an expiry, and runs one call (when the body asks its user too, the approval goes on to the call's next round in that round's state alone: an older state of the call is refused as used; a task keeps it for its whole life, and a stop tool that runs while the task waits for its user's answer cancels the task): a replay is refused, on every replica sharing `--redis`, and across restarts: in one process an approval asked before it started is refused; with `--redis` an approval counts only while Redis holds the record of its question (written when it was asked, taken off when the approval runs), so after Redis restarts empty no approval asked before runs, with no clock compared. An approval is only ever the answer to a question this server asked: a confirmation's answer in `inputResponses` without a sealed `requestState`, or under a key the state does not name, is ignored (logged) and the question is asked (a body's own question, `ctx.elicit`, may take an answer offered up front, as SEP-2322 lets a server use what it recognises: it is data the client gives, not an approval, so ask for approval with `confirm`); a request's protocol revision is its session's (a session that began with `initialize` takes no 2026-07-28 round or approval). Decline, cancel or a client that cannot be asked is an `isError` saying nothing ran. **The rule:** a tool that holds a resource, is not `read_only` and is no stop tool declares the question, or says why no one needs to confirm it: `confirm = false, because = "the gripper is limited to 5 N"` (published in `_meta["io.toolwright/confirmNotNeeded"]`, on the page, in `TOOLS.md` and `SKILL.md`, which list per resource the tools that change it after asking, those that change it without asking and why, those that only read it and its stop tools); leaving both out is a compile error on the tool's name (for tools built any other way, `build()` refuses it). There is no flag-dependent confirmation (ask only when `execute` is true): a tool that moves only sometimes is two tools, one that plans (`read_only`) and one that moves (`confirm`). Placeholders must name parameters (`{{`/`}}` for braces), and `confirm` on a `read_only` tool is a compile error. On by default; `ToolboxBuilder::with_confirmation(false)` or `serve --confirm=off` for a simulation or a test rig. `check --against` reports a confirmation removed or added as breaking |
//! | `stop_for` | `stop_for = "arm"` or `stop_for = ["arm", "gripper"]` | a stop tool: never queued, rate-limited, confirmed or held by `max_concurrency`. Each call refuses every call waiting for those resources ("cancelled by `stop_arm`: … did not run"), runs its body, then runs each resource's safe stop itself and stops the call using each resource (told to stop, its grace period; the stop tool's safe stop is that call's, which does not run twice; its answer is an `isError` naming the stop tool, whatever its body returned); a call that was waiting for its user's confirmation when the stop came is refused too, and so is an approval given (on protocol 2026-07-28) in a call whose first round began before the stop. Published as `_meta["io.toolwright/stopFor"]`. Compile errors: a resource the `#[toolbox]` does not declare (with the nearest declared name), on a free fn, with `resource`, `confirm`, `rate_limit` or `read_only` |
//! | `task` | `task = "optional"`, `task = "required"` (default: never a task) | a call may (must) run as an MCP task: the client gets a task id at once and polls `tasks/get` for the status, the progress the body reports (its status message) and finally the result, and may `tasks/cancel` it (protocol 2026-07-28's `io.modelcontextprotocol/tasks` extension, advertised in the server's capabilities; the tool's `_meta["io.toolwright/taskSupport"]` says which). A call of an `optional` tool from a client without the extension is a plain call; of a `required` one, refused with `-32021`. A task is a call: see "Tasks" below for what it keeps. `required` with `over_budget = "envelope"` is a compile error (a task stores its result; the envelope asks to call again) |
//! | `target` | `target = (x, y, z)` (three number parameters) or `target = point` (one parameter holding a point: a nalgebra `Point3`, a struct with `x`, `y`, `z`, a ROS `Point`, or a ROS `Pose`'s `position`) | where the tool moves its resource, checked against that resource's envelope (see *Envelopes* below) before the user is asked and again when the call gets its turn. The coordinates must be in the envelope's unit and their declared ranges within its bounding box (less the tool radius): a compile error where the macro sees both, else a `BuildError`. Compile errors: a name that is not a parameter (with the nearest name), the call's `Context`, a tool without `resource` |
//! | `path` | `path = waypoints` (a list of such points) | the same for every waypoint and every straight segment between them, the first from where the resource is; a path that cannot run is refused even when the tool only plans |
//! | `check` | `check = drive_limits` | a method of the `#[toolbox]` impl taking `&self` and any of the tool's parameters by name, each with the tool's type (or a type with `From` it), returning `Result<(), E>` (`E: Display`), or `Result<String, E>` whose text the confirmation question shows as `{check}` (a question that shows `{check}` needs such a check: a compile error otherwise): the limits no schema says (across arguments, `abs(v) + k * abs(w) <= ..`, or from the state). It runs before the user is asked and again at the call's turn; its `Err` is the model-facing refusal, and nothing ran. Its doc comment (required) says what it refuses: it is published at the end of the tool's description (`Before it runs: ..`, counted in the description's budget) and in `_meta["io.toolwright/check"]`, so `TOOLS.md`, `index.html` and `SKILL.md` show it and the model reads it before it calls; the drift gate reports a new check as breaking. Compile errors: a method the impl does not have (with the nearest name), no doc comment on it, a parameter the tool does not have (with the nearest name), a parameter of another type than the tool's (`z: u32` or `z: f32` for the tool's `z: f64`), an `async` or `&mut self` method (the error gives the signature to write, from the tool's parameters), a return that is not a `Result`, on a free fn |
//! | `group` | `group = "arm"` | tools of a group are served, listed and enabled together ([`ToolboxBuilder::only_groups`](crate::ToolboxBuilder::only_groups), [`Toolbox::enable_group`](crate::Toolbox::enable_group)) |
//! | `projection` | `projection`, `projection = false` | the tool takes an optional `jmespath` argument (a string of at most 512 characters): a JMESPath expression applied to the result on the server after the tool ran, answered as `{"projection": value}` (the text block is the value). An expression that does not parse, that could repeat the result more than 64 times (multi-selects chained through pipes), or that cannot apply to any result the tool's output schema allows (a function the runtime lacks, the wrong number of arguments, an argument of a type the function never takes there: `abs(segments)` where `segments` is a list; the types are over-approximated from the schema, so a refusal is certain) gets `{"_jmespath_error": .., "expression": .., "original_keys": [..], "hint": ..}` with `isError` (a refused argument: the tool did not run). One that fails on the result itself: on a `read_only` tool, the same envelope after it ran, without `isError`; on any other tool, the tool's own result (cut to its budget) with a text block beside it giving the error and saying not to call again to see it (that would run it again), never "call again". Expressions are parsed and evaluated on threads of their own (a large stack, at most 4 at once), never on the async runtime, and the answer does not wait for them past the call's deadline (`timeout`): an evaluation not done by then gets the envelope as failed on the result. `false` opts a tool out of its toolbox's `projection` |
//! | `summary` | `summary` | the tool takes `summary: true`: each list at the top of the result as `{"count": n, "samples": [first, middle, last]}`, the other values kept, answered as `{"summary": ..}`; not with `jmespath` in the same call. The result must have a list at its top (else the toolbox does not build) |
//! | `over_budget` | `over_budget = "envelope"` (or `"cut"`, the default) | with `max_output_bytes`: a larger result is answered `{"_budget_exceeded": true, "budget_bytes": .., "actual_bytes": .., "hint": ..}` (the hint names `jmespath`/`summary` when the tool takes them) instead of being cut; only on `read_only` or `idempotent` tools (a compile error otherwise: the result of a write would be lost) |
//! | `allow(..)` | `allow(many_params, deep_nesting)` | lifts a compile-time limit: more than 5 parameters, input nested deeper than 3 levels (also the build's check of ROS messages). A tool name outside `^[a-zA-Z0-9_-]{1,64}$` is always a compile error: every client refuses it (what only some clients refuse, `check --clients` reports) |
//! | `max_description_bytes` | `max_description_bytes = 2048` | the tool description's budget (default 1,024 bytes; over it is a compile error with the size) |
//! | `max_param_description_bytes` | `max_param_description_bytes = 500` | each parameter description's budget (default 300 bytes) |
//!
//! `jmespath` and `summary` are published in the tool's input schema (and in every export) and
//! listed in its `_meta["io.toolwright/resultArguments"]`; they never reach the body. With any
//! of these keys the `outputSchema` is `{"type": "object", "anyOf": [..]}`: the result's own
//! schema first, then one branch per envelope, so clients that validate `structuredContent`
//! accept every answer. A projection, a summary and an envelope are also held to
//! `max_output_bytes`.
//!
//! Every result is checked against the tool's own output schema before it is sent, in debug
//! builds (so in tests) and in release builds that ask for it with
//! [`ToolboxBuilder::with_output_checks`](crate::ToolboxBuilder::with_output_checks): a result
//! that does not match (a value out of its declared range, a `NaN` sent as `null`) is a bug in
//! the tool, and the call gets an `isError` naming the path instead, with a `tracing` error.
//!
//! `#[param(max_description_bytes = N)]` raises the budget of one parameter or field.
//!
//! `crate = "path"` (on `#[tool]`, `#[toolbox]`, and as `#[toolwright(crate = "path")]` on a type
//! deriving `ToolSchema`): the path generated code reaches this crate by, for a renamed
//! dependency (`crate = "::tw"`) or a re-export (`crate = "my_robot::toolwright"`); default
//! `::toolwright`. Generated code names nothing else (no prelude names, no `use` of yours), and
//! allows `unused_qualifications` on what it generates. `tools![..]` and `tool_defs![..]` reach
//! it as `::toolwright`.
//!
//! ## `#[toolbox]` — on an inherent `impl` block
//!
//! | key | example | effect |
//! |---|---|---|
//! | `allow(..)`, `max_description_bytes`, `max_param_description_bytes` | as on `#[tool]` | defaults for its tools (a tool's own keys win) |
//! | `timeout` | `timeout = "30s"` | the deadline of its tools that declare none |
//! | `grace` | `grace = "2s"` | the grace period of its tools that declare none |
//! | `client_rate_limit` | `client_rate_limit = "120/min"` | calls one client may make to all its tools together (`describe_tool` excepted); also `ToolboxBuilder::with_client_rate_limit` and `serve --client-rate-limit` |
//! | `resource(..)` | `resource(name = "arm", safe_stop = halt, max_waiting = 8, position = tool_point, envelope(..))` | once per resource its tools use. Every resource a tool names (`resource`, `stop_for`) must be declared: a misspelt name is a compile error on it, with the nearest declared name (for free functions, [`ToolboxBuilder::with_resource`](crate::ToolboxBuilder::with_resource); `build()` refuses an undeclared one). `safe_stop` names a method of this impl taking only `&self`, sync or `async`, returning `()`, a `String` saying what it did, or a `Result` of those (checked at compile time); safe stops must be idempotent. `max_waiting` bounds its queue (default 16). `position` names a sync method taking only `&self` that says where the resource is, in its envelope's frame and unit (`[f64; 3]`, `(f64, f64, f64)`, a nalgebra `Point3<f64>`, or an `Option` of one); `envelope(..)` declares where it may go (see *Envelopes*) and needs `position`; `robot(..)` makes it a robot read from its URDF (see *Robots*) |
//! | `max_concurrency` | `max_concurrency = 4` | at most this many calls run at once across all tools; the others wait in arrival order |
//! | `projection` | `projection` | every tool of the impl takes `jmespath` (see `#[tool(projection)]`; a tool's `projection = false` opts out) |
//!
//! ### Envelopes
//!
//! `envelope(frame = "base", unit = "mm", tool_radius = 15, allow(name = "reach", sphere(center
//! = (0, 0, 100), radius = 865)), allow(box(min = (-865, -865, 0), max = (865, 865, 965))),
//! keep_out(name = "camera_mast", cylinder(center = (-450, 450), radius = 50, z = (0, 1400))),
//! max_step = 1000)` on a `resource(..)`: where the tools that name a `target` or a `path` may
//! move it. Numbers are literals or `const`s in `unit`; a point is `(x, y, z)`, `[x, y, z]` or a
//! `const` `[f64; 3]`.
//!
//! - The tool point, a ball of `tool_radius` (the gripper and what it holds; default 0), must
//!   lie inside every `allow` shape and clear of every `keep_out`: on an allow boundary is
//!   inside; touching a keep-out is refused. Shapes: `box(min, max)` (axis-aligned),
//!   `sphere(center, radius)`, `cylinder(center = (x, y), radius, z = (bottom, top))`
//!   (vertical). Keep-outs must be named, so refusals can name them.
//! - Every straight segment (a capsule of the tool's radius), the first from where the
//!   resource is (`position`), must stay clear of the keep-outs (exact segment tests, not
//!   sampling) and be at most `max_step` long. A motion that starts inside a keep-out may only
//!   move straight out of it.
//! - A refused call is an `isError` that names the shape or the segment and says how to go
//!   around (the nearest allowed point; a waypoint that clears the keep-out, checked; a shorter
//!   step). It is refused before the user is asked, gives back its places in the queues, and
//!   is checked again when it gets its turn (the motions before it move the resource). The
//!   audit line records it as `refused` (`outside_envelope`).
//! - Published in each such tool's `_meta["io.toolwright/envelope"]`: `{"resource", "frame",
//!   "unit", "toolRadius"?, "allow": [..], "keepOut": [..], "maxStep"?, "target": ["/x", "/y",
//!   "/z"] | "path": {"array": "/waypoints", "point": ["/x", "/y", "/z"]}}`, each shape
//!   `{"name"?, "box": {"min", "max"}}`, `{"sphere": {"center", "radius"}}` or `{"cylinder":
//!   {"center": [x, y], "radius", "zMin", "zMax"}}`; in `TOOLS.md`, `SKILL.md` and the dialect
//!   exports in words; held by the drift gate (a new keep-out is breaking).
//! - Tighten-only. No tool, argument or client request changes an envelope. An operator may
//!   narrow it at start-up (`serve --envelope FILE`, [`ToolboxBuilder::with_envelopes`](crate::ToolboxBuilder::with_envelopes)):
//!   `{"arm": {"allow": [..], "keepOut": [..], "maxStep": 400, "toolRadius": 20}}`, in the
//!   published unit and frame, adding shapes, lowering `maxStep`, raising `toolRadius`. A file
//!   that would widen it, names a resource without an envelope, or gives another unit or frame
//!   stops `serve`, naming the limit; so does a key written twice in one object (a JSON parser
//!   would keep the last and silently drop the first: `{"arm": {"allow": [..]}, "arm": {}}`),
//!   named with its line. The narrowed envelope is what `tools/list` publishes.
//! - Compile errors, each at its token: a shape's `min` above its `max`, a negative radius, a
//!   keep-out without a name, a keep-out that lies outside an allow shape (the tool never
//!   reaches it, so it protects nothing: almost always a typo in its coordinates), an envelope
//!   without `position` or without an `allow`, allow shapes with no room in common, a target
//!   declared in another unit than the envelope's (`cm` against `mm`), and a target's range
//!   wider than the envelope: reported at the first bound that is out, once per parameter, with
//!   the interval the envelope allows in its unit and the range to write.
//!
//! ### Robots (the `robot` feature)
//!
//! A resource can be a robot described by its URDF, read when the crate compiles, so the tools
//! and the robot's own description cannot drift:
//!
//! ```text
//! resource(name = "arm", safe_stop = halt, position = joints_now,
//!          robot(urdf = "robots/panda_description/urdf/panda.urdf", tip = "panda_hand_tcp",
//!                joints = PandaJoints, limits = "robots/joint_limits.yaml",
//!                srdf = "robots/panda.srdf", home = "default", margin = "0.01 rad",
//!                packages("example-robot-data" = "robots/example-robot-data")),
//!          envelope(frame = "panda_link0", unit = "mm", allow(..), keep_out(..)))
//! ```
//!
//! - Paths are relative to the crate's folder (its `Cargo.toml`'s); every file read (the URDF,
//!   the limits file, the SRDF, each mesh) is tracked, so editing one rebuilds the crate.
//!   `package://NAME/..` mesh URIs resolve through `packages(..)` (a name may be a string or an
//!   identifier), `file://..` and plain paths relative to the URDF's folder. A `.xacro` file is
//!   refused with the command that expands it.
//! - Keys: `urdf`, `tip` (the link at the arm's end: the chain runs from the URDF's root link to
//!   it), `tip_offset = (x, y, z)` (the tool point in the tip's frame, metres), `joints = Type`
//!   (generates the joint-position type: one `f64` field per moving joint, named as in the
//!   URDF, with its unit, `rad` or `m`, its enforced range and a doc; `Type::HOME`,
//!   `Type::tool_pose()`, `values()`, `from_values(..)`), `limits` (a ros2_control / MoveIt
//!   `joint_limits.yaml`), `srdf` (its `disable_collisions` pairs are not checked; `home` names
//!   one of its `group_state`s), `margin = "0.02 rad"` and `linear_margin = "5 mm"` (each end of a
//!   revolute, prismatic joint's range narrowed, then rounded inward to the shortest decimal
//!   within 1e-9, so `-3.0718` less `0.01` publishes `-3.0618`), `padding = "5 mm"` (added to every capsule),
//!   `link("name", capsule(a = (..), b = (..), radius = r), sphere(center = (..), radius = r))`
//!   (a link's capsules, replacing its collision geometry). `position` names the method that
//!   says where the joints are (the joint-position type, `Vec<f64>` or `[f64; N]` in joint
//!   order, or an `Option` of one); the envelope's position is then the tool point, by forward
//!   kinematics.
//! - Limits, tighten-only. A joint's range is its `<limit lower upper>`, narrowed by its
//!   `<safety_controller soft_lower_limit soft_upper_limit>`, by the limits file's
//!   `min_position`/`max_position` and soft limits, and by the margin; its velocity cap is
//!   `<limit velocity>` or the file's `max_velocity`, its acceleration and deceleration caps
//!   URDF 1.2's `<limit acceleration deceleration>` or the file's (`max_deceleration` defaults
//!   to `max_acceleration`). The file may only tighten what the URDF says (MoveIt Pilz's
//!   "stricter or equal"): a looser value, `has_*_limits: false` where the URDF has one, a joint
//!   the URDF does not have (named with the closest), a NaN or infinite number, an inverted range
//!   fail the build naming the file, the line, the joint and the key. Continuous joints wrap
//!   (a motion turns the short way); mimic joints follow their leader, whose range and caps are
//!   narrowed to keep them within theirs; fixed joints are folded into the chain. Jerk and
//!   effort caps are read and checked, not enforced (motions are kinematic). Every joint needs
//!   a velocity cap.
//! - A joint-position struct written by hand (`#[derive(ToolSchema)]`, one field per moving
//!   joint named as in the URDF, each `#[param(unit = "rad", range = ..)]`) may be a tool's
//!   `target` instead of the generated type. Its ranges are checked against the robot when the
//!   crate compiles: a field named as a joint whose range is wider than the joint's enforced
//!   range (or missing), or whose unit is not the joint's (`rad`, `m` for a prismatic joint),
//!   is a compile error (E0080) at the field's `range` (or `unit`, or name), with the interval
//!   the joint allows in its unit and the range to write; rustc's note under it points at the
//!   tool's parameter. The struct's shape (every joint there, no other field) is checked when
//!   the toolbox is built (`BuildError`), as is a joint-position type whose schema no
//!   `#[derive(ToolSchema)]` wrote (a hand-written `JsonSchema`, schemars' own ranges): its
//!   ranges exist only in the schema generated at run time.
//! - Links. Each link's collision geometry becomes capsules in its frame, each holding its
//!   shape: a cylinder its axis with its radius; a sphere itself; a URDF 1.2 capsule itself; a
//!   box, and an STL mesh (binary or ASCII), the least-volume capsule along one of the principal
//!   axes of its corners or vertices, checked against every vertex and padded by a micrometre.
//!   Another mesh format, or a mesh URI that does not resolve, fails the build naming the link
//!   and how to declare its capsule. A link hanging on a moving joint outside the chain (a
//!   gripper's fingers) gets capsules holding it over that joint's whole hard travel.
//! - The check. A tool whose `target` names the joint positions (an object of the robot's
//!   joints) moves the joints there; one whose `target` names a point moves the tool point
//!   there, solved to joint positions by damped least squares within the joints' ranges,
//!   closest to where the arm is (out of reach: refused with the closest the arm reaches). The
//!   motion, a straight line in joint space from where the joints are, is checked before the
//!   user is asked and again at the call's turn: every link inside every allow shape and clear
//!   of every keep-out, and clear of every other link but those adjacent (joined by a joint,
//!   looking through links without geometry, as MoveIt does), disabled by the SRDF, or joined
//!   rigidly. Links no joint moves are checked once, when the toolbox is built (`BuildError`).
//! - The bound. Between two configurations of the motion, no point of a link moves further than
//!   `Σⱼ ρⱼ |Δqⱼ|` times the fraction of the motion between them: a revolute joint moves a point
//!   along an arc no longer than its distance from the joint's axis times the angle, and `ρⱼ`
//!   bounds that distance in every configuration (exact for the link right below the joint;
//!   further down, the lengths of the joints' origins between plus the link's reach); a
//!   prismatic joint moves it by its own travel (`ρ = 1`). Each pair (a link and a shape, or two
//!   links, whose relative motion only the joints above one of them count) is checked at a
//!   configuration, where its clearance `c` is exact (capsules against boxes, spheres, vertical
//!   cylinders and capsules, in closed form), and is then proven clear until `c` is used up
//!   (conservative advancement): so **a motion that passes never brings a link into contact**.
//!   A checked configuration closer than **10 mm** (`TOLERANCE`) is refused, so **a motion
//!   that clears everything by more than 10 mm along its whole path is accepted**; a motion
//!   that starts closer than that (never touching) is held to half its starting clearance, so
//!   the arm can move away. Published as `tolerance`.
//! - Timing. A motion's joints move in step on one profile (the path keeps its shape), the
//!   fastest under every joint's caps scaled by `speed` (a `toolwright::Speed` parameter,
//!   0 < speed <= 1: velocity caps times `speed`, acceleration caps times `speed²`): trapezoidal
//!   with acceleration caps, a constant rate without. Its duration is never shorter than the
//!   slowest joint's velocity cap allows. The body gets the checked motion from
//!   `Context::motion()` (its `from`, `to`, `duration()` and `at(t)`), and runs exactly that.
//! - A refusal names the link, the keep-out, allow shape or other link, how far along the motion
//!   and the joint values there, the clearance, and a way around (through the home
//!   configuration, when both of its motions pass the same check); nothing moves and the user is
//!   not asked.
//! - Published in each moving tool's `_meta["io.toolwright/robot"]`: `{"resource", "source":
//!   {"file", "sha256"}, "tip": {"link", "offset"?}, "joints": [{"name", "type", "unit", "lower",
//!   "upper", "maxVelocity", "maxAcceleration"?, "maxDeceleration"?, "from", "parent", "child",
//!   "origin", "axis"}], "positions"?, "links": [{"name", "capsules": [{"a", "b", "radius"}],
//!   "frame", "swept"?}], "unit", "tolerance", "robot", "base", "home": {"joints", "from",
//!   "capsules"}}` (capsules in each link's frame, lengths in the envelope's unit), with the
//!   envelope's `_meta["io.toolwright/envelope"]` (without `target` for a joint-space tool). An
//!   operator's narrowing (`serve --envelope`) applies to every link.
//! - Exported: `TOOLS.md` gives each moving tool's joints with their ranges and caps and says
//!   every link is checked; `SKILL.md` has "How robot motions are checked" (the joint limits,
//!   every link along the whole motion, the bound, the timing, and what is not checked); the
//!   envelope in words says every link of the arm must stay inside, not the tool point; the
//!   page draws the arm at its home configuration (a stroke per capsule, titled with its link)
//!   in the envelope's top and side views, with a joint table whose rows are anchored
//!   `:joint.RESOURCE.JOINT` (the enforced range exactly, a bar with home marked, the caps and
//!   where the range came from). `check --against` reports a changed joint limit as breaking.
//! - Not checked: dynamics (torques, payloads, stopping distances under load), moving
//!   obstacles, the meshes themselves (their bounding capsules are, which are larger), jerk.
//!
//! Every call runs in a `tracing` span `tool_call` with the tool name, a trace id, the outcome and
//! the duration; the trace id is also returned in the result's `_meta["io.toolwright/traceId"]`
//! (a client's W3C `traceparent` is adopted when it sends one). A [`Context`](crate::Context)
//! parameter gives the trace id, progress notifications and cancellation to the body, and lets
//! it log to the client, sample and elicit (see *Talking to the client*).
//!
//! Parameters are plain typed arguments. A sync tool runs on tokio's blocking pool, so a driver
//! call that blocks (serial, CAN, a vendor SDK) holds up no other call and its deadline is still
//! answered on time (`blocking = false` runs a cheap one in place); an
//! `async` tool runs on the async runtime and must not block. A method takes `&self`: the
//! toolbox's shared state. A parameter of type [`Context`](crate::Context) is filled from the
//! call and not published.
//!
//! ## When a call ends early
//!
//! What a tool body must tolerate, and what the runtime guarantees, on every path:
//!
//! 1. **Told to stop.** When the call's deadline passes, the client cancels it
//!    (`notifications/cancelled`, `tasks/cancel`), a stop tool stops a resource it holds, the
//!    client goes away (see *When the client goes away*) or the server shuts down (`SIGTERM`,
//!    `SIGINT`), the body's [`Context`](crate::Context) is cancelled
//!    ([`is_cancelled`](crate::Context::is_cancelled),
//!    [`cancelled`](crate::Context::cancelled), [`cancel_reason`](crate::Context::cancel_reason):
//!    `Deadline`, `Client`, `Stopped`, `ClientGone`, `Shutdown`). A body that checks it between
//!    steps can stop cleanly and return an error saying where it stopped; that text reaches the
//!    model. It has its grace period to return (`grace`, 1 s by default; at most 2 s when the
//!    client went away or the server is shutting down: no one waits for the answer, and the
//!    device must not go on unsupervised).
//! 2. **Abandoned.** After the grace period an async body is dropped (its code no longer runs:
//!    keep state that must be reset in guards that reset it on drop). A sync body cannot be
//!    interrupted: it goes on running on its blocking thread, and **keeps its resources until it
//!    really returns**, so no other call on them starts while it may still drive the hardware.
//! 3. **Safe stop, whatever the body returned.** Once a call holding a resource with a safe stop
//!    was told to stop, the safe stop of every resource it holds runs exactly once, whatever the
//!    body returned (an `Ok` too: told to stop, it did not do what was asked), then the
//!    resources pass to the next call. A stop tool's own safe stop is the interrupted call's:
//!    it does not run twice. A body that panics gets the safe stops too. A call that holds no
//!    resource with a safe stop and returns `Ok` within its grace period finished its work, and
//!    succeeds. A safe stop runs after the body returned or was dropped, but next to a sync body
//!    that is still running, and a stop tool runs it while the stopped body winds down: **write
//!    safe stops idempotent**, safe to run at any time and more than once (like an emergency
//!    stop). It has 10 s. A resource without a safe stop is reported as being "in whatever
//!    state the tool left it". A call dropped by an in-process caller (`Toolbox::call` whose
//!    future is dropped) gets its safe stops too, on a task of their own.
//! 4. **A safe stop that fails** (returns an error, panics, or overruns its 10 s) leaves its
//!    resource in an unknown state, logged at error level: the resource then refuses every call
//!    that moves it (a tool not declared `read_only`), saying when and how its safe stop failed,
//!    until the safe stop succeeds again. Each such call first runs the safe stop again, holding
//!    the resource, and goes on only once it succeeds; a stop tool's safe stop that succeeds
//!    clears it too, and so does restarting the server. Motions never silently continue.
//! 5. **The answer says what happened**, as an `isError`: what stopped the call ("did not finish
//!    within its 30 s deadline (5.1 s of it went by waiting for `arm`, which other calls were
//!    using)", "was cancelled by the client", "was stopped by `stop_arm`", "was stopped before it
//!    finished because its client went away (its connection closed)", "... because the server
//!    is shutting down"), how the body ended ("it was told to stop and returned 12 ms later,
//!    saying: motion stopped at (412, 3, 200) mm.") and what each safe stop reported ("Safe stop
//!    of `arm`: halted at (412, 3, 200) mm.", "Safe stop of `arm`, run by `stop_arm`: …"). A body
//!    that returned `Ok` has its result after that text, its `structuredContent` kept. A stop is
//!    never claimed unless one ran. A call whose deadline passed while it waited for a resource
//!    did not run, and says so. The audit line's outcome is `deadline passed`, `cancelled`,
//!    `stopped by <tool>`, `client gone` or `server stopped`.
//! 6. **Order and bounds.** Calls sharing a resource take their place in its queue when the
//!    transport reads them ([`Toolbox::serve`](crate::Toolbox::serve), `serve_stdio` and
//!    `serve_http` stamp them; other paths take it when the call starts), so they run in the
//!    order the client sent them; a call arriving when `max_waiting` wait is refused at once.
//!
//! ### When the client goes away
//!
//! A motion stops when its supervisor does (a dead-man; ROS teleoperation muxes use 0.1–0.5 s):
//!
//! - over stdio (and any transport [`Toolbox::serve`](crate::Toolbox::serve) serves), the
//!   client is gone when its input ends (stdin closes). Its calls are stopped at once (not after
//!   rmcp's 5 s), its calls still waiting for a resource or for their user never run, its tasks
//!   that hold a resource with a safe stop are cancelled (no other connection can ask after
//!   them), and a `subscriptions/listen` it left open ends, so the process exits;
//! - over HTTP on protocol 2026-07-28, a request's client is gone when its connection drops:
//!   its call is stopped at once;
//! - over HTTP on protocol 2025-11-25, a request's event stream may be resumed
//!   (`Last-Event-ID`): a call holding a resource with a safe stop whose stream dropped and was
//!   not resumed within the resume window ([`HttpOptions::resume_window`](crate::HttpOptions::resume_window),
//!   `serve --resume-window`, 2 s by default) is stopped; the bound is that window plus the
//!   grace period;
//! - a task holding a resource with a safe stop has a lease ([`TaskLimits::lease`](crate::TaskLimits),
//!   10 s by default, published in the task's `_meta["io.toolwright/leaseMs"]`): when no
//!   `tasks/get` or `tasks/update` (on 2025-11-25 `tasks/get`, or a `tasks/result` waiting for
//!   it) comes within it, the task is cancelled and the safe stop runs;
//! - on `SIGTERM` or `SIGINT`, `serve` (stdio and HTTP; [`Toolbox::serve_stdio`](crate::Toolbox::serve_stdio)
//!   and [`HttpServer::wait`](crate::HttpServer::wait)) stops every running call and task, runs
//!   their safe stops, and then returns (the process exits).
//!
//! Retries (`retry`) apply after a deadline too, once the abandoned attempt's safe stops ran; a
//! client's cancel is never retried.
//!
//! Measured with the robot arm, its own binary and a real signal (`tests/tests/faults.rs`): during
//! a 10 s motion the arm halted 4–8 ms after stdin closed, and 6 ms after the HTTP connection
//! dropped.
//!
//! ## Tasks
//!
//! Declare `task = "optional"` on a tool whose calls can outlast an HTTP request or a model's
//! patience (a pick-and-place, homing, a calibration, a long plan), so the client can poll it,
//! do other calls meanwhile (reads such as `get_arm_state` answer while it runs) and cancel
//! it; `task = "required"` when a call of it can never answer within a request. A call of a
//! task tool from a client that declared the tasks extension first runs in its request for
//! [`TaskLimits::promote_after`](crate::TaskLimits) (250 ms): one that ends sooner answers as a
//! plain call, one that asks its user sooner asks in the request (`input_required`, as
//! `confirm` does); after that the client gets `resultType: "task"` with the task's id.
//!
//! A task is a call, with everything above:
//!
//! - it holds its resources like a call, taking its place in their queues when the request was
//!   read; its deadline (`timeout`, covering the wait), `retry` and the result budget apply;
//! - `tasks/cancel`, the deadline, a stop tool or its lease running out tells the body to stop,
//!   waits out the grace period, then runs the safe stop of each resource it holds, exactly
//!   once. A task so stopped while it held a resource with a safe stop reads `cancelled` once
//!   that is done, its status message saying what stopped it and what ran ("… Safe stop of
//!   `arm`: halted at (300, 0, 612) mm."); a task that holds none, past its deadline, is
//!   `completed` with an `isError` result saying the same. Cancelling an ended task changes
//!   nothing;
//! - a tool error is `completed` with `isError`; a panic is `failed` (a JSON-RPC error);
//! - `ctx.progress(..)` becomes the task's status message;
//! - a disconnect alone does not end it (the server waits for tasks in flight like calls when it
//!   stops), but a task that holds a resource with a safe stop has a lease: when its client does
//!   not ask after it (`tasks/get`, `tasks/update`) within [`TaskLimits::lease`](crate::TaskLimits)
//!   (10 s; [`ToolboxBuilder::with_task_lease`](crate::ToolboxBuilder::with_task_lease)), it is
//!   cancelled, and the safe stop runs. The lease is in the task's
//!   `_meta["io.toolwright/leaseMs"]` and in `SKILL.md`: poll more often than that. Over stdio,
//!   whose tasks no other connection can read, such a task is cancelled when stdin closes;
//! - a question the body asks its user (`ctx.elicit`, `ctx.sample`) sets the task
//!   `input_required` with the question in `inputRequests`; `tasks/update` brings the answers
//!   (any subset: the task stays `input_required` until none is missing), and the body runs
//!   again from its start with them, as in a round.
//!
//! Tasks live in the process, bounded by [`TaskLimits`](crate::TaskLimits)
//! ([`ToolboxBuilder::with_task_limits`](crate::ToolboxBuilder::with_task_limits)): a record is
//! kept for its time to live (`ttlMs`, 1 hour; a task still running is kept until it ends), a
//! client may have 8 unfinished tasks and the server holds 1024 records; past either bound the call
//! is refused with a JSON-RPC error that says which and what to do. A task id is 128 random bits,
//! bound to whoever created it: the authenticated principal, else the MCP session, else (stdio and
//! other transports) the connection; anyone else gets "no task" (`-32602`), as for an id that does
//! not exist. On the stateless wire without authentication there is no one to bind to, and the
//! unguessable id is the only key.
//!
//! With replicas (`serve --http .. --redis ..`), a task is in Redis before its client hears of
//! it, with the replica that runs it, and is kept there as it changes. Each replica listens on a
//! Redis channel of its own: a `tasks/get`, `tasks/update` or `tasks/cancel` that reaches
//! another replica is passed to the one that runs the task and answered by it within 3 s, the
//! owner checked again there (another principal gets "no task" through any replica). A cancel
//! stops the task where it runs (its grace period, then its resources' safe stops); a
//! `tasks/get` renews its lease there. A runner that cannot be reached (stopped, or cut off
//! from Redis: Redis says at once that no one listens) makes `tasks/cancel` and `tasks/update`
//! a retryable error saying the task was not told (never a silent success), and `tasks/get`
//! answer the task as the runner last stored it.
//!
//! Protocol 2025-11-25's experimental tasks are served over stdio (`serve_stdio`, `serve`
//! without `--http`): the tool's `execution.taskSupport` and the `tasks` capability are
//! published, a `tools/call` with `task` becomes a task at once, and `tasks/get`,
//! `tasks/result` (waits for the end, then answers the call's result or error),
//! `tasks/list` and `tasks/cancel` (answers the task once stopped) are answered. Over HTTP,
//! tasks are protocol 2026-07-28's.
//!
//! The Python SDK 1.x task client is tested against the robot arm, whose `move_arm_to_pose`,
//! `grasp_object_force_control` and `follow_trajectory` are task-capable.
//!
//! ## Return types
//!
//! The return type `T` or `Result<T, E>` (`E: Into<ToolError>`) decides the output: an object
//! `T` (a struct) gives `outputSchema` and `structuredContent` plus the same JSON as text; any
//! other serializable `T` is wrapped as `{"result": …}`; a `String` is returned as text only;
//! `()` returns the text `ok`. `Err` and panics become `isError` results.
//!
//! Content blocks are return types too, decided by the type like the rest:
//! [`Image`](crate::Image) (`Image::png(bytes)`), [`Audio`](crate::Audio) (`Audio::wav(bytes)`),
//! [`EmbeddedResource`](crate::EmbeddedResource) (text or bytes with a URI),
//! [`ResourceLink`](crate::ResourceLink), [`Content`](crate::Content) (any one of them, or text)
//! and `Vec<Content>` (several, in order) become those MCP blocks (binary data base64-encoded),
//! with no `outputSchema`, since there is no `structuredContent`.
//! [`WithContent<T>`](crate::WithContent) sends `T` as any structured result (its `outputSchema`,
//! `structuredContent`, the JSON as text, checked against its schema) followed by the blocks. The
//! tool's `_meta["io.toolwright/content"]` says which (`image`, `audio`, `resource`,
//! `resource_link`, `mixed`), and every export says it in words. `projection`, `summary` and
//! `over_budget` need a structured result, and blocks are never cut to `max_output_bytes`.
//!
//! ## `#[param]` — on a tool's arguments and on fields of `#[derive(ToolSchema)]` types
//!
//! | key | example | schema | checked at run time |
//! |---|---|---|---|
//! | *(doc comment)* | `/// Grip force.` | `description` | – |
//! | `description` | `description = "…"` | `description` | – |
//! | `unit` | `unit = "N"` | `x-unit`, and the unit in words in `description` | in messages (`must be between 5 and 30 N`) |
//! | `range` | `5.0..=30.0`, `0.0..1.0`, `0..`, `..=10`; per coordinate of a nalgebra point: `[-1.0..=1.0, -1.0..=1.0, 0.0..=2.0]` | `minimum`, `maximum` / `exclusiveMaximum`, intersected with the integer type's width | yes |
//! | `default` | `default = 15.0` | `default`; the property is not `required` | the default is filled in when absent |
//! | `examples` | `examples = [10.0, 20.0]` | `examples` | – |
//! | `min_length`, `max_length` | `max_length = 64` | `minLength`, `maxLength` (characters) | yes |
//! | `pattern` | `pattern = "^[a-z_]+$"` | `pattern` (unanchored, as JSON Schema) | yes |
//! | `min_items`, `max_items` | `min_items = 2` | `minItems`, `maxItems` | yes |
//! | `rename` | `rename = "targetPosition"` | the property name (fn arguments only; on fields use `#[serde(rename)]`) | – |
//! | `flatten` | `#[param(flatten)] args: MoveArgs` | the struct's fields are the tool's properties (only parameter) | yes |
//! | `header` | `header = "Region"` (tool parameters only) | `x-mcp-header` (SEP-2243): over streamable HTTP on protocol 2026-07-28 the client also sends the argument as the header `Mcp-Param-Region`, so a load balancer or proxy can route on it without reading the body; an integer is bounded to ±(2^53 − 1) | yes: a call whose `Mcp-Param-*` headers disagree with its arguments (a different value, a header without its argument, an argument without its header, bad Base64) is refused with HTTP 400 and `HeaderMismatch` (-32020) before the tool runs |
//!
//! `unit`, `range`, `min_length`, `max_length` and `pattern` describe the value: on a `Vec<T>`
//! (or `Option<Vec<T>>`) they apply to each item, while `min_items`/`max_items` apply to the
//! array. Units come from a fixed vocabulary (SI and robotics: `mm`, `m`, `deg`, `rad`, `N`,
//! `N·m`, `s`, `ms`, `Hz`, `mm/s`, `rad/s`, `%`, `°C`, `V`, `A`, `W`, `Pa`, `kg`, …); an unknown
//! unit is a compile error with a did-you-mean.
//!
//! ## What the compiler checks
//!
//! ### Tools
//!
//! A definition that would mislead a model, or publish a limit the code does not enforce, does
//! not compile. Every mistake in the item is reported in the same build, once, at the token at
//! fault, saying how to fix it; the fn itself is still emitted (without toolwright's attributes),
//! so the rest of the crate keeps type-checking. The macros read attributes and signatures and
//! never bodies: a slip in a body is rustc's one error, and the editor (rust-analyzer) keeps
//! every tool's expansion while you type.
//!
//! A mistake that depends on types is reported by a trait of [`crate::bounds`] (`RangeTarget`,
//! `ParamType`, `CheckArgument`, ..) with a message that says what to do, at your token. Only
//! where the message must show a number the compiler computes does the error read "evaluation
//! panicked" (E0080): a bound beyond an integer type's width, a range wider than an envelope
//! or than a robot's joint (with the interval it allows), a parameter count or nesting depth
//! over the limit, the size
//! of a description from `include_str!`, a `unit` that does not measure a uom quantity (with
//! the units that do), and a per-component `range` with the wrong number of ranges.
//!
//! - **Descriptions**: the tool and each published parameter need a doc comment (or
//!   `description = ".."`); empty or placeholder text (`TODO`, `FIXME: ..`, `...`,
//!   `Parameter force`) is refused. A `Context` parameter is not published and needs none.
//! - **Budgets**: the tool description is at most 1024 bytes and each parameter description at
//!   most 300 bytes (the error gives the actual size). `#[doc = include_str!(..)]` descriptions
//!   are measured too, by a `const` check.
//! - **Names**: `name` matches `^[a-zA-Z0-9_-]{1,64}$`, what every client accepts; without
//!   `name`, the fn name must be snake_case.
//! - **Annotations**: `read_only` cannot be combined with `destructive` or `idempotent = false`.
//! - **Size**: at most 5 published parameters (a `#[param(flatten)]` struct counts its
//!   properties), and the input nests at most 3 levels (each struct, list or map is a level; a
//!   type that contains itself nests without end). A `JsonSchema` type not derived with
//!   `ToolSchema` (such as `serde_json::Value`) counts as one level.
//! - **Signature**: no generics, `unsafe`, variadics or patterns; `&self` only (in a
//!   `#[toolbox]` impl); owned parameter types (no references, lifetimes, `impl Trait` or trait
//!   objects); a concrete, owned return type. A parameter type must implement `JsonSchema` and
//!   `Deserialize`, a return type `JsonSchema` and `Serialize`, and the `Err` of a `Result`
//!   must convert into `ToolError` (`String`, `&str`, `std::io::Error`, `serde_json::Error`,
//!   `Box<dyn Error + Send + Sync>` and `ToolError` do): each is one error at the type.
//! - **Did you mean**: every name the macros resolve gets a did-you-mean when it is near one that
//!   exists: keys, units, resources, parameters (`target`, `confirm` placeholders, a check's
//!   parameters) and methods (`safe_stop`, `position`, `check`). The call's `Context` is never
//!   offered as a parameter.
//! - **`#[param]` keys**: below.
//!
//! ### `#[param]` (on tool parameters and on fields of `ToolSchema` types)
//!
//! - Every field (not `#[serde(skip)]`ped or flattened) needs a description, as tool parameters
//!   do, within 300 bytes unless `#[param(max_description_bytes = N)]`; placeholders are refused.
//! - `unit` and `range` need a numeric type; `min_length`, `max_length` and `pattern` a string
//!   type; `min_items` and `max_items` a list. Value keys apply through `Option` and to the items
//!   of lists (`Vec<f64>` with `unit = "V"`), item keys to the list itself; a newtype deriving
//!   `ToolSchema` takes the keys of its field. The error names the key and the type.
//! - `unit` must be a known unit (with a did-you-mean); on a uom quantity (`uom` feature), a
//!   unit of its quantity (`unit = "N"` on a `Length` names the units of length). A uom
//!   quantity type with no unit in the vocabulary (`MagneticFluxDensity`) is refused at its type.
//! - `range`: no empty range (`30.0..=5.0`, `3..3`); each bound must fit the integer type
//!   (`0..=300` on a `u8`, `-1..` on a `u32`, `0.5` on an integer). Bounds given by `const`s are
//!   checked by `const` evaluation. A per-component `range = [..]` (`nalgebra` feature) must
//!   list one range per component of the type (3 for a `Point3`, 2 for a `Vector2`), and is
//!   refused on a type without components. `unit` and `range` on a `UnitQuaternion` are
//!   refused (its norm bounds its components).
//! - `min_length <= max_length`, `min_items <= max_items`; `pattern` must be a valid regular
//!   expression (the `regex` dialect the run-time validator uses).
//! - A literal `default` or example must be inside the range, within the lengths and match the
//!   pattern; a `default` must have the parameter's type (`T` for an `Option<T>`), and a string
//!   literal needs a type built from `&str`.
//! - `header` needs what `x-mcp-header` allows: a string (also a unit-only enum or a string
//!   newtype deriving `ToolSchema`), an integer or a boolean, also inside `Option` (not a float,
//!   a list or a struct: the error is at the header's name). The name is an HTTP token (letters,
//!   digits and `` !#$%&'*+-.^_`|~ ``; the error suggests one), written without the `Mcp-Param-`
//!   prefix, and unique within the tool ignoring case. It goes on tool parameters only: a
//!   field of a `ToolSchema` type may be published inside a list, where no header can mirror it.
//!   Do not mirror secrets: proxies see headers.
//! - Unknown keys are errors, with a did-you-mean.
//! - `#[param]` on a skipped field, on a tuple variant's field, or (as `rename`/`flatten`) where
//!   serde's attribute is meant, is refused. `#[param]` on a type that does not derive
//!   `ToolSchema` is an unknown attribute.
//!
//! ### serde attributes on `ToolSchema` types
//!
//! The published schema follows serde's own attributes, so it describes exactly what serde
//! reads (input schemas) and writes (output schemas): `rename` and `rename_all` (each side of
//! `rename(serialize = .., deserialize = ..)` in its direction) on the type, its variants and
//! fields, `rename_all_fields`, `tag`, `content` and `untagged` on the enum, `default`, `skip`,
//! `skip_serializing`, `skip_deserializing` and `skip_serializing_if` on fields and variants,
//! `flatten` of a struct, and `transparent`. `alias` and `other` widen what serde accepts and are
//! left out of the schema; `deny_unknown_fields` changes nothing (input schemas refuse other
//! properties already). Attributes that give a value a form the fields do not show are compile
//! errors: `with`, `serialize_with` and `deserialize_with`, `from`, `try_from` and `into`, and
//! `untagged` on a single variant. A test derives a corpus of types over these attributes and
//! checks both directions on generated values (`tests/tests/serde_corpus.rs`).
//!
//! For example, this does not compile, with one error on each default
//! (`tests/ui/fail/param_default_outside_range.rs`); the first:
//!
//! ```rust,compile_fail
//! use toolwright::tool;
//!
//! /// Close the gripper.
//! #[tool]
//! fn grasp(
//!     /// Grip force.
//!     #[param(unit = "N", range = 5.0..=30.0, default = 40.0)]
//!     force: f64,
//!     /// Retries.
//!     #[param(range = 0..3, default = 3)]
//!     retries: u8,
//! ) {
//!     let _ = (force, retries);
//! }
//! ```
//!
//! ```text
//! error: this default is above the range's upper bound `30.0`: the published default would be refused; pick a value inside the range, or widen the range
//!  --> ui/fail/param_default_outside_range.rs:7:55
//!   |
//! 7 |     #[param(unit = "N", range = 5.0..=30.0, default = 40.0)]
//!   |                                                       ^^^^
//! ```
//!
//! Each check has a test in `tests/ui/fail/`, named after the mistake, with the compiler's
//! output next to it.
//!
//! ## Exports, the page and the drift gate
//!
//! The same declaration renders as `tools.json`, `TOOLS.md`, and OpenAI-strict, Anthropic and
//! Gemini tool definitions (units, ranges and enum meanings kept in words where a dialect drops
//! the keyword; [`export`](crate::export)); `check --against DIR` and
//! [`assert_tools_snapshot!`](crate::assert_tools_snapshot) classify every difference as
//! compatible or breaking. With
//! [`.with_skill(name, purpose)`](crate::ToolboxBuilder::with_skill) on its builder the toolbox
//! also serves an operating skill through the MCP Skills extension (SEP-2640: `skills/list`,
//! `skills/get`, `resources/directory/read`), exported as `SKILL.md` and held by the same gate:
//! which tools change the world, deadlines, units and limits, what happens on a timeout or a
//! cancel (grace periods, safe stops, queues, retries), rate limits, groups and scopes, all
//! written from the declarations.
//!
//! `export` also writes `index.html`, a page people open in a browser: one file that fetches
//! nothing (its style, script and pictures inline), with every tool's badges, how it runs
//! (resources, deadline, grace period, stop relations, rate limit, scopes, task support), its
//! confirmation question, parameter and output tables (units, ranges drawn as bars with the
//! default marked, enum meanings, examples), what OpenAI strict and Gemini would not see, an
//! example call, and each resource's envelope drawn from above and from the side. Every tool,
//! parameter and output field has a stable anchor (below); without JavaScript it is all there and
//! linked, with it a filter box narrows the tools as you type. `llms.txt` is written beside it.
//! The robot arm's is `examples/docs/robot_arm/index.html`.
//!
//! `check --clients` (and [`assert_clients_accept!`](crate::assert_clients_accept) in a test)
//! holds the tools against the rules Claude Code, VS Code Copilot, Cursor and the Python SDK 2.x
//! enforce on `tools/list`, and the Anthropic, OpenAI strict and Gemini APIs on their exports
//! ([`export::clients`](crate::export::clients)): each finding names the client, the tool and the
//! JSON pointer, says what to change and cites the rule's source. The server's name counts where a
//! client prefixes it (`--server-name`, see *The command line*).
//!
//! ## Links into `index.html`
//!
//! `export --out DIR` writes `index.html`, the tools for people in one file that fetches
//! nothing ([`export::html`](crate::export::html)). Each tool's example call there (and in
//! `TOOLS.md`) runs as written: it satisfies the tool's schema and its envelope (the target, or
//! each waypoint, is the point the envelope allows nearest the middle of the published ranges;
//! `tests/tests/example_calls.rs` makes the robot arm's against the server). An output field
//! serde always writes (an `Option` is written as `null`) is "always present": only
//! `skip_serializing_if` makes one optional. Its ids follow one grammar, so a review, a
//! ticket or a safety file can link to a parameter and the link keeps working while the name
//! does:
//!
//! | id | what | example |
//! |---|---|---|
//! | `TOOL` | a tool | `move_arm_to_pose` |
//! | `TOOL.NAME` | a parameter, the result arguments included | `grasp_object_force_control.force`, `plan_trajectory.jmespath` |
//! | `TOOL.NAME.FIELD` | a field inside it | `grasp_object_force_control.target_position.x` |
//! | `NAME[]` | an array's items | `plan_trajectory.waypoints[].x` |
//! | `NAME.*` | a map's values | `set_offsets.offsets.*` |
//! | `TOOL:result.FIELD` | an output field | `move_arm_to_pose:result.position.x` |
//! | `TOOL:example` | the example call | `move_arm_to_pose:example` |
//! | `:…` | the page's own sections | `:resource.arm`, `:envelope.arm` |
//!
//! Each name is percent-encoded as a segment: ASCII letters, digits, `_` and `-` as they are,
//! every other byte of its UTF-8 (`.`, `:`, `[`, `]`, `*`, `%` included) as `%XX`. A property
//! named `a.b` is `TOOL.a%2Eb` and cannot collide with the field `b` of a property `a`
//! (`TOOL.a.b`); no tool's id starts with `:`.
//!
//! ## Types
//!
//! - `Option<T>`: optional, not nullable (in lax mode an explicit `null` counts as absent).
//! - Integers: `type: integer` with the width as `minimum`/`maximum` (`u8` → 0..255; 64-bit types
//!   publish only the bounds a JSON number states exactly), intersected with `range`. No
//!   `format`s are published.
//! - `Vec<T>`: `array` with `items`; `HashMap<String, T>`: `object` with `additionalProperties`.
//! - `#[derive(ToolSchema)]` structs: inline objects (`additionalProperties: false` on input),
//!   properties in declaration order, honouring serde's `rename`, `rename_all`, `default`, `skip`,
//!   `skip_serializing_if` and `flatten`.
//! - `#[derive(ToolSchema)]` unit-only enums: `type: string` + `enum` with serde's names, the
//!   variants' doc comments folded into the description (`Options: parallel: two-finger jaw; …`).
//!   Data-carrying enums follow serde's representation (external, `tag`, `tag` + `content`,
//!   `untagged`) as `oneOf`/`anyOf`.
//! - Any other type implementing `schemars::JsonSchema + DeserializeOwned` is accepted: its
//!   schema is inlined and normalized, and every keyword toolwright knows is enforced; anything
//!   else about it is checked by serde only.
//! - Recursive types cannot be inlined and are refused when the toolbox is built, naming the path.
//!
//! ### Physical quantities (the `uom` feature)
//!
//! With the `uom` feature of `toolwright` (off by default), the quantity types of
//! [uom](https://docs.rs/uom) 0.38 (`uom::si::f64::{Length, Angle, Time, Frequency, Velocity,
//! AngularVelocity, Acceleration, AngularAcceleration, Force, Torque, Mass, Pressure,
//! ElectricPotential, ElectricCurrent, Power, ElectricalResistance, Energy,
//! ThermodynamicTemperature, Information, Illuminance}`), and `Option` and `Vec` of them, are
//! parameters, fields of `ToolSchema` types and outputs (also `Result<Length, _>`):
//!
//! ```rust,ignore
//! /// Reach out.
//! #[tool]
//! fn reach(
//!     /// How far to reach.
//!     #[param(unit = "mm", range = 0.0..=500.0)]
//!     reach: Length, // a call with 250 gives `Length::new::<millimeter>(250.0)`, 0.25 m
//!     /// Grip force.
//!     force: Force, // published in N
//! ) -> Motion { .. }
//! ```
//!
//! - The model reads and writes plain numbers in the published unit: the declared `unit`, which
//!   must measure the quantity (checked at compile time), or else the quantity's SI unit
//!   (`Length` in m, `Angle` in rad, `Torque` in N·m, `Mass` in kg), with `x-unit` and the unit
//!   in words in the description as for any number.
//! - `range`, `default` and examples are written in the published unit, and checked and
//!   published as for an `f64`; the messages name the unit (`reach: must be between 0 and 500
//!   mm, got 900`).
//! - After validation, the toolbox converts the arguments to the SI values uom's serde reads
//!   (uom's own formulas, so the body's `reach.get::<millimeter>()` is 250.0); outputs are
//!   converted back from what uom serializes, rounded to the digits the SI value holds (950 mm
//!   stays 950, not 950.0000000000001), before they are checked and sent. A number whose
//!   conversion overflows (`1e306` kN) is refused as an invalid argument, naming its path.
//! - A quantity in a unit other than its SI unit cannot yet be inside a data-carrying enum, an
//!   untagged type or a `WithContent` result: the toolbox refuses to build, naming the path.
//!   (Without `unit` it works there, in SI.) Quantities stored as `f32` (`uom::si::f32`) are not
//!   supported. Your `uom` dependency must be 0.38, with its `serde` feature (toolwright enables
//!   it).
//!
//! ### Geometry (the `nalgebra` feature)
//!
//! With the `nalgebra` feature of `toolwright` (off by default), these types of
//! [nalgebra](https://docs.rs/nalgebra) 0.35, and `Option` and `Vec` of them, are parameters,
//! fields of `ToolSchema` types and outputs (also `Result<Point3<f64>, _>`):
//!
//! | type | published as | `unit` and `range` apply to |
//! |---|---|---|
//! | `Point3<f64>`, `Vector3<f64>`, `Translation3<f64>` | `{x, y, z}` | each coordinate |
//! | `Point2<f64>`, `Vector2<f64>` | `{x, y}` | each coordinate |
//! | `UnitQuaternion<f64>` | `{x, y, z, w}`, unit norm checked (no other bound) | – (refused) |
//! | `Isometry3<f64>` | `{translation: {x, y, z}, rotation: {x, y, z, w}}` | the translation's coordinates |
//! | `UnitComplex<f64>` | its angle, a number in rad (or the declared unit of angle, converted) | the angle (`unit` must be a unit of angle) |
//! | `Isometry2<f64>` | `{translation: {x, y}, rotation: <angle in rad>}` | the translation's coordinates |
//!
//! ```rust,ignore
//! /// Move the tool point.
//! #[tool]
//! fn move_to(
//!     /// Where to go, in the robot base frame.
//!     #[param(unit = "mm", range = [-850.0..=850.0, -850.0..=850.0, 0.0..=950.0])]
//!     target: Point3<f64>, // a call with {"x": 400, "y": 0, "z": 120} gives Point3::new(400.0, 0.0, 120.0)
//!     /// The gripper's orientation.
//!     orientation: UnitQuaternion<f64>,
//! ) -> Isometry3<f64> { .. }
//! ```
//!
//! - Every component is a required number with a description (`X coordinate.`, `X
//!   component.`, `Offset along X.`, `W (scalar) component.`), and no other property is allowed.
//!   `#[param(unit = "mm", range = -850.0..=850.0)]` gives each coordinate `x-unit`, the unit
//!   in its description (`X coordinate, in millimeters (mm).`) and the bounds; `range = [..]`
//!   gives one range per coordinate, in order (x, y, z), to keep `z >= 0` for instance;
//!   `range = WORKSPACE` names a `const WORKSPACE: [RangeInclusive<f64>; 3]` declared once
//!   (the count checked at compile time), for bounds that every point of a frame shares. The unit
//!   only labels the numbers: the body gets the `f64`s that were sent.
//! - Out-of-range coordinates are named by path (`target.z: must be between 0 and 950 mm, got
//!   -5`).
//! - A quaternion whose norm is more than 0.001 from 1 is refused (`goal.rotation: must have
//!   unit norm (x² + y² + z² + w² = 1), got norm 1.4142 (hint: divide each component by
//!   1.4142)`); one within that tolerance is divided by its norm before the body gets it, so it
//!   is a unit quaternion.
//! - After validation, the toolbox turns the objects into the arrays nalgebra's serde reads
//!   (`[x, y, z]`, `[x, y, z, w]`); outputs go the other way before they are checked and sent;
//!   declared defaults and examples are published as objects. Exports, the drift gate and
//!   `describe_tool` show the objects.
//! - A `UnitComplex` is published as its angle, like a uom `Angle`: in rad, or in the declared
//!   unit of angle (`#[param(unit = "deg", range = -180.0..=180.0, default = 90.0)] turn:
//!   UnitComplex<f64>`; `unit = "mm"` is a compile error), with `range` and `default` in that
//!   unit; the toolbox turns the angle into `[cos θ, sin θ]` and back, into the turn the
//!   declared `range` starts (`0.0..=360.0` gives 270 for 270), else -180..=180 deg. An
//!   `Isometry2`'s rotation is such an angle, always in rad (its `unit`
//!   applies to the translation).
//! - As for quantities in a declared unit, these types cannot yet be inside a data-carrying
//!   enum, an untagged type or a `WithContent` result (the toolbox refuses to build, naming the
//!   path), nor be a `#[param(flatten)]` parameter. `f32` types are not supported. Your
//!   `nalgebra` dependency must be 0.35, with its `serde-serialize` feature (toolwright enables
//!   it).
//!
//! ### ROS 2 messages (the `ros` feature)
//!
//! With the `ros` feature of `toolwright` (off by default), ROS 2 message types generated by
//! [roslibrust](https://docs.rs/roslibrust)'s code generator (`geometry_msgs::Pose`,
//! `sensor_msgs::JointState`, ..), and `Option` and `Vec` of them, are parameters, fields of
//! `ToolSchema` types and outputs (also `Result<Pose, _>`), with no code beyond roslibrust's own
//! generation and no ROS installation. Generate them in your `build.rs` from the `.msg` files
//! (each package directory with its `package.xml`):
//!
//! ```rust,ignore
//! // build.rs ([build-dependencies] roslibrust_codegen = "0.26")
//! let msgs = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap()).join("ros_msgs");
//! let (tokens, inputs) =
//!     roslibrust_codegen::find_and_generate_ros_messages_without_ros_package_path(vec![msgs])?;
//! for path in inputs { println!("cargo:rerun-if-changed={}", path.display()); }
//! fs::write(PathBuf::from(env::var_os("OUT_DIR").unwrap()).join("ros_msgs.rs"), tokens.to_string())?;
//!
//! // src/msgs.rs ([dependencies] roslibrust = { version = "0.26", features = ["codegen"] })
//! include!(concat!(env!("OUT_DIR"), "/ros_msgs.rs"));
//!
//! /// Move the tool to a pose.
//! #[tool]
//! fn move_to_pose(
//!     /// Where the tool goes, in `base_link`.
//!     target: geometry_msgs::Pose,
//! ) -> sensor_msgs::JointState { .. }
//! ```
//!
//! (examples/src/ros_arm is a whole toolbox; its published tools are in examples/docs/ros_arm.)
//!
//! - What is published is built, once per type, from the message's `.msg` definition, which
//!   roslibrust embeds with its comments and those of every message it uses
//!   (`RosMessageType::DESCRIPTION`): an inline object per message, every field required but
//!   those with a ROS 2 default (`float64 w 1` publishes `default: 1`, inserted when absent),
//!   `additionalProperties: false` (roslibrust's types refuse unknown fields).
//! - Descriptions come from the `.msg` comments: the leading comment block describes the
//!   message, a comment block right above a field or after it on its line describes the field.
//!   A parameter's or field's own doc comment describes it instead. The standard messages'
//!   undescribed fields have descriptions of toolwright's (`X coordinate`), any other field a
//!   generated one (``The `frame_id` of a `std_msgs/Header`.``), so every property has one.
//! - Units follow REP 103 for the standard geometry and sensor messages, as `x-unit` and in the
//!   description: `Point` and `Pose2D` coordinates in m and rad, `Twist` in m/s and rad/s,
//!   `Accel` in m/s² and rad/s², `Wrench` in N and N·m, `Transform.translation` in m, `Time` and
//!   `Duration` in s plus ns (`nanosec` below 10⁹), `Range`, `LaserScan`, `Imu`, `Temperature`,
//!   `FluidPressure`, `Illuminance` and `NavSatFix` in their units. `JointState`'s arrays mix
//!   radians and meters, so they are described, without `x-unit`.
//! - Types: integers with their width as bounds, `float32`/`float64` as numbers, `string<=N`
//!   with `maxLength`, `T[N]` with `minItems` = `maxItems` = N, `T[<=N]` with `maxItems`, and
//!   `uint8`/`byte`/`char` arrays as base64 strings (`contentEncoding: base64`), as roslibrust's
//!   serde reads and writes them. Constants are not published.
//! - A ROS type takes no `#[param]` value constraint (`unit`, `range`, ..: a compile error).
//!   The compile-time nesting check counts a message as one level (it cannot see inside); the
//!   toolbox's build counts its real depth (`JointState` is 3 levels) and refuses an input past
//!   3 levels unless the tool has `allow(deep_nesting)`.
//! - A `geometry_msgs/Quaternion` must have unit norm (its description says so): it is checked
//!   as nalgebra's quaternions are (above), a norm more than 0.001 from 1 refused, naming the
//!   path and the norm.
//! - Version coupling: toolwright reads `roslibrust_common::RosMessageType` 0.26, so your
//!   roslibrust must be 0.26.x (types from another version implement another trait and are not
//!   recognized). ROS 1 message definitions with `time`/`duration` fields are refused when the
//!   toolbox is built, naming the message. r2r's and rclrs's types (which need a ROS
//!   installation to build) are not supported.
//!
//! ## Calls
//!
//! Arguments are validated against the published schema first; all violations come back in one
//! `isError` result naming each path, the expectation with its unit, and the value received. Lax
//! mode (the default; [`ToolboxBuilder::strict`](crate::ToolboxBuilder::strict) turns it off)
//! accepts `"15"` for a number, `5.0` for an integer, `"true"` for a boolean and `null` for an
//! optional argument. The text lists at most 20 problems (each cut at 400 bytes) and counts the
//! rest, so it stays small whatever is sent. An unknown tool is a JSON-RPC error `-32602` naming
//! the available tools. Arguments larger than 1 MiB of JSON (configurable with
//! [`ToolboxBuilder::with_max_argument_bytes`](crate::ToolboxBuilder::with_max_argument_bytes)) are
//! refused with an `isError` result before validation.
//!
//! ## Limits and quotas
//!
//! A limit (`rate_limit = "10/min"` on a tool, `client_rate_limit` on the toolbox or
//! `serve --client-rate-limit`) grants at most that many calls in any window of its period,
//! whatever its start: `4/min` never lets a fifth call through within 60 s, however the calls
//! are spread, and a refused call is told when the oldest call counted leaves the window. (It
//! was a burst of 4 then one every 15 s: 7 calls in a minute, 39 a day for `20/day`.) Up to 64
//! calls a period are counted to the microsecond; a larger limit counts its period in 64 slices,
//! each counted whole while any of it is in the window, so a call may be refused up to one slice
//! early, never let through late. A refusal charges nothing. Stop tools and `describe_tool` are
//! never limited.
//!
//! Who a client is:
//!
//! | served | a client is |
//! |---|---|
//! | HTTP with OAuth | the token's principal: its issuer and `sub`, else its `client_id` (an empty one is none: the token is refused) |
//! | HTTP with `--bearer-token-env` | whoever holds the token: every holder is one client |
//! | HTTP without authentication | the peer's address (an IPv6 address by its /64), whatever sessions it opens; behind a proxy, the proxy's |
//! | stdio, in-process | the one local client |
//!
//! With replicas (`--redis`) the counts are kept in Redis, in one Lua script per call with
//! Redis's clock, so N replicas grant what one would. While Redis does not answer (2 s at
//! most), a call of a tool that is not `read_only` is refused, saying the limits cannot be
//! counted and that nothing was done; a `read_only` tool goes on uncounted (logged at `warn`).
//! Each replica remembers the calls it was granted in the windows still open; when Redis comes
//! back without the counts (restarted without persistence, or flushed), the first replica to
//! notice starts a new epoch, every replica adds its calls back within 250 ms, and limited calls
//! wait the 2 s this takes before they are counted: the counts survive, less the calls of
//! replicas that stopped meanwhile.
//!
//! ## Talking to the client
//!
//! A [`Context`](crate::Context) parameter talks back to the client that made the call:
//!
//! | method | MCP | what happens |
//! |---|---|---|
//! | `ctx.log(level, msg)`, `ctx.debug/info/warning/error(msg)`, `ctx.log_data(level, json)` | `notifications/message` (`logger`: the tool's name) | sent when `level` is at or above the client's level; always emitted as a `tracing` event at the matching level |
//! | `ctx.sample(prompt, max_tokens)` → `Result<String, ClientError>` | `sampling/createMessage` | the text of the client model's answer; `ctx.create_message(params)` sends a whole request and returns the whole answer |
//! | `ctx.elicit::<T>(message)` → `Result<Elicitation<T>, ClientError>` | `elicitation/create` (form) | `Accepted(T)`, `Declined` or `Cancelled`; `ctx.elicit_with_schema(message, schema)` sends a form of your own and returns the content unchecked |
//!
//! **Log levels.** A toolbox declares the `logging` capability and answers `logging/setLevel`,
//! per session: each connection [`Toolbox::serve`](crate::Toolbox::serve) serves and each
//! streamable HTTP session has its own level (clones of a `Toolbox` share one; a stateless HTTP
//! server has no sessions, so a level set there does not last beyond its request). Until the
//! client sets a level, messages at `info` and above are sent. On protocol 2026-07-28, which
//! has no `logging/setLevel`, the level a request carries in
//! `_meta["io.modelcontextprotocol/logLevel"]` applies (it wins on any protocol), and a request
//! without one gets no log messages: logging is opt-in there.
//! [`Context::client_log_level`](crate::Context::client_log_level) says which level reaches
//! the client now.
//!
//! **Elicitation forms.** The form is `T`'s input schema exactly as toolwright publishes it
//! (descriptions with their units, `default`s, `enum`s with their meanings), keeping what an
//! MCP form can state: `type`, `title`, `description`, `default`, `enum`, string
//! `minLength`/`maxLength` and `format` (email, uri, date, date-time), numeric
//! `minimum`/`maximum` (an exclusive bound is stated as the next integer in, or as the bound
//! itself for a number; integer bounds beyond `i64` are clamped), and multi-selects (`Vec` of a unit-only enum). Other keywords (`pattern`,
//! `x-unit`, `examples`, …) are left out, and the accepted content is validated against the
//! full schema (lax, as arguments are, defaults inserted) before it becomes a `T`: an answer
//! that breaks a range or pattern is a [`ClientError::InvalidAnswer`](crate::ClientError)
//! listing each problem. A field a form cannot hold (a nested struct, a list of anything but
//! enum values, a data-carrying enum) is a `ClientError` naming it.
//!
//! **When the client cannot be asked**, sampling and elicitation fail with a
//! [`ClientError`](crate::ClientError) whose message says why, for the model to read (it
//! converts into a `ToolError`, so `?` works): no client (an in-process call:
//! [`Toolbox::call`](crate::Toolbox::call), the CLI's `call`), a client that did not declare
//! the `sampling` or `elicitation` capability (checked before anything is sent), and protocol
//! 2026-07-28 or later, where a server sends no requests to the client while a tool runs. The
//! wait for the answer ends when the call is told to stop (its deadline, or the client
//! cancelling): the request is then cancelled on the client (`notifications/cancelled`) and
//! the body gets `ClientError::Cancelled`. A call without a deadline waits at most
//! [`CLIENT_ANSWER_LIMIT`](crate::CLIENT_ANSWER_LIMIT) (10 minutes), then cancels the request the
//! same way and gets `ClientError::TimedOut`, so a silent client cannot hold a resource's queue.
//! All these methods are `async`: use them from `async` tools.
//!
//! ## Every message answered
//!
//! A message that is not a valid JSON-RPC request gets the error that fits, with its id when one
//! can be read, so a client never waits for its timeout. rmcp drops unparsable stdio lines on
//! purpose (answering garbage can start an error storm between two peers); toolwright serves
//! stdio ([`Toolbox::serve_stdio`](crate::Toolbox::serve_stdio),
//! [`Toolbox::serve_lines`](crate::Toolbox::serve_lines)) with a line transport of its own and
//! answers, looking at a message again only once rmcp's parser refused it:
//!
//! | message | answer |
//! |---|---|
//! | not UTF-8, not JSON, truncated | `-32700`, id null (the request's id when the text is an object whose brackets close and names one: `1e400` in an argument, say) |
//! | nested more than 128 levels | `-32600`, with the id read from its top level |
//! | not an object (a batch, an empty batch, a number) | `-32600`, id null |
//! | no `jsonrpc: "2.0"`, no method, a method that is not a string, an id that is neither a string nor an integer | `-32600`, with the id when usable |
//! | a request whose params its method cannot take (`params: "x"` on `tools/call`) | `-32602` with the id and what did not fit |
//! | a line over the message limit (the argument limit plus 64 KiB: 1.06 MiB by default) | `-32600` with the id, the line scanned and dropped as it streams in, never held whole |
//! | a response (it has `result` or `error`) or a notification | nothing, ever |
//!
//! Error answers are bounded: 20 at once, then 10 a second (the rest are dropped, and counted
//! in a warning). Over HTTP, a body rmcp cannot parse gets `400` with the same JSON-RPC error
//! (`413` with one when it is too large or holds too many values), with authentication on or off.
//! Nothing but JSON-RPC is ever written to stdout.
//!
//! ## Operating a server
//!
//! - **Logs.** `run_cli` installs a `tracing` subscriber on stderr unless the program installed
//!   one: `RUST_LOG` filters it (default `info,rmcp=warn`), `--log-format json` writes one JSON
//!   object a line. At the default level it shows the start-up line (transport, address,
//!   authentication, protocol revisions), refusals (arguments, size, rate limits, read-only),
//!   stops, safe stops and confirmations, and audit failures; a safe stop that failed or did not
//!   finish (its resource is in an unknown state) is logged at `error`.
//! - **The audit log** (`serve --audit-log PATH`, [`crate::audit`]). What `audit verify PATH`
//!   proves depends on what it is given, and it prints which:
//!   - *no key, no head*: the file is consistent (every line whole, in its canonical form,
//!     hashing to the next line's `prev`). Whoever can write the file can rewrite any line and
//!     recompute every hash after it, or cut lines from its end, and the log still verifies;
//!   - *with the key* (`serve --audit-key-env VAR` from the log's first line; `audit verify
//!     --key-env VAR`): every line carries a valid HMAC-SHA-256 under it, so no line was
//!     altered, inserted, removed or reordered before the last one by anyone without the key;
//!     lines cut from the end still leave a valid log;
//!   - *with a head* (`--head SEQ:HASH`, `--head-file PATH`): the log still holds that line, so
//!     nothing up to it was cut or rewritten. The server anchors its head outside the file: in
//!     its log at `info` (`audit head`) every 64 lines and when it stops, on every call's span
//!     (`toolwright.audit.hash`), and with `--audit-head-file PATH` in a second file after every
//!     line.
//!
//!   An approval's line (`"confirmation": "accepted"`) carries the SHA-256 of the question the
//!   person was shown and the id of the elicitation or round that answered it; a line that says
//!   `accepted` without them does not verify. Arguments are recorded exactly as sent, with what
//!   validation filled in under `defaults`.
//! - **The door.** Every HTTP connection is fresh (its request's headers not all in),
//!   receiving (its body coming), busy (its request handed on and answered or streamed) or idle.
//!   At the cap (`--max-connections`, 256) a new connection gets in and the connection waiting
//!   longest without a request in flight is closed: first those not authenticated (a connection
//!   accepted less than 250 ms ago only once no older one is left), the idle authenticated ones
//!   last; a busy one never. One address holds at most `--max-connections-per-peer` (64)
//!   connections that are not busy, closing its own oldest; with a token or OAuth, connections
//!   not yet authenticated hold at most three quarters of the slots. A new connection's header
//!   deadline shortens from the header timeout to 1 s as connections without a request in flight
//!   fill more than half the slots. When every slot is busy, 16 reserve connections
//!   ([`STOP_RESERVE`](crate::STOP_RESERVE)) serve a stop tool's call (and a new session's
//!   `initialize` and `notifications/initialized`) and answer anything else `503` with
//!   `Connection: close`: a stop is never refused for capacity. A body of 8 KiB or less is read
//!   without waiting for one of the 64 places of the bodies read at once. Calls of tools that
//!   ask for confirmation are counted from when they are read until their answer has been sent:
//!   16 a session and 64 a client (`--max-pending-confirmations`); one more is answered at once
//!   with an `isError` saying nothing ran. A confirmation asked on a call's event stream
//!   (protocol 2025-11-25) and not answered within `--confirmation-timeout` (2 min) is answered
//!   as dismissed: the call says nothing ran, and its stream ends.
//! - **Health.** `serve --http` answers `GET /healthz` (`200` while the process serves) and
//!   `GET /readyz` (`200` when ready; `503` with the reason while Redis does not answer or while
//!   stopping), without authentication and saying nothing but the status.
//! - **OpenTelemetry** (feature `otel`). `serve --otlp-endpoint URL` (else
//!   `OTEL_EXPORTER_OTLP_ENDPOINT`; `OTEL_SDK_DISABLED=true` turns it off) exports a span for
//!   every request the toolbox answers (`tools/call`, `tools/list`, `initialize`, `ping`, the
//!   task, skill and resource requests), and the histograms `mcp.server.operation.duration`
//!   and `mcp.server.session.duration`, over OTLP/HTTP with protobuf, as OpenTelemetry's
//!   semantic conventions for MCP name them: span `tools/call move_arm_to_pose` of kind SERVER
//!   with `mcp.method.name`, `gen_ai.tool.name`, `gen_ai.operation.name` (`execute_tool`),
//!   `jsonrpc.request.id`, `mcp.protocol.version`, `mcp.session.id` (HTTP sessions only),
//!   `network.transport` (`pipe`, `tcp`), `client.address` and `client.port`, and on failure
//!   `error.type` (the JSON-RPC code, or `tool_error` for an `isError` result) and
//!   `rpc.response.status_code`.
//!
//!   What the call did is in toolwright's own attributes on the same span:
//!   `toolwright.outcome` (the audit's word: `ok`, `outside_envelope`, `check_refused`,
//!   `not_confirmed`, `timeout`, `stopped`, `client_gone`, …), `toolwright.resource`,
//!   `toolwright.queue.wait_s` (how long it waited for its turn), `toolwright.confirmation`
//!   (the user's answer), `toolwright.safe_stop.ran` and `toolwright.safe_stop.report` (what the
//!   safe stop said), and `toolwright.audit.hash` (its audit line's hash). The call's arguments
//!   and result (`gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`, each cut to 8 KB) are
//!   added only with `serve --otel-capture-content` (or
//!   `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`). The `tracing` spans a tool's
//!   body makes (`#[tracing::instrument]`) are exported as children of the call's span, also
//!   after the call became a task and its request was answered; toolwright's own spans stay
//!   log lines.
//!
//!   A `traceparent` in the request's `_meta` is the span's parent, an HTTP `traceparent`
//!   header a link, and the span's W3C trace id is the one the result's `_meta`
//!   (`io.toolwright/traceId`) and the audit line carry. HTTP requests the guard refuses
//!   before MCP reads them (authentication, Origin, limits) are logged and counted
//!   (`toolwright.http.refused`, by status), not spanned. `--otel-mode propagation-only`
//!   keeps the trace context and exports nothing; `off` makes no span. Spans leave through a
//!   bounded queue (2,048) drained by a thread of its own: a call never waits for the exporter,
//!   and a span that finds the queue full is dropped and counted. What is queued is exported
//!   when `serve` ends, after SIGTERM or SIGINT too. Without an endpoint (or the feature) no
//!   span is made. A program serving without `run_cli` uses `toolwright::Telemetry::install`
//!   (feature `otel`).
//!
//!   ```sh
//!   cargo run --release --example robot_arm --features otel -- serve --http 127.0.0.1:8080 \
//!       --otlp-endpoint http://127.0.0.1:4318     # or OTEL_EXPORTER_OTLP_ENDPOINT
//!   ```
//!
//!   Without an endpoint a call pays nothing measurable for the feature (BENCHMARKS.md). The
//!   OpenTelemetry conventions the tests hold these names to are vendored in `tests/semconv/`.
//!
//! ## The toolbox builder
//!
//! `tools![grasp]` (free functions) and [`Toolbox::builder(state)`](crate::Toolbox::builder) (a
//! `#[toolbox]` type) give a [`ToolboxBuilder`](crate::ToolboxBuilder): its settings
//! (`with_title`, `with_describe_tool`, `with_max_waiting`, …) come first, in any order, then
//! `build()` returns the [`Toolbox`](crate::Toolbox), frozen and cheap to clone, or a
//! [`BuildError`](crate::BuildError). A setting given to a built toolbox does not compile.
//! `run_cli_main()` in place of `build()` gives the server its whole command line (`serve`,
//! `tools`, `call`, `export`, `check`; see *The command line*), the flags of `serve` applied as
//! settings before it builds, on the tokio runtime the transport serves best (one thread over
//! stdio, a worker per core over HTTP); in an `async fn main` of your own,
//! `std::process::exit(tools![grasp].run_cli().await)`. To serve without a command line:
//! `tools![grasp].build()?.serve_stdio().await?`.
//!
//! ### Migrating from 0.x
//!
//! A `Toolbox` used to be its own builder: its `with_*` methods panicked once it had been cloned or
//! served, `with_max_waiting` had to come after the tools, and `serve --client-rate-limit` panicked
//! on a toolbox composed with a handler of your own. Now a `ToolboxBuilder` takes every setting and
//! `build()` applies them together; what panicked is a compile error or a `BuildError`
//! (`Tools { problems }` for tools that cannot be published, `UnknownResource` for
//! `with_max_waiting` naming a resource no tool uses, `InvalidSkill` for a `with_skill` name or
//! description the format refuses).
//!
//! | before | after |
//! |---|---|
//! | `Toolbox::new(state).with_title("Arm")` | `Toolbox::builder(state).with_title("Arm").build()?` |
//! | `Toolbox::new(state)`, `Toolbox::from_tools(state, defs)` | unchanged: the defaults, built |
//! | `tools![a, b]` (a `Toolbox`) | `tools![a, b]` (a `ToolboxBuilder`), then `.build()?` |
//! | `Toolbox::from_tools(state, defs).with_describe_tool()` | `ToolboxBuilder::new(state).with_tools(defs).with_describe_tool().build()?` |
//! | `toolbox.run().await`, `toolbox.run_with(args)` | `builder.run_cli().await`, `builder.run_cli_from(args)` |
//! | `toolbox.with_handler(make).run()` | `builder.with_handler(make).run_cli()` |
//! | `toolbox.with_handler(make).serve_stdio()` | `builder.with_handler(make).build()?.serve_stdio()` |
//! | `toolbox.with_confirmation(false)` on a toolbox serving | `toolbox.set_confirmation(false)` |
//! | `BuildError { problems }` | `BuildError::Tools { problems }` |
//!
//! ```rust,no_run
//! use toolwright::{Toolbox, tool, toolbox};
//!
//! #[derive(Default)]
//! struct Arm;
//!
//! #[toolbox(resource(name = "arm"))]
//! impl Arm {
//!     /// Move the arm home.
//!     #[tool(idempotent, resource = "arm", confirm = "Move the arm home?")]
//!     fn home(&self) -> String {
//!         "home".into()
//!     }
//! }
//!
//! #[tokio::main(flavor = "current_thread")]
//! async fn main() {
//!     // Before: Toolbox::new(Arm).with_describe_tool().with_max_waiting("arm", 4).run().await
//!     let server = Toolbox::builder(Arm)
//!         .with_max_waiting("arm", 4) // before or after the tools alike
//!         .with_describe_tool();
//!     std::process::exit(server.run_cli().await);
//! }
//! ```
//!
//! ## The command line
//!
//! Every toolbox gets the same command line (feature `cli`, on by default): `serve` (stdio or
//! streamable HTTP), `tools`, `call`, `export`, `check` and `audit verify`. A server's `main` is one
//! line, `std::process::exit(builder.run_cli_main())`, or in an `async fn main` of your own
//! `std::process::exit(builder.run_cli().await)`; `--help` on any command lists its flags
//! (`cargo run --example robot_arm -- --help`).
//!
//! It runs on a [`ToolboxBuilder`](crate::ToolboxBuilder): the flags of `serve` and `call` are
//! settings of the builder (`--client-rate-limit` is
//! [`ToolboxBuilder::with_client_rate_limit`](crate::ToolboxBuilder::with_client_rate_limit), …),
//! given after the server's own, and then the toolbox is built. A toolbox that cannot be built
//! ([`BuildError`](crate::BuildError)) makes every command but `audit verify` print why and exit
//! with 1.
//!
//! | command | what it does | exit code |
//! |---|---|---|
//! | `serve` (default) | MCP over stdio; with a terminal on stdin, a short banner on stderr first; the client's calls stop when stdin closes | 0 when the client disconnects, or on `SIGTERM`/`SIGINT` once the calls in flight were stopped and their safe stops ran |
//! | `serve --http 127.0.0.1:8080` | MCP streamable HTTP at `http://127.0.0.1:8080/mcp` | runs until stopped; 0 on `SIGTERM`/`SIGINT`, once the calls in flight were stopped and their safe stops ran |
//! | `serve --http 0.0.0.0:8080 --allowed-host arm.lab.example --bearer-token-env ARM_TOKEN` | the same on the network, with a token (or `--oauth-issuer URL --oauth-resource URL`); without authentication a non-loopback address is refused | 1 when refused |
//! | `serve --http 127.0.0.1:8101 --redis redis://127.0.0.1:6379/0` | one of several replicas: sessions and rate limits shared through Redis (feature `redis`) | runs until stopped |
//! | `serve --http … --request-state-keys /etc/arm/state-keys` | the keys that seal `requestState` on protocol 2026-07-28, the same file on every replica | |
//! | `serve --request-state-ttl 2min` | how long a `requestState` is good for (default 10min): how long a user has to answer, a confirmation included | |
//! | `serve --read-only` | serves only the tools declared `read_only`; a call to another is refused | |
//! | `serve --http … --resume-window 500ms` | how long a call holding a resource with a safe stop waits for its client to resume its dropped event stream (protocol 2025-11-25; default 2s) before it is stopped | |
//! | `serve --confirm=off` | tools declared with `confirm` run without asking (a simulation, a test rig); `on` by default | |
//! | `serve --groups arm,sensors` | only these tool groups (and tools without a group) | |
//! | `serve --envelope /etc/arm/envelope.json` | narrows the declared envelopes (more allow shapes and keep-outs, a shorter `maxStep`, a larger tool radius; by resource, in the published unit and frame); published in `tools/list` | 1 when the file would widen an envelope, names an unknown resource, or is not an envelope |
//! | `serve --audit-log /var/log/arm/audit.jsonl [--audit-key-env VAR] [--audit-head-file PATH]` | one JSON line per call of a tool that is not `read_only` (arguments as sent, caller, the confirmation with the question shown, outcome), hash-chained (HMAC-SHA-256 with a key), fsynced before the answer, its head anchored in the second file ([`crate::audit`]); an existing log is verified and continued | 1 when the log does not verify, is keyed otherwise than the key given, or cannot be opened |
//! | `serve --otlp-endpoint http://127.0.0.1:4318` (feature `otel`) | exports a span per request and the duration histograms over OTLP/HTTP, as OpenTelemetry's conventions for MCP name them (else `OTEL_EXPORTER_OTLP_ENDPOINT`; `OTEL_SDK_DISABLED=true` turns it off); `--otel-mode propagation-only` keeps the trace context without exporting, `off` makes no span; `--otel-capture-content` adds each call's arguments and result | |
//! | `--log-format json` (any command) | log lines on stderr as one JSON object each (`text` by default); `RUST_LOG` filters them (default `info,rmcp=warn`) | |
//! | `audit verify PATH [--key-env VAR] [--head SEQ:HASH \| --head-file PATH]` | checks an audit log (its chain; with the key, every line's HMAC; with a head anchored outside it, that nothing was cut) and prints what that proves and what it does not | 0 verified, 1 naming the first bad line (a torn last line included) or the missing head, 2 when the log, the key or the head cannot be read |
//! | `tools [--format mcp\|markdown\|openai\|anthropic\|gemini]` | prints exactly what the model sees | 0 |
//! | `call NAME --args '{..}'` | runs one tool in-process and prints the result as the model receives it (no client can be asked there: a tool declared with `confirm` needs `--confirm=off`) | 0, or 1 for an `isError` result, 2 for an unknown tool or malformed JSON |
//! | `export --out DIR` | writes every format into `DIR`, `index.html` (the page people read, one file that fetches nothing) and `llms.txt`, and `SKILL.md` with `references/TOOLS.md` when the toolbox serves a skill | 0 |
//! | `check --against DIR` | the drift gate against an export (every file `export` writes) | see below |
//! | `check --clients [--server-name arm]` | what each client would refuse ([`crate::export::clients`]): Claude Code, VS Code Copilot, Cursor, the Python SDK 2.x against `tools/list`; the Anthropic, OpenAI strict and Gemini APIs against their exports | see below |
//!
//! `check`'s exit codes (also in `check --help`):
//!
//! | code | meaning |
//! |---|---|
//! | 0 | nothing to report |
//! | 1 | breaking drift |
//! | 2 | only compatible drift |
//! | 3 | some client refuses a tool |
//! | 4 | cannot read the export, or bad usage |
//!
//! With both `--against` and `--clients`, both are reported, and the exit code is the first that
//! applies in the order 4, 1, 3, 2. `--server-name NAME` is the name users give the server in their
//! client's configuration, which Claude Code, VS Code and Cursor count in their tool-name budgets
//! (default: the toolbox's title, else the program's name).
//!
//! An MCP client that launches stdio servers (Claude Desktop, VS Code, Cursor, …) runs the robot
//! arm with:
//!
//! ```json
//! {
//!   "mcpServers": {
//!     "robot-arm": {
//!       "command": "cargo",
//!       "args": ["run", "--quiet", "--example", "robot_arm", "--manifest-path", "/path/to/toolwright/Cargo.toml"],
//!       "env": { "ROBOT_ARM_TIME_SCALE": "1.0" }
//!     }
//!   }
//! }
//! ```
//!
//! ## Composing with rmcp
//!
//! A [`Toolbox`](crate::Toolbox) implements rmcp's `ServerHandler` (serve it over stdio,
//! streamable HTTP or any transport). For resources, prompts and completion, write them with rmcp
//! in a handler of your own that delegates the tools
//! ([`delegate_tools!(tools)`](crate::delegate_tools)) and serve it with
//! `builder.with_handler(|tools| MyServer { tools })`
//! ([`ToolboxBuilder::with_handler`](crate::ToolboxBuilder::with_handler)): validation, policy,
//! groups and `describe_tool` stay. The tool list and the validators are built once, never per
//! request. Serve over stdio or streamable HTTP
//! ([`Toolbox::serve_http`](crate::Toolbox::serve_http)), with tool groups that can be enabled at
//! run time (`notifications/tools/list_changed`) and an opt-in `describe_tool` (which names only
//! the tools served: under `--read-only` or `--groups` the hidden ones are not in its enum). The
//! official MCP conformance suite runs in CI against `examples/examples/conformance.rs`, built
//! this way.
//!
//! ## Both protocol revisions
//!
//! A toolbox serves MCP 2025-11-25 (an `initialize` handshake, sessions; what most deployed
//! clients speak) and 2026-07-28 (stateless: `server/discover`, version and capabilities in each
//! request's `_meta`; what the Python SDK 2.x and the TypeScript SDK v2 speak by default) from the
//! same tools, over stdio and HTTP. The official conformance suite's frozen requirement sets for
//! both run in CI (`.ci/run`).
//!
//! What a tool author must know is how a body that asks its client resumes. On 2025-11-25,
//! `ctx.elicit::<Form>(..)`, `ctx.sample(..)` and `ctx.list_roots()` send a request to the client
//! and wait. On 2026-07-28 a server sends no requests: a question ends the call's *round*, the client
//! gets it in an `input_required` result with a sealed `requestState`, and calls again with its
//! answers. toolwright then **runs the body again from its start**, and each question returns the
//! answer the client gave it (multi-round-trip requests, SEP-2322). The same code serves both, with
//! three rules:
//!
//! - **Ask before you act.** What a body does before its question runs again in every round. When a
//!   round ends the body is dropped where it asked and, if the tool holds resources, their safe
//!   stops run (as for any call that ends early), so the device is left in a known state.
//! - **Ask the same questions in the same order.** Answers are matched to questions by kind and
//!   order (the key of a typed form is its type's name in snake case: `Grip` → `grip`, a second
//!   one `grip_2`); a question whose content changed since it was answered is asked again.
//! - **Nothing is kept between rounds.** The answers of earlier rounds travel in the `requestState`,
//!   sealed with HMAC-SHA256 over the tool, the validated arguments and the authenticated
//!   principal, with an expiry (10 minutes). A state that was altered, expired, or sealed for
//!   another tool, other arguments, another client or with another key is refused with a JSON-RPC
//!   error (`-32602`), and nothing runs.
//!
//! So any replica can serve the next round, provided the replicas share the sealing keys: by
//! default each process makes a random key, enough for one process. For replicas, give each the
//! same key file (`ID BASE64KEY` per line, 32 bytes or more; the first key seals, all open, so a
//! new key goes first and the old one stays until its states expire):
//!
//! ```sh
//! printf 'k2026-12 %s\n' "$(openssl rand -base64 32)" > /etc/arm/state-keys   # mode 0600
//! cargo run --release --example robot_arm -- serve --http 127.0.0.1:8080 \
//!     --request-state-keys /etc/arm/state-keys
//! ```
//!
//! or `.with_request_state_keys(RequestStateKeys::from_file(path)?)` on the builder in code
//! ([`RequestStateKeys`](crate::RequestStateKeys)).
//!
//! ## Serving over a network
//!
//! On loopback (`serve --http 127.0.0.1:8080`) nothing needs configuring. Anywhere else, a
//! toolwright server refuses to start without authentication, and checks `Host` and `Origin` on
//! every request. A complete setup for a robot on a lab network, with a token:
//!
//! ```sh
//! export ARM_TOKEN=$(openssl rand -hex 32)       # give it to the clients; never on a command line
//! cargo run --release --example robot_arm -- serve --http 0.0.0.0:8080 \
//!     --bearer-token-env ARM_TOKEN \
//!     --allowed-host arm.lab.example --allowed-host 10.0.4.17 \
//!     --client-rate-limit 120/min
//! ```
//!
//! Clients send `Authorization: Bearer $ARM_TOKEN` to `http://arm.lab.example:8080/mcp` (put a
//! TLS-terminating proxy in front for anything beyond a closed lab network). With an OAuth 2.1
//! authorization server instead (the MCP authorization spec: this server is the resource server):
//!
//! ```sh
//! cargo run --release --example robot_arm -- serve --http 0.0.0.0:8080 \
//!     --oauth-issuer https://auth.lab.example \
//!     --oauth-resource https://arm.lab.example/mcp \
//!     --allowed-host arm.lab.example
//! ```
//!
//! It publishes its Protected Resource Metadata at
//! `/.well-known/oauth-protected-resource/mcp`, answers `401` with `WWW-Authenticate: Bearer
//! resource_metadata="…"` (MCP clients discover the authorization server from it), accepts JWT access
//! tokens signed with the issuer's published keys (fetched and cached; a rotated key is picked up)
//! whose `iss` is the issuer, whose `aud` is the resource URI and that are current, and checks each
//! tool's scopes: `#[tool(scopes = ["arm:move"])]` on `move_arm_to_pose`, so a token with only
//! `arm:read` gets `403` with `WWW-Authenticate: Bearer error="insufficient_scope", scope="arm:move"`
//! there and still reads the arm's state. Scopes are published in each tool's `_meta` and in
//! `TOOLS.md`.
//!
//! A signature that does not verify with the cached key of its `kid`, or a `kid` the cache lacks,
//! has the issuer's keys fetched again before the token is decided (at most one fetch a second,
//! however many tokens ask), so a new key under a reused `kid` works at once; the `jwks_uri` the
//! issuer's metadata names is cached, and must be `https` (plain `http` only on loopback), like
//! `--oauth-jwks-uri`. What a client chose (a `kid`, a tool name, an event id) is echoed in errors,
//! headers and logs cut to 64 bytes, with its length: `` `kkkk…` (200000 bytes) ``.
//!
//! ### Who owns a session
//!
//! The caller is its *principal*, defined once (`runtime/src/http/principal.rs`) and used for
//! everything that remembers a caller: with OAuth, the token's issuer and its subject (`sub`), or
//! its `client_id` when it has no subject (`https://auth.lab.example#sub:alice`); with a bearer
//! token, whoever holds it (one principal); without authentication, nobody. A token naming
//! neither `sub` nor `client_id` (or an empty one) is refused. Each MCP session (protocol lines before 2026-07-28)
//! belongs to the principal whose `initialize` created it: its requests, its event stream
//! (`GET`), its resumption (`Last-Event-ID`) and its end (`DELETE`) answer that principal only.
//! Any other gets `404 Not Found: Session not found`, the answer to a session that does not exist
//! (a `DELETE` of an unknown session is `404` too), and the session is undisturbed. With replicas
//! (`--redis`), the owner is stored with the session and every replica checks it before restoring
//! the session. Per-client rate limits count per principal; without authentication, per
//! client address (an IPv6 address by its /64), whatever session a client opens (see *Limits and
//! quotas*). A token's `scope` is split on spaces (U+0020) only, as RFC 6749 says:
//! `"arm:read\u00a0arm:move"` is one scope, and grants neither.
//!
//! ### Limits at the door
//!
//! What every HTTP server gets, with its default (each has a flag and an
//! [`HttpOptions`](crate::HttpOptions) method):
//!
//! | limit | default | past it |
//! |---|---|---|
//! | `Host` | loopback names, the bound address, `--allowed-host` (required on `0.0.0.0`) | `403` |
//! | `Origin` (browsers) | loopback origins, `--allowed-origin` | `403` |
//! | request body | the argument limit + 64 KiB (1.06 MiB) | `413`, before it is read further |
//! | JSON values in a body | 20,000, counted before parsing | `413` |
//! | bodies read and parsed at once | 64 (a body of 8 KiB or less, a stop's say, never waits) | wait |
//! | headers / body / first byte / silence | 10 s / 30 s / 10 s / 60 s; the header and first-byte deadline of a new connection shortens to 1 s as connections without a request in flight fill the slots | connection closed |
//! | open connections (`--max-connections`) | 256; with a token or OAuth, connections not yet authenticated hold at most 192 | the newcomer gets in: the connection waiting longest without a request in flight is closed (unauthenticated ones first, one younger than 250 ms only after every older one, authenticated ones last) |
//! | connections one address holds without a request in flight (`--max-connections-per-peer`) | 64 | its own oldest is closed |
//! | when every slot is busy ([`STOP_RESERVE`](crate::STOP_RESERVE)) | 16 reserve connections | serve only a stop tool's call (and a new session's `initialize`); anything else `503` with `Retry-After` |
//! | calls waiting for their user's confirmation (`--max-pending-confirmations`) | 16 a session, 64 a client | an `isError` at once: nothing ran |
//! | a confirmation unanswered (`--confirmation-timeout`) | 2 min | answered as dismissed: the call says nothing ran |
//! | a dropped event stream of a call holding a resource with a safe stop, not resumed (`Last-Event-ID`, protocol 2025-11-25; `--resume-window`, `HttpOptions::resume_window`) | 2 s | the call is stopped as its client gone: grace period (at most 2 s), then the safe stop |
//! | MCP sessions | 256; a session that does not complete its handshake in 10 s is closed, and may not call tools before | `503` with `Retry-After` |
//! | calls per client (`--client-rate-limit`, `#[toolbox(client_rate_limit)]`) and per tool per client (`#[tool(rate_limit = "10/min")]`): at most that many in any window of the period (`4/min`: never a fifth within 60 s, however spread) | none | a retryable `isError` with the wait (`_meta["io.toolwright/retryAfterMs"]`); `describe_tool` and stop tools are exempt; over stdio too |
//!
//! Measured (tests/tests/http_security.rs): 32 bodies of 3.98 MiB sent at once grow the server's
//! peak resident size by about 5 MiB (the bound the test holds it to: 48 MiB). A flood at the
//! door does not keep a stop out: with 300 half-open connections held and refilled by a client
//! without a token (with a token required, and without one on loopback from the stop's own
//! address), or 300 calls left waiting for a confirmation, a fresh client's `stop_arm` is answered
//! and the arm halts (tests/tests/flood.rs; its time, under 100 ms, is pinned by
//! `cargo bench -p toolwright-tests --bench stop_under_flood`, BENCHMARKS.md). A stop needs no
//! session on protocol 2026-07-28: one request.
//!
//! ### Replicas
//!
//! A toolbox whose tools touch no device (no `resource = ".."`) can run as several processes
//! behind a load balancer, sharing what the replicas must agree on through Redis (build with the
//! `redis` feature of `toolwright`): the HTTP sessions of clients on protocol lines before
//! 2026-07-28 (a session created on one replica is restored on another; clients on 2026-07-28 need
//! none), the rate limits and quotas (counted atomically in Redis, so three replicas grant what
//! one would), and the tasks (any replica answers `tasks/get`, and passes `tasks/cancel` and
//! `tasks/update` on to the replica that runs the task, through a Redis channel of its own: a
//! cancel runs the task's safe stop where it runs, and one that cannot reach that replica is an
//! error saying so, never a silent success). Without `--redis` everything stays in the process.
//!
//! While Redis does not answer, a limited tool that changes the world is refused (`its rate limits
//! are counted in the store this server's replicas share (Redis), which does not answer now`), a
//! read-only one runs uncounted (logged), and `/readyz` says `503`. When Redis comes back empty
//! (`--save "" --appendonly no` keeps nothing), each replica adds back the calls it was granted in
//! the windows still open, under a new *epoch*, and limited calls wait up to 2 s while every
//! replica does: the counts are what they were, less the calls of replicas that stopped meanwhile
//! (with Redis persistence on, nothing is lost). Deleting Redis's keys does not reset the limits
//! while the replicas run: restart them with it. Resource queues are never shared:
//! a device is owned by one process, so a toolbox with resources must run as one replica (the CLI
//! warns when given `--redis`). The configuration `tests/interop/python/test_replicas.py` runs,
//! with the `parts_catalog` example (read-only tools; `request_quote` has a quota of 20 a day per
//! client):
//!
//! ```sh
//! redis-server --port 6379 --save "" --appendonly no &
//! for port in 8101 8102 8103; do
//!     cargo run --release --example parts_catalog -- serve --http 127.0.0.1:$port \
//!         --redis redis://127.0.0.1:6379/0 &
//! done
//! haproxy -f haproxy.cfg      # clients connect to http://127.0.0.1:8100/mcp
//! ```
//!
//! ```text
//! global
//!     maxconn 4000
//! defaults
//!     mode http
//!     timeout connect 2s
//!     timeout client 120s
//!     timeout server 120s
//!     retries 3
//!     option redispatch 1
//!     retry-on conn-failure empty-response
//!     option http-no-delay
//! frontend mcp
//!     bind 127.0.0.1:8100
//!     default_backend replicas
//! backend replicas
//!     balance roundrobin
//!     option httpchk GET /readyz
//!     http-check expect status 200
//!     server r0 127.0.0.1:8101 check inter 300ms fall 1 rise 2
//!     server r1 127.0.0.1:8102 check inter 300ms fall 1 rise 2
//!     server r2 127.0.0.1:8103 check inter 300ms fall 1 rise 2
//! ```
//!
//! Each replica answers `GET /healthz` (`200` while the process serves) and `GET /readyz` (`200`
//! when it is ready for requests; `503` with the reason while Redis does not answer, or once it is
//! stopping), without a token and saying nothing but its status: `option httpchk GET /readyz`
//! takes a replica out of the rotation while it cannot serve, and back once it can. Round-robin
//! without stickiness: every request may land on another replica. `option
//! http-no-delay` passes each event of a call's stream on as it comes: without it HAProxy holds
//! small writes back and sends a motion's progress notifications in batches, up to 200 ms late.
//! `retry-on empty-response` makes HAProxy send a request again when a replica dies under it,
//! which is safe for read-only and idempotent tools only; leave it out if any tool is not. A call
//! that was running on a replica when it died is lost: the client's attempt to resume its event
//! stream on another replica is answered `400`, so the SDK fails that call (after its retries) and
//! the caller can send it again, rather than waiting on an empty stream. On a network, add the
//! authentication of *Serving over a network* to each replica: limits then count per authenticated
//! client (without authentication they count per client address, and behind a proxy every client
//! has the proxy's: one quota for all). `--stateless` serves older clients without sessions too. Measured in the test (50
//! clients of the Python SDK, 10,000 calls, one replica killed mid-run): BENCHMARKS.md.
//!
//! ## Deploying an arm safely
//!
//! A tool call may have been written by a prompt injection in a page the model read. These keep
//! the arm from moving unless someone meant it, and leave a record:
//!
//! - **Confirmation, bound to the exact motion.** `#[tool(confirm = "Move the arm to ({x}, {y},
//!   {z}) at {speed} of full speed?")]`: before the body runs, the user is asked, with the
//!   placeholders (checked at compile time against the parameters) filled in from the validated
//!   arguments and their units. Elicitation on 2025-11-25; on 2026-07-28 an `input_required` round
//!   whose `requestState` binds the approval to the tool, the canonical arguments, the
//!   authenticated client and an expiry (`--request-state-ttl`, 10 min by default): it runs one
//!   call, and is refused for any other arguments, a second time, or late. Replicas sharing
//!   `--redis` (and `--request-state-keys`) share the record of used approvals, so a replay on
//!   another replica is refused too, and so is any approval asked before Redis restarted (an
//!   approval counts only while Redis holds its question, written when it was asked); if Redis
//!   fails, nothing runs. Without Redis, approvals asked before the process started are refused.
//!   Declined, dismissed, or a client that cannot be asked: an `isError` saying nothing ran and
//!   how to get it to run. On by default; `--confirm=off` (`.with_confirmation(false)` on the
//!   builder) for a simulation or a test rig.
//! - **Every motion asks, or says why not.** A tool that holds a resource, is not `read_only` and
//!   is no stop tool declares its question, or why no one needs to confirm it
//!   (`#[tool(confirm = false, because = "the gripper is limited to 5 N")]`, published): leaving
//!   both out is a compile error on the tool's name. One tool, one job: the arm's
//!   `plan_trajectory` checks a path and never moves; `follow_trajectory` moves along it, asking
//!   first with what will happen ("Move the arm along [..] at 0.5 of full speed (3 waypoints,
//!   640 mm in all, about 2.6 s)?", the `{check}` of its check). `TOOLS.md`, `SKILL.md` and the
//!   page list per resource which tools change it after asking, which without asking and why,
//!   which only read it, and which stop it; `check --against` reports a confirmation removed as
//!   breaking.
//! - **Only a question the server asked can be approved, and it shows what the model wrote as
//!   quoted text.** An answer (`inputResponses`) counts only with the sealed `requestState` of the
//!   question it answers; anything else is ignored (logged) and the user is asked. A request's
//!   protocol revision is its session's: a 2025-11-25 session takes no 2026-07-28 approval. A
//!   string argument appears in the question in quotes, on one line, its line breaks, control and
//!   bidirectional-override characters shown escaped, cut at 200 characters with its length;
//!   booleans read yes/no.
//! - **A stop that always gets through.** `#[tool(stop_for = "arm")]` on `stop_arm`: never queued
//!   behind the motions it stops, never rate-limited, never confirmed. Each call refuses every
//!   motion waiting for the arm ("cancelled by `stop_arm`: `move_arm_to_pose` was waiting for its
//!   turn and did not run, and `arm` did not move for it"), runs the arm's safe stop itself, and
//!   stops the moving one (its grace period; the stop's safe stop is its safe stop, which does not
//!   run twice), whose answer is an `isError` naming `stop_arm` whatever its body returned. An
//!   approval given before the stop no longer counts: the user is asked again. With 16 motions
//!   waiting and the client over its rate limit it answers in milliseconds
//!   (`tests/tests/robot_arm.rs`). At the HTTP door too: a flood of half-open connections or of
//!   calls left waiting for a confirmation cannot keep it out (connections without a request in
//!   flight are closed to make room, oldest first; 16 reserve connections serve only a stop tool
//!   when every other one is busy; calls waiting for confirmation are bounded per session and per
//!   client, and answered as dismissed after 2 min), and the stop is answered in under 100 ms
//!   through it (`tests/tests/flood.rs`, BENCHMARKS.md). With replicas, a task's `tasks/cancel`
//!   reaches the replica that runs it, where its safe stop runs.
//! - **Limits that fail closed.** A rate limit or quota (`rate_limit = "20/day"`,
//!   `--client-rate-limit`) allows at most that many calls in any window of its period. Shared
//!   through Redis, a tool that changes the world is refused while Redis does not answer (the
//!   refusal says so; a read-only tool goes on uncounted, logged), and the counts survive a
//!   restart of Redis (each replica adds back the calls it was granted).
//! - **Results that never ask for a second motion.** A `jmespath` projection that cannot apply to
//!   the tool's output schema (`abs(segments)` where `segments` is a list) is refused before the
//!   call runs; one that fails on the result of a tool that is not read-only answers the tool's
//!   own result with the error beside it, and says not to call again.
//! - **Read-only for a model that should only look.** `serve --read-only`
//!   (`.with_read_only(true)` on the builder) lists and runs only the tools declared `read_only`; a
//!   call to any other is refused, saying the server is read-only.
//! - **Who may act.** OAuth scopes per tool (`scopes = ["arm:move"]` on the motions, `arm:read` on
//!   the reads): an observer's token cannot move the arm even on a full server.
//! - **A record that proves what it says.** `--audit-log PATH --audit-key-env ARM_AUDIT_KEY
//!   --audit-head-file /mnt/anchor/arm-heads.jsonl` writes a keyed, fsynced receipt of every call
//!   that is not read-only: who (the token's principal), what (the arguments as sent), the user's
//!   approval with the question they were shown, how it ended. Keep the key in the service's secret
//!   store (`head -c 32 /dev/urandom | base64`), and the head file where the server's user cannot
//!   rewrite it (another volume, an append-only file, a collector); `audit verify PATH --key-env
//!   ARM_AUDIT_KEY --head-file ..` then proves that no line was altered, inserted or cut (see
//!   *The audit log* under *Operating a server*, and [`crate::audit`]).
//!
//! A lab deployment with them together:
//!
//! ```sh
//! cargo run --release --example robot_arm -- serve --http 0.0.0.0:8080 \
//!     --oauth-issuer https://auth.lab.example --oauth-resource https://arm.lab.example/mcp \
//!     --allowed-host arm.lab.example --client-rate-limit 120/min --request-state-ttl 2min \
//!     --audit-log /var/log/arm/audit.jsonl --audit-key-env ARM_AUDIT_KEY \
//!     --audit-head-file /mnt/anchor/arm-heads.jsonl
//! ```
//!
//! Add `--read-only` where the model should only observe (a demo, a monitoring agent).
//!
//! ## Works with
//!
//! The clients below drive the robot arm in CI (`.ci/run`), each pinned (`tests/interop/`, with
//! how to run each by hand and how to move it to a newer release). The revision is observed, and
//! checked by the tests: for the first four rows, in the server's log (a client's `initialize`
//! names its revision; a 2026-07-28 client sends none); for the SDKs, in the version each one
//! negotiates. *Motion > 1 s* is `move_arm_to_pose` from home to (-400, 0, 300) in real time
//! (2.8 s); *refusal* is x = 5000, an `isError` result naming the range (`x: must be between -850
//! and 850 mm, got 5000`); *confirmation* is a motion the user is asked about (`#[tool(confirm)]`,
//! on by default) and accepts through the client's elicitation handler.
//!
//! | client | revision | transport | exercised |
//! |---|---|---|---|
//! | MCP Inspector CLI (`@modelcontextprotocol/inspector` 2.12.0 `--cli`, on node 22) | 2025-11-25 (`--protocol-era legacy`, its default) | stdio, HTTP | list (its `--strict` schema check: 0 errors), read, motion > 1 s, refusal; confirmation: it cannot answer, so the motion is refused and nothing moves |
//! | MCP Inspector CLI, same | 2026-07-28 (`--protocol-era modern`) | stdio, HTTP | list (`--strict`), read, motion > 1 s, refusal |
//! | LangChain MCP adapters (`langchain-mcp-adapters` 0.3.2, on `mcp` 1.30.0) | 2025-11-25 | stdio, HTTP | list, convert (every tool; `convert_to_openai_tool` keeps each published `inputSchema`), every tool called over stdio, read, motion > 1 s, refusal, confirmation (accepted; declined over stdio) |
//! | OpenAI Agents SDK (`openai-agents` 0.24.0, on `mcp` 2.3.0) | 2026-07-28 | stdio, HTTP | list, convert (every tool comes out strict with `convert_schemas_to_strict`), every tool called over stdio through its function tools, read, motion > 1 s, refusal; confirmation: it cannot answer, so the motion is refused and nothing moves |
//! | Python MCP SDK 1.x (`mcp` 1.30.0) | 2025-11-25 | stdio, HTTP (OAuth) | list (schemas checked against JSON Schema 2020-12), every tool, refusals, deadlines, cancels, tasks, confirmation (accepted, declined); motions in scaled time |
//! | Python MCP SDK 2.x (`mcp` 2.3.0) | 2026-07-28 (`auto`), 2025-11-25 (`legacy`) | stdio, HTTP | the same but tasks; on 2026-07-28 confirmation through `input_required` rounds |
//! | TypeScript SDK v1 (`@modelcontextprotocol/sdk` 1.32.2) | 2025-11-25 | stdio, HTTP | list (Ajv strict, 2020-12), every tool, refusals, call latency over HTTP; motions in scaled time |
//! | TypeScript SDK v2 (`@modelcontextprotocol/client` 2.4.0) | 2026-07-28 | HTTP (stdio: the conformance example) | confirmation of a motion (accepted, declined) through multi-round-trip requests, call latency over HTTP |
//!
//! Two things to know. The Agents SDK's strict conversion makes every parameter required without
//! making the optional ones nullable, so a model in strict mode must send `speed`, `jmespath` and
//! the like on every call (toolwright's own `openai.json` export makes them nullable instead). The
//! Inspector cannot answer elicitation, and neither can the Agents SDK: serve them with
//! `--confirm=off` only where no one needs to confirm (a simulation, a test rig).

#[cfg(test)]
mod tests {
    /// Every table row of this reference belongs to a table with a header: a run of `| .. |`
    /// lines starts with a header row and its `|---|` line (rustdoc shows a headless run as
    /// text with pipes).
    #[test]
    fn every_table_has_a_header() {
        let text = include_str!("reference.rs");
        let lines: Vec<&str> = text
            .lines()
            .take_while(|l| !l.starts_with("#[cfg(test)]"))
            .collect();
        let mut in_table = false;
        for (i, line) in lines.iter().enumerate() {
            let row = line.starts_with("//! |");
            if row && !in_table {
                let next = lines.get(i + 1).copied().unwrap_or_default();
                assert!(
                    next.starts_with("//! |---"),
                    "line {}: a table row without a header row above it: {line}",
                    i + 1
                );
            }
            in_table = row;
        }
    }

    /// The return types are a section of their own, not a paragraph of "Tasks".
    #[test]
    fn return_types_have_their_section() {
        let text = include_str!("reference.rs");
        let heading = text
            .find("//! ## Return types")
            .expect("a Return types section");
        let paragraph = text
            .find("//! The return type `T` or `Result<T, E>`")
            .expect("the return type paragraph");
        let tasks = text.find("//! ## Tasks").expect("a Tasks section");
        assert!(tasks < heading && heading < paragraph);
        assert!(!text[heading..paragraph].contains("//! ## Tasks"));
    }
}
