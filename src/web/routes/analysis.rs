//! What-if analysis pages: queue a whole-game analysis and watch it, list a turn's
//! alternatives, and show one alternative on the board (`web::what_if` reads them).

use crate::analysis;
use crate::analysis::cards::CardGameReport;
use crate::analysis::report::{AlternativeReport, GameReport, MoveBrief, PlayerReport, StoredAnalysis};
use crate::analysis::win_chance::{MoveClass, TurnChance};
use crate::engine::GameKind;
use crate::record::RecordedMove;
use crate::render::{self, ImageFormat, Picture, RenderOptions};
use crate::replay::words;
use crate::store::{AnalysisStatus, GameId, QueueAnswer};
use crate::web::chance_view::{self, ChancesView};
use crate::web::problem::{Problem, wants_html};
use crate::web::what_if::{TurnAlternatives, is_listed, listing, stored_analysis, turn_alternatives, with_alternative};
use crate::web::{AppState, Loaded, LoadedCards, LoadedGame, blocking, view};
use actix_web::http::header;
use actix_web::{Either, HttpRequest, HttpResponse, post, route, web};
use askama::Template;
use askama_web::WebTemplate;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

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
    players: Vec<PlayerLossRow>,
    turns: Vec<TurnLossRow>,
    /// What a turn's move is called: a tile, or an action of the Card Game.
    move_label: &'static str,
    /// How values are found, in words.
    basis: String,
    /// The win-chance graph and accuracy, once done.
    chances: Option<ChancesView>,
    /// A link to the game's puzzles (tile games, once analysed).
    puzzles: bool,
    tiles_notice: Option<&'static str>,
}

/// A player's moves over the analysed game.
struct PlayerLossRow {
    name: String,
    turns: u32,
    best_moves: u32,
    points_lost: String,
    average: String,
}

/// One analysed turn: who moved, the played move's rank and what it lost, and the best move.
struct TurnLossRow {
    turn: u32,
    player: String,
    colour: String,
    /// The tile drawn, or the Card Game action played.
    played: String,
    /// The tile's picture, in the tile games.
    picture: Option<String>,
    rank: String,
    points_lost: String,
    /// Ranked below the best, yet nothing lost: the recheck could not tell it from the best.
    within_noise: bool,
    /// The best move in words ("the move played" when it was).
    best: String,
    /// The mover's chance of winning after the move, and the move's class ("mistake ?").
    chance: String,
    class: Option<MoveClass>,
}

fn points_or_dash(x: Option<f64>) -> String {
    x.map_or_else(|| "–".into(), view::points)
}

/// Whether a move ranked `rank` that lost `lost` points was within the noise of the best.
fn within_noise(rank: Option<usize>, lost: Option<f64>) -> bool {
    rank.is_some_and(|r| r > 1) && lost == Some(0.0)
}

/// A tile game's move briefly: "(0,2) 90°, meeple on the city (N)".
fn move_words(m: &MoveBrief, game: GameKind) -> String {
    format!(
        "({},{}) {}°, {}",
        m.position[0],
        m.position[1],
        m.rotation,
        m.action.words(game)
    )
}

/// Queues the whole-game analysis. Browsers go to the progress page; API clients get 202.
#[utoipa::path(post, path = "/g/{id}/analysis", params(("id" = String, Path, description = "Game id")),
    responses((status = 202, description = "Queued (or already queued or done)", body = QueuedAnswer),
              (status = 303, description = "Browsers: to the progress page"),
              (status = 403, description = "A page of another site asked", content_type = "application/problem+json"),
              (status = 404, description = "No such game", content_type = "application/problem+json")))]
