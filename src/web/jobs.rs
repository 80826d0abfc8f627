//! Background analysis: workers claim queued analyses from the store (`Store::claim_analysis`),
//! analyse the whole game, and write progress and the result under their claim's lease. The
//! queue is rows in the store, not this process's memory: work survives a restart (a job whose
//! worker stopped is claimed again once its lease runs out, at once for a job an older release
//! left running), and every worker on the database shares it. The queue is bounded: past
//! [`ANALYSIS_QUEUE`] games waiting, a request is refused until the workers catch up.

use super::metrics::Metrics;
use crate::analysis::{self, AnalysisOptions};
use crate::store::{Claim, GameId, QueueAnswer, Store, StoreError};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Analyses waiting or running at most, by default: at about 7 s a game, a few minutes' work.
pub const ANALYSIS_QUEUE: u64 = 32;

/// How long a claim holds a job without news from its worker. Progress renews it every turn,
/// and a turn takes well under a second, so only a worker that stopped lets it run out.
pub const LEASE: Duration = Duration::from_secs(30);

/// How often an idle worker looks for work queued by another process; a request on this one
/// wakes it at once.
const POLL: Duration = Duration::from_millis(500);

/// The handlers' side of the queue: its bound, and the bell that wakes this process's workers.
/// When the last copy goes (the service stops), the workers stop after the job in hand.
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

/// Stops the workers when dropped.
struct Workers(Arc<Bell>);

impl Drop for Workers {
    fn drop(&mut self) {
        self.0.stop.store(true, Ordering::Relaxed);
        self.0.ring();
    }
}

impl Jobs {
    /// Starts `workers` analysis threads on `store`. `ended` hears of each analysis that ends
    /// here, done or failed.
    pub fn start(
        store: Store,
        options: AnalysisOptions,
        (capacity, workers): (u64, usize),
        metrics: Arc<Metrics>,
        ended: Arc<dyn Fn(&GameId) + Send + Sync>,
    ) -> Jobs {
        let bell = Arc::new(Bell::default());
        for n in 0..workers {
            let (store, bell, metrics, ended) = (store.clone(), bell.clone(), metrics.clone(), ended.clone());
            let options = options.clone();
            let owner = format!("{}:{}", std::process::id(), n);
            let finished = move |id: &GameId, took| {
                metrics.analysis_took(took);
                ended(id);
            };
            std::thread::Builder::new()
                .name(format!("analysis-{n}"))
                .spawn(move || work(&store, &bell, &options, &owner, &finished))
                .expect("an analysis thread starts");
        }
        Jobs {
            capacity,
            _workers: Arc::new(Workers(bell.clone())),
            bell,
        }
    }

    /// `threads` workers for a process that serves no pages (`worker`): nobody reads their
    /// metrics, and no page cache waits for their news.
    pub fn workers_alone(store: Store, options: AnalysisOptions, threads: usize) -> Jobs {
        let metrics = Arc::new(Metrics::default());
        Jobs::start(store, options, (ANALYSIS_QUEUE, threads), metrics, Arc::new(|_| {}))
    }

    /// Asks for a game's analysis: it is queued for the workers, unless it is queued, running
    /// or done already, or the queue is full.
    pub fn request(&self, store: &Store, id: &GameId) -> Result<QueueAnswer, StoreError> {
        let answer = store.queue_analysis(id, self.capacity, analysis::VERSION)?;
        if answer == QueueAnswer::Queued {
            self.bell.ring();
        }
        Ok(answer)
    }
}

/// One worker's loop until the workers stop: claim the next job, run it, tell `finished` which
/// and how long it took; with nothing to claim, wait for the bell.
fn work(store: &Store, bell: &Bell, options: &AnalysisOptions, owner: &str, finished: &dyn Fn(&GameId, Duration)) {
    while !bell.stopped() {
        match store.claim_analysis(owner, LEASE) {
            Ok(Some(claim)) => {
                let started = std::time::Instant::now();
                run(store, &claim, options);
                finished(&claim.id, started.elapsed());
            }
            Ok(None) => bell.wait(),
            Err(e) => {
                tracing::error!("cannot claim an analysis: {e}");
                bell.wait();
            }
        }
    }
}

/// Starts past which an analysis is not tried again: a job that a crash or a stop interrupted
/// gets one more start, and a job that takes the process down each time does not keep doing it.
const MAX_STARTS: u32 = 2;

fn run(store: &Store, claim: &Claim, options: &AnalysisOptions) {
    let id = &claim.id;
    let result = if claim.starts > MAX_STARTS {
        Err(format!(
            "the service stopped {} times while this analysis ran, so it is not tried again",
            claim.starts - 1
        ))
    } else {
        guarded(|| analyse(store, claim, options))
    };
    if let Err(e) = &result {
        tracing::warn!("analysis of {id} failed: {e}");
    }
    match store.finish_analysis(claim, result.as_deref().map_err(String::as_str), analysis::VERSION) {
        Ok(true) => {}
        Ok(false) => tracing::warn!("the analysis of {id} was taken over by another worker; its result is dropped"),
        Err(e) => tracing::error!("cannot save the analysis of {id}: {e}"),
    }
}

/// Runs one analysis, turning a panic into its error: a bug met by one game fails that game's
/// analysis, and the worker goes on with the queue.
fn guarded(job: impl FnOnce() -> Result<String, String>) -> Result<String, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).unwrap_or_else(|panic| {
        let why = (panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(format!("the analysis stopped on an error of ours: {why}"))
    })
}

/// The whole game's analysis as JSON (`GamePages::analyse`), its progress renewing the lease.
fn analyse(store: &Store, claim: &Claim, options: &AnalysisOptions) -> Result<String, String> {
    let row = store
        .game(&claim.id)
        .map_err(|e| e.to_string())?
        .ok_or("the game is gone")?;
    let game = super::game::read(row).map_err(|e| e.to_string())?;
    let progress = |done: u32, total: u32| match store.analysis_progress(claim, done, total, LEASE) {
        Ok(true) => {}
        Ok(false) => tracing::warn!("the lease on the analysis of {} was lost", claim.id),
        Err(e) => tracing::warn!("cannot record progress: {e}"),
    };
    game.analyse(options, &progress)
}

#[cfg(test)]
mod tests {
    use super::guarded;

    /// A bug that panics in one game's analysis fails that analysis, with the panic's words,
    /// and leaves the worker thread alive for the next one.
    #[test]
    fn a_panicking_analysis_fails_with_its_message() {
        let failed = guarded(|| panic!("index out of bounds: the len is 3 but the index is 255"));
        assert_eq!(
            failed,
            Err(
                "the analysis stopped on an error of ours: index out of bounds: the len is 3 but the index is 255"
                    .into()
            )
        );
        let owned = guarded(|| std::panic::panic_any(String::from("owned words")));
        assert_eq!(
            owned,
            Err("the analysis stopped on an error of ours: owned words".into())
        );
        assert_eq!(guarded(|| Ok("{}".into())), Ok("{}".to_string()));
    }
}
