//! The initial workspace load as a signal. A request that needs the
//! workspace (hover, definition, diagnostics...) and arrives after
//! `initialize` while the first indexing (which `initialized` starts) has
//! not been applied waits for it,
//! so that it answers as it would a second later instead of from a
//! database that holds only the open documents. The wait is bounded:
//! requests are held at most until `bound` after the load began (by
//! default `DEFAULT_BOUND`, `PUPPET_LS_LOAD_WAIT_MS` overrides it); then
//! they answer with what is loaded, and say so in the log. Requests on
//! the open document alone (formatting, folding, document symbols...)
//! never wait. Later indexing runs (new folders, module paths, layout
//! files) are not waited for: until they apply, requests answer from the
//! previous load.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::watch;
use tokio::time::Instant;

/// How long after the initial load began requests are held for it.
pub const DEFAULT_BOUND: Duration = Duration::from_secs(5);
/// Environment variable: the bound in milliseconds (for very large
/// workspaces on slow disks, and for tests).
pub const BOUND_ENV: &str = "PUPPET_LS_LOAD_WAIT_MS";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// No session yet (`initialize` not received): nobody waits.
    NotStarted,
    /// The initial load is under way since this instant.
    Loading(Instant),
    /// Applied, or given up on (indexing failed, shutdown): nobody waits.
    Settled,
}

/// How a wait ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waited {
    /// Nothing to wait for.
    No,
    /// The load settled after this long.
    Settled(Duration),
    /// The bound passed first; the answer uses what is loaded.
    TimedOut(Duration),
}

pub struct Readiness {
    phase: watch::Sender<Phase>,
    bound: Duration,
    /// The bound was passed once (logged as a warning once).
    overdue: AtomicBool,
}

impl Readiness {
    pub fn new(bound: Duration) -> Readiness {
        Readiness {
            phase: watch::Sender::new(Phase::NotStarted),
            bound,
            overdue: AtomicBool::new(false),
        }
    }

    /// The bound from `PUPPET_LS_LOAD_WAIT_MS`, else `DEFAULT_BOUND`.
    pub fn from_env() -> Readiness {
        let bound = std::env::var(BOUND_ENV)
            .ok()
            .and_then(|v| match v.trim().parse::<u64>() {
                Ok(ms) => Some(Duration::from_millis(ms)),
                Err(_) => {
                    tracing::warn!("{BOUND_ENV}={v:?} is not a number of milliseconds");
                    None
                }
            })
            .unwrap_or(DEFAULT_BOUND);
        Readiness::new(bound)
    }

    /// The initial load is coming (at `initialize`: `initialized` follows
    /// at once); only the first call counts.
    pub fn begin(&self) {
        self.phase.send_if_modified(|phase| {
            if *phase != Phase::NotStarted {
                return false;
            }
            *phase = Phase::Loading(Instant::now());
            true
        });
    }

    /// The load was applied (or will not be): waiting requests go on.
    /// `why` is logged when requests were held by this.
    pub fn settle(&self, why: &str) {
        let previous = self.phase.send_replace(Phase::Settled);
        if let Phase::Loading(since) = previous {
            tracing::info!(
                "workspace ready ({why}) {} ms after the load began",
                since.elapsed().as_millis()
            );
        }
    }

    /// Waits until the initial load settles, at most until the bound after
    /// it began. Cancel-safe: dropping the future stops the wait.
    pub async fn wait(&self, what: &str) -> Waited {
        let mut phase = self.phase.subscribe();
        let Phase::Loading(since) = *phase.borrow_and_update() else {
            return Waited::No;
        };
        let start = Instant::now();
        let deadline = since + self.bound;
        let settled = phase.wait_for(|p| !matches!(p, Phase::Loading(_)));
        let waited = match tokio::time::timeout_at(deadline, settled).await {
            // An error means the sender is gone: nothing will settle it.
            Ok(_) => Waited::Settled(start.elapsed()),
            Err(_) => Waited::TimedOut(start.elapsed()),
        };
        match waited {
            Waited::Settled(after) => {
                tracing::debug!("{what} waited {} ms for the workspace", after.as_millis());
            }
            Waited::TimedOut(after) => {
                if !self.overdue.swap(true, Ordering::Relaxed) {
                    tracing::warn!(
                        "the workspace is still loading {} ms after it began \
                         ({BOUND_ENV} sets the bound); requests answer with what is loaded",
                        self.bound.as_millis()
                    );
                }
                tracing::info!(
                    "{what} answers before the workspace is loaded (waited {} ms)",
                    after.as_millis()
                );
            }
            Waited::No => {}
        }
        waited
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[tokio::test]
    async fn nothing_to_wait_for_before_the_load_begins_and_after_it_settles() {
        let readiness = Readiness::new(Duration::from_secs(3600));
        assert_eq!(readiness.wait("before").await, Waited::No);
        readiness.begin();
        readiness.settle("test");
        assert_eq!(readiness.wait("after").await, Waited::No);
        // A second `initialized` does not start waiting again.
        readiness.begin();
        assert_eq!(readiness.wait("again").await, Waited::No);
    }

    #[tokio::test]
    async fn waiters_go_on_when_the_load_settles() {
        let readiness = Arc::new(Readiness::new(Duration::from_secs(3600)));
        readiness.begin();
        let waiter = {
            let readiness = readiness.clone();
            tokio::spawn(async move { readiness.wait("hover").await })
        };
        tokio::task::yield_now().await;
        readiness.settle("test");
        assert!(matches!(waiter.await.unwrap(), Waited::Settled(_)));
    }

    #[tokio::test(start_paused = true)]
    async fn the_bound_counts_from_the_start_of_the_load() {
        let readiness = Readiness::new(Duration::from_millis(500));
        readiness.begin();
        assert!(matches!(readiness.wait("hover").await, Waited::TimedOut(_)));
        // Past the bound, a request no longer waits at all.
        let again = readiness.wait("hover").await;
        assert_eq!(again, Waited::TimedOut(Duration::ZERO));
    }
}