#[post("/g/{id:[0-9a-f]{16}}/analysis")]
pub async fn queue(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
) -> Result<HttpResponse, Problem> {
    crate::web::origin::same_origin(&req, &state.public_url)?;
    state.limits.analysis(req.peer_addr().map(|a| a.ip()))?;
    let id = id.into_inner();
    let st = state.clone();
    let answer = blocking(move || {
        st.load_any(&id)?;
        let jobs = st
            .jobs
            .as_ref()
            .ok_or_else(|| Problem::unavailable("this server runs no analyses", 3600))?;
        let answer = jobs.request(&st.store, &id)?;
        st.analysis_seen.forget(&id);
        Ok(answer)
    })
    .await?;
    if let QueueAnswer::Full { waiting } = answer {
        return Err(Problem::unavailable(
            format!("the analysis queue is full: {waiting} games are waiting or being analysed"),
            60,
        ));
    }
    let url = format!("/g/{id}/analysis");
    let from_form = req
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|c| c.as_bytes().starts_with(b"application/x-www-form-urlencoded"));
    Ok(if wants_html(&req) || from_form {
        HttpResponse::SeeOther().insert_header((header::LOCATION, url)).finish()
    } else {
        HttpResponse::Accepted()
            .insert_header((header::LOCATION, url.clone()))
            .json(QueuedAnswer {
                status_url: format!("/api/games/{id}/analysis"),
                url,
            })
    })
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

/// Where to follow a queued analysis.
#[derive(Serialize, ToSchema)]
pub struct QueuedAnswer {
    /// Its status, as JSON.
    status_url: String,
    /// Its page.
    url: String,
}

/// The analysis' status, and its summary when done.
#[utoipa::path(get, path = "/api/games/{id}/analysis", params(("id" = String, Path, description = "Game id")),
    responses((status = 200, description = "The status, its progress, and the summary once done", body = AnalysisStatusAnswer),
              (status = 404, description = "No such game", content_type = "application/problem+json")))]
#[route("/api/games/{id:[0-9a-f]{16}}/analysis", method = "GET", method = "HEAD")]
pub async fn api_status(
    state: web::Data<AppState>,
    id: web::Path<GameId>,
) -> Result<web::Json<AnalysisStatusAnswer>, Problem> {
    let id = id.into_inner();
    blocking(move || match state.load_any(&id)? {
        Loaded::Tiles(_) => status_answer::<StoredAnalysis>(&state, &id, |r| AnalysisSummary::Tiles(r.summary)),
        Loaded::Cards(_) => status_answer::<CardGameReport>(&state, &id, card_summary),
    })
    .await
    .map(web::Json)
}

/// An analysis' status: none asked, queued, running (with its progress), done (with its
/// summary, `null` if it cannot be read) or failed (with why).
#[derive(Serialize, ToSchema)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum AnalysisStatusAnswer {
    None,
    Queued,
    Running {
        /// Turns analysed so far, of `total`.
        done: u32,
        total: u32,
    },
    Done {
        result: Option<AnalysisSummary>,
    },
    Failed {
        error: String,
    },
}

/// A finished analysis, summarised.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum AnalysisSummary {
    Tiles(GameReport),
    Cards(CardSummary),
}

/// The status, with the result's summary when done.
fn status_answer<T: DeserializeOwned>(
    state: &AppState,
    id: &GameId,
    summarise: fn(T) -> AnalysisSummary,
) -> Result<AnalysisStatusAnswer, Problem> {
    Ok(match stored_analysis::<T>(state, id)? {
        None => AnalysisStatusAnswer::None,
        Some((AnalysisStatus::Queued, _)) => AnalysisStatusAnswer::Queued,
        Some((AnalysisStatus::Running { done, total }, _)) => AnalysisStatusAnswer::Running { done, total },
        Some((AnalysisStatus::Done, result)) => AnalysisStatusAnswer::Done {
            result: result.map(summarise),
        },
        Some((AnalysisStatus::Failed(error), _)) => AnalysisStatusAnswer::Failed { error },
    })
}

/// A Card Game analysis without its alternatives: each player's summary and each turn's loss.
#[derive(Serialize, ToSchema)]
pub struct CardSummary {
    samples: u32,
    players: Vec<PlayerReport>,
    turns: Vec<CardTurnSummary>,
}

