//! The explore board (`web::game::explore`): its page, `/g/{id}/t/{n}/explore`, and its
//! answer in JSON, `/api/explore`. The query is parsed here, into `Asked`; a malformed one is
//! refused with 400 and never echoed.

use crate::store::GameId;
use crate::web::board_view;
use crate::web::game::explore::{Asked, ExploreAnswer, ExplorePage, bad_line};
use crate::web::problem::Problem;
use crate::web::query::Query;
use crate::web::routes::owners::{is_owner, presented};
use crate::web::{AppState, blocking};
use actix_web::{HttpRequest, route, web};
use serde::Deserialize;

/// Characters a line may have in a request: far more than a whole game's line needs.
const MAX_LINE_CHARS: usize = 16 * 1024;

#[derive(Deserialize)]
pub struct ExploreQuery {
    line: Option<String>,
    /// A tile drawn after the line (the page's form of the tiles to choose).
    draw: Option<String>,
    at: Option<String>,
    square: Option<String>,
    rotation: Option<String>,
    think: Option<String>,
}

impl ExploreQuery {
    fn parse(self, req: &HttpRequest) -> Result<Asked, Problem> {
        let mut line = self.line.unwrap_or_default();
        if let Some(tile) = self.draw {
            line = crate::web::game::explore::then(&line, &format!("{tile}@"));
        }
        if line.len() > MAX_LINE_CHARS {
            return Err(bad_line(format!("a line has at most {MAX_LINE_CHARS} characters")));
        }
        let at = (self.at.as_deref())
            .map(|a| {
                a.parse::<usize>()
                    .map_err(|_| bad_line("at is a whole number of steps"))
            })
            .transpose()?;
        let (square, rotation) =
            board_view::parse_placement(self.square.as_deref(), self.rotation.as_deref()).map_err(bad_line)?;
        Ok(Asked {
            line,
            at,
            square,
            rotation,
            think: self.think.is_some(),
            client: req.peer_addr().map(|a| a.ip()),
            owner: false,
        })
    }
}

/// The explore board from before turn `n`, with the line the query states played. The game's
/// owner (its token or its cookie) also gets a form to comment on the position.
#[route("/g/{id}/t/{n:[0-9]+}/explore", method = "GET", method = "HEAD")]
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32)>,
    q: Query<ExploreQuery>,
) -> Result<ExplorePage, Problem> {
    let (id, n) = path.into_inner();
    state.limits.position(req.peer_addr().map(|a| a.ip()))?;
    let asked = q.into_inner().parse(&req)?;
    let token = presented(&req);
    blocking(move || {
        let game = state.load_any(&id)?;
        let owner = is_owner(token.as_ref(), game.row().owner);
        game.explore_page(&state, n, &Asked { owner, ..asked })
    })
    .await
}

#[derive(Deserialize)]
pub struct ApiQuery {
    game: Option<String>,
    turn: Option<String>,
    /// `false` (or `0`): the position and its moves alone, without the engine (nor its limit).
    #[serde(default, deserialize_with = "crate::web::query::flag")]
    engine: Option<bool>,
    #[serde(flatten)]
    rest: ExploreQuery,
}

/// The explore board's position as JSON: the position a line reaches from before turn N, its
/// legal moves, and the engine's answer (thought now if it has none kept, within the client's
/// limit).
#[utoipa::path(get, path = "/api/explore",
    params(("game" = String, Query, description = "Game id"),
           ("turn" = u32, Query, description = "The turn explored from: the position before it"),
           ("line" = Option<String>, Query, description = "The line, in the notation of /docs/pages#the-line-notation"),
           ("at" = Option<usize>, Query, description = "Steps of the line the position is after; all by default"),
           ("engine" = Option<bool>, Query, description = "false: no engine answer (and no count against the engine's limit)")),
    responses((status = 200, description = "The position, its moves and the engine's answer", body = ExploreAnswer),
              (status = 400, description = "A line that cannot be read, or that the rules refuse: the step, its turn, its player and the rule", content_type = "application/problem+json"),
              (status = 404, description = "No such game or turn", content_type = "application/problem+json"),
              (status = 429, description = "Too many positions, or too many for the engine, from this client", content_type = "application/problem+json")))]
#[route("/api/explore", method = "GET", method = "HEAD")]
pub async fn api(
    req: HttpRequest,
    state: web::Data<AppState>,
    q: Query<ApiQuery>,
) -> Result<web::Json<ExploreAnswer>, Problem> {
    state.limits.position(req.peer_addr().map(|a| a.ip()))?;
    let q = q.into_inner();
    let id: GameId = (q.game.as_deref())
        .ok_or_else(|| bad_line("name the game: ?game=ID&turn=N&line=…"))?
        .parse()
        .map_err(|_| Problem::not_found("that is not a game id"))?;
    let n: u32 = (q.turn.as_deref())
        .ok_or_else(|| bad_line("name the turn explored from: &turn=N"))?
        .parse()
        .map_err(|_| bad_line("turn is a whole number"))?;
    let asked = Asked {
        think: q.engine != Some(false),
        ..q.rest.parse(&req)?
    };
    let answer = blocking(move || state.load_any(&id)?.explore_answer(&state, n, &asked)).await?;
    Ok(web::Json(answer))
}
