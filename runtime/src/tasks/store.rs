//! The records of this process's tasks: what `tasks/get` answers, bounded by [`TaskLimits`].
//!
//! A record is bound to its owner (the authenticated principal, else the MCP session, else no
//! one when neither exists): a request from anyone else finds no such task. Ids are 128 random
//! bits, so they cannot be guessed either.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

use rmcp::ErrorData;
use rmcp::model::{
    CallToolResult, CreateTaskResult, DetailedTask, InputRequest, InputRequests, InputResponses,
    JsonObject, Task, TaskPayload, TaskStatus,
};
use serde_json::Value;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::{TaskLimits, iso8601};

/// The tasks of a toolbox.
pub(crate) struct Tasks {
    limits: TaskLimits,
    records: Mutex<HashMap<String, Arc<Record>>>,
}

/// Why a task was not created: a bound of [`TaskLimits`] is reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The client has this many unfinished tasks.
    PerClient(usize),
    /// The server holds this many task records.
    Total(usize),
}

impl Refusal {
    /// The error's text, for the model.
    pub(crate) fn message(&self, tool: &str) -> String {
        match self {
            Refusal::PerClient(limit) => format!(
                "`{tool}` was not started: this client already has {limit} unfinished tasks (the \
                 limit). Wait for one to end (tasks/get) or cancel one (tasks/cancel), then call \
                 again"
            ),
            Refusal::Total(limit) => format!(
                "`{tool}` was not started: the server holds {limit} tasks (the limit), finished \
                 ones included until their time to live ends. Call again later"
            ),
        }
    }
}

/// How a task ended.
pub(crate) enum Finished {
    /// The tool's result (an error result too: `isError`).
    Completed(CallToolResult),
    /// A protocol-level failure (the body panicked, the server failed).
    Failed(ErrorData),
    /// Cancelled: what the runtime did to stop it (the safe stops it ran).
    Cancelled(String),
}

/// Why a task was told to stop, when something other than its deadline or a stop tool did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stopping {
    /// `tasks/cancel`.
    Cancelled = 1,
    /// Nobody polled it within its lease.
    LeaseExpired = 2,
    /// The connection that owns it closed (stdio).
    ClientGone = 3,
    /// The server is shutting down.
    Shutdown = 4,
}

/// One task.
pub(crate) struct Record {
    pub(crate) id: String,
    /// Who may read and cancel it (`None`: whoever has its id).
    owner: Option<Arc<str>>,
    created: SystemTime,
    born: Instant,
    ttl: Duration,
    poll_interval: Duration,
    /// Cancelled by `tasks/cancel` (see [`Record::stop`]): the runner tells the body to stop.
    pub(crate) cancel: CancellationToken,
    /// Why `cancel` was cancelled: 0, or a [`Stopping`].
    stopping: AtomicU8,
    /// How long it may go without its client asking after it (`None`: no lease, it holds no
    /// resource with a safe stop).
    lease: Option<Duration>,
    /// When its client last asked after it (`tasks/get`, `tasks/update`, 2025-11-25's
    /// `tasks/result`).
    seen: Mutex<Instant>,
    /// Requests waiting for its end (2025-11-25's `tasks/result`): its client is there.
    waited_on: AtomicUsize,
    state: Mutex<State>,
    changed: Notify,
}

enum Status {
    Working,
    InputRequired,
    Completed(JsonObject),
    Failed(JsonObject),
    Cancelled,
}

struct State {
    status: Status,
    message: Option<String>,
    updated: SystemTime,
    /// The questions the client has not answered yet (status `input_required`).
    pending: InputRequests,
    /// Every answer the client gave, by key, with the question it answers.
    answers: Answers,
}

/// The answers a task's client gave, by key, each with the question the task asked under that
/// key: an answer is bound to the question it answers.
pub(crate) type Answers = std::collections::BTreeMap<String, (InputRequest, Value)>;

impl Tasks {
    pub(crate) fn new(limits: TaskLimits) -> Self {
        Tasks {
            limits,
            records: Mutex::new(HashMap::new()),
        }
    }

    pub(crate) fn limits(&self) -> &TaskLimits {
        &self.limits
    }

