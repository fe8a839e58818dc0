//! A scripted LSP client for end-to-end tests: starts the real
//! `puppet-ls` binary, frames JSON-RPC messages with `Content-Length`,
//! matches responses to requests, collects notifications and answers the
//! server's own requests (`null`). Every wait has a timeout, so a hung
//! server fails the test instead of hanging it.

#![allow(dead_code)] // each test file uses part of it

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long any single wait may take.
pub const TIMEOUT: Duration = Duration::from_secs(30);

pub struct Client {
    child: Child,
    stdin: Arc<Mutex<ChildStdin>>,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications from the server, in arrival order.
    pub notifications: Vec<Value>,
    /// Requests from the server (already answered with `null`).
    pub server_requests: Arc<Mutex<Vec<Value>>>,
    /// Responses received while waiting for another one.
    responses: Vec<Value>,
}

fn write_message(stdin: &Mutex<ChildStdin>, body: &[u8]) -> std::io::Result<()> {
    let mut stdin = stdin.lock().unwrap();
    write!(stdin, "Content-Length: {}\r\n\r\n", body.len())?;
    stdin.write_all(body)?;
    stdin.flush()
}

/// Reads one framed message; `None` at the end of the stream.
fn read_message(reader: &mut impl BufRead) -> Option<Value> {
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
        if let Some(value) = line.strip_prefix("Content-Length:") {
            length = value.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Client {
    /// Starts `puppet-ls` with the given arguments.
    pub fn start(args: &[&str]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_puppet-ls"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start puppet-ls");
        let stdin = Arc::new(Mutex::new(child.stdin.take().unwrap()));
        let stdout = child.stdout.take().unwrap();
        let (tx, incoming) = channel();
        let server_requests = Arc::new(Mutex::new(Vec::new()));
        let replies = stdin.clone();
        let requests = server_requests.clone();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if message.get("method").is_some() && message.get("id").is_some() {
                    let reply = json!({"jsonrpc": "2.0", "id": message["id"], "result": null});
                    let _ = write_message(&replies, reply.to_string().as_bytes());
                    requests.lock().unwrap().push(message);
                    continue;
                }
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        Client {
            child,
            stdin,
            incoming,
            next_id: 0,
            notifications: Vec::new(),
            server_requests,
            responses: Vec::new(),
        }
    }

    /// Sends bytes as one framed message (may be invalid JSON).
    pub fn send_raw(&mut self, body: &[u8]) {
        write_message(&self.stdin, body).expect("write to puppet-ls");
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        let message = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.send_raw(message.to_string().as_bytes());
    }

    /// Sends a request without waiting; returns its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        self.next_id += 1;
        let id = self.next_id;
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_raw(message.to_string().as_bytes());
        id
    }

    /// Receives the next message, keeping notifications and responses.
    fn receive(&mut self, deadline: Instant) -> Option<Value> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.incoming.recv_timeout(left) {
            Ok(message) => {
                if message.get("id").is_some() && message.get("method").is_none() {
                    self.responses.push(message.clone());
                } else {
                    self.notifications.push(message.clone());
                }
                Some(message)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => panic!("puppet-ls closed its output"),
        }
    }

    /// The whole response message to request `id`.
    pub fn response(&mut self, id: i64) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(i) = self.responses.iter().position(|r| r["id"] == id) {
                return self.responses.remove(i);
            }
            if self.receive(deadline).is_none() {
                panic!("no response to request {id} within {TIMEOUT:?}");
            }
        }
    }

    /// The next response without an id (to a message that could not be
    /// read as a request).
    pub fn response_with_null_id(&mut self) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(i) = self.responses.iter().position(|r| r["id"].is_null()) {
                return self.responses.remove(i);
            }
            if self.receive(deadline).is_none() {
                panic!("no error reply within {TIMEOUT:?}");
            }
        }
    }

    /// Sends a request and returns its whole response message.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        self.response(id)
    }

    /// Sends a request and returns its result, failing on an error reply.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(
            response.get("error").is_none(),
            "{method} failed: {response}"
        );
        response["result"].clone()
    }

    /// Waits for a notification matching `pred` (among those already
    /// received too); returns the first such and forgets it.
    pub fn wait_notification(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        self.try_wait_notification(TIMEOUT, pred)
            .unwrap_or_else(|| {
                panic!(
                    "no expected notification within {TIMEOUT:?}; got {:#?}",
                    self.notifications
                )
            })
    }

    pub fn try_wait_notification(
        &mut self,
        timeout: Duration,
        pred: impl Fn(&Value) -> bool,
    ) -> Option<Value> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(i) = self.notifications.iter().position(&pred) {
                return Some(self.notifications.remove(i));
            }
            self.receive(deadline)?;
        }
    }

    /// Forgets the notifications received so far.
    pub fn clear_notifications(&mut self) {
        while let Ok(message) = self.incoming.try_recv() {
            if message.get("id").is_some() && message.get("method").is_none() {
                self.responses.push(message);
            }
        }
        self.notifications.clear();
    }

    /// Waits for `publishDiagnostics` of `uri` whose params match `pred`.
    pub fn wait_diagnostics(&mut self, uri: &str, pred: impl Fn(&Value) -> bool) -> Value {
        self.wait_notification(|n| {
            n["method"] == "textDocument/publishDiagnostics"
                && n["params"]["uri"] == uri
                && pred(&n["params"])
        })["params"]
            .clone()
    }

    /// `initialize` with the given capabilities, folders and options, then
    /// `initialized`; returns the result of `initialize`.
    pub fn initialize(&mut self, capabilities: Value, folders: &[&Path], options: Value) -> Value {
        let folders: Vec<Value> = folders
            .iter()
            .map(|f| json!({"uri": file_uri(f), "name": "ws"}))
            .collect();
        let result = self.call(
            "initialize",
            json!({
                "processId": null,
                "capabilities": capabilities,
                "workspaceFolders": folders,
                "initializationOptions": options,
            }),
        );
        self.notify("initialized", json!({}));
        result
    }

    /// Waits until indexing has finished (the `end` of its progress).
    pub fn wait_indexed(&mut self) {
        self.wait_notification(|n| {
            n["method"] == "$/progress" && n["params"]["value"]["kind"] == "end"
        });
    }

    pub fn open(&mut self, path: &Path, version: i32, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {
                "uri": file_uri(path), "languageId": "puppet", "version": version, "text": text,
            }}),
        );
    }

    /// `shutdown` then `exit`; returns the exit status.
    pub fn shutdown_and_exit(&mut self) -> ExitStatus {
        let response = self.request("shutdown", Value::Null);
        assert_eq!(response["result"], Value::Null, "{response}");
        self.notify("exit", Value::Null);
        self.wait_exit()
    }

    pub fn wait_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for puppet-ls") {
                return status;
            }
            assert!(Instant::now() < deadline, "puppet-ls did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The server's requests so far with this method.
    pub fn server_requests(&self, method: &str) -> Vec<Value> {
        self.server_requests
            .lock()
            .unwrap()
            .iter()
            .filter(|r| r["method"] == method)
            .cloned()
            .collect()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn file_uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// Writes a multi-file fixture (`#- /path` headers) under `root`.
pub fn write_fixture(root: &Path, fixture: &str) -> Vec<PathBuf> {
    puppet_analysis::host::parse_fixture(fixture)
        .into_iter()
        .map(|(path, text)| {
            let path = root.join(path.strip_prefix("/").unwrap_or(&path));
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text).unwrap();
            path
        })
        .collect()
}

/// Capabilities of a push-diagnostics client with progress and dynamic
/// file watching; `utf8` offers UTF-8 positions.
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

/// The codes of a list of LSP diagnostics, in order.
pub fn codes(diagnostics: &Value) -> Vec<String> {
    diagnostics
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|d| d["code"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}
