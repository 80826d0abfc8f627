//! Puzzles from an analysed game (`analysis::puzzles`): the list, and each puzzle's page; and
//! the review of a player's mistakes, one page each, the same board asking for a better move
//! than the one played ("learn from your mistakes", as on lichess; the Card Game's, from the
//! table, is built in `web/game/cards.rs`). The reader clicks a square of the board to put the
//! drawn tile there, clicks it again to turn it, chooses the meeple step and places it; a wrong
//! try says how far it is from the best without saying where the best is, and the reader tries
//! again until they ask for the answer.
//!
//! The page's address holds the whole state (`?square=x,y&rotation=90&meeple=meeple-city-N`,
//! `?reveal=1`), so it works without JavaScript; the script only moves and turns the tile
//! without a page load. A malformed address is refused with 400, never echoed.

use crate::analysis::puzzles::{self, Answer, Judgement, Mistake, Puzzle};
use crate::analysis::report::{ActionReport, TurnReport};
use crate::engine::cards::CardMove;
use crate::engine::{GameKind, Pos};
use crate::record::{GameRecord, Line};
use crate::render;
use crate::replay::words;
use crate::store::GameId;
use crate::web::board_view::{self, PuzzleTile, parse_meeple_token};
use crate::web::game::analysis::{mend_words, no_mistake, not_analysed_yet};
use crate::web::game::{GameHead, ReviewAsk, ReviewPage};
use crate::web::loaded::{Loaded, Stored};
use crate::web::problem::Problem;
use crate::web::query::Query;
use crate::web::view::PlayerView;
use crate::web::{AppState, blocking, links, view};
use actix_web::http::StatusCode;
use actix_web::{Either, route, web};
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
#[route("/g/{id}/puzzles", method = "GET", method = "HEAD")]
pub async fn list(state: web::Data<AppState>, id: web::Path<GameId>) -> Result<PuzzlesPage, Problem> {
    let id = id.into_inner();
    blocking(move || {
        let g = state.load(&id)?;
        let stored = state.finished_analysis(&id, g.row.kind)?;
        let stored = stored.as_ref().and_then(|a| a.tiles());
        let puzzles = stored.map(|s| puzzles::pick(&s.turns)).unwrap_or_default();
        Ok(PuzzlesPage {
            title: g.row.players.join(" vs "),
            analysed: stored.is_some(),
            margin: puzzles::CLEAR_MARGIN,
            puzzles: puzzles
                .iter()
                .map(|p| PuzzleLink {
                    turn: p.turn,
                    player: g.player_name(p.player),
                    picture: links::tile_svg(id, &p.tile),
                    tile: p.tile.clone(),
                })
                .collect(),
            tiles_notice: view::tiles_notice(&g.record),
            id,
        })
    })
    .await
}

/// A reader's answer as the address states it; [`AnswerQuery::parse`] reads it.
#[derive(Deserialize)]
pub struct AnswerQuery {
    square: Option<String>,
    rotation: Option<String>,
    meeple: Option<String>,
    /// The Card Game's answer: an action in the explore board's notation (`red-3,road`).
    action: Option<String>,
    reveal: Option<String>,
}

/// What the reader asked for.
#[derive(Debug, Default, PartialEq)]
struct Asked {
    /// The square the tile is on, turned how far (degrees); none or the first rotation that fits.
    square: Option<(Pos, Option<u16>)>,
    /// With a square: the answer is given.
    meeple: Option<ActionReport>,
    reveal: bool,
}

fn bad_answer(detail: &str) -> Problem {
    Problem::new(StatusCode::BAD_REQUEST, "Bad answer", detail)
}

