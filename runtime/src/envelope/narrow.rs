//! An operator's narrowing of declared envelopes: a file `{"arm": {..}, ..}` whose entries may
//! only take room away, in the published unit and frame:
//!
//! ```json
//! {"arm": {"allow": [{"box": {"min": [-500, -500, 0], "max": [500, 500, 800]}}],
//!          "keepOut": [{"name": "operator_desk", "box": {"min": [..], "max": [..]}}],
//!          "maxStep": 300, "toolRadius": 50, "unit": "mm", "frame": "base_link"}}
//! ```
//!
//! More allow shapes (intersected with the declared ones), more keep-outs, a `maxStep` no
//! larger than the declared one (any, when none is declared), a `toolRadius` no smaller;
//! `unit` and `frame`, when given, must be the declared ones.

use std::collections::BTreeMap;

use serde_json::Value;

use super::Envelope;
use super::json::{Reader, shown, suggest};
use super::refusal::clean;
use crate::echo::echo;

/// The keys of one resource's entry.
const ENTRY_KEYS: &[&str] = &["allow", "keepOut", "maxStep", "toolRadius", "unit", "frame"];

impl Envelope {
    /// The envelope narrowed by one entry of the operator's file (module docs): every problem,
    /// each naming its key or limit, joined by `; ` (a larger `maxStep`, a smaller
    /// `toolRadius`, another `unit` or `frame`, unknown keys, malformed shapes, or a narrowed
    /// envelope that fails [`Envelope::validate`], e.g. allowing nothing).
    #[cfg(test)]
    pub(crate) fn narrow(&self, entry: &Value) -> Result<Envelope, String> {
        self.narrow_as(entry, None)
    }

    /// [`Envelope::narrow`], its messages naming `resource` and its paths starting with it.
    fn narrow_as(&self, entry: &Value, resource: Option<&str>) -> Result<Envelope, String> {
        let prefix = resource.map(|r| format!("{r}.")).unwrap_or_default();
        let of = resource
            .map(|r| format!(" of resource {}", echo(r)))
            .unwrap_or_default();
        let mut read = Reader::new(&prefix);
        let mut narrowed = self.clone();
        let Some(map) = read.object(entry, "", ENTRY_KEYS) else {
            return Err(read.errors.join("; "));
        };
        for (key, declared) in [("unit", &self.unit), ("frame", &self.frame)] {
            if let Some(value) = map.get(key)
                && let Some(given) = read.string(value, key)
                && &given != declared
            {
                read.errors.push(format!(
                    "{key} {} differs from the declared {}{of}: a narrowing is written in the \
                     published {key}",
                    echo(&given),
                    echo(declared)
                ));
            }
        }
        if let Some(value) = map.get("maxStep")
            && let Some(given) = read.number(value, "maxStep")
        {
            match self.max_step {
                Some(declared) if given > declared => read.errors.push(format!(
                    "maxStep {} would widen the declared {} {}{of} (a narrowing may only lower \
                     it)",
                    clean(given),
                    clean(declared),
                    self.unit
                )),
                _ => narrowed.max_step = Some(given),
            }
        }
        if let Some(value) = map.get("toolRadius")
            && let Some(given) = read.number(value, "toolRadius")
        {
            if given < self.tool_radius {
                read.errors.push(format!(
                    "toolRadius {} would shrink the declared {} {}{of} (a narrowing may only \
                     keep or enlarge it)",
                    clean(given),
                    clean(self.tool_radius),
                    self.unit
                ));
            } else {
                narrowed.tool_radius = given;
            }
        }
        for (key, list) in [
            ("allow", &mut narrowed.allow),
            ("keepOut", &mut narrowed.keep_out),
        ] {
            if let Some(value) = map.get(key)
                && let Some(shapes) = read.shapes(value, key)
            {
                list.extend(shapes);
            }
        }
        if !read.errors.is_empty() {
            return Err(read.errors.join("; "));
        }
        narrowed.validate().map_err(|problems| {
            format!(
                "the narrowed envelope{of} is not valid: {}",
                problems.join("; ")
            )
        })?;
        Ok(narrowed)
    }
}

/// The declared envelopes narrowed by the operator's file `{"arm": {..}, ..}`: every declared
/// resource, narrowed where the file has an entry for it. Every problem, one a line: a file
/// that is not an object, a resource that declares no envelope (with a suggestion when a
/// declared one is close), and each entry's problems ([`Envelope::narrow`]).
pub(crate) fn narrow_file(
    declared: &BTreeMap<String, Envelope>,
    file: &Value,
) -> Result<BTreeMap<String, Envelope>, String> {
    let Some(entries) = file.as_object() else {
        return Err(format!(
            "the envelope narrowing file must be an object of resource names, found {}",
            shown(file)
        ));
    };
    let mut narrowed = declared.clone();
    let mut errors = Vec::new();
    let names: Vec<&str> = declared.keys().map(String::as_str).collect();
    for (resource, entry) in entries {
        match declared.get(resource) {
            Some(envelope) => match envelope.narrow_as(entry, Some(resource)) {
                Ok(envelope) => {
                    narrowed.insert(resource.clone(), envelope);
                }
                Err(e) => errors.push(e),
            },
            None => {
                let hint = suggest(resource, &names)
                    .map(|s| format!(" (did you mean {}?)", echo(s)))
                    .unwrap_or_default();
                let known = if names.is_empty() {
                    "no resource declares one".to_owned()
                } else {
                    format!(
                        "those that do: {}",
                        names
                            .iter()
                            .map(|n| echo(n).to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                errors.push(format!(
                    "{}: no resource of that name declares an envelope{hint}; {known}",
                    echo(resource)
                ));
            }
        }
    }
    if errors.is_empty() {
        Ok(narrowed)
    } else {
        Err(errors.join("\n"))
    }
}
