//! Runs a record through the engine, yielding one snapshot per turn. Store, render, analysis
//! and web read snapshots; none of them re-implements a rule.
//!
//! The snapshot and replay types are generic over the game ([`Position`]); the tile game's
//! replay ([`replay`]) fills them from the record walker.

pub mod cards;
mod explore;
pub mod json;
mod positions;
pub(crate) mod verify;
pub(crate) mod words;

use crate::engine::features::majority;
use crate::engine::{Category, Event, FeatureKind, Game, Move, Phase, Position, Rules, SegId, TileCategory};
use crate::record::{GameRecord, Played, Walk};
use positions::{Keeper, Watch};

pub use crate::record::ReplayError;
pub use explore::{
    Explore, ExploreError, NextDraw, StepProblem, TileExplore, TileLineFacts, explore_cards, explore_cards_from,
    explore_tiles, explore_tiles_from, tiles_fitting_nowhere, tiles_to_draw, turn_instead,
};
pub use positions::{Kept, Positions, Reached};
pub use verify::recorded_scores;

/// The state after one turn of a game and its scoring.
#[derive(Clone, Debug)]
pub struct Turn<P: Position> {
    /// 1-based count of turns (the tile game: of placed tiles).
    pub turn: u32,
    pub player: u8,
    /// The move that ended the turn.
    pub mv: P::TurnMove,
    /// Everything since the turn before: in the tile game, discards before the placement, the
    /// placement, the meeple step, scoring, returns.
    pub events: Vec<P::Event>,
    /// Every player's score after this turn's scoring.
    pub scores: Vec<i32>,
    /// Every player's supply after the turn.
    pub supply: Vec<P::Supply>,
}

/// A turn of the tile game.
pub type TurnSnapshot = Turn<Game>;

/// Points per category, split into scored during play and at the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown<C: 'static = TileCategory> {
    pub play: Categories<C>,
    pub end: Categories<C>,
}

impl<C: Category> Breakdown<C> {
    pub fn new(categories: &'static [C]) -> Breakdown<C> {
        Breakdown {
            play: Categories::new(categories),
            end: Categories::new(categories),
        }
    }

    /// Play and end together, category by category.
    pub fn both(&self) -> Categories<C> {
        let mut out = self.play.clone();
        for (category, points) in self.end.iter() {
            out.add(category, points);
        }
        out
    }
}

/// Points per category, in the order the game lists its categories
/// ([`Position::categories`]; the tile game: road, city, cloister, garden, field).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Categories<C: 'static = TileCategory> {
    categories: &'static [C],
    points: Vec<u32>,
}

impl<C: Category> Categories<C> {
    pub fn new(categories: &'static [C]) -> Categories<C> {
        Categories {
            categories,
            points: vec![0; categories.len()],
        }
    }

    /// The points in a category (0 for a category the game does not have).
    pub fn get(&self, category: C) -> u32 {
        self.position(category).map_or(0, |i| self.points[i])
    }

    /// Adds points to a category. Points in a category the game does not list are a bug in
    /// the game's table, so they are not silently lost.
    pub fn add(&mut self, category: C, points: u32) {
        let i = (self.position(category))
            .unwrap_or_else(|| panic!("{} is not one of the game's categories", category.word()));
        self.points[i] += points;
    }

    fn position(&self, category: C) -> Option<usize> {
        self.categories.iter().position(|c| *c == category)
    }

    pub fn total(&self) -> u32 {
        self.points.iter().sum()
    }

    /// (category, points) in the game's order.
    pub fn iter(&self) -> impl Iterator<Item = (C, u32)> + '_ {
        self.categories.iter().copied().zip(self.points.iter().copied())
    }

    pub fn categories(&self) -> &'static [C] {
        self.categories
    }
}

/// A whole replayed game.
#[derive(Clone, Debug)]
pub struct Replay<P: Position = Game> {
    pub turns: Vec<Turn<P>>,
    /// What followed the last turn: in the tile game, discards after the last placement, then
    /// final scoring.
    pub final_events: Vec<P::Event>,
    pub finished: bool,
    pub final_scores: Vec<i32>,
    /// Per player, points by the game's categories (`Position::categories`).
    pub breakdown: Vec<Breakdown<P::Category>>,
    /// The position at the end of the game, for anyone who needs the board.
    pub game: P,
}

