//! The analysis queue, below the web: `serve`'s workers and the HTTP-free `worker` command's
//! alike claim queued analyses from the store (`Store::claim_analysis`),
//! analyse the whole game, and write progress and the result under their claim's lease. The
//! queue is rows in the store, not this process's memory: work survives a restart (a job whose
//! worker stopped is claimed again once its lease runs out, at once for a job an older release
//! left running), and every worker on the database shares it. The queue is bounded: past
//! [`ANALYSIS_QUEUE`] games waiting, a request is refused until the workers catch up; and one
//! client (its address) holds at most a quarter of its places ([`Jobs::share`]), so that one
//! request for a whole collection leaves room for everyone else.
//!
//! An analysis crosses the queue as its typed report ([`AnyReport`]); the store keeps it as
//! JSON. A worker told to stop, or whose job another worker took over, stops the analysis
//! through its progress ([`analysis::Progress`]), at the next turn. When an analysis is
//! done, its seats' rows (`seats.rs`) are written for the player pages.

mod seats;

pub use seats::fill as fill_seat_analyses;

use crate::analysis::{self, AnalysisOptions, AnyAnalysisError, AnyReport, analyse_any};
use crate::record::AnyRecord;
use crate::store::{Claim, GameId, QueueAnswer, QueuePlace, Store, StoreError};
use std::cell::Cell;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Analyses waiting or running at most, by default: at about 7 s a game, a few minutes' work.
pub const ANALYSIS_QUEUE: u64 = 32;

/// One client holds at most this fraction of the queue's places (a quarter).
const SHARE_OF_QUEUE: u64 = 4;

/// How long a claim holds a job without news from its worker. Progress renews it every turn,
/// and a turn takes well under a second, so only a worker that stopped lets it run out.
pub const LEASE: Duration = Duration::from_secs(30);

/// How often an idle worker looks for work queued by another process; a request on this one
/// wakes it at once.
const POLL: Duration = Duration::from_millis(500);

/// The handlers' side of the queue: its bound, and the bell that wakes this process's workers.
/// When the last copy goes (the service stops), the workers give back the jobs in hand and
/// stop.
#[derive(Clone)]
pub struct Jobs {
    capacity: u64,
    bell: Arc<Bell>,
    _workers: Arc<Workers>,
}

/// Rung when a job is queued here, so that an idle worker need not wait for its next look, and
/// when the workers are to stop.
#[derive(Default)]
struct Bell {
    rung: Mutex<bool>,
    ringing: Condvar,
    stop: AtomicBool,
}

