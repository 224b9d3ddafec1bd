//! The server the official MCP conformance suite (`@modelcontextprotocol/conformance`, server
//! mode) expects, written with toolwright for the tools and with rmcp for the rest of the
//! protocol (resources, resource templates, subscriptions, prompts, completion), merged in one
//! handler that delegates the tools to the toolbox, so they keep everything toolwright adds
//! (validation, policy, `describe_tool`, groups).
//!
//! ```text
//! cargo run --release --example conformance -- serve --http 127.0.0.1:3001
//! npx @modelcontextprotocol/conformance@0.2.0-alpha.12 server \
//!     --url http://127.0.0.1:3001/mcp --requirements 2026-07-28
//! ```
//!
//! One fixture, `json_schema_2020_12_tool`, has an input schema toolwright does not write (a
//! root-level `allOf` and `if`/`then`/`else`, a `$ref` to `$defs` with an `$anchor`): it is
//! served by rmcp directly, so the handler delegates the tools by hand instead of with
//! `delegate_tools!`.
//!
//! `.ci/run` runs the suite against it (see `tests/interop/conformance/`), on both protocol
//! revisions (`--requirements 2025-11-25` and `2026-07-28`).

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use base64::Engine as _;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams, CompleteResult,
    CompletionInfo, ContentBlock, GetPromptRequestParams, GetPromptResponse, GetPromptResult,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, PromptsCapability, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, ResourceContents, ResourcesCapability, ServerConfig,
    SubscribeRequestParams, SubscriptionFilter, Tool, UnsubscribeRequestParams,
};
use rmcp::model::{Prompt, PromptArgument, PromptMessage, Resource, ResourceTemplate, Role};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolwright::{
    Audio, Content, Context, Elicitation, EmbeddedResource, Image, ToolError, ToolSchema, Toolbox,
    ToolboxBuilder, delegate_skills, tool, tools,
};

/// A 1×1 red PNG.
const RED_PIXEL_PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

fn red_pixel() -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(RED_PIXEL_PNG)
        .expect("a valid base64 constant")
}

/// A WAV file of `samples` silent samples (8 kHz, mono, 16-bit PCM).
fn silence_wav(samples: u32) -> Vec<u8> {
    let data_len = samples * 2;
    let mut wav = Vec::with_capacity(44 + data_len as usize);
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + data_len).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes());
    wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1u16.to_le_bytes()); // mono
    wav.extend_from_slice(&8000u32.to_le_bytes()); // sample rate
    wav.extend_from_slice(&16000u32.to_le_bytes()); // byte rate
    wav.extend_from_slice(&2u16.to_le_bytes()); // block align
    wav.extend_from_slice(&16u16.to_le_bytes()); // bits per sample
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&data_len.to_le_bytes());
    wav.resize(44 + data_len as usize, 0);
    wav
}

/// Return a simple text.
#[tool(read_only)]
fn test_simple_text() -> String {
    "This is a simple text response for testing.".to_owned()
}

/// Return an image (a 1×1 red PNG).
#[tool(read_only)]
fn test_image_content() -> Image {
    Image::png(red_pixel())
}

/// Return audio (a tenth of a second of silence, WAV).
#[tool(read_only)]
fn test_audio_content() -> Audio {
    Audio::wav(silence_wav(800))
}

/// Return an embedded text resource.
#[tool(read_only)]
fn test_embedded_resource() -> EmbeddedResource {
    EmbeddedResource::text(
        "test://embedded-resource",
        "This is an embedded resource content.",
    )
}

/// Return text, an image and a resource, in that order.
#[tool(read_only)]
fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        Image::png(red_pixel()).into(),
        EmbeddedResource::text(
            "test://mixed-content-resource",
            json!({"test": "data", "value": 123}).to_string(),
        )
        .with_mime_type("application/json")
        .into(),
    ]
}

