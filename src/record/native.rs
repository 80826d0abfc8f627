//! The native format, `carcassonne-replay/1`: JSON described in the reference
//! (`/docs/records`) and by `static/record.schema.json`.

use super::annotations::{self, Annotation};
use super::quote::{self, Quoted};
use super::rules_spec::Overrides;
use super::{
    CustomTile, GameRecord, MAX_CUSTOM_KINDS, MAX_CUSTOM_TILES, MAX_TILE_NAME_CHARS, PlayerInfo, RecordError,
    RecordedAction, RecordedMove, RulesSpec, TileSetup,
};
use crate::engine::tileset::parse_spec;
use crate::engine::{
    FeatureKind, FeatureRef, Figure, GameKind, Location, Placement, Pos, Preset, Rotation, StartTile, TileCatalog,
    TileKindId,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

pub const FORMAT: &str = "carcassonne-replay/1";

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    format: String,
    /// The game kind; absent for the tile game, so records from before there were several
    /// read, and keep their ids.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    game: Option<String>,
    players: Vec<Player>,
    /// Absent: the game's own rulebook (`GameKind::default_preset`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rules: Option<DocRules>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tiles: Vec<DocTile>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    start: Vec<DocStart>,
    moves: Vec<DocMove>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    final_scoring: Option<bool>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    annotations: Vec<Annotation>,
}

/// A player as native records write them (the Card Game's records too).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Player {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    colour: Option<String>,
}

impl Player {
    pub(super) fn of(p: &PlayerInfo) -> Player {
        Player {
            name: p.name.clone(),
            colour: p.colour.clone(),
        }
    }

    pub(super) fn into_info(self) -> PlayerInfo {
        PlayerInfo {
            name: self.name,
            colour: self.colour,
            bga_id: None,
        }
    }