/// A turn of a Card Game analysis: the action played, in words, and what it lost.
#[derive(Serialize, ToSchema)]
pub struct CardTurnSummary {
    turn: u32,
    player: u8,
    played: Option<String>,
    points_lost: Option<f64>,
}

fn card_summary(r: CardGameReport) -> AnalysisSummary {
    let turns = (r.turns.into_iter())
        .map(|t| CardTurnSummary {
            turn: t.turn,
            player: t.player,
            played: t.played.and_then(|i| t.alternatives.get(i)).map(|a| a.action.clone()),
            points_lost: t.points_lost,
        })
        .collect();
    AnalysisSummary::Cards(CardSummary {
        samples: r.samples,
        players: r.players,
        turns,
    })
}

/// The progress bar while it runs (the page refreshes itself), then each turn's played move
/// against the best and each player's average points lost.
#[route("/g/{id:[0-9a-f]{16}}/analysis", method = "GET", method = "HEAD")]
pub async fn analysis_page(state: web::Data<AppState>, id: web::Path<GameId>) -> Result<AnalysisPage, Problem> {
    let id = id.into_inner();
    blocking(move || match state.load_any(&id)? {
        Loaded::Tiles(g) => tile_analysis_page(&state, g),
        Loaded::Cards(g) => card_analysis_page(&state, g),
    })
    .await
}

fn player_rows(players: &[crate::record::PlayerInfo], reports: &[PlayerReport]) -> Vec<PlayerLossRow> {
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
fn analysis_frame<T>(id: GameId, title: String, stored: &Option<(AnalysisStatus, Option<T>)>) -> AnalysisPage {
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
    }
}

fn tile_analysis_page(state: &AppState, g: LoadedGame) -> Result<AnalysisPage, Problem> {
    let stored = stored_analysis::<StoredAnalysis>(state, &g.row.id)?;
    let mut page = analysis_frame(g.row.id, g.row.players.join(" vs "), &stored);
    page.tiles_notice = view::tiles_notice(&g.record);
    page.basis = format!(
        "Values are each move's expected final margin (own score minus the best opponent's) over the playouts. \
         Heuristic used where playouts are off: {}",
        analysis::HEURISTIC_FORMULA
    );
    if let Some((_, Some(r))) = stored {
        if let Some(s) = r.summary.shallower {
            page.basis += &format!(
                " This game is longer than one analysis may weigh in full, so each turn ran at most {} playouts \
                 (a 72-tile game's run up to {}): its values are noisier.",
                s.max_playouts_per_turn,
                analysis::DEFAULT_MAX_PLAYOUTS_PER_TURN
            );
        }
        let chances = chance_view::chances(&r, None);
        let colours = render::colours(&g.record);
        let players = &g.record.players;
        page.chances = ChancesView::new(&g.row.id, players, &chances, g.row.turns, &colours, true);
        page.puzzles = page.chances.is_some();
        page.players = player_rows(players, &r.summary.players);
        page.turns = (r.summary.turns.iter())
            .map(|t| {
                let (chance, class) = chance_cells(&chances, t.turn);
                let rank = t.played_rank.map(|r| r as usize);
                TurnLossRow {
                    turn: t.turn,
                    player: g.player_name(t.player),
                    colour: colours.get(t.player).hex(),
                    within_noise: within_noise(rank, t.points_lost),
                    best: match (rank, &t.best_move) {
                        (Some(1), _) => "the move played".into(),
                        (_, Some(b)) => move_words(b, g.record.game),
                        (_, None) => "–".into(),
                    },
                    chance,
                    class,
                    picture: Some(view::tile_picture(&g.row.id, &t.tile)),
                    played: t.tile.clone(),
                    rank: t
                        .played_rank
                        .map_or_else(|| "–".into(), |r| format!("{r} of {}", t.moves_count)),
                    points_lost: points_or_dash(t.points_lost),
                }
            })
            .collect();
    }
    Ok(page)
}

