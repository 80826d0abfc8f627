//! What every feature on the board is worth, who holds it and how likely it is to be
//! completed: the notes the interactive board shows when a player points at a feature.
//!
//! Points come from the engine ([`Game::worth`], [`Game::field_cities`]) and chances from
//! [`completion`](super::completion), so a note never disagrees with the scoring.

use super::completion::{Chances, CompletionChance, feature_outlook};
use crate::engine::features::majority;
use crate::engine::{FeatureKind, Game, Pos, SegId, Worth};

/// One feature of the board, as a note.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardFeature {
    /// The feature's root segment: the same for every segment of it.
    pub root: SegId,
    pub kind: FeatureKind,
    /// Distinct tiles it covers (a cloister or garden: itself and the tiles around it).
    pub tiles: u32,
    /// Shields, flags, trading posts or animals on it.
    pub marks: u32,
    /// Followers per player on it, for each player in seat order.
    pub meeples: Vec<u8>,
    /// The players with the most followers on it (all of them on a tie); empty when nobody.
    pub owners: Vec<u8>,
    pub worth: Worth,
    pub outlook: Outlook,
    /// Fields: the completed cities they supply.
    pub cities: Option<u32>,
}

/// Whether a feature is complete, may still be, or never will be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outlook {
    Complete,
    /// Open, with its chance of completion: the tiles-left model's for its owner's draws (the
    /// player to move when nobody owns it), and the share of features like it completed in
    /// played games, which the board shows: see [`feature_outlook`](super::feature_outlook).
    Open {
        chance: CompletionChance,
    },
    Never(Never),
}

/// Why a feature can never be completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Never {
    /// Its kind never completes: fields, and New World's plains ("Plains are not scored if
    /// completed during the game"). It scores at the end only.
    ByRule,
    /// It needs a tile on this square, and no tile left can go there (a dead spot, or east of
    /// New World's coast). Squares only gain neighbours and the pack only shrinks, so this
    /// lasts.
    DeadSpot(Pos),
    /// The pack is empty.
    NoTilesLeft,
}

/// Every feature on the board but the river and New World's crossings (nobody stands on
/// them and they never score), in segment order of their roots.
pub fn board_features(game: &Game) -> Vec<BoardFeature> {
    let features = game.features();
    let players = game.players().len();
    let mut scratch = Vec::new();
    let mut chances = Chances::default();
    (0..features.len() as SegId)
        .filter(|&s| features.root(s) == s && !matches!(features.kind(s), FeatureKind::River | FeatureKind::Crossing))
        .map(|s| {
            let kind = features.kind(s);
            let counts = features.count_meeples(s);
            let owners: Vec<u8> = majority(&counts).iter().filter(|&p| (p as usize) < players).collect();
            let worth = game.worth(s);
            let size = features.size(s, &mut scratch);
            let tiles = if kind.is_inner() {
                1 + game.surrounding(game.segment_place(s).0)
            } else {
                size.tiles
            };
            let drawer = owners.first().copied().unwrap_or_else(|| game.current_player());
            BoardFeature {
                root: s,
                kind,
                tiles,
                marks: size.marks,
                meeples: counts[..players].to_vec(),
                owners,
                worth,
                outlook: outlook(game, s, &worth, drawer, &mut chances),
                cities: (kind == FeatureKind::Field).then(|| game.field_cities(s).len() as u32),
            }
        })
        .collect()
}

/// The outlook of the feature of `s`, worth `worth`, for `drawer`'s draws.
fn outlook(game: &Game, s: SegId, worth: &Worth, drawer: u8, chances: &mut Chances) -> Outlook {
    if worth.is_complete {
        return Outlook::Complete;
    }
    if worth.completed.is_none() {
        return Outlook::Never(Never::ByRule);
    }
    if game.pack_left() == 0 {
        return Outlook::Never(Never::NoTilesLeft);
    }
    let (spots, chance) = feature_outlook(game, s, drawer, chances);
    match spots.iter().find(|spot| spot.fits == 0) {
        Some(dead) => Outlook::Never(Never::DeadSpot(dead.pos)),
        None => Outlook::Open { chance },
    }
}