    /// The player's colour, when it is not of the form `#rrggbb`.
    pub(super) fn bad_colour(&self) -> Option<NativeError> {
        let c = self.colour.as_deref()?;
        (!is_colour(c)).then(|| NativeError::Colour {
            player: self.name.clone(),
            colour: c.to_string(),
        })
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DocRules {
    preset: String,
    #[serde(flatten)]
    overrides: Overrides,
}

impl DocRules {
    fn of(game: GameKind) -> Self {
        DocRules {
            preset: game.default_preset().name().into(),
            overrides: Overrides::default(),
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DocTile {
    name: String,
    count: u8,
    segments: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DocStart {
    tile: String,
    at: [i32; 2],
    rotation: i64,
}

#[derive(Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct DocMove {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    player: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tile: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at: Option<[i32; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rotation: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    meeple: Option<DocMeeple>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    recall_abbot: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    discard: Option<String>,
    /// New World: the order in which the features this tile completes score.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    score_order: Vec<DocFeature>,
}

/// A feature a record points at: the square of one of its tiles, and where on that tile.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DocFeature {
    feature: String,
    on: [i32; 2],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DocMeeple {
    feature: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    abbot: bool,
}

/// Why a native record cannot be read, in the record's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NativeError {
    #[error(
        "game: a Card Game record is not a tile game's; `record::parse_any` reads it, `record::parse` only the tile games"
    )]
    CardGame,
    /// The document does not have the format's shape: serde's words, after the path of the
    /// member at fault.
    #[error("{0}")]
    Shape(String),
    /// Comments that cannot all be kept.
    #[error("{0}")]
    Comments(#[from] super::annotations::CommentsError),
    /// The same, in a `rules` object carried by another format.
    #[error("rules.{0}")]
    RulesShape(String),
    #[error("unsupported format {}; this version reads {FORMAT:?}", Quoted(.0))]
    Format(String),
    #[error("game: unknown game {}; this version plays {}", Quoted(.0), game_names())]
    UnknownGame(String),
    #[error("a game has 1 to 6 players, not {0}")]
    PlayerCount(usize),
    #[error("player {}: colour {} is not of the form \"#rrggbb\"", Quoted(.player), Quoted(.colour))]
    Colour { player: String, colour: String },
    #[error("unknown rules preset {}; the presets are {}", Quoted(.0), preset_names())]
    UnknownPreset(String),
    #[error("rules.preset: {preset} is not a rulebook of {game}; leave \"rules\" out for the game's own rules")]
    NotARulebook { preset: &'static str, game: &'static str },
    #[error("rules: {0}")]
    Expansions(&'static str),
    #[error(
        "tiles: a New World record brings its own tiles (the printed tile list is not public); see the README's sample tile set"
    )]
    NewWorldTiles,
    #[error("the record defines {0} tile kinds; the limit is {MAX_CUSTOM_KINDS}")]
    TooManyKinds(usize),
    #[error("the record's own tiles add {0} tiles to the pack; the limit is {MAX_CUSTOM_TILES}")]
    TooManyTiles(u32),
    #[error("tiles: the name {} is {chars} characters long; the limit is {MAX_TILE_NAME_CHARS}", Quoted(.name))]
    TileName { name: String, chars: usize },
    /// A tile the record defines, as the engine reads tile specs.
    #[error("{0}")]
    Tile(crate::engine::TileDefError),
    #[error("tile {tile}: {} has no {kind}; its tiles are made of {}", .game.title(), feature_words(*.game))]
    NotInGame {
        tile: String,
        game: GameKind,
        kind: FeatureKind,
    },
    #[error(
        "{at}: unknown tile {} (tiles are named A–X, Eg…Vg for garden copies, river-A…river-L, or defined under \"tiles\")",
        Quoted(.name)
    )]
    UnknownTile { at: Part, name: String },
    #[error("{at}: rotation is 0, 90, 180 or 270 degrees clockwise, not {degrees}")]
    Rotation { at: Part, degrees: i64 },
    #[error("move {mv}: player {player} does not exist (players are numbered from 0)")]
    NoSuchPlayer { mv: usize, player: u8 },
    #[error("move {0}: a discard names only the discarded tile")]
    DiscardWithMore(usize),
    #[error("move {0}: a move needs \"tile\", \"at\" and \"rotation\" (or \"discard\")")]
    IncompleteMove(usize),
    #[error("move {0}: a turn deploys a meeple or recalls the abbot, not both")]
    MeepleAndAbbot(usize),
    #[error("move {mv}: unknown feature {}; use city, road, field, cloister or garden", Quoted(.name))]
    MeepleFeature { mv: usize, name: String },
    #[error("move {mv}: a meeple on a {kind} needs \"at\", a side such as \"N\" or a half-edge such as \"S.e\"")]
    MeepleWithoutPlace { mv: usize, kind: FeatureKind },
    #[error("{at}: {} is not a side (N, E, S, W), a half-edge (N.w … W.n) or \"center\"", Quoted(.place))]
    NotAPlace { at: Part, place: String },
    #[error("move {0}: score_order: only a New World placement states a scoring order")]
    ScoreOrderNotNewWorld(usize),
    #[error("{at}: unknown feature {}", Quoted(.name))]
    ScoredFeature { at: Part, name: String },
    #[error("{at} names {kind}: only towns, trails and farms score during play")]
    NotScoredInPlay { at: Part, kind: FeatureKind },
    #[error("{0}: a farm is the middle of its tile: leave \"at\" out")]
    FarmWithPlace(Part),
    #[error("{at}: a {kind} is named by a side of its tile: \"at\": N, E, S or W")]
    NeedsSide { at: Part, kind: FeatureKind },
}

/// Where in a record: a start tile, a move, or an entry of a move's scoring order (all
/// 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    StartTile(usize),
    Move(usize),
    ScoreOrder { mv: usize, entry: usize },
}

impl std::fmt::Display for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Part::StartTile(i) => write!(f, "start tile {i}"),
            Part::Move(n) => write!(f, "move {n}"),
            Part::ScoreOrder { mv, entry } => write!(f, "move {mv}: score_order entry {entry}"),
        }
    }
}

