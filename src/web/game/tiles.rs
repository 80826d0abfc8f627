//! The tile games' pages (Carcassonne and New World): a board to point at, the pack and the
//! open spots, each placement's alternatives.

use super::analysis::{
    AltRow, AlternativesPage, Analysed, AnalysisPage, AnalysisReport, Cell, Drawn, TurnLoss, TurnLossRow, link_reviews,
    per_player, player_rows, too_close, value_with_error,
};
use super::api::AnalysisSummary;
use super::turn::{self, Detail, EndInput, EndPage, GamePart, TurnInput, TurnPage};
use super::{GameHead, GameHooks, HeadWords, game_chances};
use crate::analysis::puzzles;
use crate::analysis::report::{AlternativeReport, StoredAnalysis, TurnReport};
use crate::analysis::{self, BoardFeature, heuristic_formula};
use crate::engine::GameKind;
use crate::export::jcz;
use crate::record::{GameRecord, RecordedMove};
use crate::render;
use crate::render::cards::Hands;
use crate::replay::{Reached, words};
use crate::web::chance_view::ChancesView;
use crate::web::loaded::Stored;
use crate::web::problem::Problem;
use crate::web::view::{self, GameWords};
use crate::web::what_if::{TurnAlternatives, is_listed, turn_alternatives};
use crate::web::{AppState, board_view, links, tracker_view};

impl Stored<GameRecord> {
    /// What every page of the game shows at the top.
    pub fn head(&self, state: &AppState) -> Result<GameHead, Problem> {
        let (held_label, held_title, figures_used) = match self.record.setup.game {
            GameKind::NewWorld => ("Settlers", "Settlers in supply", "Settlers used"),
            _ => ("Meeples", "Followers in supply", "Meeples used"),
        };
        let words = HeadWords {
            rules: self.record.rules_label(),
            held_label,
            held_title,
            count_labels: ["Tiles", figures_used],
            jcz: jcz::unsupported(&self.record).is_none(),
            board: true,
        };
        Ok(GameHead {
            lab: crate::record::lab::to_link(&self.record).ok(),
            tiles_notice: view::tiles_notice(&self.record),
            ..GameHead::new(state, &self.row, words)?
        })
    }
}

impl GameHooks for Stored<GameRecord> {
    /// The board drawn inline to point at, with the drawn tile's best alternatives as ghosts,
    /// and the pack and the open spots.
    fn turn_page(&self, state: &AppState, n: u32, detail: Detail, _: Hands) -> Result<TurnPage, Problem> {
        let head = self.head(state)?;
        let record = &self.record;
        if n > head.last {
            return Err(turn::no_such_turn(&head, n));
        }
        let at = self.after(n).ok_or_else(|| turn::no_such_turn(&head, n))?;
        let id = head.id;
        // The board's notes and the tile tracker both read the features' outlooks.
        let features = analysis::board_features(at.game);
        let (board, chances) = match detail {
            Detail::Full => (
                Some(self.inline_board(state, (at, &features), n)?),
                game_chances(state, &self.row, Some(n))?,
            ),
            Detail::Framed => (None, Vec::new()),
        };
        let played = view::turns_played(record, at.turns, &chances);
        let src = links::picture(id, Some(n))
            .overlay("ownership,last-move,scoring")
            .to_string();
        let turn = TurnInput {
            n,
            position: at.game,
            reached: at.turns,
            chances: &chances,
            picture: (board, src),
            nav_query: "",
            part: GamePart::Tiles(tracker_view::tile_turn_view(&id, record, at.game, &features)),
            turn_links: view::turn_links(played, head.last, Some(n)),
        };
        Ok(turn::turn_page(state, record, head, turn))
    }

    fn end_page(&self, state: &AppState) -> Result<EndPage, Problem> {
        let head = self.head(state)?;
        let full = &self.full;
        let chances = game_chances(state, &self.row, None)?;
        let played = view::turns_played(&self.record, &full.turns, &chances);
        let end = EndInput {
            picture: links::picture(head.id, None).overlay("ownership,scoring").to_string(),
            turn_links: view::turn_links(played, head.last, None),
            full,
            chances: &chances,
        };
        Ok(turn::end_page(state, &self.record, head, end))
    }

