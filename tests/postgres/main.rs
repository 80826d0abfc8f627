//! The HTTP suite again, on PostgreSQL: every test module of `tests/suite` that starts the app,
//! whose apps here run on a new database of the test server (see `common::postgres`), and the
//! multi-node test (`many_nodes`) and a database out of reach (`outage`).
//! A test that names a SQLite file (a release's database, a restart on one file) keeps it.
//! Run it alone with `cargo test --test postgres`.

#[path = "../suite/common/mod.rs"]
mod common;

const STORE: common::app::StoreKind = common::app::StoreKind::Postgres;

#[path = "../suite/analysis_queue.rs"]
mod analysis_queue;
#[path = "../suite/annotations.rs"]
mod annotations;
#[path = "../suite/bad_records.rs"]
mod bad_records;
#[path = "../suite/bookmarklet.rs"]
mod bookmarklet;
#[path = "../suite/collections.rs"]
mod collections;
#[path = "../suite/docs.rs"]
mod docs;
#[path = "../suite/http.rs"]
mod http;
#[path = "../suite/live.rs"]
mod live;
mod many_nodes;
#[path = "../suite/new_world.rs"]
mod new_world;
mod outage;
#[path = "../suite/owner_keys.rs"]
mod owner_keys;
#[path = "../suite/players.rs"]
mod players;
#[path = "../suite/puzzles.rs"]
mod puzzles;
#[path = "../suite/sharing.rs"]
mod sharing;
#[path = "../suite/stores.rs"]
mod stores;
