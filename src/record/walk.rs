//! The one walker: steps a record through the engine, move by move.
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
use crate::engine::{
    Action, Event, Game, IllegalMove, Move, Placement, Played, Pos, Position, Rules, Setup, SetupError, TileKindId,
};
use std::fmt;

/// One step of a walk: the move, where it is in the record, and who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Index of the move in `GameRecord::moves`.
    pub index: usize,
    /// Placed tiles so far, this one included. A discard belongs to the turn it precedes.
    pub turn: u32,
    pub player: u8,
    pub played: Played,
}

/// Why a record's move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The rules forbid it.
    Rule(IllegalMove),
    /// The record names another player than the one whose turn it is.
    NotTheirTurn { named: u8 },
    /// The record puts the turn's meeple on another square than the tile just placed (a
    /// `.jcz` can say so; our own records cannot).
    MeepleElsewhere { square: Pos },
}

/// An illegal move: the turn, the player, the move and the rule broken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalTurn {
    /// Placed tiles before it, plus one.
    pub turn: u32,
    /// Index of the move in `GameRecord::moves`.
    pub index: usize,
    /// The player whose turn it was.
    pub player: u8,
    pub mv: RecordedMove,
    pub fault: Fault,
}

/// Why a record cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("setup: {0}")]
    Setup(#[from] SetupError),
    #[error("{0}")]
    Illegal(Box<IllegalTurn>),
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

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Rule(e) => write!(f, "{e}"),
            Fault::NotTheirTurn { named } => write!(f, "the record names player {named}, whose turn it is not"),
            Fault::MeepleElsewhere { square } => write!(f, "the meeple goes to {square}, not on the tile just placed"),
        }
    }
}

impl fmt::Display for IllegalTurn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "turn {} (player {}): {}", self.turn, self.player, self.fault)
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
            mv: record.moves[index],
            fault: Fault::MeepleElsewhere { square },
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
        move_text(record, &self.mv)
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
            Fault::MeepleElsewhere { square } => match self.mv {
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
    let cat = &record.catalog;
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

/// A record being stepped through the engine.
pub struct Walk<'r> {
    record: &'r GameRecord,
    game: Game,
    next: usize,
    placed: u32,
    events: Vec<Event>,
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
            record,
            game,
            next: 0,
            placed: 0,
            events: Vec::with_capacity(16),
        })
    }

    /// The position now: before the next move.
    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn into_game(self) -> Game {
        self.game
    }

    /// The next recorded move, if any.
    pub fn peek(&self) -> Option<&'r RecordedMove> {
        self.record.moves.get(self.next)
    }

    /// The index in `GameRecord::moves` of the next move.
    pub fn index(&self) -> usize {
        self.next
    }

    /// Tiles placed so far.
    pub fn placed(&self) -> u32 {
        self.placed
    }

    /// What the last step did: a discard, or a placement with its meeple step, scoring and
    /// returns.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// The next move as the engine would play it, checked against turn order and resolved
    /// (a meeple addressed by place becomes a segment), without playing it.
    pub fn peek_played(&self) -> Option<Result<Played, ReplayError>> {
        let m = self.peek()?;
        Some(self.resolve(m).map_err(|fault| self.illegal(m, fault)))
    }

    /// Plays the next move. `None` once the record is done; an illegal move is an error, and
    /// the walk should not go on after it.
    pub fn step(&mut self) -> Option<Result<Step, ReplayError>> {
        let m = self.peek()?;
        let player = self.game.current_player();
        self.events.clear();
        let played = self
            .resolve(m)
            .and_then(|played| self.apply(played).map_err(Fault::Rule).map(|()| played));
        Some(match played {
            Ok(played) => {
                let index = self.next;
                self.next += 1;
                if matches!(played, Played::Place(_)) {
                    self.placed += 1;
                }
                Ok(Step {
                    index,
                    turn: self.placed + u32::from(matches!(played, Played::Discard(_))),
                    player,
                    played,
                })
            }
            Err(fault) => Err(self.illegal(m, fault)),
        })
    }

    /// Sets aside a drawn tile the record does not list (the `.jcz` import infers discards
    /// this way). It must have no legal placement.
    pub fn discard_unrecorded(&mut self, tile: TileKindId) -> Result<(), IllegalMove> {
        self.events.clear();
        self.game.discard(tile, &mut self.events)
    }

    fn resolve(&self, m: &RecordedMove) -> Result<Played, Fault> {
        let current = self.game.current_player();
        let named = match m {
            RecordedMove::Place { player, .. } | RecordedMove::Discard { player, .. } => *player,
        };
        if let Some(named) = named.filter(|p| *p != current) {
            return Err(Fault::NotTheirTurn { named });
        }
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
                action: self.resolve_action(tile, placement, action)?,
            }),
        })
    }

    /// The meeple step in the engine's terms. A meeple the tile cannot take is reported only
    /// if the tile may be drawn and placed there: the first rule a move breaks is the one
    /// named, as a player makes the move.
    fn resolve_action(&self, tile: TileKindId, placement: Placement, action: RecordedAction) -> Result<Action, Fault> {
        action.resolve(&self.game, tile, placement).map_err(|meeple| {
            let placed = (self.game.check_draw(tile)).and_then(|()| self.game.check_geometry(tile, placement));
            Fault::Rule(placed.err().unwrap_or(meeple))
        })
    }

    fn apply(&mut self, played: Played) -> Result<(), IllegalMove> {
        if let Some(order) = self.record.score_orders.get(&self.next) {
            self.game.choose_score_order(order.clone());
        }
        Position::play(&mut self.game, &played, &mut self.events)
    }

    fn illegal(&self, m: &RecordedMove, fault: Fault) -> ReplayError {
        ReplayError::Illegal(Box::new(IllegalTurn {
            turn: self.placed + 1,
            index: self.next,
            player: self.game.current_player(),
            mv: *m,
            fault,
        }))
    }
}
