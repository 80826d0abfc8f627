//! Card Game records: native JSON with `"game": "card-game"` (`/docs/card-game`). A
//! record names the first dealer, the 10 cards turned up and every action; each round's hands
//! are read from the actions, since every card dealt is played in its round.

use super::Record;
use super::annotations::{self, Annotation};
use super::native::{FORMAT, NativeError, Player, at_path};
use super::quote::Quoted;
use super::{PlayerInfo, RecordError};
use crate::engine::cards::{Card, CardGame, CardIllegal, CardMove, CardSetup, Colour, KINDS, deck, rules};
use crate::engine::{Fault, Script, Scripted};
use serde::{Deserialize, Serialize};

/// A Card Game as recorded is a `Record<CardGame>`: its setup is the [`Deal`], its moves
/// [`RecordedCardMove`]s.
impl super::Recorded for CardGame {
    type Setup = Deal;
    type Move = RecordedCardMove;
}

/// What a Card Game's record says besides its players, actions and comments: who dealt
/// first, and the 10 cards turned up with their rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    pub dealer: u8,
    pub face_up: Vec<(Card, Colour)>,
}

/// One action, with the player the record names (checked against turn order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedCardMove {
    pub player: Option<u8>,
    pub mv: CardMove,
    /// The herds the Animal Jokers join in the scoring this action sets off, in the order they
    /// join: (whose, which herd). Empty: the biggest herd, our default.
    pub joker_herds: Vec<(u8, Colour)>,
    /// What the move says of its round's face-down card, when the record did not see it played.
    pub face_down: FaceDownNote,
}

/// A card played face down that the record did not see: at a table only its player knows it
/// until the round ends and the cards are turned over ("Cards which were placed face down are
/// now turned over"), so a game taken down as it is played names it then.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FaceDownNote {
    /// Every card the move names was seen.
    #[default]
    Seen,
    /// The move plays its round's face-down card, unseen (`"play": "face down"`), and no
    /// move has turned it over yet: its `mv` holds a stand-in that no page, picture or
    /// document shows.
    Unseen,
    /// The move plays its round's face-down card, unseen (`"play": "face down"`), and a later
    /// move turns it over: its `mv` holds that card.
    TurnedOverLater,
    /// The move turns over its round's unseen face-down card (`"face_down": card`).
    TurnsOver(Card),
}

/// How a record writes the round's face-down card it did not see.
pub const UNSEEN: &str = "face down";

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    format: String,
    game: String,
    players: Vec<Player>,
    dealer: u8,
    face_up: Vec<DocFaceUp>,
    moves: Vec<DocMove>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    annotations: Vec<Annotation>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DocFaceUp {
    card: String,
    row: String,
}

#[derive(Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct DocMove {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    player: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    play: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    row: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    follower: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    wrong_row: Option<WrongRowChoice>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    animal_jokers: Vec<DocJoker>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    face_down: Option<String>,
}

/// An Animal Joker's herd, as a record states it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DocJoker {
    player: u8,
    herd: String,
}

#[derive(Serialize, Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum WrongRowChoice {
    Keep,
    Points,
}

