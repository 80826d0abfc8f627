//! The analysis queue is rows in the store, claimed by workers with leases (`queue`): any
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
                store.queue_analysis(&id, &ANY_PLACE, analysis::VERSION).unwrap(),
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

/// A POST from another address of the loopback (127.0.0.2): another client, to the server.
fn post_from_another_client(app: &TestApp, path: &str) -> u16 {
    use std::io::{Read, Write};
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    socket
        .bind(&"127.0.0.2:0".parse::<std::net::SocketAddr>().unwrap().into())
        .unwrap();
    let server: std::net::SocketAddr = app.address.trim_start_matches("http://").parse().unwrap();
    socket.connect(&server.into()).unwrap();
    let mut conn: std::net::TcpStream = socket.into();
    write!(
        conn,
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    conn.read_to_string(&mut answer).unwrap();
    answer[9..12].parse().unwrap()
}

/// One request for a whole collection queued 32 long analyses and every other client got 503
/// for up to an hour. Now one client holds at most a quarter of the queue's places: the
/// collection's other games wait, and another client still finds room.
#[test]
fn one_client_holds_a_quarter_of_the_queue_at_most() {
    let app = spawn_app_configured(|s| {
        s.analysis_workers = 0;
        s.analysis_queue = 8;
    });
    let lines: Vec<String> = (0..5)
        .map(|i| {
            serde_json::from_str::<serde_json::Value>(&small_game([&format!("Ann{i}"), "Bob"]))
                .unwrap()
                .to_string()
        })
        .collect();
    let c = post_json(
        &app,
        "/api/collections",
        &serde_json::json!({"name": "League", "text": lines.join("\n")}),
    );
    assert_eq!(c.status, 201, "{}", c.body);
    let id = c.json()["id"].as_str().unwrap().to_string();
    let q = post(&app, &format!("/api/collections/{id}/analysis"), b"");
    assert_eq!(q.status, 202, "{}", q.body);
    assert_eq!(
        (q.json()["queued"].as_u64(), q.json()["waiting"].as_u64()),
        (Some(2), Some(3))
    );
    let game = upload_id(&app, small_game(["Cleo", "Dan"]).as_bytes());
    let over = post(&app, &format!("/g/{game}/analysis"), b"");
    assert_eq!(over.status, 429, "{}", over.body);
    assert!(
        over.json()["detail"]
            .as_str()
            .unwrap()
            .contains("its share of the queue"),
        "{}",
        over.body
    );
    assert_eq!(over.header("retry-after"), "60");
    assert_eq!(post_from_another_client(&app, &format!("/g/{game}/analysis")), 202);
    assert_eq!(app.store().queue().unwrap().waiting, 3);
    app.stop();
}

/// A worker told to stop (its process stops) gives the job in hand back at its next turn, the
/// analysis stopped through its progress, with no start counted against the job: the next
/// worker takes it as if new.
#[test]
fn a_stopping_worker_gives_its_job_back_at_its_next_turn() {
    use carcassonne_replay::store::AnalysisStatus;
    let app = spawn_app_configured(|s| s.analysis_workers = 0);
    let store = app.store();
    let id: GameId = upload_id(&app, &demo()).parse().unwrap();
    assert_eq!(
        store.queue_analysis(&id, &ANY_PLACE, analysis::VERSION).unwrap(),
        QueueAnswer::Queued
    );
    let options = analysis::AnalysisOptions {
        playouts_per_alternative: Some(8),
        ..Default::default()
    };
    let jobs = carcassonne_replay::queue::Jobs::start(store.clone(), options, (8, 1, HELD), |_, _| {});
    let started = std::time::Instant::now();
    while !matches!(
        store.analysis_status(&id).unwrap(),
        Some(AnalysisStatus::Running { done: 1.., .. })
    ) {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the worker never got going"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    drop(jobs);
    assert_eq!(store.analysis_status(&id).unwrap(), Some(AnalysisStatus::Queued));
    let next = store.claim_analysis("next", HELD).unwrap().unwrap();
    assert_eq!((next.id, next.starts), (id, 1));
    app.stop();
}