fn card_analysis_page(state: &AppState, g: LoadedCards) -> Result<AnalysisPage, Problem> {
    let stored = stored_analysis::<CardGameReport>(state, &g.row.id)?;
    let mut page = analysis_frame(g.row.id, g.row.players.join(" vs "), &stored);
    page.move_label = "Action played";
    if let Some((_, Some(r))) = stored {
        page.basis = format!(
            "Values are each action's expected final margin (own score minus the best opponent's) over {} samples \
             of what the mover could not see: the other hands, a face-down card they did not play, and the deals to come, \
             each played to the end by {}.",
            r.samples,
            r.playouts.players()
        );
        let total = g.record.moves.len() as u32;
        let chances = analysis::cards::turn_chances(&r, total);
        let colours = render::cards::colours(&g.record);
        page.chances = ChancesView::new(&g.row.id, &g.record.players, &chances, total, &colours, true);
        page.players = player_rows(&g.record.players, &r.players);
        page.turns = (r.turns.iter())
            .map(|t| {
                let (chance, class) = chance_cells(&chances, t.turn);
                let rank = t.played.map(|i| i + 1);
                TurnLossRow {
                    turn: t.turn,
                    player: g
                        .record
                        .players
                        .get(t.player as usize)
                        .map_or_else(String::new, |p| p.name.clone()),
                    colour: colours.get(t.player).hex(),
                    within_noise: within_noise(rank, t.points_lost),
                    best: match (rank, t.alternatives.first()) {
                        (Some(1), _) => "the move played".into(),
                        (_, Some(b)) => b.action.clone(),
                        (_, None) => "–".into(),
                    },
                    picture: None,
                    played: t.played.map_or_else(String::new, |i| t.alternatives[i].action.clone()),
                    rank: t
                        .played
                        .map_or_else(|| "–".into(), |i| format!("{} of {}", i + 1, t.alternatives.len())),
                    points_lost: points_or_dash(t.points_lost),
                    chance,
                    class,
                }
            })
            .collect();
    }
    Ok(page)
}

/// A turn's "Chance after" and class cells: "–" and none where the turn has no chance.
fn chance_cells(chances: &[TurnChance], turn: u32) -> (String, Option<MoveClass>) {
    let c = chances.iter().find(|c| c.turn == turn).map(|c| c.chance);
    (
        c.map_or_else(|| "–".into(), |c| format!("{:.0}%", c.after * 100.0)),
        c.map(|c| c.class).filter(|&k| k != MoveClass::Good),
    )
}

#[derive(Deserialize)]
pub struct SortQuery {
    sort: Option<String>,
}

/// One row of the alternatives table.
struct AltRow {
    k: usize,
    rank: u32,
    position: String,
    rotation: u16,
    action: String,
    immediate: String,
    /// The mover's own points now, for sorting.
    gain: i32,
    if_ended: String,
    value: String,
    played: bool,
}

#[derive(Template, WebTemplate)]
#[template(path = "alternatives.html")]
pub struct AlternativesPage {
    id: GameId,
    title: String,
    turn: u32,
    player: String,
    tile: String,
    picture: String,
    placements: usize,
    moves: usize,
    full: bool,
    basis: String,
    formula: &'static str,
    sort: String,
    rows: Vec<AltRow>,
    /// The meeple column's heading in the game's words: "Meeple", "Settler".
    figure: String,
    tiles_notice: Option<&'static str>,
}

fn per_player(v: &[i32]) -> String {
    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" / ")
}

/// Every alternative of turn `n`, sortable by rank, value, immediate points or position.
#[route("/g/{id:[0-9a-f]{16}}/t/{n:[0-9]+}/alternatives", method = "GET", method = "HEAD")]
pub async fn alternatives(
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32)>,
    q: web::Query<SortQuery>,
) -> Result<Either<AlternativesPage, CardAlternativesPage>, Problem> {
    let (id, n) = path.into_inner();
    blocking(move || match state.load_any(&id)? {
        Loaded::Tiles(g) => tile_alternatives(&state, g, n, q.into_inner()).map(Either::Left),
        Loaded::Cards(g) => card_alternatives(&state, g, n).map(Either::Right),
    })
    .await
}