/// Why a Card Game record cannot be read, in the record's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The document does not have the format's shape: serde's words, after the path of the
    /// member at fault.
    #[error("{0}")]
    Shape(String),
    #[error("{0}")]
    Comments(#[from] super::annotations::CommentsError),
    #[error("a Card Game record has \"format\": {FORMAT:?} and \"game\": \"card-game\"")]
    NotACardGame,
    #[error("the Card Game has 2 to 5 players, not {0}")]
    PlayerCount(usize),
    /// A colour not of the form `#rrggbb`.
    #[error("{0}")]
    Colour(NativeError),
    /// Names too long (`record::check_names`).
    #[error("{0}")]
    Names(super::LimitError),
    #[error("dealer: player {0} does not exist (players are numbered from 0)")]
    NoSuchDealer(u8),
    #[error(
        "{at}: {} is not a card (\"red 3\", \"blue building\", \"green animal\", \"dragon\", \"fairy\", \"animal joker\", \"city joker\")",
        Quoted(.name)
    )]
    Card { at: RecordPart, name: String },
    #[error(
        "{at}: {} is not a row (cloister, road, farm, city, or their colours yellow, red, green, blue)",
        Quoted(.name)
    )]
    Row { at: RecordPart, name: String },
    /// A player a move names, or names as an animal joker's owner.
    #[error("{at}: player {player} does not exist (players are numbered from 0)")]
    NoSuchPlayer { at: RecordPart, player: u8 },
    #[error(
        "move {0}: a move is {{\"play\": card, \"row\": row}}, {{\"follower\": row}} or {{\"wrong_row\": \"keep\"|\"points\"}}"
    )]
    MoveShape(usize),
    #[error(
        "move {0}: only the round's first card goes face down (\"The first card played in each round must be played face down\"), so only it may be \"face down\", not seen"
    )]
    UnseenNotFirst(usize),
    #[error(
        "move {0}: \"face_down\" names the round's face-down card as it is turned over, but no card of this round was played face down unseen"
    )]
    NothingToTurnOver(usize),
    #[error(
        "move {at} ends round {round}, whose face-down card (move {played}) was not seen: the cards are turned over as the round ends (\"Cards which were placed face down are now turned over\"), so name it on this move as \"face_down\": card"
    )]
    RoundEndsUnseen { round: usize, at: usize, played: usize },
}

/// Where in a Card Game record: a face-up card, a move, or a move's animal jokers (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordPart {
    FaceUp(usize),
    Move(usize),
    Jokers(usize),
}

impl std::fmt::Display for RecordPart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordPart::FaceUp(i) => write!(f, "face_up {i}"),
            RecordPart::Move(n) => write!(f, "move {n}"),
            RecordPart::Jokers(n) => write!(f, "move {n}: animal_jokers"),
        }
    }
}

/// The game a native JSON record names, if it names the Card Game.
pub fn is_card_game(value: &serde_json::Value) -> bool {
    value.get("game").and_then(serde_json::Value::as_str) == Some("card-game")
}

pub fn from_value(value: serde_json::Value) -> Result<Record<CardGame>, RecordError> {
    read(value).map_err(RecordError::from)
}

fn read(value: serde_json::Value) -> Result<Record<CardGame>, ReadError> {
    let doc: Doc = serde_path_to_error::deserialize(value).map_err(|e| ReadError::Shape(at_path(&e)))?;
    if doc.format != FORMAT || doc.game != "card-game" {
        return Err(ReadError::NotACardGame);
    }
    annotations::one_per_line(&doc.annotations)?;
    let players = doc.players.len();
    if !(2..=5).contains(&players) {
        return Err(ReadError::PlayerCount(players));
    }
    if let Some(bad) = doc.players.iter().find_map(Player::bad_colour) {
        return Err(ReadError::Colour(bad));
    }
    let player_infos: Vec<PlayerInfo> = doc.players.into_iter().map(Player::into_info).collect();
    super::check_names(&player_infos).map_err(ReadError::Names)?;
    if usize::from(doc.dealer) >= players {
        return Err(ReadError::NoSuchDealer(doc.dealer));
    }
    let face_up = doc
        .face_up
        .iter()
        .enumerate()
        .map(|(i, f)| {
            Ok((
                card(&f.card, RecordPart::FaceUp(i + 1))?,
                row(&f.row, RecordPart::FaceUp(i + 1))?,
            ))
        })
        .collect::<Result<Vec<_>, ReadError>>()?;
    let mut moves = doc
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| parse_move(m, i + 1, players))
        .collect::<Result<Vec<_>, _>>()?;
    turn_over_face_down(&mut moves, players, &face_up)?;
    Ok(Record::<CardGame> {
        players: player_infos,
        setup: Deal {
            dealer: doc.dealer,
            face_up,
        },
        moves,
        annotations: doc.annotations,
    })
}

fn card(name: &str, at: RecordPart) -> Result<Card, ReadError> {
    Card::parse(name).ok_or_else(|| ReadError::Card {
        at,
        name: name.to_string(),
    })
}

fn row(name: &str, at: RecordPart) -> Result<Colour, ReadError> {
    Colour::parse(name).ok_or_else(|| ReadError::Row {
        at,
        name: name.to_string(),
    })
}

