//! The analysis queue is rows in the store, claimed by workers with leases (`web::jobs`): any
//! number of workers on one database run each job once, a job whose worker stopped is taken
//! over when its lease runs out, and a worker that lost its lease writes nothing.

use crate::common::app::*;
use carcassonne_replay::analysis;
use carcassonne_replay::store::{Claim, GameId, QueueAnswer, Store};
use std::time::Duration;

const HELD: Duration = Duration::from_secs(60);

/// An app that runs no analysis itself, and `n` games queued for analysis on its database.
fn queued_games(n: usize) -> (TestApp, Store, Vec<GameId>) {
    let app = spawn_app_configured(|s| s.analysis_workers = 0);
    let store = app.store();
    let ids: Vec<GameId> = (0..n)
        .map(|i| {
            let id: GameId = upload_id(&app, small_game([&format!("Ann{i}"), "Bob"]).as_bytes())
                .parse()
                .unwrap();
            assert_eq!(
                store.queue_analysis(&id, 100, analysis::VERSION).unwrap(),
                QueueAnswer::Queued
            );
            id
        })
        .collect();
    (app, store, ids)
}

#[test]
fn workers_claiming_at_once_run_every_job_once_in_the_order_asked() {
    let (app, store, ids) = queued_games(6);
    let claims: Vec<Claim> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|w| {
                let store = &store;
                s.spawn(move || {
                    let mut mine = Vec::new();
                    while let Some(c) = store.claim_analysis(&format!("worker {w}"), HELD).unwrap() {
                        mine.push(c);
                    }
                    mine
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap()).collect()
    });
    let mut claimed: Vec<GameId> = claims.iter().map(|c| c.id).collect();
    claimed.sort();
    let mut asked = ids.clone();
    asked.sort();
    assert_eq!(claimed, asked, "every job claimed, and none twice");
    assert!(claims.iter().all(|c| c.starts == 1));
    assert_eq!(
        store.claim_analysis("late", HELD).unwrap(),
        None,
        "held leases are not taken"
    );
    app.stop();

    // One worker alone takes them oldest first.
    let (app, store, ids) = queued_games(3);
    let order: Vec<GameId> = std::iter::from_fn(|| store.claim_analysis("alone", HELD).unwrap())
        .map(|c| c.id)
        .collect();
    assert_eq!(order, ids);
    app.stop();
}

#[test]
fn a_lapsed_lease_is_taken_over_and_its_old_worker_writes_nothing() {
    let (app, store, ids) = queued_games(1);
    let stalled = store.claim_analysis("stalled", Duration::ZERO).unwrap().unwrap();
    std::thread::sleep(Duration::from_millis(5));
    let taker = store.claim_analysis("taker", HELD).unwrap().unwrap();
    assert_eq!(
        (taker.id, taker.starts),
        (ids[0], 2),
        "the same job, started a second time"
    );
    assert!(!store.analysis_progress(&stalled, 1, 9, HELD).unwrap());
    assert!(!store.finish_analysis(&stalled, Ok("{}"), analysis::VERSION).unwrap());
    assert!(store.analysis_progress(&taker, 3, 9, HELD).unwrap());
    assert!(
        store
            .finish_analysis(&taker, Err("a test's failure"), analysis::VERSION)
            .unwrap()
    );
    let (status, _) = store.analysis(&ids[0]).unwrap().unwrap();
    assert_eq!(
        status,
        carcassonne_replay::store::AnalysisStatus::Failed("a test's failure".into()),
        "the holder's result, not the stalled worker's"
    );
    app.stop();
}