impl AnswerQuery {
    /// The request in types, or 400 saying what is wrong (never quoting it).
    fn parse(&self) -> Result<Asked, Problem> {
        if self.action.is_some() {
            return Err(bad_answer(
                "a tile game's answer is a square, a rotation and a meeple step, not an action",
            ));
        }
        let (square, rotation) =
            board_view::parse_placement(self.square.as_deref(), self.rotation.as_deref()).map_err(bad_answer)?;
        let meeple = (self.meeple.as_deref())
            .map(|m| {
                parse_meeple_token(m).ok_or_else(|| {
                    bad_answer("a meeple step is none, abbot-back, or figure-feature-location (such as meeple-city-N)")
                })
            })
            .transpose()?;
        if square.is_none() && (rotation.is_some() || meeple.is_some()) {
            return Err(bad_answer("a rotation or a meeple step needs a square"));
        }
        if meeple.is_some() && rotation.is_none() {
            return Err(bad_answer("an answer needs its rotation"));
        }
        Ok(Asked {
            square: square.map(|s| (s, rotation)),
            meeple,
            reveal: self.reveal.is_some(),
        })
    }

    /// A Card Game's answer in types, or 400 saying what is wrong (never quoting it).
    fn card_answer(&self) -> Result<ReviewAsk, Problem> {
        if self.square.is_some() || self.rotation.is_some() || self.meeple.is_some() {
            return Err(bad_answer(
                "a Card Game's answer is an action (such as action=red-3,road), not a square",
            ));
        }
        let action = (self.action.as_deref())
            .map(|a| match a.parse::<Line<CardMove>>() {
                Ok(Line { steps, .. }) if steps.len() == 1 => Ok(steps[0]),
                _ => Err(bad_answer(
                    "an action is card,row (such as red-3,road), follower,row, keep or turn-in",
                )),
            })
            .transpose()?;
        Ok(ReviewAsk {
            action,
            reveal: self.reveal.is_some(),
        })
    }
}

/// A meeple step the reader can choose for the placement shown.
struct MeepleChoice {
    token: String,
    words: String,
    checked: bool,
}

/// The answer's form: the placement the reader has made, and the meeple steps it allows.
/// Hidden until a square is chosen (the script fills it in then).
struct AnswerForm {
    shown: bool,
    square: String,
    rotation: u16,
    /// The link that turns the tile to the next rotation that fits.
    turn_href: String,
    meeples: Vec<MeepleChoice>,
}

/// What the reader's answer was worth.
struct Verdict {
    solved: bool,
    said: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "puzzle.html")]
pub struct PuzzlePage {
    game: GameHead,
    turn: u32,
    player: String,
    tile: String,
    picture: String,
    /// The position the player faced, inline, with a link on every square the tile fits.
    board: String,
    /// The same board as a larger picture, to zoom into without the script.
    large: String,
    /// The scores before the move.
    players: Vec<PlayerView>,
    remaining: Vec<(String, u8)>,
    tiles_left: u32,
    form: AnswerForm,
    verdict: Option<Verdict>,
    /// The scoreboard's "if it ended now" column is shown: a puzzle is before its turn.
    hide_if_ended: bool,
    /// Whether the verdict is "solved": then the links that give the answer away are offered.
    solved: bool,
    /// The best move in words, once the reader asked for it.
    solution: Option<String>,
    /// What the reader looks for, its page's address, and where the list of its kind is.
    ask: Ask,
    /// The next page of the same kind, if any.
    next: Option<String>,
}

/// What a page asks the reader, in words and links.
struct Ask {
    /// "Find the best move", "Find a better move".
    heading: &'static str,
    /// The question beside the board.
    question: String,
    /// The page's own address, which answers go to.
    address: String,
    /// The list of pages of its kind, and its words.
    back: (String, &'static str),
    /// The next page's words.
    next: &'static str,
}

/// What the reader is asked to find.
enum Task {
    /// A puzzle's clearly best placement.
    Puzzle(Puzzle),
    /// A move better than the mistake played.
    Mistake(Mistake),
}

impl Task {
    /// The answer shown when the reader asks for it.
    fn solution(&self) -> Answer {
        match self {
            Task::Puzzle(p) => Answer {
                position: p.position,
                rotation: p.rotation,
                action: p.action.clone(),
            },
            Task::Mistake(m) => m.best.clone(),
        }
    }

