//! The JSON API's answers as types, so that `/api/openapi.json` gives their schemas: what a
//! game's `GamePages` answers (`api_game`, `analysis_status`) and the stored turns read back.

use crate::analysis::report::GameReport;
use crate::engine::cards::CardGame;
use crate::record::GameRecord;
use crate::record::Record;
use crate::replay::cards::{self, Action};
use crate::replay::json::{Breakdown, PlayerName, TileMove, breakdowns};
use crate::store::snapshot::StoredEvent;
use crate::store::{AnySnapshots, GameId, Snapshot};
use crate::web::links;
use crate::web::loaded::{Stored, StoredGame};
use crate::web::view::GameWords;
use serde::Serialize;
use utoipa::ToSchema;

/// A stored upload: its id, its page and whether it is listed; the owner token only to the
/// upload that stored it.
#[derive(Serialize, ToSchema)]
pub struct CreatedGame {
    #[schema(value_type = String)]
    pub id: GameId,
    /// The game's page.
    pub url: String,
    pub listed: bool,
    /// Deletes the game or changes its listing: shown once, never stored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner_token: Option<String>,
}

/// A game: its players, rules and result, then where it is and how it came.
#[derive(Serialize, ToSchema)]
pub struct GameAnswer {
    players: Vec<PlayerName>,
    /// The rulebook's name (the Card Game has one, `card-game`).
    rules: &'static str,
    /// The tile games: the rules in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules_label: Option<String>,
    finished: bool,
    final_scores: Vec<i32>,
    /// The Card Game: who won, ties included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winners: Option<Vec<u8>>,
    breakdown: Vec<Breakdown>,
    #[schema(value_type = String)]
    id: GameId,
    /// `carcassonne`, `new-world` or `card-game`.
    game: &'static str,
    url: String,
    /// The record, as native JSON.
    record_url: String,
    /// The format it was uploaded in.
    source_format: String,
    created_at: String,
    turns: u32,
    /// Recorded at the table and not over yet: moves are still being added
    /// (`POST /api/games/{id}/moves`).
    live: bool,
}

impl GameAnswer {
    /// A stored game of any kind, as the API gives it.
    pub fn of<R: GameWords>(g: &Stored<R>) -> GameAnswer
    where
        Stored<R>: StoredGame,
    {
        let (record, row) = (&g.record, &g.row);
        let full = &g.full;
        let (rules, rules_label) = record.api_rules();
        GameAnswer {
            players: PlayerName::all(record.players()),
            rules,
            rules_label,
            finished: full.finished,
            final_scores: full.final_scores.clone(),
            winners: record.winners(full),
            breakdown: breakdowns(&full.breakdown),
            id: row.id,
            game: g.kind().name(),
            url: links::game(row.id),
            record_url: links::record(row.id),
            source_format: row.source_format.clone(),
            created_at: row.created_at.clone(),
            turns: row.turns,
            live: row.live,
        }
    }
}

/// A game started at the table (`POST /api/games/live`): its id and page, and its owner token,
/// which records its moves.
#[derive(Serialize, ToSchema)]
pub struct LiveGameCreated {
    #[schema(value_type = String)]
    pub id: GameId,
    pub url: String,
    /// Records the game's moves, takes them back, and deletes the game: shown once, never stored.
    pub token: String,
}

/// A live game after a move was recorded or taken back.
#[derive(Serialize, ToSchema)]
pub struct LiveAnswer {
    /// The number of the last move recorded: its place in the record's `moves`, from 1 (0
    /// before the first).
    pub turn: u32,
    /// The number the next move must carry.
    pub next_turn: u32,
    /// False once the game is over: then it takes no more moves.
    pub live: bool,
    pub finished: bool,
    /// Every player's score now: after final scoring once the game is over.
    pub scores: Vec<i32>,
    /// The turn the move made, as `GET /api/games/{id}/turns/{n}` gives it; absent for a tile
    /// discarded, which belongs to the next placement's turn, and after a move taken back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub played: Option<TurnAnswer>,
}

/// A turn of either kind of game.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum TurnAnswer {
    /// Rows of earlier releases lack members later ones write (a returned meeple's feature, and
    /// whether it was left behind): their events are sent without them, as stored.
    Tiles(#[schema(inline)] Answer<TileMove, StoredEvent, Holdings>),
    /// A card played face down is not named, as on the table: the turn whose follower takes it
    /// names it.
    Cards(#[schema(inline)] Answer<Action, cards::EventJson, HandSizes>),
}

/// A turn of a stored game: what every game's answer holds, with the game's move (`M`), events
/// (`E`) and supply (`S`).
#[derive(Serialize, ToSchema)]
pub struct Answer<M, E, S> {
    turn: u32,
    player: u8,
    #[serde(flatten)]
    mv: M,
    /// Every player's score after the turn.
    scores: Vec<i32>,
    /// What happened besides the move.
    events: Vec<E>,
    #[serde(flatten)]
    supply: S,
}

/// What tile-game players hold after the turn: followers and abbots in supply, features on
/// the board.
#[derive(Serialize, ToSchema)]
pub struct Holdings {
    /// Holdings in each player's supply.
    followers: Vec<u8>,
    abbot_in_supply: Vec<bool>,
    /// Per player, features with their meeples: city, road, field, cloister, garden.
    ownership: Vec<Vec<u16>>,
}

/// The cards in each player's hand after the turn, and who has a follower to place.
#[derive(Serialize, ToSchema)]
pub struct HandSizes {
    hands: Vec<u8>,
    follower_to_place: Vec<bool>,
}

impl TurnAnswer {
    /// Turn `n` of a stored game, as the API gives it; `None` when it has no such turn.
    pub fn of(snapshots: &AnySnapshots, n: u32) -> Option<TurnAnswer> {
        fn find<N: crate::store::snapshot::Notation>(s: &[Snapshot<N>], n: u32) -> Option<&Snapshot<N>> {
            s.iter().find(|t| t.turn == n)
        }
        Some(match snapshots {
            AnySnapshots::Tiles(s) => TurnAnswer::Tiles(tile_turn(find(s, n)?)),
            AnySnapshots::Cards(s) => TurnAnswer::Cards(card_turn(find(s, n)?)),
        })
    }
}

fn tile_turn(t: &Snapshot<GameRecord>) -> Answer<TileMove, StoredEvent, Holdings> {
    Answer {
        turn: t.turn,
        player: t.player,
        mv: t.mv.clone().into(),
        scores: t.scores.clone(),
        events: t.events.clone(),
        supply: Holdings {
            followers: t.supply.iter().map(|s| s.held).collect(),
            abbot_in_supply: t.supply.iter().map(|s| s.home).collect(),
            ownership: t.ownership.clone(),
        },
    }
}

/// The card played face down goes unnamed.
fn card_turn(t: &Snapshot<Record<CardGame>>) -> Answer<Action, cards::EventJson, HandSizes> {
    let (mut mv, mut events) = (t.mv.clone(), t.events.clone());
    cards::hide_face_down(&mut mv, &mut events);
    Answer {
        turn: t.turn,
        player: t.player,
        mv: Action { mv },
        scores: t.scores.clone(),
        events,
        supply: HandSizes {
            hands: t.supply.iter().map(|s| s.held).collect(),
            follower_to_place: t.supply.iter().map(|s| s.home).collect(),
        },
    }
}

/// Where to follow a queued analysis.
#[derive(Serialize, ToSchema)]
pub struct QueuedAnswer {
    /// Its status, as JSON.
    pub status_url: String,
    /// Its page.
    pub url: String,
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
    Cards(crate::analysis::cards::Summary),
}
