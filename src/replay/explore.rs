//! Playing on from a turn of a recorded game: the explore board's positions, and a turn played
//! otherwise ([`turn_instead`], an alternative's page). A line (`record::TileLine`,
//! `record::Line<CardMove>`) is played from the position before turn `from`, move by move
//! through the engine, so a line is legal exactly when the rules say so. The service starts it
//! from a loaded game's kept position (`explore_tiles_from`, `explore_cards_from`) and snapshots
//! the line's turns as they are played, so nothing replays the record.
//!
//! While a tile-game line makes the game's own moves, it draws the game's own tiles; once it
//! leaves them, each step names its tile, and the reader chooses the next one. The Card Game's
//! deals are the game's whatever the line does: every card dealt in a round is played in it,
//! so the next round's hands are the same cards.

use super::{Reached, Replay, TurnSnapshot};
use crate::engine::cards::{CardGame, CardIllegal, CardMove};
use crate::engine::{Event, Game, IllegalMove, Move, Played, Position, TileKindId};
use crate::record::Record;
use crate::record::cards::DealFault;
use crate::record::{GameRecord, RecordedMove, ReplayError, recorded};
use crate::record::{Line, TileLine, TileStep};
use std::iter::Peekable;
use std::slice::Iter;

/// A line played from a turn, in any game: the line (`L`, as the notation writes it), how many
/// of its steps are the game's own moves, the position after it (`P`), and what else the game
/// keeps of it (`X`: the tile games' [`TileLineFacts`]; the Card Game's players, one a step).
#[derive(Clone, Debug)]
pub struct Explore<L, P, X> {
    pub line: L,
    /// How many of the line's steps are the game's own moves.
    pub followed: usize,
    /// The position after the line: the tile games' before the next draw; the Card Game's with
    /// its round dealt, scored at the end when the line ends the game.
    pub game: P,
    pub facts: X,
}

/// A tile-game line played from a turn.
pub type TileExplore = Explore<TileLine, Game, TileLineFacts>;

/// What a tile-game line keeps besides the line and the position.
#[derive(Clone, Debug)]
pub struct TileLineFacts {
    /// The game's record up to the turn explored from, then the line's moves. It is scored at
    /// the end only when the line ends the game.
    pub record: GameRecord,
    /// What replaying `record` gives, the board to draw: the game's turns before the line, then
    /// the line's, each as it was played (nothing is replayed).
    pub replay: Replay,
    /// The line's moves as a record writes them, each naming its player.
    pub played: Vec<RecordedMove>,
    pub next: NextDraw,
}

/// What comes after a tile-game line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextDraw {
    /// This tile is drawn, to place: the game's own while the line follows it, else the line's.
    Drawn(TileKindId),
    /// The line has left the game: the reader chooses the tile drawn next.
    Choose,
    /// No tile left fits anywhere (the pack is empty, nearly always): the game is over.
    Over,
}

/// Why a line cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExploreError {
    #[error("there is no turn {turn} to explore from: the game has {turns} turns, so 1 to {} can be", turns + 1)]
    NoSuchTurn { turn: u32, turns: u32 },
    #[error("the game itself does not replay: {0}")]
    Record(String),
    #[error("step {step} of the line (turn {turn}): {problem}")]
    Step {
        step: usize,
        turn: u32,
        player: u8,
        problem: StepProblem,
    },
}