    /// The solution in words, with why it is the answer.
    fn solution_words(&self, game: GameKind) -> String {
        let a = self.solution();
        let at = format!(
            "the tile at ({},{}) turned {}°, {}",
            a.position[0],
            a.position[1],
            a.rotation,
            a.action.words(game)
        );
        match self {
            Task::Puzzle(p) => format!(
                "The best move: {at}. It is {} points ahead of any other placement.",
                view::points(p.lead)
            ),
            Task::Mistake(m) => format!(
                "The best move: {at}. The move played was {} points below it.",
                view::points(m.lost)
            ),
        }
    }

    /// How the reader's answer does, without saying where the best is.
    fn verdict(&self, game: GameKind, t: &TurnReport, answer: &Answer) -> Verdict {
        match self {
            Task::Puzzle(p) => verdict(game, t, p, answer),
            Task::Mistake(_) => mend_verdict(game, t, answer),
        }
    }
}

/// Puzzle `n`: the board before turn n and its drawn tile; with an answer, what it was worth.
#[route("/g/{id}/puzzle/{n:[0-9]+}", method = "GET", method = "HEAD")]
pub async fn puzzle(
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32)>,
    q: Query<AnswerQuery>,
) -> Result<PuzzlePage, Problem> {
    let (id, n) = path.into_inner();
    let asked = q.parse()?;
    blocking(move || {
        let g = state.load(&id)?;
        let finished = state.finished_analysis(&id, g.row.kind)?;
        let stored = (finished.as_ref().and_then(|a| a.tiles()))
            .ok_or_else(|| Problem::not_found(format!("game {id} has no puzzles until its analysis is done")))?;
        let not_one = || Problem::not_found(format!("turn {n} of game {id} is not a puzzle"));
        let t = stored.turn(n).ok_or_else(not_one)?;
        let p = puzzles::puzzle(t).ok_or_else(not_one)?;
        let next = puzzles::pick(&stored.turns).into_iter().find(|later| later.turn > n);
        let ask = Ask {
            heading: "Find the best move",
            question: format!(
                "{} drew {}. Where should it go, and where the {}?",
                g.player_name(t.player),
                t.facts.tile,
                words::figures(g.record.setup.game).0
            ),
            address: links::puzzle(id, n),
            back: (links::puzzles(id), "all puzzles"),
            next: "next puzzle",
        };
        let next = next.map(|p| links::puzzle(id, p.turn));
        page(&state, &g, t, &Task::Puzzle(p), &asked, ask, next)
    })
    .await
}

/// Mistake `n` of an analysed game: the board (the Card Game: the table) before turn n,
/// asking its player for a better move than the one they played; the next link goes to the
/// same player's next mistake.
#[route("/g/{id}/mistake/{n:[0-9]+}", method = "GET", method = "HEAD")]
pub async fn mistake(
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32)>,
    q: Query<AnswerQuery>,
) -> Result<Either<PuzzlePage, ReviewPage>, Problem> {
    let (id, n) = path.into_inner();
    blocking(move || match state.loaded(&id)? {
        Loaded::Tiles(g) => Ok(Either::Left(tile_mistake(&state, &g, n, &q.parse()?)?)),
        Loaded::Cards(g) => Ok(Either::Right(g.review_page(&state, n, &q.card_answer()?)?)),
    })
    .await
}

fn tile_mistake(state: &AppState, g: &Stored<GameRecord>, n: u32, asked: &Asked) -> Result<PuzzlePage, Problem> {
    let id = g.row.id;
    let finished = state.finished_analysis(&id, g.row.kind)?;
    let report = (finished.as_ref().and_then(|a| a.tiles())).ok_or_else(|| not_analysed_yet(id))?;
    let not_one = || no_mistake(id, n);
    let t = report.turn(n).ok_or_else(not_one)?;
    let review = puzzles::mistakes(report, &report.chances(None), t.player);
    let m = (review.iter().find(|(turn, _)| *turn == n))
        .ok_or_else(not_one)?
        .1
        .clone();
    let played = t.played.and_then(|i| t.alternatives.get(i)).ok_or_else(not_one)?;
    let ask = Ask {
        heading: "Find a better move",
        question: format!(
            "{} drew {} and put it at ({},{}) turned {}°, {}: {} points below the best move. What was better?",
            g.player_name(t.player),
            t.facts.tile,
            played.position[0],
            played.position[1],
            played.rotation,
            played.action.words(g.record.setup.game),
            view::points(m.lost)
        ),
        address: links::mistake(id, n),
        back: (links::analysis(id), "the analysis"),
        next: "next mistake",
    };
    let next = (review.iter())
        .find(|(turn, _)| *turn > n)
        .map(|(turn, _)| links::mistake(id, turn));
    page(state, g, t, &Task::Mistake(m), asked, ask, next)
}

