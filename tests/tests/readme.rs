//! The README runs as written. Its "Use it in your crate" lines build a crate: a scratch crate
//! whose `[dependencies]` are exactly those lines (toolwright itself patched to this checkout,
//! since it is not on crates.io yet), whose `src/main.rs` is the README's first example, plus a
//! tool taking a uom quantity (the lines' `uom` feature and crate), and whose `src/bin/` holds
//! the README's robot toolbox. The first example answers `tools --format markdown` and `call`;
//! the robot toolbox publishes its envelope, check and question, refuses what the README says
//! it refuses, and, served over stdio to a client that confirms, moves until its stop tool
//! halts it. Every command line of "Try it" runs as written, and every link of the README
//! leads somewhere: its files exist, and each link into the reference names a section that
//! rustdoc renders.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use rmcp::ServiceExt as _;
use rmcp::model::{
    ClientCapabilities, ElicitRequestParams, ElicitResult, ElicitationAction,
    ElicitationCapability, ErrorData, Implementation,
};
use rmcp::service::{RequestContext, RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md")).unwrap()
}

/// The first fenced block of `lang` after `heading` (or from the start).
fn block(text: &str, heading: Option<&str>, lang: &str) -> String {
    let from = heading.map_or(0, |h| text.find(h).unwrap_or_else(|| panic!("no {h}")));
    let rest = &text[from..];
    let fence = format!("```{lang}");
    let start = rest.find(&fence).unwrap_or_else(|| panic!("no {fence}"));
    let body = &rest[start..];
    let body = &body[body.find('\n').unwrap() + 1..];
    body[..body.find("```").unwrap()].to_owned()
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

/// The scratch crate's two binaries: the first example (with a uom tool) and the robot toolbox.
struct Built {
    first: PathBuf,
    robot: PathBuf,
}

/// Builds the scratch crate once for every test of this file.
fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(build_the_scratch_crate)
}

