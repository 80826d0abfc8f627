//! What both stores do alike, on this binary's kind of database (`crate::STORE`): a game sent
//! to several nodes at once is stored once, and `copy-db` moves a SQLite service's every game,
//! snapshot and analysis into a new database.

use crate::common::app::{ANY_PLACE, fresh_database, small_game};
use carcassonne_replay::analysis;
use carcassonne_replay::store::{Database, GameId, QueuePlace, Store};
use carcassonne_replay::web::startup;
use std::sync::Barrier;
use std::time::Duration;

/// Four nodes (four stores on one database) store the same upload at the same moment: each
/// answers its id with no error, one of them stored it, and the database holds one game.
#[test]
fn one_game_sent_to_several_nodes_at_once_is_stored_once() {
    let (db, _dir, _pg) = fresh_database();
    let nodes: Vec<Store> = (0..4).map(|_| Store::open(db.clone()).unwrap()).collect();
    let upload = small_game(["Ann", "Bob"]);
    let at_once = Barrier::new(nodes.len());
    let answers: Vec<(GameId, bool)> = std::thread::scope(|s| {
        let sent: Vec<_> = (nodes.iter())
            .map(|node| {
                s.spawn(|| {
                    at_once.wait();
                    let (game, new) =
                        carcassonne_replay::store::ingest(node, upload.as_bytes()).expect("stored, or found stored");
                    (game.id, new)
                })
            })
            .collect();
        sent.into_iter().map(|t| t.join().unwrap()).collect()
    });
    assert!(answers.iter().all(|(id, _)| *id == answers[0].0), "{answers:?}");
    assert_eq!(answers.iter().filter(|(_, new)| *new).count(), 1, "{answers:?}");
    assert_eq!(nodes[0].count().unwrap(), 1);
    let id = &answers[0].0;
    let turns = nodes[0].game(id).unwrap().unwrap().turns;
    let (_, stored) = nodes[0].turns(id).unwrap().unwrap();
    assert_eq!(stored.len() as u32, turns, "its snapshots once");
}