    /// Every placement of the drawn tile, sortable by rank, immediate points or position.
    fn alternatives_page(&self, state: &AppState, n: u32, sort: Option<String>) -> Result<AlternativesPage, Problem> {
        let id = self.row.id;
        let sort = AltSort::parse(sort.as_deref());
        let game = self.record.setup.game;
        let TurnAlternatives {
            report: t,
            full,
            listed,
        } = turn_alternatives(state, self, n)?;
        let rows = self.alternative_rows(n, &t, &listed, sort);
        let figure = words::capitalised(words::figures(game).0);
        let columns = [
            "Board",
            "Position",
            "Rotation",
            &figure,
            "Points now",
            "If it ended now (change)",
            "Value",
        ]
        .into_iter()
        .map(|name| (name.to_string(), None))
        .collect();
        Ok(AlternativesPage {
            title: self.row.players.join(" vs "),
            player: self.player_name(t.player),
            drawn: Some(Drawn {
                picture: links::tile_svg(id, &t.facts.tile),
                name: t.facts.tile,
            }),
            counted: format!(
                "{}, {}",
                words::count(t.facts.placements_count as u32, "placement", "placements"),
                words::count(t.facts.moves_count as u32, "move", "moves")
            ),
            value: t.facts.value,
            estimate: !full,
            too_close: too_close(t.too_close, t.points_lost).then_some(
                "weighed again on fresh futures, the move played was less than two standard errors from \
                 another move as good: the futures cannot separate them, and the move lost nothing.",
            ),
            sorts: &[("rank", "rank"), ("immediate", "points now"), ("position", "position")],
            sort: sort.key(),
            fold: None,
            columns,
            rows,
            notes: vec![format!(
                "The best moves and the move played were weighed again on fresh futures, apart from the \
                 playouts that ranked the moves: their values are the ones points lost are measured from. \
                 Values marked “ranking” are the ranking's own. Heuristic: {}",
                heuristic_formula(game)
            )],
            tiles_notice: view::tiles_notice(&self.record),
            id,
            turn: n,
        })
    }

    fn explore_page(
        &self,
        state: &AppState,
        n: u32,
        asked: &super::explore::Asked,
    ) -> Result<super::explore::ExplorePage, Problem> {
        super::explore::tile_page(state, self, n, asked)
    }

    fn explore_answer(
        &self,
        state: &AppState,
        n: u32,
        asked: &super::explore::Asked,
    ) -> Result<super::explore::ExploreAnswer, Problem> {
        super::explore::tile_answer(state, self, n, asked)
    }
}

impl Analysed for GameRecord {
    type Report = StoredAnalysis;
}

/// The tile games' analysis page: values from the playouts, the heuristic where they are off,
/// and each turn's tile.
impl AnalysisReport for StoredAnalysis {
    type Record = GameRecord;

    fn fill(page: &mut AnalysisPage, g: &Stored<GameRecord>, report: Option<&StoredAnalysis>) {
        let (id, record) = (g.row.id, &g.record);
        page.tiles_notice = view::tiles_notice(record);
        page.basis = format!(
            "Values are each move's expected final margin (own score minus the best opponent's) over the playouts. \
             Heuristic used where playouts are off: {}",
            heuristic_formula(record.setup.game)
        );
        let Some(r) = report else { return };
        if let Some(s) = r.head.summary.shallower {
            page.basis += &format!(
                " This game is longer than one analysis may weigh in full, so each turn ran at most {} playouts \
                 (a 72-tile game's run up to {}): its values are noisier.",
                s.max_playouts_per_turn,
                analysis::DEFAULT_MAX_PLAYOUTS_PER_TURN
            );
        }
        let chances = r.chances(None);
        let colours = render::colours(record);
        let players = &record.players;
        page.chances = ChancesView::new(&id, players, &chances, g.row.turns, &colours, true);
        let reviews: Vec<Vec<u32>> = (0..players.len() as u8)
            .map(|p| puzzles::mistakes(r, &chances, p).into_iter().map(|(n, _)| n).collect())
            .collect();
        page.puzzles = page.chances.is_some();
        page.made_by = r.head.summary.version;
        page.players = player_rows(players, &r.head.summary.players);
        page.turns = (r.head.summary.turns.iter())
            .map(|t| {
                let loss = TurnLoss {
                    turn: t.turn,
                    player: t.player,
                    rank: t.played_rank.map(|r| (r as usize, t.moves_count)),
                    points_lost: t.points_lost,
                    too_close: t.too_close,
                    best: t.best_move.as_ref().map(|b| b.action.words(record.setup.game)),
                    played: t.tile.clone(),
                    picture: Some(links::tile_svg(id, &t.tile)),
                };
                let mut row = TurnLossRow::new(g, &colours, &chances, loss);
                if let Some(b) = t.best_move.as_ref().filter(|_| t.played_rank != Some(1)) {
                    row.best_at = Some(format!("({},{}) {}°", b.position[0], b.position[1], b.rotation));
                    row.best_href = Some(links::best(id, t.turn));
                }
                row
            })
            .collect();
        link_reviews(page, &reviews);
    }