/// Report progress three times (0, 50 and 100 of 100), 50 ms apart.
#[tool(read_only)]
async fn test_tool_with_progress(ctx: Context) -> String {
    for (i, progress) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        ctx.progress(progress, Some(100.0), None).await;
    }
    "Progress reported.".to_owned()
}

/// Log three messages at level info, 50 ms apart.
#[tool(read_only)]
async fn test_tool_with_logging(ctx: Context) -> String {
    ctx.info("Tool execution started").await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.info("Tool processing data").await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.info("Tool execution completed").await;
    "Logged three messages.".to_owned()
}

/// Ask the client's model to answer a prompt.
#[tool(read_only)]
async fn test_sampling(
    /// What to ask the model.
    #[param(min_length = 1, max_length = 1000)]
    prompt: String,
    ctx: Context,
) -> Result<String, ToolError> {
    let answer = ctx.sample(prompt, 100).await?;
    Ok(format!("LLM response: {answer}"))
}

/// What the user is asked for.
#[derive(Debug, Deserialize, Serialize, ToolSchema)]
struct UserInfo {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

/// Ask the user for their name and email.
#[tool(read_only)]
async fn test_elicitation(
    /// What to tell the user.
    #[param(min_length = 1, max_length = 1000)]
    message: String,
    ctx: Context,
) -> Result<String, ToolError> {
    Ok(match ctx.elicit::<UserInfo>(message).await? {
        Elicitation::Accepted(info) => format!(
            "User response: accept, {}",
            serde_json::to_string(&info).unwrap_or_default()
        ),
        Elicitation::Declined => "User response: decline".to_owned(),
        Elicitation::Cancelled => "User response: cancel".to_owned(),
    })
}

/// An account's status.
#[derive(Debug, Deserialize, Serialize, ToolSchema)]
#[serde(rename_all = "lowercase")]
enum Status {
    /// in use
    Active,
    /// not in use
    Inactive,
    /// waiting for approval
    Pending,
}

/// A form whose every field has a default (SEP-1034).
#[derive(Debug, Deserialize, Serialize, ToolSchema)]
struct Defaults {
    /// The user's name.
    #[param(default = "John Doe")]
    name: String,
    /// The user's age.
    #[param(default = 30)]
    age: i64,
    /// A score.
    #[param(default = 95.5)]
    score: f64,
    /// The account's status.
    #[param(default = Status::Active)]
    status: Status,
    /// Whether the account is verified.
    #[param(default = true)]
    verified: bool,
}

/// Ask the user to review a form with defaults.
#[tool(read_only)]
async fn test_elicitation_sep1034_defaults(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx
        .elicit::<Defaults>("Please review and update the form fields with defaults")
        .await?;
    Ok(match answer {
        Elicitation::Accepted(form) => format!(
            "Elicitation completed: accept, {}",
            serde_json::to_string(&form).unwrap_or_default()
        ),
        Elicitation::Declined => "Elicitation completed: decline".to_owned(),
        Elicitation::Cancelled => "Elicitation completed: cancel".to_owned(),
    })
}

/// Ask the user to pick from enums of every shape (SEP-1330: untitled, titled and legacy
/// single-select, untitled and titled multi-select), a form toolwright's derive does not write,
/// so it is sent as given.
#[tool(read_only)]
async fn test_elicitation_sep1330_enums(ctx: Context) -> Result<String, ToolError> {
    let titled = |values: [(&str, &str); 3]| -> Vec<Value> {
        values
            .iter()
            .map(|(value, title)| json!({"const": value, "title": title}))
            .collect()
    };
    let schema = json!({
        "type": "object",
        "properties": {
            "untitledSingle": {
                "type": "string",
                "description": "Pick one",
                "enum": ["option1", "option2", "option3"]
            },
            "titledSingle": {
                "type": "string",
                "description": "Pick one",
                "oneOf": titled([("value1", "First Option"), ("value2", "Second Option"), ("value3", "Third Option")])
            },
            "legacyEnum": {
                "type": "string",
                "description": "Pick one",
                "enum": ["opt1", "opt2", "opt3"],
                "enumNames": ["Option One", "Option Two", "Option Three"]
            },
            "untitledMulti": {
                "type": "array",
                "description": "Pick any",
                "items": {"type": "string", "enum": ["option1", "option2", "option3"]}
            },
            "titledMulti": {
                "type": "array",
                "description": "Pick any",
                "items": {"anyOf": titled([("value1", "First Choice"), ("value2", "Second Choice"), ("value3", "Third Choice")])}
            }
        },
        "required": []
    });
    let Value::Object(schema) = schema else {
        unreachable!("an object literal")
    };
    let answer = ctx
        .elicit_with_schema("Please select options from the enum fields", schema)
        .await?;
    Ok(match answer {
        Elicitation::Accepted(content) => format!("Elicitation completed: accept, {content}"),
        Elicitation::Declined => "Elicitation completed: decline".to_owned(),
        Elicitation::Cancelled => "Elicitation completed: cancel".to_owned(),
    })
}

/// Fail on purpose, to test error handling.
#[tool(read_only)]
fn test_error_handling() -> Result<String, ToolError> {
    Err(ToolError::new(
        "This tool intentionally returns an error for testing",
    ))
}

// Multi-round-trip requests (protocol 2026-07-28, SEP-2322): the same `Context` calls as on
// 2025-11-25; on 2026-07-28 each question ends a round (`input_required`), and the client's
// retry runs the body again with the answers. The key of a typed form's question is its type's
// name in snake case (`UserName` → `user_name`).

/// The user's name.
#[derive(Debug, Deserialize, ToolSchema)]
struct UserName {
    /// Your name.
    name: String,
}

/// A yes or no.
#[derive(Debug, Deserialize, ToolSchema)]
struct Confirmation {
    /// Whether to go ahead.
    ok: bool,
}

/// A colour.
#[derive(Debug, Deserialize, ToolSchema)]
struct FavoriteColor {
    /// Your favourite colour.
    color: String,
}

/// Ask the user's name, then greet them.
#[tool(read_only)]
async fn test_input_required_result_elicitation(ctx: Context) -> Result<String, ToolError> {
    Ok(match ctx.elicit::<UserName>("What is your name?").await? {
        Elicitation::Accepted(user) => format!("Hello, {}!", user.name),
        other => format!("No name given ({other:?})"),
    })
}

/// Ask the client's model a question.
#[tool(read_only)]
async fn test_input_required_result_sampling(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx.sample("What is the capital of France?", 100).await?;
    Ok(format!("The model says: {answer}"))
}

/// List the client's roots.
#[tool(read_only)]
#[allow(deprecated)] // roots are deprecated by SEP-2577, still served
async fn test_input_required_result_list_roots(ctx: Context) -> Result<String, ToolError> {
    let roots = ctx.list_roots().await?;
    let uris: Vec<String> = roots.iter().map(|r| r.uri.clone()).collect();
    Ok(format!("The client's roots: {}", uris.join(", ")))
}

/// Ask for a confirmation; the answer arrives with the sealed state it was asked with.
#[tool(read_only)]
async fn test_input_required_result_request_state(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx.elicit::<Confirmation>("Confirm?").await?;
    Ok(format!(
        "state-ok: the sealed requestState was verified; confirmed: {}",
        matches!(answer, Elicitation::Accepted(Confirmation { ok: true }))
    ))
}

/// Ask three things at once: a form, the model and the roots.
#[tool(read_only)]
async fn test_input_required_result_multiple_inputs(ctx: Context) -> Result<String, ToolError> {
    let (user, model, roots) = tokio::join!(
        ctx.elicit::<UserName>("What is your name?"),
        ctx.sample("Say hello.", 50),
        ctx.list_roots(),
    );
    let name = user?
        .accepted()
        .map_or_else(|| "nobody".to_owned(), |u| u.name);
    Ok(format!(
        "name: {name}; model: {}; roots: {}",
        model?,
        roots?.len()
    ))
}

/// Ask two questions, one after the other (two rounds).
#[tool(read_only)]
async fn test_input_required_result_multi_round(ctx: Context) -> Result<String, ToolError> {
    let name = ctx.elicit::<UserName>("What is your name?").await?;
    let color = ctx
        .elicit::<FavoriteColor>("What is your favourite colour?")
        .await?;
    Ok(format!(
        "name: {}; colour: {}",
        name.accepted().map_or_else(|| "-".to_owned(), |u| u.name),
        color.accepted().map_or_else(|| "-".to_owned(), |c| c.color)
    ))
}

/// Ask for a confirmation whose requestState is sealed (HMAC): a tampered one is refused.
#[tool(read_only)]
async fn test_input_required_result_tampered_state(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx.elicit::<Confirmation>("Confirm?").await?;
    Ok(format!("confirmed: {:?}", answer.accepted().map(|c| c.ok)))
}

/// Ask the user, then the model: only what the client declared is asked.
#[tool(read_only)]
async fn test_input_required_result_capabilities(ctx: Context) -> Result<String, ToolError> {
    let name = match ctx.elicit::<UserName>("What is your name?").await {
        Ok(answer) => answer.accepted().map_or_else(|| "-".to_owned(), |u| u.name),
        Err(e) => format!("not asked ({e})"),
    };
    let model = match ctx.sample("Say hello.", 50).await {
        Ok(text) => text,
        Err(e) => format!("not asked ({e})"),
    };
    Ok(format!("name: {name}; model: {model}"))
}

/// Echo the region, which an HTTP client also sends as the `Mcp-Param-Region` header (SEP-2243,
/// for `http-custom-header-server-validation`).
#[tool(read_only)]
fn test_x_mcp_header(
    /// The region to echo; over HTTP it is mirrored into the `Mcp-Param-Region` header.
    #[param(header = "Region")]
    region: String,
) -> String {
    format!("Region: {region}")
}

/// Ask the client's model a question: needs the client's `sampling` capability (protocol
/// 2026-07-28: a request that does not declare it is refused).
#[tool(read_only)]
async fn test_missing_capability(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx.sample("Say hello.", 20).await?;
    Ok(format!("LLM response: {answer}"))
}

/// What the user confirms.
#[derive(Debug, Deserialize, Serialize, ToolSchema)]
struct GoOn {
    /// Whether to go on.
    confirmed: bool,
}

/// Report progress, then ask the user to confirm: on protocol 2026-07-28 the call's response
/// stream carries notifications and the result only, never a request to the client.
#[tool(read_only)]
async fn test_streaming_elicitation(ctx: Context) -> Result<String, ToolError> {
    ctx.progress(50.0, Some(100.0), Some("halfway".to_owned()))
        .await;
    Ok(match ctx.elicit::<GoOn>("Go on?").await? {
        Elicitation::Accepted(answer) => format!("Confirmed: {}", answer.confirmed),
        Elicitation::Declined => "Declined".to_owned(),
        Elicitation::Cancelled => "Cancelled".to_owned(),
    })
}

/// Log one message at level info: sent only to a request that asked for a log level (protocol
/// 2026-07-28) or to a session below `info` (earlier protocols).
#[tool(read_only)]
async fn test_logging_tool(ctx: Context) -> String {
    ctx.info("Diagnostic trace logging activated").await;
    "Logging evaluated".to_owned()
}

/// Answer on the call's event stream (SEP-1699 lets a server close the stream mid-call and
/// resume on the client's reconnection; toolwright keeps a call's stream open until its result).
#[tool(read_only)]
async fn test_reconnection() -> String {
    tokio::time::sleep(Duration::from_millis(100)).await;
    "Reconnection test completed successfully.".to_owned()
}

// Tasks (the `io.modelcontextprotocol/tasks` extension, SEP-2663; the suite's `tasks-*`
// scenarios). A call of a task tool runs in its request for the toolbox's `promote_after`
// (250 ms) before it becomes a task: a call that ends sooner answers at once, one that asks its
// user sooner asks in the request (a round). The fixtures that must become tasks before they
// ask or fail first work for longer than that.

/// Greet someone (never a task).
#[tool(read_only)]
fn greet(
    /// Who to greet.
    name: String,
) -> String {
    format!("Hello, {name}!")
}

/// Compute for `seconds` seconds, then answer (a task when the client takes tasks).
#[tool(read_only, task = "optional")]
async fn slow_compute(
    ctx: Context,
    /// How long to compute.
    #[param(unit = "s", range = 0.0..=600.0)]
    seconds: f64,
    /// A label echoed in the result.
    label: Option<String>,
) -> Result<String, ToolError> {
    let label = label.unwrap_or_default();
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs_f64(seconds)) => {}
        () = ctx.cancelled() => {
            return Err(ToolError::new(format!("computation `{label}` stopped")));
        }
    }
    Ok(format!("computed `{label}` in {seconds} s"))
}

