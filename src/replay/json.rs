//! The JSON form of a replay: the contract of `replay --json`, which other tools read, and the
//! pieces of it the API and the store send and keep too.
//!
//! Each type is the shape of one JSON object, its fields serialised in the order they are
//! declared; `ToSchema` gives the API's OpenAPI document the same shapes.

use super::{Categories, Replay, TurnSnapshot, words};
use crate::engine::{self, Action, Category, Pos, TileCatalog, Unit};
use crate::record::GameRecord;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A square of the board, `[x, y]`: x grows to the east, y to the south.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Square(pub [i32; 2]);

fn square(p: Pos) -> Square {
    Square([p.x, p.y])
}

impl utoipa::PartialSchema for Square {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
        ArrayBuilder::new()
            .description(Some(
                "A square of the board, `[x, y]`: x grows to the east, y to the south",
            ))
            .items(ObjectBuilder::new().schema_type(Type::Integer))
            .min_items(Some(2))
            .max_items(Some(2))
            .into()
    }
}

impl ToSchema for Square {}

/// A player as the documents name them.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PlayerName {
    pub name: String,
}

impl PlayerName {
    pub fn all(players: &[crate::record::PlayerInfo]) -> Vec<PlayerName> {
        (players.iter()).map(|p| PlayerName { name: p.name.clone() }).collect()
    }
}

/// When points were scored: during the game, or in final scoring.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Play,
    End,
}

impl From<engine::Phase> for Phase {
    fn from(p: engine::Phase) -> Phase {
        match p {
            engine::Phase::Play => Phase::Play,
            engine::Phase::End => Phase::End,
        }
    }
}

/// What a term of a score counts.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TermUnit {
    Tile,
    Shield,
    City,
    Segment,
    Flag,
    TradingPost,
    Animal,
    Surveyor,
}

impl From<Unit> for TermUnit {
    fn from(u: Unit) -> TermUnit {
        match u {
            Unit::Tile => TermUnit::Tile,
            Unit::Shield => TermUnit::Shield,
            Unit::City => TermUnit::City,
            Unit::Segment => TermUnit::Segment,
            Unit::Flag => TermUnit::Flag,
            Unit::TradingPost => TermUnit::TradingPost,
            Unit::Animal => TermUnit::Animal,
            Unit::Surveyor => TermUnit::Surveyor,
        }
    }
}

/// One term of a score: `count` units at `rate` points each.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
pub struct Term {
    pub count: u32,
    pub unit: TermUnit,
    pub rate: u32,
}

/// A feature paying points, with the numbers that explain them.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Score {
    /// The feature's kind: `road`, `city`, `cloister`, `garden`, `field`, or New World's words.
    pub feature: &'static str,
    /// `completed`, `incomplete`, `abbot recalled` or `farm`.
    pub reason: String,
    pub phase: Phase,
    /// Every player who scores; more than one is a tie, each scoring in full.
    pub players: Vec<u8>,
    pub points: u32,
    /// Meeples each player had in the feature.
    pub meeples: Vec<u8>,
    pub tiles: u32,
    pub shields: u32,
    pub cities: u32,
    pub terms: Vec<Term>,
    /// The score in words.
    pub explanation: String,
    /// One square of the feature, with `location` the place on it.
    pub position: Square,
    pub location: String,
}

impl Score {
    /// `players` is the game's player count, which sizes the per-player arrays.
    pub fn of(s: &engine::Score, players: usize) -> Score {
        Score {
            feature: s.feature.word(),
            reason: s.reason.to_string(),
            phase: s.phase.into(),
            players: s.players.iter().collect(),
            points: s.points,
            meeples: s.meeples[..players].to_vec(),
            tiles: s.terms.count(Unit::Tile),
            shields: s.terms.count(Unit::Shield),
            cities: s.terms.count(Unit::City),
            terms: (s.terms.iter())
                .map(|t| Term {
                    count: t.count,
                    unit: t.unit.into(),
                    rate: t.rate,
                })
                .collect(),
            explanation: words::explanation(s),
            position: square(s.pos),
            location: s.location.to_string(),
        }
    }
}

/// A drawn tile that could not be placed, put aside.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TileDiscarded {
    pub player: u8,
    pub tile: String,
}