fn parse_move(m: &DocMove, n: usize, players: usize) -> Result<RecordedCardMove, ReadError> {
    let what = RecordPart::Move(n);
    if let Some(player) = m.player.filter(|&p| usize::from(p) >= players) {
        return Err(ReadError::NoSuchPlayer { at: what, player });
    }
    let unseen = m.play.as_deref() == Some(UNSEEN);
    let mv = match (&m.play, &m.row, &m.follower, m.wrong_row) {
        // The card is filled in by `turn_over_face_down`.
        (Some(_), Some(r), None, None) if unseen => CardMove::Play {
            card: Card::Dragon,
            row: row(r, what)?,
        },
        (Some(c), Some(r), None, None) => CardMove::Play {
            card: card(c, what)?,
            row: row(r, what)?,
        },
        (None, None, Some(r), None) => CardMove::Follower { row: row(r, what)? },
        (None, None, None, Some(choice)) => CardMove::WrongRow {
            keep: matches!(choice, WrongRowChoice::Keep),
        },
        _ => return Err(ReadError::MoveShape(n)),
    };
    let joker_herds = (m.animal_jokers.iter())
        .map(|j| {
            if usize::from(j.player) >= players {
                let player = j.player;
                return Err(ReadError::NoSuchPlayer {
                    at: RecordPart::Jokers(n),
                    player,
                });
            }
            Ok((j.player, row(&j.herd, RecordPart::Jokers(n))?))
        })
        .collect::<Result<_, _>>()?;
    let face_down = match &m.face_down {
        None if unseen => FaceDownNote::Unseen,
        None => FaceDownNote::Seen,
        Some(_) if unseen => return Err(ReadError::MoveShape(n)),
        Some(c) => FaceDownNote::TurnsOver(card(c, what)?),
    };
    Ok(RecordedCardMove {
        player: m.player,
        mv,
        joker_herds,
        face_down,
    })
}

/// Gives each round's unseen face-down card the card a later move of the round turns over;
/// a round the record ends must have turned it over. A round still under way keeps a
/// stand-in: a card the deck still holds, so that the round can be dealt.
fn turn_over_face_down(
    moves: &mut [RecordedCardMove],
    players: usize,
    face_up: &[(Card, Colour)],
) -> Result<(), ReadError> {
    let per_round = per_round(players);
    // Actions of the rounds so far (a wrongly placed card's choice comes after its round).
    let mut actions = 0;
    let (mut open, mut played) = (None, false);
    for i in 0..moves.len() {
        let n = i + 1;
        if matches!(moves[i].mv, CardMove::WrongRow { .. }) {
            if moves[i].face_down != FaceDownNote::Seen {
                return Err(ReadError::NothingToTurnOver(n));
            }
            continue;
        }
        if actions % per_round == 0 {
            (open, played) = (None, false);
        }
        match moves[i].face_down {
            FaceDownNote::Unseen if played => return Err(ReadError::UnseenNotFirst(n)),
            FaceDownNote::Unseen => open = Some(i),
            FaceDownNote::TurnsOver(card) => {
                let at = open.take().ok_or(ReadError::NothingToTurnOver(n))?;
                if let CardMove::Play { card: c, .. } = &mut moves[at].mv {
                    *c = card;
                }
                moves[at].face_down = FaceDownNote::TurnedOverLater;
            }
            FaceDownNote::Seen | FaceDownNote::TurnedOverLater => {}
        }
        played |= matches!(moves[i].mv, CardMove::Play { .. });
        actions += 1;
        if let (true, Some(at)) = (actions % per_round == 0, open) {
            let round = actions / per_round;
            return Err(ReadError::RoundEndsUnseen {
                round,
                at: n,
                played: at + 1,
            });
        }
    }
    if let Some(at) = open {
        let stand_in = stand_in(moves, face_up);
        if let CardMove::Play { card, .. } = &mut moves[at].mv {
            *card = stand_in;
        }
    }
    Ok(())
}

/// Actions in a round of `players`: each plays a hand and places the follower.
fn per_round(players: usize) -> usize {
    let (size, _) = rules::hands(players as u8).expect("2 to 5 players, checked when read");
    players * (usize::from(size) + 1)
}