/// Work for a second, then fail with a tool error (only ever a task).
#[tool(read_only, task = "required")]
async fn failing_job() -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_secs(1)).await;
    Err(ToolError::new("the job failed, as it always does"))
}

/// Work for half a second, then panic: a protocol-level failure.
#[tool(read_only, task = "optional")]
async fn protocol_error_job() -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_millis(500)).await;
    panic!("the job crashed on purpose")
}

/// Whether to delete a file.
#[derive(Debug, Deserialize, ToolSchema)]
struct DeleteConfirmation {
    /// Delete it.
    confirm: bool,
}

/// Look the file up, then ask the user to confirm its deletion.
#[tool(
    idempotent,
    task = "optional",
    confirm = false,
    because = "it asks its user itself before it deletes, and this test server deletes nothing"
)]
async fn confirm_delete(
    ctx: Context,
    /// The file to delete.
    filename: String,
) -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_millis(500)).await;
    let question = format!("Delete {filename}?");
    Ok(match ctx.elicit::<DeleteConfirmation>(&question).await? {
        Elicitation::Accepted(DeleteConfirmation { confirm: true }) => {
            format!("deleted {filename}")
        }
        _ => format!("kept {filename}"),
    })
}

/// Prepare, then ask two questions at once.
#[tool(read_only, task = "optional")]
async fn multi_input(ctx: Context) -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (name, confirmation) = tokio::join!(
        ctx.elicit::<UserName>("What is your name?"),
        ctx.elicit::<DeleteConfirmation>("Go ahead?"),
    );
    Ok(format!("answers: {:?}, {:?}", name?, confirmation?))
}

