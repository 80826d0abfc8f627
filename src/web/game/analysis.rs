//! The analysis page and a turn's alternatives page, and what every game's builds them from.

use super::api::{AnalysisStatusAnswer, AnalysisSummary};
use crate::analysis::puzzles::Mend;
use crate::analysis::report::{AlternativeReport, PlayerReport};
use crate::analysis::win_chance::{MoveClass, TurnChance};
use crate::render::PlayerColours;
use crate::replay::Replays;
use crate::store::{AnalysisStatus, GameId};
use crate::web::AppState;
use crate::web::chance_view::ChancesView;
use crate::web::links;
use crate::web::loaded::Stored;
use crate::web::problem::Problem;
use crate::web::view::{self, GameWords};
use crate::web::what_if::stored_analysis;
use askama::Template;
use askama_web::WebTemplate;
use serde::de::DeserializeOwned;

#[derive(Template, WebTemplate)]
#[template(path = "analysis.html")]
pub struct AnalysisPage {
    id: GameId,
    title: String,
    status: &'static str,
    done: u32,
    total: u32,
    running: bool,
    failed: Option<String>,
    pub players: Vec<PlayerLossRow>,
    pub turns: Vec<TurnLossRow>,
    /// What a turn's move is called: a tile, or an action of the Card Game.
    pub move_label: &'static str,
    /// How values are found, in words.
    pub basis: String,
    /// The win-chance graph and accuracy, once done.
    pub chances: Option<ChancesView>,
    /// A link to the game's puzzles (tile games, once analysed).
    pub puzzles: bool,
    pub tiles_notice: Option<&'static str>,
    /// The version of the analysis that made the stored result, once done.
    pub made_by: u32,
}

impl AnalysisPage {
    /// Whether the stored result was made by an older analysis than this service runs: the
    /// page offers to run the newer one.
    pub fn outdated(&self) -> bool {
        self.status == "done" && self.made_by < crate::analysis::VERSION
    }

    pub fn current_version(&self) -> u32 {
        crate::analysis::VERSION
    }
}

/// A game's whole-game analysis as the store keeps it, as the analysis page and the API read
/// it: one implementation per game's report (`tiles`, `cards`).
pub trait AnalysisReport: DeserializeOwned {
    /// The record the analysis is of.
    type Record: Replays;

    /// Fills in what the game says on its analysis page: how values are found, and, once there
    /// is a result (`report`), its chances, its players and each turn.
    fn fill(page: &mut AnalysisPage, g: &Stored<Self::Record>, report: Option<&Self>);

    /// The analysis without its alternatives, as the API gives it.
    fn summary(self) -> AnalysisSummary;
}

/// A game's record, and the type its whole-game analysis is stored as.
pub trait Analysed: Replays + Sized {
    type Report: AnalysisReport<Record = Self>;
}

/// The whole-game analysis page of any game: its progress, then each turn's played move
/// against the best.
pub fn analysis_page<R: AnalysisReport>(state: &AppState, g: &Stored<R::Record>) -> Result<AnalysisPage, Problem> {
    let id = g.row.id;
    let stored = stored_analysis::<R>(state, &id)?;
    let mut page = analysis_frame(id, g.row.players.join(" vs "), &stored);
    R::fill(&mut page, g, stored.as_ref().and_then(|(_, r)| r.as_ref()));
    Ok(page)
}

/// The analysis' status for the API, with the result's summary when done.
pub fn status_answer<R: AnalysisReport>(state: &AppState, id: &GameId) -> Result<AnalysisStatusAnswer, Problem> {
    Ok(match stored_analysis::<R>(state, id)? {
        None => AnalysisStatusAnswer::None,
        Some((AnalysisStatus::Queued, _)) => AnalysisStatusAnswer::Queued,
        Some((AnalysisStatus::Running { done, total }, _)) => AnalysisStatusAnswer::Running { done, total },
        Some((AnalysisStatus::Done, result)) => AnalysisStatusAnswer::Done {
            result: result.map(R::summary),
        },
        Some((AnalysisStatus::Failed(error), _)) => AnalysisStatusAnswer::Failed { error },
    })
}

/// A player's moves over the analysed game.
pub struct PlayerLossRow {
    name: String,
    turns: u32,
    best_moves: u32,
    points_lost: String,
    average: String,
}