impl Bell {
    fn ring(&self) {
        *self.rung.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.ringing.notify_all();
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Waits until rung or `POLL` has passed.
    fn wait(&self) {
        let rung = self.rung.lock().unwrap_or_else(|e| e.into_inner());
        let (mut rung, _) = (self.ringing.wait_timeout_while(rung, POLL, |r| !*r)).unwrap_or_else(|e| e.into_inner());
        *rung = false;
    }
}

/// The worker threads. Dropped, it stops them and waits: each releases the job in hand at its
/// next turn (`release_analysis`), so that another worker takes it at once, with no start
/// counted against it.
struct Workers {
    bell: Arc<Bell>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Drop for Workers {
    fn drop(&mut self) {
        self.bell.stop.store(true, Ordering::Relaxed);
        self.bell.ring();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

impl Jobs {
    /// Starts `workers` analysis threads on `store`, bounding the queue at `capacity`, each
    /// holding its job for `lease` without news. `finished` hears of each analysis that ends
    /// here, done or failed, and how long it took (a web process keeps metrics and a page
    /// cache; the `worker` command, nothing).
    pub fn start(
        store: Store,
        options: AnalysisOptions,
        (capacity, workers, lease): (u64, usize, Duration),
        finished: impl Fn(&GameId, Duration) + Send + Sync + 'static,
    ) -> Jobs {
        let bell = Arc::new(Bell::default());
        let finished = Arc::new(finished);
        let threads = (0..workers)
            .map(|n| {
                let worker = Worker {
                    store: store.clone(),
                    bell: bell.clone(),
                    options: options.clone(),
                    owner: format!("{}:{}", std::process::id(), n),
                    lease,
                };
                let finished = finished.clone();
                std::thread::Builder::new()
                    .name(format!("analysis-{n}"))
                    .spawn(move || worker.work(&*finished))
                    .expect("an analysis thread starts")
            })
            .collect();
        Jobs {
            capacity,
            _workers: Arc::new(Workers {
                bell: bell.clone(),
                threads,
            }),
            bell,
        }
    }

    /// The places of the queue one client may hold: a quarter, at least one.
    pub fn share(&self) -> u64 {
        (self.capacity / SHARE_OF_QUEUE).max(1)
    }

    /// Asks for a game's analysis on behalf of `requester` (a client's address): it is queued
    /// for the workers, unless it is queued, running or done already, the queue is full, or the
    /// requester holds their whole share of it.
    pub fn request(&self, store: &Store, id: &GameId, requester: &str) -> Result<QueueAnswer, StoreError> {
        let place = QueuePlace {
            capacity: self.capacity,
            requester,
            share: self.share(),
        };
        let answer = store.queue_analysis(id, &place, analysis::VERSION)?;
        if answer == QueueAnswer::Queued {
            self.bell.ring();
        }
        Ok(answer)
    }
}

/// One analysis thread: the store it claims jobs from, the bell it waits for, the analysis it
/// runs, its name in the rows it claims, and how long a claim holds without news.
struct Worker {
    store: Store,
    bell: Arc<Bell>,
    options: AnalysisOptions,
    owner: String,
    lease: Duration,
}

impl Worker {
    /// The loop until the workers stop: claim the next job, run it, tell `finished` which and
    /// how long it took; with nothing to claim, wait for the bell.
    fn work(&self, finished: &dyn Fn(&GameId, Duration)) {
        while !self.bell.stopped() {
            match self.store.claim_analysis(&self.owner, self.lease) {
                Ok(Some(claim)) => {
                    let started = std::time::Instant::now();
                    if self.run(&claim) {
                        finished(&claim.id, started.elapsed());
                    }
                }
                Ok(None) => self.bell.wait(),
                Err(e) => {
                    tracing::error!("cannot claim an analysis: {e}");
                    self.bell.wait();
                }
            }
        }
    }

    /// Runs a claimed analysis and stores how it ended. True when it ended here, done or failed.
    fn run(&self, claim: &Claim) -> bool {
        let (store, id) = (&self.store, &claim.id);
        let ended = if claim.starts > MAX_STARTS {
            Ended::Failed(format!(
                "its worker stopped {} times while this analysis ran, so it is not tried again",
                claim.starts - 1
            ))
        } else {
            self.analyse(claim)
        };
        let written = match &ended {
            Ended::Done(report) => {
                // The seats' rows first: the analysis's change, noted as it finishes, has every
                // node forget the players' statistics it kept, which must then read these rows.
                seats::note(store, id, report);
                store.finish_analysis(claim, Ok(&report.to_json()), analysis::VERSION)
            }
            Ended::Failed(e) => {
                tracing::warn!("analysis of {id} failed: {e}");
                store.finish_analysis(claim, Err(e), analysis::VERSION)
            }
            Ended::Interrupted(Interrupted::Stopping) => {
                tracing::info!("giving the analysis of {id} back to the queue: this worker stops");
                store.release_analysis(claim)
            }
            Ended::Interrupted(Interrupted::LeaseLost) => Ok(false),
        };
        match written {
            Ok(true) => {}
            Ok(false) => {
                tracing::warn!("the analysis of {id} was taken over by another worker; this one's work is dropped")
            }
            Err(e) => tracing::error!("cannot save the analysis of {id}: {e}"),
        }
        matches!(ended, Ended::Done(_) | Ended::Failed(_))
    }

    /// The whole game's analysis, its progress renewing the lease. It stops at the next turn
    /// when the workers stop or the lease is lost.
    fn analyse(&self, claim: &Claim) -> Ended {
        let record = match self.record(&claim.id) {
            Ok(record) => record,
            Err(why) => return Ended::Failed(why.to_string()),
        };
        let interrupted = Cell::new(None);
        let progress = |done: u32, total: u32| {
            if self.bell.stopped() {
                interrupted.set(Some(Interrupted::Stopping));
                return ControlFlow::Break(());
            }
            match self.store.analysis_progress(claim, done, total, self.lease) {
                Ok(true) => {}
                Ok(false) => {
                    interrupted.set(Some(Interrupted::LeaseLost));
                    return ControlFlow::Break(());
                }
                Err(e) => tracing::warn!("cannot record progress: {e}"),
            }
            ControlFlow::Continue(())
        };
        match (
            guarded(|| analyse_any(&record, &self.options, &progress)),
            interrupted.get(),
        ) {
            (Ended::Failed(_), Some(why)) => Ended::Interrupted(why),
            (ended, _) => ended,
        }
    }

    /// The claimed game's record, or why it cannot be analysed.
    fn record(&self, id: &GameId) -> Result<AnyRecord, Unreadable> {
        let row = self.store.game(id)?.ok_or(Unreadable::Gone)?;
        Ok(crate::record::parse_any(row.record.as_bytes())?)
    }
}

/// Why a claimed game's record cannot be read.
#[derive(Debug, thiserror::Error)]
enum Unreadable {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the game is gone")]
    Gone,
    #[error(transparent)]
    Record(#[from] crate::record::RecordError),
}

/// Starts past which an analysis is not tried again: a job whose worker died (its lease ran
/// out) gets one more start, and a job that takes the process down each time does not keep
/// doing it. A worker stopped on purpose gives its job back without counting a start.
const MAX_STARTS: u32 = 2;

/// Why an analysis ended early, its progress having said to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Interrupted {
    /// The workers are stopping: give the job back.
    Stopping,
    /// Another worker holds the job now: write nothing.
    LeaseLost,
}

/// How one claimed analysis ended. A failure's words are what the analysis's page says.
#[derive(Debug, PartialEq)]
enum Ended {
    Done(AnyReport),
    Failed(String),
    Interrupted(Interrupted),
}

/// Runs one analysis, turning a panic into its error: a bug met by one game fails that game's
/// analysis, and the worker goes on with the queue.
fn guarded(job: impl FnOnce() -> Result<AnyReport, AnyAnalysisError>) -> Ended {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)) {
        Ok(Ok(report)) => Ended::Done(report),
        Ok(Err(e)) => Ended::Failed(e.to_string()),
        Err(panic) => {
            let why = (panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Ended::Failed(format!("the analysis stopped on an error of ours: {why}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Ended, guarded};

    /// A bug that panics in one game's analysis fails that analysis, with the panic's words,
    /// and leaves the worker thread alive for the next one.
    #[test]
    fn a_panicking_analysis_fails_with_its_message() {
        let failed = guarded(|| panic!("index out of bounds: the len is 3 but the index is 255"));
        assert_eq!(
            failed,
            Ended::Failed(
                "the analysis stopped on an error of ours: index out of bounds: the len is 3 but the index is 255"
                    .into()
            )
        );
        let owned = guarded(|| std::panic::panic_any(String::from("owned words")));
        assert_eq!(
            owned,
            Ended::Failed("the analysis stopped on an error of ours: owned words".into())
        );
    }
}
