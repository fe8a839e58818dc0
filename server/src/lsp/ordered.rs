//! Keeps document changes in arrival order, and keeps the server alive
//! through a panic in any handler.
//!
//! tower-lsp-server starts each message's handler as a future and runs
//! them concurrently, so two `didChange` handlers could apply out of
//! order. This service wraps the `LspService`: its `call` runs in the
//! order messages are read, and applies document notifications right
//! there, synchronously, before any later message (request or
//! notification) gets to run.
//!
//! Every handler runs under a panic guard: the panic is logged, a request
//! is answered with an internal error carrying its message, a
//! notification is dropped; the session goes on. (Document edits are kept
//! before the analysis sees them, see `sync`.)

use super::backend::Backend;
use super::snapshot::panic_message;
use super::sync;
use futures::FutureExt;
use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::OnceLock;
use std::task::{Context, Poll};
use tower::Service;
use tower_lsp_server::jsonrpc::{Error, Id, Request, Response};
use tower_lsp_server::{ExitedError, LspService};

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

pub struct Ordered {
    inner: LspService<Backend>,
    backend: Backend,
}

impl Ordered {
    pub fn new(inner: LspService<Backend>) -> Ordered {
        let backend = inner.inner().clone();
        Ordered { inner, backend }
    }
}

impl Service<Request> for Ordered {
    type Response = Option<Response>;
    type Error = ExitedError;
    type Future = BoxFuture<Result<Option<Response>, ExitedError>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), ExitedError>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let method = request.method().to_string();
        let id = request.id().cloned();
        // Only notifications (no id): a request of these names is left to
        // the service, which answers it with an error.
        if id.is_none() && sync::METHODS.contains(&method.as_str()) {
            let (_, _, params) = request.into_parts();
            let applied = catch_unwind(AssertUnwindSafe(|| {
                injected_panic(&method);
                sync::apply(
                    &self.backend,
                    &method,
                    params.unwrap_or(serde_json::Value::Null),
                );
            }));
            if let Err(payload) = applied {
                panicked(&method, None, payload.as_ref());
            }
            return Box::pin(std::future::ready(Ok(None)));
        }
        let future = self.inner.call(request);
        let panics_here = method.clone();
        let guarded = AssertUnwindSafe(async move {
            injected_panic(&panics_here);
            future.await
        })
        .catch_unwind();
        Box::pin(async move {
            match guarded.await {
                Ok(result) => result,
                Err(payload) => Ok(panicked(&method, id, payload.as_ref())),
            }
        })
    }
}

/// What a handler's panic becomes: logged, and for a request an internal
/// error reply (a client waits for every request's answer).
fn panicked(
    method: &str,
    id: Option<Id>,
    payload: &(dyn std::any::Any + Send),
) -> Option<Response> {
    let message = panic_message(payload);
    tracing::error!("{method} panicked: {message}");
    let id = id?;
    let mut error = Error::internal_error();
    error.message = format!("puppet-ls failed on {method}: {message}").into();
    Some(Response::from_error(id, error))
}

/// For the tests of the guard (`PUPPET_LS_TEST_PANIC_METHOD`, never set in
/// use): a message of that method panics in its handler.
fn injected_panic(method: &str) {
    static METHOD: OnceLock<Option<String>> = OnceLock::new();
    let wanted = METHOD.get_or_init(|| std::env::var("PUPPET_LS_TEST_PANIC_METHOD").ok());
    if wanted.as_deref() == Some(method) {
        panic!("injected panic (PUPPET_LS_TEST_PANIC_METHOD)");
    }
}
