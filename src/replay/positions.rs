//! Every turn's position of a replayed game, kept as the replay walks, so that a page of one
//! turn reads its position instead of replaying the record to it ([`Positions`]), and the
//! view of a game as it stood after a turn that pages and pictures draw ([`Reached`]).

use super::{Replay, Replays, Turn};
use crate::engine::{Game, Position};
use std::sync::Arc;

/// The positions of a whole replayed game, turn by turn. A position the game was in twice
/// (after one turn, and before the next when no discard or deal came between) is kept once.
#[derive(Debug)]
pub struct Positions<P> {
    /// `after[n]`: the position after turn `n` (0: the start), before what follows it.
    after: Vec<Arc<P>>,
    /// `before[n - 1]`: the position turn `n` was played from, the discards or the deal before
    /// it applied. One more than the turns: the position the record's next move, not played
    /// yet, would be played from (before final scoring).
    before: Vec<Arc<P>>,
}

impl<P> Positions<P> {
    /// The position after turn `n` (0: the start), before anything that follows it.
    pub fn after(&self, n: u32) -> Option<&P> {
        self.after.get(n as usize).map(|p| &**p)
    }

    /// The position turn `n` (from 1) is played from; turn `turns + 1` is the one the record's
    /// next move would be played from.
    pub fn before(&self, n: u32) -> Option<&P> {
        self.before.get((n as usize).checked_sub(1)?).map(|p| &**p)
    }
}

/// Collects the positions as a replay walks ([`Positions`]).
pub(crate) struct Keeper<P> {
    after: Vec<Arc<P>>,
    before: Vec<Arc<P>>,
    /// The position after a step that ended no turn (a discard, a deal), since the last turn.
    between: Option<Arc<P>>,
}

/// What a replay tells as it walks: each position a step leaves the game in. [`Keeper`] keeps
/// them, the store counts who owns what after each turn, and `()` watches nothing.
pub(crate) trait Watch<P> {
    /// A step that ended no turn (a discard, a deal) left the game at `game`.
    fn between(&mut self, _game: &P) {}

    /// A turn was played, and left the game at `game`.
    fn turn(&mut self, game: &P);
}

impl<P> Watch<P> for () {
    fn turn(&mut self, _game: &P) {}
}

impl<P: Clone> Watch<P> for Keeper<P> {
    fn between(&mut self, game: &P) {
        self.between = Some(Arc::new(game.clone()));
    }

    fn turn(&mut self, game: &P) {
        let before = self.next_from();
        self.before.push(before);
        self.after.push(Arc::new(game.clone()));
    }
}

impl<P: Clone> Keeper<P> {
    pub(crate) fn new(start: &P) -> Keeper<P> {
        Keeper {
            after: vec![Arc::new(start.clone())],
            before: Vec::new(),
            between: None,
        }
    }

    /// The walk is over: the positions, with the one the next move would be played from.
    pub(crate) fn finish(mut self) -> Positions<P> {
        let next = self.next_from();
        self.before.push(next);
        Positions {
            after: self.after,
            before: self.before,
        }
    }

    fn next_from(&mut self) -> Arc<P> {
        (self.between.take()).unwrap_or_else(|| Arc::clone(self.after.last().expect("the start is kept")))
    }
}

/// A game as it stood after some turn: its position, the turns that led there, and, at the
/// end of a finished game, what followed the last turn. Borrowed from a whole [`Replay`] and
/// its [`Positions`], so a page of any turn is drawn with no replay.
#[derive(Debug)]
pub struct Reached<'a, P: Position = Game> {
    pub game: &'a P,
    pub turns: &'a [Turn<P>],
    /// After the last turn: the discards and final scoring (a finished game's end only).
    pub final_events: &'a [P::Event],
    pub finished: bool,
}

impl<P: Position> Clone for Reached<'_, P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: Position> Copy for Reached<'_, P> {}