    fn records(&self) -> MutexGuard<'_, HashMap<String, Arc<Record>>> {
        self.records.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new task of `owner`, working, with a lease when `leased` (see [`TaskLimits::lease`]);
    /// refused past a bound.
    pub(crate) fn create(
        &self,
        owner: Option<Arc<str>>,
        leased: bool,
    ) -> Result<Arc<Record>, Refusal> {
        let now = Instant::now();
        let mut records = self.records();
        records.retain(|_, r| !r.expired(now));
        if records.len() >= self.limits.max_total {
            return Err(Refusal::Total(self.limits.max_total));
        }
        let unfinished = records
            .values()
            .filter(|r| r.owner == owner && !r.is_terminal())
            .count();
        if unfinished >= self.limits.max_per_client {
            return Err(Refusal::PerClient(self.limits.max_per_client));
        }
        let record = Arc::new(Record {
            id: new_task_id(),
            owner,
            created: SystemTime::now(),
            born: now,
            ttl: self.limits.ttl,
            poll_interval: self.limits.poll_interval,
            cancel: CancellationToken::new(),
            stopping: AtomicU8::new(0),
            lease: leased.then_some(self.limits.lease),
            seen: Mutex::new(now),
            waited_on: AtomicUsize::new(0),
            state: Mutex::new(State {
                status: Status::Working,
                message: None,
                updated: SystemTime::now(),
                pending: InputRequests::new(),
                answers: Answers::new(),
            }),
            changed: Notify::new(),
        });
        records.insert(record.id.clone(), Arc::clone(&record));
        Ok(record)
    }

    /// The task `id`, if `owner` may see it (a task of another owner is not found).
    pub(crate) fn find(&self, id: &str, owner: Option<&str>) -> Option<Arc<Record>> {
        let now = Instant::now();
        let records = self.records();
        let record = records.get(id)?;
        if record.expired(now) || record.owner.as_deref().is_some_and(|o| Some(o) != owner) {
            return None;
        }
        Some(Arc::clone(record))
    }

    /// Forgets the task `id` (a call that answered at once after all).
    pub(crate) fn remove(&self, id: &str) {
        self.records().remove(id);
    }

    /// Tells every unfinished task with a lease (holding a resource with a safe stop) that
    /// `owner` may see to stop, for `why`; with `owner` `None`, every unfinished task.
    pub(crate) fn stop_all(&self, owner: Option<&str>, why: Stopping) -> usize {
        let unfinished: Vec<Arc<Record>> = self
            .records()
            .values()
            .filter(|r| !r.is_terminal())
            .filter(|r| owner.is_none() || (r.lease.is_some() && r.owner.as_deref() == owner))
            .cloned()
            .collect();
        for record in &unfinished {
            record.stop(why);
        }
        unfinished.len()
    }
}

impl Tasks {
    /// The tasks `owner` may see, newest first.
    pub(crate) fn list(&self, owner: Option<&str>) -> Vec<Arc<Record>> {
        let now = Instant::now();
        let mut tasks: Vec<Arc<Record>> = self
            .records()
            .values()
            .filter(|r| !r.expired(now) && r.owner.as_deref().is_none_or(|o| Some(o) == owner))
            .cloned()
            .collect();
        tasks.sort_by_key(|r| std::cmp::Reverse(r.born));
        tasks
    }
}