fn build_the_scratch_crate() -> Built {
    let text = readme();
    let lines = block(&text, Some("## Use it in your crate"), "toml");
    assert!(lines.starts_with("[dependencies]\n"), "{lines}");
    for needed in ["toolwright =", "serde =", "tokio =", "uom ="] {
        assert!(lines.contains(needed), "{needed} missing from:\n{lines}");
    }
    let example = block(&text, None, "rust");
    assert!(example.contains("run_cli_main()"), "{example}");
    let robot = block(&text, Some("## A robot toolbox"), "rust");

    let workspace = workspace();
    // Inside the workspace's target, so its .cargo/config.toml (the dev profile) applies and
    // the dependencies it already built are reused.
    let target = workspace.join("target");
    let dir = target
        .join("tmp")
        .join(format!("readme-crate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src/bin")).unwrap();
    let manifest = format!(
        "[package]\nname = \"my-robot\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n{lines}\n\
         [patch.crates-io]\ntoolwright = {{ path = {:?} }}\ntoolwright-macros = {{ path = {:?} }}\n\n\
         # Not a member of the toolwright workspace above it.\n[workspace]\n",
        workspace.join("runtime"),
        workspace.join("macros"),
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    // The workspace's lock file: the same versions it already has, nothing fetched.
    std::fs::copy(workspace.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let quantities = r#"
/// How far to reach.
#[toolwright::tool(read_only)]
fn reach(
    /// The distance.
    #[param(unit = "mm", range = 0.0..=850.0)]
    distance: uom::si::f64::Length,
) -> String {
    format!("{:.0} mm", distance.get::<uom::si::length::millimeter>())
}

#[allow(dead_code)]
fn quantities() -> Vec<toolwright::ToolDef<()>> {
    toolwright::tool_defs![reach]
}
"#;
    std::fs::write(dir.join("src/main.rs"), format!("{example}\n{quantities}")).unwrap();
    std::fs::write(dir.join("src/bin/readme-robot.rs"), robot).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(&cargo)
        .args(["build", "--offline", "--quiet", "--bins", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    // The sources are not needed once built (the binaries are in the workspace's target).
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "the README's lines do not build:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Built {
        first: target.join("debug").join("my-robot"),
        robot: target.join("debug").join("readme-robot"),
    }
}

/// Runs `bin` with `args` (stdin closed): its exit code and its stdout.
fn run(bin: &Path, args: &[String]) -> (Option<i32>, String) {
    let out = Command::new(bin)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| (*a).to_owned()).collect()
}

#[test]
fn the_cargo_toml_lines_build_a_crate() {
    let bin = &built().first;
    let (code, markdown) = run(bin, &strings(&["tools", "--format", "markdown"]));
    assert_eq!(code, Some(0), "{markdown}");
    assert!(markdown.contains("## `grasp`"), "{markdown}");
    let (code, out) = run(
        bin,
        &strings(&[
            "call",
            "grasp",
            "--args",
            r#"{"target": {"x": 1, "y": 2}, "force": 100}"#,
        ]),
    );
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("force: must be between 5 and 30 N, got 100"),
        "{out}"
    );
}

/// The README's robot toolbox has every part the README says it has, publishes its envelope,
/// check and question, and refuses (exit 1) or runs (exit 0) each call as the README says.
#[test]
fn the_robot_toolbox_publishes_and_refuses_as_the_readme_says() {
    let text = readme();
    let code = block(&text, Some("## A robot toolbox"), "rust");
    for part in [
        "safe_stop = halt",
        "position = tool_point",
        "allow(box(",
        "keep_out(name = \"fixture\", box(",
        "target = (x, y, z)",
        "check = slow_near_table",
        "confirm = \"Move the tool point to",
        "#[tool(stop_for = \"arm\")]",
        "#[tool(read_only)]",
        "run_cli_main()",
    ] {
        assert!(code.contains(part), "the robot toolbox lacks `{part}`");
    }
    let bin = &built().robot;
    let (status, markdown) = run(bin, &strings(&["tools", "--format", "markdown"]));
    assert_eq!(status, Some(0), "{markdown}");
    for published in [
        "## `move_to`",
        "## `stop`",
        "## `status`",
        "fixture",
        "Below z = 100 mm the speed is at most 0.2.",
        "Move the tool point to ({x}, {y}, {z}) at {speed} of full speed?",
    ] {
        assert!(
            markdown.contains(published),
            "{published} not in:\n{markdown}"
        );
    }

    // The command line the README gives after the toolbox, as written, then with its second
    // set of arguments.
    let section = section(&text, "## A robot toolbox");
    let at = section
        .find("`cargo run -- call move_to")
        .expect("a call line");
    let line = &section[at + 1..];
    let line = &line[..line.find('`').unwrap()];
    let args: Vec<String> = words(line).into_iter().skip(3).collect();
    assert_eq!(
        args[..3],
        strings(&["call", "move_to", "--confirm=off"]),
        "{line}"
    );
    let (status, out) = run(bin, &args);
    assert_eq!(status, Some(1), "{out}");
    assert!(out.contains("fixture"), "{out}");
    let check_args = r#"{"x": 0, "y": 0, "z": 50}"#;
    assert!(section.contains(&format!("`{check_args}` (the check)")));
    let mut with_check = args.clone();
    *with_check.last_mut().unwrap() = check_args.to_owned();
    let (status, out) = run(bin, &with_check);
    assert_eq!(status, Some(1), "{out}");
    assert!(
        out.contains("below z = 100 mm the speed is at most 0.2, not 0.5"),
        "{out}"
    );

    // No one to ask on a command line: not confirmed, nothing ran.
    let motion = r#"{"x": 200, "y": -150, "z": 120}"#;
    let (status, out) = run(bin, &strings(&["call", "move_to", "--args", motion]));
    assert_eq!(status, Some(1), "{out}");
    assert!(out.contains("not confirmed"), "{out}");
    let (status, out) = run(
        bin,
        &strings(&["call", "move_to", "--confirm=off", "--args", motion]),
    );
    assert_eq!(status, Some(0), "{out}");
    assert!(out.contains("at (200, -150, 120) mm"), "{out}");
    let (status, out) = run(bin, &strings(&["call", "status"]));
    assert_eq!(status, Some(0), "{out}");
    assert!(out.contains("\"moving\": false"), "{out}");
}

/// A user who accepts every confirmation, keeping the questions.
#[derive(Clone, Default)]
struct User {
    questions: Arc<Mutex<Vec<String>>>,
}

impl rmcp::ClientHandler for User {
    fn get_info(&self) -> rmcp::model::ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation = Some(ElicitationCapability::default());
        rmcp::model::ClientConfig::new(capabilities, Implementation::new("user", "1.0.0"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let request = serde_json::to_value(&request).unwrap();
        let question = request["message"].as_str().unwrap_or_default().to_owned();
        self.questions.lock().unwrap().push(question);
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(json!({})))
    }
}

/// What the robot toolbox's `status` answers.
async fn status_of(client: &RunningService<RoleClient, User>) -> Value {
    let result = common::call(client, "status", json!({})).await;
    result.structured_content.expect("a structured status")
}

/// The robot toolbox served over stdio, as an MCP client launches it: the user is asked before
/// the motion, the motion runs, `status` answers while it does, and `stop` halts it where it
/// is; the motion's answer names the stop, and the safe stop's report.
#[tokio::test]
async fn the_robot_toolbox_moves_after_asking_and_stops() {
    let bin = built().robot.clone();
    let mut command = tokio::process::Command::new(&bin);
    command.arg("serve");
    let (transport, _stderr) = TokioChildProcess::builder(command)
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn the robot toolbox");
    let user = User::default();
    let client = Arc::new(user.clone().serve(transport).await.expect("initialize"));

    let names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(names, ["move_to", "stop", "status"]);

    // At 0.05 of full speed the motion takes 10 s: the stop comes long before its end.
    let motion = tokio::spawn({
        let client = client.clone();
        async move {
            common::call(
                &*client,
                "move_to",
                json!({"x": -300, "y": 0, "z": 300, "speed": 0.05}),
            )
            .await
        }
    });
    let mut moving = false;
    for _ in 0..200 {
        if status_of(&client).await["moving"] == json!(true) {
            moving = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(moving, "the motion never started");
    assert_eq!(
        *user.questions.lock().unwrap(),
        ["Move the tool point to (-300 mm, 0 mm, 300 mm) at 0.05 of full speed?"]
    );

    let stop = common::call(&*client, "stop", json!({})).await;
    assert_ne!(stop.is_error, Some(true), "{stop:?}");
    let motion = tokio::time::timeout(Duration::from_secs(5), motion)
        .await
        .expect("the motion answers once stopped")
        .unwrap();
    assert_eq!(motion.is_error, Some(true), "{motion:?}");
    let said = common::text(&motion);
    assert!(said.contains("`stop`"), "{said}");
    assert!(said.contains("halted at"), "{said}");

    let now = status_of(&client).await;
    assert_eq!(now["moving"], json!(false), "{now}");
    let x = now["position"][0].as_f64().unwrap();
    assert!(
        -300.0 < x && x <= 0.0,
        "halted between start and target: {now}"
    );
    assert_eq!(now["position"][1], json!(0.0), "{now}");
    assert_eq!(now["position"][2], json!(300.0), "{now}");
    drop(client);
}

/// The words of a shell line (`a 'b c' d`), with single quotes as the README writes them.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut started) = (false, false);
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        out.push(word);
    }
    out
}

/// The text of the section under `heading`, up to the next `## `.
fn section<'a>(text: &'a str, heading: &str) -> &'a str {
    let section = &text[text.find(heading).unwrap_or_else(|| panic!("no {heading}"))..];
    &section[..section[3..]
        .find("\n## ")
        .map_or(section.len(), |at| at + 3)]
}

