//! A tile game's record as the engine's walker reads it ([`crate::engine::walk`]): each
//! recorded move is a draw of its tile, then the tile placed with its meeple step, or set
//! aside. [`Walk`] steps a record through it a move at a time, draws included.
//!
//! Replay, analysis, the `.jcz` export, the `.jcz` import's discard inference and the tests all
//! walk records with it, so a record means the same thing everywhere. Before each
//! [`Walk::step`], [`Walk::game`] is the position the next move is played on; after it,
//! [`Walk::events`] holds what that move did.
//!
//! An illegal move stops the walk with an [`IllegalTurn`]: the turn, the player, the move and
//! the rule broken, as data. [`IllegalTurn::describe`] puts it in words with the record's
//! names; only the edges (the command line, the service) do.

use super::{GameRecord, RecordedAction, RecordedMove};
use crate::engine::walk::{self, Scripted, Walker};
use crate::engine::{
    Action, Event, Game, IllegalMove, Move, Placement, Played, Pos, Rules, Setup, SetupError, TileKindId,
};
use std::fmt;

/// One move of a walk: where it is in the record, the turn it belongs to, who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Index of the move in `GameRecord::moves`.
    pub index: usize,
    /// Placed tiles so far, this one included. A discard belongs to the turn it precedes.
    pub turn: u32,
    pub player: u8,
    pub played: Played,
}

/// What a tile record may get wrong beside the rules: a `.jcz` can put the turn's meeple on
/// another square than the tile just placed; our own records cannot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeepleElsewhere {
    pub square: Pos,
}

impl fmt::Display for MeepleElsewhere {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the meeple goes to {}, not on the tile just placed", self.square)
    }
}

/// Why a record's move cannot be played.
pub type Fault = walk::Fault<IllegalMove, MeepleElsewhere>;

/// An illegal move: the turn, the player, the move as recorded and the rule broken.
pub type IllegalTurn = walk::IllegalTurn<RecordedMove, IllegalMove, MeepleElsewhere>;

/// Why a record cannot be replayed, in any game: its setup (`S`), or an illegal step (`T`,
/// naming the turn, the player, the move and the rule). Without parameters, the tile game's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError<S = SetupError, T = IllegalTurn> {
    #[error("setup: {0}")]
    Setup(S),
    #[error("{0}")]
    Illegal(Box<T>),
}

impl From<SetupError> for ReplayError {
    fn from(e: SetupError) -> ReplayError {
        ReplayError::Setup(e)
    }
}

impl ReplayError {
    pub fn turn(&self) -> Option<u32> {
        match self {
            ReplayError::Illegal(t) => Some(t.turn),
            ReplayError::Setup(_) => None,
        }
    }

    /// The error in words, with the record's player and tile names.
    pub fn describe(&self, record: &GameRecord) -> String {
        match self {
            ReplayError::Illegal(t) => t.describe(record),
            ReplayError::Setup(e) => format!("setup: {e}"),
        }
    }
}

impl IllegalTurn {
    /// A meeple an importer read on another square than the tile of move `index`, played
    /// by `player` as turn `turn`.
    pub fn meeple_elsewhere(record: &GameRecord, index: usize, turn: u32, player: u8, square: Pos) -> IllegalTurn {
        IllegalTurn {
            turn,
            index,
            player,
            written: record.moves[index],
            fault: Fault::Record(MeepleElsewhere { square }),
        }
    }

    /// "turn 2 (Bob): tile U at (0,1) rotated 0: its north edge (road) meets …".
    pub fn describe(&self, record: &GameRecord) -> String {
        format!(
            "turn {} ({}): {}: {}",
            self.turn,
            self.player_name(record),
            self.move_text(record),
            self.reason(record)
        )
    }

