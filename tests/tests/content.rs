//! Tools that return content blocks (images, audio, embedded resources, resource links, several
//! blocks, blocks next to a structured value), through rmcp's client: the blocks arrive as MCP
//! content, the published `outputSchema` stays truthful, and every export says what comes back.

mod common;

use base64::Engine as _;
use common::{call, connect};
use rmcp::model::{ContentBlock, ResourceContents};
use serde::Serialize;
use serde_json::json;
use toolwright::export::{self, Format};
use toolwright::{
    Audio, Content, EmbeddedResource, Image, ResourceLink, ToolSchema, Toolbox, ToolboxBuilder,
    WithContent, tool, tools,
};

const PNG_1X1: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
];

/// Look at the table.
#[tool(read_only)]
fn snapshot() -> Image {
    Image::png(PNG_1X1.to_vec())
}

/// Beep.
#[tool(read_only)]
fn beep() -> Audio {
    Audio::wav(vec![0x52, 0x49, 0x46, 0x46])
}

/// The calibration file.
#[tool(read_only)]
fn calibration() -> EmbeddedResource {
    EmbeddedResource::text("robot://calibration", "{\"offset\": 2}")
        .with_mime_type("application/json")
}

/// Where the log is.
#[tool(read_only)]
fn log_link() -> ResourceLink {
    ResourceLink::new("file:///var/log/arm.log", "arm log")
        .with_mime_type("text/plain")
        .with_description("The arm's motion log.")
}

/// Everything at once.
#[tool(read_only)]
fn report(
    /// Include the image.
    with_image: bool,
) -> Vec<Content> {
    let mut blocks = vec![Content::text("Report:")];
    if with_image {
        blocks.push(Image::png(PNG_1X1.to_vec()).into());
    }
    blocks.push(
        EmbeddedResource::blob("robot://raw", "application/octet-stream", vec![1, 2, 3]).into(),
    );
    blocks
}

/// A reading.
#[derive(Debug, Serialize, ToolSchema)]
struct Reading {
    /// Force.
    #[param(unit = "N", range = 0.0..=100.0)]
    force: f64,
}

/// Read the force and show the camera.
#[tool(read_only)]
fn read_and_look(
    /// The force to report.
    force: f64,
) -> WithContent<Reading> {
    WithContent::new(Reading { force }, [Image::png(PNG_1X1.to_vec())])
}

/// Say something, then show it.
#[tool(read_only)]
fn say_and_show() -> WithContent<String> {
    WithContent::new("Here it is:".to_owned(), [Image::png(PNG_1X1.to_vec())])
}

fn toolbox() -> Toolbox<()> {
    builder().build().unwrap()
}

