//! Building a [`Toolbox`]: the [`ToolboxBuilder`] that gathers tool definitions and settings,
//! each tool's input schema, shared output schema, compiled validator, annotations and policy
//! (its resources' queues), and the problems that stop a build ([`BuildError`]).

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{MetaObject, Tool};
use schemars::generate::Contract;
use serde_json::{Map, Value};

use super::config::Settings;
use super::describe::describe_entry;
use super::skill::SkillConfig;
use super::target::Target;
use super::{Entry, Inner, Toolbox, ToolboxBuilder};
use crate::adapt::Adapter;
use crate::contract::{
    CHECK_META, CONFIRM_META, CONFIRM_NOT_NEEDED_META, CONTENT_META, ENVELOPE_META, RESOURCES_META,
    RESULT_ARGUMENTS_META, SCOPES_META, STOP_FOR_META,
};
use crate::contract::{CHECK_PREFIX, Params, ResourceDef, ToolDef, ToolMeta, ToolSet};
use crate::exec::policy::{Policy, Resource};
use crate::exec::queue::{DEFAULT_MAX_WAITING, ResourceQueue};
use crate::output::{OutputMode, Results, SharedOutput};
use crate::rate::Limiter;
use crate::schema::{self, keys};
use crate::validate::Validator;

/// Why a toolbox could not be built ([`ToolboxBuilder::build`]): the first of these found, in
/// this order.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// Tools that cannot be published: a parameter type whose schema refers to itself, two
    /// tools with one name, `retry` on a tool that writes, ….
    Tools {
        /// One line per problem, each naming its tool.
        problems: Vec<String>,
    },
    /// [`ToolboxBuilder::with_max_waiting`] names a resource that no tool uses and the toolbox
    /// does not declare (`#[toolbox(resource(name = ".."))]`).
    UnknownResource {
        /// The name given.
        resource: String,
        /// The resources the toolbox has, sorted.
        known: Vec<String>,
    },
    /// [`ToolboxBuilder::with_skill`]'s name or description break the rules.
    InvalidSkill {
        /// What is wrong, and how to write it.
        problem: String,
    },
    /// [`ToolboxBuilder::with_envelopes`] (`serve --envelope FILE`) would widen an envelope,
    /// names a resource without one, or gives another unit or frame, or is not an envelope.
    Envelope {
        /// What is wrong, naming the limit.
        problem: String,
    },
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Tools { problems } => {
                writeln!(f, "cannot build the toolbox:")?;
                for p in problems {
                    writeln!(f, "- {p}")?;
                }
                Ok(())
            }
            BuildError::UnknownResource { resource, known } => {
                write!(
                    f,
                    "cannot build the toolbox: `with_max_waiting` names resource `{resource}`, \
                     which no tool of this toolbox uses"
                )?;
                if known.is_empty() {
                    write!(f, " (its tools use no resource)")
                } else {
                    write!(f, " (its resources: {})", known.join(", "))
                }
            }
            BuildError::InvalidSkill { problem } => {
                write!(f, "cannot build the toolbox: `with_skill`: {problem}")
            }
            BuildError::Envelope { problem } => {
                write!(
                    f,
                    "cannot build the toolbox: the envelopes' narrowing: {problem}"
                )
            }
        }
    }
}

impl std::error::Error for BuildError {}

