//! The real `serve` binary as an operator runs it, stopped the hard way and the polite way:
//! - killed with SIGKILL while several clients upload, then restarted on the same database,
//!   it still has every game it acknowledged, with all its turns, and SQLite's integrity
//!   check passes;
//! - stopped with SIGTERM while an upload is still arriving, it finishes that upload, answers
//!   it, and exits cleanly;
//! - `backup` copies the database while it serves;
//! - with `--analysis-workers 0` it runs no analysis, and a `worker` on its database does.
//!
//! In detail: the real `serve` binary: SIGKILL twice while four clients upload, then every
//! acknowledged game with all its turns after a restart and `PRAGMA integrity_check` ok;
//! SIGTERM while an upload is half sent, which is still answered `201`, stored, and followed by
//! exit status 0; `backup` of a live database, which serves the same game and is never
//! overwritten.

use crate::common::server::Server;
use carcassonne_replay::engine::Policy;
use carcassonne_replay::engine::Preset;
use carcassonne_replay::record::{RecordedMove, RulesSpec, native};
use carcassonne_replay::selfplay as generate;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A different legal game for every seed, and its turns.
fn game(seed: u64) -> (Vec<u8>, u64) {
    let record = generate::generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Random, seed).unwrap();
    let turns = (record.moves.iter())
        .filter(|m| matches!(m, RecordedMove::Place { .. }))
        .count();
    (serde_json::to_vec(&native::to_value(&record)).unwrap(), turns as u64)
}

fn integrity(db: &Path) -> String {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap()
}

#[test]
fn acknowledged_games_survive_sigkill_mid_stream() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.sqlite");
    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    for round in 0..2u64 {
        let server = Arc::new(Server::start(&db));
        let stop = Arc::new(AtomicBool::new(false));
        let uploaders: Vec<_> = (0..4u64)
            .map(|t| {
                let (server, stop, acknowledged) = (server.clone(), stop.clone(), acknowledged.clone());
                std::thread::spawn(move || {
                    let mut seed = 1_000_000 * (round * 4 + t + 1);
                    while !stop.load(Ordering::Relaxed) {
                        seed += 1;
                        let (body, turns) = game(seed);
                        match server.upload(&body) {
                            Some(id) => acknowledged.lock().unwrap().push((id, turns)),
                            None => break,
                        }
                    }
                })
            })
            .collect();
        // Let the uploads get going, then kill the server under them.
        let before = acknowledged.lock().unwrap().len();
        while acknowledged.lock().unwrap().len() < before + 20 {
            std::thread::sleep(Duration::from_millis(20));
        }
        server.signal("-KILL");
        stop.store(true, Ordering::Relaxed);
        uploaders.into_iter().for_each(|u| u.join().unwrap());
        Arc::into_inner(server).unwrap().child.wait().unwrap();
    }
    assert_eq!(integrity(&db), "ok");
    let server = Server::start(&db);
    let acknowledged = acknowledged.lock().unwrap();
    assert!(acknowledged.len() >= 40, "{} uploads acknowledged", acknowledged.len());
    for (id, turns) in acknowledged.iter() {
        assert!(
            server.has(id, *turns),
            "game {id} with its {turns} turns, after two kills"
        );
    }
}

#[test]
fn sigterm_lets_an_upload_in_flight_finish() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("term.sqlite");
    let mut server = Server::start(&db);
    let (body, turns) = game(7);
    let (head, tail) = body.split_at(body.len() / 2);
    let mut conn = std::net::TcpStream::connect(&server.address).unwrap();
    write!(
        conn,
        "POST /api/games HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n",
        server.address,
        body.len()
    )
    .unwrap();
    // The server's "100 Continue" says it has read the request's head and waits for its body:
    // the upload is in flight, however busy the machine is.
    let mut continued = [0u8; 25];
    conn.read_exact(&mut continued).unwrap();
    assert!(
        continued.starts_with(b"HTTP/1.1 100 Continue"),
        "{:?}",
        String::from_utf8_lossy(&continued)
    );
    conn.write_all(head).unwrap();
    // The server is told to stop while the upload is half sent.
    server.signal("-TERM");
    std::thread::sleep(Duration::from_millis(300));
    conn.write_all(tail).unwrap();
    let mut answer = String::new();
    conn.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    let status = server.child.wait().unwrap();
    assert!(status.success(), "serve exits cleanly after SIGTERM: {status}");
    // The game is in the database the next start opens.
    let id = answer
        .split("\"id\":\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let server = Server::start(&db);
    assert!(server.has(&id, turns), "{id} was stored whole");
}

/// `serve --analysis-workers 0` queues analyses and runs none; a `worker` on the same database
/// runs them, and the service shows the result.
#[test]
fn a_separate_worker_runs_the_analyses_a_service_queues() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("shared.sqlite");
    let server = Server::start_with(&db, &["--analysis-workers", "0"]);
    let id = server
        .upload(crate::common::app::small_game(["Ann", "Bob"]).as_bytes())
        .unwrap();
    let queued = Server::agent()
        .post(&format!("http://{}/g/{id}/analysis", server.address))
        .header("Accept", "application/json")
        .send(&[][..])
        .unwrap();
    assert_eq!(queued.status(), 202);
    let status = || server.get(&format!("/api/games/{id}/analysis")).unwrap()["status"].clone();
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(status(), "queued", "the service runs no analysis itself");

    let mut worker = Command::new(env!("CARGO_BIN_EXE_carcassonne-replay"))
        .args(["worker", "--db"])
        .arg(&db)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the worker starts");
    let done = (0..600).any(|_| {
        std::thread::sleep(Duration::from_millis(100));
        status() == "done"
    });
    let _ = worker.kill();
    let _ = worker.wait();
    assert!(done, "the worker ran the analysis: {}", status());
}

#[test]
fn backup_copies_the_database_while_it_serves() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("live.sqlite");
    let server = Server::start(&db);
    let (body, turns) = game(11);
    let id = server.upload(&body).unwrap();
    let copy = dir.path().join("copy.sqlite");
    let run = |args: &[&std::ffi::OsStr]| {
        Command::new(env!("CARGO_BIN_EXE_carcassonne-replay"))
            .arg("backup")
            .args(args)
            .output()
            .unwrap()
    };
    let done = run(&[copy.as_os_str(), "--db".as_ref(), db.as_os_str()]);
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    assert_eq!(integrity(&copy), "ok");
    // A second backup to the same file is refused: a backup never overwrites.
    let again = run(&[copy.as_os_str(), "--db".as_ref(), db.as_os_str()]);
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists already"));
    server.signal("-KILL");
    // The copy serves the game.
    let restored = Server::start(&copy);
    assert!(restored.has(&id, turns));
}

/// The log is plain text when it goes to a file or a pipe (a journal, `serve > log`): no ANSI
/// colour codes, though nothing asked for NO_COLOR.
#[test]
fn the_log_has_no_colour_codes_off_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_carcassonne-replay"))
        .args(["serve", "--bind", "127.0.0.1:0", "--db"])
        .arg(dir.path().join("log.sqlite"))
        .env("RUST_LOG", "info")
        .env_remove("NO_COLOR")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut log = Vec::new();
    for line in lines.map_while(Result::ok) {
        let serving = line.contains("serving on http://");
        log.push(line);
        if serving {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(log.iter().any(|l| l.contains("serving on")), "the log: {log:#?}");
    assert!(
        log.iter().all(|l| !l.contains('\u{1b}')),
        "colour codes in a piped log: {log:#?}"
    );
}
