//! The one walker: steps any game of the family through what a record says, chance included.
//!
//! A record says what happened, in order: chance's steps (the tile drawn, the cards dealt)
//! and the players' moves. A [`Script`] reads them off a record, on the position each is
//! played on, since a record may name a move in words only a position resolves (a meeple
//! addressed by a place on its tile). The [`Walker`] plays them through the game's
//! [`Position`], checks that each move is made by the player the record names, and stops at
//! the first step that breaks a rule, with an [`IllegalTurn`]: the turn, the player, the step
//! as the record wrote it, and the game's own reason, as data. Words for people come from
//! the record's side, which knows the names.
//!
//! Replay, analysis, the exports and the `.jcz` import's discard inference all walk records
//! through here, so a record means the same thing everywhere.

use super::position::Position;
use std::fmt;

/// A step as a record states it, read on the position it is played on.
#[derive(Clone, Debug)]
pub enum Scripted<P: Position> {
    /// Chance acts: the tile drawn, the hands dealt.
    Chance(P::Chance),
    /// The player to move moves, stating what the move alone does not say; the record may
    /// name who moves, which is checked against turn order.
    Move {
        named: Option<u8>,
        mv: P::Move,
        stated: P::Stated,
    },
}

/// Why a step of a record cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault<I, F> {
    /// The game's rules forbid it.
    Rule(I),
    /// The record names another player than the one whose turn it is.
    NotTheirTurn { named: u8 },
    /// The record says something no game could hold, beside the rules: a `.jcz` meeple on
    /// another square than its tile, a Card Game round whose actions no hands could play.
    Record(F),
}

impl<I, F> Fault<I, F> {
    /// The same fault, with what the record got wrong put another way.
    pub fn map_record<G>(self, f: impl FnOnce(F) -> G) -> Fault<I, G> {
        match self {
            Fault::Rule(e) => Fault::Rule(e),
            Fault::NotTheirTurn { named } => Fault::NotTheirTurn { named },
            Fault::Record(e) => Fault::Record(f(e)),
        }
    }
}

impl<I: fmt::Display, F: fmt::Display> fmt::Display for Fault<I, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Rule(e) => write!(f, "{e}"),
            Fault::NotTheirTurn { named } => write!(f, "the record names player {named}, whose turn it is not"),
            Fault::Record(e) => write!(f, "{e}"),
        }
    }
}

/// What a record says happens, step by step.
pub trait Script<P: Position> {
    /// A step as the record writes it, kept to name it in an error.
    type Written: Clone + fmt::Debug;
    /// What the record itself may get wrong, beside the rules.
    type Fault: Clone + fmt::Debug + fmt::Display;

    /// How many moves the record writes. (Chance's steps belong to the move they come
    /// before.)
    fn moves(&self) -> usize;

    /// The record's move `index` as written (`index < moves()`), to name it in an error.
    fn written(&self, index: usize) -> Self::Written;

    /// What happens next on `game`, at the record's move `index`: chance's step when the
    /// game waits for one ([`Position::chance_due`]), else the move.
    fn read(&self, index: usize, game: &P) -> Result<Scripted<P>, Fault<P::Illegal, Self::Fault>>;
}

/// A step that was played: where it is in the record, the turn it belongs to, whose it was,
/// and what it was. (What chance did and what a player stated are in the position and its
/// events; a step keeps only what the callers match on, since it is moved on every step.)
#[derive(Clone, Debug)]
pub struct Step<P: Position> {
    /// The record's move it belongs to (a chance step: the move it comes before).
    pub index: usize,
    /// Turns ended before it, plus one: the turn it belongs to.
    pub turn: u32,
    /// The player to move when it was played.
    pub player: u8,
    pub played: Stepped<P::Move>,
}

/// What kind of step was played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stepped<M> {
    /// Chance acted.
    Chance,
    /// This move was played.
    Move(M),
}

/// A move that was played, as [`Walker::next_move`] plays them.
#[derive(Clone, Debug)]
pub struct Moved<P: Position> {
    pub index: usize,
    pub turn: u32,
    pub player: u8,
    pub mv: P::Move,
}

/// An illegal step: the turn, the player, the step as written and why, as data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalTurn<W, I, F> {
    /// Turns ended before it, plus one.
    pub turn: u32,
    /// The record's move it belongs to.
    pub index: usize,
    /// The player whose turn it was.
    pub player: u8,
    pub written: W,
    pub fault: Fault<I, F>,
}

impl<W, I: fmt::Display, F: fmt::Display> fmt::Display for IllegalTurn<W, I, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "turn {} (player {}): {}", self.turn, self.player, self.fault)
    }
}

/// The illegal step a walk of `P` through `S` may meet.
pub type Illegal<P, S> = IllegalTurn<<S as Script<P>>::Written, <P as Position>::Illegal, <S as Script<P>>::Fault>;