fn page(
    state: &AppState,
    g: &Stored<GameRecord>,
    t: &TurnReport,
    task: &Task,
    asked: &Asked,
    ask: Ask,
    next: Option<String>,
) -> Result<PuzzlePage, Problem> {
    let id = g.row.id;
    let record = &g.record;
    let at = (g.after(t.turn - 1)).ok_or_else(|| Problem::internal(format!("no turn {} to ask", t.turn)))?;
    let kind = (record.setup.catalog.by_name(&t.facts.tile))
        .map(|k| record.setup.catalog.get(k))
        .ok_or_else(|| Problem::internal(format!("turn {}'s tile is not in the catalog", t.turn)))?;
    let moves = board_view::placement_moves(t, kind);
    // The tile stands where the reader put it, or where the answer is once revealed.
    let solution = task.solution();
    let placed = if asked.reveal {
        Some((Pos::new(solution.position[0], solution.position[1]), solution.rotation))
    } else {
        asked.square.and_then(|(pos, rotation)| {
            let turns = moves.get(&pos)?;
            rotation
                .map_or(turns.keys().next().copied(), |r| turns.contains_key(&r).then_some(r))
                .map(|r| (pos, r))
        })
    };
    let href = |pos: Pos, r: u16| format!("{}?square={},{}&rotation={r}", ask.address, pos.x, pos.y);
    let colour = render::colours(record).get(t.player);
    let meeple = if asked.reveal {
        Some(&solution.action)
    } else {
        asked.meeple.as_ref()
    };
    let tile = placed.map(|(pos, rotation)| PuzzleTile {
        pos,
        rotation,
        meeple: meeple.map(|a| (a, colour)),
    });
    let board = board_view::puzzle_board(record, at, &moves, kind, tile, &href);
    let form = answer_form(
        record.setup.game,
        &moves,
        placed.filter(|_| !asked.reveal),
        asked.meeple.as_ref(),
        &href,
    );
    let verdict = match (&asked.square, &asked.meeple) {
        (Some((pos, Some(rotation))), Some(action)) if !asked.reveal => Some(task.verdict(
            record.setup.game,
            t,
            &Answer {
                position: [pos.x, pos.y],
                rotation: *rotation,
                action: action.clone(),
            },
        )),
        _ => None,
    };
    Ok(PuzzlePage {
        game: g.head(state)?,
        hide_if_ended: false,
        turn: t.turn,
        player: g.player_name(t.player),
        picture: links::tile_svg(id, &t.facts.tile),
        tile: t.facts.tile.clone(),
        board,
        large: (links::picture(id, Some(t.turn - 1)))
            .overlay("ownership,last-move,open-spots")
            .size(128)
            .to_string(),
        players: view::players_at(record, at.game, false, &render::colours(record)),
        remaining: view::remaining_tiles(&record.setup.catalog, at.game),
        tiles_left: at.game.pack_left(),
        form,
        solved: verdict.as_ref().is_some_and(|v| v.solved),
        verdict,
        solution: asked.reveal.then(|| task.solution_words(g.record.setup.game)),
        ask,
        next,
    })
}

