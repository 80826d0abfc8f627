//! How likely a feature left open is to be completed, judged only from the tiles still in the
//! pack (`Game::pack`), never from the order a record drew them in.
//!
//! The estimate, per feature:
//! - its **open spots** are the empty squares it reaches (a city or road: across each open edge;
//!   a cloister or garden: the empty squares around it);
//! - a spot's **fit count** is how many tiles left in the pack could go there: some rotation
//!   matches every edge its placed neighbours demand. A tile that fits a spot next to the feature
//!   necessarily continues it, since edges must match. A square that no tile touches yet (a
//!   cloister's corner) constrains nothing, so every non-River tile left fits it;
//! - a spot gets filled if at least one fitting tile is among the draws left to the feature's
//!   owner (the mover, when nobody owns it): with `n` tiles in the pack, `k` of them fitting and
//!   `d` draws, that is `1 − C(n−k, d) / C(n, d)` (hypergeometric, no fitting tile drawn);
//! - the feature is complete when every spot is filled: the product over its spots, as if they
//!   were independent.
//!
//! It is optimistic (a fitting tile may extend a city rather than close it, and opponents may
//! take the spot first) and pessimistic (opponents' draws can close it too); it is a ranking
//! aid, shown with its inputs so a reader can judge it.

use crate::engine::board::FrontierSquare;
use crate::engine::{FeatureKind, Game, Pos, SegId, TileKindId};

/// An empty square next to the board and how many tiles left in the pack fit it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spot {
    pub pos: Pos,
    /// Copies left in the pack with some rotation that fits (0: a dead spot).
    pub fits: u32,
}

/// Every frontier square of a position with its fit count, in frontier order. Squares with
/// `fits == 0` are dead: no tile left can ever fill them.
pub fn position_spots(game: &Game) -> Vec<Spot> {
    game.board()
        .frontier()
        .iter()
        .map(|sq| Spot {
            pos: sq.pos,
            fits: fits_square(game, sq),
        })
        .collect()
}

/// The frontier squares no tile left in the pack fits.
pub fn dead_spots(game: &Game) -> Vec<Pos> {
    position_spots(game)
        .into_iter()
        .filter(|s| s.fits == 0)
        .map(|s| s.pos)
        .collect()
}

/// Copies in the pack with a rotation that `square` accepts.
fn fits_square(game: &Game, square: &FrontierSquare) -> u32 {
    game.pack()
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .filter(|&(i, _)| {
            let kind = game.tile_kind(TileKindId(i as u16));
            kind.unique.iter().any(|&(_, edges)| square.accepts(edges))
        })
        .map(|(_, &n)| u32::from(n))
        .sum()
}

/// Fit count for any empty square: a frontier square's own, or every non-River tile left for
/// a square nothing touches yet.
pub fn fits_at(game: &Game, pos: Pos) -> u32 {
    match game.board().frontier_at(pos) {
        Some(sq) => fits_square(game, sq),
        None => game.pack_left().saturating_sub(game.river_left()),
    }
}

/// The empty squares the feature containing `s` reaches, sorted and without repeats. Fields
/// reach no spot that matters: they never complete.
pub fn open_squares(game: &Game, s: SegId) -> Vec<Pos> {
    let features = game.features();
    let board = game.board();
    let mut out = Vec::new();
    match features.kind(s) {
        FeatureKind::City | FeatureKind::Road => {
            for m in features.members(s) {
                let t = &board.tiles()[features.tile_of(m) as usize];
                let sides = game.tile_kind(t.kind).oriented(t.rotation).sides[(m - t.first_segment) as usize];
                for side in crate::engine::Side::ALL {
                    let q = t.pos.step(side);
                    if sides & side.bit() != 0 && board.is_empty_at(q) {
                        out.push(q);
                    }
                }
            }
        }
        FeatureKind::Cloister | FeatureKind::Garden => {
            let pos = board.tiles()[features.tile_of(s) as usize].pos;
            out.extend(pos.ring().filter(|q| board.is_empty_at(*q)));
        }
        FeatureKind::Field | FeatureKind::River => {}
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The chance that at least one of `fits` good tiles is among `draws` drawn from `pack`.
pub fn chance_any(fits: u32, pack: u32, draws: u32) -> f64 {
    if fits == 0 || draws == 0 {
        return 0.0;
    }
    let bad = pack.saturating_sub(fits);
    if draws > bad {
        return 1.0;
    }
    // C(bad, d) / C(pack, d) = Π_{i<d} (bad − i) / (pack − i)
    let none: f64 = (0..draws).map(|i| f64::from(bad - i) / f64::from(pack - i)).product();
    1.0 - none
}

/// How many of the draws left in the game fall to `player`; the player whose turn it is draws
/// first. Discards are ignored: they are rare.
pub fn draws_for(game: &Game, player: u8) -> u32 {
    let players = game.players().len() as u32;
    let n = game.pack_left();
    let offset = (u32::from(player) + players - u32::from(game.current_player())) % players;
    if n > offset { (n - offset - 1) / players + 1 } else { 0 }
}

/// A feature's open spots with their fit counts, and its completion chance for `owner`'s draws.
pub fn feature_outlook(game: &Game, s: SegId, owner: u8) -> (Vec<Spot>, f64) {
    let spots: Vec<Spot> = open_squares(game, s)
        .into_iter()
        .map(|pos| Spot {
            pos,
            fits: fits_at(game, pos),
        })
        .collect();
    let draws = draws_for(game, owner);
    let pack = game.pack_left();
    let chance = spots.iter().map(|sp| chance_any(sp.fits, pack, draws)).product();
    (spots, chance)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hypergeometric_edges() {
        assert_eq!(chance_any(0, 50, 10), 0.0);
        assert_eq!(chance_any(5, 50, 0), 0.0);
        assert_eq!(chance_any(45, 50, 6), 1.0, "more draws than non-fitting tiles");
        // One fitting tile among 10, one draw: 1/10.
        assert!((chance_any(1, 10, 1) - 0.1).abs() < 1e-12);
        // Two draws: 1 − (9/10)(8/9) = 0.2.
        assert!((chance_any(1, 10, 2) - 0.2).abs() < 1e-12);
    }
}
