//! Puzzles from an analysed game (`analysis::puzzles`): the list, and each puzzle's page, where
//! the reader picks a square and a rotation and is told how good that placement was.

use crate::analysis::puzzles::{self, Placement, Puzzle};
use crate::analysis::report::TurnReport;
use crate::store::GameId;
use crate::web::problem::Problem;
use crate::web::{AppState, LoadedGame, blocking, view};
use actix_web::{route, web};
use askama::Template;
use askama_web::WebTemplate;
use serde::Deserialize;

/// A puzzle in the list.
struct PuzzleLink {
    turn: u32,
    player: String,
    tile: String,
    picture: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "puzzles.html")]
pub struct PuzzlesPage {
    id: GameId,
    title: String,
    /// Whether the game's analysis is done: before, there is nothing to pick from.
    analysed: bool,
    margin: f64,
    puzzles: Vec<PuzzleLink>,
    tiles_notice: Option<&'static str>,
}

/// The game's puzzles, or how to get them.
#[route("/g/{id:[0-9a-f]{16}}/puzzles", method = "GET", method = "HEAD")]
pub async fn list(state: web::Data<AppState>, id: web::Path<GameId>) -> Result<PuzzlesPage, Problem> {
    let id = id.into_inner();
    blocking(move || {
        let g = state.load(&id)?;
        let stored = state.finished_analysis(&id)?;
        let puzzles = stored.as_ref().map(|s| puzzles::pick(&s.turns)).unwrap_or_default();
        Ok(PuzzlesPage {
            title: g.row.players.join(" vs "),
            analysed: stored.is_some(),
            margin: puzzles::CLEAR_MARGIN,
            puzzles: puzzles
                .iter()
                .map(|p| PuzzleLink {
                    turn: p.turn,
                    player: g.player_name(p.player),
                    picture: view::tile_picture(&id, &p.tile),
                    tile: p.tile.clone(),
                })
                .collect(),
            tiles_notice: view::tiles_notice(&g.record),
            id,
        })
    })
    .await
}

/// A reader's answer: a square as `x,y` and a rotation in degrees.
#[derive(Deserialize)]
pub struct AnswerQuery {
    square: Option<String>,
    rotation: Option<u16>,
}

/// What the reader's placement was worth.
struct Verdict {
    solved: bool,
    /// The placement in words, and how it ranks.
    said: String,
    /// The best placement, revealed once the reader has answered.
    solution: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "puzzle.html")]
pub struct PuzzlePage {
    id: GameId,
    title: String,
    turn: u32,
    player: String,
    tile: String,
    picture: String,
    /// The position the player faced: the board after the turn before.
    board: String,
    /// Every square the tile fits, as `x,y`.
    squares: Vec<String>,
    chosen_square: String,
    chosen_rotation: u16,
    verdict: Option<Verdict>,
    tiles_notice: Option<&'static str>,
    /// The next puzzle of the game, if any.
    next: Option<u32>,
}

/// Puzzle `n`: the board before turn n and its drawn tile; with an answer, what it was worth.
#[route("/g/{id:[0-9a-f]{16}}/puzzle/{n:[0-9]+}", method = "GET", method = "HEAD")]
pub async fn puzzle(
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32)>,
    q: web::Query<AnswerQuery>,
) -> Result<PuzzlePage, Problem> {
    let (id, n) = path.into_inner();
    blocking(move || {
        let g = state.load(&id)?;
        let stored = state
            .finished_analysis(&id)?
            .ok_or_else(|| Problem::not_found(format!("game {id} has no puzzles until its analysis is done")))?;
        let not_one = || Problem::not_found(format!("turn {n} of game {id} is not a puzzle"));
        let t = stored.turn(n).ok_or_else(not_one)?;
        let p = puzzles::puzzle(t).ok_or_else(not_one)?;
        let next = puzzles::pick(&stored.turns).into_iter().find(|later| later.turn > n);
        Ok(page(&g, t, &p, &q, next.map(|p| p.turn)))
    })
    .await
}

fn page(g: &LoadedGame, t: &TurnReport, p: &Puzzle, q: &AnswerQuery, next: Option<u32>) -> PuzzlePage {
    let id = g.row.id;
    let ranked = puzzles::placements(t);
    let mut squares: Vec<[i32; 2]> = ranked.iter().map(|p| p.position).collect();
    squares.sort();
    squares.dedup();
    let verdict = match (&q.square, q.rotation) {
        (Some(square), Some(rotation)) => Some(verdict(&ranked, p, square, rotation)),
        _ => None,
    };
    PuzzlePage {
        title: g.row.players.join(" vs "),
        turn: t.turn,
        player: g.player_name(t.player),
        picture: view::tile_picture(&id, &t.tile),
        tile: t.tile.clone(),
        board: format!("/g/{id}/t/{}.png?overlay=ownership,open-spots", t.turn - 1),
        squares: squares.iter().map(|[x, y]| format!("{x},{y}")).collect(),
        chosen_square: q.square.clone().unwrap_or_default(),
        chosen_rotation: q.rotation.unwrap_or(0),
        verdict,
        next,
        tiles_notice: view::tiles_notice(&g.record),
        id,
    }
}

/// How the placement at `square` turned `rotation` degrees compares with the best.
fn verdict(ranked: &[Placement], p: &Puzzle, square: &str, rotation: u16) -> Verdict {
    let solution = format!(
        "The best placement: ({},{}) rotated {}°, {} points ahead of any other.",
        p.position[0],
        p.position[1],
        p.rotation,
        view::points(p.lead)
    );
    let chosen = ranked
        .iter()
        .position(|c| format!("{},{}", c.position[0], c.position[1]) == square && c.rotation == rotation);
    let said = match chosen {
        None => format!("The tile does not fit at ({square}) rotated {rotation}°."),
        Some(0) => "Solved: that is the best placement.".to_string(),
        Some(i) => format!(
            "({square}) rotated {rotation}° ranks {} of {} placements: {} points below the best.",
            i + 1,
            ranked.len(),
            view::points(ranked[0].best.value - ranked[i].best.value)
        ),
    };
    Verdict {
        solved: chosen == Some(0),
        said,
        solution,
    }
}
