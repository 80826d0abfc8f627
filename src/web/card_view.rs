//! What the Card Game's pages show, computed from its replay: events in words, the
//! scoreboard, the turn list by rounds and the breakdown: its [`GameWords`], over which the
//! turn and end pages are written once (`web/game/turn.rs`). The page frame, the score graph
//! and the templates are every game's.

use super::view::{self, BreakdownRow, GameWords, PlayerView, TurnLink};
use crate::analysis::win_chance::TurnChance;
use crate::engine::GameKind;
use crate::engine::cards::{CardEvent, CardGame, CardMove};
use crate::record::PlayerInfo;
use crate::record::Record;
use crate::render::PlayerColours;
use crate::render::cards::Hands;
use crate::replay::{self, Replay, Turn};

fn names(record: &Record<CardGame>) -> Vec<&str> {
    record.players.iter().map(|p| p.name.as_str()).collect()
}

pub fn list(cards: &[crate::engine::cards::Card]) -> String {
    let words: Vec<String> = cards.iter().map(ToString::to_string).collect();
    words.join(", ")
}

/// Every event of a turn in words. A card played face down stays hidden until its round is
/// scored, as on the table.
pub fn event_sentences(record: &Record<CardGame>, events: &[CardEvent]) -> Vec<String> {
    let n = names(record);
    events
        .iter()
        .map(|e| match e {
            CardEvent::Dealt { round, dealer } => {
                format!("Round {}: {} deals the hands", round + 1, n[*dealer as usize])
            }
            CardEvent::Played {
                player,
                row,
                face_down: true,
                ..
            } => format!(
                "{} plays the round's first card face down, at the end of the {} row",
                n[*player as usize],
                row.word()
            ),
            CardEvent::Played { player, card, row, .. } => {
                format!(
                    "{} plays {card} at the end of the {} row",
                    n[*player as usize],
                    row.word()
                )
            }
            CardEvent::FollowerPlaced { player, row } => {
                format!(
                    "{} places their follower at the end of the {} row",
                    n[*player as usize],
                    row.word()
                )
            }
            CardEvent::Took { player, row, cards } if cards.is_empty() => {
                format!(
                    "{}'s follower in the {} row secured no card",
                    n[*player as usize],
                    row.word()
                )
            }
            CardEvent::Took { player, row, cards } => format!(
                "{} takes {} from the {} row: {}",
                n[*player as usize],
                plural(cards.len(), "card"),
                row.word(),
                list(cards)
            ),
            CardEvent::Scored {
                player, points, why, ..
            } => format!("{} scores {points}: {why}", n[*player as usize]),
            CardEvent::ChoiceDue { player, card } => format!(
                "{} took {card} from another colour's row: they keep it or turn it in for 10 points",
                n[*player as usize]
            ),
            CardEvent::Discarded { cards } => {
                format!(
                    "No more hands can be dealt; {} leave the game: {}",
                    plural(cards.len(), "card"),
                    list(cards)
                )
            }
        })
        .collect()
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// A move in brief, for the turn list; a face-down card stays hidden.
pub fn move_brief(t: &Turn<CardGame>) -> String {
    let face_down = t
        .events
        .iter()
        .any(|e| matches!(e, CardEvent::Played { face_down: true, .. }));
    match t.mv {
        CardMove::Play { row, .. } if face_down => format!("face down → {}", row.word()),
        CardMove::Play { card, row } => format!("{card} → {}", row.word()),
        CardMove::Follower { row } => format!("follower → {}", row.word()),
        CardMove::WrongRow { keep: true } => "keeps the card".into(),
        CardMove::WrongRow { keep: false } => "turns it in".into(),
    }
}

/// The turn list: every turn, by rounds; `played` (the turns reached) say who did what, marked
/// with the classes of `chances`. The round headings come from the whole game (`all`), which
/// gives away nothing but the rounds' lengths.
pub fn turn_links(
    record: &Record<CardGame>,
    (played, all): (&[Turn<CardGame>], &[Turn<CardGame>]),
    chances: &[TurnChance],
    current: Option<u32>,
) -> Vec<TurnLink> {
    let done = view::turns_played(record, played, chances);
    let mut links = view::turn_links(done, all.len() as u32, current);
    for (link, t) in links.iter_mut().zip(all) {
        link.opens_round = replay::cards::opens_round(t);
    }
    links
}

impl GameWords for Record<CardGame> {
    /// "3 players, 8 rounds of 5 cards".
    fn rules_label(&self) -> String {
        let players = self.players.len() as u8;
        let (hand, rounds) = crate::engine::cards::rules::hands(players).unwrap_or_default();
        format!("{players} players, {rounds} rounds of {hand} cards")
    }

    /// The list names no game, and the Card Game's rules do not name it either.
    fn listed_rules(&self) -> String {
        format!("Card Game, {}", self.rules_label())
    }

    fn players(&self) -> &[PlayerInfo] {
        &self.players
    }

    fn colours(&self) -> PlayerColours {
        crate::render::cards::colours(self)
    }

    fn players_at(&self, game: &CardGame, finished: bool, colours: &PlayerColours) -> Vec<PlayerView> {
        players_at(self, game, finished, colours)
    }

    fn event_sentences(&self, events: &[CardEvent]) -> Vec<String> {
        event_sentences(self, events)
    }

    fn breakdown_rows(&self, full: &Replay<CardGame>, colours: &PlayerColours) -> Vec<BreakdownRow> {
        breakdown_rows(self, full, colours)
    }

    fn move_brief(&self, t: &Turn<CardGame>) -> String {
        move_brief(t)
    }

    fn move_sentence(&self, t: &Turn<CardGame>) -> String {
        format!("{}: {}", self.players[t.player as usize].name, move_brief(t))
    }

    fn start(&self) -> &'static str {
        "The start, before the first card"
    }

    fn start_sentences(&self, _: &CardGame) -> Vec<String> {
        start_sentences(self)
    }

    fn picture_word(&self) -> &'static str {
        "table"
    }

    fn scored(&self, t: &Turn<CardGame>) -> Vec<(u8, u32)> {
        (t.events.iter())
            .filter_map(|e| match e {
                CardEvent::Scored { player, points, .. } => Some((*player, *points)),
                _ => None,
            })
            .collect()
    }

    fn api_rules(&self) -> (&'static str, Option<String>) {
        (GameKind::CardGame.name(), None)
    }

    fn winners(&self, full: &Replay<CardGame>) -> Option<Vec<u8>> {
        Some(full.game.winners())
    }
}