/// A SQLite service's database: the demos, one of them unlisted, a game with an owner, one
/// analysis done, one failed and one waiting.
fn a_served_sqlite_file(dir: &std::path::Path) -> Store {
    let store = Store::open(dir.join("served.sqlite")).unwrap();
    startup::seed_demo(&store).unwrap();
    let upload = carcassonne_replay::store::upload(&store, small_game(["Cy", "Di"]).as_bytes(), false).unwrap();
    assert!(upload.token.is_some());
    let ids = store.game_ids(0, 100).unwrap();
    assert!(store.set_listed(&ids[0], false).unwrap());
    for id in &ids[..3] {
        store.queue_analysis(id, &ANY_PLACE, analysis::VERSION).unwrap();
    }
    let lease = Duration::from_secs(60);
    let done = store.claim_analysis("test", lease).unwrap().unwrap();
    assert!(
        store
            .finish_analysis(&done, Ok(r#"{"turns": []}"#), analysis::VERSION)
            .unwrap()
    );
    let failed = store.claim_analysis("test", lease).unwrap().unwrap();
    assert!(
        store
            .finish_analysis(&failed, Err("no good"), analysis::VERSION)
            .unwrap()
    );
    store
}

/// `copy-db FROM TO` copies every game (listed or not, with its owner and date), its snapshots
/// and its analysis (done, failed or waiting) into a new database, says how many, and reads
/// back the same rows; a database that holds games already is refused, and left as it was.
#[test]
fn copy_db_moves_every_game_snapshot_and_analysis() {
    let dir = tempfile::tempdir().unwrap();
    let source = a_served_sqlite_file(dir.path());
    let (target, _target_dir, _pg) = fresh_database();
    let copy_db = |to: &Database| {
        std::process::Command::new(env!("CARGO_BIN_EXE_carcassonne-replay"))
            .args([
                "copy-db",
                &dir.path().join("served.sqlite").display().to_string(),
                &db_arg(to),
            ])
            .output()
            .unwrap()
    };
    let out = copy_db(&target);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stdout);
    let counts = source.counts().unwrap();
    assert_eq!((counts.games, counts.analyses), (4, 3));
    assert!(
        said.contains(&format!(
            "{} games, {} snapshots, {} analyses and {} annotations",
            counts.games, counts.snapshots, counts.analyses, counts.annotations
        )),
        "{said}"
    );
    let copy = Store::open(target.clone()).unwrap();
    assert_eq!(copy.counts().unwrap(), counts);
    for id in source.game_ids(0, 100).unwrap() {
        let (was, is) = (source.game(&id).unwrap().unwrap(), copy.game(&id).unwrap().unwrap());
        assert_eq!(format!("{was:?}"), format!("{is:?}"), "the game row of {id}");
        let turns = |s: &Store| format!("{:?}", s.turns(&id).unwrap());
        assert_eq!(turns(&source), turns(&copy), "the snapshots of {id}");
        assert_eq!(
            source.stored_analysis(&id).unwrap(),
            copy.stored_analysis(&id).unwrap(),
            "{id}"
        );
    }
    // The waiting analysis waits in the copy too, for the copy's workers.
    assert!(copy.claim_analysis("test", Duration::from_secs(60)).unwrap().is_some());

    let mistyped = (std::process::Command::new(env!("CARGO_BIN_EXE_carcassonne-replay")))
        .args([
            "copy-db",
            &dir.path().join("served.sqlit").display().to_string(),
            &db_arg(&target),
        ])
        .output()
        .unwrap();
    assert!(!mistyped.status.success());
    assert!(String::from_utf8_lossy(&mistyped.stderr).contains("no database at"));
    assert!(!dir.path().join("served.sqlit").exists(), "and none made");

    let again = copy_db(&target);
    assert!(!again.status.success());
    let why = String::from_utf8_lossy(&again.stderr);
    assert!(why.contains("holds 4 games already; copy into an empty one"), "{why}");
    assert_eq!(copy.count().unwrap(), 4);
}

/// `--db`'s words for a database.
fn db_arg(db: &Database) -> String {
    match db {
        Database::File(path) => path.display().to_string(),
        Database::Postgres(url) => url.clone(),
    }
}

/// What other processes read to forget what they keep (`changes_since`): an unlisting, a
/// finished analysis and a deletion, in order, each once, and nothing for a change that
/// changed nothing.
#[test]
fn owners_changes_and_finished_analyses_are_read_back_in_order() {
    use carcassonne_replay::store::Change;
    let (db, _dir, _pg) = fresh_database();
    let store = Store::open(db).unwrap();
    let (game, _) = carcassonne_replay::store::ingest(&store, small_game(["Ann", "Bob"]).as_bytes()).unwrap();
    let start = store.changes_since(None).unwrap();
    assert!(start.games.is_empty());
    assert!(store.set_listed(&game.id, false).unwrap());
    store
        .queue_analysis(
            &game.id,
            &QueuePlace {
                capacity: 10,
                ..ANY_PLACE
            },
            analysis::VERSION,
        )
        .unwrap();
    let claim = store.claim_analysis("test", Duration::from_secs(60)).unwrap().unwrap();
    assert!(store.finish_analysis(&claim, Ok("{}"), analysis::VERSION).unwrap());
    assert!(store.delete(&game.id).unwrap());
    assert!(!store.delete(&game.id).unwrap(), "deleted already: no change");
    let read = store.changes_since(Some(start.last)).unwrap();
    let expected = [Change::Owner, Change::Analysis, Change::Owner].map(|what| (game.id, what));
    assert_eq!(read.games, expected);
    assert!(
        store.changes_since(Some(read.last)).unwrap().games.is_empty(),
        "each once"
    );
}
