//! carcassonne-replay: replay, score and analyse Carcassonne games.
//!
//! Data flows one way: bytes → [`record`] → [`engine`] → [`replay`] → outputs.

pub mod engine;
