//! What a tool can return besides JSON and text: images, audio, embedded resources, resource
//! links, several blocks ([`Content`], `Vec<Content>`), and blocks next to a structured value
//! ([`WithContent`]). Each serializes as exactly the MCP content block it becomes (binary data
//! base64-encoded), and its `JsonSchema` describes that shape and carries a marker
//! ([`CONTENT_KEY`]) from which the toolbox decides, once per tool, how its results are shaped
//! and that it publishes no `outputSchema` for the blocks (see `output/mod.rs`).

use std::borrow::Cow;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use rmcp::model::{ContentBlock, Resource, ResourceContents};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Serialize, Serializer};

use crate::schema::keys::CONTENT_KEY;

/// An image a tool returns: its bytes and MIME type, sent as an MCP image block (base64).
///
/// ```rust
/// # use toolwright::{Image, tool};
/// /// Look at the table from above.
/// #[tool(read_only)]
/// fn snapshot() -> Image {
///     Image::png(vec![/* PNG bytes */])
/// }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    data: Vec<u8>,
    mime_type: Cow<'static, str>,
}

impl Image {
    /// An image of any MIME type (`image/webp`, …).
    pub fn new(data: Vec<u8>, mime_type: impl Into<Cow<'static, str>>) -> Self {
        Image {
            data,
            mime_type: mime_type.into(),
        }
    }

    /// A PNG image.
    pub fn png(data: Vec<u8>) -> Self {
        Self::new(data, "image/png")
    }

    /// A JPEG image.
    pub fn jpeg(data: Vec<u8>) -> Self {
        Self::new(data, "image/jpeg")
    }

    /// The bytes.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The MIME type.
    pub fn mime_type(&self) -> &str {
        &self.mime_type
    }
}

/// Audio a tool returns: its bytes and MIME type, sent as an MCP audio block (base64).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Audio {
    data: Vec<u8>,
    mime_type: Cow<'static, str>,
}

impl Audio {
    /// Audio of any MIME type (`audio/mpeg`, …).
    pub fn new(data: Vec<u8>, mime_type: impl Into<Cow<'static, str>>) -> Self {
        Audio {
            data,
            mime_type: mime_type.into(),
        }
    }

    /// A WAV file (`audio/wav`).
    pub fn wav(data: Vec<u8>) -> Self {
        Self::new(data, "audio/wav")
    }

    /// The bytes.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The MIME type.
    pub fn mime_type(&self) -> &str {
        &self.mime_type
    }
}

/// A resource's contents carried in the result (an MCP embedded resource block): text, or bytes
/// (sent base64).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbeddedResource {
    uri: String,
    mime_type: Option<String>,
    body: Body,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Body {
    Text(String),
    Blob(Vec<u8>),
}

impl EmbeddedResource {
    /// A text resource (`text/plain` unless [`EmbeddedResource::with_mime_type`] says otherwise).
    pub fn text(uri: impl Into<String>, text: impl Into<String>) -> Self {
        EmbeddedResource {
            uri: uri.into(),
            mime_type: Some("text/plain".to_owned()),
            body: Body::Text(text.into()),
        }
    }

    /// A binary resource.
    pub fn blob(uri: impl Into<String>, mime_type: impl Into<String>, data: Vec<u8>) -> Self {
        EmbeddedResource {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            body: Body::Blob(data),
        }
    }

    /// Sets the MIME type.
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    fn to_block(&self) -> ContentBlock {
        let contents = match &self.body {
            Body::Text(text) => ResourceContents::TextResourceContents {
                uri: self.uri.clone(),
                mime_type: self.mime_type.clone(),
                text: text.clone(),
                meta: None,
            },
            Body::Blob(data) => ResourceContents::BlobResourceContents {
                uri: self.uri.clone(),
                mime_type: self.mime_type.clone(),
                blob: BASE64.encode(data),
                meta: None,
            },
        };
        ContentBlock::resource(contents)
    }
}

/// A link to a resource the client can read (an MCP resource link block).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceLink {
    uri: String,
    name: String,
    description: Option<String>,
    mime_type: Option<String>,
}

impl ResourceLink {
    /// A link to `uri`, named `name` for people.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        ResourceLink {
            uri: uri.into(),
            name: name.into(),
            description: None,
            mime_type: None,
        }
    }

    /// Says what the resource holds.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Its MIME type.
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    fn to_block(&self) -> ContentBlock {
        let mut resource = Resource::new(&self.uri, &self.name);
        resource.description.clone_from(&self.description);
        resource.mime_type.clone_from(&self.mime_type);
        ContentBlock::resource_link(resource)
    }
}