fn build_entry<S>(def: ToolDef<S>) -> Result<Entry<S>, Vec<String>> {
    let name = def.meta.name;
    let mut problems = Vec::new();
    let mut generator = schema::generator(Contract::Deserialize);
    let input = match &def.params {
        Params::Fields(fields) => schema::object_schema(&mut generator, None, fields, false),
        Params::Flatten(info) => schema::type_schema(&mut generator, *info).and_then(|mut s| {
            // A nalgebra point is an object only as published: serde reads an array.
            if schema::is_object_schema(&s) && s.get(crate::schema::keys::ARRAY_KEY).is_none() {
                // The struct's own doc comment is not the tool's: the tool has its description.
                if let Some(obj) = s.as_object_mut() {
                    obj.shift_remove("description");
                    obj.shift_remove("title");
                }
                Ok(s)
            } else {
                Err(schema::SchemaError {
                    path: String::new(),
                    message: "a `#[param(flatten)]` argument must be a struct with named fields"
                        .into(),
                })
            }
        }),
    };
    let input = input.map_err(|e| problems.push(format!("tool `{name}`: input: {e}")));
    let output = crate::output::shared_output_schema(def.output)
        .map_err(|e| problems.push(format!("tool `{name}`: output: {e}")));
    let (Ok(mut input), Ok(output)) = (input, output) else {
        return Err(problems);
    };
    let (output, output_adapter) = match output_adapter(output) {
        Ok(adapted) => adapted,
        Err(e) => return Err(vec![format!("tool `{name}`: output: {e}")]),
    };
    let (results, output_schema) = Results::new(output, &def.meta)?;
    let added = results.arguments();
    if let Some(root) = input.as_object_mut().filter(|_| !added.is_empty()) {
        let properties = root
            .entry("properties")
            .or_insert_with(|| Value::Object(Default::default()));
        let Some(properties) = properties.as_object_mut() else {
            return Err(vec![format!(
                "tool `{name}`: input `properties` is not an object"
            )]);
        };
        for (argument, schema) in &added {
            if properties.contains_key(argument) {
                problems.push(format!(
                    "tool `{name}`: a parameter is named `{argument}`, like the argument its \
                     result options add; rename the parameter"
                ));
            }
            properties.insert(argument.clone(), schema.clone());
        }
    }
    #[cfg(feature = "ros")]
    if !def.meta.deep_nesting {
        problems.extend(crate::ros::depth_problems(name, &input));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let input_adapter =
        Adapter::compile(&input).map_err(|e| vec![format!("tool `{name}`: input: {e}")])?;
    // Before the private keywords are stripped: the validator checks `x-toolwright-unit-norm`.
    let validator = Validator::compile(&input).map_err(|e| vec![format!("tool `{name}`: {e}")])?;
    #[cfg(feature = "robot")]
    let speed = input
        .get("properties")
        .and_then(Value::as_object)
        .and_then(|p| {
            p.iter()
                .find(|(_, s)| s.get(keys::SPEED_KEY).is_some())
                .map(|(n, _)| n.clone())
        });
    keys::strip(&mut input);
    let Value::Object(input) = input else {
        return Err(vec![format!(
            "tool `{name}`: input schema is not an object"
        )]);
    };
    // A check's doc comment ends the description: the model learns what is refused before it
    // calls, not from a refusal.
    let description = match def.meta.check {
        Some(check) => format!(
            "{}\n\n{CHECK_PREFIX}{}",
            def.meta.description.trim(),
            check.trim()
        ),
        None => def.meta.description.trim().to_owned(),
    };
    let mut tool = Tool::new(name, description, Arc::new(input));
    if let Some(title) = def.meta.title {
        tool = tool.with_title(title);
    }
    if let Some(out) = output_schema {
        tool = tool.with_raw_output_schema(out);
    }
    if let Some(annotations) = def.meta.annotations() {
        tool = tool.with_annotations(annotations);
    }
    let mut meta = MetaObject::new();
    if !def.meta.scopes.is_empty() {
        meta.0.insert(
            SCOPES_META.to_owned(),
            Value::from(def.meta.scopes.to_vec()),
        );
    }
    if !def.meta.resources.is_empty() {
        meta.0.insert(
            RESOURCES_META.to_owned(),
            Value::from(def.meta.resources.to_vec()),
        );
    }
    if let Some(question) = def.meta.confirm {
        meta.0
            .insert(CONFIRM_META.to_owned(), Value::from(question));
    }
    if let Some(because) = def.meta.confirm_not_needed {
        meta.0
            .insert(CONFIRM_NOT_NEEDED_META.to_owned(), Value::from(because));
    }
    if let Some(check) = def.meta.check {
        meta.0
            .insert(CHECK_META.to_owned(), Value::from(check.trim()));
    }
    if !def.meta.stop_for.is_empty() {
        meta.0.insert(
            STOP_FOR_META.to_owned(),
            Value::from(def.meta.stop_for.to_vec()),
        );
    }
    if def.meta.task != crate::tasks::TaskSupport::Forbidden {
        meta.0.insert(
            crate::tasks::TASK_SUPPORT_META.to_owned(),
            Value::from(def.meta.task.as_str()),
        );
    }
    if let Some(kind) = results.content_kind() {
        meta.0
            .insert(CONTENT_META.to_owned(), Value::from(kind.name()));
    }
    if !added.is_empty() {
        let names: Vec<Value> = added.iter().map(|(n, _)| Value::from(n.as_str())).collect();
        meta.0
            .insert(RESULT_ARGUMENTS_META.to_owned(), Value::Array(names));
    }
    if !meta.0.is_empty() {
        tool = tool.with_meta(meta);
    }
    Ok(Entry {
        index: 0,
        name: Arc::from(name),
        tool,
        validator,
        input_adapter,
        output_adapter,
        results,
        handler: def.handler,
        check: def.check,
        meta: def.meta,
        policy: Policy::default(),
        target: None,
        #[cfg(feature = "robot")]
        speed,
    })
}

/// The adapter of an output's quantities in a declared unit (see `crate::quantity`), and the
/// output schema without the private keywords it was compiled from.
fn output_adapter(output: SharedOutput) -> Result<(SharedOutput, Option<Adapter>), String> {
    let (Some(schema), mode) = output else {
        return Ok((output, None));
    };
    let mut stripped = Value::Object(Map::clone(&schema));
    if !keys::strip(&mut stripped) {
        return Ok(((Some(schema), mode), None));
    }
    let raw = Value::Object(Map::clone(&schema));
    let adapter = match mode {
        OutputMode::Structured => Adapter::compile(&raw)?,
        OutputMode::Wrapped => Adapter::compile(&raw["properties"]["result"])?,
        _ if Adapter::compile(&raw)?.is_some() => {
            return Err(
                "a quantity in a unit other than its SI unit, or a nalgebra point, vector, \
                 rotation or isometry, cannot be in a `WithContent` result yet; declare the \
                 quantity without `unit` there, or return a struct with `f64` fields"
                    .to_owned(),
            );
        }
        _ => None,
    };
    let Value::Object(stripped) = stripped else {
        unreachable!("stripping keeps an object");
    };
    Ok(((Some(Arc::new(stripped)), mode), adapter))
}

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// The builder of the toolbox of a `#[toolbox]` type: its tools, resources, server info
    /// and the defaults its `#[toolbox(..)]` declares, to configure with the `with_*` methods
    /// and [`ToolboxBuilder::build`].
    pub fn builder(state: S) -> ToolboxBuilder<S>
    where
        S: ToolSet,
    {
        let (name, version) = S::server_info();
        let defaults = S::defaults();
        let mut builder = ToolboxBuilder::new(state).with_server_info(name, version);
        builder.resources = S::resources();
        #[cfg(feature = "robot")]
        {
            builder.robots = S::robots();
        }
        builder.tools = S::tools();
        let settings = &mut builder.settings;
        settings.default_timeout = defaults.timeout_ms.map(Duration::from_millis);
        settings.default_grace = defaults.grace_ms.map(Duration::from_millis);
        settings.client_rate_limit = defaults.client_rate_limit;
        settings.max_concurrency = defaults.max_concurrency;
        builder
    }

    /// The toolbox of a `#[toolbox]` type, with its declared defaults: `Toolbox::builder(state)`
    /// built.
    ///
    /// # Panics
    ///
    /// With every problem when a tool cannot be published ([`BuildError::Tools`]: most are
    /// compile errors already, but a few are found only when the schemas are built). Build with
    /// [`Toolbox::builder`] to get them as a [`BuildError`].
    pub fn new(state: S) -> Self
    where
        S: ToolSet,
    {
        Self::builder(state)
            .build()
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// A toolbox from tool definitions (see [`tool_defs!`](crate::tool_defs!)):
    /// `ToolboxBuilder::new(state).with_tools(tools)` built.
    ///
    /// # Panics
    ///
    /// With every problem if a tool cannot be published: a recursive parameter type, two tools
    /// with one name, … ([`Toolbox::try_from_tools`] returns them).
    pub fn from_tools(state: S, tools: Vec<ToolDef<S>>) -> Self {
        Self::try_from_tools(state, tools).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Like [`Toolbox::from_tools`], returning the problems instead of panicking.
    pub fn try_from_tools(state: S, tools: Vec<ToolDef<S>>) -> Result<Self, BuildError> {
        ToolboxBuilder::new(state).with_tools(tools).build()
    }
}

impl<S: Send + Sync + 'static> ToolboxBuilder<S> {
    /// A builder of a toolbox of `state` with no tools yet (add them with
    /// [`ToolboxBuilder::with_tools`]; a `#[toolbox]` type starts from [`Toolbox::builder`],
    /// free functions from [`tools!`](crate::tools!)).
    pub fn new(state: S) -> Self {
        ToolboxBuilder {
            state,
            resources: Vec::new(),
            #[cfg(feature = "robot")]
            robots: Vec::new(),
            tools: Vec::new(),
            settings: Settings::default(),
        }
    }

    /// Declares resource `robot.resource` a robot (what `resource(.., robot(..))` on a
    /// `#[toolbox]` declares): the robot read from its URDF and where its joints are. The
    /// resource must be declared with an envelope; its tools' `target`s and `positions` are
    /// then checked link by link.
    #[cfg(feature = "robot")]
    #[cfg_attr(docsrs, doc(cfg(feature = "robot")))]
    #[doc(hidden)]
    #[must_use]
    pub fn with_robot(mut self, robot: crate::contract::RobotResource<S>) -> Self {
        self.robots.retain(|r| r.resource != robot.resource);
        self.robots.push(robot);
        self
    }

    /// Adds the resources the state's `#[toolbox(resource(..))]` declares (their safe stops,
    /// positions and envelopes), for a builder started with [`ToolboxBuilder::new`] whose tools
    /// are added with [`ToolboxBuilder::with_tools`] (`Toolbox::builder` has them already).
    #[must_use]
    pub fn with_declared_resources(mut self) -> Self
    where
        S: ToolSet,
    {
        for def in S::resources() {
            if !self.resources.iter().any(|r| r.name == def.name) {
                self.resources.push(def);
            }
        }
        #[cfg(feature = "robot")]
        for robot in S::robots() {
            if !self.robots.iter().any(|r| r.resource == robot.resource) {
                self.robots.push(robot);
            }
        }
        self
    }

    /// Adds more tools (for example free functions, through [`tool_defs!`](crate::tool_defs!),
    /// to a `#[toolbox]` state), after those it has.
    #[must_use]
    pub fn with_tools(mut self, tools: Vec<ToolDef<S>>) -> Self {
        self.tools.extend(tools);
        self
    }

    /// The groups the tools declare so far, in declaration order (for `serve --groups`).
    #[cfg(feature = "cli")]
    pub(crate) fn groups(&self) -> Vec<&'static str> {
        let mut groups = Vec::new();
        for g in self.tools.iter().filter_map(|t| t.meta.group) {
            if !groups.contains(&g) {
                groups.push(g);
            }
        }
        groups
    }

    /// Builds the toolbox: every tool's schemas, validator and policy, with the settings given,
    /// whatever order they were given in. The toolbox is then frozen: cheap to clone, served as
    /// built (only its tool groups and [`Toolbox::set_confirmation`] change while it serves).
    pub fn build(self) -> Result<Toolbox<S>, BuildError> {
        let ToolboxBuilder {
            state,
            resources: declared,
            #[cfg(feature = "robot")]
            robots,
            tools,
            mut settings,
        } = self;
        let max_waiting = std::mem::take(&mut settings.max_waiting);
        let only_groups = settings.only_groups.take();
        let skill = settings
            .skill
            .take()
            .map(|(name, description)| SkillConfig::new(name, description))
            .transpose();
        let (describe_tool, confirmation, task_limits) = (
            settings.describe_tool,
            settings.confirmation,
            settings.task_limits,
        );
        let resources = resources(&declared, &max_waiting);
        let narrowing = settings.envelopes.take();
        let mut inner = Inner {
            state: Arc::new(state),
            entries: Vec::new(),
            index: HashMap::default(),
            tools: Vec::new(),
            config: settings.freeze(),
            resources: HashMap::new(),
            arrival: std::sync::Mutex::new(()),
            limiter: Limiter::default(),
            calls: crate::exec::Calls::default(),
            #[cfg(feature = "redis")]
            shared: std::sync::OnceLock::new(),
            disabled_groups: Default::default(),
            listed: Default::default(),
            peers: Default::default(),
            listeners: Default::default(),
            describe: None,
            describe_now: Default::default(),
            approvals: Default::default(),
            confirm: std::sync::atomic::AtomicBool::new(confirmation),
            tasks: crate::tasks::Tasks::new(task_limits),
        };
        // Each declared envelope, as declared (the ranges of targets are held to it) and as
        // checked (narrowed by the operator).
        let mut envelopes = std::collections::BTreeMap::new();
        let mut problems = Vec::new();
        for def in &declared {
            let Some(envelope) = def.envelope else {
                continue;
            };
            let envelope = envelope.to_envelope();
            match envelope.validate() {
                Ok(()) => {
                    envelopes.insert(def.name.to_owned(), envelope);
                }
                Err(p) => problems.extend(
                    p.into_iter()
                        .map(|p| format!("resource `{}`: envelope: {p}", def.name)),
                ),
            }
            #[cfg(feature = "robot")]
            let is_robot = robots.iter().any(|r| r.resource == def.name);
            #[cfg(not(feature = "robot"))]
            let is_robot = false;
            if def.position.is_none() && !is_robot {
                problems.push(format!(
                    "resource `{}`: an envelope needs a `position` (where the resource is now):                      a motion's first straight segment starts there",
                    def.name
                ));
            }
        }
        #[cfg(feature = "robot")]
        for robot in &robots {
            if !declared.iter().any(|d| d.name == robot.resource) {
                problems.push(format!(
                    "robot resource `{}` is not declared: declare it with its envelope",
                    robot.resource
                ));
            } else if !envelopes.contains_key(robot.resource) {
                problems.push(format!(
                    "resource `{}`: a robot needs an envelope (`envelope(frame = \"..\", unit = \
                     \"mm\", allow(..), keep_out(..))`): its links are checked against it",
                    robot.resource
                ));
            }
        }
        if !problems.is_empty() {
            return Err(BuildError::Tools { problems });
        }
        let checked = match &narrowing {
            Some(file) => crate::envelope::narrow_file(&envelopes, file)
                .map_err(|problem| BuildError::Envelope { problem })?,
            None => envelopes.clone(),
        };
        for def in declared {
            let name: Arc<str> = Arc::from(def.name);
            let max_waiting = resources
                .get(def.name)
                .copied()
                .unwrap_or(DEFAULT_MAX_WAITING);
            let queue = ResourceQueue::new(Arc::clone(&name), max_waiting);
            let envelope = checked.get(def.name).cloned().map(Arc::new);
            #[cfg(feature = "robot")]
            let robot = match robots.iter().find(|r| r.resource == def.name) {
                None => None,
                Some(r) => match arm(r, envelope.as_deref()) {
                    Ok(arm) => Some(Arc::new(arm)),
                    Err(p) => {
                        problems.extend(
                            p.into_iter()
                                .map(|p| format!("resource `{}`: robot: {p}", def.name)),
                        );
                        None
                    }
                },
            };
            inner.resources.insert(
                Arc::clone(&name),
                Arc::new(Resource {
                    queue: Arc::new(queue),
                    safe_stop: def.safe_stop,
                    position: def.position,
                    envelope,
                    #[cfg(feature = "robot")]
                    robot,
                }),
            );
        }
        if !problems.is_empty() {
            return Err(BuildError::Tools { problems });
        }
        inner.add(tools, &envelopes)?;
        if let Some((resource, _)) = max_waiting
            .iter()
            .find(|(name, _)| !resources.contains_key(name.as_str()))
        {
            let mut known: Vec<String> = resources.keys().map(|n| (*n).to_owned()).collect();
            known.sort_unstable();
            return Err(BuildError::UnknownResource {
                resource: resource.clone(),
                known,
            });
        }
        inner.config.skill = skill.map_err(|problem| BuildError::InvalidSkill { problem })?;
        if describe_tool {
            inner.describe = Some(describe_entry(&inner.entries));
        }
        if let Some(keep) = only_groups {
            let mut disabled = super::write(&inner.disabled_groups);
            for g in inner.entries.iter().filter_map(|e| e.meta.group) {
                if !keep.iter().any(|k| k == g) {
                    disabled.insert(g.to_owned());
                }
            }
        }
        inner.refresh_listed();
        Ok(Toolbox::from_inner(inner))
    }
}

