//! The HTTP suite again, on PostgreSQL: the same test modules as in `tests/suite`, whose apps
//! here run on a new database of the server `.ci/with-postgres` starts (`CARCASSONNE_TEST_PG`).
//! A test that names a SQLite file (a release's database, a restart on one file) keeps it.
//! Run it alone with `.ci/with-postgres cargo test --test postgres`.

#[path = "../suite/common/mod.rs"]
mod common;

const STORE: common::app::StoreKind = common::app::StoreKind::Postgres;

#[path = "../suite/analysis_queue.rs"]
mod analysis_queue;
#[path = "../suite/http.rs"]
mod http;
mod many_nodes;
#[path = "../suite/puzzles.rs"]
mod puzzles;
#[path = "../suite/sharing.rs"]
mod sharing;
#[path = "../suite/stores.rs"]
mod stores;
