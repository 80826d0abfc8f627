//! What-if analysis pages: queue a whole-game analysis and watch it, list a turn's
//! alternatives, and show one alternative on the board.
//!
//! Alternative `k` is the k-th legal move in the engine's listing order (placements, then
//! actions), so `/g/{id}/t/{n}/alt/{k}` names the same move whatever the ranking.

use crate::analysis::{self, AnalysisOptions};
use crate::engine::{Action, Game, Placement};
use crate::record::generate::recorded;
use crate::record::{GameRecord, RecordedMove};
use crate::render::{self, RenderOptions};
use crate::replay;
use crate::store::AnalysisStatus;
use crate::web::problem::{Problem, wants_html};
use crate::web::{AppState, LoadedGame, blocking, view};
use actix_web::http::header;
use actix_web::{Either, HttpRequest, HttpResponse, get, post, web};
use askama::Template;
use askama_web::WebTemplate;
use serde::Deserialize;
use serde_json::{Value, json};

/// Every legal move of turn `n` in listing order, as records state them, with the tile.
fn listing(record: &GameRecord, n: u32) -> Result<(Game, Vec<RecordedMove>), Problem> {
    let upto = replay::replay_upto(record, None, Some(n)).map_err(Problem::internal)?;
    let snap = upto
        .turns
        .get(n.wrapping_sub(1) as usize)
        .ok_or_else(|| Problem::not_found(format!("the game has turns 1 to {}, not {n}", upto.turns.len())))?;
    let before = replay::replay_upto(record, None, Some(n - 1))
        .map_err(Problem::internal)?
        .game;
    let (mut placements, mut actions): (Vec<Placement>, Vec<Action>) = (Vec::new(), Vec::new());
    before.placements(snap.tile, true, &mut placements);
    let mut moves = Vec::new();
    for &placement in &placements {
        before.actions(snap.tile, placement, &mut actions);
        for &action in &actions {
            moves.push(recorded(
                &before,
                &crate::engine::Move {
                    tile: snap.tile,
                    placement,
                    action,
                },
            ));
        }
    }
    Ok((before, moves))
}

/// The key that matches a listed move with an alternative in the analysis JSON.
fn key_of(m: &RecordedMove) -> Option<Value> {
    match m {
        RecordedMove::Place { placement, action, .. } => Some(json!([
            [placement.pos.x, placement.pos.y],
            placement.rotation.degrees(),
            analysis::json::action(action)
        ])),
        RecordedMove::Discard { .. } => None,
    }
}

fn key_of_alternative(a: &Value) -> Value {
    json!([a["position"], a["rotation"], a["action"]])
}

/// The record with turn `n`'s move replaced by `mv`, cut after it.
fn with_alternative(record: &GameRecord, n: u32, mv: RecordedMove) -> GameRecord {
    let mut out = record.clone();
    let mut placed = 0;
    let cut = record
        .moves
        .iter()
        .position(|m| {
            placed += u32::from(matches!(m, RecordedMove::Place { .. }));
            placed == n
        })
        .unwrap_or(record.moves.len());
    out.moves.truncate(cut);
    out.moves.push(mv);
    out.final_scoring = Some(false);
    out
}

/// Turn `n`'s analysis: the stored whole-game one when done, else the heuristic alone (fast).
fn turn_analysis(state: &AppState, g: &LoadedGame, n: u32) -> Result<(Value, bool), Problem> {
    if let Some((AnalysisStatus::Done, Some(json))) = state.store.analysis(&g.row.id)? {
        let all: Value = serde_json::from_str(&json).map_err(Problem::internal)?;
        if let Some(t) = all["turns"]
            .as_array()
            .and_then(|ts| ts.iter().find(|t| t["turn"] == n))
        {
            return Ok((t.clone(), true));
        }
    }
    let quick = AnalysisOptions {
        playouts_per_alternative: 0,
        ..AnalysisOptions::default()
    };
    let t = analysis::analyse_turn(&g.record, n, &quick).map_err(|e| Problem::not_found(e.to_string()))?;
    Ok((t.to_json(), false))
}

