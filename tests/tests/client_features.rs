//! A tool body talking to the client through its `Context`: log messages at the level the
//! session set (per session, also over HTTP), sampling, elicitation (typed forms, their answers
//! checked, raw forms), and the clear errors when the client cannot be asked.

#![allow(deprecated)] // rmcp's logging and sampling types are deprecated by SEP-2577.

mod common;

use std::sync::{Arc, Mutex};

use common::{call, eventually, text};
use rmcp::ServiceExt as _;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, CreateMessageRequestParams,
    CreateMessageResult, ElicitRequestParams, ElicitResult, ElicitationAction,
    ElicitationCapability, ErrorData, Implementation, LoggingLevel,
    LoggingMessageNotificationParam, RequestMetaObject, Role, SamplingCapability, SamplingMessage,
    SamplingMessageContentBlock, SetLevelRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext, RoleClient, RunningService};
use serde::Deserialize;
use serde_json::{Value, json};
use toolwright::{
    ClientError, Context, Elicitation, LogLevel, ToolError, ToolSchema, Toolbox, tool, tools,
};

// ---------------------------------------------------------------------------------------------
// The tools.

/// Logs one message at each of several levels, then says which level reaches the client.
#[tool]
async fn chatty(ctx: Context) -> String {
    ctx.debug("debug line").await;
    ctx.info("info line").await;
    ctx.log(LogLevel::Notice, "notice line").await;
    ctx.warning("warning line").await;
    ctx.log_data(LogLevel::Error, json!({"code": 42})).await;
    // The last message: once the client has it, it has the others.
    ctx.log(LogLevel::Emergency, "done").await;
    ctx.client_log_level()
        .map_or_else(|| "none".to_owned(), |level| level.to_string())
}

/// Asks the client's model.
#[tool]
async fn ask_model(
    /// What to ask.
    prompt: String,
    ctx: Context,
) -> Result<String, ToolError> {
    let answer = ctx.sample(prompt, 100).await?;
    Ok(format!("the model said: {answer}"))
}

/// The kind of gripper.
#[derive(Debug, PartialEq, Deserialize, ToolSchema)]
#[serde(rename_all = "snake_case")]
enum Gripper {
    /// two jaws
    Parallel,
    /// vacuum cup
    Suction,
}

/// How to pick the part up.
#[derive(Debug, PartialEq, Deserialize, ToolSchema)]
struct Grip {
    /// Operator initials.
    #[param(min_length = 2, max_length = 3, pattern = "^[a-z]+$")]
    initials: String,
    /// Grip force.
    #[param(unit = "N", range = 5.0..=30.0, default = 15.0)]
    force: f64,
    /// How many times to retry.
    #[param(range = 0..=5, default = 2)]
    retries: u8,
    /// The gripper to use.
    gripper: Gripper,
    /// Whether to go slowly.
    careful: Option<bool>,
}

/// Asks the user how to grip.
#[tool]
async fn ask_grip(ctx: Context) -> Result<String, ToolError> {
    Ok(
        match ctx.elicit::<Grip>("How should I grip the part?").await? {
            Elicitation::Accepted(grip) => format!("accepted {grip:?}"),
            Elicitation::Declined => "declined".to_owned(),
            Elicitation::Cancelled => "cancelled".to_owned(),
        },
    )
}

/// How far to reach.
#[derive(Debug, Deserialize, ToolSchema)]
struct Reach {
    /// How far from the base.
    #[param(unit = "mm", range = 100.0..=900.0)]
    reach: uom::si::f64::Length,
}

/// Asks the user how far to reach; says it in meters.
#[tool]
async fn ask_reach(ctx: Context) -> Result<String, ToolError> {
    match ctx.elicit::<Reach>("How far?").await? {
        Elicitation::Accepted(r) => Ok(format!("{} m", r.reach.get::<uom::si::length::meter>())),
        other => Ok(format!("unexpected: {other:?}")),
    }
}

/// A point.
#[derive(Debug, Deserialize, ToolSchema)]
#[expect(dead_code, reason = "never built: a form cannot hold it")]
struct Point {
    /// X.
    x: f64,
}

/// Not a form: a nested struct.
#[derive(Debug, Deserialize, ToolSchema)]
#[expect(dead_code, reason = "never built: a form cannot hold it")]
struct Nested {
    /// Where.
    target: Point,
}