impl Replay<Game> {
    /// The rules the game was replayed under.
    pub fn rules(&self) -> &Rules {
        self.game.rules()
    }
}

/// A whole replay, with every turn's position kept ([`Replays::replay_keeping`]).
pub type Replayed<P> = (Replay<P>, Positions<P>);

/// A game's record, which the engine replays: each game's names its position and why a
/// record may be refused, so that what reads a whole game is written once for every game.
pub trait Replays {
    type Position: Position;
    type Error: std::error::Error + Send + Sync + 'static;

    /// The whole record, replayed under its own rules; final scoring runs once it is over.
    fn replay(&self) -> Result<Replay<Self::Position>, Self::Error>;

    /// The whole record replayed, with every turn's position kept.
    fn replay_keeping(&self) -> Result<Replayed<Self::Position>, Self::Error>;

    /// Why the record does not replay, in its own words (naming the turn, the player and the
    /// rule).
    fn refusal(&self, e: &Self::Error) -> String;
}

impl Replays for GameRecord {
    type Position = Game;
    type Error = ReplayError;

    fn replay(&self) -> Result<Replay, ReplayError> {
        replay(self, None)
    }

    fn replay_keeping(&self) -> Result<Replayed<Game>, ReplayError> {
        let (replay, keeper) = replay_inner(self, None, None, Keeper::new)?;
        Ok((replay, keeper.finish()))
    }

    fn refusal(&self, e: &ReplayError) -> String {
        e.describe(self)
    }
}

/// Replays a record under its own rules, or under `rules` when given.
pub fn replay(record: &GameRecord, rules: Option<Rules>) -> Result<Replay, ReplayError> {
    replay_upto(record, rules, None)
}

/// Features each player owns (holds a majority in), by kind: city, road, field, cloister,
/// garden. Ties count for every tied player.
pub type Ownership = Vec<[u16; 5]>;

/// Who owns what on the board now.
pub fn ownership(game: &Game) -> Ownership {
    let features = game.features();
    let mut out = vec![[0u16; 5]; game.players().len()];
    let mut roots: Vec<SegId> = (0..features.len() as SegId)
        .filter(|&s| features.meeple_on(s).is_some())
        .map(|s| features.root(s))
        .collect();
    roots.sort_unstable();
    roots.dedup();
    for root in roots {
        let column = match features.kind(root) {
            // New World's kinds share the columns of their base-game counterparts.
            FeatureKind::City | FeatureKind::Town => 0,
            FeatureKind::Road | FeatureKind::Trail => 1,
            FeatureKind::Field | FeatureKind::Plains => 2,
            FeatureKind::Cloister | FeatureKind::Farm => 3,
            FeatureKind::Garden => 4,
            FeatureKind::River | FeatureKind::Crossing => continue,
        };
        for p in majority(&features.count_meeples(root)).iter() {
            out[p as usize][column] += 1;
        }
    }
    out
}

/// Replays a whole record and reports each turn's ownership, for the store.
pub fn replay_with_ownership(record: &GameRecord) -> Result<(Replay, Vec<Ownership>), ReplayError> {
    let (replay, Owners(owned)) = replay_inner(record, None, None, |_| Owners(Vec::new()))?;
    Ok((replay, owned))
}

/// Who owned what after each turn, counted as the replay walks.
struct Owners(Vec<Ownership>);

impl Watch<Game> for Owners {
    fn turn(&mut self, game: &Game) {
        self.0.push(ownership(game));
    }
}

/// Replays the first `upto` placed tiles only (all of them for `None`). `Replay::game` is then
/// the board after that turn. Final scoring runs only for `None`: the position after the last
/// turn (`Some(last)`) and the end of the game are two different steps.
pub fn replay_upto(record: &GameRecord, rules: Option<Rules>, upto: Option<u32>) -> Result<Replay, ReplayError> {
    Ok(replay_inner(record, rules, upto, |_| ())?.0)
}

