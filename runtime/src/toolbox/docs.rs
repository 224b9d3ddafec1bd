//! What `export` writes for a toolbox beyond its tools' definitions: the page people read
//! (`index.html`, [`crate::export::html`]), `llms.txt` ([`crate::export::llms`]) and, with a
//! skill, `SKILL.md` with the reference it links (`references/TOOLS.md`), as the skills
//! extension serves them.

use super::{Toolbox, read};
use crate::export::html::{self, PageSource};
use serde_json::Value;

use crate::export::{Export, Format, clients, llms, skill};

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// `index.html`: every tool as listed now, for people, in one file that fetches nothing
    /// ([`crate::export::html`]).
    pub fn index_html(&self) -> String {
        let tools = read(&self.inner.listed).clone();
        self.page(&tools, None)
    }

    /// The page of `tools`, from their dialect declarations when given.
    fn page(&self, tools: &[rmcp::model::Tool], dialects: Option<(&Value, &Value)>) -> String {
        let config = &self.inner.config;
        let (operations, resources) = self.operations(tools);
        html::render(&PageSource {
            name: &config.name,
            version: &config.version,
            title: config.title.as_deref(),
            instructions: config.instructions.as_deref(),
            tools,
            operations: &operations,
            resources: &resources,
            client_rate_limit: config.client_rate_limit,
            dialects,
        })
    }

    /// `llms.txt` ([llmstxt.org](https://llmstxt.org)): the server in a sentence and a link
    /// per tool into the other files ([`crate::export::llms`]).
    pub fn llms_txt(&self) -> String {
        let config = &self.inner.config;
        let tools = read(&self.inner.listed).clone();
        llms::render(&llms::Source {
            name: &config.name,
            version: &config.version,
            title: config.title.as_deref(),
            instructions: config.instructions.as_deref(),
            tools: &tools,
            skill: self.has_skill(),
        })
    }

    /// The name clients prefix to this server's tools, as [`clients::check`] counts it when
    /// none is given: the toolbox's title, else its name.
    pub fn server_name_for_clients(&self) -> String {
        let config = &self.inner.config;
        config
            .title
            .clone()
            .unwrap_or_else(|| config.name.to_string())
    }

    /// What each client would refuse of the tools as listed now, the server named `server`
    /// where a client prefixes it ([`clients::check`]; `check --clients`).
    pub fn client_findings(&self, server: &str) -> clients::Report {
        clients::check(&self.listed_tools(), server)
    }

    /// Everything `export --out DIR` writes, and `check --against DIR` holds: the tools as
    /// listed now (written in every [`Format`]), then `SKILL.md` and `references/TOOLS.md`
    /// when the toolbox serves a skill, `index.html` and `llms.txt`.
    pub fn export(&self) -> Export {
        let (mut export, openai, gemini) = Export::of_tools(self.listed_tools());
        if let Some(skill_md) = self.skill_md() {
            let reference = export
                .formats
                .iter()
                .find(|(format, _)| *format == Format::Markdown)
                .map(|(_, text)| text.clone())
                .unwrap_or_default();
            export
                .documents
                .push((skill::SKILL_FILE.to_owned(), skill_md));
            export
                .documents
                .push((skill::REFERENCE_FILE.to_owned(), reference));
        }
        let page = self.page(&export.tools, Some((&openai, &gemini)));
        export.documents.push((html::FILE.to_owned(), page));
        export
            .documents
            .push((llms::FILE.to_owned(), self.llms_txt()));
        export
    }
}
