//! Player pages: every listed game of a player (by name, or Board Game Arena id), their
//! results and points by category against their opponents, the tiles that scored best for
//! them, their accuracy, mistakes and own puzzles once games are analysed, and two players head
//! to head; the same in JSON. Everything comes from the store's player rows (`store::players`),
//! the statistics kept a while between pages (`web::player_stats`).

use super::pages::{GameListItem, list_item};
use crate::store::{PlayerStats, Search, Who, Whose};
use crate::web::problem::Problem;
use crate::web::query::Query;
use crate::web::search::{PER_PAGE, listed_page};
use crate::web::{AppState, blocking, links};
use actix_web::{route, web};
use askama::Template;
use askama_web::WebTemplate;
use serde::Serialize;
use utoipa::ToSchema;

#[derive(serde::Deserialize)]
pub struct PageQuery {
    page: Option<u64>,
}

/// A player's results, and a page of their games newest first.
#[derive(Serialize, ToSchema)]
pub struct PlayerAnswer {
    /// As asked: a name, or `bga:ID`.
    pub player: String,
    /// Head to head: the opponent, as asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub against: Option<String>,
    /// The names the player's games recorded them with, most used first (at most 5).
    pub names: Vec<String>,
    pub games: u64,
    /// Games played to their final scoring: what wins, places, scores and points count.
    pub finished: u64,
    pub wins: u64,
    pub places: Vec<Place>,
    pub average_score: Option<f64>,
    /// Points per finished game by category, the player's and an average opponent's; `final`
    /// is what the final scoring added.
    pub categories: Vec<Category>,
    /// The player's biggest single scorings during play.
    pub best: Vec<BestScoring>,
    /// Over the analysed games: the mean accuracy of every valued move, in percent.
    pub accuracy: Option<f64>,
    /// The analysed games with a valued move of the player's, oldest first.
    pub analysed: Vec<AnalysedGame>,
    /// Mistakes and blunders by kind of move, most first.
    pub mistakes: Vec<MistakeKind>,
    /// The player's own puzzles in the analysed tile games: turns of theirs where one
    /// placement was clearly best (`/g/{id}/puzzles` says how clear). How many, and how many
    /// the player found in play.
    pub puzzle_count: u64,
    pub puzzles_found: u64,
    /// A few of them, those the player missed first, then the newest.
    pub puzzles: Vec<OwnPuzzle>,
    /// The kinds of tile that scored most for the player when they placed them (the features
    /// those placements completed, counted for the player), most first.
    pub tiles: Vec<TileScored>,
    /// This page of `list`, from 1, and how many there are.
    pub page: u64,
    pub pages: u64,
    pub list: Vec<ListedGame>,
}

#[derive(Serialize, ToSchema)]
pub struct Place {
    pub place: u32,
    pub games: u64,
}

#[derive(Serialize, ToSchema)]
pub struct Category {
    pub category: String,
    pub per_game: f64,
    pub opponents_per_game: f64,
}

#[derive(Serialize, ToSchema)]
pub struct BestScoring {
    pub url: String,
    pub turn: u32,
    pub feature: String,
    pub points: i32,
}