impl<P: Position> Replay<P> {
    /// The whole game, to its end.
    pub fn reached(&self) -> Reached<'_, P> {
        Reached {
            game: &self.game,
            turns: &self.turns,
            final_events: &self.final_events,
            finished: self.finished,
        }
    }

    /// The game after turn `n` (0: the start), its position read from `positions`; `None` past
    /// the last turn.
    pub fn after<'a>(&'a self, positions: &'a Positions<P>, n: u32) -> Option<Reached<'a, P>> {
        Some(Reached {
            game: positions.after(n)?,
            turns: self.turns.get(..n as usize)?,
            final_events: &[],
            finished: false,
        })
    }
}

/// A record with its whole replay and its kept positions, borrowed: what draws any turn of the
/// game with no replay (the service keeps them per loaded game).
pub struct Kept<'a, R: Replays> {
    pub record: &'a R,
    pub full: &'a Replay<R::Position>,
    pub positions: &'a Positions<R::Position>,
}

impl<R: Replays> Clone for Kept<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R: Replays> Copy for Kept<'_, R> {}

impl<'a, R: Replays> Kept<'a, R> {
    /// The game after turn `turn` (0: the start), or at its end for `None`; `None` past the
    /// last turn.
    pub fn at(&self, turn: Option<u32>) -> Option<Reached<'a, R::Position>> {
        match turn {
            None => Some(self.full.reached()),
            Some(n) => self.full.after(self.positions, n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Replays, cards, replay_upto};
    use crate::record::{GameRecord, Played, Walk};

    fn tiles(bytes: &[u8]) -> GameRecord {
        crate::record::parse(bytes).unwrap().0
    }

    /// The kept positions are the ones replaying the record to each turn reaches, so a page
    /// reading them shows what it showed when it replayed: after each turn, before each turn
    /// (a discard before it applied: the BGA log's second turn follows one), and the position
    /// the next move would be played from.
    #[test]
    fn kept_positions_are_the_ones_a_replay_to_each_turn_reaches() {
        let seen = |game: &crate::engine::Game| format!("{game:?}");
        for record in [
            tiles(include_bytes!("../../static/games/demo-second-edition.json")),
            tiles(include_bytes!("../../static/games/demo-new-world.json")),
            tiles(include_bytes!("../../tests/fixtures/bga/discard.json")),
        ] {
            let (full, kept) = record.replay_keeping().unwrap();
            let turns = full.turns.len() as u32;
            for n in 0..=turns {
                let upto = replay_upto(&record, None, Some(n)).unwrap();
                assert_eq!(seen(kept.after(n).unwrap()), seen(&upto.game), "after turn {n}");
            }
            // The position before each placement, as the record walker reaches it.
            let mut walk = Walk::new(&record).unwrap();
            let mut n = 0;
            while walk.peek().is_some() {
                let before = walk.game().clone();
                if let Played::Place(_) = walk.step().unwrap().unwrap().played {
                    n += 1;
                    assert_eq!(seen(kept.before(n).unwrap()), seen(&before), "before turn {n}");
                }
            }
            assert_eq!(n, turns);
            assert!(kept.after(turns + 1).is_none() && kept.before(0).is_none());
        }
    }

    #[test]
    fn the_card_games_kept_positions_are_its_replays_to_each_move() {
        let bytes = include_bytes!("../../static/games/demo-card-game.json");
        let Ok(crate::record::AnyRecord::Cards(record)) = crate::record::parse_any(bytes) else {
            panic!("the demo is a Card Game record")
        };
        let (full, kept) = record.replay_keeping().unwrap();
        let moves = full.turns.len();
        for n in 0..=moves {
            let upto = cards::upto(&record, n).unwrap();
            assert_eq!(
                format!("{:?}", kept.after(n as u32).unwrap()),
                format!("{:?}", upto.game)
            );
            let dealt = cards::position_at(&record, n).unwrap();
            assert_eq!(
                format!("{:?}", kept.before(n as u32 + 1).unwrap()),
                format!("{dealt:?}")
            );
        }
    }
}
