//! The `_meta` keys toolwright writes on results and tool definitions, for clients to read.

/// The `_meta` key of an error result that may succeed if the call is made again unchanged
/// (a full queue, a rate limit, a retryable tool error).
pub const RETRYABLE_META: &str = "io.toolwright/retryable";

/// The `_meta` key of a refusal that says how long to wait, in milliseconds (a rate limit).
pub const RETRY_AFTER_META: &str = "io.toolwright/retryAfterMs";

/// The `_meta` key, on a tool definition, of the OAuth scopes calling it over HTTP needs.
pub const SCOPES_META: &str = "io.toolwright/scopes";

/// The `_meta` key, on a tool definition, of the question the user confirms each call with
/// before it runs (`#[tool(confirm = "..")]`, its `{param}` placeholders as declared).
pub const CONFIRM_META: &str = "io.toolwright/confirm";

/// The `_meta` key, on a tool definition, of why no one needs to confirm the calls of a tool
/// that holds a resource and acts (`#[tool(confirm = false, because = "..")]`).
pub const CONFIRM_NOT_NEEDED_META: &str = "io.toolwright/confirmNotNeeded";

/// The `_meta` key, on a tool definition, of the resources its calls hold while they run
/// (`#[tool(resource = "arm")]`): calls holding one run one at a time, and its stop tools stop
/// them.
pub const RESOURCES_META: &str = "io.toolwright/resources";

/// The `_meta` key, on a tool definition, of what its check refuses (`#[tool(check = ..)]`:
/// the check method's doc comment). The check runs before the user is asked and again when the
/// call gets its turn; the same words end the tool's description (`Before it runs: ..`), so the
/// model reads them before it calls.
pub const CHECK_META: &str = "io.toolwright/check";

/// What comes between a tool's own description and its check's doc comment in the published
/// description (the macros count it in the description's budget: `macros/src/check.rs`).
pub(crate) const CHECK_PREFIX: &str = "Before it runs: ";

/// The `_meta` key, on a tool definition, of the resources a stop tool stops
/// (`#[tool(stop_for = "arm")]`): each call of it cancels every call waiting for them and stops
/// the one using them; it is never queued, rate-limited or confirmed.
pub const STOP_FOR_META: &str = "io.toolwright/stopFor";

/// The `_meta` key, on a tool definition, of the arguments toolwright adds to its input schema
/// for the result (`["jmespath", "summary"]`): they never reach the tool's body.
pub const RESULT_ARGUMENTS_META: &str = "io.toolwright/resultArguments";

/// The `_meta` key, on a tool definition, of the content blocks its results carry: `"image"`,
/// `"audio"`, `"resource"`, `"resource_link"` or `"mixed"` (see [`Image`](crate::Image) and the
/// other content types).
pub const CONTENT_META: &str = "io.toolwright/content";

/// The `_meta` key of a result that was cut to its output budget.
pub const TRUNCATED_META: &str = "io.toolwright/truncated";

/// The `_meta` key of a result that carries the call's trace id.
pub const TRACE_ID_META: &str = "io.toolwright/traceId";

/// `_meta` key of a tool that moves a resource within its declared envelope
/// (`#[toolbox(resource(.., envelope(..)))]`, `#[tool(target = ..)]` or `path = ..`): the
/// envelope as checked (after an operator's narrowing), its resource, and which arguments are
/// the target (`target`: JSON pointers to x, y and z) or the path (`path`: the array and the
/// pointers into one of its items).
pub const ENVELOPE_META: &str = "io.toolwright/envelope";

/// `_meta` key of a tool that moves a robot resource (`resource(.., robot(..))`): the robot as
/// its URDF describes it and as it is checked: the source file and its SHA-256, the tip, each
/// moving joint with its enforced range and caps (and where each came from), the JSON pointer
/// to the tool's joint positions (`positions`), and each link's capsules (in the link's frame,
/// in the envelope's unit). See `toolwright::reference`, "Robots".
pub const ROBOT_META: &str = "io.toolwright/robot";