/// A meeple back in its player's supply.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct MeepleReturned {
    pub player: u8,
    pub figure: &'static str,
    /// The kind of feature it stood on.
    pub feature: &'static str,
    pub position: Square,
    pub location: String,
    /// New World: it went home because it stood east of the surveyors.
    pub left_behind: bool,
}

/// New World: a surveyor moved one column west after a scored feature.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SurveyorMoved {
    pub from: i32,
    pub to: i32,
}

/// Something that happened in a turn.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    TilePlaced {
        player: u8,
        tile: String,
        position: Square,
        /// Degrees clockwise.
        rotation: u16,
    },
    TileDiscarded(TileDiscarded),
    MeepleDeployed {
        player: u8,
        figure: &'static str,
        feature: &'static str,
        position: Square,
        location: String,
    },
    Scored(Score),
    MeepleReturned(MeepleReturned),
    SurveyorMoved(SurveyorMoved),
}

impl Event {
    /// `players` is the game's player count, which sizes the per-player arrays.
    pub fn of(cat: &TileCatalog, e: &engine::Event, players: usize) -> Event {
        match *e {
            engine::Event::TilePlaced {
                player,
                tile,
                pos,
                rotation,
            } => Event::TilePlaced {
                player,
                tile: cat.name(tile).into(),
                position: square(pos),
                rotation: rotation.degrees(),
            },
            engine::Event::TileDiscarded { player, tile } => Event::TileDiscarded(TileDiscarded {
                player,
                tile: cat.name(tile).into(),
            }),
            engine::Event::MeepleDeployed {
                player,
                figure,
                feature,
                pos,
                location,
            } => Event::MeepleDeployed {
                player,
                figure: figure.word(),
                feature: feature.word(),
                position: square(pos),
                location: location.to_string(),
            },
            engine::Event::Scored(ref s) => Event::Scored(Score::of(s, players)),
            engine::Event::MeepleReturned {
                player,
                figure,
                feature,
                pos,
                location,
                left_behind,
            } => Event::MeepleReturned(MeepleReturned {
                player,
                figure: figure.word(),
                feature: feature.word(),
                position: square(pos),
                location: location.to_string(),
                left_behind,
            }),
            engine::Event::SurveyorMoved { from, to } => Event::SurveyorMoved(SurveyorMoved { from, to }),
        }
    }
}

/// The meeple step of a turn that has one: a deployment on the tile just placed, or an abbot
/// taken back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum MeepleStep {
    Deploy {
        figure: String,
        feature: String,
        location: String,
    },
    RecallAbbot,
}

impl MeepleStep {
    /// `None` for a turn without a meeple step.
    pub fn of(cat: &TileCatalog, t: &TurnSnapshot) -> Option<MeepleStep> {
        match t.mv.action {
            Action::Pass => None,
            Action::RecallAbbot => Some(MeepleStep::RecallAbbot),
            Action::Deploy { segment, figure } => {
                let kind = cat.get(t.mv.tile);
                Some(MeepleStep::Deploy {
                    figure: figure.word().into(),
                    feature: kind.segments[segment as usize].kind.word().into(),
                    location: kind.location_of(t.mv.placement.rotation, segment).to_string(),
                })
            }
        }
    }
}

/// A tile-game move, as the fields of a turn: the tile, where and how it went, and the meeple
/// step (`null` for none).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TileMove {
    pub tile: String,
    pub position: Square,
    /// Degrees clockwise.
    pub rotation: u16,
    pub meeple: Option<MeepleStep>,
}

impl TileMove {
    pub fn of(cat: &TileCatalog, t: &TurnSnapshot) -> TileMove {
        let p = t.mv.placement;
        TileMove {
            tile: cat.name(t.mv.tile).into(),
            position: square(p.pos),
            rotation: p.rotation.degrees(),
            meeple: MeepleStep::of(cat, t),
        }
    }
}

/// A turn of `replay --json`, in any game: the move (`M`, as members of the turn), then every
/// player's score and supply (`S`) after it, and what happened (`E`).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Turn<M, S, E> {
    pub turn: u32,
    pub player: u8,
    #[serde(flatten)]
    pub mv: M,
    pub scores: Vec<i32>,
    #[serde(flatten)]
    pub supply: S,
    pub events: Vec<E>,
}

