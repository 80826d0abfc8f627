//! carcassonne-replay: replay, score and analyse Carcassonne games.
//!
//! Data flows one way: bytes → [`record`] → [`engine`] → [`replay`] → outputs ([`export`],
//! [`store`], [`render`], [`analysis`], [`web`], [`cli`]).

pub mod analysis;
pub mod cli;
pub mod engine;
pub mod export;
pub mod record;
pub mod render;
pub mod replay;
pub mod selfplay;
pub mod store;
pub mod web;