/// Asks the user for a type a form cannot hold.
#[tool]
async fn ask_nested(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx.elicit::<Nested>("Where?").await?;
    Ok(format!("{answer:?}"))
}

/// Asks the user with a raw form (a titled enum).
#[tool]
async fn ask_color(ctx: Context) -> Result<String, ToolError> {
    let schema = json!({
        "type": "object",
        "properties": {
            "color": {"type": "string", "oneOf": [
                {"const": "r", "title": "Red"},
                {"const": "g", "title": "Green"},
            ]},
        },
        "required": ["color"],
    });
    let Value::Object(schema) = schema else {
        unreachable!()
    };
    Ok(
        match ctx.elicit_with_schema("Which color?", schema).await? {
            Elicitation::Accepted(content) => format!("accepted {content}"),
            other => format!("{other:?}"),
        },
    )
}

/// Asks the client's model, giving up when the call is told to stop.
#[tool(timeout = "50ms", grace = "5s")]
async fn ask_slowly(ctx: Context) -> Result<String, ToolError> {
    match ctx.sample("take your time", 10).await {
        Err(ClientError::Cancelled) => Err(ToolError::new(ClientError::Cancelled.to_string())),
        other => Ok(format!("unexpected: {other:?}")),
    }
}

fn toolbox() -> Toolbox {
    tools![
        chatty, ask_model, ask_grip, ask_nested, ask_color, ask_slowly, ask_reach
    ]
    .build()
    .unwrap()
}

// ---------------------------------------------------------------------------------------------
// The client.

/// What the test client answers to an elicitation.
#[derive(Clone)]
enum Answer {
    Accept(Value),
    Decline,
    Cancel,
}

/// A log message received: its level, logger and data.
type Logged = (String, Option<String>, Value);

/// A client that declares the capabilities it is given, records the log messages and the
/// requests it receives, and answers them as configured.
#[derive(Clone)]
struct TestClient {
    sampling: bool,
    elicitation: bool,
    answer: Answer,
    /// Sampling requests are not answered: the client waits until the server cancels them.
    hang: bool,
    /// Set when the server cancelled a request the client was answering.
    cancelled: Arc<std::sync::atomic::AtomicBool>,
    logs: Arc<Mutex<Vec<Logged>>>,
    /// The requests received, as JSON.
    requests: Arc<Mutex<Vec<Value>>>,
}

impl TestClient {
    fn new() -> Self {
        TestClient {
            sampling: true,
            elicitation: true,
            answer: Answer::Decline,
            hang: false,
            cancelled: Arc::default(),
            logs: Arc::default(),
            requests: Arc::default(),
        }
    }

    fn answering(answer: Answer) -> Self {
        TestClient {
            answer,
            ..Self::new()
        }
    }

    /// The data of the messages received, in order, as `level: data`.
    fn log_lines(&self) -> Vec<String> {
        self.logs
            .lock()
            .unwrap()
            .iter()
            .map(|(level, _, data)| match data {
                Value::String(s) => format!("{level}: {s}"),
                other => format!("{level}: {other}"),
            })
            .collect()
    }

    /// Waits for the last message `chatty` logs.
    async fn wait_for_done(&self) {
        let logs = Arc::clone(&self.logs);
        assert!(
            eventually(|| logs
                .lock()
                .unwrap()
                .iter()
                .any(|(_, _, data)| data == "done"))
            .await,
            "the last log message never arrived: {:?}",
            self.log_lines()
        );
    }

    fn requests(&self) -> Vec<Value> {
        self.requests.lock().unwrap().clone()
    }
}

