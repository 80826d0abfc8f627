//! The Card Game's pages: the table, the rounds, the hands (the mover's, or all), and each
//! action's alternatives.

use super::analysis::{
    AltRow, AlternativesPage, Analysed, AnalysisPage, AnalysisReport, Cell, TurnLoss, TurnLossRow, link_reviews,
    player_rows, too_close,
};
use super::api::AnalysisSummary;
use super::explore;
use super::turn::{self, Detail, EndInput, EndPage, GamePart, TurnInput, TurnPage};
use super::{GameHead, GameHooks, HeadWords, game_chances};
use crate::analysis;
use crate::analysis::cards::Playouts;
use crate::analysis::puzzles;
use crate::engine::cards::CardGame;
use crate::record::Record;
use crate::render::cards::Hands;
use crate::replay::{self, Reached};
use crate::web::card_view::TablePart;
use crate::web::chance_view::ChancesView;
use crate::web::loaded::Stored;
use crate::web::problem::Problem;
use crate::web::view::GameWords;
use crate::web::{AppState, card_view, links, view};

impl Stored<Record<CardGame>> {
    /// What every page of the game shows at the top.
    pub(super) fn head(&self, state: &AppState) -> Result<GameHead, Problem> {
        let words = HeadWords {
            rules: self.record.rules_label(),
            held_label: "Hand",
            held_title: "Cards in hand, and the follower while it is still to place this round",
            count_labels: ["Cards played", "Cards taken"],
            jcz: false,
            board: false,
        };
        GameHead::new(state, &self.row, words)
    }
}

impl GameHooks for Stored<Record<CardGame>> {
    /// The table as the move left it (the next round is not dealt yet), the round, and the
    /// hands `hands` says.
    fn turn_page(&self, state: &AppState, n: u32, _: Detail, hands: Hands) -> Result<TurnPage, Problem> {
        let head = self.head(state)?;
        let record = &self.record;
        if n > head.last {
            return Err(turn::no_such_turn(&head, n));
        }
        let full = &self.full;
        // The table as move n left it: the next round is not dealt yet (`render::cards`).
        let Some(Reached {
            game: position,
            turns: at,
            ..
        }) = self.after(n)
        else {
            return Err(turn::no_such_turn(&head, n));
        };
        let mover = at.last().map(|t| t.player);
        let colours = crate::render::cards::colours(record);
        let in_round = replay::cards::rounds(at).last().copied().unwrap_or(1);
        let id = head.id;
        let chances = game_chances(state, &self.row, Some(n))?;
        let nav_query = links::hands_query(hands);
        let part = GamePart::Cards(TablePart {
            round: format!("Round {in_round} of {}", position.rounds()),
            round_link: links::round(id, in_round) + nav_query,
            unseen: position.unseen().len(),
            hands: card_view::hands_at(record, n, position, mover, hands, &colours),
            hands_note: card_view::hands_note(record, n, position),
            hands_switch: (record.hands_known(n as usize)).then(|| self.hands_switch(n, hands, mover)),
        });
        let turn = TurnInput {
            n,
            position,
            reached: at,
            chances: &chances,
            picture: (None, links::picture(id, Some(n)).hands(hands).to_string()),
            nav_query,
            part,
            turn_links: card_view::turn_links(record, (at, &full.turns), &chances, Some(n)),
        };
        Ok(turn::turn_page(state, record, head, turn))
    }

    fn end_page(&self, state: &AppState) -> Result<EndPage, Problem> {
        let head = self.head(state)?;
        let full = &self.full;
        let chances = game_chances(state, &self.row, None)?;
        let end = EndInput {
            picture: links::picture(head.id, None).to_string(),
            turn_links: card_view::turn_links(&self.record, (&full.turns, &full.turns), &chances, None),
            full,
            chances: &chances,
        };
        Ok(turn::end_page(state, &self.record, head, end))
    }

    /// Turn `n`'s actions, best first: from the stored analysis when it is done, else weighed
    /// now (a Card Game turn takes milliseconds) with the same seed, so the values agree.
    fn alternatives_page(&self, state: &AppState, n: u32, _: Option<String>) -> Result<AlternativesPage, Problem> {
        let finished = state.finished_analysis(&self.row.id, self.row.kind)?;
        let stored =
            (finished.as_ref().and_then(|a| a.cards())).and_then(|r| Some((r.turn(n)?.clone(), r.head.playouts)));
        let (t, playouts) = match stored {
            Some(kept) => kept,
            None => {
                let samples = analysis::cards::DEFAULT_SAMPLES;
                let t = analysis::cards::analyse_turn(&self.record, n, samples, u64::from(n))
                    .map_err(|e| Problem::not_found(e.to_string()))?;
                (t.report(samples), Playouts::from(analysis::cards::PLAYOUTS))
            }
        };
        // The mover's whole hand, before the round's first card lies face down, holds it.
        let before = self.before(n.max(1))?;
        let ranks = t.ranks();
        let rows = (t.alternatives.iter().enumerate())
            .map(|(i, a)| AltRow {
                rank: ranks[i],
                played: t.played == Some(i),
                cells: vec![
                    match self.on_the_table(n, &a.action) {
                        Some(href) => Cell::Link {
                            href,
                            text: a.action.clone(),
                        },
                        None => Cell::Text(a.action.clone()),
                    },
                    Cell::Text(a.secures.to_string()),
                    Cell::Text(a.now.iter().map(|x| view::points(*x)).collect::<Vec<_>>().join(" / ")),
                    Cell::Value {
                        text: format!("{} ± {}", view::points(a.value), view::points(a.stderr)),
                        ranking_only: false,
                    },
                ],
            })
            .collect();
        let face_down = before.face_down_card().is_none() && !before.players()[t.player as usize].hand.is_empty();
        let player = self.player_name(t.player);
        let samples = replay::words::count(t.facts.samples, "sample", "samples");
        Ok(AlternativesPage {
            id: self.row.id,
            title: self.row.players.join(" vs "),
            turn: n,
            drawn: None,
            counted: replay::words::count(t.alternatives.len() as u32, "action", "actions"),
            value: format!(
                "{player}'s expected final margin (own score minus the best opponent's) over {samples} of \
                 what {player} could not see: the other hands, a face-down card they did not play, and the \
                 deals to come, each sample then {}.",
                playouts.how()
            ),
            estimate: false,
            too_close: too_close(t.too_close, t.points_lost).then_some(
                "weighed again on fresh samples, the action played was less than two standard errors from \
                 another action as good: the samples cannot separate them, and the action lost nothing.",
            ),
            sorts: &[],
            sort: "rank",
            fold: face_down.then(|| {
                format!(
                    "The round's first card, which goes face down, is not played yet: the actions list \
                     {player}'s whole hand, which may give it away before the round reveals it. Show them"
                )
            }),
            columns: vec![
                ("Action".into(), None),
                ("Secures".into(), Some("What a follower here would take now")),
                ("Points now (each player)".into(), None),
                ("Value".into(), None),
            ],
            rows,
            notes: Vec::new(),
            tiles_notice: None,
            player,
        })
    }