/// One content block of any kind; return `Vec<Content>` for several, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// Text.
    Text(String),
    /// An image.
    Image(Image),
    /// Audio.
    Audio(Audio),
    /// A resource's contents.
    Resource(EmbeddedResource),
    /// A link to a resource.
    Link(ResourceLink),
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Content::Text(text.into())
    }

    /// The MCP content block.
    pub fn to_block(&self) -> ContentBlock {
        match self {
            Content::Text(text) => ContentBlock::text(text.clone()),
            Content::Image(image) => image.to_block(),
            Content::Audio(audio) => audio.to_block(),
            Content::Resource(resource) => resource.to_block(),
            Content::Link(link) => link.to_block(),
        }
    }
}

impl Image {
    fn to_block(&self) -> ContentBlock {
        ContentBlock::image(BASE64.encode(&self.data), self.mime_type.to_string())
    }
}

impl Audio {
    fn to_block(&self) -> ContentBlock {
        ContentBlock::audio(BASE64.encode(&self.data), self.mime_type.to_string())
    }
}

macro_rules! from_into_content {
    ($($ty:ident => $variant:ident),*) => {$(
        impl From<$ty> for Content {
            fn from(value: $ty) -> Self {
                Content::$variant(value)
            }
        }
    )*};
}
from_into_content!(Image => Image, Audio => Audio, EmbeddedResource => Resource, ResourceLink => Link);

impl From<String> for Content {
    fn from(text: String) -> Self {
        Content::Text(text)
    }
}

impl From<&str> for Content {
    fn from(text: &str) -> Self {
        Content::Text(text.to_owned())
    }
}

/// A structured value (`structuredContent`, published as the `outputSchema` like any return
/// type) with content blocks after its JSON text: a reading and the camera image it was taken
/// from.
#[derive(Debug, Clone, PartialEq)]
pub struct WithContent<T> {
    /// The structured value.
    pub value: T,
    /// The blocks sent after it.
    pub content: Vec<Content>,
}

impl<T> WithContent<T> {
    /// `value` with `content` after it.
    pub fn new(value: T, content: impl IntoIterator<Item = impl Into<Content>>) -> Self {
        WithContent {
            value,
            content: content.into_iter().map(Into::into).collect(),
        }
    }
}

macro_rules! serialize_as_block {
    ($($ty:ty),*) => {$(
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                self.to_block().serialize(serializer)
            }
        }
    )*};
}
serialize_as_block!(Image, Audio, EmbeddedResource, ResourceLink, Content);

impl<T: Serialize> Serialize for WithContent<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let mut s = serializer.serialize_struct("WithContent", 2)?;
        s.serialize_field("value", &self.value)?;
        s.serialize_field("content", &self.content)?;
        s.end()
    }
}

/// The schema of a block of `kind` (its wire shape), marked.
fn block_schema(kind: &str, shape: Schema) -> Schema {
    let mut schema = shape;
    schema.insert(CONTENT_KEY.to_owned(), kind.into());
    schema
}

impl JsonSchema for Image {
    fn schema_name() -> Cow<'static, str> {
        "Image".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        block_schema(
            "image",
            json_schema!({
                "type": "object",
                "description": "An image (base64 data and its MIME type).",
                "properties": {
                    "type": {"const": "image"},
                    "data": {"type": "string", "contentEncoding": "base64"},
                    "mimeType": {"type": "string"}
                },
                "required": ["type", "data", "mimeType"]
            }),
        )
    }
}

impl JsonSchema for Audio {
    fn schema_name() -> Cow<'static, str> {
        "Audio".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        block_schema(
            "audio",
            json_schema!({
                "type": "object",
                "description": "Audio (base64 data and its MIME type).",
                "properties": {
                    "type": {"const": "audio"},
                    "data": {"type": "string", "contentEncoding": "base64"},
                    "mimeType": {"type": "string"}
                },
                "required": ["type", "data", "mimeType"]
            }),
        )
    }
}

impl JsonSchema for EmbeddedResource {
    fn schema_name() -> Cow<'static, str> {
        "EmbeddedResource".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        block_schema(
            "resource",
            json_schema!({
                "type": "object",
                "description": "A resource's contents (text, or base64 data).",
                "properties": {
                    "type": {"const": "resource"},
                    "resource": {"type": "object"}
                },
                "required": ["type", "resource"]
            }),
        )
    }
}

