//! A search for the drawn tile's best move: sequential halving over determinizations of the
//! unseen tiles, with short lookahead rollouts evaluated at their horizon.
//!
//! - **Determinized.** Sample `j` shuffles the pack (the tiles not yet drawn; never a record's
//!   later draws) into one possible future. Every move meets the same futures in the same
//!   order (common random numbers), so moves are compared on equal draws.
//! - **Budget on the moves that matter.** Every legal move enters [`super::halving`]: each
//!   round the worse half is dropped, and the last two share what is left. Pruning by the
//!   heuristic first was tried and measured: it drops moves the samples would have chosen,
//!   and lost far more than it saved.
//! - **Opponents reply.** Each sample plays the next tiles of its future, two per player (six in
//!   New World): every player, the opponents first, answers their tile with the sampled greedy
//!   bot.
//! - **Evaluated at the horizon.** A sample's value is the mover's margin if the game ended
//!   there, with each follower still in supply worth [`MEEPLE_VALUE`] points scaled by the
//!   share of the pack left, as in the heuristic: farms count as the end would count them,
//!   and meeples as a resource. Past the horizon the draws add more noise than signal: a
//!   sample is many times cheaper and less noisy than a playout to the end, so the search
//!   weighs more futures in the same time (measured with `match`; see the README).
//! - **Parallel.** A round's samples are shared between threads; the result does not depend on
//!   their number.

use super::alternatives;
use super::evaluate::MEEPLE_VALUE;
use super::halving::{self, halve};
pub use super::halving::{Budget, SearchOptions};
use super::playout::{Tally, playout_seed};
use crate::engine::bots::{self, Policy, Rng, Scratch, shuffled_bag};
use crate::engine::{Game, Move, TileKindId};

/// What the search found: every legal move with its samples' values (the mover's value at the
/// horizon, [`horizon_value`]), the chosen one first.
pub type SearchResult = halving::SearchResult<Move>;

/// Tiles each sample plays before it is evaluated, per player in the game.
const HORIZON_ROUNDS: usize = 2;
/// The same in New World. Its surveyors take home the settlers they leave behind, after
/// scorings yet to come: a horizon of two rounds values settlers that will not score.
const NEW_WORLD_HORIZON_ROUNDS: usize = 6;

/// Tiles a sample plays after the move.
fn horizon(game: &Game) -> usize {
    let rounds = match game.surveyors() {
        Some(_) => NEW_WORLD_HORIZON_ROUNDS,
        None => HORIZON_ROUNDS,
    };
    rounds * game.players().len()
}

/// Searches `before` with `tile` drawn. `None` when the tile fits nowhere.
pub fn search(before: &Game, tile: TileKindId, opts: &SearchOptions) -> Option<SearchResult> {
    let (_, moves) = alternatives::enumerate(before, tile);
    if moves.is_empty() {
        return None;
    }
    let found = halve(moves.len(), opts.budget, opts.threads, |m, range| {
        let mut tally = Tally::default();
        let mut scratch = Scratch::default();
        for j in range {
            let mut rng = Rng::new(playout_seed(opts.seed, 0, j));
            tally.add(sample(before, &moves[m], &mut rng, &mut scratch));
        }
        tally
    });
    Some(SearchResult::of(&moves, found))
}

/// Plays `mv`, then the next tiles of one future up to the [`horizon`], everyone playing the
/// sampled greedy bot: the opponents reply as a player would, at a fraction of the greedy bot's
/// cost. The mover's value there, by [`horizon_value`].
fn sample(before: &Game, mv: &Move, rng: &mut Rng, scratch: &mut Scratch) -> i32 {
    let mover = before.current_player();
    let mut game = before.clone();
    game.play_listed(mv, &mut Vec::new());
    let mut bag = shuffled_bag(&game, rng);
    bag.truncate(horizon(&game));
    bots::play_tiles(&mut game, &bag, |_| Policy::Sampled, rng, scratch);
    horizon_value(&game, mover)
}

/// The mover's margin if the game ended now, each player's followers in supply counted at
/// [`MEEPLE_VALUE`] scaled by the share of the pack left; to the nearest point.
fn horizon_value(game: &Game, mover: u8) -> i32 {
    let tiles_in_game = game.pack_left() + game.board().tiles().len() as u32;
    let per_meeple = MEEPLE_VALUE * f64::from(game.pack_left()) / f64::from(tiles_in_game.max(1));
    let mut ended = game.clone();
    ended.finish(&mut Vec::new());
    let value = |p: usize| f64::from(ended.players()[p].score) + per_meeple * f64::from(game.players()[p].followers);
    let best_other = (0..game.players().len())
        .filter(|&p| p != mover as usize)
        .map(value)
        .reduce(f64::max)
        .unwrap_or(0.0);
    (value(mover as usize) - best_other).round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::halving::FIRST_ROUND;
    use crate::engine::Preset;
    use crate::engine::bots::margin;
    use crate::record::RulesSpec;
    use crate::record::generate::generate;

    #[test]
    fn the_search_is_repeatable_and_halves_down_to_its_choice() {
        let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 4).unwrap();
        let (game, played) = super::super::position_before(&record, 21).unwrap();
        let options = SearchOptions {
            budget: Budget::Samples(600),
            seed: 3,
            threads: 2,
        };
        let a = search(&game, played.tile, &options).unwrap();
        let one_thread = SearchOptions { threads: 1, ..options };
        assert_eq!(
            a,
            search(&game, played.tile, &one_thread).unwrap(),
            "the same seed, the same search, on any number of threads"
        );
        let moves = alternatives::enumerate(&game, played.tile).1.len();
        assert_eq!(a.moves.len(), moves, "every legal move enters");
        assert!(a.samples() <= 600.max(FIRST_ROUND * moves as u32), "{}", a.samples());
        let (first, second) = (a.moves[0].1, a.moves[1].1);
        assert_eq!(first.count, second.count, "the last two meet the same futures");
        assert!(
            a.moves[2..].iter().all(|(_, t)| t.count < first.count),
            "the others were dropped on the way"
        );
        assert!(first.mean() >= second.mean(), "the better of the last two is chosen");
    }

    /// With no tile left to draw the horizon is the end: the value is the final margin. Before
    /// it, followers in supply count: the player with more of them is valued above the margin
    /// the game would end with.
    #[test]
    fn the_horizon_value_is_the_final_margin_at_the_end_and_counts_followers_before() {
        let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 4).unwrap();
        let replay = crate::replay::replay(&record, None).unwrap();
        let turns = replay.turns.len() as u32;
        let (mut last, mv) = super::super::position_before(&record, turns).unwrap();
        last.play_listed(&mv, &mut Vec::new());
        assert_eq!(last.pack_left(), 0);
        for mover in 0..2 {
            assert_eq!(
                horizon_value(&last, mover),
                margin(replay.final_scores.iter().copied(), mover)
            );
        }
        let mut compared = 0;
        for turn in 2..turns {
            let (game, _) = super::super::position_before(&record, turn).unwrap();
            let supply: Vec<i32> = game.players().iter().map(|p| i32::from(p.followers)).collect();
            if supply[0] == supply[1] {
                continue;
            }
            let mut ended = game.clone();
            ended.finish(&mut Vec::new());
            let if_ended = margin(ended.players().iter().map(|p| p.score), 0);
            let counted = horizon_value(&game, 0) - if_ended;
            assert_eq!(counted.signum(), (supply[0] - supply[1]).signum(), "turn {turn}");
            compared += 1;
        }
        assert!(compared > 5, "{compared}");
    }
}