/// 128 random bits, hex.
fn new_task_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random source failed");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Record {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Past its time to live, and finished (a running task is kept until it ends).
    fn expired(&self, now: Instant) -> bool {
        now.duration_since(self.born) >= self.ttl && self.is_terminal()
    }

    pub(crate) fn is_terminal(&self) -> bool {
        matches!(
            self.state().status,
            Status::Completed(_) | Status::Failed(_) | Status::Cancelled
        )
    }

    /// Tells the task to stop, for `why` (the first reason stays).
    pub(crate) fn stop(&self, why: Stopping) {
        let _ = self
            .stopping
            .compare_exchange(0, why as u8, Ordering::AcqRel, Ordering::Acquire);
        self.cancel.cancel();
    }

    /// Why it was told to stop (`None`: it was not, or by its deadline or a stop tool).
    pub(crate) fn stopping(&self) -> Option<Stopping> {
        match self.stopping.load(Ordering::Acquire) {
            1 => Some(Stopping::Cancelled),
            2 => Some(Stopping::LeaseExpired),
            3 => Some(Stopping::ClientGone),
            4 => Some(Stopping::Shutdown),
            _ => None,
        }
    }

    /// Its lease (`None`: it has none).
    pub(crate) fn lease(&self) -> Option<Duration> {
        self.lease
    }

    /// Its client asked after it: its lease starts again.
    pub(crate) fn polled(&self) {
        if self.lease.is_some() {
            *self.seen.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
        }
    }

    /// Counts a request waiting for its end (its client is there) while the guard lives.
    pub(crate) fn waited_on(&self) -> impl Drop + '_ {
        struct Waiting<'a>(&'a Record);
        impl Drop for Waiting<'_> {
            fn drop(&mut self) {
                self.0.waited_on.fetch_sub(1, Ordering::SeqCst);
                self.0.polled();
            }
        }
        self.waited_on.fetch_add(1, Ordering::SeqCst);
        Waiting(self)
    }

    /// Completes when its lease ran out while it was unfinished: no `tasks/get` or
    /// `tasks/update` (and no request waiting for its end) within the lease; never without a
    /// lease, or once it ended.
    pub(crate) async fn lease_expired(&self) {
        let Some(lease) = self.lease else {
            return std::future::pending().await;
        };
        loop {
            if self.is_terminal() {
                return std::future::pending().await;
            }
            let due = *self.seen.lock().unwrap_or_else(|p| p.into_inner()) + lease;
            let now = Instant::now();
            if now >= due {
                if self.waited_on.load(Ordering::SeqCst) == 0 {
                    return;
                }
                self.polled();
                continue;
            }
            tokio::select! {
                () = tokio::time::sleep_until(due.into()) => {}
                () = self.ended() => {}
            }
        }
    }

    /// The time to live, in milliseconds.
    pub(crate) fn ttl_ms(&self) -> u64 {
        self.ttl.as_millis() as u64
    }

    /// The poll interval, in milliseconds.
    pub(crate) fn poll_interval_ms(&self) -> u64 {
        (self.poll_interval.as_millis() as u64).max(1)
    }

    /// The status, as the protocol names it.
    #[cfg(test)]
    pub(crate) fn status(&self) -> TaskStatus {
        status_of(&self.state().status)
    }

    /// The base task (no result).
    pub(crate) fn task(&self) -> Task {
        let state = self.state();
        self.task_of(&state)
    }

    fn task_of(&self, state: &State) -> Task {
        let mut task = Task::new(
            self.id.clone(),
            status_of(&state.status),
            iso8601(self.created),
            iso8601(state.updated),
        )
        .with_ttl_ms(self.ttl_ms())
        .with_poll_interval_ms(self.poll_interval_ms());
        task.status_message = state.message.clone();
        task
    }

    /// What `tasks/get` answers (protocol 2026-07-28): the task, with its result, error or
    /// questions.
    pub(crate) fn detailed(&self) -> DetailedTask {
        let state = self.state();
        let payload = match &state.status {
            Status::Working => TaskPayload::Working,
            Status::InputRequired => TaskPayload::InputRequired {
                input_requests: state.pending.clone(),
            },
            Status::Completed(result) => TaskPayload::Completed {
                result: result.clone(),
            },
            Status::Failed(error) => TaskPayload::Failed {
                error: error.clone(),
            },
            Status::Cancelled => TaskPayload::Cancelled,
        };
        DetailedTask::new(self.task_of(&state), payload)
    }

    /// What creating it answers (protocol 2026-07-28).
    pub(crate) fn created(&self) -> CreateTaskResult {
        CreateTaskResult::new(self.task())
    }

    /// How a finished task ended, as the original request would have answered: the tool's
    /// result, or the JSON-RPC error; `None` while it runs.
    pub(crate) fn outcome(&self) -> Option<Result<JsonObject, ErrorData>> {
        match &self.state().status {
            Status::Completed(result) => Some(Ok(result.clone())),
            Status::Failed(error) => {
                Some(Err(serde_json::from_value(Value::Object(error.clone()))
                    .unwrap_or_else(|_| {
                        ErrorData::internal_error("the task failed", None)
                    })))
            }
            Status::Cancelled => Some(Err(ErrorData::invalid_request(
                format!(
                    "task {} was cancelled: {}",
                    self.id,
                    self.state().message.clone().unwrap_or_default()
                ),
                None,
            ))),
            _ => None,
        }
    }

    /// Who may see it.
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    pub(crate) fn owner(&self) -> Option<&str> {
        self.owner.as_deref()
    }

    /// Waits until it changes, or `at_most`.
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    pub(crate) async fn changed(&self, at_most: Duration) {
        let _ = tokio::time::timeout(at_most, self.changed.notified()).await;
    }

    /// Waits until the task ended.
    pub(crate) async fn ended(&self) {
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            if self.is_terminal() {
                return;
            }
            changed.await;
        }
    }

    fn touch(&self, state: &mut State) {
        state.updated = SystemTime::now();
        self.changed.notify_waiters();
    }

    /// The body's progress, as the status message (while it works).
    pub(crate) fn progress(&self, message: String) {
        let mut state = self.state();
        if matches!(state.status, Status::Working) {
            state.message = Some(message);
            self.touch(&mut state);
        }
    }

    /// The body asked its user `requests`: the task waits for the answers.
    pub(crate) fn ask(&self, requests: InputRequests) {
        let mut state = self.state();
        if !matches!(state.status, Status::Working) {
            return;
        }
        state.status = Status::InputRequired;
        state.message = Some("waiting for the user's answer".to_owned());
        state.pending = requests;
        self.touch(&mut state);
    }

    /// `tasks/update`: the answers to questions the task asked (unknown keys are ignored).
    /// Once every question is answered the task works again.
    pub(crate) fn answer(&self, responses: InputResponses) {
        let mut state = self.state();
        if !matches!(state.status, Status::InputRequired) {
            return;
        }
        for (key, answer) in responses {
            if let Some(question) = state.pending.remove(&key) {
                state.answers.insert(key, (question, answer));
            }
        }
        if state.pending.is_empty() {
            state.status = Status::Working;
            state.message = None;
        }
        self.touch(&mut state);
    }

    /// Every answer given so far, with the question it answers.
    pub(crate) fn answers(&self) -> Answers {
        self.state().answers.clone()
    }

    /// Waits until the questions asked are all answered (`true`), or the task is cancelled.
    pub(crate) async fn answered(&self) -> bool {
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            if !matches!(self.state().status, Status::InputRequired) {
                return true;
            }
            tokio::select! {
                () = changed => {}
                () = self.cancel.cancelled() => return false,
            }
        }
    }

    /// Ends the task (once: a finished task stays as it ended).
    pub(crate) fn finish(&self, how: Finished) {
        let mut state = self.state();
        if matches!(
            state.status,
            Status::Completed(_) | Status::Failed(_) | Status::Cancelled
        ) {
            return;
        }
        state.pending.clear();
        match how {
            Finished::Completed(result) => {
                state.message = None;
                state.status = Status::Completed(object(serde_json::to_value(result)));
            }
            Finished::Failed(error) => {
                state.message = Some(error.message.to_string());
                state.status = Status::Failed(object(serde_json::to_value(error)));
            }
            Finished::Cancelled(text) => {
                state.message = Some(text);
                state.status = Status::Cancelled;
            }
        }
        self.touch(&mut state);
    }
}