/// Ask the user's name first (in the request), then work on it as a task.
#[tool(read_only, task = "required")]
async fn test_tool_with_task(ctx: Context) -> Result<String, ToolError> {
    let name = match ctx.elicit::<UserName>("What is your name?").await? {
        Elicitation::Accepted(user) => user.name,
        other => return Err(ToolError::new(format!("no name given ({other:?})"))),
    };
    tokio::time::sleep(Duration::from_secs(1)).await;
    Ok(format!("Worked on it for {name}"))
}

/// The toolbox as served, for `test_trigger_tool_change` (set by the first session's handler).
static TOOLBOX: OnceLock<Toolbox<()>> = OnceLock::new();

/// The group `test_trigger_tool_change` switches on and off.
const TOGGLED_GROUP: &str = "toggled";

/// Listed only while its group is enabled (see `test_trigger_tool_change`).
#[tool(read_only, group = "toggled")]
fn test_toggled_tool() -> String {
    "Toggled tool called.".to_owned()
}

/// Change the tool list: disable the `toggled` group if it is enabled, else enable it. Clients
/// are told (`notifications/tools/list_changed`: to sessions before protocol 2026-07-28, to the
/// `subscriptions/listen` streams that asked for it on 2026-07-28).
#[tool(
    confirm = false,
    because = "it changes only which tools this test server lists, nothing outside it"
)]
async fn test_trigger_tool_change() -> Result<String, ToolError> {
    let toolbox = TOOLBOX
        .get()
        .ok_or_else(|| ToolError::new("the toolbox is not served yet"))?;
    if toolbox.enable_group(TOGGLED_GROUP).await {
        return Ok(format!(
            "Tool list changed: group `{TOGGLED_GROUP}` enabled"
        ));
    }
    toolbox.disable_group(TOGGLED_GROUP).await;
    Ok(format!(
        "Tool list changed: group `{TOGGLED_GROUP}` disabled"
    ))
}

