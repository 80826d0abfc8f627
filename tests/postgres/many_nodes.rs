//! Several nodes as one service, with the real binary: two `serve` processes that run no
//! analysis themselves and `worker` processes, all on one PostgreSQL database. A game uploaded
//! to either node is read from the other, one game sent to both at once is stored once, an
//! analysis asked of one node is run by a worker and read on the other, a worker killed with
//! SIGKILL mid-analysis loses its job to the next worker when its lease runs out, and a worker
//! stopped with SIGTERM gives its job back at once.

use crate::common::app::small_game;
use crate::common::postgres;
use crate::common::server::Server;
use carcassonne_replay::engine::{Policy, Preset};
use carcassonne_replay::record::{RulesSpec, native};
use carcassonne_replay::selfplay;
use carcassonne_replay::store::{Database, Store};
use serde_json::Value;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `worker` on `db`, whose jobs are taken over 2 s after it last reported.
fn worker(db: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_carcassonne-replay"))
        .args(["worker", "--db", db, "--lease-seconds", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the worker starts")
}

/// The first `moves` moves of bot game `seed`: 10 make an analysis of some seconds in a debug
/// build.
fn bot_game(seed: u64, moves: usize) -> Vec<u8> {
    let mut record = selfplay::generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, seed).unwrap();
    record.moves.truncate(moves);
    serde_json::to_vec(&native::to_value(&record)).unwrap()
}

/// Uploads `body` to `node`: the answer's status and id.
fn upload(node: &Server, body: &[u8]) -> (u16, String) {
    let mut r = (Server::agent().post(&format!("http://{}/api/games", node.address)))
        .send(body)
        .unwrap();
    let v: Value = serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap();
    (r.status().as_u16(), v["id"].as_str().unwrap_or_default().to_string())
}

fn ask_analysis(node: &Server, id: &str) -> u16 {
    (Server::agent().post(&format!("http://{}/g/{id}/analysis", node.address)))
        .header("Accept", "application/json")
        .send(&[][..])
        .unwrap()
        .status()
        .as_u16()
}

/// Polls `node` for the analysis of `id` until `until` holds of it, for at most `within`.
fn wait_for(node: &Server, id: &str, within: Duration, until: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let status = node.get(&format!("/api/games/{id}/analysis")).unwrap();
        if until(&status) || start.elapsed() > within {
            return status;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn kill(child: &mut Child, signal: &str) {
    let ok = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success(), "kill {signal}");
}

#[test]
fn two_web_nodes_and_their_workers_act_as_one_service() {
    let Some(db) = postgres::fresh() else { return };
    // Both nodes start at once: each migrates and loads the demos, and neither fails.
    let (a, b) = std::thread::scope(|s| {
        let start = || s.spawn(|| Server::start_with(&db.url, &["--analysis-workers", "0"]));
        let (a, b) = (start(), start());
        (a.join().unwrap(), b.join().unwrap())
    });
    let store = Store::open(Database::Postgres(db.url.clone())).unwrap();
    assert_eq!(store.count().unwrap(), 3, "the demos, once");

    // Uploaded to one node, read from the other.
    let (status, id) = upload(&a, small_game(["Ann", "Bob"]).as_bytes());
    assert_eq!(status, 201);
    let turns = a.get(&format!("/api/games/{id}")).unwrap()["turns"].as_u64().unwrap();
    assert!(b.has(&id, turns), "node B serves what node A stored, every turn");

    // One game sent to both at once: one game, one id, one owner.
    let body = small_game(["Cy", "Di"]);
    let (to_a, to_b) = std::thread::scope(|s| {
        let (x, y) = (
            s.spawn(|| upload(&a, body.as_bytes())),
            s.spawn(|| upload(&b, body.as_bytes())),
        );
        (x.join().unwrap(), y.join().unwrap())
    });
    assert_eq!(to_a.1, to_b.1);
    let mut statuses = [to_a.0, to_b.0];
    statuses.sort();
    assert_eq!(statuses, [200, 201], "one stored it, the other found it stored");
    assert_eq!(store.count().unwrap(), 5);

    // An analysis asked of A, queued once however many ask, and read on B.
    let (_, long) = upload(&b, &bot_game(7, 10));
    assert_eq!(ask_analysis(&a, &long), 202);
    assert_eq!(ask_analysis(&b, &long), 202, "asked again: still the one job");
    assert_eq!(wait_for(&b, &long, Duration::ZERO, |_| true)["status"], "queued");

    // A worker takes it, and dies mid-analysis.
    let mut first = worker(&db.url);
    let started = wait_for(&b, &long, Duration::from_secs(60), |s| {
        s["status"] == "running" && s["done"].as_u64() >= Some(1)
    });
    assert_eq!(started["status"], "running", "{started}");
    kill(&mut first, "-KILL");
    let _ = first.wait();
    // Its lease runs out 2 s after its last word; the next worker takes the job over.
    let mut second = worker(&db.url);
    let done = wait_for(&a, &long, Duration::from_secs(180), |s| s["status"] == "done");
    assert_eq!(done["status"], "done", "{done}");
    assert_eq!(b.get(&format!("/api/games/{long}/analysis")).unwrap()["status"], "done");

    // A worker stopped politely gives its job back at once, uncounted: the next one runs it.
    let (_, polite) = upload(&a, &bot_game(8, 10));
    assert_eq!(ask_analysis(&b, &polite), 202);
    let running = wait_for(&a, &polite, Duration::from_secs(60), |s| s["status"] == "running");
    assert_eq!(running["status"], "running");
    kill(&mut second, "-TERM");
    assert!(second.wait().unwrap().success(), "the worker stops cleanly");
    let back = wait_for(&a, &polite, Duration::ZERO, |_| true);
    assert_eq!(back["status"], "queued", "given back, not left to its lease: {back}");
    let mut third = worker(&db.url);
    let done = wait_for(&b, &polite, Duration::from_secs(180), |s| s["status"] == "done");
    assert_eq!(done["status"], "done", "{done}");
    let _ = third.kill();
    let _ = third.wait();
}