impl rmcp::ClientHandler for TestClient {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        if self.sampling {
            capabilities.sampling = Some(SamplingCapability::default());
        }
        if self.elicitation {
            capabilities.elicitation = Some(ElicitationCapability::default());
        }
        ClientConfig::new(capabilities, Implementation::new("test-client", "1.0.0"))
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let level = serde_json::to_value(params.level).unwrap();
        self.logs.lock().unwrap().push((
            level.as_str().unwrap().to_owned(),
            params.logger,
            params.data,
        ));
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        self.requests
            .lock()
            .unwrap()
            .push(serde_json::to_value(&params).unwrap());
        if self.hang {
            context.ct.cancelled().await;
            self.cancelled
                .store(true, std::sync::atomic::Ordering::SeqCst);
            return Err(ErrorData::internal_error("cancelled", None));
        }
        let prompt = params.messages[0]
            .content
            .clone()
            .into_vec()
            .into_iter()
            .find_map(|block| match block {
                SamplingMessageContentBlock::Text(t) => Some(t.text),
                _ => None,
            })
            .unwrap_or_default();
        Ok(CreateMessageResult::new(
            SamplingMessage::new(
                Role::Assistant,
                SamplingMessageContentBlock::text(format!("an answer to `{prompt}`")),
            ),
            "test-model".to_owned(),
        )
        .with_stop_reason(CreateMessageResult::STOP_REASON_END_TURN))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.requests
            .lock()
            .unwrap()
            .push(serde_json::to_value(&request).unwrap());
        Ok(match &self.answer {
            Answer::Accept(content) => {
                ElicitResult::new(ElicitationAction::Accept).with_content(content.clone())
            }
            Answer::Decline => ElicitResult::new(ElicitationAction::Decline),
            Answer::Cancel => ElicitResult::new(ElicitationAction::Cancel),
        })
    }
}

/// Serves the toolbox on a duplex pipe and connects `client` to it (legacy `initialize`, so a
/// protocol before 2026-07-28).
async fn connect(client: TestClient) -> RunningService<RoleClient, TestClient> {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let toolbox = toolbox();
    tokio::spawn(async move {
        let server = toolbox.serve(server_io).await.expect("server starts");
        let _ = server.waiting().await;
    });
    client.serve(client_io).await.expect("client connects")
}

// ---------------------------------------------------------------------------------------------
// Logging.