/// Why a step of a walk of `P` through `S` cannot be played.
type StepFault<P, S> = Fault<<P as Position>::Illegal, <S as Script<P>>::Fault>;

/// What a step of a walk of `P` through `S` gives: `T`, or the illegal step it met.
pub type Walked<T, P, S> = Result<T, Box<Illegal<P, S>>>;

/// A record being stepped through its game.
#[derive(Clone, Debug)]
pub struct Walker<P: Position, S> {
    game: P,
    script: S,
    index: usize,
    turns: u32,
    events: Vec<P::Event>,
    /// Whether the last step played was a move: the next step starts a new move's events.
    moved: bool,
}

impl<P: Position, S: Script<P>> Walker<P, S> {
    /// Starts a walk of `script` from `game`, the record's start position.
    pub fn new(game: P, script: S) -> Walker<P, S> {
        Walker {
            game,
            script,
            index: 0,
            turns: 0,
            events: Vec::with_capacity(16),
            moved: true,
        }
    }

    /// The position now.
    pub fn game(&self) -> &P {
        &self.game
    }

    pub fn into_game(self) -> P {
        self.game
    }

    pub fn script(&self) -> &S {
        &self.script
    }

    /// Whether the record has a move left.
    fn has_more(&self) -> bool {
        self.index < self.script.moves()
    }

    /// The index of the record's next move.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Turns ended so far.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// What the steps since the last move did (chance's steps and the move).
    pub fn events(&self) -> &[P::Event] {
        &self.events
    }

    pub fn take_events(&mut self) -> Vec<P::Event> {
        std::mem::take(&mut self.events)
    }

    /// Events for the game's own use (a step the record does not write, played by the
    /// record's reader): cleared, and handed out.
    pub fn game_and_events(&mut self) -> (&mut P, &mut Vec<P::Event>) {
        self.events.clear();
        self.moved = true;
        (&mut self.game, &mut self.events)
    }

    /// Plays the record's next step: chance's, or a move. `None` once the record is done; an
    /// illegal step is an error, and the walk should not go on after it.
    pub fn step(&mut self) -> Option<Walked<Step<P>, P, S>> {
        if !self.has_more() {
            return None;
        }
        // Chance's events stay with the move they come before.
        if self.moved {
            self.events.clear();
        }
        let (index, turn, player) = (self.index, self.turns + 1, self.game.current_player());
        let played = (self.script.read(index, &self.game)).and_then(|scripted| self.play(scripted));
        Some(match played {
            Ok(played) => {
                self.moved = matches!(played, Stepped::Move(_));
                if let Stepped::Move(mv) = &played {
                    self.index += 1;
                    if P::ends_turn(mv) {
                        self.turns += 1;
                    }
                }
                Ok(Step {
                    index,
                    turn,
                    player,
                    played,
                })
            }
            Err(fault) => Err(self.illegal(fault)),
        })
    }

    /// Plays chance's steps, if any are due, and the next move: the move, its events
    /// (chance's included) in [`Walker::events`].
    pub fn next_move(&mut self) -> Option<Walked<Moved<P>, P, S>> {
        loop {
            let step = match self.step()? {
                Ok(step) => step,
                Err(e) => return Some(Err(e)),
            };
            if let Stepped::Move(mv) = step.played {
                return Some(Ok(Moved {
                    index: step.index,
                    turn: step.turn,
                    player: step.player,
                    mv,
                }));
            }
        }
    }

    /// Plays chance's steps due before the record's next move, so that the position is the
    /// one its player moves in (the Card Game's next round dealt).
    pub fn settle(&mut self) -> Walked<(), P, S> {
        while self.game.chance_due() && self.has_more() {
            if let Some(Err(e)) = self.step() {
                return Err(e);
            }
        }
        Ok(())
    }

    fn play(&mut self, scripted: Scripted<P>) -> Result<Stepped<P::Move>, StepFault<P, S>> {
        match scripted {
            Scripted::Chance(chance) => {
                (self.game.apply_chance(chance, &mut self.events)).map_err(Fault::Rule)?;
                Ok(Stepped::Chance)
            }
            Scripted::Move { named, mv, stated } => {
                let current = self.game.current_player();
                if let Some(named) = named.filter(|n| *n != current) {
                    return Err(Fault::NotTheirTurn { named });
                }
                (self.game.play_stating(&mv, stated, &mut self.events)).map_err(Fault::Rule)?;
                Ok(Stepped::Move(mv))
            }
        }
    }

    fn illegal(&self, fault: Fault<P::Illegal, S::Fault>) -> Box<Illegal<P, S>> {
        Box::new(IllegalTurn {
            turn: self.turns + 1,
            index: self.index,
            player: self.game.current_player(),
            written: self.script.written(self.index),
            fault,
        })
    }
}