impl JsonSchema for ResourceLink {
    fn schema_name() -> Cow<'static, str> {
        "ResourceLink".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        block_schema(
            "resource_link",
            json_schema!({
                "type": "object",
                "description": "A link to a resource the client can read.",
                "properties": {
                    "type": {"const": "resource_link"},
                    "uri": {"type": "string"},
                    "name": {"type": "string"}
                },
                "required": ["type", "uri", "name"]
            }),
        )
    }
}

impl JsonSchema for Content {
    fn schema_name() -> Cow<'static, str> {
        "Content".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        block_schema(
            "any",
            json_schema!({
                "type": "object",
                "description": "An MCP content block: text, image, audio, resource or resource link.",
                "properties": {"type": {"type": "string"}},
                "required": ["type"]
            }),
        )
    }
}

impl<T: JsonSchema> JsonSchema for WithContent<T> {
    fn schema_name() -> Cow<'static, str> {
        format!("WithContent_{}", T::schema_name()).into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let value = generator.subschema_for::<T>();
        block_schema(
            "with",
            json_schema!({
                "type": "object",
                "properties": {"value": value, "content": {"type": "array"}},
                "required": ["value", "content"]
            }),
        )
    }
}

/// What a tool's content output is, read from its schema's marker (for `_meta` and the docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ContentKind {
    Image,
    Audio,
    Resource,
    ResourceLink,
    /// `Content` or `Vec<Content>`: any blocks.
    Mixed,
}

impl ContentKind {
    /// The kind a schema is marked with (an array of blocks is mixed content).
    pub(crate) fn of(schema: &serde_json::Value) -> Option<ContentKind> {
        if let Some(kind) = schema.get(CONTENT_KEY).and_then(serde_json::Value::as_str) {
            return Some(match kind {
                "image" => ContentKind::Image,
                "audio" => ContentKind::Audio,
                "resource" => ContentKind::Resource,
                "resource_link" => ContentKind::ResourceLink,
                _ => ContentKind::Mixed,
            });
        }
        let items = schema.get("items")?;
        items.get(CONTENT_KEY).map(|_| ContentKind::Mixed)
    }

    /// Its name in a tool's `_meta["io.toolwright/content"]`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            ContentKind::Image => "image",
            ContentKind::Audio => "audio",
            ContentKind::Resource => "resource",
            ContentKind::ResourceLink => "resource_link",
            ContentKind::Mixed => "mixed",
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn blocks_serialize_as_mcp_content() {
        let image = serde_json::to_value(Image::png(vec![1, 2, 3])).unwrap();
        assert_eq!(
            image,
            json!({"type": "image", "data": "AQID", "mimeType": "image/png"})
        );
        let audio = serde_json::to_value(Audio::wav(vec![0; 4])).unwrap();
        assert_eq!(
            audio,
            json!({"type": "audio", "data": "AAAAAA==", "mimeType": "audio/wav"})
        );
        let text = serde_json::to_value(EmbeddedResource::text("test://a", "hello")).unwrap();
        assert_eq!(
            text,
            json!({"type": "resource", "resource": {"uri": "test://a", "mimeType": "text/plain", "text": "hello"}})
        );
        let blob = serde_json::to_value(EmbeddedResource::blob("test://b", "image/png", vec![255]))
            .unwrap();
        assert_eq!(blob["resource"]["blob"], "/w==");
        let link = serde_json::to_value(
            ResourceLink::new("file:///log.txt", "log").with_mime_type("text/plain"),
        )
        .unwrap();
        assert_eq!(
            link,
            json!({"type": "resource_link", "uri": "file:///log.txt", "name": "log", "mimeType": "text/plain"})
        );
        let blocks: Vec<ContentBlock> =
            serde_json::from_value(json!([image, audio, text, blob, link]))
                .expect("rmcp reads them back as content blocks");
        assert_eq!(blocks.len(), 5);
    }

    #[test]
    fn schemas_carry_their_kind() {
        let mut generator = SchemaGenerator::default();
        let kind = |s: Schema| ContentKind::of(&s.to_value());
        assert_eq!(
            kind(generator.subschema_for::<Image>()),
            Some(ContentKind::Image)
        );
        assert_eq!(
            kind(generator.subschema_for::<Audio>()),
            Some(ContentKind::Audio)
        );
        assert_eq!(
            kind(generator.subschema_for::<Vec<Content>>()),
            Some(ContentKind::Mixed)
        );
        assert_eq!(kind(generator.subschema_for::<String>()), None);
    }
}
