//! A small LSP client for end-to-end tests: it starts the real
//! `puppet-ls` binary, speaks JSON-RPC over its stdin/stdout with
//! `Content-Length` framing, answers the server's own requests, and
//! bounds every wait so that a hung server fails the test.

#![allow(dead_code)]

use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The longest any single wait may take.
pub const TIMEOUT: Duration = Duration::from_secs(20);

pub struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications received while waiting for something else.
    pub notifications: VecDeque<Value>,
    /// Requests the server sent to the client (whole messages, already
    /// answered), in arrival order.
    pub server_requests: Vec<Value>,
    /// Replies received while waiting for another one (requests sent
    /// together may be answered in any order).
    replies: Vec<Value>,
    /// When set, server requests are recorded but never answered (a
    /// client busy elsewhere).
    pub ignore_server_requests: bool,
}

impl Server {
    /// Starts `puppet-ls` without arguments (it then serves LSP on stdio).
    pub fn start() -> Server {
        Server::start_with(&[])
    }

    /// Starts `puppet-ls` with these command-line arguments.
    pub fn start_with(args: &[&str]) -> Server {
        Server::start_env(args, &[])
    }

    /// Starts `puppet-ls` with these arguments and environment variables.
    pub fn start_env(args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_puppet-ls"))
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if std::env::var_os("PUPPET_LS_E2E_STDERR").is_some() {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            .spawn()
            .expect("start puppet-ls");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        Server {
            child,
            stdin,
            incoming: rx,
            next_id: 1,
            notifications: VecDeque::new(),
            server_requests: Vec::new(),
            replies: Vec::new(),
            ignore_server_requests: false,
        }
    }

    /// Writes raw bytes to the server's stdin.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to server");
        stdin.flush().expect("flush");
    }

    /// Frames and sends one JSON value.
    pub fn send(&mut self, message: &Value) {
        let body = serde_json::to_string(message).unwrap();
        self.send_body(body.as_bytes());
    }

    pub fn send_body(&mut self, body: &[u8]) {
        let mut framed = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        framed.extend_from_slice(body);
        self.send_raw(&framed);
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its id, without waiting.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// Sends a request and waits for its reply: `Ok(result)` or `Err(error)`.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        let id = self.send_request(method, params);
        self.wait_response(&json!(id))
    }