/// One analysed turn: who moved, the played move's rank and what it lost, and the best move.
pub struct TurnLossRow {
    pub turn: u32,
    pub player: String,
    pub colour: String,
    /// The tile drawn, or the Card Game action played.
    pub played: String,
    /// The tile's picture, in the tile games.
    pub picture: Option<String>,
    pub rank: String,
    pub points_lost: String,
    /// Ranked below the best, yet nothing lost: the recheck could not tell it from the best.
    pub within_noise: bool,
    /// The move played lost nothing, and the fresh futures could not separate it from another
    /// move as good ([`too_close`]).
    pub too_close: bool,
    /// The best move in words ("the move played" when it was).
    pub best: String,
    /// Where the best move stands (its square and turn), in small print beside the words.
    pub best_at: Option<String>,
    /// The best move's own page, which shows it on the board.
    pub best_href: Option<String>,
    /// The mover's chance of winning after the move, and the move's class ("mistake ?").
    pub chance: String,
    pub class: Option<MoveClass>,
    /// The page that asks for a better move, for a mistake or blunder the game can review.
    pub review: Option<String>,
}

/// What a game says of one analysed turn; [`TurnLossRow::new`] makes the row every game's
/// page shows of it.
pub struct TurnLoss {
    pub turn: u32,
    pub player: u8,
    /// The played move's rank (1 the best) and how many moves there were.
    pub rank: Option<(usize, usize)>,
    pub points_lost: Option<f64>,
    pub too_close: bool,
    /// The best move in words, and the move played.
    pub best: Option<String>,
    pub played: String,
    pub picture: Option<String>,
}

impl TurnLossRow {
    /// `t`'s row, its player named from `g`, coloured by `colours`, its chance from `chances`.
    pub fn new<R: GameWords>(
        g: &Stored<R>,
        colours: &PlayerColours,
        chances: &[TurnChance],
        t: TurnLoss,
    ) -> TurnLossRow {
        let (chance, class) = chance_cells(chances, t.turn);
        let rank = t.rank.map(|(r, _)| r);
        TurnLossRow {
            turn: t.turn,
            player: g.player_name(t.player),
            colour: colours.get(t.player).hex(),
            within_noise: within_noise(rank, t.points_lost),
            too_close: too_close(t.too_close, t.points_lost),
            best: match (rank, t.best) {
                (Some(1), _) => "the move played".into(),
                (_, Some(b)) => b,
                (_, None) => "–".into(),
            },
            best_at: None,
            best_href: None,
            chance,
            class,
            review: None,
            picture: t.picture,
            played: t.played,
            rank: t.rank.map_or_else(|| "–".into(), |(r, of)| format!("{r} of {of}")),
            points_lost: points_or_dash(t.points_lost),
        }
    }
}

pub fn points_or_dash(x: Option<f64>) -> String {
    x.map_or_else(|| "–".into(), view::points)
}

/// Whether a page calls a turn too close to call: its analysis says so (`too_close`) and the
/// move played lost nothing. Analyses before version 9 set the flag on any turn whose best
/// moves were within the noise of each other, whatever the move played lost; a move that lost
/// points is a loss, not a tie, whichever version measured it.
pub fn too_close(flag: bool, lost: Option<f64>) -> bool {
    flag && lost == Some(0.0)
}

/// Whether a move ranked `rank` that lost `lost` points was within the noise of the best.
pub fn within_noise(rank: Option<usize>, lost: Option<f64>) -> bool {
    rank.is_some_and(|r| r > 1) && lost == Some(0.0)
}

/// The status's name and progress.
fn status_words(status: Option<&AnalysisStatus>) -> (&'static str, u32, u32) {
    match status {
        None => ("none", 0, 0),
        Some(AnalysisStatus::Queued) => ("queued", 0, 0),
        Some(AnalysisStatus::Running { done, total }) => ("running", *done, *total),
        Some(AnalysisStatus::Done) => ("done", 0, 0),
        Some(AnalysisStatus::Failed(_)) => ("failed", 0, 0),
    }
}

pub fn player_rows(players: &[crate::record::PlayerInfo], reports: &[PlayerReport]) -> Vec<PlayerLossRow> {
    (players.iter().zip(reports))
        .map(|(p, r)| PlayerLossRow {
            name: p.name.clone(),
            turns: r.turns,
            best_moves: r.best_moves,
            points_lost: view::points(r.points_lost),
            average: view::points(r.average_points_lost),
        })
        .collect()
}

/// The analysis page without its results: the status, its progress, and why it failed.
pub fn analysis_frame<T>(id: GameId, title: String, stored: &Option<(AnalysisStatus, Option<T>)>) -> AnalysisPage {
    let (status, done, total) = status_words(stored.as_ref().map(|s| &s.0));
    AnalysisPage {
        id,
        title,
        status,
        done,
        total,
        running: matches!(status, "queued" | "running"),
        failed: match stored {
            Some((AnalysisStatus::Failed(e), _)) => Some(e.clone()),
            _ => None,
        },
        players: Vec::new(),
        turns: Vec::new(),
        move_label: "Tile",
        basis: String::new(),
        chances: None,
        puzzles: false,
        tiles_notice: None,
        made_by: crate::analysis::VERSION,
    }
}

