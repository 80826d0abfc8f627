//! The Card Game's review of a player's mistakes ("learn from your mistakes"): one mistake's
//! table, the actions to try, and the answer once asked. Its own file, so the game layer's
//! `mod.rs` names it without pointing back into the Card Game's page hooks.

use super::analysis::{mend_words, no_mistake, not_analysed_yet};
use super::explore::{self, cards::MoveGroup};
use super::head::GameHead;
use crate::analysis::puzzles;
use crate::engine::cards::{CardGame, CardMove};
use crate::record::Record;
use crate::render::Theme;
use crate::render::cards::table_svg;
use crate::replay;
use crate::web::loaded::Stored;
use crate::web::problem::Problem;
use crate::web::view::PlayerView;
use crate::web::{AppState, card_view, links, view};
use askama::Template;
use askama_web::WebTemplate;

/// A Card Game mistake's review ("learn from your mistakes"): the table before the action with
/// the mover's hand, their actions, each a link that answers with it, and what the answer was
/// worth, without saying which action is best until the reader asks.
#[derive(Template, WebTemplate)]
#[template(path = "card_review.html")]
pub struct ReviewPage {
    game: GameHead,
    turn: u32,
    /// The table before the action, the mover's hand shown.
    table: String,
    /// "Round 2 of 4".
    round: String,
    hand: String,
    /// The mover's legal actions, grouped by what they play, each a link answering with it.
    moves: Vec<MoveGroup>,
    question: String,
    /// Whether the answer mends the mistake, and what it was worth in words.
    verdict: Option<(bool, String)>,
    /// The best action and what the one played lost, in words, and where the table shows it,
    /// once the reader asked.
    solution: Option<(String, Option<String>)>,
    /// The scores before the action.
    players: Vec<PlayerView>,
    hide_if_ended: bool,
    /// The same player's next mistake.
    next: Option<String>,
}

/// What a reader asks of a Card Game mistake: an action to weigh, or the answer.
pub struct ReviewAsk {
    pub action: Option<CardMove>,
    pub reveal: bool,
}

impl Stored<Record<CardGame>> {
    /// Mistake `n`'s review, answering `asked`; 404 when the game is not analysed yet or turn
    /// `n` is not its mover's mistake or blunder.
    pub fn review_page(&self, state: &AppState, n: u32, asked: &ReviewAsk) -> Result<ReviewPage, Problem> {
        let (id, record) = (self.row.id, &self.record);
        let finished = state.finished_analysis(&id, self.row.kind)?;
        let report = (finished.as_ref().and_then(|a| a.cards())).ok_or_else(|| not_analysed_yet(id))?;
        let not_one = || no_mistake(id, n);
        let t = report.turn(n).ok_or_else(not_one)?;
        let chances = report.chances(None);
        let review = puzzles::card_mistakes(report, &chances, t.player);
        let lost = review.iter().find(|(turn, _)| *turn == n).ok_or_else(not_one)?.1;
        let (played, best) = (t.played.and_then(|i| t.alternatives.get(i)), t.alternatives.first());
        let (Some(played), Some(best)) = (played, best) else {
            return Err(not_one());
        };
        let before = self.before(n)?;
        let mover = usize::from(t.player);
        let answer = |mv: &CardMove| format!("{}?action={}", links::mistake(id, n), explore::cards::step(mv));
        let lost_words = view::points(lost);
        Ok(ReviewPage {
            game: self.head(state)?,
            turn: n,
            table: table_svg(record, before, Theme::Light, &|p| usize::from(p) == mover),
            round: format!("Round {} of {}", before.round() + 1, before.rounds()),
            hand: card_view::list(&before.players()[mover].hand),
            moves: explore::cards::grouped(&explore::cards::legal(before), &answer),
            question: format!(
                "{} played {}: {lost_words} points below the best action. What was better?",
                self.player_name(t.player),
                played.action
            ),
            verdict: (asked.action.as_ref().filter(|_| !asked.reveal)).map(|mv| {
                let mend = puzzles::card_mend(t, &replay::cards::move_text(mv));
                mend_words(mend, "That action is not possible now.".into())
            }),
            solution: asked.reveal.then(|| {
                let said = format!(
                    "The best action: {}. The action played was {lost_words} points below it.",
                    best.action
                );
                (said, self.on_the_table(n, &best.action))
            }),
            players: card_view::players_at(record, before, false, &crate::render::cards::colours(record)),
            hide_if_ended: false,
            next: (review.iter())
                .find(|(turn, _)| *turn > n)
                .map(|(turn, _)| links::mistake(id, turn)),
        })
    }
}
