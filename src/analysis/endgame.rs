//! The last tiles of a tile game played exactly: what a sample is worth when so few tiles are
//! left after the move that every reply can be tried.
//!
//! A sample draws the pack in one order. With at most [`EXACT_TILES`] tiles left after the
//! move, each player in turn knows the tiles still to come in that order once the second to
//! last is drawn, so the best play from there is a plain game tree: every legal move of each
//! tile tried, the end scored, and each player choosing the move best for their own margin.
//! Averaged over the sampled orders, the samples' mean is the expectimax value of the move;
//! with one tile left every order is the same and so is every sample, so the value is exact.
//!
//! **Why only the last two.** Before them the weighed bot plays the samples: a sample then
//! costs one bot move a tile, where the tree costs the product of the tiles' move counts (tens
//! each). Two tiles after the move are some thousands of ends per order before the cuts; with
//! alpha-beta and killer moves a real game's turn with two tiles left after it takes 0.4 s
//! for all its moves (BGA game-a, turn 69), where a third tile would multiply it by tens again.
//! In a game of three or more players two tiles are played by two different players, neither
//! the mover, and no cut applies: there only the last tile is played exactly.

use super::alternatives;
use crate::engine::bots::{ended_margin, margin};
use crate::engine::{Event, Game, Move, TileKindId};

/// Tiles left after a move up to which its samples play the rest of the game exactly.
pub const EXACT_TILES: u32 = 2;

/// `mover`'s final margin when the tiles left after `after` come in `order` (all of them) and
/// every player plays the move best for their own final margin, knowing the order. `None` when
/// too many tiles are left to try every reply (more than [`EXACT_TILES`], or two in a game of
/// more than two players).
pub fn exact_margin(after: &Game, mover: u8, order: &[TileKindId]) -> Option<i32> {
    let two_players = after.players().len() == 2;
    let within = match order.len() {
        0 | 1 => true,
        n => two_players && n as u32 <= EXACT_TILES,
    };
    if !within {
        return None;
    }
    let mut events = Vec::new();
    let value = if two_players {
        let me = after.current_player();
        let mut killers = vec![None; order.len()];
        let mine = negamax(after, order, i32::MIN + 1, i32::MAX, &mut killers, &mut events);
        if me == mover { mine } else { -mine }
    } else {
        last_tile(after, mover, order, &mut events)
    };
    Some(value)
}