/// A card the deck still holds after the cards turned up and every card the record names.
fn stand_in(moves: &[RecordedCardMove], face_up: &[(Card, Colour)]) -> Card {
    let left = cards_left(moves, face_up);
    // With none left the replay names the fault: a card played that the deck no longer held.
    (deck().into_iter())
        .find(|c| left[c.kind_index()] > 0)
        .unwrap_or(Card::Dragon)
}

/// The cards of each kind (`Card::kind_index`) that are neither turned up nor named by a move.
fn cards_left(moves: &[RecordedCardMove], face_up: &[(Card, Colour)]) -> [u8; KINDS] {
    let mut left = [0u8; KINDS];
    deck().into_iter().for_each(|c| left[c.kind_index()] += 1);
    let named = (moves.iter())
        .filter(|m| m.face_down != FaceDownNote::Unseen)
        .filter_map(|m| match m.mv {
            CardMove::Play { card, .. } => Some(card),
            _ => None,
        });
    for card in face_up.iter().map(|&(c, _)| c).chain(named) {
        left[card.kind_index()] = left[card.kind_index()].saturating_sub(1);
    }
    left
}

/// Writes a Card Game record as native JSON.
pub fn to_value(r: &Record<CardGame>) -> serde_json::Value {
    let doc = Doc {
        format: FORMAT.into(),
        game: "card-game".into(),
        players: r.players.iter().map(Player::of).collect(),
        dealer: r.setup.dealer,
        face_up: r
            .setup
            .face_up
            .iter()
            .map(|(c, row)| DocFaceUp {
                card: c.to_string(),
                row: row.word().into(),
            })
            .collect(),
        moves: r
            .moves
            .iter()
            .map(|m| {
                let base = DocMove {
                    player: m.player,
                    face_down: match m.face_down {
                        FaceDownNote::TurnsOver(card) => Some(card.to_string()),
                        _ => None,
                    },
                    animal_jokers: (m.joker_herds.iter())
                        .map(|&(player, herd)| DocJoker {
                            player,
                            herd: herd.word().into(),
                        })
                        .collect(),
                    ..DocMove::default()
                };
                match m.mv {
                    CardMove::Play { card, row } => DocMove {
                        play: Some(match m.face_down {
                            FaceDownNote::Unseen | FaceDownNote::TurnedOverLater => UNSEEN.to_string(),
                            _ => card.to_string(),
                        }),
                        row: Some(row.word().into()),
                        ..base
                    },
                    CardMove::Follower { row } => DocMove {
                        follower: Some(row.word().into()),
                        ..base
                    },
                    CardMove::WrongRow { keep } => DocMove {
                        wrong_row: Some(if keep {
                            WrongRowChoice::Keep
                        } else {
                            WrongRowChoice::Points
                        }),
                        ..base
                    },
                }
            })
            .collect(),
        annotations: r.annotations.clone(),
    };
    serde_json::to_value(doc).expect("a record serialises")
}

/// The record as its game's id hashes it and the store keeps it: without its annotations.
pub fn canonical_value(r: &Record<CardGame>) -> serde_json::Value {
    annotations::without(to_value(r))
}

impl Record<CardGame> {
    /// Whether move `index` (from 0) plays a card nobody has seen yet: the stand-in it holds
    /// is never shown.
    pub fn unseen(&self, index: usize) -> bool {
        self.moves
            .get(index)
            .is_some_and(|m| m.face_down == FaceDownNote::Unseen)
    }

    /// Whether the hands held after `n` actions are the record's: the record holds every
    /// action of their round. A record that stops inside a round fills its hands up with
    /// stand-ins ([`Record::hands_from`]), which no page or picture shows.
    pub fn hands_known(&self, n: usize) -> bool {
        let per_round = per_round(self.players.len());
        let regular = |moves: &[RecordedCardMove]| {
            (moves.iter())
                .filter(|m| !matches!(m.mv, CardMove::WrongRow { .. }))
                .count()
        };
        let before = regular(&self.moves[..n.min(self.moves.len())]);
        regular(&self.moves) >= (before / per_round + 1) * per_round
    }