/// The resources a toolbox declares and how many calls may wait for each: its declared limit
/// (else the default) unless `with_max_waiting` set one.
fn resources<S>(
    declared: &[ResourceDef<S>],
    max_waiting: &[(String, usize)],
) -> HashMap<&'static str, usize> {
    let mut resources: HashMap<&'static str, usize> = HashMap::new();
    for def in declared {
        resources.insert(def.name, def.max_waiting.unwrap_or(DEFAULT_MAX_WAITING));
    }
    for (name, n) in max_waiting {
        if let Some(limit) = resources.get_mut(name.as_str()) {
            *limit = *n;
        }
    }
    resources
}

/// A tool's policy: its keys, and its resources (sorted by name) from the toolbox's.
fn inner_policy<S>(resources: &HashMap<Arc<str>, Arc<Resource<S>>>, meta: &ToolMeta) -> Policy<S> {
    let sorted = |names: &[&str]| -> Vec<Arc<Resource<S>>> {
        let mut names = names.to_vec();
        names.sort_unstable();
        names.dedup();
        names
            .iter()
            .filter_map(|n| resources.get(*n).map(Arc::clone))
            .collect()
    };
    let used = sorted(meta.resources);
    Policy {
        moves: meta.read_only != Some(true),
        supervised: used.iter().any(|r| r.safe_stop.is_some()),
        stops: Arc::from(sorted(meta.stop_for)),
        timeout: meta.timeout_ms.map(Duration::from_millis),
        grace: meta.grace_ms.map(Duration::from_millis),
        queues: used.iter().map(|r| Arc::clone(&r.queue)).collect(),
        resources: Arc::from(used),
        retry: meta.retry,
        max_output_bytes: meta.max_output_bytes,
    }
}