fn game_names() -> String {
    let names: Vec<_> = GameKind::ALL.iter().map(|k| format!("{:?}", k.name())).collect();
    names.join(", ")
}

fn preset_names() -> String {
    let names: Vec<_> = Preset::ALL.iter().map(|p| p.name()).collect();
    names.join(", ")
}

fn feature_words(game: GameKind) -> String {
    let kinds: Vec<_> = game.feature_kinds().iter().map(|k| k.word()).collect();
    kinds.join(", ")
}

pub fn from_value(value: serde_json::Value) -> Result<GameRecord, RecordError> {
    read(value).map_err(RecordError::from)
}

fn read(value: serde_json::Value) -> Result<GameRecord, NativeError> {
    if super::cards::is_card_game(&value) {
        return Err(NativeError::CardGame);
    }
    let doc: Doc = serde_path_to_error::deserialize(value).map_err(|e| NativeError::Shape(at_path(&e)))?;
    if doc.format != FORMAT {
        return Err(NativeError::Format(doc.format));
    }
    let game = game_kind(doc.game.as_deref())?;
    annotations::one_per_line(&doc.annotations)?;
    if doc.players.is_empty() || doc.players.len() > 6 {
        return Err(NativeError::PlayerCount(doc.players.len()));
    }
    if let Some(bad) = doc.players.iter().find_map(Player::bad_colour) {
        return Err(bad);
    }
    let rules = rules_spec(doc.rules.unwrap_or_else(|| DocRules::of(game)))?;
    if !game.plays(rules.preset) {
        return Err(NativeError::NotARulebook {
            preset: rules.preset.name(),
            game: game.name(),
        });
    }
    rules.check_expansions().map_err(NativeError::Expansions)?;
    if game == GameKind::NewWorld && doc.tiles.is_empty() {
        return Err(NativeError::NewWorldTiles);
    }
    let (catalog, custom_tiles) = catalog_with(game, &doc.tiles)?;
    let tile = |name: &str, at: Part| -> Result<TileKindId, NativeError> {
        (catalog.by_name(name)).ok_or_else(|| NativeError::UnknownTile {
            at,
            name: name.to_string(),
        })
    };
    let start = doc
        .start
        .iter()
        .enumerate()
        .map(|(i, s)| {
            Ok(StartTile {
                tile: tile(&s.tile, Part::StartTile(i + 1))?,
                placement: Placement {
                    pos: Pos::new(s.at[0], s.at[1]),
                    rotation: rotation(s.rotation, Part::StartTile(i + 1))?,
                },
            })
        })
        .collect::<Result<Vec<_>, NativeError>>()?;
    let moves = doc
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| parse_move(m, i + 1, doc.players.len(), &tile))
        .collect::<Result<Vec<_>, _>>()?;
    let mut score_orders = BTreeMap::new();
    for (i, m) in doc.moves.iter().enumerate().filter(|(_, m)| !m.score_order.is_empty()) {
        if game != GameKind::NewWorld || m.tile.is_none() {
            return Err(NativeError::ScoreOrderNotNewWorld(i + 1));
        }
        let order = m
            .score_order
            .iter()
            .enumerate()
            .map(|(j, f)| {
                feature_ref(
                    f,
                    Part::ScoreOrder {
                        mv: i + 1,
                        entry: j + 1,
                    },
                )
            })
            .collect::<Result<_, _>>()?;
        score_orders.insert(i, order);
    }
    Ok(GameRecord {
        players: doc.players.into_iter().map(Player::into_info).collect(),
        setup: TileSetup {
            game,
            rules,
            custom_tiles,
            catalog,
            start,
            score_orders,
            final_scoring: doc.final_scoring,
            recorded_scores: None,
        },
        moves,
        annotations: doc.annotations,
    })
}

