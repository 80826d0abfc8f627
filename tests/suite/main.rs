//! The integration tests: one binary, a module per area, sharing the helpers in `common`
//! (the real app on a random port, the shared fixtures, the browser). One binary is linked
//! once, where a file per area was linked once each. Run one area with
//! `cargo test --test suite http::`.

mod common;

/// The apps of this binary's tests run on SQLite files; `tests/postgres` runs the HTTP suite
/// again on PostgreSQL.
const STORE: common::app::StoreKind = common::app::StoreKind::Sqlite;

mod analysis;
mod analysis_queue;
mod annotations;
mod bad_records;
mod bga;
mod bookmarklet;
mod card_game;
mod cli;
mod cli_formats;
mod collections;
mod course;
mod crafted_requests;
mod docs;
mod explore;
mod exports;
mod fixture_games;
mod http;
mod jcz_conformance;
mod lab;
mod layout;
mod live;
mod new_world;
mod occupancy;
mod owner_keys;
mod perft;
mod players;
mod properties;
mod puzzles;
mod render;
mod robustness;
mod rule_choices;
mod rulebook_examples;
mod schema;
mod service_process;
mod sharing;
mod stores;
mod use_graph;
