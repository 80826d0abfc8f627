//! HTML pages: the upload form with recent games, and the replay of a game turn by turn.

use crate::analysis;
use crate::engine::GameKind;
use crate::record::{GameRecord, MAX_RECORD_BYTES, rules_spec};
use crate::render;
use crate::replay;
use crate::store::{GameId, ingest};
use crate::web::problem::Problem;
use crate::web::view::{self, BoardView, BreakdownRow, GamePart, GraphView, PlayerView, TileTurnView, TurnLink};
use crate::web::{AppState, LoadedGame, blocking};
use actix_multipart::Multipart;
use actix_web::http::header;
use actix_web::{HttpResponse, get, post, web};
use askama::Template;
use askama_web::WebTemplate;
use futures_util::StreamExt;

pub struct GameListItem {
    pub id: GameId,
    pub players: String,
    pub scores: String,
    pub rules: String,
    pub source: String,
    pub turns: u32,
    pub created_at: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "index.html")]
struct IndexPage {
    games: Vec<GameListItem>,
}

#[get("/")]
pub async fn index(state: web::Data<AppState>) -> Result<IndexPage, Problem> {
    blocking(move || {
        Ok(IndexPage {
            games: recent_games(&state)?,
        })
    })
    .await
}

fn recent_games(state: &AppState) -> Result<Vec<GameListItem>, Problem> {
    let rows = state.store.recent(30)?;
    Ok(rows
        .into_iter()
        .map(|g| GameListItem {
            players: g.players.join(" vs "),
            scores: g
                .final_scores
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join("–"),
            rules: crate::record::parse(g.record.as_bytes())
                .map(|(r, _)| rules_spec::label(&r.resolved_rules()))
                .unwrap_or(g.preset),
            source: g.source_format,
            id: g.id,
            turns: g.turns,
            created_at: g.created_at.replace('T', " ").trim_end_matches('Z').to_string(),
        })
        .collect())
}

/// The upload form: a file or pasted text. Answers 303 to the game page.
#[post("/games")]
pub async fn upload(state: web::Data<AppState>, form: Multipart) -> Result<HttpResponse, Problem> {
    let bytes = read_form(form).await?;
    let id = blocking(move || Ok(ingest::ingest(&state.store, &bytes)?.0.id)).await?;
    Ok(HttpResponse::SeeOther()
        .insert_header((header::LOCATION, format!("/g/{id}")))
        .finish())
}

/// The first non-empty of the `file` and `text` fields, at most 4 MiB.
async fn read_form(mut form: Multipart) -> Result<Vec<u8>, Problem> {
    let mut chosen = Vec::new();
    while let Some(field) = form.next().await {
        let mut field = field.map_err(|e| {
            Problem::new(
                actix_web::http::StatusCode::BAD_REQUEST,
                "Unreadable form",
                e.to_string(),
            )
        })?;
        let bytes = super::read_limited(&mut field, MAX_RECORD_BYTES, "Unreadable form").await?;
        if chosen.is_empty() && !bytes.iter().all(u8::is_ascii_whitespace) {
            chosen = bytes;
        }
    }
    if chosen.is_empty() {
        return Err(Problem::new(
            actix_web::http::StatusCode::BAD_REQUEST,
            "Nothing uploaded",
            "choose a file or paste a record",
        ));
    }
    Ok(chosen)
}

/// What every page of a game shows at the top.
pub struct GameHead {
    pub id: GameId,
    pub title: String,
    /// The rules in words, expansions included.
    pub rules: String,
    /// The format the record was uploaded in.
    pub source: String,
    /// Turns (placed tiles) in the game.
    pub last: u32,
    /// The game's name ("Carcassonne: The New World").
    pub kind: &'static str,
    /// Whether JCloisterZone plays this game, so a `.jcz` download is offered.
    pub jcz: bool,
}