    /// The cards a move may still play, each kind once with how many are left: the deck less
    /// the cards turned up and those the record names.
    pub fn cards_left(&self) -> Vec<(Card, u8)> {
        let left = cards_left(&self.moves, &self.setup.face_up);
        let mut kinds = deck();
        kinds.dedup();
        kinds
            .into_iter()
            .map(|c| (c, left[c.kind_index()]))
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    /// Whether the round under way has a face-down card nobody has seen: the move that ends
    /// the round must name it.
    pub fn face_down_unseen(&self) -> bool {
        self.moves.iter().any(|m| m.face_down == FaceDownNote::Unseen)
    }

    pub fn setup(&self) -> CardSetup {
        CardSetup {
            players: self.players.len() as u8,
            dealer: self.setup.dealer,
            face_up: self.setup.face_up.clone(),
        }
    }

    /// The hands of the round that starts at move `from`, in seat order: the cards each
    /// player plays in the round's `players × (hand + 1)` actions, in turn order from the
    /// player left of the dealer. A record that stops inside a round has its hands filled up
    /// from the unseen cards. `Err` names the move that plays a card no hand could hold.
    pub fn hands_from(&self, game: &CardGame, from: usize) -> Result<Vec<Vec<Card>>, DealFault> {
        let n = self.players.len();
        let size = usize::from(game.hand_size());
        let first = usize::from(game.current_player());
        let mut hands = vec![Vec::new(); n];
        let mut pool = game.unseen();
        let actions = self.moves[from..]
            .iter()
            .take_while(|m| !matches!(m.mv, CardMove::WrongRow { .. }))
            .take(n * (size + 1));
        // Each card played must have been in a hand: one more than a hand holds, or one the
        // deck no longer has, is the fault of the move that plays it.
        for (offset, m) in actions.enumerate() {
            let CardMove::Play { card, .. } = m.mv else { continue };
            let player = (first + offset) % n;
            let fault = |problem| DealFault {
                offset,
                player: player as u8,
                problem,
            };
            if hands[player].len() == size {
                return Err(fault(DealProblem::HandEmpty { size: size as u8 }));
            }
            let at = pool
                .iter()
                .position(|c| *c == card)
                .ok_or(fault(DealProblem::NotInDeck(card)))?;
            pool.remove(at);
            hands[player].push(card);
        }
        for hand in &mut hands {
            let more = size - hand.len();
            hand.extend(pool.drain(..more.min(pool.len())));
        }
        Ok(hands)
    }
}

/// A card played that no dealt hand could hold: the move (`offset` actions into the round),
/// who plays it, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealFault {
    pub offset: usize,
    pub player: u8,
    pub problem: DealProblem,
}

impl std::fmt::Display for DealFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.problem)
    }
}

/// A Card Game record as the engine's walker reads it: each round dealt from the hands its
/// actions show ([`Record::hands_from`]), then its actions with the Animal Jokers' herds
/// they state.
impl Script<CardGame> for &Record<CardGame> {
    type Written = RecordedCardMove;
    type Fault = DealFault;

    fn moves(&self) -> usize {
        self.moves.len()
    }

    fn written(&self, index: usize) -> RecordedCardMove {
        self.moves[index].clone()
    }

