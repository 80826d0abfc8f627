//! A Card Game record through the engine: one turn per action, each round dealt from the
//! hands its actions show, the breakdown by category, and the JSON and table forms.

use super::ReplayError;
use super::json::Document;
use super::positions::{Keeper, Watch};
use super::{Breakdown, Replay, Replayed, Turn};
use crate::engine::cards::{CardCategory, CardEvent, CardGame, CardIllegal, CardMove, CardSetupError, Colour};
use crate::engine::{Fault, IllegalTurn, Position, Stepped, Walker};
use crate::record::Record;
use crate::record::cards::{DealFault, DealProblem, RecordedCardMove};
use std::fmt::Write as _;

/// Why a Card Game record does not replay: its setup, or an illegal step
/// ([`IllegalAction`]); [`ReplayError::describe`] puts it in the record's words.
pub type Refusal = ReplayError<CardSetupError, IllegalAction>;

impl From<CardSetupError> for Refusal {
    fn from(e: CardSetupError) -> Refusal {
        ReplayError::Setup(e)
    }
}

/// An illegal step of a Card Game record: the round, the turn in it, the move, the player and
/// the fault, as data.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("round {round}, turn {turn} (move {index}, player {player}): {fault}")]
pub struct IllegalAction {
    pub round: u8,
    /// The turn in its round, from 1.
    pub turn: usize,
    /// The move, from 1.
    pub index: usize,
    /// Whose move it is.
    pub player: u8,
    /// Why it cannot be played: a rule, another player named, or a round whose actions no
    /// dealt hands could play.
    pub fault: Fault<CardIllegal, DealProblem>,
}

impl IllegalAction {
    /// The refusal of an illegal step the walker met, in the round under way (which began at
    /// move `round_start`). A round whose actions no hands could play names the action at fault.
    fn refusal(
        game: &CardGame,
        round_start: usize,
        e: IllegalTurn<RecordedCardMove, CardIllegal, DealFault>,
    ) -> Refusal {
        let round = game.round() + 1;
        let (turn, index, player) = match &e.fault {
            Fault::Record(f) => (f.offset + 1, e.index + f.offset + 1, f.player),
            Fault::Rule(_) | Fault::NotTheirTurn { .. } => (e.index - round_start + 1, e.index + 1, e.player),
        };
        ReplayError::Illegal(Box::new(IllegalAction {
            round,
            turn,
            index,
            player,
            fault: e.fault.map_record(|f| f.problem),
        }))
    }
}

impl Refusal {
    /// The error in the record's words: "round 2, turn 3 (move 17, Bob): …".
    pub fn describe(&self, record: &Record<CardGame>) -> String {
        match self {
            ReplayError::Setup(_) => self.to_string(),
            ReplayError::Illegal(e) => format!(
                "round {}, turn {} (move {}, {}): {}",
                e.round,
                e.turn,
                e.index,
                name(record, e.player),
                reason(record, &e.fault)
            ),
        }
    }

    /// The rule broken, in the record's words.
    pub fn reason(&self, record: &Record<CardGame>) -> String {
        match self {
            ReplayError::Setup(e) => e.to_string(),
            ReplayError::Illegal(e) => reason(record, &e.fault),
        }
    }
}

fn name(record: &Record<CardGame>, player: u8) -> &str {
    record
        .players
        .get(usize::from(player))
        .map_or("an unknown player", |p| p.name.as_str())
}

/// Replays a Card Game record. Final scoring runs when the last round is over.
pub fn replay(record: &Record<CardGame>) -> Result<Replay<CardGame>, Refusal> {
    Ok(replay_upto(record, None, Deal::Ahead, |_| ())?.0)
}

impl super::Replays for Record<CardGame> {
    type Position = CardGame;
    type Error = Refusal;

    fn replay(&self) -> Result<Replay<CardGame>, Refusal> {
        replay(self)
    }

    fn replay_keeping(&self) -> Result<Replayed<CardGame>, Refusal> {
        let (replay, keeper) = replay_upto(self, None, Deal::Ahead, Keeper::new)?;
        Ok((replay, keeper.finish()))
    }

    fn refusal(&self, e: &Refusal) -> String {
        e.describe(self)
    }
}

/// The position before move `index` (0-based), its round dealt: the hands are the record's,
/// read from the whole round.
pub fn position_at(record: &Record<CardGame>, index: usize) -> Result<CardGame, Refusal> {
    Ok(replay_upto(record, Some(index), Deal::Ahead, |_| ())?.0.game)
}