impl GameHead {
    fn of(g: &LoadedGame) -> GameHead {
        GameHead {
            id: g.row.id,
            title: g.row.players.join(" vs "),
            rules: rules_spec::label(&g.record.resolved_rules()),
            source: g.row.source_format.clone(),
            last: g.row.turns,
            kind: g.record.game.title(),
            jcz: g.record.game == GameKind::Carcassonne,
        }
    }
}

/// A link preview (Open Graph and Twitter card) and the canonical address.
pub struct Preview {
    pub title: String,
    pub description: String,
    pub url: String,
    pub image: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "turn.html")]
struct TurnPage {
    game: GameHead,
    preview: Preview,
    turn: u32,
    prev: Option<u32>,
    /// The next turn's page, or after the last turn the end page.
    next_url: String,
    board: BoardView,
    players: Vec<PlayerView>,
    has_abbot: bool,
    events: Vec<String>,
    part: GamePart,
    graph: GraphView,
    turn_links: Vec<TurnLink>,
}

#[derive(Template, WebTemplate)]
#[template(path = "end.html")]
struct EndPage {
    game: GameHead,
    preview: Preview,
    players: Vec<PlayerView>,
    has_abbot: bool,
    finished: bool,
    board: BoardView,
    /// Final scoring.
    events: Vec<String>,
    /// The breakdown's columns: the game's categories.
    categories: &'static [&'static str],
    breakdown: Vec<BreakdownRow>,
    graph: GraphView,
    turn_links: Vec<TurnLink>,
}

/// The game link: its result, after final scoring.
#[get("/g/{id:[0-9a-f]{16}}")]
pub async fn game(state: web::Data<AppState>, id: web::Path<GameId>) -> Result<EndPage, Problem> {
    end_page(state, id.into_inner()).await
}

/// The end of the game: final scoring as its own step after the last turn.
#[get("/g/{id:[0-9a-f]{16}}/end")]
pub async fn end(state: web::Data<AppState>, id: web::Path<GameId>) -> Result<EndPage, Problem> {
    end_page(state, id.into_inner()).await
}

async fn end_page(state: web::Data<AppState>, id: GameId) -> Result<EndPage, Problem> {
    blocking(move || build_end_page(&state, state.load(&id)?)).await
}

/// Turn n: the game as it stood after that turn, and nothing later (turn 0: the start).
#[get("/g/{id:[0-9a-f]{16}}/t/{n:[0-9]+}")]
pub async fn turn(state: web::Data<AppState>, path: web::Path<(GameId, u32)>) -> Result<TurnPage, Problem> {
    let (id, n) = path.into_inner();
    blocking(move || build_turn_page(&state, state.load(&id)?, n)).await
}

/// The HTML of a turn page, as the server sends it. The bench times this.
pub fn render_turn_page(state: &AppState, id: &GameId, n: u32) -> Result<String, Problem> {
    let page = build_turn_page(state, state.load(id)?, n)?;
    page.render().map_err(Problem::internal)
}

fn scores_text(record: &GameRecord, scores: &[i32]) -> String {
    let parts: Vec<String> = (record.players.iter().zip(scores))
        .map(|(p, s)| format!("{} {s}", p.name))
        .collect();
    parts.join(", ")
}