/// A tile-game turn's supply: every player's followers in supply after it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Followers {
    pub followers: Vec<u8>,
}

/// A turn of the tile game: everything since the turn before (discards, the placement, the
/// meeple step, scores, returns).
pub type TileTurn = Turn<TileMove, Followers, Event>;

fn tile_turn(cat: &TileCatalog, t: &TurnSnapshot) -> TileTurn {
    Turn {
        turn: t.turn,
        player: t.player,
        mv: TileMove::of(cat, t),
        scores: t.scores.clone(),
        supply: Followers {
            followers: t.supply.iter().map(|s| s.followers).collect(),
        },
        events: t.events.iter().map(|e| Event::of(cat, e, t.scores.len())).collect(),
    }
}

/// Points by category, then their `total`: one member per category of the game, by its word,
/// in its order (the tile game: `road`, `city`, `cloister`, `garden`, `field`).
#[derive(Clone, Debug)]
pub struct CategoryPoints {
    points: Vec<(&'static str, u32)>,
    total: u32,
}

impl CategoryPoints {
    pub fn of<C: Category>(c: &Categories<C>) -> CategoryPoints {
        CategoryPoints {
            points: c.iter().map(|(c, p)| (c.word(), p)).collect(),
            total: c.total(),
        }
    }
}

impl Serialize for CategoryPoints {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.points.len() + 1))?;
        for (word, points) in &self.points {
            map.serialize_entry(word, points)?;
        }
        map.serialize_entry("total", &self.total)?;
        map.end()
    }
}

impl utoipa::PartialSchema for CategoryPoints {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, Type};
        ObjectBuilder::new()
            .description(Some(
                "Points per category of the game, by the category's name, and their `total`",
            ))
            .property(
                "total",
                ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0)),
            )
            .required("total")
            .additional_properties(Some(AdditionalProperties::RefOr(
                ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0)).into(),
            )))
            .into()
    }
}

impl utoipa::ToSchema for CategoryPoints {}

/// A player's points, scored during play and at the end, by category.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Breakdown {
    pub play: CategoryPoints,
    pub end: CategoryPoints,
    pub total: u32,
}

impl<C: Category> From<&super::Breakdown<C>> for Breakdown {
    fn from(b: &super::Breakdown<C>) -> Breakdown {
        Breakdown {
            play: CategoryPoints::of(&b.play),
            end: CategoryPoints::of(&b.end),
            total: b.play.total() + b.end.total(),
        }
    }
}

pub fn breakdowns<C: Category>(b: &[super::Breakdown<C>]) -> Vec<Breakdown> {
    b.iter().map(Breakdown::from).collect()
}

/// The whole `replay --json` document, in any game: its head (`H`: the players, and the
/// rules or the game), every turn, what followed the last one, and the result.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Document<H, M, S, E> {
    #[serde(flatten)]
    pub head: H,
    pub turns: Vec<Turn<M, S, E>>,
    pub finished: bool,
    /// What followed the last turn: in the tile games, discards, then final scoring.
    pub final_events: Vec<E>,
    pub final_scores: Vec<i32>,
    /// The Card Game: who won, ties included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winners: Option<Vec<u8>>,
    pub breakdown: Vec<Breakdown>,
}

/// A tile game's head: the players, and the rulebook's name.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TileHead {
    pub players: Vec<PlayerName>,
    pub rules: &'static str,
}

/// The whole replay of a tile game: `replay --json`.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(transparent)]
pub struct TileReplay(#[schema(inline)] pub Document<TileHead, TileMove, Followers, Event>);

/// The whole replay as one JSON document.
pub fn replay(record: &GameRecord, r: &Replay) -> TileReplay {
    let cat = &record.setup.catalog;
    TileReplay(Document {
        head: TileHead {
            players: PlayerName::all(&record.players),
            rules: r.rules().preset.name(),
        },
        turns: r.turns.iter().map(|t| tile_turn(cat, t)).collect(),
        finished: r.finished,
        final_events: (r.final_events.iter())
            .map(|e| Event::of(cat, e, record.players.len()))
            .collect(),
        final_scores: r.final_scores.clone(),
        winners: None,
        breakdown: breakdowns(&r.breakdown),
    })
}