#[derive(Template, WebTemplate)]
#[template(path = "analysis.html")]
struct AnalysisPage {
    id: String,
    title: String,
    status: String,
    done: u32,
    total: u32,
    running: bool,
    failed: Option<String>,
    players: Vec<PlayerLossRow>,
    turns: Vec<TurnLossRow>,
    formula: &'static str,
}

/// A player's moves over the analysed game.
struct PlayerLossRow {
    name: String,
    turns: u64,
    best_moves: u64,
    points_lost: String,
    average: String,
}

/// One analysed turn: the played move's rank and what it lost.
struct TurnLossRow {
    turn: u64,
    tile: String,
    rank: String,
    points_lost: String,
}

fn number(v: &Value) -> String {
    v.as_f64().map_or_else(|| "–".into(), view::points)
}

/// Queues the whole-game analysis. Browsers go to the progress page; API clients get 202.
#[utoipa::path(post, path = "/g/{id}/analysis", params(("id" = String, Path, description = "Game id")),
    responses((status = 202, description = "Queued (or already queued or done): {status_url, url}"),
              (status = 303, description = "Browsers: to the progress page"),
              (status = 404, description = "No such game", content_type = "application/problem+json")))]
#[post("/g/{id:[0-9a-f]{16}}/analysis")]
pub async fn queue(req: HttpRequest, state: web::Data<AppState>, id: web::Path<String>) -> HttpResponse {
    let id = id.into_inner();
    let st = state.clone();
    let asked = id.clone();
    let queued = blocking(move || {
        st.load(&asked)?;
        Ok(st.store.queue_analysis(&asked)?)
    })
    .await;
    match queued {
        Ok(fresh) => {
            if let (true, Some(jobs)) = (fresh, &state.jobs) {
                jobs.push(id.clone());
            }
            let url = format!("/g/{id}/analysis");
            if wants_html(&req)
                || req
                    .headers()
                    .get(header::CONTENT_TYPE)
                    .is_some_and(|c| c.as_bytes().starts_with(b"application/x-www-form-urlencoded"))
            {
                HttpResponse::SeeOther().insert_header((header::LOCATION, url)).finish()
            } else {
                HttpResponse::Accepted()
                    .insert_header((header::LOCATION, url.clone()))
                    .json(json!({"status_url": format!("/api/games/{id}/analysis"), "url": url}))
            }
        }
        Err(p) => p.negotiate(&req),
    }
}

fn status_json(status: &Option<(AnalysisStatus, Option<String>)>) -> Value {
    match status {
        None => json!({"status": "none"}),
        Some((AnalysisStatus::Queued, _)) => json!({"status": "queued"}),
        Some((AnalysisStatus::Running { done, total }, _)) => {
            json!({"status": "running", "done": done, "total": total})
        }
        Some((AnalysisStatus::Done, result)) => {
            let summary = result
                .as_deref()
                .and_then(|r| serde_json::from_str::<Value>(r).ok())
                .map(|v| v["summary"].clone());
            json!({"status": "done", "result": summary})
        }
        Some((AnalysisStatus::Failed(e), _)) => json!({"status": "failed", "error": e}),
    }
}

/// The analysis' status, and its summary when done.
#[utoipa::path(get, path = "/api/games/{id}/analysis", params(("id" = String, Path, description = "Game id")),
    responses((status = 200, description = "{status: none|queued|running|done|failed, done, total, result}"),
              (status = 404, description = "No such game", content_type = "application/problem+json")))]
#[get("/api/games/{id:[0-9a-f]{16}}/analysis")]
pub async fn api_status(req: HttpRequest, state: web::Data<AppState>, id: web::Path<String>) -> HttpResponse {
    let answer = blocking(move || {
        state.load(&id)?;
        Ok(state.store.analysis(&id)?)
    })
    .await;
    match answer {
        Ok(s) => HttpResponse::Ok().json(status_json(&s)),
        Err(p) => p.json(req.path()),
    }
}