fn build_turn_page(state: &AppState, g: LoadedGame, n: u32) -> Result<TurnPage, Problem> {
    let head = GameHead::of(&g);
    let LoadedGame { record, .. } = g;
    let last = head.last;
    if n > last {
        return Err(Problem::not_found(format!(
            "game {} has turns 0 to {last}, not {n}",
            head.id
        )));
    }
    let at = replay::replay_upto(&record, None, Some(n)).map_err(Problem::internal)?;
    let colours = render::colours(&record);
    let snapshot = n.checked_sub(1).and_then(|i| at.turns.get(i as usize));
    let (move_text, events) = match snapshot {
        Some(t) => (
            format!(
                "{} placed {} at {} rotated {}°",
                record.players[t.player as usize].name,
                record.catalog.name(t.mv.tile),
                t.mv.placement.pos,
                t.mv.placement.rotation
            ),
            view::event_sentences(&record, &t.events),
        ),
        None => (
            "The start, before the first turn".to_string(),
            view::start_sentences(&record, &at.game),
        ),
    };
    let (base, id) = (&state.public_url, &head.id);
    let graph = view::GraphInput {
        id,
        turns: &at.turns,
        total_turns: last,
        final_scores: None,
        current: n,
    };
    Ok(TurnPage {
        preview: Preview {
            title: format!("{} · turn {n} of {last}", head.title),
            description: format!(
                "Carcassonne, {}. After turn {n} of {last}: {}.",
                head.rules,
                scores_text(&record, &at.game.scores())
            ),
            url: format!("{base}/g/{id}/t/{n}"),
            image: format!("{base}/g/{id}/t/{n}/og.png"),
        },
        turn: n,
        prev: n.checked_sub(1),
        next_url: if n < last {
            format!("/g/{id}/t/{}", n + 1)
        } else {
            format!("/g/{id}/end")
        },
        board: BoardView {
            src: format!("/g/{id}/t/{n}.png?overlay=ownership,last-move,scoring"),
            alt: format!("The board after turn {n}: {move_text}"),
            caption: move_text,
        },
        players: view::players_at(&record, &at.game, false, &colours),
        has_abbot: at.rules().abbot,
        events,
        part: GamePart::Tiles(TileTurnView {
            remaining: view::remaining_tiles(&record.catalog, &at.game),
            tiles_left: at.game.pack_left(),
            spots: spots_by_fit(&at.game),
            dead_spots: analysis::dead_spots(&at.game).iter().map(|p| p.to_string()).collect(),
        }),
        graph: GraphView {
            title: "Scores so far",
            svg: view::score_graph(&record, &graph, &colours),
        },
        turn_links: view::turn_links(&record, &at.turns, last, Some(n), &colours),
        game: head,
    })
}

fn build_end_page(state: &AppState, g: LoadedGame) -> Result<EndPage, Problem> {
    let head = GameHead::of(&g);
    let record = &g.record;
    let full = replay::replay(record, None).map_err(Problem::internal)?;
    let colours = render::colours(record);
    let (base, id) = (&state.public_url, &head.id);
    let graph = view::GraphInput {
        id,
        turns: &full.turns,
        total_turns: head.last,
        final_scores: full.finished.then_some(full.final_scores.as_slice()),
        current: head.last + u32::from(full.finished),
    };
    let outcome = if full.finished {
        "final score"
    } else {
        "the record stops before the end"
    };
    Ok(EndPage {
        preview: Preview {
            title: format!("{} · {outcome}", head.title),
            description: format!(
                "Carcassonne, {}, {outcome}: {}. Step through every turn and see where every point came from.",
                head.rules,
                scores_text(record, &full.final_scores)
            ),
            url: format!("{base}/g/{id}"),
            image: format!("{base}/g/{id}/og.png"),
        },
        players: view::players_at(record, &full.game, full.finished, &colours),
        has_abbot: full.rules().abbot,
        finished: full.finished,
        board: BoardView {
            src: format!("/g/{id}.png?overlay=ownership,scoring"),
            alt: "The board at the end of the game".into(),
            caption: if full.finished {
                "The board after final scoring"
            } else {
                "The board after the last turn recorded"
            }
            .into(),
        },
        events: view::event_sentences(record, &full.final_events),
        categories: full.breakdown.first().map(|b| b.play.names()).unwrap_or_default(),
        breakdown: view::breakdown_rows(record, &full, &colours),
        graph: GraphView {
            title: "Scores over the game",
            svg: view::score_graph(record, &graph, &colours),
        },
        turn_links: view::turn_links(record, &full.turns, head.last, None, &colours),
        game: head,
    })
}

/// The open spots after a turn, the hardest to fill first.
fn spots_by_fit(position: &crate::engine::Game) -> Vec<(String, u32)> {
    let mut spots = analysis::position_spots(position);
    spots.sort_by_key(|s| (s.fits, s.pos));
    spots.into_iter().map(|s| (s.pos.to_string(), s.fits)).collect()
}