/// The first `n` moves, and the table as they left it: a round they end is scored, and the
/// next one not dealt yet. This is the table of turn `n`'s page and picture: dealing ahead
/// would show hands before any move of their round, while one of them still holds the card
/// that goes face down (`render::cards`).
pub fn upto(record: &Record<CardGame>, n: usize) -> Result<Replay<CardGame>, Refusal> {
    Ok(replay_upto(record, Some(n), Deal::WithTheNextMove, |_| ())?.0)
}

/// When a round due is dealt, where a replay stops.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Deal {
    /// Before the replay stops: the position is ready for its next move.
    Ahead,
    /// Only when the next move is played.
    WithTheNextMove,
}

/// Replays the record as far as `upto`, telling what `watching` makes of the start about each
/// step.
fn replay_upto<W: Watch<CardGame>>(
    record: &Record<CardGame>,
    upto: Option<usize>,
    deal: Deal,
    watching: impl FnOnce(&CardGame) -> W,
) -> Result<(Replay<CardGame>, W), Refusal> {
    let mut walker = Walker::new(CardGame::new(record.setup())?, record);
    let mut watch = watching(walker.game());
    let mut turns = Vec::with_capacity(record.moves.len());
    let mut round_start = 0;
    loop {
        if upto == Some(walker.index()) {
            if deal == Deal::Ahead {
                let settled = walker.settle();
                settled.map_err(|e| IllegalAction::refusal(walker.game(), walker.index(), *e))?;
            }
            break;
        }
        let step = match walker.step() {
            None => break,
            Some(Ok(step)) => step,
            Some(Err(e)) => return Err(IllegalAction::refusal(walker.game(), round_start, *e)),
        };
        match step.played {
            Stepped::Chance => {
                round_start = step.index;
                watch.between(walker.game());
            }
            Stepped::Move(mv) => {
                turns.push(Turn {
                    turn: step.index as u32 + 1,
                    player: step.player,
                    mv,
                    events: walker.take_events(),
                    scores: Position::scores(walker.game()),
                    supply: Position::supply(walker.game()),
                });
                watch.turn(walker.game());
            }
        }
    }
    let mut game = walker.into_game();
    let finished = upto.is_none() && game.is_over();
    let mut final_events = Vec::new();
    if finished {
        game.finish(&mut final_events);
    }
    let breakdown = breakdown(&game, turns.iter().flat_map(|t| &t.events).chain(&final_events));
    let replay = Replay {
        final_scores: Position::scores(&game),
        turns,
        final_events,
        finished,
        breakdown,
        game,
    };
    Ok((replay, watch))
}

/// A fault in words; an Animal Joker's herd names whose joker it is.
fn reason(record: &Record<CardGame>, fault: &Fault<CardIllegal, DealProblem>) -> String {
    match fault {
        Fault::Rule(e @ (CardIllegal::NoSuchHerd { player, .. } | CardIllegal::NoJokerToAssign { player, .. })) => {
            format!("{}'s Animal Joker: {e}", name(record, *player))
        }
        Fault::Rule(CardIllegal::Over) => "the game is over: the last round has been scored".into(),
        Fault::Rule(e) => e.to_string(),
        Fault::NotTheirTurn { named } => {
            format!("the record names {}, but it is not their turn", name(record, *named))
        }
        Fault::Record(problem) => problem.to_string(),
    }
}

/// Points by category: round scoring in `play`, the city sets in `end`.
fn breakdown<'a>(game: &CardGame, events: impl Iterator<Item = &'a CardEvent>) -> Vec<Breakdown<CardCategory>> {
    let mut out = vec![Breakdown::new(game.categories()); game.players().len()];
    for e in events {
        if let CardEvent::Scored {
            player,
            category,
            points,
            ..
        } = e
        {
            let b = &mut out[*player as usize];
            let part = if *category == CardCategory::CitySets {
                &mut b.end
            } else {
                &mut b.play
            };
            part.add(*category, *points);
        }
    }
    out
}

/// The round a turn opens (1-based), if it opens one.
pub fn opens_round(t: &Turn<CardGame>) -> Option<u8> {
    t.events.iter().find_map(|e| match e {
        CardEvent::Dealt { round, .. } => Some(round + 1),
        _ => None,
    })
}

/// The round each turn belongs to (1-based), in turn order.
pub fn rounds(turns: &[Turn<CardGame>]) -> Vec<u8> {
    let mut round = 1;
    turns
        .iter()
        .map(|t| {
            round = opens_round(t).unwrap_or(round);
            round
        })
        .collect()
}

