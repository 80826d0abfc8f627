//! The tile tracker beside a tile game's board ([`tile_turn_view`]): the pack with each
//! kind's chance of coming soon, the open spots from the hardest to fill, and the features the
//! dead ones kill. The turn page and the explore board show it.

use crate::analysis::{self, BoardFeature};
use crate::engine::Game;
use crate::record::GameRecord;
use crate::replay::words;
use crate::store::GameId;
use crate::web::links;
use crate::web::view;

/// The tile tracker after a turn: the pack, the open spots (the hardest to fill first) and the
/// features the dead ones kill. The fit counts are found once for the spots and the dead ones.
///
/// Every chance counts draws as a uniform pick from the pack, as the draws are: the next
/// player's next `k` draws are `k` tiles drawn from the pack, whatever comes between them.
/// Discarded tiles (redrawn when they fit nowhere) are left out; they are rare.
pub fn tile_turn_view(id: &GameId, record: &GameRecord, position: &Game, features: &[BoardFeature]) -> Tracker {
    let left = position.pack_left();
    let mover = position.current_player();
    let horizon = analysis::draws_for(position, mover).min(NEXT_DRAWS);
    let percent = |chance: f64| format!("{:.0}%", chance * 100.0);
    let remaining = (view::remaining_tiles(&record.setup.catalog, position).into_iter())
        .map(|(name, copies)| PackKind {
            picture: links::tile_svg(id, &name),
            next: percent(analysis::chance_any(u32::from(copies), left, 1.min(horizon))),
            within: percent(analysis::chance_any(u32::from(copies), left, horizon)),
            name,
            copies,
        })
        .collect();
    let players = record.players.len() as u8;
    let mut spots = analysis::position_spots(position);
    spots.sort_by_key(|s| (s.fits, s.pos));
    let killed = (features.iter())
        .filter_map(|f| match f.outlook {
            analysis::Outlook::Never(analysis::Never::DeadSpot(at)) => Some(format!(
                "{} of {} (needs {at})",
                words::capitalised(f.kind.word()),
                words::count(f.tiles, "tile", "tiles")
            )),
            _ => None,
        })
        .collect();
    Tracker {
        remaining,
        tiles_left: left,
        next: (left > 0).then(|| (record.players[usize::from(mover)].name.clone(), horizon)),
        players: record.players.iter().map(|p| p.name.clone()).collect(),
        dead_spots: (spots.iter().filter(|s| s.fits == 0))
            .map(|s| s.pos.to_string())
            .collect(),
        spots: (spots.into_iter().filter(|s| s.fits > 0))
            .map(|s| SpotView {
                pos: s.pos.to_string(),
                fits: s.fits,
                chances: (0..players)
                    .map(|p| percent(analysis::chance_any(s.fits, left, analysis::draws_for(position, p))))
                    .collect(),
            })
            .collect(),
        killed,
    }
}

/// The next player's draws the tracker's "within" chance counts.
const NEXT_DRAWS: u32 = 3;

/// The tile game's part of a turn page, a tile tracker: the pack with each kind's chances for
/// the next player, the open squares with each player's chance of a tile that fits, and what
/// the dead squares kill.
pub struct Tracker {
    pub remaining: Vec<PackKind>,
    pub tiles_left: u32,
    /// Who draws next, and how many of their draws "within their next draws" counts (3, fewer
    /// near the end); `None` when the pack is empty.
    pub next: Option<(String, u32)>,
    /// The players' names, in seat order: the columns of the squares' chances.
    pub players: Vec<String>,
    /// Empty squares next to the board that some tile left fits, fewest fitting tiles first.
    pub spots: Vec<SpotView>,
    /// Those no tile left fits: listed once by square, not as rows of zeros.
    pub dead_spots: Vec<String>,
    /// Features that can never be completed because a square they need is dead, in words.
    pub killed: Vec<String>,
}

/// A kind of tile left in the pack, and the next player's chances of drawing one.
pub struct PackKind {
    pub name: String,
    /// The tile's picture (`links::tile_svg`).
    pub picture: String,
    pub copies: u8,
    /// In their next draw, and within their next draws, as whole percents.
    pub next: String,
    pub within: String,
}

/// An empty square next to the board: how many tiles left fit it, and each player's chance
/// that one of their draws left is such a tile.
pub struct SpotView {
    pub pos: String,
    pub fits: u32,
    pub chances: Vec<String>,
}