impl<S: Send + Sync + 'static> Inner<S> {
    fn add(
        &mut self,
        defs: Vec<ToolDef<S>>,
        declared: &std::collections::BTreeMap<String, crate::envelope::Envelope>,
    ) -> Result<(), BuildError> {
        let mut problems = Vec::new();
        for def in defs {
            match build_entry(def) {
                Ok(mut entry) => {
                    let undeclared = self.undeclared(&entry);
                    if !undeclared.is_empty() {
                        problems.extend(undeclared);
                        continue;
                    }
                    entry.policy = inner_policy(&self.resources, &entry.meta);
                    if let Some(decl) = entry.meta.target {
                        match self.target(&entry, decl, declared) {
                            Ok(target) => {
                                let published = target.publish();
                                let mut meta = entry.tool.meta.take().unwrap_or_default();
                                meta.0.insert(ENVELOPE_META.to_owned(), published);
                                #[cfg(feature = "robot")]
                                if let Some(arm) = &target.resource.robot {
                                    meta.0.insert(
                                        crate::contract::ROBOT_META.to_owned(),
                                        arm.robot.to_json(
                                            target.resource.queue.name(),
                                            &arm.space.unit,
                                            arm.space.per_metre,
                                            target.positions_pointer(),
                                        ),
                                    );
                                }
                                entry.tool.meta = Some(meta);
                                entry.target = Some(target);
                            }
                            Err(p) => {
                                problems.extend(
                                    p.into_iter().map(|p| format!("tool `{}`: {p}", entry.name)),
                                );
                                continue;
                            }
                        }
                    }
                    let meta = &entry.meta;
                    if meta.retry > 0
                        && meta.read_only != Some(true)
                        && meta.idempotent != Some(true)
                    {
                        problems.push(format!(
                            "tool `{}`: `retry` repeats the call, so it is allowed only on \
                             `read_only` or `idempotent` tools (retrying a write can repeat it)",
                            entry.name
                        ));
                        continue;
                    }
                    if !meta.stop_for.is_empty()
                        && (!meta.resources.is_empty()
                            || meta.confirm.is_some()
                            || meta.rate_limit.is_some())
                    {
                        problems.push(format!(
                            "tool `{}`: a stop tool (`stop_for`) is never queued, confirmed or \
                             rate-limited, so it cannot declare `resource`, `confirm` or \
                             `rate_limit`",
                            entry.name
                        ));
                        continue;
                    }
                    if let Some(problem) = unconfirmed(meta) {
                        problems.push(format!("tool `{}`: {problem}", entry.name));
                        continue;
                    }
                    if self.index.contains_key(&entry.name) {
                        problems.push(format!(
                            "tool `{}` is declared twice; tool names must be unique",
                            entry.name
                        ));
                        continue;
                    }
                    entry.index = self.entries.len();
                    self.index
                        .insert(Arc::clone(&entry.name), self.entries.len());
                    self.tools.push(entry.tool.clone());
                    self.entries.push(entry);
                }
                Err(p) => problems.extend(p),
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(BuildError::Tools { problems })
        }
    }

    /// The resources `entry` names (`resource`, `stop_for`) that the toolbox does not declare,
    /// each as a problem with the nearest declared name.
    fn undeclared(&self, entry: &Entry<S>) -> Vec<String> {
        let mut known: Vec<&str> = self.resources.keys().map(|k| &**k).collect();
        known.sort_unstable();
        let uses = entry.meta.resources.iter().map(|r| ("resource", *r));
        let stops = entry.meta.stop_for.iter().map(|r| ("stop_for", *r));
        uses.chain(stops)
            .filter(|(_, name)| !self.resources.contains_key(*name))
            .map(|(key, name)| {
                let declared = if known.is_empty() {
                    "it declares none".to_owned()
                } else {
                    format!(
                        "it declares {}",
                        known
                            .iter()
                            .map(|k| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                let fix = match crate::envelope::closest_name(name, &known) {
                    Some(near) => format!("did you mean `{near}`?"),
                    None => format!(
                        "declare it with `#[toolbox(resource(name = \"{name}\"))]` (and, when \
                         the builder started from `ToolboxBuilder::new`, \
                         `.with_declared_resources()`) or `ToolboxBuilder::with_resource(\"{name}\")`"
                    ),
                };
                format!(
                    "tool `{}`: `{key} = \"{name}\"` names a resource this toolbox does not \
                     declare ({declared}): {fix}",
                    entry.name
                )
            })
            .collect()
    }

    /// The target of `entry` in the envelope of the one resource it uses that has one (with its
    /// speed argument, on a robot resource).
    fn target(
        &self,
        entry: &Entry<S>,
        decl: crate::contract::TargetDecl,
        declared: &std::collections::BTreeMap<String, crate::envelope::Envelope>,
    ) -> Result<Target<S>, Vec<String>> {
        let target = self.envelope_target(entry, decl, declared)?;
        #[cfg(feature = "robot")]
        if let Some(speed) = entry.meta.speed.or(entry.speed.as_deref()) {
            if target.resource.robot.is_none() {
                return Err(vec![format!(
                    "`speed = {speed}` times a robot's motion by its joints' caps, and the tool's \
                     resource is not a robot"
                )]);
            }
            return target.with_speed(speed, &entry.tool.input_schema);
        }
        Ok(target)
    }

    /// The target of `entry` in the envelope of the one resource it uses that has one.
    fn envelope_target(
        &self,
        entry: &Entry<S>,
        decl: crate::contract::TargetDecl,
        declared: &std::collections::BTreeMap<String, crate::envelope::Envelope>,
    ) -> Result<Target<S>, Vec<String>> {
        let mut with = entry
            .policy
            .resources
            .iter()
            .filter(|r| r.envelope.is_some());
        let (Some(resource), None) = (with.next(), with.next()) else {
            return Err(vec![
                "a `target` or `path` is checked against the envelope of the resource the tool \
                 uses, and it must use exactly one resource with an envelope \
                 (`#[toolbox(resource(name = \"..\", envelope(..)))]`)"
                    .to_owned(),
            ]);
        };
        let envelope = Arc::clone(resource.envelope.as_ref().expect("filtered"));
        let declared = declared
            .get(&**resource.queue.name())
            .expect("a checked envelope was declared");
        Target::resolve(
            decl,
            &entry.tool.input_schema,
            Arc::clone(resource),
            envelope,
            declared,
        )
    }
}

/// Why a tool cannot be served as declared, for who confirms its calls: a tool that holds a
/// resource, is not `read_only` and is no stop tool acts on something, so it declares the
/// question its user confirms (`confirm = ".."`) or why no one needs to (`confirm = false,
/// because = ".."`). `#[tool]` refuses both mistakes at compile time; this holds definitions
/// made any other way to the same rule.
fn unconfirmed(meta: &crate::contract::ToolMeta) -> Option<String> {
    let may_act = meta.read_only != Some(true) && meta.stop_for.is_empty();
    let acts = may_act && !meta.resources.is_empty();
    match (meta.confirm, meta.confirm_not_needed) {
        (Some(_), Some(_)) => Some(
            "it declares both a question (`confirm`) and why no one needs to confirm it \
             (`confirm_not_needed`): keep one"
                .to_owned(),
        ),
        (None, None) if acts => Some(format!(
            "it holds {} and is not `read_only`, so the user confirms each call before it runs: \
             declare the question (`#[tool(confirm = \"..\")]`, `ToolMeta::confirm`), or why no \
             one needs to confirm it (`#[tool(confirm = false, because = \"..\")]`, \
             `ToolMeta::confirm_not_needed`)",
            meta.resources
                .iter()
                .map(|r| format!("`{r}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
        (None, Some(_)) if !may_act => Some(
            "it declares why no one needs to confirm it (`confirm_not_needed`), but it is \
             `read_only` or a stop tool, and such a tool is never confirmed: remove it"
                .to_owned(),
        ),
        _ => None,
    }
}

/// The robot of `def`, and its envelope (as checked) in metres, or what is wrong: the robot's
/// def, an envelope not in a length unit, a link no joint moves outside an allow shape or in a
/// keep-out.
#[cfg(feature = "robot")]
fn arm<S>(
    def: &crate::contract::RobotResource<S>,
    envelope: Option<&crate::envelope::Envelope>,
) -> Result<crate::exec::policy::Arm<S>, Vec<String>> {
    let robot = crate::robot::Robot::new(def.robot).map_err(|e| vec![e])?;
    let Some(envelope) = envelope else {
        return Err(vec!["it needs an envelope".to_owned()]);
    };
    let space = crate::robot::Space::new(&robot, envelope)?;
    Ok(crate::exec::policy::Arm {
        robot,
        space,
        joints: def.joints,
    })
}

#[cfg(test)]
mod tests {
    use super::unconfirmed;
    use crate::contract::ToolMeta;

    #[test]
    fn a_tool_that_holds_a_resource_and_acts_says_who_confirms_it() {
        let acting = ToolMeta {
            name: "move",
            resources: &["arm"],
            ..ToolMeta::default()
        };
        let problem = unconfirmed(&acting).expect("neither a question nor a reason");
        assert!(
            problem.contains("holds `arm` and is not `read_only`"),
            "{problem}"
        );
        for fine in [
            ToolMeta {
                confirm: Some("Move?"),
                ..acting
            },
            ToolMeta {
                confirm_not_needed: Some("a simulated arm"),
                ..acting
            },
            ToolMeta {
                read_only: Some(true),
                ..acting
            },
            ToolMeta {
                resources: &[],
                ..acting
            },
            ToolMeta {
                resources: &[],
                stop_for: &["arm"],
                ..acting
            },
        ] {
            assert_eq!(unconfirmed(&fine), None, "{fine:?}");
        }
        let both = ToolMeta {
            confirm: Some("Move?"),
            confirm_not_needed: Some("a simulated arm"),
            ..acting
        };
        assert!(unconfirmed(&both).unwrap().contains("keep one"));
        let read_only = ToolMeta {
            read_only: Some(true),
            confirm_not_needed: Some("it only reads"),
            ..acting
        };
        assert!(unconfirmed(&read_only).unwrap().contains("never confirmed"));
    }
}