    fn summary(self) -> AnalysisSummary {
        AnalysisSummary::Tiles(self.head.summary)
    }
}

impl Stored<GameRecord> {
    /// Turn `n`'s alternatives as table rows in the order `sort` names: by rank, by the mover's
    /// points now, or by position (the order of the legal moves, `listed`, whose place names
    /// each alternative's own page).
    fn alternative_rows(&self, n: u32, t: &TurnReport, listed: &[RecordedMove], sort: AltSort) -> Vec<AltRow> {
        let (id, game, mover) = (self.row.id, self.record.setup.game, t.player as usize);
        let mut shown: Vec<(usize, usize, &AlternativeReport)> = (t.alternatives.iter().enumerate())
            .filter_map(|(i, a)| Some((i, listed.iter().position(|m| is_listed(a, m))?, a)))
            .collect();
        match sort {
            AltSort::Position => shown.sort_by_key(|&(_, k, _)| k),
            AltSort::Immediate => shown.sort_by_key(|(_, _, a)| {
                let gain = a.immediate.get(mover).copied().unwrap_or(0);
                (std::cmp::Reverse(gain), a.rank)
            }),
            AltSort::Rank => shown.sort_by_key(|(_, _, a)| a.rank),
        }
        let weighed_again = t.alternatives.iter().any(|a| a.rechecked);
        (shown.into_iter())
            .map(|(i, k, a)| {
                let href = links::alternative(id, n, k);
                let src = links::alternative_picture(id, n, k).size(64).close().html();
                AltRow {
                    rank: a.rank,
                    played: t.played == Some(i),
                    cells: vec![
                        Cell::Thumbnail {
                            href: href.clone(),
                            src,
                        },
                        Cell::Link {
                            href,
                            text: format!("({},{})", a.position[0], a.position[1]),
                        },
                        Cell::Text(format!("{}°", a.rotation)),
                        Cell::Text(a.action.words(game)),
                        Cell::Text(per_player(&a.immediate)),
                        Cell::Text(per_player(&a.if_ended_change)),
                        Cell::Value {
                            text: value_with_error(a),
                            ranking_only: weighed_again && !a.rechecked,
                        },
                    ],
                }
            })
            .collect()
    }

    /// Turn `n`'s board to point at, with the drawn tile's best alternatives as ghosts.
    fn inline_board(&self, state: &AppState, at: (Reached<'_>, &[BoardFeature]), n: u32) -> Result<String, Problem> {
        // A game in play shows no advice: its players may be the ones reading.
        let alternatives = match n {
            _ if n == 0 || self.row.live => None,
            _ => Some(turn_alternatives(state, self, n)?),
        };
        let alternatives = alternatives.as_ref().map(|a| (&a.report, a.listed.as_slice()));
        Ok(board_view::turn_board(
            &self.record,
            at,
            (&self.row.id, n),
            alternatives,
        ))
    }
}

/// The orders a tile turn's alternatives can be listed in (`?sort=`): by rank, by the mover's
/// points now, or by position. Any other word lists them by rank.
#[derive(Clone, Copy)]
enum AltSort {
    Rank,
    Immediate,
    Position,
}

impl AltSort {
    fn parse(key: Option<&str>) -> AltSort {
        match key {
            Some("immediate") => AltSort::Immediate,
            Some("position") => AltSort::Position,
            _ => AltSort::Rank,
        }
    }

    /// The word the address and the page use.
    fn key(self) -> &'static str {
        match self {
            AltSort::Rank => "rank",
            AltSort::Immediate => "immediate",
            AltSort::Position => "position",
        }
    }
}