/// The player to move's final margin under best play by both players (two players, so one's
/// margin is the other's loss), searched with alpha-beta cuts between `alpha` and `beta`.
/// `killers[d]` is the move that last cut or won at depth `d`: tried first, as the last
/// player's best reply is mostly the same whatever the reply before it, it lets most of the
/// other player's moves be refuted by one end scored.
fn negamax(
    game: &Game,
    order: &[TileKindId],
    mut alpha: i32,
    beta: i32,
    killers: &mut [Option<Move>],
    events: &mut Vec<Event>,
) -> i32 {
    let me = game.current_player();
    let (Some((&tile, rest)), Some((killer, deeper))) = (order.split_first(), killers.split_first_mut()) else {
        return ended_margin(game, me);
    };
    let mut moves = alternatives::enumerate(game, tile).1;
    if moves.is_empty() {
        // A tile that fits nowhere is set aside and the same player draws again.
        let mut next = game.clone();
        next.discard(tile, events)
            .expect("a tile with no placement may be discarded");
        return negamax(&next, rest, alpha, beta, deeper, events);
    }
    if let Some(k) = killer.and_then(|k| moves.iter().position(|m| *m == k)) {
        moves.swap(0, k);
    }
    let mut best = i32::MIN + 1;
    for mv in &moves {
        let mut next = game.clone();
        events.clear();
        next.play_listed(mv, events);
        let value = if rest.is_empty() {
            ended_margin(&next, me)
        } else {
            -negamax(&next, rest, -beta, -alpha, deeper, events)
        };
        if value > best {
            best = value;
            *killer = Some(*mv);
        }
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// `mover`'s final margin after the player to move plays the last tile (`order` holds at most
/// one) as is best for their own margin; the first such move when several are.
fn last_tile(game: &Game, mover: u8, order: &[TileKindId], events: &mut Vec<Event>) -> i32 {
    let Some(&tile) = order.first() else {
        return ended_margin(game, mover);
    };
    let me = game.current_player();
    let mut best: Option<(i32, i32)> = None;
    for mv in &alternatives::enumerate(game, tile).1 {
        let mut next = game.clone();
        events.clear();
        next.play_listed(mv, events);
        let ended: Vec<i32> = next.end_scores().collect();
        let scores = || ended.iter().copied();
        let (own, theirs) = (margin(scores(), me), margin(scores(), mover));
        if best.is_none_or(|(b, _)| own > b) {
            best = Some((own, theirs));
        }
    }
    best.map_or_else(|| ended_margin(game, mover), |(_, theirs)| theirs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::playout::Future;
    use crate::analysis::sampled::{Sampled, Seeds};
    use crate::analysis::search::HorizonEval;
    use crate::engine::Preset;
    use crate::engine::bots::Policy;
    use crate::record::RulesSpec;
    use crate::selfplay::generate;

    /// The position before the turn with `left` tiles in the pack, the drawn one included.
    fn near_the_end(players: u8, seed: u64, left: u32) -> Option<(Game, TileKindId)> {
        let record = generate(RulesSpec::new(Preset::SecondEdition), players, Policy::Greedy, seed).ok()?;
        (1..80).find_map(|turn| {
            let (game, played) = crate::analysis::position_before(&record, turn).ok()?;
            (game.pack_left() == left).then_some((game, played.tile))
        })
    }

    /// Every player's best reply tried, no cut: each player keeps the move best for their own
    /// margin, and `mover`'s margin at the end of that line is the value.
    fn every_line(game: &Game, mover: u8, order: &[TileKindId]) -> i32 {
        let Some((&tile, rest)) = order.split_first() else {
            return ended_margin(game, mover);
        };
        let me = game.current_player();
        let moves = alternatives::enumerate(game, tile).1;
        if moves.is_empty() {
            let mut next = game.clone();
            next.discard(tile, &mut Vec::new()).unwrap();
            return every_line(&next, mover, rest);
        }
        let lines = moves.iter().map(|mv| {
            let mut next = game.clone();
            next.play_listed(mv, &mut Vec::new());
            (every_line(&next, me, rest), every_line(&next, mover, rest))
        });
        // The first of equal bests, as the search keeps it.
        let first_best = lines.reduce(|best, line| if line.0 > best.0 { line } else { best });
        first_best.map(|(_, theirs)| theirs).unwrap()
    }

    /// With two tiles left after the move, the cut search finds what trying every line finds,
    /// for every move of the drawn tile and both orders of the last two tiles.
    #[test]
    fn the_last_two_tiles_are_played_as_trying_every_line_plays_them() {
        let mut checked = 0;
        for seed in [3, 8] {
            let (before, tile) = near_the_end(2, seed, 3).unwrap();
            let mover = before.current_player();
            for mv in alternatives::enumerate(&before, tile).1.iter().step_by(3) {
                let mut after = before.clone();
                after.play_listed(mv, &mut Vec::new());
                let mut order = crate::engine::bots::shuffled_bag(&after, &mut crate::engine::Rng::new(1));
                for _ in 0..2 {
                    assert_eq!(
                        exact_margin(&after, mover, &order),
                        Some(every_line(&after, mover, &order)),
                        "seed {seed}, {mv:?}, {order:?}"
                    );
                    order.reverse();
                    checked += 1;
                }
            }
        }
        assert!(checked > 20, "{checked}");
    }

    /// With one tile left after the move every future is the same: a move's samples all give
    /// the value of the last player's best reply, so the analysis knows it without noise.
    #[test]
    fn with_one_tile_left_every_sample_is_the_exact_value() {
        for players in [2, 3] {
            let (before, tile) = near_the_end(players, 5, 2).unwrap();
            let mover = before.current_player();
            for mv in alternatives::enumerate(&before, tile).1.iter().step_by(4) {
                let mut after = before.clone();
                after.play_listed(mv, &mut Vec::new());
                let last = crate::engine::bots::shuffled_bag(&after, &mut crate::engine::Rng::new(0));
                let exact = every_line(&after, mover, &last);
                let seeds = Seeds::Mixed { seed: 9, turn: 70 };
                let samples = before.sample(mv, &Future::Horizon(HorizonEval::Learned), seeds, 0..6);
                assert_eq!(samples, vec![exact; 6], "{players} players, {mv:?}");
            }
        }
    }

    /// Two tiles after the move are played exactly between two players only; with three,
    /// neither is the mover's and there is no cut to make the tree small.
    #[test]
    fn three_players_are_exact_on_the_last_tile_only() {
        let (before, tile) = near_the_end(3, 5, 3).unwrap();
        let mv = alternatives::enumerate(&before, tile).1[0];
        let mut after = before.clone();
        after.play_listed(&mv, &mut Vec::new());
        let order = crate::engine::bots::shuffled_bag(&after, &mut crate::engine::Rng::new(0));
        assert_eq!(exact_margin(&after, before.current_player(), &order), None);
        assert!(exact_margin(&after, before.current_player(), &order[1..]).is_some());
    }
}