#[derive(Serialize, ToSchema)]
pub struct AnalysedGame {
    #[serde(skip)]
    pub game: crate::store::GameId,
    /// The game's analysis page.
    pub url: String,
    pub created_at: String,
    pub moves: u32,
    pub accuracy: f64,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

#[derive(Serialize, ToSchema)]
pub struct OwnPuzzle {
    /// The puzzle's page.
    pub url: String,
    /// Its game's players.
    pub players: Vec<String>,
    pub turn: u32,
    /// The player played the best placement.
    pub found: bool,
    /// Points the best placement leads the second best by.
    pub lead: f64,
}

#[derive(Serialize, ToSchema)]
pub struct TileScored {
    /// The tile's name in its game's catalogue.
    pub tile: String,
    /// The tile's picture.
    pub picture: String,
    /// Times the player placed it, and the points those placements scored for them.
    pub placed: u32,
    pub points: i32,
}

#[derive(Serialize, ToSchema)]
pub struct MistakeKind {
    /// `meeple on a field` (a farm claim), `city extended`, `tile only`…
    pub kind: String,
    pub count: u64,
}

#[derive(Serialize, ToSchema)]
pub struct ListedGame {
    pub id: String,
    pub url: String,
    pub players: Vec<String>,
    pub scores: String,
    pub rules: String,
    pub created_at: String,
}

impl PlayerAnswer {
    fn of(
        player: &str,
        against: Option<&str>,
        stats: PlayerStats,
        list: Vec<GameListItem>,
        page: u64,
        pages: u64,
    ) -> Self {
        let per = |points: i64, n: u64| if n == 0 { 0.0 } else { points as f64 / n as f64 };
        let moves: u32 = stats.analysed.iter().map(|g| g.moves).sum();
        let accuracy = (moves > 0).then(|| {
            let total: f64 = stats.analysed.iter().map(|g| g.accuracy * f64::from(g.moves)).sum();
            total / f64::from(moves)
        });
        PlayerAnswer {
            accuracy,
            puzzle_count: stats.puzzle_count,
            puzzles_found: stats.puzzles_found,
            puzzles: (stats.puzzles.into_iter())
                .map(|z| OwnPuzzle {
                    url: links::puzzle(z.game, z.puzzle.turn),
                    players: z.players,
                    turn: z.puzzle.turn,
                    found: z.puzzle.found,
                    lead: z.puzzle.lead,
                })
                .collect(),
            tiles: (stats.tiles.into_iter())
                .map(|t| TileScored {
                    picture: links::tile_svg(t.example, &t.tile),
                    tile: t.tile,
                    placed: t.score.placed,
                    points: t.score.points,
                })
                .collect(),
            analysed: (stats.analysed.iter())
                .map(|g| AnalysedGame {
                    game: g.id,
                    url: links::analysis(g.id),
                    created_at: g.created_at.clone(),
                    moves: g.moves,
                    accuracy: g.accuracy,
                    inaccuracies: g.inaccuracies,
                    mistakes: g.mistakes,
                    blunders: g.blunders,
                })
                .collect(),
            mistakes: (stats.mistakes.into_iter())
                .map(|(kind, count)| MistakeKind { kind, count })
                .collect(),
            player: player.to_string(),
            against: against.map(str::to_string),
            names: stats.names,
            games: stats.games,
            finished: stats.finished,
            wins: stats.wins,
            places: (stats.places.into_iter())
                .map(|(place, games)| Place { place, games })
                .collect(),
            average_score: stats.average_score,
            categories: (stats.categories.into_iter())
                .map(|c| Category {
                    per_game: per(c.points, stats.finished),
                    opponents_per_game: per(c.opponents, stats.opponent_seats),
                    category: c.category,
                })
                .collect(),
            best: (stats.best.into_iter())
                .map(|(id, s)| BestScoring {
                    url: links::turn(id, s.turn),
                    turn: s.turn,
                    feature: s.what,
                    points: s.points,
                })
                .collect(),
            page,
            pages,
            list: (list.into_iter())
                .map(|g| ListedGame {
                    id: g.id.to_string(),
                    url: links::game(g.id),
                    players: g.players,
                    scores: g.scores,
                    rules: g.rules,
                    created_at: g.created_at,
                })
                .collect(),
        }
    }
}

/// Reads a player's statistics and page `page` of their games (against `against`, if named).
pub fn answer(state: &AppState, player: &str, against: Option<&str>, page: u64) -> Result<PlayerAnswer, Problem> {
    let who = Who::parse(player);
    let opponent = against.map(Who::parse);
    let search = Search {
        player: Some(Whose::One(who.clone())),
        opponent: opponent.clone(),
        ..Search::default()
    };
    let (rows, matches) = listed_page(state, &search, page)?;
    if matches == 0 {
        let whom = against.map_or_else(String::new, |b| format!(" against {b:?}"));
        return Err(Problem::not_found(format!("no listed game of {player:?}{whom}")));
    }
    let stats = (state.player_stats).get_or_read((who, opponent), matches, |(who, opponent)| {
        Ok(state.store.player_stats(who, opponent.as_ref())?)
    })?;
    let pages = matches.div_ceil(u64::from(PER_PAGE)).max(1);
    let list = rows.into_iter().map(list_item).collect();
    Ok(PlayerAnswer::of(player, against, stats, list, page, pages))
}

#[derive(Template, WebTemplate)]
#[template(path = "player.html")]
struct PlayerPage {
    p: PlayerAnswer,
}

/// A player's page as HTML, what `/p/NAME` answers (for the bench).
pub fn render_player_page(state: &AppState, player: &str, page: u64) -> Result<String, Problem> {
    let p = answer(state, player, None, page)?;
    PlayerPage { p }.render().map_err(Problem::internal)
}

impl PlayerPage {
    fn per_placement(&self, t: &TileScored) -> f64 {
        f64::from(t.points) / f64::from(t.placed.max(1))
    }

