//! The toolbox's operating skill (the MCP Skills extension, SEP-2640): opting in
//! ([`ToolboxBuilder::with_skill`]), writing it from the declarations
//! ([`crate::export::skill`]), and the entries, directories and files the skills methods and
//! `resources/*` serve.

use rmcp::model::{
    DIRECTORY_MIME_TYPE, ReadResourceResult, Resource, ResourceContents, Skill, SkillFrontmatter,
    SkillResource, SkillResources,
};

use super::{Entry, Toolbox, ToolboxBuilder, read};
use crate::exec::policy::DEFAULT_GRACE;
use crate::export::skill::{self as generate, Operation, SharedResource, SkillSource};
use crate::export::{Format, render};

const MARKDOWN: &str = "text/markdown";

/// A skill a toolbox serves: what its author wrote.
#[derive(Debug, Clone)]
pub(super) struct SkillConfig {
    name: String,
    description: String,
}

/// A skill's files as served now.
struct Rendered {
    name: String,
    description: String,
    /// `SKILL.md`, then `references/TOOLS.md`: (path in the skill, text).
    files: [(&'static str, String); 2],
}

impl Rendered {
    fn root(&self) -> String {
        format!("skill://{}", self.name)
    }

    fn uri(&self, path: &str) -> String {
        format!("skill://{}/{path}", self.name)
    }

    fn skill_md(&self) -> &str {
        &self.files[0].1
    }
}

impl SkillConfig {
    /// A skill named and described so (see [`ToolboxBuilder::with_skill`]); what is wrong with
    /// them, when they break the rules.
    pub(super) fn new(name: String, description: String) -> Result<Self, String> {
        generate::check(&name, &description)?;
        Ok(SkillConfig {
            name,
            description: description.trim().to_owned(),
        })
    }
}

impl<S: Send + Sync + 'static> ToolboxBuilder<S> {
    /// Serves an operating skill for these tools (the MCP Skills extension, SEP-2640), and
    /// `export` writes it as `SKILL.md`. `name` names the skill (1 to 64 lowercase letters,
    /// digits and single hyphens: `robot-arm`); `description` says in one sentence what it is
    /// for and when to use it (at most 1,024 characters, one line); building fails with
    /// [`BuildError::InvalidSkill`](super::BuildError::InvalidSkill) when they break those
    /// rules. The rest is written from the declarations: which tools change the world,
    /// deadlines, units and limits, what happens when a call ends early (grace periods, safe
    /// stops, queues, retries), rate limits, groups and scopes ([`crate::export::skill`]).
    ///
    /// The skill is `skill://<name>/SKILL.md` plus the full reference
    /// `skill://<name>/references/TOOLS.md`, listed by `skills/list` and `resources/list` and
    /// read with `resources/read`; the toolbox declares the `resources` capability and the
    /// `io.modelcontextprotocol/skills` extension (with `directoryRead`). It describes the tools
    /// as listed at the time (enabled groups only). A handler of your own
    /// ([`ToolboxBuilder::with_handler`]) delegates the skills methods with
    /// [`delegate_skills!`](crate::delegate_skills) and merges [`Toolbox::skill_resources`] and
    /// [`Toolbox::read_skill_resource`] into its `resources/list` and `resources/read`.
    #[must_use]
    pub fn with_skill(mut self, name: impl Into<String>, description: impl Into<String>) -> Self {
        self.settings.skill = Some((name.into(), description.into()));
        self
    }
}

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// The skill's `SKILL.md` as served now, when the toolbox has one
    /// ([`ToolboxBuilder::with_skill`]).
    pub fn skill_md(&self) -> Option<String> {
        self.rendered_skill().map(|r| r.skill_md().to_owned())
    }

    /// The skill's `SKILL.md` as a resource, for `resources/list` (empty without a skill): its
    /// name and description are the skill's.
    pub fn skill_resources(&self) -> Vec<Resource> {
        let Some(r) = self.rendered_skill() else {
            return Vec::new();
        };
        vec![
            Resource::new(r.uri(generate::SKILL_FILE), r.name.clone())
                .with_description(r.description.clone())
                .with_mime_type(MARKDOWN)
                .with_size(r.skill_md().len() as u64),
        ]
    }