fn status_of(status: &Status) -> TaskStatus {
    match status {
        Status::Working => TaskStatus::Working,
        Status::InputRequired => TaskStatus::InputRequired,
        Status::Completed(_) => TaskStatus::Completed,
        Status::Failed(_) => TaskStatus::Failed,
        Status::Cancelled => TaskStatus::Cancelled,
    }
}

fn object(value: Result<Value, serde_json::Error>) -> JsonObject {
    match value {
        Ok(Value::Object(map)) => map,
        _ => JsonObject::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> TaskLimits {
        TaskLimits::default()
            .with_max_per_client(2)
            .with_max_total(3)
    }

    #[test]
    fn a_task_is_found_by_its_owner_only() {
        let tasks = Tasks::new(limits());
        let mine = tasks.create(Some(Arc::from("alice")), false).unwrap();
        assert_eq!(mine.id.len(), 32);
        assert!(tasks.find(&mine.id, Some("alice")).is_some());
        assert!(tasks.find(&mine.id, Some("bob")).is_none());
        assert!(tasks.find(&mine.id, None).is_none());
        let anyones = tasks.create(None, false).unwrap();
        assert!(tasks.find(&anyones.id, Some("bob")).is_some());
        assert_ne!(mine.id, anyones.id);
    }

    #[test]
    fn the_bounds_refuse_the_next_task() {
        let tasks = Tasks::new(limits());
        let a = Some(Arc::<str>::from("a"));
        let first = tasks.create(a.clone(), false).unwrap();
        tasks.create(a.clone(), false).unwrap();
        assert_eq!(
            tasks.create(a.clone(), false).err(),
            Some(Refusal::PerClient(2))
        );
        // A finished task no longer counts against its client, but is still held.
        first.finish(Finished::Cancelled("stopped".into()));
        tasks.create(a.clone(), false).unwrap();
        assert_eq!(
            tasks.create(Some(Arc::from("b")), false).err(),
            Some(Refusal::Total(3))
        );
        assert!(Refusal::Total(3).message("move").contains("holds 3 tasks"));
    }

    #[test]
    fn answers_are_taken_per_key_until_none_is_missing() {
        let tasks = Tasks::new(limits());
        let task = tasks.create(None, false).unwrap();
        let question: rmcp::model::InputRequest = serde_json::from_value(serde_json::json!({
            "method": "elicitation/create",
            "params": {"message": "?", "requestedSchema": {"type": "object", "properties": {}}}
        }))
        .unwrap();
        task.ask(
            [
                ("a".to_owned(), question.clone()),
                ("b".to_owned(), question),
            ]
            .into_iter()
            .collect(),
        );
        assert_eq!(task.status(), TaskStatus::InputRequired);
        task.answer(
            [
                ("a".to_owned(), Value::from(1)),
                ("zzz".to_owned(), Value::from(2)),
            ]
            .into(),
        );
        assert_eq!(task.status(), TaskStatus::InputRequired);
        let TaskPayload::InputRequired { input_requests } = task.detailed().payload else {
            panic!("still asking")
        };
        assert_eq!(input_requests.keys().collect::<Vec<_>>(), ["b"]);
        task.answer([("b".to_owned(), Value::from(3))].into());
        assert_eq!(task.status(), TaskStatus::Working);
        assert_eq!(task.answers().len(), 2);
    }

    #[tokio::test]
    async fn a_leased_task_expires_unless_its_client_asks_after_it() {
        let lease = Duration::from_millis(300);
        let tasks = Tasks::new(limits().with_lease(lease));
        let task = tasks.create(None, true).unwrap();
        assert_eq!(task.lease(), Some(lease));
        let started = Instant::now();
        // Polled at 200 ms: the lease starts again.
        tokio::time::sleep(Duration::from_millis(200)).await;
        task.polled();
        // A request waiting for its end holds it as long as it waits (500 ms, longer than the
        // lease), and counts as a poll when it ends.
        {
            let _waiting = task.waited_on();
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        task.lease_expired().await;
        let expired = started.elapsed();
        assert!(
            expired >= Duration::from_millis(1000) && expired < Duration::from_millis(3000),
            "a lease after the last poll at 700 ms: {expired:?}"
        );
        assert_eq!(tasks.stop_all(Some("nobody"), Stopping::ClientGone), 0);
        assert_eq!(tasks.stop_all(None, Stopping::LeaseExpired), 1);
        assert_eq!(task.stopping(), Some(Stopping::LeaseExpired));
        assert!(task.cancel.is_cancelled());
        // The first reason stays.
        task.stop(Stopping::Shutdown);
        assert_eq!(task.stopping(), Some(Stopping::LeaseExpired));
        // Without a lease, or once ended, it never expires.
        let unleased = tasks.create(None, false).unwrap();
        assert!(
            tokio::time::timeout(lease * 2, unleased.lease_expired())
                .await
                .is_err()
        );
        task.finish(Finished::Cancelled("halted".into()));
        assert!(
            tokio::time::timeout(lease * 2, task.lease_expired())
                .await
                .is_err()
        );
    }

    #[test]
    fn a_task_ends_once() {
        let tasks = Tasks::new(limits());
        let task = tasks.create(None, false).unwrap();
        task.progress("half way".into());
        assert_eq!(task.task().status_message.as_deref(), Some("half way"));
        task.finish(Finished::Cancelled("halted".into()));
        task.finish(Finished::Completed(CallToolResult::success(vec![])));
        assert_eq!(task.status(), TaskStatus::Cancelled);
        assert_eq!(task.task().status_message.as_deref(), Some("halted"));
    }
}