/// A Card Game move as `replay --json`, the API and the store write it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
#[schema(as = CardMove)]
pub enum MoveJson {
    Play {
        /// Left out where the card went face down and the answer is about the table then
        /// (`GET /api/games/{id}/turns/{n}`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<String>,
        row: String,
    },
    Follower {
        row: String,
    },
    WrongRow {
        keep: bool,
    },
}

impl From<&CardMove> for MoveJson {
    fn from(mv: &CardMove) -> MoveJson {
        match *mv {
            CardMove::Play { card, row } => MoveJson::Play {
                card: Some(card.to_string()),
                row: row.word().into(),
            },
            CardMove::Follower { row } => MoveJson::Follower { row: row.word().into() },
            CardMove::WrongRow { keep } => MoveJson::WrongRow { keep },
        }
    }
}

/// A Card Game event as `replay --json`, the API and the store write it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[schema(as = CardEvent)]
pub enum EventJson {
    Dealt {
        /// From 1.
        round: u8,
        dealer: u8,
    },
    Played {
        player: u8,
        /// Left out of a card played face down where the answer is about the table then
        /// (`GET /api/games/{id}/turns/{n}`): the turn whose follower takes it names it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<String>,
        row: String,
        face_down: bool,
    },
    FollowerPlaced {
        player: u8,
        row: String,
    },
    Took {
        player: u8,
        row: String,
        cards: Vec<String>,
    },
    Scored {
        players: Vec<u8>,
        category: String,
        points: u32,
        explanation: String,
    },
    ChoiceDue {
        player: u8,
        card: String,
    },
    Discarded {
        cards: Vec<String>,
    },
}

impl From<&CardEvent> for EventJson {
    fn from(e: &CardEvent) -> EventJson {
        let names = |cards: &[crate::engine::cards::Card]| cards.iter().map(ToString::to_string).collect();
        match e {
            CardEvent::Dealt { round, dealer } => EventJson::Dealt {
                round: round + 1,
                dealer: *dealer,
            },
            CardEvent::Played {
                player,
                card,
                row,
                face_down,
            } => EventJson::Played {
                player: *player,
                card: Some(card.to_string()),
                row: row.word().into(),
                face_down: *face_down,
            },
            CardEvent::FollowerPlaced { player, row } => EventJson::FollowerPlaced {
                player: *player,
                row: row.word().into(),
            },
            CardEvent::Took { player, row, cards } => EventJson::Took {
                player: *player,
                row: row.word().into(),
                cards: names(cards),
            },
            CardEvent::Scored {
                player,
                category,
                points,
                why,
            } => EventJson::Scored {
                players: vec![*player],
                category: category.word().into(),
                points: *points,
                explanation: why.to_string(),
            },
            CardEvent::ChoiceDue { player, card } => EventJson::ChoiceDue {
                player: *player,
                card: card.to_string(),
            },
            CardEvent::Discarded { cards } => EventJson::Discarded { cards: names(cards) },
        }
    }
}

impl EventJson {
    /// Whether the event names a card that went face down: the table does not show it yet.
    pub fn hides_card(&self) -> bool {
        matches!(self, EventJson::Played { face_down: true, .. })
    }
}

/// Leaves the card played face down, if a turn plays one, out of its action and its events:
/// where the answer is about the table then, or where the record never saw the card.
pub fn hide_face_down(mv: &mut MoveJson, events: &mut [EventJson]) {
    if let Some(EventJson::Played { card, .. }) = events.iter_mut().find(|e| e.hides_card()) {
        *card = None;
        if let MoveJson::Play { card, .. } = mv {
            *card = None;
        }
    }
}

/// A Card Game action, a member of its own (a tile game's move is the turn's members).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[schema(as = CardAction)]
pub struct Action {
    #[serde(rename = "move")]
    pub mv: MoveJson,
}

/// A Card Game turn's supply: the number of cards in each player's hand after it.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema)]
pub struct Hands {
    pub hands: Vec<u8>,
}

/// A Card Game's head: the game's name (always `card-game`), then the players.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema)]
#[schema(as = CardHead)]
pub struct Head {
    pub game: &'static str,
    pub players: Vec<super::json::PlayerName>,
}