    /// A file of the skill, for `resources/read`; `None` when `uri` is not one.
    pub fn read_skill_resource(&self, uri: &str) -> Option<ReadResourceResult> {
        let r = self.rendered_skill()?;
        let (_, text) = r.files.iter().find(|(path, _)| r.uri(path) == uri)?;
        Some(ReadResourceResult::new(vec![
            ResourceContents::text(text.clone(), uri).with_mime_type(MARKDOWN),
        ]))
    }

    /// The skill's entry for `skills/list` and `skills/get`: its front matter, and each file
    /// with its digest and size.
    pub(super) fn skill_entry(&self) -> Option<Skill> {
        let r = self.rendered_skill()?;
        let files = r
            .files
            .iter()
            .map(|(path, text)| SkillResource::from_bytes(r.uri(path), text.as_bytes()))
            .collect();
        Some(Skill::new(
            r.uri(generate::SKILL_FILE),
            SkillFrontmatter::new(r.name.clone(), r.description.clone()),
            SkillResources::Files(files),
        ))
    }

    /// The children of a directory of the skill, for `resources/directory/read`; `None` when
    /// `uri` is not one.
    pub(super) fn skill_directory(&self, uri: &str) -> Option<Vec<Resource>> {
        let r = self.rendered_skill()?;
        let file = |path: &str, text: &str| {
            let name = path.rsplit('/').next().unwrap_or(path);
            Resource::new(r.uri(path), name)
                .with_mime_type(MARKDOWN)
                .with_size(text.len() as u64)
        };
        let [(skill_path, skill_md), (reference_path, reference)] = &r.files;
        let (references, _) = reference_path.split_once('/')?;
        if uri == r.root() {
            Some(vec![
                file(skill_path, skill_md),
                Resource::new(r.uri(references), references).with_mime_type(DIRECTORY_MIME_TYPE),
            ])
        } else if uri == r.uri(references) {
            Some(vec![file(reference_path, reference)])
        } else {
            None
        }
    }

    /// Whether the toolbox serves a skill.
    pub(super) fn has_skill(&self) -> bool {
        self.inner.config.skill.is_some()
    }

    /// How each of `tools` (as listed) runs, and the resources they hold in order of first
    /// use: what the skill and the page are written from besides the tools.
    pub(super) fn operations(
        &self,
        tools: &[rmcp::model::Tool],
    ) -> (Vec<Operation>, Vec<SharedResource>) {
        let inner = &self.inner;
        let config = &inner.config;
        let operation = |entry: &Entry<S>| Operation {
            timeout: entry.policy.timeout.or(config.default_timeout),
            grace: entry
                .policy
                .grace
                .or(config.default_grace)
                .unwrap_or(DEFAULT_GRACE),
            resources: entry
                .policy
                .resources
                .iter()
                .map(|r| r.queue.name().to_string())
                .collect(),
            retry: entry.meta.retry,
            rate_limit: entry.meta.rate_limit,
            group: entry.meta.group.map(str::to_owned),
        };
        let operations: Vec<Operation> = tools
            .iter()
            .map(|tool| match inner.index.get(tool.name.as_ref()) {
                Some(&i) => operation(&inner.entries[i]),
                // `describe_tool`, answered at once from the tool list.
                None => Operation {
                    grace: config.default_grace.unwrap_or(DEFAULT_GRACE),
                    ..Operation::default()
                },
            })
            .collect();
        let mut resources: Vec<SharedResource> = Vec::new();
        for name in operations.iter().flat_map(|op| &op.resources) {
            if !resources.iter().any(|r| &r.name == name) {
                let declared = inner.resources.get(name.as_str());
                resources.push(SharedResource {
                    name: name.clone(),
                    safe_stop: declared.is_some_and(|r| r.safe_stop.is_some()),
                    max_waiting: declared.map(|r| r.queue.max_waiting()),
                });
            }
        }
        (operations, resources)
    }

