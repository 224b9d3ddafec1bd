//! A tool's model: the `#[tool]` keys, the fn's signature and each parameter's `#[param]` and doc
//! comment, resolved once (with the toolbox's defaults) and checked as they are read.

use proc_macro2::Span;
use quote::format_ident;
use syn::{Attribute, FnArg, Ident, Pat, Signature, Type};

use crate::attr::{Allow, Confirm, ToolAttr, ToolboxAttr};
use crate::check;
use crate::ctxt::Ctxt;
use crate::doc::{self, Doc};
use crate::policy;
use crate::property::{self, Property};
use crate::typecheck::Checks;

use super::Site;
use super::signature::{
    check_fn_header, check_param_type, check_receiver, return_type, tool_description,
};

pub(super) enum Receiver {
    None,
    Ref,
}

pub(super) struct ParamModel {
    pub(super) ident: Ident,
    pub(super) ty: Type,
    pub(super) json_name: String,
    pub(super) decl: Property,
}

/// A tool, resolved.
pub struct ToolModel {
    pub(super) fn_ident: Ident,
    pub(super) name: String,
    /// Where the name was written (`name = ".."`), or the fn's ident.
    pub(super) name_span: Span,
    pub(super) title: Option<String>,
    pub(super) description: Option<Doc>,
    pub(super) hints: [(&'static str, Option<bool>); 4],
    pub(super) timeout_ms: Option<u64>,
    /// `resource = ".."`: the resources it uses, each where it was written.
    pub(super) resources: Vec<(String, Span)>,
    pub(super) retry: u32,
    pub(super) max_output_bytes: Option<usize>,
    pub(super) group: Option<String>,
    pub(super) grace_ms: Option<u64>,
    pub(super) scopes: Vec<String>,
    pub(super) rate_limit: Option<darling::util::SpannedValue<String>>,
    /// `confirm = ".."`: the message the user confirms each call with.
    pub(super) confirm: Option<String>,
    /// `confirm = false, because = ".."`: why no one needs to confirm it.
    pub(super) confirm_not_needed: Option<String>,
    /// `stop_for = ".."`: the resources the tool stops, each where it was written.
    pub(super) stop_for: Vec<(String, Span)>,
    /// `projection` (its own, else its toolbox's).
    pub(super) projection: bool,
    /// `projection` came from `#[toolbox(projection)]`.
    pub(super) projection_from_toolbox: bool,
    pub(super) summary: bool,
    /// `allow(deep_nesting)` (its own or its toolbox's): also told to the runtime, which checks
    /// the nesting of types the compile-time check cannot see (ROS messages).
    pub(super) deep_nesting: bool,
    /// `over_budget = "envelope"`.
    pub(super) envelope: bool,
    /// `task = ".."`: `"optional"` or `"required"` (`None`: forbidden, the default).
    pub(super) task: Option<&'static str>,
    /// A sync fn run on tokio's blocking pool (every sync fn but those declared
    /// `blocking = false`).
    pub(super) blocking: bool,
    pub(super) params: Vec<ParamModel>,
    pub(super) flatten: bool,
    pub(super) receiver: Receiver,
    pub(super) is_async: bool,
    pub(super) ret: Type,
    /// The signature can be served: a real definition can be generated (also next to other
    /// errors, so type errors show in the same compile).
    pub(super) servable: bool,
    /// Type-dependent checks, as `const` items.
    pub(super) checks: Checks,
    /// `target = ..` / `path = ..`: where it moves its resource.
    pub(super) target: Option<TargetModel>,
    /// `check = ..`: its own check, a method of its `#[toolbox]` impl.
    pub(super) check: Option<syn::Path>,
    /// The description's budget, in bytes.
    pub(super) description_limit: usize,
}

/// Which arguments say where a tool moves its resource.
pub enum TargetModel {
    /// `target = (x, y, z)`: three parameters (their published names).
    Params([String; 3]),
    /// `target = position`: one point parameter.
    Point(String),
    /// `path = waypoints`: a list of points.
    Path(String),
}

/// The check settings of a tool: its own keys, else its toolbox's, else the defaults.
pub struct Settings {
    pub many_params: bool,
    pub deep_nesting: bool,
    pub max_description_bytes: usize,
    pub max_param_description_bytes: usize,
}

impl Settings {
    /// `tool`'s keys over `toolbox`'s over the defaults.
    pub fn resolve(tool: &ToolAttr, toolbox: Option<&ToolboxAttr>) -> Settings {
        let allows = [tool.allow.as_ref(), toolbox.and_then(|t| t.allow.as_ref())];
        let allow = |f: fn(&Allow) -> bool| allows.iter().flatten().any(|a| f(a));
        Settings {
            many_params: allow(|a| a.many_params.is_present()),
            deep_nesting: allow(|a| a.deep_nesting.is_present()),
            max_description_bytes: tool
                .max_description_bytes
                .or(toolbox.and_then(|t| t.max_description_bytes))
                .unwrap_or(check::TOOL_DESCRIPTION_BYTES),
            max_param_description_bytes: tool
                .max_param_description_bytes
                .or(toolbox.and_then(|t| t.max_param_description_bytes))
                .unwrap_or(check::PARAM_DESCRIPTION_BYTES),
        }
    }
}

impl ToolModel {
    /// Builds the model from the fn's attributes and signature, stripping `#[param]` and doc
    /// comments from its arguments, and checks it: syntax-only mistakes go into `cx`,
    /// type-dependent ones into `const` checks (`typecheck.rs`).
    pub fn from_fn(
        cx: &Ctxt,
        attr: ToolAttr,
        toolbox: Option<&ToolboxAttr>,
        attrs: &[Attribute],
        sig: &mut Signature,
        site: Site,
    ) -> ToolModel {
        let settings = Settings::resolve(&attr, toolbox);
        let mut checks = Checks::default();
        let fn_ident = sig.ident.clone();
        let fn_name = fn_ident.to_string().trim_start_matches("r#").to_owned();
        let (name, name_span) = match &attr.name {
            Some(n) => ((**n).clone(), n.span()),
            None => (fn_name.clone(), fn_ident.span()),
        };
        check::tool_name(cx, &name, attr.name.as_ref().map(|n| n.span()), &fn_ident);
        let description = tool_description(
            cx,
            &mut checks,
            &attr,
            attrs,
            &sig.ident,
            &name,
            &fn_name,
            &settings,
        );
        let spanned =
            |v: &Option<darling::util::SpannedValue<bool>>| v.as_ref().map(|b| (**b, b.span()));
        check::annotations(
            cx,
            spanned(&attr.read_only),
            spanned(&attr.destructive),
            spanned(&attr.idempotent),
        );
        let hint = |v: &Option<darling::util::SpannedValue<bool>>| v.as_ref().map(|b| **b);
        let hints = [
            ("read_only", hint(&attr.read_only)),
            ("destructive", hint(&attr.destructive)),
            ("idempotent", hint(&attr.idempotent)),
            ("open_world", hint(&attr.open_world)),
        ];
        let timeout_ms = policy::timeout_ms(cx, &attr.timeout);
        let resources = policy::resources(cx, &attr.resource);
        let retry = attr.retry.as_ref().map_or(0, |r| **r);
        if let Some(r) = &attr.retry
            && **r > 0
            && hint(&attr.read_only) != Some(true)
            && hint(&attr.idempotent) != Some(true)
        {
            cx.error_at(
                r.span(),
                format!(
                    "`retry` repeats the call, so it is allowed only on tools marked `read_only` or `idempotent`: \
                     retrying a write can repeat it. Mark `{name}` idempotent if calling it twice has the same effect as once, \
                     or remove `retry`"
                ),
            );
        }
        if let Some(m) = &attr.max_output_bytes
            && **m == 0
        {
            cx.error_at(m.span(), "`max_output_bytes` must be positive");
        }
        let group = attr.group.as_ref().map(|g| (**g).clone());
        let grace_ms = policy::grace_ms(cx, &attr.grace);
        let scopes = policy::scopes(cx, &attr.scopes);
        if let Some(b) = &attr.blocking
            && sig.asyncness.is_some()
        {
            cx.error_at(
                b.span(),
                "`blocking` is for sync fns (which run on tokio's blocking pool unless `blocking = false`): \
                 an `async fn` runs on the async runtime and must not block; move blocking work into \
                 `tokio::task::spawn_blocking`, or make the tool a sync fn",
            );
        }
        let blocking = sig.asyncness.is_none() && attr.blocking.as_ref().is_none_or(|b| **b);

        let generic = !sig.generics.params.is_empty() || sig.generics.where_clause.is_some();
        let mut servable = check_fn_header(cx, sig) && !generic;
        let mut receiver = Receiver::None;
        let mut params = Vec::new();
        let mut flatten = false;
        for input in sig.inputs.iter_mut() {
            match input {
                FnArg::Receiver(r) => {
                    servable &= check_receiver(cx, r, site);
                    receiver = Receiver::Ref;
                }
                FnArg::Typed(pt) => {
                    let (param, ok) =
                        param_model(cx, &mut checks, pt, params.len(), &settings, generic);
                    servable &= ok;
                    flatten |= param.decl.attr.flatten.is_present();
                    params.push(param);
                }
            }
        }
        if flatten && params.len() != 1 {
            cx.error_spanned_by(
                &sig.inputs,
                "`#[param(flatten)]` must be the tool's only parameter: that struct supplies every property",
            );
        }
        for (i, p) in params.iter().enumerate() {
            if let Some(first) = params[..i].iter().find(|q| q.json_name == p.json_name) {
                cx.error_spanned_by(
                    &p.ident,
                    format!(
                        "two parameters are named `{}` (the first is `{}`): rename one, or publish it under another name with `#[param(rename = \"..\")]`",
                        p.json_name, first.ident
                    ),
                );
            }
        }
        // `x-mcp-header` names are unique within a tool, ignoring case (as HTTP header names).
        let headers: Vec<(&ParamModel, &darling::util::SpannedValue<String>)> = params
            .iter()
            .filter_map(|p| p.decl.attr.header.as_ref().map(|h| (p, h)))
            .collect();
        for (i, (p, h)) in headers.iter().enumerate() {
            if let Some((first, first_h)) = headers[..i]
                .iter()
                .find(|(_, f)| f.eq_ignore_ascii_case(h.as_str()))
            {
                cx.error_at(
                    h.span(),
                    format!(
                        "parameter `{}` already has this header (`header = {:?}`), and header names ignore case: a client would send both as `Mcp-Param-{}`; give `{}` a header name of its own",
                        first.json_name,
                        first_h.as_str(),
                        first_h.as_str(),
                        p.json_name,
                    ),
                );
            }
        }
        // Size checks need every type (a `Context` does not count, a flattened struct counts its
        // properties).
        if servable {
            if flatten && params.len() == 1 {
                if !settings.many_params {
                    checks.flattened_count(&name, &params[0].ty);
                }
                if !settings.deep_nesting {
                    checks.depth(&name, &params[0].json_name, &params[0].ty, true);
                }
            } else {
                if !settings.many_params && params.len() > check::MAX_PARAMS {
                    let types: Vec<&Type> = params.iter().map(|p| &p.ty).collect();
                    checks.param_count(&name, &fn_ident, &types);
                }
                if !settings.deep_nesting {
                    for p in &params {
                        checks.depth(&name, &p.json_name, &p.ty, false);
                    }
                }
            }
        }
        let projection_from_toolbox =
            attr.projection.is_none() && toolbox.is_some_and(|t| t.projection.is_present());
        let projection = attr
            .projection
            .as_ref()
            .map_or(projection_from_toolbox, |p| **p);
        let summary = attr.summary.as_ref().is_some_and(|s| **s);
        let envelope = policy::over_budget(cx, &attr.over_budget, attr.max_output_bytes.is_some());
        if envelope
            && hint(&attr.read_only) != Some(true)
            && hint(&attr.idempotent) != Some(true)
            && let Some(v) = &attr.over_budget
        {
            cx.error_at(
                v.span(),
                format!(
                    "`over_budget = \"envelope\"` answers a result over the budget with an envelope \
                     that asks the model to call again for less, so it is allowed only on tools \
                     marked `read_only` or `idempotent`: the result of a write would be lost, and \
                     calling again repeats the write. Mark `{name}` read_only or idempotent, or \
                     keep the default `over_budget = \"cut\"`"
                ),
            );
        }
        for (on, argument, key) in [
            (projection, "jmespath", "projection"),
            (summary, "summary", "summary"),
        ] {
            // The names the runtime's result options add (`output/projection.rs`,
            // `output/summary.rs`); the toolbox's build checks flattened structs the same way.
            if let Some(p) = params.iter().find(|p| on && p.json_name == argument) {
                cx.error_spanned_by(
                    &p.ident,
                    format!(
                        "parameter `{argument}` has the name of the argument `{key}` adds to the \
                         tool (applied to the result, never passed to the body): rename the \
                         parameter, or publish it under another name with `#[param(rename = \"..\")]`"
                    ),
                );
            }
        }
        let confirm_not_needed = confirmation(
            cx,
            &mut checks,
            &attr,
            &name,
            &fn_ident,
            &resources,
            &params,
        );
        let stop_for = policy::stop_for(cx, &attr.stop_for);
        if let Some(expr) = &attr.stop_for {
            check_stop_for(cx, &expr.0, &attr, &resources, site);
        }
        let task = check_task(cx, &attr.task, envelope);
        let target = target_model(cx, &mut checks, &attr, &params, &resources);
        if let Some(check) = &attr.check
            && site == Site::Free
        {
            cx.error_spanned_by(
                check,
                "`check` is a method of a `#[toolbox]` impl (a check of the arguments against the \
                 state): declare the tool as a method of the impl, or check in its body",
            );
        }
        let (ret, ret_ok) = return_type(cx, &sig.output);
        ToolModel {
            fn_ident,
            name,
            name_span,
            title: attr.title.as_ref().map(|t| (**t).clone()),
            description,
            hints,
            timeout_ms,
            resources,
            retry,
            max_output_bytes: attr.max_output_bytes.as_ref().map(|m| **m),
            group,
            grace_ms,
            scopes,
            rate_limit: attr.rate_limit.clone(),
            confirm: attr.confirm.as_ref().and_then(|c| match &**c {
                Confirm::Ask(question) => Some(question.clone()),
                Confirm::No | Confirm::True => None,
            }),
            confirm_not_needed,
            stop_for,
            projection,
            projection_from_toolbox,
            deep_nesting: settings.deep_nesting,
            summary,
            envelope,
            task,
            blocking,
            params,
            flatten,
            receiver,
            is_async: sig.asyncness.is_some(),
            ret,
            servable: servable && ret_ok,
            checks,
            target,
            check: attr.check.clone(),
            description_limit: settings.max_description_bytes,
        }
    }

    /// Whether a real definition can be generated (the signature has no mistakes).
    pub fn servable(&self) -> bool {
        self.servable
    }

    /// Takes the type-dependent checks out of the model.
    pub fn take_checks(&mut self) -> Checks {
        std::mem::take(&mut self.checks)
    }

    /// Where the tool's name was written.
    pub fn name_span(&self) -> Span {
        self.name_span
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The resources the tool declares (`resource = ".."`), each where it was written.
    pub fn resources(&self) -> &[(String, Span)] {
        &self.resources
    }

    /// Where the tool moves its resource (`target`, `path`).
    pub fn target(&self) -> Option<&TargetModel> {
        self.target.as_ref()
    }

    /// The published names of the parameters that say where the tool moves its resource.
    pub fn target_params(&self) -> Vec<&str> {
        match &self.target {
            None => Vec::new(),
            Some(TargetModel::Params(names)) => names.iter().map(String::as_str).collect(),
            Some(TargetModel::Point(name) | TargetModel::Path(name)) => vec![name.as_str()],
        }
    }

    /// The description, when the macro can read it.
    pub fn description_text(&self) -> Option<&str> {
        match &self.description {
            Some(Doc::Text(text)) => Some(text),
            _ => None,
        }
    }

    /// The description's budget, in bytes.
    pub fn description_limit(&self) -> usize {
        self.description_limit
    }

    /// `check = ..`.
    pub fn check(&self) -> Option<&syn::Path> {
        self.check.as_ref()
    }

    /// The parameter published as `json_name`: its type and its `#[param]`.
    pub fn param(&self, json_name: &str) -> Option<(&Type, &Property)> {
        self.params
            .iter()
            .find(|p| p.json_name == json_name)
            .map(|p| (&p.ty, &p.decl))
    }

    /// The arguments the model sends, in order: each parameter's ident and type, but the call's
    /// `Context`. (For messages and the check's signature only, so decided by the type's name;
    /// generated code decides by type, `Probe::<T>::PUBLISHED`.)
    pub fn arguments(&self) -> impl Iterator<Item = (&Ident, &Type)> {
        self.params
            .iter()
            .filter(|p| !names_context(&p.ty))
            .map(|p| (&p.ident, &p.ty))
    }

    /// The argument whose ident is `ident`: its published name and its type.
    pub fn argument(&self, ident: &str) -> Option<(&str, &Type)> {
        self.params
            .iter()
            .find(|p| p.ident == ident)
            .map(|p| (p.json_name.as_str(), &p.ty))
    }

    /// Whether its confirmation question shows its check's text (`{check}`).
    pub fn question_shows_check(&self) -> bool {
        self.confirm.as_deref().is_some_and(shows_check)
    }

    /// The resources the tool stops (`stop_for = ".."`), each where it was written.
    pub fn stop_for(&self) -> &[(String, Span)] {
        &self.stop_for
    }

    /// The fn's ident.
    pub fn fn_ident(&self) -> &Ident {
        &self.fn_ident
    }
}

/// What to say of a name that is not an argument: the one it most likely means, else the
/// arguments there are.
fn name_hint(name: &str, arguments: &[String]) -> String {
    match crate::util::closest(name, arguments.iter().map(String::as_str)) {
        Some(near) => format!("did you mean `{near}`?"),
        None if arguments.is_empty() => "the tool takes no arguments".to_owned(),
        None => format!(
            "the tool's arguments are {}",
            arguments
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Whether `ty` is written as the call's `Context` (`Context`, `toolwright::Context`), for the
/// lists of arguments messages give.
fn names_context(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none()
        && p.path.segments.last().is_some_and(|s| s.ident == "Context" && s.arguments.is_none()))
}

/// One typed argument: its `#[param]` and doc comment (stripped from the fn), checked. `false`
/// when no definition can be generated for it.
fn param_model(
    cx: &Ctxt,
    checks: &mut Checks,
    pt: &mut syn::PatType,
    index: usize,
    settings: &Settings,
    generic: bool,
) -> (ParamModel, bool) {
    let decl = Property::parse(cx, &pt.attrs);
    pt.attrs
        .retain(|a| !property::is_param(a) && !doc::is_doc(a));
    let mut servable = true;
    let ident = match &*pt.pat {
        Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => pi.ident.clone(),
        other => {
            servable = false;
            cx.error_spanned_by(
                other,
                "tool parameters must be plain names (`force: f64`): each name becomes a property of the tool's input",
            );
            format_ident!("__tw_invalid_{index}")
        }
    };
    let type_ok = check_param_type(cx, &pt.ty);
    let plain = ident.to_string().trim_start_matches("r#").to_owned();
    let json_name = decl
        .attr
        .rename
        .as_ref()
        .map_or(plain.clone(), |r| (**r).clone());
    let is_flatten = decl.attr.flatten.is_present();
    check::param_keys(cx, &decl);
    let described = check::Described {
        what: format!("parameter `{json_name}`"),
        names: vec![&json_name, &plain],
        limit: decl
            .attr
            .max_description_bytes
            .as_ref()
            .map_or(settings.max_param_description_bytes, |v| **v),
        raise: "`#[param(max_description_bytes = ..)]`, or `#[tool(max_param_description_bytes = ..)]` for every parameter",
    };
    check::property_description(cx, checks, &decl, &described);
    if type_ok && !generic {
        // A `Context` is not published and needs no description: decided by its type.
        if !is_flatten && !decl.has_description() {
            checks.param_description(&ident, &pt.ty);
        }
        checks.param(&decl, &pt.ty);
    } else if !is_flatten && !decl.has_description() {
        cx.error_spanned_by(
            &ident,
            format!(
                "parameter `{json_name}` has no description: add a doc comment on it (`/// Grip force …`) or `#[param(description = \"..\")]`"
            ),
        );
    }
    let param = ParamModel {
        ident,
        ty: (*pt.ty).clone(),
        json_name,
        decl,
    };
    (param, servable && type_ok)
}

/// `target = ..` / `path = ..`: the parameters named exist, the tool uses a resource, and only
/// one of the two keys is given.
fn target_model(
    cx: &Ctxt,
    checks: &mut Checks,
    attr: &ToolAttr,
    params: &[ParamModel],
    resources: &[(String, Span)],
) -> Option<TargetModel> {
    use syn::spanned::Spanned;
    let mut param = |e: &syn::Expr| -> Option<String> {
        let ident = match e {
            syn::Expr::Path(p) if p.qself.is_none() => p.path.get_ident(),
            _ => None,
        };
        let Some(ident) = ident else {
            cx.error_spanned_by(e, "name a parameter of the tool here");
            return None;
        };
        let arguments: Vec<String> = params
            .iter()
            .filter(|p| !names_context(&p.ty))
            .map(|p| p.ident.to_string())
            .collect();
        match params.iter().find(|p| p.ident == *ident) {
            Some(p) if !names_context(&p.ty) => {
                checks.an_argument(ident.span(), &p.ty);
                Some(p.json_name.clone())
            }
            found => {
                let why = if found.is_some() {
                    format!("`{ident}` is the call's `Context`, not an argument")
                } else {
                    format!("`{ident}` is not a parameter of this tool")
                };
                cx.error_spanned_by(
                    ident,
                    format!("{why}; {}", name_hint(&ident.to_string(), &arguments)),
                );
                None
            }
        }
    };
    let (expr, is_path) = match (&attr.target, &attr.path) {
        (None, None) => return None,
        (Some(t), Some(_)) => {
            cx.error_spanned_by(
                t,
                "a tool moves to one `target` or along one `path`, not both: keep one",
            );
            return None;
        }
        (Some(t), None) => (t, false),
        (None, Some(p)) => (p, true),
    };
    if resources.is_empty() {
        cx.error_spanned_by(
            expr,
            "a target is checked against the envelope of the resource the tool moves: declare it \
             with `resource = \"..\"` (a resource of the toolbox with an `envelope(..)`)",
        );
    }
    let target = match expr {
        syn::Expr::Tuple(t) if !is_path => {
            let coordinates: Vec<Option<String>> = t.elems.iter().map(param).collect();
            if coordinates.len() != 3 {
                cx.error_spanned_by(
                    t,
                    "`target = (x, y, z)` names three parameters: the x, y and z of the target",
                );
                return None;
            }
            let mut out = Vec::new();
            for c in coordinates {
                out.push(c?);
            }
            let [x, y, z]: [String; 3] = out.try_into().ok()?;
            TargetModel::Params([x, y, z])
        }
        syn::Expr::Path(_) => {
            let name = param(expr)?;
            if is_path {
                TargetModel::Path(name)
            } else {
                TargetModel::Point(name)
            }
        }
        other => {
            cx.error_at(
                other.span(),
                if is_path {
                    "`path = waypoints` names one parameter: a list of points"
                } else {
                    "`target` names the arguments that say where the tool moves its resource: \
                     three number parameters, `target = (x, y, z)`, or one point parameter, \
                     `target = position`"
                },
            );
            return None;
        }
    };
    Some(target)
}

/// `stop_for = ".."`: a stop tool gets through when everything else is stuck, so it uses no
/// resource itself, asks no one and has no rate limit; it changes something, so it is not
/// `read_only`; and it names resources of a `#[toolbox]` impl.
fn check_stop_for(
    cx: &Ctxt,
    expr: &syn::Expr,
    attr: &ToolAttr,
    resources: &[(String, Span)],
    site: Site,
) {
    if site == Site::Free {
        cx.error_spanned_by(
            expr,
            "`stop_for` names resources of a `#[toolbox]` impl: declare the stop tool as a \
             method of the impl whose tools use the resource",
        );
    }
    if !resources.is_empty() {
        cx.error_spanned_by(
            expr,
            "a stop tool is never queued behind the calls it stops, so it cannot use a resource \
             itself: remove `resource`",
        );
    }
    if let Some(c) = &attr.confirm
        && matches!(**c, Confirm::Ask(_))
    {
        cx.error_at(
            c.span(),
            "a stop tool never waits for anyone's confirmation: remove `confirm` (or \
             `stop_for`, if this tool is not a stop)",
        );
    }
    if let Some(r) = &attr.rate_limit {
        cx.error_at(
            r.span(),
            "a stop tool is never rate-limited, so that it gets through when a client is over \
             its limit: remove `rate_limit`",
        );
    }
    if let Some(r) = &attr.read_only
        && **r
    {
        cx.error_at(
            r.span(),
            "a stop tool stops what the other tools are doing, so it is not `read_only`: \
             remove `read_only`",
        );
    }
}

/// `task = ".."`: one of the three modes; `"required"` only on a tool whose result can be
/// stored until the client fetches it. Returns the mode to publish (`None`: forbidden).
fn check_task(
    cx: &Ctxt,
    task: &Option<darling::util::SpannedValue<String>>,
    envelope: bool,
) -> Option<&'static str> {
    let task = task.as_ref()?;
    match task.as_str() {
        "forbidden" => None,
        "optional" => Some("optional"),
        "required" if envelope => {
            cx.error_at(
                task.span(),
                "`task = \"required\"`: a task stores the tool's result until the client fetches \
                 it, and a result over `max_output_bytes` with `over_budget = \"envelope\"` is not \
                 stored (the envelope asks the model to call again for less, which a task cannot \
                 do). Use `task = \"optional\"`, or keep the default `over_budget = \"cut\"`",
            );
            None
        }
        "required" => Some("required"),
        other => {
            cx.error_at(
                task.span(),
                format!(
                    "`task = \"{other}\"` is not a task mode: write `task = \"optional\"` (the \
                     client may run a call as a task), `task = \"required\"` (every call is a \
                     task) or leave it out (never a task)"
                ),
            );
            None
        }
    }
}

/// Who confirms the tool's calls. A tool that holds a resource (`resource = ..`), is not
/// `read_only` and is no stop tool acts on something, so it either asks (`confirm = ".."`) or
/// says, published, why no one needs to (`confirm = false, because = ".."`): leaving both out is
/// an error on the tool's name. Returns the reason of `confirm = false`.
fn confirmation(
    cx: &Ctxt,
    checks: &mut Checks,
    attr: &ToolAttr,
    name: &str,
    fn_ident: &Ident,
    resources: &[(String, Span)],
    params: &[ParamModel],
) -> Option<String> {
    let read_only = attr.read_only.as_ref().is_some_and(|r| **r);
    let stop = attr.stop_for.is_some();
    match (attr.confirm.as_ref(), attr.because.as_ref()) {
        (Some(confirm), because) => {
            match &**confirm {
                Confirm::Ask(question) => {
                    check_confirm(
                        cx,
                        checks,
                        question,
                        confirm.span(),
                        params,
                        read_only,
                        attr.check.is_some(),
                    );
                    if let Some(because) = because {
                        cx.error_at(
                            because.span(),
                            "`because` says why no one needs to confirm a tool, with `confirm = \
                         false`; this tool asks its question: remove `because`",
                        );
                    }
                    None
                }
                Confirm::True => {
                    cx.error_at(
                        confirm.span(),
                        "`confirm` takes the question the user confirms each call with, e.g. \
                         `confirm = \"Move the arm to ({x}, {y}, {z})?\"`, or `confirm = false, \
                         because = \"..\"` when no one needs to confirm the tool",
                    );
                    None
                }
                Confirm::No => {
                    if read_only || stop {
                        cx.error_at(
                        confirm.span(),
                        format!(
                            "`confirm = false` says that no one confirms a tool that acts, and a \
                             {} is never confirmed: remove `confirm` and `because`",
                            if stop { "stop tool" } else { "`read_only` tool" }
                        ),
                    );
                        return None;
                    }
                    let Some(because) = because else {
                        cx.error_at(
                        confirm.span(),
                        format!(
                            "`confirm = false` needs the reason no one needs to confirm `{name}`, \
                             which operators read on its page and in its `_meta`: write \
                             `confirm = false, because = \"..\"` (e.g. \"the gripper is limited \
                             to 5 N and cannot hurt anyone\")"
                        ),
                    );
                        return None;
                    };
                    if because.trim().chars().count() < 10 {
                        cx.error_at(
                        because.span(),
                        "`because`: say in a sentence why no one needs to confirm this tool (an \
                         operator reads it to judge the tool; at least 10 characters)",
                    );
                        return None;
                    }
                    Some((**because).clone())
                }
            }
        }
        (None, Some(because)) => {
            cx.error_at(
                because.span(),
                "`because` goes with `confirm = false` (why no one needs to confirm the tool): \
                 add `confirm = false`, or remove `because`",
            );
            None
        }
        (None, None) => {
            if let Some((resource, _)) = resources.first()
                && !read_only
                && !stop
            {
                // The published parameters (a `Context` is the call, not an argument).
                let arguments: Vec<String> = params
                    .iter()
                    .filter(|p| !names_context(&p.ty))
                    .map(|p| format!("{} {{{}}}", p.json_name, p.json_name))
                    .collect();
                let question = if arguments.is_empty() {
                    format!("Run {name}?")
                } else {
                    format!("Run {name} with {}?", arguments.join(", "))
                };
                cx.error_spanned_by(
                    fn_ident,
                    format!(
                        "`{name}` holds the resource `{resource}` and is not `read_only`, so the \
                         user confirms each call before it runs: add the question, e.g. \
                         `confirm = \"{question}\"` (`{{param}}` shows an argument), or, if no \
                         one needs to confirm it, say why: `confirm = false, because = \"..\"`. \
                         A tool that only reads is `read_only`"
                    ),
                );
            }
            None
        }
    }
}

/// The placeholder of a question that shows what the tool's check says of the call.
const CHECK_PLACEHOLDER: &str = "check";

/// Whether a question shows its check's text (`{check}`, not `{{check}}`).
fn shows_check(question: &str) -> bool {
    let mut rest = question;
    while let Some(open) = rest.find(['{', '}']) {
        let (brace, after) = (rest.as_bytes()[open], &rest[open + 1..]);
        if after.starts_with(brace as char) {
            rest = &after[1..];
            continue;
        }
        if brace == b'{'
            && let Some(close) = after.find('}')
        {
            if after[..close].trim() == CHECK_PLACEHOLDER {
                return true;
            }
            rest = &after[close + 1..];
        } else {
            rest = after;
        }
    }
    false
}

/// `confirm = ".."`: not on a `read_only` tool (reading needs no approval), a message that says
/// something, and `{name}` placeholders that name parameters (`{{` and `}}` are braces).
fn check_confirm(
    cx: &Ctxt,
    checks: &mut Checks,
    message: &str,
    span: Span,
    params: &[ParamModel],
    read_only: bool,
    has_check: bool,
) {
    if read_only {
        cx.error_at(
            span,
            "`confirm` asks the user before a tool changes something, and a `read_only` tool \
             changes nothing: remove `confirm`, or remove `read_only` if the tool acts",
        );
    }
    if message.trim().is_empty() {
        cx.error_at(
            span,
            "`confirm` needs the question the user is asked, e.g. \
             `confirm = \"Move the arm to ({x}, {y}, {z})?\"`",
        );
    }
    let names: Vec<String> = params
        .iter()
        .filter(|p| !names_context(&p.ty))
        .map(|p| p.json_name.clone())
        .collect();
    let mut rest = message;
    while let Some(open) = rest.find(['{', '}']) {
        let (brace, after) = (rest.as_bytes()[open], &rest[open + 1..]);
        if after.starts_with(brace as char) {
            rest = &after[1..];
            continue;
        }
        if brace == b'}' {
            cx.error_at(
                span,
                "`confirm`: a `}` closes no placeholder; write `}}` for a brace",
            );
            return;
        }
        let Some(close) = after.find('}') else {
            cx.error_at(
                span,
                "`confirm`: a `{` opens a placeholder that is never closed; write `{{` for a brace",
            );
            return;
        };
        let name = after[..close].trim();
        if name == CHECK_PLACEHOLDER && !names.iter().any(|n| n == name) {
            if !has_check {
                cx.error_at(
                    span,
                    "`confirm`: `{check}` shows what the tool's check says of the call, and this \
                     tool has no `check`: add `check = method` (returning `Result<String, E>`), or \
                     remove `{check}`",
                );
            }
            rest = &after[close + 1..];
            continue;
        }
        match params.iter().find(|p| p.json_name == name) {
            Some(p) if !names_context(&p.ty) => checks.an_argument(span, &p.ty),
            found => {
                let why = if found.is_some() {
                    format!("`{{{name}}}` names the call's `Context`, not an argument")
                } else {
                    format!("the placeholder `{{{name}}}` names no parameter")
                };
                cx.error_at(
                    span,
                    format!("`confirm`: {why}; {}", name_hint(name, &names)),
                );
            }
        }
        rest = &after[close + 1..];
    }
}
