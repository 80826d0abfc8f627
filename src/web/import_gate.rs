//! The turns of a process's collection imports: each prepares its lines on every core, so a
//! few run at once and the others wait, keeping their leases (`store::collection::IMPORT_LEASE`)
//! so that they do not pass for stopped.

use crate::store::collection;
use std::time::Duration;

/// Imports running in one process at once; more would only share the cores. Those waiting show
/// 0 read on their pages.
const IMPORTS_AT_ONCE: usize = 2;

/// The turns of this node's imports ([`IMPORTS_AT_ONCE`]).
#[derive(Default)]
pub struct ImportGate {
    running: std::sync::Mutex<usize>,
    freed: std::sync::Condvar,
}

/// An import's turn: it ends when this drops.
pub struct ImportTurn<'g>(&'g ImportGate);

impl ImportGate {
    /// Waits for a turn, calling `renew` every quarter of the lease meanwhile.
    pub fn enter(&self, renew: impl Fn()) -> ImportTurn<'_> {
        let every = collection::IMPORT_LEASE.to_std().unwrap_or(Duration::from_secs(120)) / 4;
        self.enter_renewing(every, renew)
    }

    fn enter_renewing(&self, every: Duration, renew: impl Fn()) -> ImportTurn<'_> {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        while *running >= IMPORTS_AT_ONCE {
            let (guard, waited) = (self.freed.wait_timeout(running, every)).unwrap_or_else(|e| e.into_inner());
            running = guard;
            if waited.timed_out() {
                renew();
            }
        }
        *running += 1;
        ImportTurn(self)
    }
}

impl Drop for ImportTurn<'_> {
    fn drop(&mut self) {
        *self.0.running.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
        self.0.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    /// Two imports run at once; a third waits, renewing its lease, until one ends.
    #[test]
    fn a_third_import_waits_for_a_turn_and_keeps_its_lease() {
        let gate = ImportGate::default();
        let first = gate.enter(|| panic!("the first import does not wait"));
        let _second = gate.enter(|| panic!("nor the second"));
        let renewed = AtomicU32::new(0);
        std::thread::scope(|s| {
            let third = s.spawn(|| {
                let _turn = gate.enter_renewing(Duration::from_millis(10), || {
                    renewed.fetch_add(1, Ordering::SeqCst);
                });
            });
            while renewed.load(Ordering::SeqCst) < 2 {
                assert!(!third.is_finished(), "the third import got in with two running");
                std::thread::sleep(Duration::from_millis(5));
            }
            drop(first);
            third.join().expect("the third import's turn came");
        });
        assert_eq!(*gate.running.lock().unwrap(), 1, "the second still runs");
    }
}