/// The scoreboard: the hands, and what each player would have if the game ended now (their
/// city sets counted).
pub fn players_at(
    record: &Record<CardGame>,
    game: &CardGame,
    finished: bool,
    colours: &PlayerColours,
) -> Vec<PlayerView> {
    view::scoreboard(&record.players, game, finished, colours, |i| {
        let p = &game.players()[i];
        match (p.hand.len(), p.follower_placed) {
            (0, true) => "nothing".into(),
            (cards, true) => plural(cards, "card"),
            (cards, false) => format!("{}, follower", plural(cards, "card")),
        }
    })
}

/// Every player's hand after turn `n`, whose move `mover` made: the cards of those `hands`
/// shows, if the record knows them, the number of cards of the others.
pub fn hands_at(
    record: &Record<CardGame>,
    n: u32,
    game: &CardGame,
    mover: Option<u8>,
    hands: Hands,
    colours: &PlayerColours,
) -> Vec<HandView> {
    let known = record.hands_known(n as usize);
    (game.players().iter().enumerate())
        .map(|(p, player)| {
            let shown = known && hands.shows(game, mover, p as u8) && !player.hand.is_empty();
            HandView {
                name: record.players[p].name.clone(),
                colour: colours.get(p as u8).hex(),
                cards: if shown {
                    list(&player.hand)
                } else {
                    plural(player.hand.len(), "card")
                },
                shown,
            }
        })
        .collect()
}

/// Why cards are held but no hand shows after turn `n`: the record does not know them yet, or
/// the round's first card, which goes face down, is still to be played ([`Hands::shows`]).
pub fn hands_note(record: &Record<CardGame>, n: u32, game: &CardGame) -> Option<&'static str> {
    if game.players().iter().all(|p| p.hand.is_empty()) {
        return None;
    }
    if !record.hands_known(n as usize) {
        return Some("The record stops inside this round: it knows a card once it is played.");
    }
    game.face_down_card().is_none().then_some(
        "No hand shows before the round's first card is played: it goes face down, and any hand may still hold it.",
    )
}

/// Points by category for each player, with the cards they played and took.
pub fn breakdown_rows(
    record: &Record<CardGame>,
    full: &Replay<CardGame>,
    colours: &PlayerColours,
) -> Vec<BreakdownRow> {
    view::breakdown(&record.players, full, colours, |i| {
        let played = (full.turns.iter())
            .filter(|t| t.player as usize == i && matches!(t.mv, CardMove::Play { .. }))
            .count() as u32;
        let taken = (full.turns.iter().flat_map(|t| &t.events))
            .map(|e| match e {
                CardEvent::Took { player, cards, .. } if *player as usize == i => cards.len() as u32,
                _ => 0,
            })
            .sum();
        [played, taken]
    })
}

/// The start in words: who deals first and the cards turned up beside the rows.
pub fn start_sentences(record: &Record<CardGame>) -> Vec<String> {
    let mut out = vec![format!(
        "{} deals first",
        record.players[record.setup.dealer as usize].name
    )];
    out.extend(crate::engine::cards::Colour::ALL.into_iter().map(|row| {
        let cards: Vec<_> = (record.setup.face_up.iter())
            .filter(|(_, r)| *r == row)
            .map(|(c, _)| *c)
            .collect();
        format!(
            "Turned up beside the {} row: {}",
            row.word(),
            if cards.is_empty() {
                "nothing".into()
            } else {
                list(&cards)
            }
        )
    }));
    out
}

/// The Card Game's part of a turn page: the round, the hands, and the way to the turn's
/// alternatives.
pub struct TablePart {
    /// "Round 2 of 6", and the round's permalink.
    pub round: String,
    pub round_link: String,
    /// Cards neither turned up nor dealt yet.
    pub unseen: usize,
    /// Every player's hand: its cards when shown, else how many.
    pub hands: Vec<HandView>,
    /// Why no hand shows, when none does though cards are held.
    pub hands_note: Option<&'static str>,
    /// The switch to the other way of showing hands, its words and its link, when the record
    /// knows them.
    pub hands_switch: Option<(String, String)>,
}

/// One player's hand on a Card Game turn page.
pub struct HandView {
    pub name: String,
    pub colour: String,
    /// "red 3, blue building" when shown, "5 cards" when not.
    pub cards: String,
    pub shown: bool,
}
