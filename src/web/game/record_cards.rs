//! The Card Game's page for recording a game at the table (`/g/{id}/record`): what the players
//! see, entered in their order. A card is named when it is played face up; the round's first
//! card, face down, may be entered unseen and named when the round turns it over.

use super::GameHead;
use crate::engine::cards::{Card, CardGame, Colour};
use crate::record::Record;
use crate::record::cards::UNSEEN;
use crate::render::Theme;
use crate::render::cards::{colours, table_svg};
use crate::web::AppState;
use crate::web::card_view;
use crate::web::links;
use crate::web::loaded::Stored;
use crate::web::problem::Problem;
use crate::web::view::PlayerView;
use actix_web::http::StatusCode;
use askama::Template;
use askama_web::WebTemplate;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Template, WebTemplate)]
#[template(path = "record_cards.html")]
pub struct RecordCardsPage {
    game: GameHead,
    /// The action to record: one more than those recorded.
    next: u32,
    mover: String,
    /// The table now, as an inline picture: no hand shows, since the record knows none.
    table: String,
    round: String,
    players: Vec<PlayerView>,
    hide_if_ended: bool,
    /// The last action and what it did, in words.
    last: Vec<String>,
    /// A wrongly placed card its taker keeps or turns in, before anything else.
    choice: Option<String>,
    /// The round's first card is due: it goes face down, and may be entered unseen.
    face_down_due: bool,
    /// The next action ends the round, whose face-down card nobody saw: it must be named.
    turn_over_due: bool,
    follower_due: bool,
    /// Each card a move may still play, and how many are left.
    cards: Vec<(String, u8)>,
    rows: [(&'static str, &'static str); 4],
}

impl Stored<Record<CardGame>> {
    /// The recording page of a live Card Game: the table, and the form of its next action.
    pub fn record_page(&self, state: &AppState) -> Result<RecordCardsPage, Problem> {
        let record = &self.record;
        // Dealt ahead: each player holds the round's count of cards, though the record names
        // them only as they are played.
        let game = self.before(record.moves.len() as u32 + 1)?;
        let player = game.current_player();
        // A wrongly placed card's choice is its taker's, whoever's turn comes next.
        let mover = self.player_name(game.pending_choice().map_or(player, |(p, _)| p));
        let choice = game.pending_choice().map(|(p, card)| {
            format!(
                "{} took {card} from another colour's row: they keep it or turn it in for 10 points.",
                self.player_name(p)
            )
        });
        let last = (self.full.turns.last())
            .map(|t| {
                let mut words = vec![format!("Turn {}: {}", t.turn, card_view::move_brief(t))];
                words.extend(card_view::event_sentences(record, &t.events));
                words
            })
            .unwrap_or_default();
        Ok(RecordCardsPage {
            game: self.head(state)?,
            next: record.moves.len() as u32 + 1,
            mover,
            table: table_svg(record, game, Theme::Light, &|_| false),
            round: format!("Round {} of {}", (game.round() + 1).min(game.rounds()), game.rounds()),
            players: card_view::players_at(record, game, false, &colours(record)),
            hide_if_ended: false,
            last,
            choice,
            face_down_due: game.face_down_card().is_none(),
            turn_over_due: record.face_down_unseen() && ends_round_next(game),
            follower_due: !game.players()[usize::from(player)].follower_placed,
            cards: (record.cards_left().into_iter())
                .map(|(card, n)| (card.to_string(), n))
                .collect(),
            rows: Colour::ALL.map(|c| (c.word(), c.colour_word())),
        })
    }
}

/// Whether one action is left in the round: the last card of the last hand, or the last
/// follower.
fn ends_round_next(game: &CardGame) -> bool {
    let left: usize = (game.players().iter())
        .map(|p| p.hand.len() + usize::from(!p.follower_placed))
        .sum();
    !game.deal_due() && left == 1
}

/// The recording page's form: the action's number among the record's moves, what it is, and the card, the row and the
/// face-down card turned over, as the action needs them.
#[derive(Deserialize)]
pub struct ActionForm {
    pub number: u32,
    /// `play`, `follower ROW`, `keep` or `points`.
    action: String,
    #[serde(default)]
    card: String,
    #[serde(default)]
    row: String,
    #[serde(default)]
    turned_over: String,
}

impl ActionForm {
    /// The action as an entry of a native record's moves, by whoever is to act; 400 saying
    /// what is missing. The rules check it when it is recorded.
    pub fn to_move(&self) -> Result<Value, Problem> {
        let bad = |why: String| Problem::new(StatusCode::BAD_REQUEST, "Bad action", why);
        let mut mv = match self.action.split_once(' ') {
            _ if self.action == "play" => self.play()?,
            Some(("follower", row)) => json!({"follower": row}),
            _ if self.action == "keep" || self.action == "points" => json!({"wrong_row": self.action}),
            _ => {
                return Err(bad(format!(
                    "{:?} is not an action: play, follower ROW, keep or points",
                    self.action
                )));
            }
        };
        if !self.turned_over.is_empty() {
            mv["face_down"] = json!(self.turned_over);
        }
        Ok(mv)
    }

    /// A card played: in the row chosen, or else its own colour's.
    fn play(&self) -> Result<Value, Problem> {
        let bad = |why: &str| Problem::new(StatusCode::BAD_REQUEST, "Bad action", why);
        if self.card.is_empty() {
            return Err(bad("choose the card played"));
        }
        let own = Card::parse(&self.card).and_then(Card::colour);
        let row = match (self.row.as_str(), own) {
            ("", Some(colour)) => colour.word(),
            ("", None) if self.card == UNSEEN => return Err(bad("choose the row the face-down card went to")),
            ("", None) => return Err(bad("a joker goes to any row: choose it")),
            (row, _) => row,
        };
        Ok(json!({"play": self.card, "row": row}))
    }
}