/// The lines of every ```sh block of `text`, without their comments.
fn sh_lines(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("```sh\n") {
        let block = &rest[at + "```sh\n".len()..];
        let end = block.find("```").unwrap();
        lines.extend(
            block[..end]
                .lines()
                .map(|l| l.split(" #").next().unwrap().trim().to_owned())
                .filter(|l| !l.is_empty()),
        );
        rest = &block[end..];
    }
    lines
}

/// The README's two commands: the robot arm on stdio (which ends when its stdin does) and
/// `.ci/run`, which is there and executable (it is the whole suite, this test among it).
#[test]
fn the_two_commands_are_there() {
    let text = readme();
    let top = &text[..text.find("\n## ").unwrap()];
    assert_eq!(
        sh_lines(top),
        ["cargo run --example robot_arm", ".ci/run"],
        "the README's two commands"
    );
    let (code, out) = run(&common::robot_arm_binary(), &[]);
    assert_eq!(code, Some(0), "{out}");
    use std::os::unix::fs::PermissionsExt as _;
    let mode = std::fs::metadata(workspace().join(".ci/run"))
        .unwrap()
        .permissions()
        .mode();
    assert!(mode & 0o111 != 0, ".ci/run is not executable");
}

/// Every command line of "Try it" is a `cargo run --example robot_arm ...` line, and each runs
/// as written (with the robot arm built once; `docs/` is a scratch folder; `serve --http` must
/// be up and serving after a second, then it is stopped).
#[test]
fn the_try_it_commands_run_as_written() {
    let text = readme();
    let lines = sh_lines(section(&text, "## Try it"));
    for line in &lines {
        assert!(
            line.starts_with("cargo run --example robot_arm"),
            "a Try it line this test cannot run: {line}"
        );
    }
    assert_eq!(lines.len(), 6, "{lines:?}");
    let bin = common::robot_arm_binary();
    let scratch = std::env::temp_dir().join(format!("toolwright-try-it-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    for line in &lines {
        let args: Vec<String> = words(line)
            .into_iter()
            .skip(4) // cargo run --example robot_arm
            .skip_while(|w| w == "--")
            .map(|w| w.replace("docs/", &format!("{}/", scratch.display())))
            .collect();
        if args.first().map(String::as_str) == Some("serve") {
            let mut server = Command::new(&bin)
                .args(&args)
                .stdin(std::process::Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(std::time::Duration::from_secs(1));
            let addr = args.iter().skip_while(|a| *a != "--http").nth(1).unwrap();
            let reached = std::net::TcpStream::connect(addr.as_str()).is_ok();
            let early_exit = server.try_wait().unwrap();
            let _ = server.kill();
            let _ = server.wait();
            assert!(
                early_exit.is_none() && reached,
                "`{line}` is not serving on {addr}"
            );
            continue;
        }
        let out = Command::new(&bin)
            .args(&args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "`{line}` failed ({:?}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(scratch.join("index.html").exists());
    let _ = std::fs::remove_dir_all(&scratch);
}

/// The id rustdoc gives a heading: lower case, its words joined by `-`, other characters
/// dropped.
fn heading_id(heading: &str) -> String {
    let mut id = String::new();
    for c in heading.chars() {
        if c.is_alphanumeric() || c == '_' || c == '-' {
            id.extend(c.to_lowercase());
        } else if c.is_whitespace() {
            id.push('-');
        }
    }
    id
}

/// Every link of the README leads somewhere. A relative link names a file or folder of the
/// repository. Each link label the README defines (for GitHub: the reference's source) is
/// defined again first in `runtime/src/lib.rs` for rustdoc (the rendered reference), with a
/// section of `toolwright::reference` that exists.
#[test]
fn every_readme_link_leads_somewhere() {
    let text = readme();
    let workspace = workspace();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("](") {
        let link = &rest[at + 2..];
        let link = &link[..link.find(')').unwrap()];
        rest = &rest[at + 2..];
        if link.starts_with("http") || link.contains(' ') {
            continue;
        }
        assert!(
            workspace.join(link).exists(),
            "the README links {link}, which is not in the repository"
        );
    }
    let readme_labels: Vec<(&str, &str)> = text
        .lines()
        .filter_map(|l| l.strip_prefix('['))
        .filter_map(|l| l.split_once("]: "))
        .collect();
    assert!(readme_labels.len() >= 10, "{readme_labels:?}");
    let lib = std::fs::read_to_string(workspace.join("runtime/src/lib.rs")).unwrap();
    let reference = std::fs::read_to_string(workspace.join("runtime/src/reference.rs")).unwrap();
    let ids: Vec<String> = reference
        .lines()
        .filter_map(|l| l.strip_prefix("//! #"))
        .map(|h| heading_id(h.trim_start_matches('#').trim()))
        .collect();
    for (label, path) in readme_labels {
        assert!(
            workspace.join(path).exists(),
            "[{label}] links {path}, which is not in the repository"
        );
        let prefix = format!("//! [{label}]: crate::");
        let rustdoc = lib
            .lines()
            .find_map(|l| l.strip_prefix(prefix.as_str()))
            .unwrap_or_else(|| panic!("lib.rs does not define [{label}] for rustdoc"));
        if let Some((module, id)) = rustdoc.split_once('#') {
            assert_eq!(module, "reference", "[{label}]");
            assert!(
                ids.iter().any(|i| i == id),
                "[{label}] names #{id}, which no heading of the reference has: {ids:?}"
            );
        }
    }
}
