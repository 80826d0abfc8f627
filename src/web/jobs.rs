//! Background analysis: one worker thread takes game ids off a queue, analyses the whole game,
//! and writes progress and the result to the store. Work survives a restart: queued and
//! running analyses are queued again at start. The queue is bounded: past
//! [`ANALYSIS_QUEUE`] games waiting, a request is refused until the worker catches up.

use super::metrics::Metrics;
use crate::analysis::{self, AnalysisOptions};
use crate::store::{GameId, QueueAnswer, Store, StoreError};
use std::sync::Arc;
use std::sync::mpsc::{Sender, channel};

/// Analyses waiting or running at most, by default: at about 7 s a game, a few minutes' work.
pub const ANALYSIS_QUEUE: u64 = 32;

/// The queue's sending end, shared by the handlers, and its bound.
#[derive(Clone)]
pub struct Jobs {
    tx: Sender<GameId>,
    capacity: u64,
}

impl Jobs {
    /// Starts the worker and re-queues analyses the last run left unfinished (even past the
    /// bound: they were accepted). `ended` hears of each analysis that ends, done or failed.
    pub fn start(
        store: Store,
        options: AnalysisOptions,
        capacity: u64,
        metrics: Arc<Metrics>,
        ended: Box<dyn Fn(&GameId) + Send>,
    ) -> Jobs {
        let (tx, rx) = channel::<GameId>();
        let worker_store = store.clone();
        std::thread::Builder::new()
            .name("analysis".into())
            .spawn(move || {
                for id in rx {
                    let started = std::time::Instant::now();
                    run(&worker_store, &id, &options);
                    metrics.analysis_took(started.elapsed());
                    ended(&id);
                }
            })
            .expect("the analysis thread starts");
        let jobs = Jobs { tx, capacity };
        match store.pending_analyses() {
            Ok(ids) => ids.into_iter().for_each(|id| jobs.push(id)),
            Err(e) => tracing::error!("cannot list pending analyses: {e}"),
        }
        jobs
    }

    /// Asks for a game's analysis: it is queued and handed to the worker, unless it is
    /// queued, running or done already, or the queue is full.
    pub fn request(&self, store: &Store, id: &GameId) -> Result<QueueAnswer, StoreError> {
        let answer = store.queue_analysis(id, self.capacity, analysis::VERSION)?;
        if answer == QueueAnswer::Queued {
            self.push(*id);
        }
        Ok(answer)
    }

    fn push(&self, id: GameId) {
        if self.tx.send(id).is_err() {
            tracing::error!("the analysis worker has stopped");
        }
    }
}

/// Starts past which an analysis is not tried again: a job that a crash or a stop interrupted
/// gets one more start, and a job that takes the process down each time does not keep doing it.
const MAX_STARTS: u32 = 2;

fn run(store: &Store, id: &GameId, options: &AnalysisOptions) {
    let starts = match store.start_analysis(id) {
        Ok(starts) => starts,
        Err(e) => return tracing::error!("cannot start the analysis of {id}: {e}"),
    };
    let result = if starts > MAX_STARTS {
        Err(format!(
            "the service stopped {} times while this analysis ran, so it is not tried again",
            starts - 1
        ))
    } else {
        guarded(|| analyse(store, id, options))
    };
    let saved = match &result {
        Ok(json) => store.finish_analysis(id, Ok(json), analysis::VERSION),
        Err(e) => {
            tracing::warn!("analysis of {id} failed: {e}");
            store.finish_analysis(id, Err(e), analysis::VERSION)
        }
    };
    if let Err(e) = saved {
        tracing::error!("cannot save the analysis of {id}: {e}");
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

/// The whole game's analysis as JSON (`GamePages::analyse`).
fn analyse(store: &Store, id: &GameId, options: &AnalysisOptions) -> Result<String, String> {
    let row = store.game(id).map_err(|e| e.to_string())?.ok_or("the game is gone")?;
    let game = super::game::read(row).map_err(|e| e.to_string())?;
    let progress = |done: u32, total: u32| {
        if let Err(e) = store.analysis_progress(id, done, total) {
            tracing::warn!("cannot record progress: {e}");
        }
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