fn builder() -> ToolboxBuilder<()> {
    tools![
        snapshot,
        beep,
        calibration,
        log_link,
        report,
        read_and_look,
        say_and_show
    ]
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[tokio::test]
async fn each_kind_of_block_arrives_as_mcp_content() {
    let toolbox = toolbox();
    let client = connect(toolbox.clone()).await;

    let r = call(&client, "snapshot", json!({})).await;
    assert_eq!(r.is_error, Some(false));
    assert_eq!(r.structured_content, None);
    let [ContentBlock::Image(image)] = &r.content[..] else {
        panic!("{r:?}")
    };
    assert_eq!(image.mime_type, "image/png");
    assert_eq!(image.data, b64(PNG_1X1));

    let r = call(&client, "beep", json!({})).await;
    let [ContentBlock::Audio(audio)] = &r.content[..] else {
        panic!("{r:?}")
    };
    assert_eq!(audio.mime_type, "audio/wav");
    assert_eq!(audio.data, b64(b"RIFF"));

    let r = call(&client, "calibration", json!({})).await;
    let [ContentBlock::Resource(resource)] = &r.content[..] else {
        panic!("{r:?}")
    };
    let ResourceContents::TextResourceContents {
        uri,
        mime_type,
        text,
        ..
    } = &resource.resource
    else {
        panic!("{resource:?}")
    };
    assert_eq!(
        (uri.as_str(), mime_type.as_deref(), text.as_str()),
        (
            "robot://calibration",
            Some("application/json"),
            "{\"offset\": 2}"
        )
    );

    let r = call(&client, "log_link", json!({})).await;
    let [ContentBlock::ResourceLink(link)] = &r.content[..] else {
        panic!("{r:?}")
    };
    assert_eq!(link.uri, "file:///var/log/arm.log");
    assert_eq!(link.name, "arm log");
    assert_eq!(link.description.as_deref(), Some("The arm's motion log."));

    let r = call(&client, "report", json!({"with_image": true})).await;
    let kinds: Vec<&str> = r
        .content
        .iter()
        .map(|b| match b {
            ContentBlock::Text(_) => "text",
            ContentBlock::Image(_) => "image",
            ContentBlock::Resource(_) => "resource",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["text", "image", "resource"]);
    let r = call(&client, "report", json!({"with_image": false})).await;
    assert_eq!(r.content.len(), 2);
    let ContentBlock::Resource(raw) = &r.content[1] else {
        panic!("{r:?}")
    };
    let ResourceContents::BlobResourceContents { blob, .. } = &raw.resource else {
        panic!("{raw:?}")
    };
    assert_eq!(blob, &b64(&[1, 2, 3]));

    let r = call(&client, "read_and_look", json!({"force": 12.5})).await;
    assert_eq!(r.structured_content, Some(json!({"force": 12.5})));
    assert_eq!(r.content.len(), 2, "the JSON as text, then the image");
    assert_eq!(r.content[0].as_text().unwrap().text, "{\"force\":12.5}");
    assert!(matches!(r.content[1], ContentBlock::Image(_)));

    let r = call(&client, "say_and_show", json!({})).await;
    assert_eq!(r.structured_content, None);
    assert_eq!(r.content[0].as_text().unwrap().text, "Here it is:");
    assert!(matches!(r.content[1], ContentBlock::Image(_)));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_structured_value_next_to_blocks_is_still_checked() {
    // 250 N is outside the declared 0..=100 N: a bug in the tool, caught before it is sent.
    let toolbox = builder().with_output_checks(true).build().unwrap();
    let r = toolbox
        .call(
            "read_and_look",
            json!({"force": 250.0}).as_object().cloned(),
        )
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    let text = &r.content[0].as_text().unwrap().text;
    assert!(text.contains("- force: "), "{text}");
}

#[test]
fn the_published_schemas_stay_truthful() {
    let toolbox = toolbox();
    let meta = |name: &str| {
        toolbox
            .tool(name)
            .unwrap()
            .meta
            .as_ref()
            .map(|m| m.0[toolwright::CONTENT_META].clone())
    };
    for (name, kind) in [
        ("snapshot", "image"),
        ("beep", "audio"),
        ("calibration", "resource"),
        ("log_link", "resource_link"),
        ("report", "mixed"),
        ("say_and_show", "mixed"),
    ] {
        let tool = toolbox.tool(name).unwrap();
        assert!(
            tool.output_schema.is_none(),
            "{name}: content blocks publish no outputSchema (clients then require no structuredContent)"
        );
        assert_eq!(meta(name), Some(json!(kind)), "{name}");
    }
    let with = toolbox.tool("read_and_look").unwrap();
    let schema = with.output_schema.as_ref().unwrap();
    assert_eq!(
        schema["properties"]["force"]["x-unit"], "N",
        "the value's own schema"
    );
    assert!(schema.get("x-toolwright-content").is_none());
    assert_eq!(meta("read_and_look"), Some(json!("mixed")));
}

#[test]
fn every_export_says_what_comes_back() {
    let toolbox = toolbox();
    let md = export::render(toolbox.tools(), Format::Markdown);
    assert!(
        md.contains("Returns an image. (MCP content blocks, no structured output.)"),
        "{md}"
    );
    assert!(md.contains("Returns audio."));
    assert!(md.contains("Returns a link to a resource."));
    assert!(md.contains("Returns its result as JSON, followed by content blocks"));
    for format in [Format::OpenAi, Format::Anthropic, Format::Gemini] {
        let rendered = export::render(toolbox.tools(), format);
        assert!(
            rendered.contains("Look at the table.\\n\\nReturns an image."),
            "{format}: {rendered}"
        );
    }
    let openai: serde_json::Value =
        serde_json::from_str(&export::render(toolbox.tools(), Format::OpenAi)).unwrap();
    assert_eq!(export::check_openai(&openai), Vec::<String>::new());
}

#[test]
fn content_types_where_they_cannot_be_blocks_stop_the_build() {
    /// Maybe an image.
    #[tool(read_only)]
    fn maybe() -> Option<Image> {
        None
    }
    /// Images by camera.
    #[tool(read_only)]
    fn by_camera() -> std::collections::BTreeMap<String, Image> {
        Default::default()
    }
    /// An image inside a struct.
    #[derive(Serialize, ToolSchema)]
    struct Shot {
        /// The image.
        image: Image,
    }
    /// A shot.
    #[tool(read_only)]
    fn shot() -> Shot {
        Shot {
            image: Image::png(Vec::new()),
        }
    }
    /// A cut image.
    #[tool(read_only, max_output_bytes = 1000)]
    fn cut() -> Image {
        Image::png(Vec::new())
    }
    let e = Toolbox::try_from_tools((), toolwright::tool_defs![maybe, by_camera, shot, cut])
        .unwrap_err();
    let toolwright::BuildError::Tools { problems } = &e else {
        panic!("{e}")
    };
    assert_eq!(problems.len(), 4, "{e}");
    for (problem, tool) in problems.iter().zip(["maybe", "by_camera", "shot"]) {
        assert!(
            problem.starts_with(&format!("tool `{tool}`: output: content types"))
                && problem.contains("not inside an `Option`, a struct field, a map"),
            "{problem}"
        );
    }
    assert_eq!(
        problems[3],
        "tool `cut`: `max_output_bytes` does not apply to content blocks (images, audio, \
         resources are never cut): size them in the tool, and remove the budget"
    );
}