/// What is wrong with a step of a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepProblem {
    #[error("the line has left the game's moves, so the step names the tile drawn (tile@x,y,rotation)")]
    TileNeeded,
    #[error("{0}")]
    Illegal(#[from] IllegalMove),
    #[error("that tile fits nowhere on this board")]
    FitsNowhere,
    #[error("{0}")]
    Cards(#[from] CardIllegal),
    #[error("the game is over")]
    Over,
    #[error("the game's deal: {0}")]
    Deal(DealFault),
}

impl ExploreError {
    /// The error in words, naming the step's player.
    pub fn describe(&self, players: &[crate::record::PlayerInfo]) -> String {
        match self {
            ExploreError::Step {
                step,
                turn,
                player,
                problem,
            } => {
                let name = players.get(usize::from(*player)).map_or("?", |p| p.name.as_str());
                format!("step {step} of the line (turn {turn}, {name}): {problem}")
            }
            other => other.to_string(),
        }
    }
}

/// Plays `line` from the position before turn `from` of `record`, replaying the record to it.
pub fn explore_tiles(record: &GameRecord, from: u32, line: &TileLine) -> Result<TileExplore, ExploreError> {
    check_from(record.turns(), from)?;
    let start = super::replay_upto(record, None, Some(from - 1)).map_err(|e| broken(record, &e))?;
    explore_tiles_from(record, start.reached(), from, line)
}

/// Plays `line` from `start`, the game after turn `from - 1` of `record` (a loaded game's kept
/// position): the record is not replayed.
pub fn explore_tiles_from(
    record: &GameRecord,
    start: Reached<'_>,
    from: u32,
    line: &TileLine,
) -> Result<TileExplore, ExploreError> {
    check_from(record.turns(), from)?;
    let mut on = Playing::after(record, start, from);
    let mut played = TileLine::default();
    let mut moves = Vec::with_capacity(line.steps.len());
    let mut followed = 0;
    for (i, step) in line.steps.iter().enumerate() {
        let fail = |on: &Playing, problem| on.fault(i, from, problem);
        let own = on.own_draw().map_err(|e| fail(&on, e))?;
        let (step, written) = on.play(step, own).map_err(|e| fail(&on, e))?;
        played.steps.push(step);
        moves.push(written);
        followed += usize::from(on.ahead.is_some() && followed == i);
    }
    let next = on
        .next_draw(line.draw, &mut played)
        .map_err(|e| on.fault(line.steps.len(), from, e))?;
    let mut out = record.clone();
    out.moves = on.moves;
    out.setup.final_scoring = Some(next == NextDraw::Over);
    let replay = super::ended(on.turns, on.pending, on.game.clone(), next == NextDraw::Over);
    Ok(Explore {
        line: played,
        followed,
        game: on.game,
        facts: TileLineFacts {
            record: out,
            replay,
            played: moves,
            next,
        },
    })
}

/// Turn `n` of `record` played as `step` instead, from `start`, the game after turn `n - 1` (a
/// loaded game's kept position): the game's turns before it, then the discards before turn `n`
/// and `step`, not scored at the end. What replaying the record cut there with the move gives,
/// with no replay.
pub fn turn_instead(record: &GameRecord, start: Reached<'_>, n: u32, step: &TileStep) -> Result<Replay, ExploreError> {
    check_from(record.turns(), n)?;
    let mut on = Playing::after(record, start, n);
    let own = on.own_draw().map_err(|e| on.fault(0, n, e))?;
    on.play(step, own).map_err(|e| on.fault(0, n, e))?;
    Ok(super::ended(on.turns, on.pending, on.game, false))
}

/// Whether a record of `turns` turns has a turn `from` to explore from (one past its last:
/// after it).
fn check_from(turns: u32, from: u32) -> Result<(), ExploreError> {
    if from == 0 || from > turns + 1 {
        return Err(ExploreError::NoSuchTurn { turn: from, turns });
    }
    Ok(())
}

/// The tiles left that may be drawn now and fit somewhere, with their copies: a reader's
/// choices once a line has left the game.
pub fn tiles_to_draw(game: &Game) -> impl Iterator<Item = (TileKindId, u8)> + '_ {
    (game.pack().iter().enumerate())
        .filter(|(_, n)| **n > 0)
        .map(|(i, n)| (TileKindId(i as u16), *n))
        .filter(|(t, _)| game.may_draw(*t) && game.can_place(*t).is_some())
}

/// The tiles still in the pack that fit nowhere: drawn, each is discarded ("a tile that fits
/// nowhere is discarded"), and its player draws again.
pub fn tiles_fitting_nowhere(game: &Game) -> impl Iterator<Item = TileKindId> + '_ {
    (game.pack().iter().enumerate())
        .filter(|(_, n)| **n > 0)
        .map(|(i, _)| TileKindId(i as u16))
        .filter(|t| game.may_draw(*t) && game.can_place(*t).is_none())
}

fn broken(record: &GameRecord, e: &ReplayError) -> ExploreError {
    ExploreError::Record(e.describe(record))
}

/// A line being played: the position, the record of it so far, the game's own moves still
/// ahead while the line follows them (`None` once it has left them), and the turns played as a
/// replay gives them, with the events since the last (discards).
struct Playing<'r> {
    game: Game,
    moves: Vec<RecordedMove>,
    ahead: Option<Peekable<Iter<'r, RecordedMove>>>,
    turns: Vec<TurnSnapshot>,
    pending: Vec<Event>,
}