    // Inlined into the walker's step, as the tile script's is: returned through memory, the
    // scripted move slows the replay.
    #[inline]
    fn read(&self, index: usize, game: &CardGame) -> Result<Scripted<CardGame>, Fault<CardIllegal, DealFault>> {
        if game.deal_due() {
            return (self.hands_from(game, index))
                .map(Scripted::Chance)
                .map_err(Fault::Record);
        }
        let m = &self.moves[index];
        Ok(Scripted::Move {
            named: m.player,
            mv: m.mv,
            stated: m.joker_herds.clone(),
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DealProblem {
    #[error("the hand is empty: a hand holds {size} cards (and the follower), all played")]
    HandEmpty { size: u8 },
    #[error("plays {0}, but the deck holds no more: every {0} is face up or dealt already")]
    NotInDeck(Card),
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn error(edit: impl FnOnce(&mut serde_json::Value)) -> ReadError {
        let mut v = demo();
        edit(&mut v);
        match from_value(v) {
            Err(RecordError::Cards(e)) => e,
            other => panic!("expected a ReadError, got {other:?}"),
        }
    }

    /// A fault names where it is in the record as data: the move, the face-up card, the
    /// move's animal jokers.
    #[test]
    fn a_fault_names_its_place_in_the_record() {
        let e = error(|v| v["moves"][1]["play"] = json!("purple 9"));
        let card = ReadError::Card {
            at: RecordPart::Move(2),
            name: "purple 9".into(),
        };
        assert_eq!(e, card);
        let e = error(|v| v["face_up"][0]["row"] = json!("sky"));
        assert!(matches!(
            e,
            ReadError::Row {
                at: RecordPart::FaceUp(1),
                ..
            }
        ));
        let e = error(|v| v["moves"][0]["animal_jokers"] = json!([{"player": 9, "herd": "farm"}]));
        let jokers = ReadError::NoSuchPlayer {
            at: RecordPart::Jokers(1),
            player: 9,
        };
        assert_eq!(e, jokers);
        assert_eq!(error(|v| v["dealer"] = json!(7)), ReadError::NoSuchDealer(7));
    }

    fn demo() -> serde_json::Value {
        serde_json::from_str(include_str!("../../static/games/demo-card-game.json")).unwrap()
    }

    /// The demo's first round: 3 players, so 18 actions (moves 1 to 18); its first card, move
    /// 2, goes face down.
    fn unseen_first_card(v: &mut serde_json::Value) {
        assert_eq!(v["moves"][1]["play"], "red building");
        v["moves"][1]["play"] = json!(UNSEEN);
    }

    /// "Cards which were placed face down are now turned over": a record that did not see the
    /// face-down card names it on the move that ends its round (and replays as one that saw
    /// it: `tests/suite/card_game.rs`).
    #[test]
    fn a_face_down_card_not_seen_is_named_when_its_round_turns_it_over() {
        let mut v = demo();
        unseen_first_card(&mut v);
        v["moves"][17]["face_down"] = json!("red building");
        let later = from_cards(v.clone());
        let seen = from_cards(demo());
        assert_eq!(
            later.moves[1].mv, seen.moves[1].mv,
            "the card turned over is the card played"
        );
        assert_eq!(later.moves[1].face_down, FaceDownNote::TurnedOverLater);
        assert_eq!(to_value(&later), v, "written back as it was read");
    }

    #[test]
    fn a_round_cannot_end_with_its_face_down_card_unseen() {
        let e = error(unseen_first_card);
        assert_eq!(
            e,
            ReadError::RoundEndsUnseen {
                round: 1,
                at: 18,
                played: 2
            }
        );
        assert!(e.to_string().contains("name it on this move as \"face_down\""), "{e}");
    }

    /// A game taken down as it is played stops inside a round: its unseen card holds a
    /// stand-in the deck still has, and the record says it is not seen.
    #[test]
    fn a_round_under_way_keeps_its_face_down_card_unseen() {
        let mut v = demo();
        unseen_first_card(&mut v);
        v["moves"].as_array_mut().unwrap().truncate(6);
        let r = from_cards(v.clone());
        assert!(r.unseen(1) && !r.unseen(2));
        assert!(r.face_down_unseen() && !r.hands_known(3));
        assert_eq!(to_value(&r), v, "written back as it was read");
    }

    #[test]
    fn only_the_rounds_first_card_may_be_unseen_and_only_it_turned_over() {
        assert_eq!(
            error(|v| v["moves"][2]["play"] = json!(UNSEEN)),
            ReadError::UnseenNotFirst(3)
        );
        let e = error(|v| v["moves"][17]["face_down"] = json!("red building"));
        assert_eq!(e, ReadError::NothingToTurnOver(18));
        let e = error(|v| {
            unseen_first_card(v);
            v["moves"][1]["face_down"] = json!("red building");
        });
        assert_eq!(e, ReadError::MoveShape(2));
    }

    fn from_cards(v: serde_json::Value) -> Record<CardGame> {
        match from_value(v) {
            Ok(r) => r,
            Err(e) => panic!("{e}"),
        }
    }
}
