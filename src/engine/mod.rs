//! The rules engine: pure, deterministic, no I/O. Everything else in the crate depends on it;
//! it depends on nothing else in the crate.

pub mod board;
pub mod bots;
pub mod cards;
pub mod category;
mod error;
pub mod events;
pub mod features;
pub mod game;
mod geometry;
pub mod parts;
pub mod position;
pub mod river;
pub mod rules;
pub mod scoring;
pub mod surveyors;
pub mod tile;
pub mod tileset;
pub mod walk;

pub use category::{Category, TileCategory};
pub use error::IllegalMove;
pub use events::{Event, Note, Phase, Reason, Score, Term, Terms, Unit};
pub use features::{Figure, Meeple, SegId};
pub use game::{Action, FeatureRef, Game, Move, Placement, PlayerState, Setup, SetupError, StartSquare, StartTile};
pub use geometry::{HalfEdge, Pos, Rotation, Side};
pub use position::{GameKind, Played, Position, Supply, UnknownGame};
pub use rules::{FarmScoring, Preset, RiverTurns, Rules, TwoTileCity};
pub use scoring::Worth;
pub use tile::{Edge, FeatureKind, Location, TileKind};
pub use tileset::{Edition, TileCatalog, TileKindId};
pub use walk::{Fault, IllegalTurn, Moved, Script, Scripted, Step, Stepped, Walker};