impl<'r> Playing<'r> {
    /// The game after turn `from - 1` of `record` (`start`), the game's moves from there ahead.
    fn after(record: &'r GameRecord, start: Reached<'_>, from: u32) -> Playing<'r> {
        // Past the move that placed tile `from - 1`: the discards after it are the next turn's.
        let cut = match from - 1 {
            0 => 0,
            last => record.placing(last).map_or(record.moves.len(), |i| i + 1),
        };
        Playing {
            game: start.game.clone(),
            moves: record.moves[..cut].to_vec(),
            ahead: Some(record.moves[cut..].iter().peekable()),
            turns: start.turns.to_vec(),
            pending: Vec::new(),
        }
    }

    /// Step `i` (from 0) of a line from turn `from` breaks a rule: its turn, its player.
    fn fault(&self, i: usize, from: u32, problem: StepProblem) -> ExploreError {
        ExploreError::Step {
            step: i + 1,
            turn: from + i as u32,
            player: self.game.current_player(),
            problem,
        }
    }

    /// What comes after the line: the tile it ends with (`draw`), the game's own, the reader's
    /// choice, or the end. `played` learns whether its draw is written.
    fn next_draw(&mut self, draw: Option<TileKindId>, played: &mut TileLine) -> Result<NextDraw, StepProblem> {
        let own = self.own_draw()?;
        Ok(match (draw, own) {
            (Some(tile), own) => {
                self.game.check_draw(tile)?;
                if self.game.can_place(tile).is_none() {
                    return Err(StepProblem::FitsNowhere);
                }
                played.draw = (own != Some(tile)).then_some(tile);
                NextDraw::Drawn(tile)
            }
            (None, Some(tile)) => NextDraw::Drawn(tile),
            (None, None) if tiles_to_draw(&self.game).next().is_some() => NextDraw::Choose,
            (None, None) => NextDraw::Over,
        })
    }

    /// The game's own next tile while the line follows the game, after the tiles the game set
    /// aside before it; `None` once the line has left the game or the record ends.
    fn own_draw(&mut self) -> Result<Option<TileKindId>, StepProblem> {
        let Some(ahead) = self.ahead.as_mut() else {
            return Ok(None);
        };
        while let Some(&&m @ RecordedMove::Discard { tile, .. }) = ahead.peek() {
            self.game.draw(tile)?;
            self.game.discard(tile, &mut self.pending)?;
            self.moves.push(m);
            ahead.next();
        }
        Ok(ahead.peek().map(|m| m.tile()))
    }

    /// Plays `step`, whose tile is the game's `own` unless it names another, and says how it
    /// is written: with its tile unless that is the game's own draw.
    fn play(&mut self, step: &TileStep, own: Option<TileKindId>) -> Result<(TileStep, RecordedMove), StepProblem> {
        let tile = step.tile.or(own).ok_or(StepProblem::TileNeeded)?;
        self.game.draw(tile)?;
        let placement = step.placement;
        let action = step.action.resolve(&self.game, tile, placement).map_err(|meeple| {
            // The first rule a move breaks is the one named, as a player makes the move.
            self.game.check_geometry(tile, placement).err().unwrap_or(meeple)
        })?;
        let mv = Move {
            tile,
            placement,
            action,
        };
        let written = recorded(&self.game, &mv);
        let game_move = self.ahead.as_mut().and_then(|a| a.peek().copied()).copied();
        let follows = game_move.is_some_and(|m| self.same_move(&m, &mv));
        let player = self.game.current_player();
        let mut events = std::mem::take(&mut self.pending);
        Position::play(&mut self.game, &Played::Place(mv), &mut events)?;
        let turn = self.turns.len() as u32 + 1;
        self.turns.push(super::snapshot(&self.game, turn, player, &mv, events));
        let RecordedMove::Place { action, .. } = written else {
            unreachable!("a placement is written as one")
        };
        let step = TileStep {
            tile: (own != Some(tile)).then_some(tile),
            placement,
            action,
        };
        if follows {
            self.moves.extend(game_move);
            self.ahead.as_mut().map(Iterator::next);
        } else {
            self.ahead = None;
            self.moves.push(written);
        }
        Ok((step, written))
    }

    /// Whether the game's move `m` is `mv` on the position now (a meeple the record addresses
    /// by another place on the same feature is the same move).
    fn same_move(&self, m: &RecordedMove, mv: &Move) -> bool {
        match *m {
            RecordedMove::Place {
                tile,
                placement,
                action,
                ..
            } => {
                tile == mv.tile
                    && placement == mv.placement
                    && action
                        .resolve(&self.game, tile, placement)
                        .is_ok_and(|a| a == mv.action)
            }
            RecordedMove::Discard { .. } => false,
        }
    }
}

