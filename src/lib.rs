//! carcassonne-replay: replay, score and analyse Carcassonne games.
//!
//! Data flows one way: bytes → [`record`] → [`engine`] → [`replay`] → outputs ([`cli`]).

pub mod cli;
pub mod engine;
pub mod record;
pub mod replay;
pub mod store;
pub mod web;