/// An entry of a placement's `score_order`: a town, trail or farm (nothing else scores during
/// play), a town or trail by a side of its tile.
fn feature_ref(f: &DocFeature, what: Part) -> Result<FeatureRef, NativeError> {
    let kind = FeatureKind::parse(&f.feature).ok_or_else(|| NativeError::ScoredFeature {
        at: what,
        name: f.feature.clone(),
    })?;
    if !matches!(kind, FeatureKind::Town | FeatureKind::Trail | FeatureKind::Farm) {
        return Err(NativeError::NotScoredInPlay { at: what, kind });
    }
    let at = match &f.at {
        None => None,
        Some(a) => Some(place(a, what)?),
    };
    match (kind, at) {
        (FeatureKind::Farm, None | Some(Location::Center)) | (_, Some(Location::Side(_))) => {}
        (FeatureKind::Farm, Some(_)) => return Err(NativeError::FarmWithPlace(what)),
        _ => return Err(NativeError::NeedsSide { at: what, kind }),
    }
    Ok(FeatureRef {
        pos: Pos::new(f.on[0], f.on[1]),
        kind,
        at,
    })
}

/// A side, a half-edge or the centre, as a record writes it.
fn place(a: &str, what: Part) -> Result<Location, NativeError> {
    Location::parse(a).ok_or_else(|| NativeError::NotAPlace {
        at: what,
        place: a.to_string(),
    })
}

fn game_kind(name: Option<&str>) -> Result<GameKind, NativeError> {
    let Some(name) = name else {
        return Ok(GameKind::default());
    };
    GameKind::from_name(name).ok_or_else(|| NativeError::UnknownGame(name.to_string()))
}

/// A serde error with the path of the field it is about: "rules.two_tile_city: unknown
/// variant `half`, expected `full` or `reduced`".
pub(super) fn at_path(e: &serde_path_to_error::Error<serde_json::Error>) -> String {
    // The path names the record's own keys, unquoted: each is cut short like a quote.
    let path = e.path().to_string();
    let path: Vec<_> = path.split('.').map(quote::cut).collect();
    let path = path.join(".");
    if path == "." {
        e.inner().to_string()
    } else {
        format!("{path}: {}", e.inner())
    }
}

/// `#rrggbb`, the one colour form records use.
pub fn is_colour(c: &str) -> bool {
    c.len() == 7 && c.starts_with('#') && c[1..].chars().all(|ch| ch.is_ascii_hexdigit())
}

fn rules_spec(rules: DocRules) -> Result<RulesSpec, NativeError> {
    let preset = Preset::parse(&rules.preset).ok_or_else(|| NativeError::UnknownPreset(rules.preset.clone()))?;
    let spec = RulesSpec {
        preset,
        overrides: rules.overrides,
    };
    Ok(spec)
}

/// A record's `rules` object, for other formats that carry our rules along.
pub fn rules_to_value(spec: &RulesSpec) -> serde_json::Value {
    let rules = DocRules {
        preset: spec.preset.name().into(),
        overrides: spec.overrides.clone(),
    };
    serde_json::to_value(rules).expect("rules serialise")
}

pub(super) fn rules_from_value(v: serde_json::Value) -> Result<RulesSpec, RecordError> {
    let rules: DocRules = serde_path_to_error::deserialize(v).map_err(|e| NativeError::RulesShape(at_path(&e)))?;
    Ok(rules_spec(rules)?)
}

fn catalog_with(game: GameKind, tiles: &[DocTile]) -> Result<(Arc<TileCatalog>, Vec<CustomTile>), NativeError> {
    if tiles.is_empty() {
        return Ok((TileCatalog::builtin(), Vec::new()));
    }
    if tiles.len() > MAX_CUSTOM_KINDS {
        return Err(NativeError::TooManyKinds(tiles.len()));
    }
    let copies: u32 = tiles.iter().map(|t| u32::from(t.count)).sum();
    if copies > MAX_CUSTOM_TILES {
        return Err(NativeError::TooManyTiles(copies));
    }
    let mut cat = (*TileCatalog::builtin()).clone();
    let mut custom = Vec::new();
    for t in tiles {
        let chars = t.name.chars().count();
        if chars > MAX_TILE_NAME_CHARS {
            return Err(NativeError::TileName {
                name: t.name.clone(),
                chars,
            });
        }
        let kind = parse_spec(&t.name, &t.segments).map_err(NativeError::Tile)?;
        if let Some(s) = kind.segments.iter().find(|s| !game.feature_kinds().contains(&s.kind)) {
            return Err(NativeError::NotInGame {
                tile: t.name.clone(),
                game,
                kind: s.kind,
            });
        }
        cat.add(kind).map_err(NativeError::Tile)?;
        custom.push(CustomTile {
            name: t.name.clone(),
            count: t.count,
            segments: t.segments.clone(),
        });
    }
    Ok((Arc::new(cat), custom))
}