    /// The skill's files, written from the tools as listed now.
    fn rendered_skill(&self) -> Option<Rendered> {
        let inner = &self.inner;
        let config = &inner.config;
        let skill = config.skill.as_ref()?;
        let tools = read(&inner.listed).clone();
        let (operations, resources) = self.operations(&tools);
        let skill_md = generate::render(&SkillSource {
            name: &skill.name,
            description: &skill.description,
            title: config.title.as_deref().unwrap_or(&config.name),
            instructions: config.instructions.as_deref(),
            tools: &tools,
            operations: &operations,
            resources: &resources,
            client_rate_limit: config.client_rate_limit,
            task_lease: inner.tasks.limits().lease,
        });
        Some(Rendered {
            name: skill.name.clone(),
            description: skill.description.clone(),
            files: [
                (generate::SKILL_FILE, skill_md),
                (generate::REFERENCE_FILE, render(&tools, Format::Markdown)),
            ],
        })
    }
}

/// Implements the skills methods of rmcp's `ServerHandler` (`skills/list`, `skills/get`,
/// `resources/directory/read`) by delegating to a [`Toolbox`] field that serves a skill
/// ([`ToolboxBuilder::with_skill`]), inside `impl ServerHandler for YourHandler { .. }`, next to
/// [`delegate_tools!`](crate::delegate_tools). Your `get_info` takes the toolbox's capabilities
/// (they declare the extension and `resources`), your `list_resources` adds
/// [`Toolbox::skill_resources`] and your `read_resource` answers with
/// [`Toolbox::read_skill_resource`] first:
///
/// ```rust,no_run
/// use rmcp::model::{
///     ListResourcesResult, PaginatedRequestParams, ReadResourceRequestParams,
///     ReadResourceResponse,
/// };
/// use rmcp::service::RequestContext;
/// use rmcp::{ErrorData, RoleServer, ServerHandler};
/// use toolwright::Toolbox;
///
/// #[derive(Clone)]
/// struct Robot {
///     tools: Toolbox<()>,
/// }
///
/// impl ServerHandler for Robot {
///     toolwright::delegate_tools!(tools);
///     toolwright::delegate_skills!(tools);
///
///     fn get_info(&self) -> rmcp::model::ServerConfig {
///         self.tools.get_info()
///     }
///
///     async fn list_resources(
///         &self,
///         _request: Option<PaginatedRequestParams>,
///         _context: RequestContext<RoleServer>,
///     ) -> Result<ListResourcesResult, ErrorData> {
///         Ok(ListResourcesResult::with_all_items(self.tools.skill_resources()))
///     }
///
///     async fn read_resource(
///         &self,
///         request: ReadResourceRequestParams,
///         _context: RequestContext<RoleServer>,
///     ) -> Result<ReadResourceResponse, ErrorData> {
///         match self.tools.read_skill_resource(&request.uri) {
///             Some(result) => Ok(result.into()),
///             None => Err(ErrorData::resource_not_found(request.uri, None)),
///         }
///     }
/// }
/// ```
#[macro_export]
macro_rules! delegate_skills {
    ($field:ident) => {
        async fn list_skills(
            &self,
            request: ::core::option::Option<$crate::__private::rmcp::model::PaginatedRequestParams>,
            context: $crate::__private::rmcp::service::RequestContext<
                $crate::__private::rmcp::RoleServer,
            >,
        ) -> ::core::result::Result<
            $crate::__private::rmcp::model::ListSkillsResult,
            $crate::__private::rmcp::ErrorData,
        > {
            $crate::__private::rmcp::ServerHandler::list_skills(&self.$field, request, context)
                .await
        }

        async fn get_skill(
            &self,
            request: $crate::__private::rmcp::model::GetSkillRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<
                $crate::__private::rmcp::RoleServer,
            >,
        ) -> ::core::result::Result<
            $crate::__private::rmcp::model::GetSkillResult,
            $crate::__private::rmcp::ErrorData,
        > {
            $crate::__private::rmcp::ServerHandler::get_skill(&self.$field, request, context).await
        }

        async fn read_resource_directory(
            &self,
            request: $crate::__private::rmcp::model::ReadResourceDirectoryRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<
                $crate::__private::rmcp::RoleServer,
            >,
        ) -> ::core::result::Result<
            $crate::__private::rmcp::model::ReadResourceDirectoryResult,
            $crate::__private::rmcp::ErrorData,
        > {
            $crate::__private::rmcp::ServerHandler::read_resource_directory(
                &self.$field,
                request,
                context,
            )
            .await
        }
    };
}
