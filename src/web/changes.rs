//! What other processes on the database changed, for this one's memory. A web process keeps
//! parsed games, finished analyses and built pages; when a game is deleted, unlisted or
//! commented on, or its analysis finishes, through another node or by a worker, the store notes it
//! (`Store::changes_since`), and a thread here reads what is new every [`EVERY`] and has the
//! process forget what it kept of those games.

use crate::store::{Change, GameId, Store};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// How often the changes are read: how long another node may serve a game its owner deleted.
pub const EVERY: Duration = Duration::from_secs(1);

/// The thread that reads the changes. Dropped, it stops.
pub struct Watch {
    stop: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watch {
    /// Starts reading the changes made from now on, telling `changed` of each.
    pub fn start(store: Store, changed: impl Fn(&GameId, Change) + Send + 'static) -> Watch {
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        let stopping = stop.clone();
        let thread = std::thread::Builder::new()
            .name("changes".into())
            .spawn(move || {
                // Where the changes stand as the process starts (it keeps nothing yet): every
                // later one is read. Read here, not by the caller, who may be on an async
                // thread, where the store must not be called.
                let mut last = store.changes_since(None).ok().map(|c| c.last);
                while !stopped_after(&stopping, EVERY) {
                    match store.changes_since(last) {
                        Ok(changes) => {
                            changes.games.iter().for_each(|(id, what)| changed(id, *what));
                            last = Some(changes.last);
                        }
                        Err(e) => tracing::warn!("cannot read what other processes changed: {e}"),
                    }
                }
            })
            .expect("the changes thread starts");
        Watch {
            stop,
            thread: Some(thread),
        }
    }
}

/// Waits `wait` or until told to stop; whether told.
fn stopped_after(stop: &(Mutex<bool>, Condvar), wait: Duration) -> bool {
    let (stopped, told) = stop;
    let guard = stopped.lock().unwrap_or_else(|e| e.into_inner());
    let (guard, _) = (told.wait_timeout_while(guard, wait, |s| !*s)).unwrap_or_else(|e| e.into_inner());
    *guard
}

impl Drop for Watch {
    fn drop(&mut self) {
        *self.stop.0.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.stop.1.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