fn rotation(deg: i64, what: Part) -> Result<Rotation, NativeError> {
    Rotation::from_degrees(deg)
        .filter(|_| (0..360).contains(&deg))
        .ok_or(NativeError::Rotation { at: what, degrees: deg })
}

fn parse_move(
    m: &DocMove,
    n: usize,
    players: usize,
    tile: &dyn Fn(&str, Part) -> Result<TileKindId, NativeError>,
) -> Result<RecordedMove, NativeError> {
    let what = Part::Move(n);
    if let Some(p) = m.player
        && p as usize >= players
    {
        return Err(NativeError::NoSuchPlayer { mv: n, player: p });
    }
    if let Some(d) = &m.discard {
        if m.tile.is_some() || m.meeple.is_some() || m.recall_abbot {
            return Err(NativeError::DiscardWithMore(n));
        }
        return Ok(RecordedMove::Discard {
            player: m.player,
            tile: tile(d, what)?,
        });
    }
    let (Some(name), Some(at), Some(rot)) = (&m.tile, m.at, m.rotation) else {
        return Err(NativeError::IncompleteMove(n));
    };
    let action = match (&m.meeple, m.recall_abbot) {
        (Some(_), true) => return Err(NativeError::MeepleAndAbbot(n)),
        (None, true) => RecordedAction::RecallAbbot,
        (None, false) => RecordedAction::Pass,
        (Some(mp), false) => parse_meeple(mp, n)?,
    };
    Ok(RecordedMove::Place {
        player: m.player,
        tile: tile(name, what)?,
        placement: Placement {
            pos: Pos::new(at[0], at[1]),
            rotation: rotation(rot, what)?,
        },
        action,
    })
}

fn parse_meeple(m: &DocMeeple, n: usize) -> Result<RecordedAction, NativeError> {
    let feature = FeatureKind::parse(&m.feature).ok_or_else(|| NativeError::MeepleFeature {
        mv: n,
        name: m.feature.clone(),
    })?;
    let at = match (&m.at, feature.is_inner()) {
        (None, true) => Location::Center,
        (None, false) => return Err(NativeError::MeepleWithoutPlace { mv: n, kind: feature }),
        (Some(a), _) => place(a, Part::Move(n))?,
    };
    let figure = if m.abbot { Figure::Abbot } else { Figure::Follower };
    Ok(RecordedAction::Deploy { feature, at, figure })
}

/// Writes a record as native JSON.
pub fn to_value(r: &GameRecord) -> serde_json::Value {
    let cat = &r.setup.catalog;
    let doc = Doc {
        format: FORMAT.into(),
        game: (r.setup.game != GameKind::default()).then(|| r.setup.game.name().into()),
        players: r.players.iter().map(Player::of).collect(),
        rules: Some(DocRules {
            preset: r.setup.rules.preset.name().into(),
            overrides: r.setup.rules.overrides.clone(),
        }),
        tiles: r
            .setup
            .custom_tiles
            .iter()
            .map(|t| DocTile {
                name: t.name.clone(),
                count: t.count,
                segments: t.segments.clone(),
            })
            .collect(),
        start: r
            .setup
            .start
            .iter()
            .map(|s| DocStart {
                tile: cat.name(s.tile).into(),
                at: [s.placement.pos.x, s.placement.pos.y],
                rotation: s.placement.rotation.degrees() as i64,
            })
            .collect(),
        moves: r
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| DocMove {
                score_order: r
                    .setup
                    .score_orders
                    .get(&i)
                    .map_or_else(Vec::new, |o| o.iter().map(doc_feature).collect()),
                ..export_move(cat, m)
            })
            .collect(),
        final_scoring: r.setup.final_scoring,
        annotations: r.annotations.clone(),
    };
    serde_json::to_value(doc).expect("records serialise")
}