/// The progress bar while it runs (the page refreshes itself), then each turn's played move
/// against the best and each player's average points lost.
#[get("/g/{id:[0-9a-f]{16}}/analysis")]
pub async fn analysis_page(state: web::Data<AppState>, id: web::Path<String>) -> Either<AnalysisPage, HttpResponse> {
    let build = move || -> Result<AnalysisPage, Problem> {
        let g = state.load(&id)?;
        let st = status_json(&state.store.analysis(&id)?);
        let result = &st["result"];
        let players = (g.record.players.iter())
            .zip(result["players"].as_array().into_iter().flatten())
            .map(|(p, r)| PlayerLossRow {
                name: p.name.clone(),
                turns: r["turns"].as_u64().unwrap_or(0),
                best_moves: r["best_moves"].as_u64().unwrap_or(0),
                points_lost: number(&r["points_lost"]),
                average: number(&r["average_points_lost"]),
            })
            .collect();
        let turns = (result["turns"].as_array().into_iter().flatten())
            .map(|t| TurnLossRow {
                turn: t["turn"].as_u64().unwrap_or(0),
                tile: t["tile"].as_str().unwrap_or("").to_string(),
                rank: match t["played_rank"].as_u64() {
                    Some(r) => format!("{r} of {}", t["moves_count"]),
                    None => "–".into(),
                },
                points_lost: number(&t["points_lost"]),
            })
            .collect();
        Ok(AnalysisPage {
            id: g.row.id,
            title: g.row.players.join(" vs "),
            status: st["status"].as_str().unwrap_or("none").to_string(),
            done: st["done"].as_u64().unwrap_or(0) as u32,
            total: st["total"].as_u64().unwrap_or(0) as u32,
            running: matches!(st["status"].as_str(), Some("queued" | "running")),
            failed: st["error"].as_str().map(str::to_string),
            players,
            turns,
            formula: analysis::HEURISTIC_FORMULA,
        })
    };
    match blocking(build).await {
        Ok(p) => Either::Left(p),
        Err(p) => Either::Right(p.html()),
    }
}

#[derive(Deserialize)]
pub struct SortQuery {
    sort: Option<String>,
}

/// One row of the alternatives table.
struct AltRow {
    k: usize,
    rank: u64,
    position: String,
    rotation: u64,
    action: String,
    immediate: String,
    /// The mover's own points now, for sorting.
    gain: i64,
    if_ended: String,
    value: String,
    played: bool,
}

#[derive(Template, WebTemplate)]
#[template(path = "alternatives.html")]
struct AlternativesPage {
    id: String,
    title: String,
    turn: u32,
    player: String,
    tile: String,
    placements: u64,
    moves: u64,
    full: bool,
    basis: String,
    formula: &'static str,
    sort: String,
    rows: Vec<AltRow>,
}

fn action_text(a: &Value) -> String {
    match a["type"].as_str() {
        Some("deploy") => format!(
            "{} on the {} ({})",
            a["figure"].as_str().unwrap_or(""),
            a["feature"].as_str().unwrap_or(""),
            a["location"].as_str().unwrap_or("")
        ),
        Some("recall_abbot") => "take the abbot back".into(),
        _ => "no meeple".into(),
    }
}

fn per_player(v: &Value) -> String {
    v.as_array()
        .map(|a| a.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" / "))
        .unwrap_or_default()
}