/// The name of the fixture whose input schema is given as is (served by rmcp, see the module
/// doc).
const JSON_SCHEMA_TOOL: &str = "json_schema_2020_12_tool";

/// `json_schema_2020_12_tool`: an input schema using JSON Schema 2020-12 (SEP-1613, SEP-2106),
/// as the suite's `json-schema-2020-12` scenario publishes it.
fn json_schema_tool() -> Tool {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "addressDef",
                "type": "object",
                "properties": {
                    "street": {"type": "string"},
                    "city": {"type": "string"}
                }
            }
        },
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"}
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {
            "properties": {"contactMethod": {"const": "phone"}},
            "required": ["contactMethod"]
        },
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
    });
    let Value::Object(schema) = schema else {
        unreachable!("an object literal")
    };
    // It echoes its arguments and changes nothing: said so, like every read-only tool here.
    Tool::new(
        JSON_SCHEMA_TOOL,
        "Tool with JSON Schema 2020-12 features",
        schema,
    )
    .with_annotations(rmcp::model::ToolAnnotations::new().read_only(true))
}

/// The suite's resources, prompts and completion (rmcp), with the tools delegated to toolwright.
#[derive(Clone)]
struct Conformance {
    tools: Toolbox<()>,
    /// Resource URIs this session subscribed to.
    subscriptions: Arc<Mutex<BTreeSet<String>>>,
}