fn tile_alternatives(state: &AppState, g: LoadedGame, n: u32, q: SortQuery) -> Result<AlternativesPage, Problem> {
    let id = g.row.id;
    {
        let TurnAlternatives {
            report: t,
            full,
            listed,
        } = turn_alternatives(state, &g, n)?;
        let mover = t.player as usize;
        let mut rows: Vec<AltRow> = (t.alternatives.iter().enumerate())
            .filter_map(|(i, a)| {
                Some(AltRow {
                    k: listed.iter().position(|m| is_listed(a, m))?,
                    rank: a.rank,
                    position: format!("({},{})", a.position[0], a.position[1]),
                    rotation: a.rotation,
                    action: a.action.words(g.record.game),
                    immediate: per_player(&a.immediate),
                    gain: a.immediate.get(mover).copied().unwrap_or(0),
                    if_ended: per_player(&a.if_ended_change),
                    value: value_with_error(a),
                    played: t.played == Some(i),
                })
            })
            .collect();
        let sort = q.sort.unwrap_or_else(|| "rank".into());
        match sort.as_str() {
            "position" => rows.sort_by_key(|r| r.k),
            "immediate" => rows.sort_by_key(|r| (std::cmp::Reverse(r.gain), r.rank)),
            _ => rows.sort_by_key(|r| r.rank),
        }
        Ok(AlternativesPage {
            title: g.row.players.join(" vs "),
            player: g.player_name(t.player),
            picture: view::tile_picture(&id, &t.tile),
            tile: t.tile,
            placements: t.placements_count,
            moves: t.moves_count,
            basis: t.value,
            formula: analysis::HEURISTIC_FORMULA,
            figure: words::capitalised(words::figures(g.record.game).0),
            tiles_notice: view::tiles_notice(&g.record),
            id,
            turn: n,
            full,
            sort,
            rows,
        })
    }
}

/// One row of a Card Game turn's alternatives.
struct CardAltRow {
    rank: usize,
    action: String,
    secures: u32,
    now: String,
    value: String,
    played: bool,
}

#[derive(Template, WebTemplate)]
#[template(path = "card_alternatives.html")]
pub struct CardAlternativesPage {
    id: GameId,
    title: String,
    turn: u32,
    player: String,
    samples: u32,
    rows: Vec<CardAltRow>,
    /// Whether the round's first card, played face down, is still to come: the list, the
    /// mover's whole hand, may give it away before its round reveals it, so it waits behind
    /// a fold.
    face_down: bool,
}

/// Turn `n`'s actions, best first: from the stored analysis when it is done, else weighed now
/// (a Card Game turn takes milliseconds) with the same seed, so the values agree.
fn card_alternatives(state: &AppState, g: LoadedCards, n: u32) -> Result<CardAlternativesPage, Problem> {
    let stored = match stored_analysis::<CardGameReport>(state, &g.row.id)? {
        Some((AnalysisStatus::Done, Some(r))) => r.turn(n).cloned(),
        _ => None,
    };
    let t = match stored {
        Some(t) => t,
        None => {
            let samples = analysis::cards::DEFAULT_SAMPLES;
            let t = analysis::cards::analyse_turn(&g.record, n, samples, u64::from(n))
                .map_err(|e| Problem::not_found(e.to_string()))?;
            t.report(samples)
        }
    };
    let rows = (t.alternatives.iter().enumerate())
        .map(|(i, a)| CardAltRow {
            rank: i + 1,
            action: a.action.clone(),
            secures: a.secures,
            now: a.now.iter().map(|x| view::points(*x)).collect::<Vec<_>>().join(" / "),
            value: format!("{} ± {}", view::points(a.value), view::points(a.stderr)),
            played: t.played == Some(i),
        })
        .collect();
    // The mover's whole hand, before the round's first card lies face down, holds it.
    let before =
        crate::replay::cards::position_at(&g.record, n.saturating_sub(1) as usize).map_err(Problem::internal)?;
    let face_down = before.face_down_card().is_none() && !before.players()[t.player as usize].hand.is_empty();
    Ok(CardAlternativesPage {
        id: g.row.id,
        title: g.row.players.join(" vs "),
        turn: n,
        player: g.record.players[t.player as usize].name.clone(),
        samples: t.samples,
        rows,
        face_down,
    })
}

