//! Keeps document changes in arrival order. tower-lsp-server starts each
//! message's handler as a future and runs them concurrently, so two
//! `didChange` handlers could apply out of order. This service wraps the
//! `LspService`: its `call` runs in the order messages are read, and
//! applies document notifications right there, synchronously, before any
//! later message (request or notification) gets to run.

use super::backend::Backend;
use super::sync;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use tower::Service;
use tower_lsp_server::jsonrpc::{Request, Response};
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
        // Only notifications (no id): a request of these names is left to
        // the service, which answers it with an error.
        if request.id().is_none() && sync::METHODS.contains(&request.method()) {
            let (method, _, params) = request.into_parts();
            sync::apply(
                &self.backend,
                &method,
                params.unwrap_or(serde_json::Value::Null),
            );
            return Box::pin(std::future::ready(Ok(None)));
        }
        Box::pin(self.inner.call(request))
    }
}
