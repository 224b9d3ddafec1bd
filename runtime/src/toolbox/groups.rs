//! Which tools are listed and callable: groups enabled and disabled at run time (those a built
//! toolbox starts with: `ToolboxBuilder::only_groups`), the tools as
//! `tools/list` sends them, and `notifications/tools/list_changed` to connected clients: the
//! sessions of protocols before 2026-07-28, and the `subscriptions/listen` streams of 2026-07-28
//! that asked for it ([`Listeners`]).

use std::sync::Arc;

use rmcp::model::Tool;
use rmcp::service::{SubscriptionSendError, SubscriptionSink};

use super::{Entry, Inner, Toolbox, read, write};
use crate::validate::Validator;

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// The groups declared by the tools, in declaration order.
    pub fn groups(&self) -> Vec<&'static str> {
        let mut groups = Vec::new();
        for g in self.inner.entries.iter().filter_map(|e| e.meta.group) {
            if !groups.contains(&g) {
                groups.push(g);
            }
        }
        groups
    }

    /// Lists and serves a group's tools again, telling connected clients
    /// (`notifications/tools/list_changed`). Returns whether anything changed.
    pub async fn enable_group(&self, group: &str) -> bool {
        write(&self.inner.disabled_groups).remove(group);
        self.list_changed().await
    }

    /// Hides a group's tools: no longer listed, and calls to them are unknown tools. Connected
    /// clients are told. Returns whether anything changed.
    pub async fn disable_group(&self, group: &str) -> bool {
        write(&self.inner.disabled_groups).insert(group.to_owned());
        self.list_changed().await
    }

    async fn list_changed(&self) -> bool {
        if !self.inner.refresh_listed() {
            return false;
        }
        let peers: Vec<_> = self
            .inner
            .peers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        for peer in peers {
            if let Err(e) = peer.notify_tool_list_changed().await {
                tracing::debug!(error = %e, "list_changed not delivered");
            }
        }
        let sinks = self.inner.listeners().sinks();
        for (key, sink) in sinks {
            // The sink tags the notification with its subscription's id.
            match sink.notify_tool_list_changed().await {
                Ok(()) => {}
                // Ended, or its connection is gone: no later change can reach it either.
                Err(
                    e @ (SubscriptionSendError::SubscriptionClosed
                    | SubscriptionSendError::Service(_)),
                ) => {
                    tracing::debug!(error = %e, "listen stream gone");
                    self.inner.listeners().remove(key);
                }
                Err(e) => tracing::debug!(error = %e, "list_changed not delivered"),
            }
        }
        true
    }

    /// The tools as `tools/list` sends them now (enabled groups only, plus `describe_tool`).
    pub fn listed_tools(&self) -> Vec<Tool> {
        read(&self.inner.listed).clone()
    }
}

/// The open `subscriptions/listen` streams told of tool list changes, each under a key of its own
/// (the streams' request ids may repeat across connections).
#[derive(Default)]
pub(super) struct Listeners {
    next: u64,
    sinks: Vec<(u64, SubscriptionSink)>,
}

impl Listeners {
    /// Adds a stream; its key removes it.
    pub(super) fn add(&mut self, sink: SubscriptionSink) -> u64 {
        let key = self.next;
        self.next += 1;
        self.sinks.push((key, sink));
        key
    }

    /// Removes the stream added under `key` (nothing if it is gone).
    pub(super) fn remove(&mut self, key: u64) {
        self.sinks.retain(|(k, _)| *k != key);
    }

    /// The open streams, to send to without holding the lock.
    fn sinks(&self) -> Vec<(u64, SubscriptionSink)> {
        self.sinks.clone()
    }
}

impl<S> Inner<S> {
    /// For `describe_tool`, the validator of the tools served now (its `name` enum lists them
    /// alone, [`describe::served`](super::describe::served)); `None` for any other tool, whose
    /// own validator checks its calls.
    pub(super) fn validator_of(&self, entry: &Entry<S>) -> Option<Arc<Validator>> {
        let is_describe = self
            .describe
            .as_ref()
            .is_some_and(|d| std::ptr::eq(d, entry));
        if !is_describe {
            return None;
        }
        read(&self.describe_now).clone()
    }
}

impl<S: Send + Sync + 'static> Inner<S> {
    /// The open `subscriptions/listen` streams (see [`Listeners`]).
    pub(super) fn listeners(&self) -> std::sync::MutexGuard<'_, Listeners> {
        self.listeners.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(super) fn is_enabled(&self, entry: &Entry<S>) -> bool {
        entry
            .meta
            .group
            .is_none_or(|g| !read(&self.disabled_groups).contains(g))
            && (entry.meta.read_only == Some(true) || !self.is_read_only())
    }

    /// Whether it serves only the tools declared `read_only`
    /// ([`ToolboxBuilder::with_read_only`](super::ToolboxBuilder::with_read_only)).
    pub(super) fn is_read_only(&self) -> bool {
        self.config.read_only
    }

    /// Recomputes the listed tools; `true` when the list changed.
    pub(super) fn refresh_listed(&self) -> bool {
        let served: Vec<&Entry<S>> = self.entries.iter().filter(|e| self.is_enabled(e)).collect();
        let mut tools: Vec<Tool> = served.iter().map(|e| e.tool.clone()).collect();
        let mut listed = self.listed.write().unwrap_or_else(|p| p.into_inner());
        if let Some(d) = &self.describe {
            // Its `name` enum lists the tools served now, and nothing hidden.
            let (tool, validator) =
                super::describe::served(&d.tool, served.iter().map(|e| &*e.name));
            tools.push(tool);
            *super::write(&self.describe_now) = Some(validator);
        }
        let changed = *listed != tools;
        *listed = tools;
        changed
    }
}