    /// A request that must succeed. Like an editor, it asks again when the
    /// answer was made stale by a concurrent change (`ContentModified`,
    /// e.g. while the workspace is being indexed).
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        for _ in 0..20 {
            match self.request(method, params.clone()) {
                Ok(v) => return v,
                Err(e) if e["code"] == -32801 => std::thread::sleep(Duration::from_millis(50)),
                Err(e) => panic!("{method} failed: {e}"),
            }
        }
        panic!("{method} kept failing with ContentModified")
    }

    /// The reply to request `id` if it comes within `timeout`.
    pub fn response_within(
        &mut self,
        id: &Value,
        timeout: Duration,
    ) -> Option<Result<Value, Value>> {
        let deadline = Instant::now() + timeout;
        let message = match self.replies.iter().position(|r| r.get("id") == Some(id)) {
            Some(i) => self.replies.remove(i),
            None => loop {
                let message = self.next_message(deadline)?;
                if message.get("method").is_none() && message.get("id") == Some(id) {
                    break message;
                }
                self.dispatch(message);
            },
        };
        Some(match message.get("error") {
            Some(error) => Err(error.clone()),
            None => Ok(message.get("result").cloned().unwrap_or(Value::Null)),
        })
    }

    pub fn wait_response(&mut self, id: &Value) -> Result<Value, Value> {
        self.response_within(id, TIMEOUT)
            .unwrap_or_else(|| panic!("no reply to request {id} within {TIMEOUT:?}"))
    }

    /// The next message before `deadline`, answering server requests on
    /// the way (they are returned too, for inspection, as notifications
    /// are not).
    fn next_message(&mut self, deadline: Instant) -> Option<Value> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.incoming.recv_timeout(left) {
            Ok(m) => Some(m),
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Answers a server→client request, or queues a notification.
    fn dispatch(&mut self, message: Value) {
        match (message.get("method"), message.get("id")) {
            (Some(_), Some(_)) if self.ignore_server_requests => {
                self.server_requests.push(message);
            }
            (Some(method), Some(id)) => {
                let method = method.as_str().unwrap_or("").to_string();
                let result = if method == "workspace/configuration" {
                    let n = message["params"]["items"].as_array().map_or(0, Vec::len);
                    Value::Array(vec![Value::Null; n])
                } else {
                    Value::Null
                };
                let id = id.clone();
                self.server_requests.push(message);
                self.send(&json!({"jsonrpc": "2.0", "id": id, "result": result}));
            }
            (Some(_), None) => self.notifications.push_back(message),
            (None, Some(_)) => self.replies.push(message),
            _ => {}
        }
    }

    /// Waits for a notification with this method whose params satisfy
    /// `predicate` (already queued ones first; those are consumed).
    pub fn wait_notification(
        &mut self,
        method: &str,
        mut predicate: impl FnMut(&Value) -> bool,
        timeout: Duration,
    ) -> Option<Value> {
        if let Some(i) = self
            .notifications
            .iter()
            .position(|n| n["method"] == method && predicate(&n["params"]))
        {
            let n = self.notifications.remove(i).unwrap();
            return Some(n["params"].clone());
        }
        let deadline = Instant::now() + timeout;
        loop {
            let message = self.next_message(deadline)?;
            if message.get("id").is_none()
                && message["method"] == method
                && predicate(&message["params"])
            {
                return Some(message["params"].clone());
            }
            self.dispatch(message);
        }
    }

    /// Waits until the server has sent a request with this method (those
    /// already seen count); false after the timeout.
    pub fn wait_server_request(&mut self, method: &str, timeout: Duration) -> bool {
        self.wait_server_requests(method, 1, timeout)
    }

    /// Waits until the server has sent `count` requests with this method
    /// (those already seen count); false after the timeout.
    pub fn wait_server_requests(&mut self, method: &str, count: usize, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while self.server_requests_for(method).len() < count {
            match self.next_message(deadline) {
                Some(message) => self.dispatch(message),
                None => return false,
            }
        }
        true
    }

    /// The requests the server has sent with this method so far (those
    /// seen while waiting for something).
    pub fn server_requests_for(&self, method: &str) -> Vec<Value> {
        self.server_requests
            .iter()
            .filter(|r| r["method"] == method)
            .cloned()
            .collect()
    }

    /// Receives what has already arrived, then forgets every queued
    /// notification (server requests are still answered).
    pub fn clear_notifications(&mut self) {
        while let Ok(message) = self.incoming.try_recv() {
            self.dispatch(message);
        }
        self.notifications.clear();
    }

    /// Waits for the end of the indexing progress; panics after the timeout.
    pub fn wait_indexed(&mut self) {
        let ended = self.wait_notification("$/progress", |p| p["value"]["kind"] == "end", TIMEOUT);
        assert!(ended.is_some(), "indexing never reported its end");
    }

    /// Waits until `publishDiagnostics` for `uri` satisfies `predicate`;
    /// returns the diagnostics. Panics after the timeout.
    pub fn wait_diagnostics(
        &mut self,
        uri: &str,
        mut predicate: impl FnMut(&Value) -> bool,
    ) -> Value {
        let mut last = Value::Null;
        let found = self.wait_notification(
            "textDocument/publishDiagnostics",
            |p| {
                if p["uri"] != uri {
                    return false;
                }
                last = p.clone();
                predicate(p)
            },
            TIMEOUT,
        );
        found.unwrap_or_else(|| {
            panic!("no matching diagnostics for {uri} within {TIMEOUT:?}; last: {last:#}")
        })
    }

    /// `initialize` + `initialized` on one folder; returns the initialize
    /// result.
    pub fn initialize(&mut self, root: &Path, capabilities: Value) -> Value {
        self.initialize_with(&[root], capabilities, Value::Null)
    }

    /// `initialize` (workspace folders, the first also as `rootUri`, and
    /// `initializationOptions`) + `initialized`; returns the initialize
    /// result.
    pub fn initialize_with(
        &mut self,
        folders: &[&Path],
        capabilities: Value,
        options: Value,
    ) -> Value {
        let root = folders.first().map_or(Value::Null, |f| json!(file_uri(f)));
        let folders: Vec<Value> = folders
            .iter()
            .map(|f| json!({"uri": file_uri(f), "name": "root"}))
            .collect();
        let result = self.call(
            "initialize",
            json!({
                "processId": null,
                "rootUri": root,
                "capabilities": capabilities,
                "workspaceFolders": folders,
                "initializationOptions": options,
            }),
        );
        self.notify("initialized", json!({}));
        result
    }

    pub fn did_open(&mut self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "puppet", "version": version, "text": text}}),
        );
    }

    /// `shutdown` (which must answer `null`) + `exit`, then waits for the
    /// process to end.
    pub fn shutdown(mut self) -> ExitStatus {
        let reply = self.request("shutdown", Value::Null);
        assert_eq!(reply, Ok(Value::Null), "shutdown");
        self.notify("exit", Value::Null);
        self.wait_exit(TIMEOUT).expect("server exits after exit")
    }

    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        drop(self.stdin.take());
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().expect("try_wait").is_none()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    loop {
        let mut length = None;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).ok()? == 0 {
                return None;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse::<usize>().ok();
                }
            }
        }
        let length = length?;
        let mut body = vec![0; length];
        reader.read_exact(&mut body).ok()?;
        if let Ok(v) = serde_json::from_slice(&body) {
            return Some(v);
        }
    }
}