    pub fn player_name<'r>(&self, record: &'r GameRecord) -> &'r str {
        name_of(record, self.player)
    }

    /// The move in words: "tile U at (0,1) rotated 90 with a meeple on the road at E".
    pub fn move_text(&self, record: &GameRecord) -> String {
        move_text(record, &self.written)
    }

    /// The rule broken, in words.
    pub fn reason(&self, record: &GameRecord) -> String {
        match &self.fault {
            Fault::Rule(e) => e.to_string(),
            Fault::NotTheirTurn { named } => format!(
                "the record says {} moves, but it is {}'s turn",
                name_of(record, *named),
                name_of(record, self.player)
            ),
            Fault::Record(MeepleElsewhere { square }) => match self.written {
                RecordedMove::Place { placement, .. } => format!(
                    "a meeple goes only on the tile just placed, at {}, but this one goes to {square}",
                    placement.pos
                ),
                RecordedMove::Discard { .. } => format!("a meeple goes to {square}, but no tile was placed"),
            },
        }
    }
}

fn name_of(record: &GameRecord, p: u8) -> &str {
    record
        .players
        .get(p as usize)
        .map_or("an unknown player", |p| p.name.as_str())
}

pub fn move_text(record: &GameRecord, m: &RecordedMove) -> String {
    use super::RecordedAction;
    let cat = &record.setup.catalog;
    match m {
        RecordedMove::Discard { tile, .. } => format!("discarding tile {}", cat.name(*tile)),
        RecordedMove::Place {
            tile,
            placement,
            action,
            ..
        } => {
            let placed = format!(
                "tile {} at {} rotated {}",
                cat.name(*tile),
                placement.pos,
                placement.rotation
            );
            match action {
                RecordedAction::Pass => placed,
                RecordedAction::RecallAbbot => format!("{placed}, recalling the abbot"),
                RecordedAction::Deploy { feature, at, figure } => {
                    let (word, article) = (figure.word(), if figure.word().starts_with('a') { "an" } else { "a" });
                    format!("{placed} with {article} {word} on the {feature} at {at}")
                }
            }
        }
    }
}

/// A tile record's moves as the engine's walker reads them: a draw of each move's tile, then
/// the move, resolved on the position (a meeple addressed by place becomes a segment).
impl walk::Script<Game> for &GameRecord {
    type Written = RecordedMove;
    type Fault = MeepleElsewhere;

    fn moves(&self) -> usize {
        self.moves.len()
    }

    fn written(&self, index: usize) -> RecordedMove {
        self.moves[index]
    }

    // Inlined into the walker's step: returned through memory, the scripted move costs the
    // replay a fifth of its time (measured with `bench`, replay of a 71-move record).
    #[inline]
    fn read(&self, index: usize, game: &Game) -> Result<Scripted<Game>, Fault> {
        let m = &self.moves[index];
        if game.drawn().is_none() {
            // The player is checked first: a move the record gives the wrong player is that
            // fault, whatever else is wrong with it.
            check_player(m, game)?;
            return Ok(Scripted::Chance(m.tile()));
        }
        Ok(Scripted::Move {
            named: recorded_player(m),
            mv: resolve(m, game)?,
            stated: self.setup.score_orders.get(&index).cloned().unwrap_or_default(),
        })
    }
}

/// The engine's move for a recorded one: its meeple, addressed by place, found on `game`.
fn resolve(m: &RecordedMove, game: &Game) -> Result<Played, Fault> {
    Ok(match *m {
        RecordedMove::Discard { tile, .. } => Played::Discard(tile),
        RecordedMove::Place {
            tile,
            placement,
            action,
            ..
        } => Played::Place(Move {
            tile,
            placement,
            action: resolve_action(game, tile, placement, action)?,
        }),
    })
}

fn recorded_player(m: &RecordedMove) -> Option<u8> {
    match m {
        RecordedMove::Place { player, .. } | RecordedMove::Discard { player, .. } => *player,
    }
}

fn check_player(m: &RecordedMove, game: &Game) -> Result<(), Fault> {
    match recorded_player(m).filter(|p| *p != game.current_player()) {
        Some(named) => Err(Fault::NotTheirTurn { named }),
        None => Ok(()),
    }
}

