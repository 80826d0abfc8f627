//! Why a move is illegal. Each message names the rule broken; the replay adds the turn, the
//! player and the move.

use super::geometry::{Pos, Rotation, Side};
use super::tile::{Edge, FeatureKind};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("no {tile} tile is left in the pack (this game has {copies})")]
    NotInPack { tile: String, copies: u32 },
    #[error("the tile drawn is {drawn}, not {played}")]
    NotDrawn { drawn: String, played: String },
    #[error("the pack is empty: the game is over")]
    PackEmpty,
    #[error(
        "River tiles are placed before all others, and {tile} is not a River tile while {left} River tiles are left"
    )]
    RiverFirst { tile: String, left: u32 },
    #[error("the river's end ({tile}) is placed last, and {left} other River tiles are left")]
    RiverEndTooEarly { tile: String, left: u32 },
    #[error("{pos} already holds a tile")]
    Occupied { pos: Pos },
    #[error("{pos} is off the board: no square is more than {max} from the start on either axis", max = Pos::MAX_COORD)]
    OffBoard { pos: Pos },
    #[error("{pos} touches no placed tile")]
    NotAdjacent { pos: Pos },
    #[error("its {side} edge ({ours}) meets the {their_side} edge ({theirs}) of the tile at {neighbour}", side = side.word(), their_side = side.opposite().word(), ours = ours.word(), theirs = theirs.word())]
    EdgeMismatch {
        side: Side,
        ours: Edge,
        theirs: Edge,
        neighbour: Pos,
    },
    #[error("its {side} edge ({ours}) meets the start square, which presents {presented} there", side = side.word(), ours = ours.word(), presented = presented.word())]
    StartSquareEdge { side: Side, ours: Edge, presented: Edge },
    #[error("a River tile must continue the river, whose open end is at {end}")]
    RiverNotContinued { end: Pos },
    #[error("the river would turn {dir} twice in a row")]
    RiverTurnsTwice { dir: &'static str },
    #[error("the river would make a U-turn: two adjacent bends both turn {dir}")]
    RiverUTurn { dir: &'static str },
    #[error("the river needs room to go on, but {blocked} ahead of its new end holds a tile")]
    RiverNoRoom { blocked: Pos },
    #[error("the tile has no {kind} at {at}")]
    NoSuchSegment { kind: FeatureKind, at: String },
    #[error("a meeple may not stand on the river")]
    MeepleOnRiver,
    #[error("a settler may not stand on a crossing")]
    SettlerOnCrossing,
    #[error("{pos} is on or east of the coast: New World's tiles go west of its start spaces")]
    EastOfCoast { pos: Pos },
    #[error("only an abbot may stand on a garden")]
    GardenNeedsAbbot,
    #[error("the abbot goes only on the cloister or garden of the tile just placed")]
    AbbotNotOnCloister,
    #[error("these rules have no farmers: meeples may not go on fields")]
    FarmersDisabled,
    #[error("these rules have no abbot")]
    AbbotDisabled,
    #[error("that {kind} is already occupied: a meeple stands elsewhere on it")]
    FeatureOccupied { kind: FeatureKind },
    #[error("the player has no follower left in supply (all {followers} are on the board)")]
    NoFollowerLeft { followers: u8 },
    #[error("the player's abbot is already on the board")]
    AbbotInUse,
    #[error("the player has no abbot on the board to take back")]
    NoAbbotToRecall,
    #[error("the abbot's {kind} is complete, so the abbot cannot be taken back")]
    AbbotFeatureComplete { kind: FeatureKind },
    #[error("the tile can be placed (for example at {pos} rotated {rotation}), so it may not be discarded")]
    DiscardPlaceable { pos: Pos, rotation: Rotation },
    #[error("score_order entry {entry} names {pos}, where no tile lies")]
    ScoreOrderEmptySquare { entry: usize, pos: Pos },
    #[error("score_order entry {entry} names a {kind}{at} of the tile at {pos}, which has none there")]
    ScoreOrderNoSuchFeature {
        entry: usize,
        kind: FeatureKind,
        pos: Pos,
        /// " at N", or nothing for a farm.
        at: String,
    },
}