    /// The accuracy over time, once a game is analysed.
    fn accuracy_graph(&self) -> Option<String> {
        let points: Vec<_> = self.p.analysed.iter().map(|g| (g.game, g.accuracy)).collect();
        (!points.is_empty()).then(|| crate::web::chance_view::accuracy_graph(&points))
    }

    /// Whether a mistake's kind is a farm claim in the tile game's fields, which the page's
    /// note then explains (New World's farmers stand in farms of their own).
    fn claims_fields(&self) -> bool {
        self.p.mistakes.iter().any(|m| m.kind == "meeple on a field")
    }

    /// Whether `name` is this page's player (as the names their games recorded match it):
    /// their own seat gets no head-to-head link.
    fn is_player(&self, name: &str) -> bool {
        let key = crate::store::match_key(name);
        (self.p.names.iter().chain([&self.p.player])).any(|n| crate::store::match_key(n) == key)
    }

    /// This page's address, for the pagination's links.
    fn here(&self) -> String {
        match &self.p.against {
            Some(b) => links::head_to_head(&self.p.player, b),
            None => links::player(&self.p.player),
        }
    }
}

/// A player's page: `/p/NAME` (any case; see `store::players::match_key`) or `/p/bga:ID`.
#[route("/p/{name}", method = "GET", method = "HEAD")]
pub async fn player_page(
    state: web::Data<AppState>,
    name: web::Path<String>,
    q: Query<PageQuery>,
) -> Result<PlayerPage, Problem> {
    let page = q.page.unwrap_or(1);
    blocking(move || {
        Ok(PlayerPage {
            p: answer(&state, &name, None, page)?,
        })
    })
    .await
}

/// Two players' games against each other, from the first one's side.
#[route("/p/{a}/vs/{b}", method = "GET", method = "HEAD")]
pub async fn head_to_head(
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    q: Query<PageQuery>,
) -> Result<PlayerPage, Problem> {
    let (a, b) = path.into_inner();
    let page = q.page.unwrap_or(1);
    blocking(move || {
        Ok(PlayerPage {
            p: answer(&state, &a, Some(&b), page)?,
        })
    })
    .await
}

/// A player's results and a page of their listed games (30 a page), newest first; with `vs`,
/// only their games against that player.
#[utoipa::path(get, path = "/api/players/{name}",
    params(
        ("name" = String, Path, description = "A name (matched after Unicode NFKC and lowercasing) or bga:ID"),
        ("vs" = Option<String>, Query, description = "Only the games against this player (a name or bga:ID)"),
        ("page" = Option<u64>, Query, description = "The page of the list, from 1"),
    ),
    responses((status = 200, description = "The player", body = PlayerAnswer),
              (status = 404, description = "No listed game of that player, or no such page", content_type = "application/problem+json")))]
#[route("/api/players/{name}", method = "GET", method = "HEAD")]
pub async fn api(
    state: web::Data<AppState>,
    name: web::Path<String>,
    q: Query<ApiQuery>,
) -> Result<web::Json<PlayerAnswer>, Problem> {
    let ApiQuery { page, vs } = q.into_inner();
    blocking(move || Ok(web::Json(answer(&state, &name, vs.as_deref(), page.unwrap_or(1))?))).await
}

#[derive(serde::Deserialize)]
pub struct ApiQuery {
    page: Option<u64>,
    vs: Option<String>,
}