/// A turn's "Chance after" and class cells: "–" and none where the turn has no chance.
pub fn chance_cells(chances: &[TurnChance], turn: u32) -> (String, Option<MoveClass>) {
    let after = chances.iter().find(|c| c.turn == turn).map(|c| c.chance.after);
    (
        after.map_or_else(|| "–".into(), |after| format!("{:.0}%", after * 100.0)),
        view::marked_class(chances, turn),
    )
}

/// A turn's alternatives, best first, as one table for every game: each game gives its
/// columns, each row's cells, and the words around the table.
#[derive(Template, WebTemplate)]
#[template(path = "alternatives.html")]
pub struct AlternativesPage {
    pub id: GameId,
    pub title: String,
    pub turn: u32,
    pub player: String,
    /// What the mover had to place (the tile games' drawn tile), with its picture.
    pub drawn: Option<Drawn>,
    /// How many moves there were, in words: "12 placements, 40 moves", "20 actions".
    pub counted: String,
    /// What a value measures, in words.
    pub value: String,
    /// The values are the heuristic's fast estimate: the page offers the full analysis.
    pub estimate: bool,
    /// Why no order is claimed between the best moves, when the recheck could not separate
    /// them (`TurnReport::too_close`), in the game's words.
    pub too_close: Option<&'static str>,
    /// The orders the table may be sorted in (`?sort=` key, label), and the one it is in.
    pub sorts: &'static [(&'static str, &'static str)],
    pub sort: &'static str,
    /// The table waits behind a fold with this summary: the Card Game's list may give away a
    /// card still hidden.
    pub fold: Option<String>,
    /// The columns after the rank: (heading, what it means when the heading is terse).
    pub columns: Vec<(String, Option<&'static str>)>,
    pub rows: Vec<AltRow>,
    /// Paragraphs under the table.
    pub notes: Vec<String>,
    pub tiles_notice: Option<&'static str>,
}

/// The tile the mover drew: its name and its picture's address.
pub struct Drawn {
    pub name: String,
    pub picture: String,
}

/// One alternative: its rank, whether it was played, and its cells in the page's columns.
pub struct AltRow {
    pub rank: u32,
    pub played: bool,
    pub cells: Vec<Cell>,
}

/// A cell of the alternatives table.
pub enum Cell {
    Text(String),
    /// A link to the alternative's own page.
    Link {
        href: String,
        text: String,
    },
    /// The alternative drawn small, linking to its own page.
    Thumbnail {
        href: String,
        src: askama::filters::Safe<String>,
    },
    /// A value; `ranking_only` marks one from the samples that ranked the moves, where others
    /// were weighed again on fresh ones.
    Value {
        text: String,
        ranking_only: bool,
    },
}

pub fn per_player(v: &[i32]) -> String {
    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" / ")
}

/// A value with its standard error when playouts measured it: "12.3 ± 1.1".
pub fn value_with_error(a: &AlternativeReport) -> String {
    match &a.playouts {
        Some(p) => format!("{} ± {}", view::points(a.value), view::points(p.std_error)),
        None => view::points(a.value),
    }
}

/// What an answer to a mistake's review is worth, in words, and whether it mends it; `not_legal`
/// says why a move that cannot be made is refused.
pub fn mend_words(mend: Mend, not_legal: String) -> (bool, String) {
    let said = match mend {
        Mend::Good => "Found: that move is as good as the best, within the noise of the playouts.".to_string(),
        Mend::Better { lost } => format!(
            "Better than the move played, but still {} points below the best. Try again.",
            view::points(lost)
        ),
        Mend::NoBetter { lost } => format!(
            "No better than the move played: {} points below the best. Try again.",
            view::points(lost)
        ),
        Mend::NotLegal => not_legal,
    };
    (mend == Mend::Good, said)
}

/// Links each player's mistakes to review (`reviews[p]`, their turns in order): the accuracy
/// table links a player's first, and each such turn's row its own.
pub fn link_reviews(page: &mut AnalysisPage, reviews: &[Vec<u32>]) {
    let id = page.id;
    for (row, turns) in page.chances.iter_mut().flat_map(|c| &mut c.accuracy).zip(reviews) {
        row.review = turns.first().map(|&n| links::mistake(id, n));
    }
    for row in &mut page.turns {
        row.review = (reviews.iter().flatten().any(|&n| n == row.turn)).then(|| links::mistake(id, row.turn));
    }
}

/// A game with no mistakes to review yet: its analysis is not done.
pub fn not_analysed_yet(id: GameId) -> Problem {
    Problem::not_found(format!(
        "game {id} has no mistakes to review until its analysis is done"
    ))
}

/// Turn `n` of game `id` is not its mover's mistake or blunder.
pub fn no_mistake(id: GameId, n: u32) -> Problem {
    Problem::not_found(format!("turn {n} of game {id} is no mistake or blunder"))
}