#[tokio::test]
async fn until_the_client_sets_a_level_info_and_above_are_sent() {
    let recorder = TestClient::new();
    let client = connect(recorder.clone()).await;
    let info = client.peer_info().unwrap();
    assert!(
        info.capabilities.logging.is_some(),
        "the server declares logging"
    );

    let result = call(&client, "chatty", json!({})).await;
    assert_eq!(text(&result), "info");
    recorder.wait_for_done().await;
    assert_eq!(
        recorder.log_lines(),
        [
            "info: info line",
            "notice: notice line",
            "warning: warning line",
            r#"error: {"code":42}"#,
            "emergency: done",
        ]
    );
    let loggers: Vec<_> = recorder
        .logs
        .lock()
        .unwrap()
        .iter()
        .map(|l| l.1.clone())
        .collect();
    assert!(
        loggers.iter().all(|l| l.as_deref() == Some("chatty")),
        "the logger is the tool: {loggers:?}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_level_the_client_sets_is_honoured() {
    let recorder = TestClient::new();
    let client = connect(recorder.clone()).await;

    client
        .peer()
        .set_level(SetLevelRequestParams::new(LoggingLevel::Warning))
        .await
        .expect("logging/setLevel is answered");
    let result = call(&client, "chatty", json!({})).await;
    assert_eq!(text(&result), "warning");
    recorder.wait_for_done().await;
    assert_eq!(
        recorder.log_lines(),
        [
            "warning: warning line",
            r#"error: {"code":42}"#,
            "emergency: done"
        ]
    );

    recorder.logs.lock().unwrap().clear();
    client
        .peer()
        .set_level(SetLevelRequestParams::new(LoggingLevel::Debug))
        .await
        .unwrap();
    let result = call(&client, "chatty", json!({})).await;
    assert_eq!(text(&result), "debug");
    recorder.wait_for_done().await;
    assert_eq!(recorder.log_lines()[0], "debug: debug line");
    assert_eq!(recorder.log_lines().len(), 6);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn each_connection_of_one_toolbox_is_a_session_of_its_own() {
    let toolbox = toolbox();
    let mut clients = Vec::new();
    for _ in 0..2 {
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        let served = toolbox.clone();
        tokio::spawn(async move {
            let server = served.serve(server_io).await.expect("server starts");
            let _ = server.waiting().await;
        });
        clients.push(TestClient::new().serve(client_io).await.unwrap());
    }
    clients[0]
        .peer()
        .set_level(SetLevelRequestParams::new(LoggingLevel::Error))
        .await
        .unwrap();
    assert_eq!(text(&call(&clients[0], "chatty", json!({})).await), "error");
    assert_eq!(text(&call(&clients[1], "chatty", json!({})).await), "info");
    for client in clients {
        client.cancel().await.unwrap();
    }
}

/// Over streamable HTTP every session has its own level: the one that asked for `debug` gets
/// debug messages, the other does not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_the_level_is_per_session() {
    use rmcp::transport::StreamableHttpClientTransport;

    let server = toolbox()
        .serve_http("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let (verbose, quiet) = (TestClient::new(), TestClient::new());
    let verbose_client = verbose
        .clone()
        .serve(StreamableHttpClientTransport::from_uri(server.url()))
        .await
        .unwrap();
    let quiet_client = quiet
        .clone()
        .serve(StreamableHttpClientTransport::from_uri(server.url()))
        .await
        .unwrap();

    verbose_client
        .peer()
        .set_level(SetLevelRequestParams::new(LoggingLevel::Debug))
        .await
        .unwrap();
    assert_eq!(
        text(&call(&verbose_client, "chatty", json!({})).await),
        "debug"
    );
    assert_eq!(
        text(&call(&quiet_client, "chatty", json!({})).await),
        "info"
    );
    verbose.wait_for_done().await;
    quiet.wait_for_done().await;
    assert!(
        verbose
            .log_lines()
            .contains(&"debug: debug line".to_owned()),
        "{:?}",
        verbose.log_lines()
    );
    assert!(
        !quiet.log_lines().iter().any(|l| l.starts_with("debug")),
        "{:?}",
        quiet.log_lines()
    );
    assert!(
        quiet.log_lines().contains(&"info: info line".to_owned()),
        "{:?}",
        quiet.log_lines()
    );

    verbose_client.cancel().await.unwrap();
    quiet_client.cancel().await.unwrap();
    server.shutdown().await.unwrap();
}

// ---------------------------------------------------------------------------------------------
// Protocol 2026-07-28.

/// Connects `client` with `server/discover` on protocol 2026-07-28.
async fn connect_2026(client: TestClient) -> RunningService<RoleClient, TestClient> {
    common::connect_client(toolbox(), client, true).await
}

#[tokio::test]
async fn on_protocol_2026_logging_is_opt_in_per_request_and_questions_go_in_rounds() {
    let recorder = TestClient::new();
    let client = connect_2026(recorder.clone()).await;

    // No level in the request: nothing is sent.
    assert_eq!(text(&call(&client, "chatty", json!({})).await), "none");
    // The request's level.
    let mut meta = RequestMetaObject::new();
    meta.set_log_level(LoggingLevel::Notice);
    let mut params = CallToolRequestParams::new("chatty");
    params.meta = Some(meta);
    let result = client.call_tool(params).await.unwrap();
    assert_eq!(text(&result), "notice");
    recorder.wait_for_done().await;
    assert_eq!(
        recorder.log_lines(),
        [
            "notice: notice line",
            "warning: warning line",
            r#"error: {"code":42}"#,
            "emergency: done",
        ],
        "only the second call logged, from notice up"
    );

    // Questions go to the client in rounds (`input_required`), which rmcp's client answers
    // through the same handler and sends back: the body reads the same answers.
    let sampled = call(&client, "ask_model", json!({"prompt": "hi"})).await;
    assert_eq!(sampled.is_error, Some(false), "{sampled:?}");
    assert_eq!(text(&sampled), "the model said: an answer to `hi`");
    let elicited = call(&client, "ask_grip", json!({})).await;
    assert_eq!(text(&elicited), "declined");
    assert_eq!(
        recorder.requests().len(),
        2,
        "one sampling and one elicitation request reached the client's handler: {:?}",
        recorder.requests()
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn on_protocol_2026_set_level_is_unknown_and_a_request_without_a_level_gets_no_log() {
    let recorder = TestClient::new();
    let client = connect_2026(recorder.clone()).await;
    // `logging/setLevel` is not part of protocol 2026-07-28.
    #[allow(deprecated)]
    let refused = client
        .set_level(rmcp::model::SetLevelRequestParams::new(LoggingLevel::Debug))
        .await
        .unwrap_err();
    let rmcp::ServiceError::McpError(e) = refused else {
        panic!("{refused:?}")
    };
    assert_eq!(e.code, rmcp::model::ErrorCode::METHOD_NOT_FOUND);
    assert_eq!(text(&call(&client, "chatty", json!({})).await), "none");
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    assert_eq!(recorder.log_lines(), Vec::<String>::new());
    client.cancel().await.unwrap();
}

// ---------------------------------------------------------------------------------------------
// Sampling.

#[tokio::test]
async fn sampling_returns_the_text_of_the_clients_answer() {
    let recorder = TestClient::new();
    let client = connect(recorder.clone()).await;
    let result = call(&client, "ask_model", json!({"prompt": "What is 2 + 2?"})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert_eq!(
        text(&result),
        "the model said: an answer to `What is 2 + 2?`"
    );
    assert_eq!(
        recorder.requests(),
        [json!({
            "messages": [{"role": "user", "content": {"type": "text", "text": "What is 2 + 2?"}}],
            "maxTokens": 100,
        })]
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn sampling_is_refused_when_the_client_lacks_the_capability() {
    // rmcp's default client declares no capability at all.
    let client = common::connect(toolbox()).await;
    let result = call(&client, "ask_model", json!({"prompt": "hi"})).await;
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        text(&result),
        "the client does not support sampling (it did not declare the `sampling` capability)"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_call_told_to_stop_stops_waiting_for_the_client() {
    let recorder = TestClient {
        hang: true,
        ..TestClient::new()
    };
    let client = connect(recorder.clone()).await;
    let result = call(&client, "ask_slowly", json!({})).await;
    assert_eq!(result.is_error, Some(true));
    let said = text(&result);
    assert!(
        said.contains("did not finish within its 50 ms deadline")
            && said.contains("the call was cancelled while waiting for the client"),
        "{said}"
    );
    assert_eq!(recorder.requests().len(), 1, "the request was sent");
    let cancelled = Arc::clone(&recorder.cancelled);
    assert!(
        eventually(|| cancelled.load(std::sync::atomic::Ordering::SeqCst)).await,
        "the client was told the request is cancelled"
    );
    client.cancel().await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_client_that_never_answers_is_not_waited_for_forever() {
    // A call without a deadline gives up after CLIENT_ANSWER_LIMIT (the paused clock jumps to
    // it as soon as everything waits), and tells the client its request is cancelled.
    let recorder = TestClient {
        hang: true,
        ..TestClient::new()
    };
    let client = connect(recorder.clone()).await;
    let started = tokio::time::Instant::now();
    let result = call(&client, "ask_model", json!({"prompt": "hello"})).await;
    assert_eq!(result.is_error, Some(true));
    assert!(
        text(&result).contains("the client did not answer the sampling request in 600 s"),
        "{}",
        text(&result)
    );
    assert!(started.elapsed() >= toolwright::CLIENT_ANSWER_LIMIT);
    let cancelled = Arc::clone(&recorder.cancelled);
    assert!(
        eventually(|| cancelled.load(std::sync::atomic::Ordering::SeqCst)).await,
        "the client was told the request is cancelled"
    );
    client.cancel().await.unwrap();
}

// ---------------------------------------------------------------------------------------------
// Elicitation.

#[tokio::test]
async fn an_accepted_form_becomes_the_type_with_its_defaults() {
    let recorder = TestClient::answering(Answer::Accept(json!({
        "initials": "ada",
        "force": 20,
        // Lax, as for tool arguments: a number sent as a string is repaired.
        "retries": "3",
        "gripper": "suction",
    })));
    let client = connect(recorder.clone()).await;
    let result = call(&client, "ask_grip", json!({})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert_eq!(
        text(&result),
        format!(
            "accepted {:?}",
            Grip {
                initials: "ada".into(),
                force: 20.0,
                retries: 3,
                gripper: Gripper::Suction,
                careful: None,
            }
        )
    );
    // The form: the type's schema as toolwright publishes it, without what a form cannot say.
    let requests = recorder.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0]["mode"], "form");
    assert_eq!(requests[0]["message"], "How should I grip the part?");
    assert_eq!(
        requests[0]["requestedSchema"],
        json!({
            "type": "object",
            "description": "How to pick the part up.",
            "properties": {
                "initials": {"type": "string", "description": "Operator initials.", "minLength": 2, "maxLength": 3},
                "force": {"type": "number", "description": "Grip force, in newtons (N).", "minimum": 5.0, "maximum": 30.0, "default": 15.0},
                "retries": {"type": "integer", "description": "How many times to retry.", "minimum": 0, "maximum": 5, "default": 2},
                "gripper": {"type": "string", "description": "The gripper to use. Options: parallel: two jaws; suction: vacuum cup.", "enum": ["parallel", "suction"]},
                "careful": {"type": "boolean", "description": "Whether to go slowly."},
            },
            "required": ["initials", "gripper"],
        })
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_form_answer_in_a_declared_unit_arrives_converted() {
    // The form says mm (as the tool's schema would); the body's uom `Length` gets 0.25 m.
    let recorder = TestClient::answering(Answer::Accept(json!({"reach": 250})));
    let client = connect(recorder.clone()).await;
    let result = call(&client, "ask_reach", json!({})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert_eq!(text(&result), "0.25 m");
    let form = &recorder.requests()[0]["requestedSchema"]["properties"]["reach"];
    assert_eq!(
        form,
        &json!({"type": "number", "description": "How far from the base, in millimeters (mm).", "minimum": 100.0, "maximum": 900.0})
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn an_answer_that_breaks_the_types_constraints_is_refused_with_each_problem() {
    let recorder = TestClient::answering(Answer::Accept(json!({
        "initials": "A!",
        "force": 100,
        "gripper": "claw",
    })));
    let client = connect(recorder).await;
    let result = call(&client, "ask_grip", json!({})).await;
    assert_eq!(result.is_error, Some(true));
    let said = text(&result);
    assert!(
        said.starts_with("the client's answer is invalid: 3 problems with the form's content: "),
        "{said}"
    );
    for problem in [
        "initials: must match",
        "force: must be between 5 and 30 N, got 100",
        "gripper: must be one of",
    ] {
        assert!(said.contains(problem), "{problem} in {said}");
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_declined_or_cancelled_form_says_so() {
    for (answer, said) in [(Answer::Decline, "declined"), (Answer::Cancel, "cancelled")] {
        let client = connect(TestClient::answering(answer)).await;
        let result = call(&client, "ask_grip", json!({})).await;
        assert_eq!(result.is_error, Some(false), "{result:?}");
        assert_eq!(text(&result), said);
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn elicitation_is_refused_when_the_client_lacks_the_capability() {
    let recorder = TestClient {
        elicitation: false,
        ..TestClient::new()
    };
    let client = connect(recorder.clone()).await;
    let result = call(&client, "ask_grip", json!({})).await;
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        text(&result),
        "the client does not support elicitation (it did not declare the `elicitation` \
         capability)"
    );
    assert!(recorder.requests().is_empty());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_type_a_form_cannot_hold_is_refused_naming_the_field() {
    let recorder = TestClient::new();
    let client = connect(recorder.clone()).await;
    let result = call(&client, "ask_nested", json!({})).await;
    assert_eq!(result.is_error, Some(true));
    let said = text(&result);
    assert!(
        said.starts_with(
            "cannot send the elicitation request: `client_features::Nested`: field `target` is a \
             nested object"
        ),
        "{said}"
    );
    assert!(recorder.requests().is_empty());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_raw_form_is_sent_as_given_and_its_answer_returned() {
    let recorder = TestClient::answering(Answer::Accept(json!({"color": "g"})));
    let client = connect(recorder.clone()).await;
    let result = call(&client, "ask_color", json!({})).await;
    assert_eq!(text(&result), r#"accepted {"color":"g"}"#);
    assert_eq!(
        recorder.requests()[0]["requestedSchema"]["properties"]["color"],
        json!({"type": "string", "oneOf": [
            {"const": "r", "title": "Red"},
            {"const": "g", "title": "Green"},
        ]})
    );
    client.cancel().await.unwrap();
}

// ---------------------------------------------------------------------------------------------
// In-process calls.

#[tokio::test]
async fn a_detached_context_logs_to_no_client_and_cannot_ask_one() {
    let toolbox = toolbox();
    let logged = toolbox.call("chatty", None).await.unwrap();
    assert_eq!(text(&logged), "none");

    let sampled = toolbox
        .call("ask_model", json!({"prompt": "hi"}).as_object().cloned())
        .await
        .unwrap();
    assert_eq!(sampled.is_error, Some(true));
    assert_eq!(
        text(&sampled),
        "no client: this call was made in-process, so there is no client to ask for sampling"
    );
    let elicited = toolbox.call("ask_grip", None).await.unwrap();
    assert_eq!(
        text(&elicited),
        "no client: this call was made in-process, so there is no client to ask for elicitation"
    );

    let ctx = Context::detached("t");
    assert_eq!(ctx.client_log_level(), None);
    assert_eq!(
        ctx.sample("hi", 10).await,
        Err(ClientError::NoClient {
            request: "sampling"
        })
    );
}