/// Replays the record as far as `upto`, telling what `watching` makes of the start about each
/// step.
fn replay_inner<W: Watch<Game>>(
    record: &GameRecord,
    rules: Option<Rules>,
    upto: Option<u32>,
    watching: impl FnOnce(&Game) -> W,
) -> Result<(Replay, W), ReplayError> {
    let rules = rules.unwrap_or_else(|| record.resolved_rules());
    let mut walk = Walk::with_rules(record, rules)?;
    let mut watch = watching(walk.game());
    let mut turns = Vec::with_capacity(record.moves.len());
    // Discards before a placement belong to its turn.
    let mut events = Vec::new();
    while upto.is_none_or(|n| walk.placed() < n) {
        let Some(step) = walk.step() else { break };
        let step = step?;
        match step.played {
            Played::Discard(_) => {
                events.extend_from_slice(walk.events());
                watch.between(walk.game());
            }
            Played::Place(mv) => {
                // Usually no discard came first: the walk's events are the turn's, moved.
                let turn_events = if events.is_empty() {
                    walk.take_events()
                } else {
                    events.extend_from_slice(walk.events());
                    std::mem::take(&mut events)
                };
                turns.push(snapshot(walk.game(), step.turn, step.player, &mv, turn_events));
                watch.turn(walk.game());
            }
        }
    }
    let game = walk.into_game();
    let finished = upto.is_none() && record.setup.final_scoring.unwrap_or(game.pack_left() == 0);
    Ok((ended(turns, events, game, finished), watch))
}

/// A tile-game replay once its turns are played: `events` followed the last turn (discards),
/// and a `finished` game is scored at the end.
fn ended(turns: Vec<TurnSnapshot>, mut events: Vec<Event>, mut game: Game, finished: bool) -> Replay {
    if finished {
        game.finish(&mut events);
    }
    let breakdown = breakdown(
        game.categories(),
        game.players().len(),
        turns.iter().flat_map(|t| &t.events).chain(&events),
    );
    Replay {
        final_scores: game.scores(),
        turns,
        final_events: events,
        finished,
        breakdown,
        game,
    }
}

fn snapshot(game: &Game, turn: u32, player: u8, mv: &Move, events: Vec<Event>) -> TurnSnapshot {
    Turn {
        turn,
        player,
        mv: *mv,
        events,
        scores: game.scores(),
        supply: Position::supply(game),
    }
}

fn breakdown<'a>(
    categories: &'static [TileCategory],
    players: usize,
    events: impl Iterator<Item = &'a Event>,
) -> Vec<Breakdown> {
    let mut out = vec![Breakdown::new(categories); players];
    for e in events {
        if let Event::Scored(s) = e {
            for p in s.players.iter() {
                let b = &mut out[p as usize];
                let cat = if s.phase == Phase::Play {
                    &mut b.play
                } else {
                    &mut b.end
                };
                for (category, points) in s.by_category() {
                    cat.add(category, points);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn demo() -> GameRecord {
        let bytes = include_bytes!("../../static/games/demo-second-edition.json");
        crate::record::parse(bytes).unwrap().0
    }

    #[test]
    fn replaying_part_of_a_game_stops_at_that_turn() {
        let record = demo();
        let full = replay(&record, None).unwrap();
        assert!(full.finished);
        for n in [1, 30, 70] {
            let part = replay_upto(&record, None, Some(n)).unwrap();
            assert_eq!(part.turns.len(), n as usize);
            assert!(!part.finished, "no final scoring before the last turn");
            assert_eq!(part.game.scores(), full.turns[n as usize - 1].scores);
            assert_eq!(
                part.game.board().tiles().len(),
                n as usize + 1,
                "the start tile and n tiles"
            );
        }
        let last = replay_upto(&record, None, Some(71)).unwrap();
        assert!(!last.finished, "the last turn comes before final scoring");
        assert_eq!(last.game.scores(), full.turns[70].scores);
        assert_ne!(last.game.scores(), full.final_scores);
    }
}