#[derive(Template, WebTemplate)]
#[template(path = "alternative.html")]
pub struct AlternativePage {
    id: GameId,
    title: String,
    turn: u32,
    k: usize,
    player: String,
    description: String,
    facts: Vec<(String, String)>,
    features: Vec<String>,
    played: bool,
    tiles_notice: Option<&'static str>,
}

/// What an alternative did, as (label, value) rows. `left_behind` says which settlers New
/// World's surveyors would send home after it: they no longer score if the game ended now.
fn facts(
    g: &LoadedGame,
    a: &AlternativeReport,
    of: usize,
    basis: &str,
    left_behind: Vec<String>,
) -> Vec<(String, String)> {
    let named = |xs: &[i32]| -> String {
        (xs.iter().enumerate())
            .map(|(p, x)| format!("{} {x}", g.player_name(p as u8)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut facts = vec![
        ("Rank".to_string(), format!("{} of {of}", a.rank)),
        ("Value".to_string(), format!("{} ({basis})", value_with_error(a))),
        ("Points now".to_string(), named(&a.immediate)),
        ("Change if the game ended now".to_string(), named(&a.if_ended_change)),
    ];
    if !left_behind.is_empty() {
        let why = format!("{}: they no longer score if the game ended now", left_behind.join(". "));
        facts.push(("Left behind".to_string(), why));
    }
    let (_, figures) = words::figures(g.record.game);
    facts.push((
        format!("{} committed", words::capitalised(figures)),
        format!("{:+}", a.meeples_committed),
    ));
    if let Some(p) = &a.playouts {
        facts.push((
            "Playouts".to_string(),
            format!(
                "{}, mean margin {} ± {}",
                words::count(p.count, "playout", "playouts"),
                view::points(p.mean_margin),
                view::points(p.std_error)
            ),
        ));
    }
    facts
}

/// A value with its standard error when playouts measured it: "12.3 ± 1.1".
fn value_with_error(a: &AlternativeReport) -> String {
    match &a.playouts {
        Some(p) => format!("{} ± {}", view::points(a.value), view::points(p.std_error)),
        None => view::points(a.value),
    }
}

/// Each feature an alternative touches, in words.
fn feature_lines(a: &AlternativeReport) -> Vec<String> {
    a.features
        .iter()
        .map(|f| {
            let what = if f.closed {
                "closes"
            } else if f.joined > 1 {
                "joins"
            } else {
                "extends"
            };
            let chance = f
                .completion
                .map(|c| format!(", {:.0}% likely to be completed", c * 100.0))
                .unwrap_or_default();
            let spots: Vec<String> = (f.open_spots.iter())
                .map(|s| {
                    let closing = s.closes.map(|n| format!(", {n} close it")).unwrap_or_default();
                    let fits = words::count(s.fits, "tile left fits", "tiles left fit");
                    format!("({},{}): {fits}{closing}", s.position[0], s.position[1])
                })
                .collect();
            let spots = if spots.is_empty() {
                String::new()
            } else {
                format!(" — open spots: {}", spots.join("; "))
            };
            let tiles = words::count(f.tiles, "tile", "tiles");
            format!("{what} a {} of {tiles}{chance}{spots}", f.kind)
        })
        .collect()
}

/// One alternative: the board with it applied, and what it does.
#[route("/g/{id:[0-9a-f]{16}}/t/{n:[0-9]+}/alt/{k:[0-9]+}", method = "GET", method = "HEAD")]
pub async fn alternative(
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32, usize)>,
) -> Result<AlternativePage, Problem> {
    let (id, n, k) = path.into_inner();
    blocking(move || {
        let g = state.load(&id)?;
        let TurnAlternatives { report: t, listed, .. } = turn_alternatives(&state, &g, n)?;
        let mv = listed.get(k).ok_or_else(|| {
            Problem::not_found(format!(
                "turn {n} has alternatives 0 to {}",
                listed.len().saturating_sub(1)
            ))
        })?;
        let (i, a) = (t.alternatives.iter().enumerate())
            .find(|(_, a)| is_listed(a, mv))
            .ok_or_else(|| Problem::internal("alternative missing from the analysis"))?;
        let what_if = with_alternative(&g.record, n, *mv);
        let after = crate::replay::replay_upto(&what_if, None, Some(n)).map_err(Problem::internal)?;
        let events = after.turns.last().map_or(&[][..], |t| &t.events[..]);
        let left_behind = view::left_behind_sentences(&g.record, events);
        Ok(AlternativePage {
            title: g.row.players.join(" vs "),
            player: g.player_name(t.player),
            description: format!(
                "{} at ({},{}) rotated {}°, {}",
                t.tile,
                a.position[0],
                a.position[1],
                a.rotation,
                a.action.words(g.record.game)
            ),
            played: t.played == Some(i),
            facts: facts(&g, a, t.alternatives.len(), &t.value, left_behind),
            tiles_notice: view::tiles_notice(&g.record),
            features: feature_lines(a),
            id,
            turn: n,
            k,
        })
    })
    .await
}

#[derive(Deserialize)]
pub struct AlternativePictureQuery {
    size: Option<u32>,
    /// `close`: only the square played and its neighbours, the alternatives list's thumbnail.
    view: Option<String>,
}

/// The board with alternative `k` applied, highlighted like a played move.
#[route(
    "/g/{id:[0-9a-f]{16}}/t/{n:[0-9]+}/alt/{k:[0-9]+}.png",
    method = "GET",
    method = "HEAD"
)]
pub async fn alternative_png(
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32, usize)>,
    q: web::Query<AlternativePictureQuery>,
) -> Result<HttpResponse, Problem> {
    let (id, n, k) = path.into_inner();
    let bad = |e: String| Problem::new(actix_web::http::StatusCode::BAD_REQUEST, "Bad image options", e);
    let mut opts = (RenderOptions::default().with_size_for(ImageFormat::Png, q.size.unwrap_or(48))).map_err(bad)?;
    let close = match q.view.as_deref() {
        None | Some("board") => false,
        Some("close") => true,
        Some(other) => {
            return Err(bad(format!(
                "unknown view {}; the views are board and close",
                crate::record::quote::Quoted(other)
            )));
        }
    };
    let png = blocking(move || {
        let g = state.load(&id)?;
        let listed = listing(&g.record, n)?;
        let mv = *listed
            .get(k)
            .ok_or_else(|| Problem::not_found(format!("turn {n} has no alternative {k}")))?;
        let what_if = with_alternative(&g.record, n, mv);
        opts.set_overlays("ownership,last-move,scoring")
            .map_err(Problem::internal)?;
        match mv {
            RecordedMove::Place { placement, .. } if close => {
                let replay = crate::replay::replay_upto(&what_if, None, Some(n)).map_err(Problem::internal)?;
                render::svg_to_png(&render::board_close_svg(&what_if, &replay, &opts, placement.pos))
                    .map_err(Problem::internal)
            }
            _ => render::draw(&what_if, Some(n), Picture::Board, ImageFormat::Png, &opts).map_err(Problem::internal),
        }
    })
    .await?;
    Ok(HttpResponse::Ok()
        .content_type("image/png")
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .body(png))
}
