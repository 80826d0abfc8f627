//! The rules engine: pure, deterministic, no I/O. Everything else in the crate depends on it;
//! it depends on nothing else in the crate.

pub(crate) mod board;
pub(crate) mod bots;
pub mod cards;
pub(crate) mod category;
mod ending;
mod error;
mod events;
pub(crate) mod features;
mod game;
mod geometry;
mod parts;
mod position;
mod river;
pub(crate) mod rules;
mod scoring;
pub(crate) mod surveyors;
pub(crate) mod tile;
pub(crate) mod tileset;
pub(crate) mod walk;

pub use bots::{Policy, Rng, random_placement, shuffled_bag};
pub use category::{Category, TileCategory};
pub use error::IllegalMove;
pub use events::{Event, Note, Phase, Reason, Score, Term, Terms, Unit};
pub use features::{Figure, Meeple, SegId};
pub use game::{Action, FeatureRef, Game, Move, Placement, PlayerState, Setup, SetupError, StartSquare, StartTile};
pub use geometry::{HalfEdge, Pos, Rotation, Side};
pub use position::{GameKind, Played, Position, Supply, UnknownGame};
pub use rules::{FarmScoring, Preset, RiverTurns, Rules, TwoTileCity};
pub use scoring::Worth;
pub use surveyors::{COAST_X, Surveyors};
pub use tile::{Edge, FeatureKind, Location, NO_SEGMENT, SegmentError, TileDefError, TileKind};
pub use tileset::{Edition, TileCatalog, TileKindId, parse_spec};
pub use walk::{Fault, IllegalTurn, Moved, Script, Scripted, Step, Stepped, Walker};