/// The `replay --json` document of a Card Game: the same top level as the tile game's.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(transparent)]
#[schema(as = CardReplay)]
pub struct ReplayJson(#[schema(inline)] pub Document<Head, Action, Hands, EventJson>);

/// The `replay --json` document of a Card Game.
pub fn to_json(record: &Record<CardGame>, r: &Replay<CardGame>) -> ReplayJson {
    let events = |events: &[CardEvent]| events.iter().map(EventJson::from).collect::<Vec<EventJson>>();
    ReplayJson(Document {
        head: Head {
            game: crate::engine::GameKind::CardGame.name(),
            players: super::json::PlayerName::all(&record.players),
        },
        turns: (r.turns.iter())
            .map(|t| {
                let (mut mv, mut events) = ((&t.mv).into(), events(&t.events));
                if record.unseen(t.turn as usize - 1) {
                    hide_face_down(&mut mv, &mut events);
                }
                super::json::Turn {
                    turn: t.turn,
                    player: t.player,
                    mv: Action { mv },
                    scores: t.scores.clone(),
                    supply: Hands {
                        hands: t.supply.iter().map(|s| s.hand).collect(),
                    },
                    events,
                }
            })
            .collect(),
        finished: r.finished,
        final_events: events(&r.final_events),
        final_scores: r.final_scores.clone(),
        winners: Some(r.game.winners()),
        breakdown: super::json::breakdowns(&r.breakdown),
    })
}

/// The action a report names in words ([`move_text`]), whatever the position: the words name
/// one action of the whole game. `None` for words no action has.
pub fn action_named(words: &str) -> Option<CardMove> {
    static BY_WORDS: std::sync::LazyLock<std::collections::HashMap<String, CardMove>> =
        std::sync::LazyLock::new(|| {
            let mut cards = crate::engine::cards::deck();
            cards.dedup();
            let plays = cards
                .into_iter()
                .flat_map(|card| Colour::ALL.map(|row| CardMove::Play { card, row }));
            let followers = Colour::ALL.map(|row| CardMove::Follower { row });
            let wrong_rows = [true, false].map(|keep| CardMove::WrongRow { keep });
            (plays.chain(followers).chain(wrong_rows))
                .map(|mv| (move_text(&mv), mv))
                .collect()
        });
    BY_WORDS.get(words).copied()
}

/// A move in brief: "red 3 → road row".
pub fn move_text(mv: &CardMove) -> String {
    match *mv {
        CardMove::Play { card, row } => format!("{card} → {} row", row.word()),
        CardMove::Follower { row } => format!("follower → {} row", row.word()),
        CardMove::WrongRow { keep: true } => "keeps the wrongly placed card".into(),
        CardMove::WrongRow { keep: false } => "turns the card in for 10".into(),
    }
}

/// The `replay` table of a Card Game: one row per action, the round scoring under it, the end.
pub fn table(record: &Record<CardGame>, r: &Replay<CardGame>) -> String {
    let name = |p: u8| record.players[p as usize].name.as_str();
    let mut out = String::new();
    writeln!(out, "{:>4}  {:<12} {:<28} scores", "turn", "player", "action").unwrap();
    for t in &r.turns {
        let action = match t.mv {
            CardMove::Play { row, .. } if record.unseen(t.turn as usize - 1) => {
                format!("{} → {} row", crate::record::cards::UNSEEN, row.word())
            }
            _ => move_text(&t.mv),
        };
        let scores: Vec<String> = t.scores.iter().map(i32::to_string).collect();
        writeln!(
            out,
            "{:>4}  {:<12} {:<28} {}",
            t.turn,
            name(t.player),
            action,
            scores.join(" ")
        )
        .unwrap();
        for e in &t.events {
            if let CardEvent::Scored {
                player, points, why, ..
            } = e
            {
                writeln!(out, "        {} +{points}: {why}", name(*player)).unwrap();
            }
        }
    }
    writeln!(out, "\nFinal scoring").unwrap();
    for e in &r.final_events {
        if let CardEvent::Scored {
            player, points, why, ..
        } = e
        {
            writeln!(out, "  {} +{points}: {why}", name(*player)).unwrap();
        }
    }
    writeln!(out).unwrap();
    for (p, b) in r.breakdown.iter().enumerate() {
        let both = b.both();
        let parts: Vec<String> = both.iter().map(|(c, v)| format!("{} {v}", c.word())).collect();
        writeln!(
            out,
            "{:<12} {:>4}  ({})",
            name(p as u8),
            r.final_scores[p],
            parts.join(", ")
        )
        .unwrap();
    }
    let winners: Vec<&str> = r.game.winners().into_iter().map(name).collect();
    writeln!(out, "winner: {}", winners.join(" and ")).unwrap();
    out
}