fn resource(uri: &str, name: &str, description: &str, mime_type: &str) -> Resource {
    Resource::new(uri, name)
        .with_description(description)
        .with_mime_type(mime_type)
}

impl ServerHandler for Conformance {
    // The tools, delegated to the toolbox as `delegate_tools!` does, plus `json_schema_tool`.

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut list = self.tools.list_tools(request, context).await?;
        list.tools.push(json_schema_tool());
        Ok(list)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name == JSON_SCHEMA_TOOL {
            let arguments = Value::Object(request.arguments.unwrap_or_default());
            return Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                "Received: {arguments}"
            ))])
            .into());
        }
        self.tools.call_tool(request, context).await
    }

    async fn get_task(
        &self,
        request: rmcp::model::GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::GetTaskResult, ErrorData> {
        self.tools.get_task(request, context).await
    }

    async fn update_task(
        &self,
        request: rmcp::model::UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tools.update_task(request, context).await
    }

    async fn cancel_task(
        &self,
        request: rmcp::model::CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tools.cancel_task(request, context).await
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        if name == JSON_SCHEMA_TOOL {
            return Some(json_schema_tool());
        }
        self.tools.get_tool(name)
    }

    #[allow(deprecated)] // `logging/setLevel`, of protocols before 2026-07-28.
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tools.set_level(request, context).await
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.tools.on_initialized(context).await;
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        self.tools.accepted_subscription_filter(requested)
    }

    async fn listen(&self, subscription: SubscriptionContext) -> Result<(), ErrorData> {
        self.tools.listen(subscription).await
    }
    // The toolbox's generated skill (SEP-2640): skills/list, skills/get,
    // resources/directory/read; its files are merged into resources/list and resources/read.
    delegate_skills!(tools);

    fn get_info(&self) -> ServerConfig {
        let mut info = self.tools.get_info();
        let mut resources = ResourcesCapability::default();
        resources.subscribe = Some(true);
        info.capabilities.resources = Some(resources);
        info.capabilities.prompts = Some(PromptsCapability::default());
        info.capabilities.completions = Some(Default::default());
        info
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let mut resources = self.tools.skill_resources();
        resources.extend([
            resource(
                "test://static-text",
                "static-text",
                "A static text resource",
                "text/plain",
            ),
            resource(
                "test://static-binary",
                "static-binary",
                "A static binary resource (a PNG)",
                "image/png",
            ),
            resource(
                "test://watched-resource",
                "watched-resource",
                "A resource to subscribe to",
                "text/plain",
            ),
        ]);
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let mut template = ResourceTemplate::new("test://template/{id}/data", "template-data");
        template.description = Some("The data of one id".to_owned());
        template.mime_type = Some("application/json".to_owned());
        Ok(ListResourceTemplatesResult::with_all_items(vec![template]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        if let Some(skill_file) = self.tools.read_skill_resource(uri) {
            return Ok(skill_file.into());
        }
        let contents = match uri {
            "test://static-text" => {
                ResourceContents::text("This is the content of the static text resource.", uri)
            }
            "test://static-binary" => {
                ResourceContents::blob(RED_PIXEL_PNG, uri).with_mime_type("image/png")
            }
            "test://watched-resource" => ResourceContents::text("Watched resource content.", uri),
            _ => match uri
                .strip_prefix("test://template/")
                .and_then(|rest| rest.strip_suffix("/data"))
            {
                Some(id) => ResourceContents::text(
                    json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")})
                        .to_string(),
                    uri,
                )
                .with_mime_type("application/json"),
                None => {
                    return Err(ErrorData::resource_not_found(
                        format!("no resource `{uri}`"),
                        Some(json!({"uri": uri})),
                    ));
                }
            },
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    #[allow(deprecated)] // Subscriptions of protocols before 2026-07-28, which the suite uses.
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscriptions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(request.uri);
        Ok(())
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscriptions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&request.uri);
        Ok(())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let argument = |name: &str, description: &str| {
            PromptArgument::new(name)
                .with_description(description)
                .with_required(true)
        };
        Ok(ListPromptsResult::with_all_items(vec![
            Prompt::new(
                "test_simple_prompt",
                Some("A simple prompt without arguments"),
                None,
            ),
            Prompt::new(
                "test_prompt_with_arguments",
                Some("A prompt with two arguments"),
                Some(vec![
                    argument("arg1", "First test argument"),
                    argument("arg2", "Second test argument"),
                ]),
            ),
            Prompt::new(
                "test_prompt_with_embedded_resource",
                Some("A prompt with an embedded resource"),
                Some(vec![argument(
                    "resourceUri",
                    "URI of the resource to embed",
                )]),
            ),
            Prompt::new(
                "test_prompt_with_image",
                Some("A prompt with an image"),
                None,
            ),
            Prompt::new(
                "test_input_required_result_prompt",
                Some("A prompt that asks the user for its context first (protocol 2026-07-28)"),
                None,
            ),
        ]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name == "test_input_required_result_prompt" {
            return Ok(prompt_after_asking(request.input_responses));
        }
        let arguments = request.arguments.unwrap_or_default();
        let argument = |name: &str| {
            arguments
                .get(name)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let messages = match request.name.as_str() {
            "test_simple_prompt" => vec![PromptMessage::new_text(
                Role::User,
                "This is a simple prompt for testing.",
            )],
            "test_prompt_with_arguments" => vec![PromptMessage::new_text(
                Role::User,
                format!(
                    "Prompt with arguments: arg1='{}', arg2='{}'",
                    argument("arg1"),
                    argument("arg2")
                ),
            )],
            "test_prompt_with_embedded_resource" => vec![
                PromptMessage::new(
                    Role::User,
                    ContentBlock::resource(ResourceContents::text(
                        "Embedded resource content for testing.",
                        argument("resourceUri"),
                    )),
                ),
                PromptMessage::new_text(Role::User, "Please process the embedded resource above."),
            ],
            "test_prompt_with_image" => vec![
                PromptMessage::new(Role::User, ContentBlock::image(RED_PIXEL_PNG, "image/png")),
                PromptMessage::new_text(Role::User, "Please analyze the image above."),
            ],
            other => {
                return Err(ErrorData::invalid_params(
                    format!("unknown prompt `{other}`"),
                    None,
                ));
            }
        };
        Ok(GetPromptResult::new(messages).into())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let values: Vec<String> = ["paris", "park", "party", "test-value"]
            .into_iter()
            .filter(|v| v.starts_with(request.argument.value.as_str()))
            .map(str::to_owned)
            .collect();
        let info = CompletionInfo::with_all_values(values)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(CompleteResult::new(info))
    }
}

/// A prompt (rmcp's, not a toolwright tool) that asks the user for its context first: the
/// question goes out as `input_required` until the retry brings an accepted answer.
fn prompt_after_asking(responses: Option<rmcp::model::InputResponses>) -> GetPromptResponse {
    let context = responses
        .as_ref()
        .and_then(|r| r.get("user_context"))
        .and_then(|answer| serde_json::from_value::<rmcp::model::ElicitResult>(answer.clone()).ok())
        .filter(|answer| answer.action == rmcp::model::ElicitationAction::Accept)
        .and_then(|answer| answer.content)
        .and_then(|content| {
            content
                .get("context")
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
    if let Some(context) = context {
        return GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!("Answer with this context in mind: {context}"),
        )])
        .into();
    }
    let schema = rmcp::model::ElicitationSchema::builder()
        .required_string("context")
        .build()
        .expect("a valid form");
    let question =
        rmcp::model::ElicitRequest::new(rmcp::model::ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: "What context should the prompt use?".to_owned(),
            requested_schema: schema,
        });
    rmcp::model::InputRequiredResult::from_input_requests(
        [(
            "user_context".to_owned(),
            rmcp::model::InputRequest::Elicitation(question),
        )]
        .into_iter()
        .collect(),
    )
    .into()
}

/// The conformance server's tools.
fn toolbox() -> ToolboxBuilder<()> {
    tools![
        test_simple_text,
        test_image_content,
        test_audio_content,
        test_embedded_resource,
        test_multiple_content_types,
        test_tool_with_logging,
        test_tool_with_progress,
        test_error_handling,
        test_sampling,
        test_elicitation,
        test_elicitation_sep1034_defaults,
        test_elicitation_sep1330_enums,
        test_input_required_result_elicitation,
        test_input_required_result_sampling,
        test_input_required_result_list_roots,
        test_input_required_result_request_state,
        test_input_required_result_multiple_inputs,
        test_input_required_result_multi_round,
        test_input_required_result_tampered_state,
        test_input_required_result_capabilities,
        test_x_mcp_header,
        test_missing_capability,
        test_streaming_elicitation,
        test_logging_tool,
        test_reconnection,
        test_toggled_tool,
        test_trigger_tool_change,
        greet,
        slow_compute,
        failing_job,
        protocol_error_job,
        confirm_delete,
        multi_input,
        test_tool_with_task,
    ]
    .with_server_info("toolwright-conformance", env!("CARGO_PKG_VERSION"))
    .with_skill(
        "toolwright-conformance",
        "Exercise the MCP conformance suite's test tools: content types, progress, logging, \
         errors, sampling, elicitation and multi-round-trip input requests.",
    )
}

#[tokio::main]
async fn main() {
    let code = toolbox()
        .with_handler(|tools: Toolbox<()>| {
            // Every session's handler wraps the one toolbox built (and served).
            TOOLBOX.get_or_init(|| tools.clone());
            Conformance {
                tools,
                subscriptions: Arc::default(),
            }
        })
        .run_cli()
        .await;
    std::process::exit(code);
}