/// `file://` URI of an absolute path (test paths need no escaping).
pub fn file_uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// A temporary directory, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn path(&self) -> &Path {
        &self.0
    }
    pub fn join(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }
    pub fn uri(&self, rel: &str) -> String {
        file_uri(&self.join(rel))
    }
    /// Writes a file (a leading `/` in `rel` still means under the
    /// directory), creating its parent directories.
    pub fn write(&self, rel: &str, text: &str) {
        let path = self.join(rel.trim_start_matches('/'));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes a fixture: files separated by `#- relative/path` header lines
/// (see `TempDir::write`).
pub fn fixture(spec: &str) -> TempDir {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let base = std::env::temp_dir().join(format!("puppet-ls-test-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    let dir = TempDir(base.canonicalize().unwrap());
    let mut current: Option<(String, String)> = None;
    for line in spec.lines() {
        if let Some(path) = line.strip_prefix("#- ") {
            if let Some((p, text)) = current.take() {
                dir.write(&p, &text);
            }
            current = Some((path.trim().to_string(), String::new()));
        } else if let Some((_, text)) = current.as_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    if let Some((p, text)) = current {
        dir.write(&p, &text);
    }
    dir
}

/// The tree `puppet-ls parse --tree` prints for `text` (written to `path`
/// first), without the problem lines that follow it.
pub fn cli_tree(path: &Path, text: &str) -> String {
    std::fs::write(path, text).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_puppet-ls"))
        .args(["parse", "--tree"])
        .arg(path)
        .output()
        .expect("run puppet-ls parse");
    let stdout = String::from_utf8(output.stdout).unwrap();
    stdout
        .lines()
        .take_while(|l| !l.starts_with(&*path.to_string_lossy()))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The LSP position (UTF-16 columns) of the `n`th occurrence of `needle`
/// in `text`, plus `offset` characters.
pub fn position_of(text: &str, needle: &str, offset: usize) -> Value {
    let byte = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in text"));
    let before = &text[..byte];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col: usize = text[line_start..byte].encode_utf16().count()
        + needle
            .chars()
            .take(offset)
            .map(char::len_utf16)
            .sum::<usize>();
    json!({"line": line, "character": col})
}

/// `{"textDocument": {"uri"}, "position"}`.
pub fn doc_pos(uri: &str, position: Value) -> Value {
    json!({"textDocument": {"uri": uri}, "position": position})
}

/// The text with LSP edits applied (UTF-16 columns; ASCII texts here).
pub fn apply_edits(text: &str, edits: &Value) -> String {
    let offset = |pos: &Value| {
        let line = pos["line"].as_u64().unwrap() as usize;
        let character = pos["character"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        (start + character).min(text.len())
    };
    let mut edits: Vec<&Value> = edits.as_array().expect("edits").iter().collect();
    edits.sort_by_key(|e| std::cmp::Reverse(offset(&e["range"]["start"])));
    let mut out = text.to_string();
    for edit in edits {
        let (start, end) = (
            offset(&edit["range"]["start"]),
            offset(&edit["range"]["end"]),
        );
        out.replace_range(start..end, edit["newText"].as_str().unwrap());
    }
    out
}

/// The codes of a diagnostics array.
pub fn codes(diagnostics: &Value) -> Vec<String> {
    diagnostics
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|d| d["code"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Capabilities of a push-diagnostics client with progress and dynamic
/// file watching; `utf8` offers UTF-8 positions (before UTF-16).
pub fn push_capabilities(utf8: bool) -> Value {
    let encodings = if utf8 {
        json!(["utf-8", "utf-16"])
    } else {
        json!(["utf-16"])
    };
    json!({
        "general": { "positionEncodings": encodings },
        "window": { "workDoneProgress": true },
        "workspace": {
            "didChangeWatchedFiles": { "dynamicRegistration": true },
            "workspaceFolders": true,
            "configuration": true,
        },
        "textDocument": { "publishDiagnostics": { "versionSupport": true } },
    })
}

/// Capabilities of a pull-diagnostics client.
pub fn pull_capabilities() -> Value {
    json!({
        "window": { "workDoneProgress": true },
        "workspace": { "diagnostics": { "refreshSupport": true } },
        "textDocument": { "diagnostic": { "dynamicRegistration": false } },
    })
}

/// The text edits of a workspace edit for one document.
pub fn text_edits_for(edit: &Value, uri: &str) -> Vec<Value> {
    if let Some(changes) = edit["changes"].as_object() {
        return changes
            .get(uri)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
    }
    edit["documentChanges"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["textDocument"]["uri"] == uri)
        .flat_map(|c| c["edits"].as_array().cloned().unwrap_or_default())
        .collect()
}
