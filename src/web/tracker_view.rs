//! The tile tracker beside a tile game's board ([`tile_turn_view`]): the pack with each
//! kind's chance of coming soon, the open spots from the hardest to fill, and the features the
//! dead ones kill. The turn page and the explore board show it.

use crate::analysis::{self, BoardFeature};
use crate::engine::Game;
use crate::record::GameRecord;
use crate::replay::words;
use crate::store::GameId;
use crate::web::links;
use crate::web::view::{self, TileTurnView};

/// The tile tracker after a turn: the pack, the open spots (the hardest to fill first) and the
/// features the dead ones kill. The fit counts are found once for the spots and the dead ones.
///
/// Every chance counts draws as a uniform pick from the pack, as the draws are: the next
/// player's next `k` draws are `k` tiles drawn from the pack, whatever comes between them.
/// Discarded tiles (redrawn when they fit nowhere) are left out; they are rare.
pub fn tile_turn_view(id: &GameId, record: &GameRecord, position: &Game, features: &[BoardFeature]) -> TileTurnView {
    let left = position.pack_left();
    let mover = position.current_player();
    let horizon = analysis::draws_for(position, mover).min(NEXT_DRAWS);
    let percent = |chance: f64| format!("{:.0}%", chance * 100.0);
    let remaining = (view::remaining_tiles(&record.catalog, position).into_iter())
        .map(|(name, copies)| view::PackKind {
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
    TileTurnView {
        remaining,
        tiles_left: left,
        next: (left > 0).then(|| (record.players[usize::from(mover)].name.clone(), horizon)),
        players: record.players.iter().map(|p| p.name.clone()).collect(),
        dead_spots: (spots.iter().filter(|s| s.fits == 0))
            .map(|s| s.pos.to_string())
            .collect(),
        spots: (spots.into_iter().filter(|s| s.fits > 0))
            .map(|s| view::SpotView {
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