/// Plays `line` from the position before the `from`-th action of `record`, replaying the record
/// to it; the line keeps who made each of its moves.
pub fn explore_cards(
    record: &Record<CardGame>,
    from: u32,
    line: &Line<CardMove>,
) -> Result<Explore<Line<CardMove>, CardGame, Vec<u8>>, ExploreError> {
    check_from(record.moves.len() as u32, from)?;
    let broken = |e: super::cards::Refusal| ExploreError::Record(e.describe(record));
    let start = super::cards::position_at(record, from as usize - 1).map_err(broken)?;
    explore_cards_from(record, &start, from, line)
}

/// Plays `line` from `start`, the position the `from`-th action of `record` is played from (a
/// loaded game's kept position): the record is not replayed.
pub fn explore_cards_from(
    record: &Record<CardGame>,
    start: &CardGame,
    from: u32,
    line: &Line<CardMove>,
) -> Result<Explore<Line<CardMove>, CardGame, Vec<u8>>, ExploreError> {
    check_from(record.moves.len() as u32, from)?;
    let broken = |e: super::cards::Refusal| ExploreError::Record(e.describe(record));
    let deals = Deals::of(record).map_err(broken)?;
    let mut game = start.clone();
    let own = &record.moves[from as usize - 1..];
    let (mut followed, mut players) = (0, Vec::new());
    for (i, mv) in line.steps.iter().enumerate() {
        let fail = |game: &CardGame, problem| card_fault(game, i, from, problem);
        deals.deal(&mut game).map_err(|e| fail(&game, e))?;
        if game.is_over() {
            return Err(fail(&game, StepProblem::Over));
        }
        players.push(Position::current_player(&game));
        Position::play(&mut game, mv, &mut Vec::new()).map_err(|e| fail(&game, e.into()))?;
        followed += usize::from(followed == i && own.get(i).is_some_and(|m| m.mv == *mv));
    }
    if game.is_over() {
        game.finish(&mut Vec::new());
    } else {
        let after = line.steps.len();
        deals.deal(&mut game).map_err(|e| card_fault(&game, after, from, e))?;
    }
    Ok(Explore {
        line: line.clone(),
        followed,
        game,
        facts: players,
    })
}

/// Step `i` (from 0) of a Card Game line from turn `from` breaks a rule.
fn card_fault(game: &CardGame, i: usize, from: u32, problem: StepProblem) -> ExploreError {
    ExploreError::Step {
        step: i + 1,
        turn: from + i as u32,
        player: Position::current_player(game),
        problem,
    }
}

/// A Card Game's deals as its record has them: each round's hands are read from the round's
/// first action on.
struct Deals<'r> {
    record: &'r Record<CardGame>,
    /// Where each round's first action is in the record.
    starts: Vec<usize>,
}

impl<'r> Deals<'r> {
    fn of(record: &'r Record<CardGame>) -> Result<Deals<'r>, super::cards::Refusal> {
        let whole = super::cards::replay(record)?;
        let starts = (whole.turns.iter())
            .filter(|t| super::cards::opens_round(t).is_some())
            .map(|t| t.turn as usize - 1)
            .collect();
        Ok(Deals { record, starts })
    }

    /// Deals the round due, if one is, from the record's hands of that round (past the
    /// record's end, from the cards unseen, as a record that stops inside a round is dealt).
    fn deal(&self, game: &mut CardGame) -> Result<(), StepProblem> {
        if !game.deal_due() {
            return Ok(());
        }
        let at = (self.starts.get(usize::from(game.round())).copied()).unwrap_or(self.record.moves.len());
        let hands = self.record.hands_from(game, at).map_err(StepProblem::Deal)?;
        Ok(game.apply_chance(hands, &mut Vec::new())?)
    }
}