/// Every alternative of turn `n`, sortable by rank, value, immediate points or position.
#[get("/g/{id:[0-9a-f]{16}}/t/{n:[0-9]+}/alternatives")]
pub async fn alternatives(
    state: web::Data<AppState>,
    path: web::Path<(String, u32)>,
    q: web::Query<SortQuery>,
) -> Either<AlternativesPage, HttpResponse> {
    let (id, n) = path.into_inner();
    let build = move || -> Result<AlternativesPage, Problem> {
        let g = state.load(&id)?;
        let (_, listed) = listing(&g.record, n)?;
        let (t, full) = turn_analysis(&state, &g, n)?;
        let index: std::collections::HashMap<String, usize> = listed
            .iter()
            .enumerate()
            .filter_map(|(k, m)| Some((key_of(m)?.to_string(), k)))
            .collect();
        let played = t["played"].as_u64();
        let mover = t["player"].as_u64().unwrap_or(0) as usize;
        let mut rows: Vec<AltRow> = t["alternatives"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .enumerate()
            .filter_map(|(i, a)| {
                Some(AltRow {
                    k: *index.get(&key_of_alternative(a).to_string())?,
                    rank: a["rank"].as_u64().unwrap_or(0),
                    position: format!("({},{})", a["position"][0], a["position"][1]),
                    rotation: a["rotation"].as_u64().unwrap_or(0),
                    action: action_text(&a["action"]),
                    immediate: per_player(&a["immediate"]),
                    gain: a["immediate"][mover].as_i64().unwrap_or(0),
                    if_ended: per_player(&a["if_ended_change"]),
                    value: number(&a["value"]),
                    played: played == Some(i as u64),
                })
            })
            .collect();
        let sort = q.sort.clone().unwrap_or_else(|| "rank".into());
        match sort.as_str() {
            "position" => rows.sort_by_key(|r| r.k),
            "immediate" => rows.sort_by_key(|r| (std::cmp::Reverse(r.gain), r.rank)),
            _ => rows.sort_by_key(|r| r.rank),
        }
        Ok(AlternativesPage {
            title: g.row.players.join(" vs "),
            player: g
                .record
                .players
                .get(t["player"].as_u64().unwrap_or(0) as usize)
                .map(|p| p.name.clone())
                .unwrap_or_default(),
            tile: t["tile"].as_str().unwrap_or("").to_string(),
            placements: t["placements_count"].as_u64().unwrap_or(0),
            moves: t["moves_count"].as_u64().unwrap_or(0),
            basis: t["value"].as_str().unwrap_or("").to_string(),
            formula: analysis::HEURISTIC_FORMULA,
            id: g.row.id,
            turn: n,
            full,
            sort,
            rows,
        })
    };
    match blocking(build).await {
        Ok(p) => Either::Left(p),
        Err(p) => Either::Right(p.html()),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "alternative.html")]
struct AlternativePage {
    id: String,
    title: String,
    turn: u32,
    k: usize,
    player: String,
    description: String,
    facts: Vec<(String, String)>,
    features: Vec<String>,
    played: bool,
}

/// One alternative: the board with it applied, and what it does.
#[get("/g/{id:[0-9a-f]{16}}/t/{n:[0-9]+}/alt/{k:[0-9]+}")]
pub async fn alternative(
    state: web::Data<AppState>,
    path: web::Path<(String, u32, usize)>,
) -> Either<AlternativePage, HttpResponse> {
    let (id, n, k) = path.into_inner();
    let build = move || -> Result<AlternativePage, Problem> {
        let g = state.load(&id)?;
        let (_, listed) = listing(&g.record, n)?;
        let mv = listed.get(k).ok_or_else(|| {
            Problem::not_found(format!(
                "turn {n} has alternatives 0 to {}",
                listed.len().saturating_sub(1)
            ))
        })?;
        let (t, _) = turn_analysis(&state, &g, n)?;
        let key = key_of(mv).unwrap_or(Value::Null);
        let alts = t["alternatives"].as_array().cloned().unwrap_or_default();
        let (i, a) = alts
            .iter()
            .enumerate()
            .find(|(_, a)| key_of_alternative(a) == key)
            .ok_or_else(|| Problem::internal("alternative missing from the analysis"))?;
        let names: Vec<&str> = g.record.players.iter().map(|p| p.name.as_str()).collect();
        let named = |v: &Value| -> String {
            v.as_array()
                .map(|xs| {
                    xs.iter()
                        .enumerate()
                        .map(|(p, x)| format!("{} {x}", names.get(p).copied().unwrap_or("?")))
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_default()
        };
        let mut facts = vec![
            ("Rank".to_string(), format!("{} of {}", a["rank"], alts.len())),
            (
                "Value".to_string(),
                format!("{} ({})", number(&a["value"]), t["value"].as_str().unwrap_or("")),
            ),
            ("Points now".to_string(), named(&a["immediate"])),
            ("Change if the game ended now".to_string(), named(&a["if_ended_change"])),
            (
                "Meeples committed".to_string(),
                format!("{:+}", a["meeples_committed"].as_i64().unwrap_or(0)),
            ),
        ];
        if let Some(p) = a["playouts"].as_object() {
            facts.push((
                "Playouts".to_string(),
                format!(
                    "{} playouts, mean margin {} ± {}",
                    p["count"],
                    number(&p["mean_margin"]),
                    number(&p["std_error"])
                ),
            ));
        }
        let features = a["features"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|f| {
                let what = if f["closed"] == true {
                    "closes"
                } else if f["joined"].as_u64().unwrap_or(0) > 1 {
                    "joins"
                } else {
                    "extends"
                };
                let chance = f["completion"]
                    .as_f64()
                    .map(|c| format!(", {:.0}% likely to be completed", c * 100.0))
                    .unwrap_or_default();
                let spots = f["open_spots"]
                    .as_array()
                    .map(|s| {
                        s.iter()
                            .map(|s| {
                                format!(
                                    "({},{}): {} tiles left fit, {} close it",
                                    s["position"][0], s["position"][1], s["fits"], s["closes"]
                                )
                            })
                            .collect::<Vec<_>>()
                            .join("; ")
                    })
                    .unwrap_or_default();
                format!(
                    "{what} a {} of {} tiles{chance}{}",
                    f["kind"].as_str().unwrap_or(""),
                    f["tiles"],
                    if spots.is_empty() {
                        String::new()
                    } else {
                        format!(" — open spots: {spots}")
                    }
                )
            })
            .collect();
        Ok(AlternativePage {
            title: g.row.players.join(" vs "),
            player: names
                .get(t["player"].as_u64().unwrap_or(0) as usize)
                .copied()
                .unwrap_or("")
                .to_string(),
            description: format!(
                "{} at ({},{}) rotated {}°, {}",
                t["tile"].as_str().unwrap_or(""),
                a["position"][0],
                a["position"][1],
                a["rotation"],
                action_text(&a["action"])
            ),
            played: t["played"].as_u64() == Some(i as u64),
            id: g.row.id,
            turn: n,
            k,
            facts,
            features,
        })
    };
    match blocking(build).await {
        Ok(p) => Either::Left(p),
        Err(p) => Either::Right(p.html()),
    }
}

/// The board with alternative `k` applied, highlighted like a played move.
#[get("/g/{id:[0-9a-f]{16}}/t/{n:[0-9]+}/alt/{k:[0-9]+}.png")]
pub async fn alternative_png(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, u32, usize)>,
    q: web::Query<SizeQuery>,
) -> HttpResponse {
    let (id, n, k) = path.into_inner();
    let size = q.size.unwrap_or(48);
    let drawn = blocking(move || -> Result<Vec<u8>, Problem> {
        let g = state.load(&id)?;
        let (_, listed) = listing(&g.record, n)?;
        let mv = *listed
            .get(k)
            .ok_or_else(|| Problem::not_found(format!("turn {n} has no alternative {k}")))?;
        let what_if = with_alternative(&g.record, n, mv);
        let mut opts = RenderOptions::default().with_size(size);
        opts.set_overlays("ownership,last-move,scoring")
            .map_err(Problem::internal)?;
        render::board_png_at(&what_if, Some(n), &opts).map_err(Problem::internal)
    })
    .await;
    match drawn {
        Ok(png) => HttpResponse::Ok()
            .content_type("image/png")
            .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
            .body(png),
        Err(p) => p.negotiate(&req),
    }
}

#[derive(Deserialize)]
pub struct SizeQuery {
    size: Option<u32>,
}