    fn explore_page(
        &self,
        state: &AppState,
        n: u32,
        asked: &super::explore::Asked,
    ) -> Result<super::explore::ExplorePage, Problem> {
        super::explore::card_page(state, self, n, asked)
    }

    fn explore_answer(
        &self,
        state: &AppState,
        n: u32,
        asked: &super::explore::Asked,
    ) -> Result<super::explore::ExploreAnswer, Problem> {
        super::explore::card_answer(state, self, n, asked)
    }
}

impl Analysed for Record<CardGame> {
    type Report = analysis::cards::Report;
}

/// The Card Game's analysis page: values from samples of what the mover could not see, and
/// each turn's action.
impl AnalysisReport for analysis::cards::Report {
    type Record = Record<CardGame>;

    fn fill(page: &mut AnalysisPage, g: &Stored<Record<CardGame>>, report: Option<&analysis::cards::Report>) {
        let (id, record) = (g.row.id, &g.record);
        page.move_label = "Action played";
        let Some(r) = report else { return };
        page.basis = format!(
            "Values are each action's expected final margin (own score minus the best opponent's) over {} samples \
             of what the mover could not see: the other hands, a face-down card they did not play, and the deals to come, \
             each {}.",
            r.head.samples,
            r.head.playouts.how()
        );
        let total = record.moves.len() as u32;
        let chances = r.chances(None);
        let colours = crate::render::cards::colours(record);
        page.chances = ChancesView::new(&id, &record.players, &chances, total, &colours, true);
        page.made_by = r.head.version;
        page.players = player_rows(&record.players, &r.head.players);
        page.turns = (r.turns.iter())
            .map(|t| {
                let loss = TurnLoss {
                    turn: t.turn,
                    player: t.player,
                    rank: t.played_rank().map(|r| (r as usize, t.alternatives.len())),
                    points_lost: t.points_lost,
                    too_close: t.too_close,
                    best: t.alternatives.first().map(|b| b.action.clone()),
                    played: t.played.map_or_else(String::new, |i| t.alternatives[i].action.clone()),
                    picture: None,
                };
                let best = t.alternatives.first().filter(|_| t.played_rank() != Some(1));
                let best_href = best.and_then(|b| g.on_the_table(t.turn, &b.action));
                TurnLossRow {
                    best_href,
                    ..TurnLossRow::new(g, &colours, &chances, loss)
                }
            })
            .collect();
        let reviews: Vec<Vec<u32>> = (0..record.players.len() as u8)
            .map(|p| {
                puzzles::card_mistakes(r, &chances, p)
                    .into_iter()
                    .map(|(n, _)| n)
                    .collect()
            })
            .collect();
        link_reviews(page, &reviews);
    }

    fn summary(self) -> AnalysisSummary {
        AnalysisSummary::Cards(self.summarised())
    }
}

impl Stored<Record<CardGame>> {
    /// The turn that scores round `k`.
    pub fn round_turn(&self, k: u8) -> Result<u32, Problem> {
        let rounds = replay::cards::rounds(&self.full.turns);
        let last = rounds.iter().rposition(|&r| r == k);
        last.map(|i| i as u32 + 1).ok_or_else(|| {
            let played = rounds.last().copied().unwrap_or(0);
            Problem::not_found(format!("game {} has rounds 1 to {played}, not {k}", self.row.id))
        })
    }
}

impl Stored<Record<CardGame>> {
    /// Where an action of turn `n` listed in words (`replay::cards::move_text`) is shown on the
    /// table: the explore board from that turn, the action played; `None` for words no action
    /// has.
    pub(super) fn on_the_table(&self, n: u32, words: &str) -> Option<String> {
        let mv = replay::cards::action_named(words)?;
        Some(links::explore(self.row.id, n, &explore::cards::step(&mv), None))
    }

    /// The link that switches a turn page to the other way of showing hands, and its words.
    fn hands_switch(&self, n: u32, hands: Hands, mover: Option<u8>) -> (String, String) {
        let id = self.row.id;
        match hands {
            Hands::Mover => ("Show all hands".into(), links::turn(id, n) + "?hands=all"),
            Hands::All => {
                let words = match mover {
                    Some(p) => format!("Show only {}'s hand", self.record.players[p as usize].name),
                    None => "Hide the hands".into(),
                };
                (words, links::turn(id, n) + "?hands=mover")
            }
        }
    }
}