/// The form for the tile at `placed`, with its meeple steps in board order, the chosen one
/// checked, else the first, no figure (the order gives nothing away); hidden and empty with no
/// tile placed.
fn answer_form(
    game: GameKind,
    moves: &board_view::PlacementMoves,
    placed: Option<(Pos, u16)>,
    meeple: Option<&ActionReport>,
    href: &dyn Fn(Pos, u16) -> String,
) -> AnswerForm {
    let Some((pos, r)) = placed else {
        return AnswerForm {
            shown: false,
            square: String::new(),
            rotation: 0,
            turn_href: String::new(),
            meeples: Vec::new(),
        };
    };
    let turns = moves.get(&pos);
    AnswerForm {
        shown: true,
        square: format!("{},{}", pos.x, pos.y),
        rotation: r,
        turn_href: turns.map_or_else(String::new, |turns| {
            href(pos, board_view::next_rotation(turns, Some(r)))
        }),
        meeples: (turns.and_then(|turns| turns.get(&r)).into_iter().flatten())
            .enumerate()
            .map(|(i, c)| MeepleChoice {
                token: c.token.clone(),
                words: c.action.words(game),
                checked: meeple.map_or(i == 0, |m| *m == c.action),
            })
            .collect(),
    }
}

/// How the reader's answer compares with the best, without saying where the best is.
fn verdict(game: GameKind, t: &TurnReport, p: &Puzzle, answer: &Answer) -> Verdict {
    let [x, y] = answer.position;
    let judgement = puzzles::judge(t, p, answer);
    let said = match judgement {
        Judgement::Solved => "Solved: that is the best placement.".to_string(),
        Judgement::RightPlacement { lost } => format!(
            "The right square and turn, but {} loses {} points against the best meeple step there. Try another.",
            answer.action.words(game),
            view::points(lost)
        ),
        Judgement::Worse { rank, of, lost } => format!(
            "Not the best: ({x},{y}) turned {}° ranks {rank} of {of} placements, {} points below the best. Try again.",
            answer.rotation,
            view::points(lost)
        ),
        Judgement::NotLegal => format!(
            "That move is not possible: the tile does not fit at ({x},{y}) turned {}°, or the meeple cannot stand there.",
            answer.rotation
        ),
    };
    Verdict {
        solved: judgement == Judgement::Solved,
        said,
    }
}

/// How the reader's answer mends a mistake, without saying where the best is.
fn mend_verdict(game: GameKind, t: &TurnReport, answer: &Answer) -> Verdict {
    let [x, y] = answer.position;
    let not_legal = format!(
        "That move is not possible: the tile does not fit at ({x},{y}) turned {}°, or the {} cannot stand there.",
        answer.rotation,
        words::figures(game).0
    );
    let (solved, said) = mend_words(puzzles::mend(t, answer), not_legal);
    Verdict { solved, said }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(square: Option<&str>, rotation: Option<&str>, meeple: Option<&str>) -> AnswerQuery {
        AnswerQuery {
            square: square.map(str::to_string),
            rotation: rotation.map(str::to_string),
            meeple: meeple.map(str::to_string),
            action: None,
            reveal: None,
        }
    }

    #[test]
    fn answers_are_read_or_refused_without_being_quoted() {
        let asked = query(Some("0,-2"), Some("90"), Some("meeple-field-N.w"))
            .parse()
            .unwrap();
        assert_eq!(asked.square, Some((Pos::new(0, -2), Some(90))));
        assert_eq!(
            asked.meeple,
            Some(ActionReport::Deploy {
                feature: "field".into(),
                location: "N.w".into(),
                figure: "meeple".into()
            })
        );
        for (square, rotation, meeple) in [
            (Some("abc"), Some("45"), None),
            (Some("1,2"), Some("45"), None),
            (Some("1"), None, None),
            (Some("1,2,3"), None, None),
            (Some("1,2"), Some("90"), Some("<script>")),
            (None, Some("90"), None),
            (Some("1,2"), None, Some("none")),
        ] {
            let e = query(square, rotation, meeple).parse().unwrap_err();
            assert_eq!(e.status, StatusCode::BAD_REQUEST);
            assert!(!e.detail.contains("abc") && !e.detail.contains("script") && !e.detail.contains("45"));
        }
    }

    #[test]
    fn meeple_tokens_read_back() {
        for a in [
            ActionReport::Pass,
            ActionReport::RecallAbbot,
            ActionReport::Deploy {
                feature: "cloister".into(),
                location: "center".into(),
                figure: "abbot".into(),
            },
        ] {
            assert_eq!(parse_meeple_token(&board_view::meeple_token(&a)), Some(a));
        }
    }
}
