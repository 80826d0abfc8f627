//! The Carcassonne Card Game (`card-game.txt`): a different game from the tiles, with its own
//! rules, beside them in the engine. Four rows of coloured cards grow beside the scoreboard;
//! each player plays their hand one card a turn and places their large follower once a round,
//! securing the cards to its left; people, animals and jokers score when taken, buildings and
//! City Jokers make city sets at the end.

pub(crate) mod bots;
mod card;
mod game;
pub(crate) mod position;
pub(crate) mod rules;
mod scoring;

pub use card::{Card, Colour, KINDS, deck};
pub use game::{
    Because, CardCategory, CardEvent, CardGame, CardIllegal, CardMove, CardPlayer, CardSetup, CardSetupError, Slot,
};