/// The meeple step in the engine's terms. A meeple the tile cannot take is reported only if
/// the tile may be drawn and placed there: the first rule a move breaks is the one named, as a
/// player makes the move.
fn resolve_action(
    game: &Game,
    tile: TileKindId,
    placement: Placement,
    action: RecordedAction,
) -> Result<Action, Fault> {
    action.resolve(game, tile, placement).map_err(|meeple| {
        let placed = (game.check_draw(tile)).and_then(|()| game.check_geometry(tile, placement));
        Fault::Rule(placed.err().unwrap_or(meeple))
    })
}

/// A record being stepped through the engine, a move (with its draw) at a time.
pub struct Walk<'r> {
    walker: Walker<Game, &'r GameRecord>,
}

impl<'r> Walk<'r> {
    /// Starts a walk at the record's start position, under its own rules.
    pub fn new(record: &'r GameRecord) -> Result<Walk<'r>, ReplayError> {
        Walk::with_rules(record, record.resolved_rules())
    }

    /// Starts a walk under other rules (the same moves under another rulebook).
    pub fn with_rules(record: &'r GameRecord, rules: Rules) -> Result<Walk<'r>, ReplayError> {
        let game = Game::new(Setup {
            rules,
            ..record.setup()
        })?;
        Ok(Walk {
            walker: Walker::new(game, record),
        })
    }

    /// The position now: before the next move.
    pub fn game(&self) -> &Game {
        self.walker.game()
    }

    pub fn into_game(self) -> Game {
        self.walker.into_game()
    }

    /// The next recorded move, if any.
    pub fn peek(&self) -> Option<&'r RecordedMove> {
        self.walker.script().moves.get(self.walker.index())
    }

    /// The index in `GameRecord::moves` of the next move.
    pub fn index(&self) -> usize {
        self.walker.index()
    }

    /// Tiles placed so far.
    pub fn placed(&self) -> u32 {
        self.walker.turns()
    }

    /// What the last step did: a discard, or a placement with its meeple step, scoring and
    /// returns.
    pub fn events(&self) -> &[Event] {
        self.walker.events()
    }

    pub fn take_events(&mut self) -> Vec<Event> {
        self.walker.take_events()
    }

    /// The next move as the engine would play it, checked against turn order and resolved
    /// (a meeple addressed by place becomes a segment), without playing it.
    pub fn peek_played(&self) -> Option<Result<Played, ReplayError>> {
        let m = self.peek()?;
        let game = self.game();
        let resolved = check_player(m, game).and_then(|()| resolve(m, game));
        Some(resolved.map_err(|fault| {
            ReplayError::Illegal(Box::new(IllegalTurn {
                turn: self.placed() + 1,
                index: self.index(),
                player: game.current_player(),
                written: *m,
                fault,
            }))
        }))
    }

    /// Plays the next move, its tile drawn first. `None` once the record is done; an illegal
    /// move is an error, and the walk should not go on after it.
    pub fn step(&mut self) -> Option<Result<Step, ReplayError>> {
        Some(match self.walker.next_move()? {
            Ok(moved) => Ok(Step {
                index: moved.index,
                turn: moved.turn,
                player: moved.player,
                played: moved.mv,
            }),
            Err(illegal) => Err(ReplayError::Illegal(illegal)),
        })
    }

    /// Sets aside a drawn tile the record does not list (the `.jcz` import infers discards
    /// this way). It must have no legal placement.
    pub fn discard_unrecorded(&mut self, tile: TileKindId) -> Result<(), IllegalMove> {
        let (game, events) = self.walker.game_and_events();
        game.check_draw(tile)?;
        game.discard(tile, events)
    }
}

/// The record's form of a move about to be played on `game`.
pub fn recorded(game: &Game, mv: &Move) -> RecordedMove {
    let action = match mv.action {
        Action::Pass => RecordedAction::Pass,
        Action::RecallAbbot => RecordedAction::RecallAbbot,
        Action::Deploy { segment, figure } => {
            let kind = game.tile_kind(mv.tile);
            RecordedAction::Deploy {
                feature: kind.segments[segment as usize].kind,
                at: kind.location_of(mv.placement.rotation, segment),
                figure,
            }
        }
    };
    RecordedMove::Place {
        player: Some(game.current_player()),
        tile: mv.tile,
        placement: mv.placement,
        action,
    }
}