/// The record as its game's id hashes it and the store keeps it: without its annotations.
pub fn canonical_value(r: &GameRecord) -> serde_json::Value {
    annotations::without(to_value(r))
}

/// Native JSON laid out for people: one move per line.
pub fn to_pretty_string(r: &GameRecord) -> String {
    let value = to_value(r);
    let mut out = String::from("{\n");
    let obj = value.as_object().expect("a record is an object");
    let last = obj.len() - 1;
    for (i, (key, v)) in obj.iter().enumerate() {
        let comma = if i == last { "" } else { "," };
        match v.as_array() {
            Some(items) if !items.is_empty() => {
                out += &format!("  {key:?}: [\n");
                for (j, item) in items.iter().enumerate() {
                    let c = if j + 1 == items.len() { "" } else { "," };
                    out += &format!("    {item}{c}\n");
                }
                out += &format!("  ]{comma}\n");
            }
            _ => out += &format!("  {key:?}: {v}{comma}\n"),
        }
    }
    out + "}\n"
}

fn doc_feature(f: &FeatureRef) -> DocFeature {
    DocFeature {
        feature: f.kind.word().into(),
        on: [f.pos.x, f.pos.y],
        at: f.at.map(|a| a.to_string()),
    }
}

fn export_move(cat: &TileCatalog, m: &RecordedMove) -> DocMove {
    match *m {
        RecordedMove::Discard { player, tile } => DocMove {
            player,
            discard: Some(cat.name(tile).into()),
            ..DocMove::default()
        },
        RecordedMove::Place {
            player,
            tile,
            placement,
            action,
        } => DocMove {
            player,
            tile: Some(cat.name(tile).into()),
            at: Some([placement.pos.x, placement.pos.y]),
            rotation: Some(placement.rotation.degrees() as i64),
            meeple: match action {
                RecordedAction::Deploy { feature, at, figure } => Some(DocMeeple {
                    feature: feature.word().into(),
                    at: (!feature.is_inner()).then(|| at.to_string()),
                    abbot: figure == Figure::Abbot,
                }),
                _ => None,
            },
            recall_abbot: action == RecordedAction::RecallAbbot,
            discard: None,
            score_order: Vec::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn error(moves: serde_json::Value) -> NativeError {
        let record = json!({"format": FORMAT, "players": [{"name": "Ann"}, {"name": "Bob"}], "moves": moves});
        match from_value(record) {
            Err(RecordError::Native(e)) => e,
            other => panic!("expected a NativeError, got {other:?}"),
        }
    }

    /// A move's fault names the move as data.
    #[test]
    fn a_moves_fault_names_the_move() {
        let place = json!({"tile": "D", "at": [0, -1], "rotation": 180});
        let mut both = place.clone();
        both["meeple"] = json!({"feature": "city", "at": "S"});
        both["recall_abbot"] = json!(true);
        assert_eq!(error(json!([place, both])), NativeError::MeepleAndAbbot(2));
        let mut turned = place.clone();
        turned["rotation"] = json!(45);
        let rotation = NativeError::Rotation {
            at: Part::Move(1),
            degrees: 45,
        };
        assert_eq!(error(json!([turned])), rotation);
        let mut ordered = place;
        ordered["score_order"] = json!([{"feature": "town", "on": [0, 0], "at": "N"}]);
        assert_eq!(error(json!([ordered])), NativeError::ScoreOrderNotNewWorld(1));
        assert_eq!(
            error(json!([{"player": 2, "discard": "D"}])),
            NativeError::NoSuchPlayer { mv: 1, player: 2 }
        );
    }
}
