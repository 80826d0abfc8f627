//! JCloisterZone 5.x saves (`.jcz`), as described in `reference/jcz-format.md`.
//!
//! JCZ never writes discarded tiles. With a `gameAnnotations.drawOrder` the discards are the
//! drawn tiles that were not placed; otherwise each tile missing from the save is put at the
//! first turn where it had no legal placement.
//!
//! The save is read as typed structs (`Save` and its parts) whose members are read the way
//! JCloisterZone reads them (`record::loose`); what is wrong with it is a [`JczError`].
//!
//! Export, the other way, is `export::jcz`.

use super::loose::{Entries, Loose, Present};
use super::native;
use super::tile_names::{self, System};
use super::walk::IllegalTurn;
use super::{
    Format, GameRecord, Played, PlayerInfo, RecordError, RecordedAction, RecordedMove, ReplayError, RulesSpec,
    TileSetup, Walk,
};
use crate::engine::Rules;
use crate::engine::tileset::{SPRING, START_TILE};
use crate::engine::{
    Edition, FeatureKind, Figure, Game, Location, Placement, Pos, Preset, Rotation, Side, StartTile, TileCatalog,
    TileKindId,
};
use crate::engine::{GameKind, HalfEdge};
use crate::record::rules_spec::{Followers, Overrides, RiverTurnRule, TileEdition, TwoTileCityRule};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;
use std::fmt;

/// The top-level key of our own saves holding what JCloisterZone cannot say: our rules,
/// colours and whether final scoring runs (`export::jcz` writes it).
pub const EXTENSION: &str = "carcassonne-replay";

// ----- the save, as far as it is read -----

/// A save: its setup, players, the replay's messages and the annotations; JCloisterZone's
/// other members (the clocks, the app's version, a test's assertions…) are not read.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Save<'a> {
    /// Only JCloisterZone 4.x saves have their players' slots here.
    slots: Present<IgnoredAny>,
    #[serde(borrow)]
    setup: Present<Loose<Setup<'a>>>,
    #[serde(borrow)]
    players: Loose<Vec<Loose<Player<'a>>>>,
    #[serde(borrow)]
    replay: Loose<Vec<Loose<Message<'a>>>>,
    #[serde(rename = "gameAnnotations", borrow)]
    annotations: Loose<Annotations<'a>>,
    #[serde(rename = "carcassonne-replay", borrow)]
    extension: Present<Loose<Extension<'a>>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Setup<'a> {
    /// Only JCloisterZone 4.x saves have it.
    expansions: Present<IgnoredAny>,
    /// Each tile set with how many times it is used; a count is quoted back as written.
    #[serde(borrow)]
    sets: Loose<Entries<&'a str, Value>>,
    elements: Loose<Elements>,
    #[serde(borrow)]
    rules: Loose<SetupRules<'a>>,
    #[serde(borrow)]
    start: Loose<Vec<Loose<Start<'a>>>>,
}

/// The game's figures: whichever is there is in play, whatever its value.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Elements {
    farmers: Present<IgnoredAny>,
    abbot: Present<IgnoredAny>,
    #[serde(rename = "small-follower")]
    small_follower: Loose<u64>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct SetupRules<'a> {
    #[serde(rename = "tiny-city-scoring", borrow)]
    tiny_city_scoring: Loose<&'a str>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Start<'a> {
    #[serde(borrow)]
    tile: Loose<&'a str>,
    /// Degrees clockwise.
    rotation: Loose<i64>,
    x: Loose<i64>,
    y: Loose<i64>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Player<'a> {
    #[serde(borrow)]
    name: Loose<&'a str>,
    slot: Loose<u64>,
}

/// A message of the replay: its type, the player who sent it and what it says.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Message<'a> {
    #[serde(rename = "type", borrow)]
    ty: Loose<&'a str>,
    player: Loose<u64>,
    #[serde(borrow)]
    payload: Loose<Payload<'a>>,
}

/// What the messages read here say: PLACE_TILE (`tileId`, `rotation`, `position`),
/// DEPLOY_MEEPLE (`pointer`, `meepleId`) and RETURN_MEEPLE (`source`).
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Payload<'a> {
    #[serde(borrow)]
    tile_id: Loose<&'a str>,
    /// `R0`, `R90`, `R180` or `R270`.
    #[serde(borrow)]
    rotation: Loose<&'a str>,
    position: Loose<XY>,
    #[serde(borrow)]
    pointer: Present<Loose<Pointer<'a>>>,
    #[serde(borrow)]
    meeple_id: Loose<&'a str>,
    #[serde(borrow)]
    source: Loose<&'a str>,
}

/// `[x, y]`, each of which may be missing or not an integer.
type XY = (Loose<i64>, Loose<i64>);

/// Where a meeple goes: a square, a feature and a place on the tile.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Pointer<'a> {
    position: Loose<XY>,
    #[serde(borrow)]
    feature: Loose<&'a str>,
    #[serde(borrow)]
    location: Loose<&'a str>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Annotations<'a> {
    #[serde(borrow)]
    draw_order: Loose<Vec<Loose<&'a str>>>,
    end_turn: Loose<u64>,
}

/// What our own saves add (see `export::jcz`).
#[derive(Deserialize, Default)]
#[serde(default)]
struct Extension<'a> {
    /// Our native rules, read by `native`.
    rules: Present<Value>,
    final_scoring: Present<Loose<bool>>,
    #[serde(borrow)]
    colours: Loose<Vec<Loose<&'a str>>>,
}

// ----- what is wrong with a save -----

/// Why a save cannot be read: in the words of the save, with the turn, the message and the
/// player where a message is at fault.
#[derive(Debug, thiserror::Error)]
pub enum JczError {
    #[error("this is a JCloisterZone 4.x save; open it in JCloisterZone 5 and save it again")]
    Version4,
    #[error("no \"setup\"")]
    NoSetup,
    #[error("setup.sets is missing")]
    NoSets,
    /// `count` as the save writes it.
    #[error("tile set {set} is used {count} times; only once is supported")]
    SetUsedTimes { set: String, count: String },
    #[error("tile set {0:?} is not supported (supported: basic:1, basic:2, river/1:1, river/1:2)")]
    UnsupportedSet(String),
    #[error("setup.sets has no base game (basic:1 or basic:2)")]
    NoBaseGame,
    #[error("small-follower: followers must be 1 to 20, not {0}")]
    Followers(u64),
    #[error("{what}: unknown tile {id:?} (only the base game and The River are supported)")]
    UnknownTile { what: &'static str, id: String },
    #[error("a start tile has no \"tile\"")]
    StartWithoutTile,
    #[error("start rotation {0} is not a multiple of 90")]
    StartRotation(i64),
    #[error("a coordinate is missing or not an integer")]
    Coordinate,
    #[error("no \"players\"")]
    NoPlayers,
    #[error("a game has 1 to 6 players, not {0}")]
    PlayerCount(usize),
    /// The 1-based number of the message.
    #[error("replay message {0} has no type")]
    UntypedMessage(usize),
    #[error(
        "turn {turn}, replay message {message} ({}): names player {player}, but there are {players} players (numbered from 0)",
        .ty.as_deref().unwrap_or("of no type")
    )]
    NoSuchPlayer {
        turn: usize,
        message: usize,
        ty: Option<String>,
        player: u64,
        players: usize,
    },
    #[error("{at}: {problem}")]
    Message { at: MessageAt, problem: MessageProblem },
    #[error("a meeple goes to {0}, on no tile just placed")]
    MeepleOnNoTile(Pos),
    #[error("drawOrder holds a non-string")]
    DrawOrder,
    #[error("{EXTENSION}: {0}")]
    Extension(Box<RecordError>),
    /// The record read so far does not start.
    #[error("{0}")]
    Start(ReplayError),
}

/// Where a message is, for the player reading the error and for whoever looks into the save:
/// "turn 2 (Bob), replay message 5 (DEPLOY_MEEPLE)".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageAt {
    pub turn: usize,
    /// 1-based.
    pub message: usize,
    pub ty: String,
    /// The name of the player the message names, if it names one.
    pub player: Option<String>,
}

impl fmt::Display for MessageAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.player {
            Some(name) => write!(
                f,
                "turn {} ({name}), replay message {} ({})",
                self.turn, self.message, self.ty
            ),
            None => write!(f, "turn {}, replay message {} ({})", self.turn, self.message, self.ty),
        }
    }
}

/// What is wrong with one message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MessageProblem {
    #[error("no tile was placed before it")]
    NothingPlaced,
    #[error("message type {0} belongs to an expansion that is not supported")]
    ExpansionMessage(String),
    #[error("no tileId")]
    NoTileId,
    #[error("rotation {0:?} is not R0, R90, R180 or R270")]
    Rotation(String),
    #[error("unknown tile {0:?} (only the base game and The River are supported)")]
    UnknownTile(String),
    #[error("position is not [x, y]")]
    NotAPosition,
    #[error("no pointer")]
    NoPointer,
    #[error("feature {0} is not in the base game")]
    ExpansionFeature(String),
    #[error("location {location:?} does not fit a {kind}")]
    Location { location: String, kind: FeatureKind },
    #[error("meeple type {0} belongs to an expansion that is not supported")]
    ExpansionMeeple(String),
    /// The `source` of a RETURN_MEEPLE, if it has one.
    #[error("returning a meeple by {0:?} is not part of the base game")]
    Return(Option<String>),
}

/// An error inside a message, with where the message is.
fn at(at: &MessageAt, problem: MessageProblem) -> JczError {
    JczError::Message {
        at: at.clone(),
        problem,
    }
}

pub fn from_value(v: Value) -> Result<GameRecord, RecordError> {
    let save = Loose::<Save>::deserialize(&v).map_or_else(|_| Save::default(), Loose::or_empty);
    read(save)
}

fn read(save: Save) -> Result<GameRecord, RecordError> {
    let Save {
        slots,
        setup,
        players,
        replay,
        annotations,
        extension,
    } = save;
    let setup = setup.0.map(Loose::or_empty);
    if slots.is_there() || setup.as_ref().is_some_and(|s| s.expansions.is_there()) {
        return Err(JczError::Version4.into());
    }
    let setup = setup.ok_or(JczError::NoSetup)?;
    let rules = read_setup(&setup)?;
    let catalog = TileCatalog::builtin();
    let start = read_start(&setup, &catalog)?;
    let players = read_players(players)?;
    let placed = read_replay(replay.0.unwrap_or_default(), &catalog, &players)?;
    let annotations = annotations.get();
    let draw_order = read_draw_order(annotations.as_ref(), &catalog)?;
    let end_turn = annotations.and_then(|a| a.end_turn.get());
    let start = if is_default_start(&start, &rules.resolve(), &catalog) {
        Vec::new()
    } else {
        start
    };
    let mut record = GameRecord {
        players,
        setup: TileSetup {
            game: GameKind::Carcassonne,
            rules,
            custom_tiles: Vec::new(),
            catalog,
            start,
            score_orders: Default::default(),
            final_scoring: None,
            recorded_scores: None,
        },
        moves: placed.moves,
        annotations: Vec::new(),
    };
    match draw_order {
        Some(order) => insert_drawn_discards(&mut record, &order, end_turn),
        None => infer_discards(&mut record),
    }
    let draws = record.moves.len() as u64;
    if end_turn.is_some_and(|e| draws >= e) {
        record.setup.final_scoring = Some(true);
    }
    if let Some(ext) = extension.0 {
        apply_extension(&mut record, ext.or_empty())?;
    }
    if let Some(elsewhere) = placed.meeple_elsewhere {
        return Err(first_fault(record, &elsewhere));
    }
    record.canonicalise();
    Ok(record)
}

/// The first rule a save breaks that puts a meeple elsewhere than on the tile just placed:
/// the engine judges every move before it, then that tile's draw and placement, and only then
/// the meeple, as a player makes them.
fn first_fault(record: GameRecord, elsewhere: &MeepleElsewhere) -> RecordError {
    let illegal = |record: GameRecord, e: ReplayError| RecordError::Illegal {
        format: Format::Jcz.name(),
        illegal: Box::new((record, e)),
    };
    let mut walk = match Walk::new(&record) {
        Ok(walk) => walk,
        Err(e) => return JczError::Start(e).into(),
    };
    let mut placements = 0;
    loop {
        match walk.step() {
            None => break JczError::MeepleOnNoTile(elsewhere.square).into(),
            Some(Err(e)) => break illegal(record.clone(), e),
            Some(Ok(step)) if matches!(step.played, Played::Place(_)) => {
                if placements == elsewhere.placed {
                    let turn =
                        IllegalTurn::meeple_elsewhere(&record, step.index, step.turn, step.player, elsewhere.square);
                    break illegal(record.clone(), ReplayError::Illegal(Box::new(turn)));
                }
                placements += 1;
            }
            Some(Ok(_)) => {}
        }
    }
}

/// Our own saves carry the record's rules, colours and final scoring (see `export::jcz`).
/// The rules are taken only if they agree with the save's components, which is all that
/// JCloisterZone keeps when it saves the game again.
fn apply_extension(record: &mut GameRecord, ext: Extension) -> Result<(), RecordError> {
    if let Some(rules) = ext.rules.0 {
        let ours = native::rules_from_value(rules).map_err(|e| JczError::Extension(Box::new(e)))?;
        let components = |r: Rules| (r.edition, r.farmers, r.river, r.abbot, r.followers);
        if components(ours.resolve()) == components(record.setup.rules.resolve()) {
            record.setup.rules = ours;
        }
    }
    if let Some(f) = ext.final_scoring.0 {
        record.setup.final_scoring = f.get();
    }
    let colours = ext.colours.0.unwrap_or_default();
    for (player, colour) in record.players.iter_mut().zip(colours) {
        player.colour = colour.get().filter(|c| native::is_colour(c)).map(str::to_string);
    }
    Ok(())
}

/// The start every game of these rules has anyway (D, or the spring with The River). A record
/// leaves it out, so that a game reads the same whether or not its save spelled it out.
fn is_default_start(start: &[StartTile], rules: &Rules, cat: &TileCatalog) -> bool {
    let name = if rules.river { SPRING } else { START_TILE };
    matches!(start, [s] if Some(s.tile) == cat.by_name(name)
        && s.placement.pos == Pos::ORIGIN
        && s.placement.rotation == Rotation::new(0))
}

fn read_setup(setup: &Setup) -> Result<RulesSpec, JczError> {
    let Some(Entries(sets)) = &setup.sets.0 else {
        return Err(JczError::NoSets);
    };
    let mut edition = None;
    let mut river = false;
    for (set, count) in sets {
        if count.as_u64() != Some(1) {
            return Err(JczError::SetUsedTimes {
                set: set.to_string(),
                count: count.to_string(),
            });
        }
        match *set {
            "basic:1" => edition = Some(Edition::First),
            "basic:2" => edition = Some(Edition::Second),
            "river/1:1" | "river/1:2" => river = true,
            other => return Err(JczError::UnsupportedSet(other.to_string())),
        }
    }
    let edition = edition.ok_or(JczError::NoBaseGame)?;
    let elements = setup.elements.0.as_ref();
    let followers = elements.and_then(|e| e.small_follower.get()).unwrap_or(7);
    let tiny = setup.rules.0.as_ref().and_then(|r| r.tiny_city_scoring.get()) == Some("2");
    // JCloisterZone scores farms per field (3 per city) and, instead of a River turn rule, keeps room ahead of the river's end; it keeps
    // all four D tiles in the pack with The River.
    let followers = u8::try_from(followers)
        .ok()
        .and_then(|n| Followers::try_from(n).ok())
        .ok_or(JczError::Followers(followers))?;
    let overrides = Overrides {
        edition: Some(TileEdition(edition)),
        farmers: Some(elements.is_some_and(|e| e.farmers.is_there())),
        river: Some(river),
        abbot: Some(elements.is_some_and(|e| e.abbot.is_there())),
        two_tile_city: Some(if tiny {
            TwoTileCityRule::Reduced
        } else {
            TwoTileCityRule::Full
        }),
        river_turns: river.then_some(RiverTurnRule::RoomAhead),
        river_keeps_start_tile: river.then_some(true),
        followers: Some(followers),
        ..Overrides::default()
    };
    Ok(RulesSpec {
        preset: Preset::SecondEdition,
        overrides,
    })
}

/// A JCZ tile id, and its rotation in JCZ's frame: ours.
fn resolve(cat: &TileCatalog, id: &str, system_rotation: Rotation) -> Option<(TileKindId, Rotation)> {
    let a = tile_names::resolve(cat, System::Jcz, id)?;
    Some((a.kind, system_rotation.plus(a.offset)))
}

fn read_start(setup: &Setup, cat: &TileCatalog) -> Result<Vec<StartTile>, JczError> {
    let Some(list) = &setup.start.0 else {
        return Ok(Vec::new());
    };
    list.iter()
        .map(|s| {
            let s = s.0.as_ref();
            let id = s.and_then(|s| s.tile.get()).ok_or(JczError::StartWithoutTile)?;
            let deg = s.and_then(|s| s.rotation.get()).unwrap_or(0);
            let r = Rotation::from_degrees(deg).ok_or(JczError::StartRotation(deg))?;
            let (tile, rotation) = resolve(cat, id, r).ok_or_else(|| JczError::UnknownTile {
                what: "start",
                id: id.to_string(),
            })?;
            let pos = Pos::new(int(s.and_then(|s| s.x.get()))?, int(s.and_then(|s| s.y.get()))?);
            Ok(StartTile {
                tile,
                placement: Placement { pos, rotation },
            })
        })
        .collect()
}

fn int(n: Option<i64>) -> Result<i32, JczError> {
    n.and_then(|n| i32::try_from(n).ok()).ok_or(JczError::Coordinate)
}

fn read_players(list: Loose<Vec<Loose<Player>>>) -> Result<Vec<PlayerInfo>, JczError> {
    let list = list.0.ok_or(JczError::NoPlayers)?;
    if list.is_empty() || list.len() > 6 {
        return Err(JczError::PlayerCount(list.len()));
    }
    Ok(list
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let p = p.or_empty();
            PlayerInfo {
                name: p.name.get().map_or_else(|| format!("Player {}", i + 1), str::to_string),
                colour: (p.slot.get())
                    .and_then(|s| SLOT_COLOURS.get(s as usize))
                    .map(|c| c.to_string()),
                bga_id: None,
            }
        })
        .collect())
}

/// The colours of JCloisterZone's player slots 0–8 (its client's defaults: red, blue, yellow,
/// green, orange, purple, pink, white, black). A save names a player's slot, not the colour.
pub(crate) const SLOT_COLOURS: [&str; 9] = [
    "#ef0000", "#03a9f4", "#ffed00", "#009900", "#ff9800", "#673ab7", "#f48fb1", "#fffce0", "#302f2b",
];

/// The slot showing a colour, for the export.
pub fn slot_of_colour(colour: &str) -> Option<usize> {
    SLOT_COLOURS.iter().position(|c| c.eq_ignore_ascii_case(colour))
}

fn position(xy: Loose<XY>, what: &MessageAt) -> Result<Pos, JczError> {
    let (x, y) = xy.0.ok_or_else(|| at(what, MessageProblem::NotAPosition))?;
    Ok(Pos::new(int(x.get())?, int(y.get())?))
}

/// A meeple the save puts on another square than the tile just placed: a rule broken, not a
/// broken save, so it is reported only once the engine has judged the moves before it and the
/// placement itself (see [`first_fault`]).
struct MeepleElsewhere {
    /// Index of the placement in the save's placed moves.
    placed: usize,
    square: Pos,
}

/// The save's placed moves, in order, and the meeple put elsewhere, if the save has one: its
/// reading stops there.
struct Placed {
    moves: Vec<RecordedMove>,
    meeple_elsewhere: Option<MeepleElsewhere>,
}

/// Groups the messages into turns: PLACE_TILE, at most one action, COMMIT.
fn read_replay(list: Vec<Loose<Message>>, cat: &TileCatalog, players: &[PlayerInfo]) -> Result<Placed, JczError> {
    let mut placed = Placed {
        moves: Vec::new(),
        meeple_elsewhere: None,
    };
    let moves = &mut placed.moves;
    let mut pending: Option<RecordedMove> = None;
    for (i, msg) in list.into_iter().enumerate() {
        let msg = msg.or_empty();
        let ty = msg.ty.get();
        // The turn the message belongs to: the one under way, or after a COMMIT the next;
        // a PLACE_TILE while one is under way opens the one after it.
        let opens = ty == Some("PLACE_TILE");
        let turn = moves.len() + 1 + usize::from(opens && pending.is_some());
        let player = message_player(&msg, players.len(), i, turn)?;
        let ty = ty.ok_or(JczError::UntypedMessage(i + 1))?;
        let what = MessageAt {
            turn,
            message: i + 1,
            ty: ty.to_string(),
            player: player.and_then(|p| players.get(usize::from(p))).map(|p| p.name.clone()),
        };
        let payload = msg.payload.or_empty();
        match ty {
            "PLACE_TILE" => {
                if let Some(m) = pending.take() {
                    moves.push(m);
                }
                pending = Some(place_tile(payload, cat, player, &what)?);
            }
            "DEPLOY_MEEPLE" | "RETURN_MEEPLE" | "PASS" => {
                let Some(RecordedMove::Place { action, placement, .. }) = pending.as_mut() else {
                    return Err(at(&what, MessageProblem::NothingPlaced));
                };
                *action = match ty {
                    "DEPLOY_MEEPLE" => {
                        let pointer = (payload.pointer.0.map(Loose::or_empty))
                            .ok_or_else(|| at(&what, MessageProblem::NoPointer))?;
                        let square = position(pointer.position, &what)?;
                        if square != placement.pos {
                            moves.extend(pending.take());
                            placed.meeple_elsewhere = Some(MeepleElsewhere {
                                placed: moves.len() - 1,
                                square,
                            });
                            return Ok(placed);
                        }
                        deploy(&pointer, payload.meeple_id.get(), &what)?
                    }
                    "RETURN_MEEPLE" => recall(payload.source.get(), &what)?,
                    _ => RecordedAction::Pass,
                };
            }
            "COMMIT" => {
                if let Some(m) = pending.take() {
                    moves.push(m);
                }
            }
            "UNDO" => {
                // Old test files may keep an UNDO: it takes back the last message of the turn.
                match pending.as_mut() {
                    Some(RecordedMove::Place { action, .. }) if *action != RecordedAction::Pass => {
                        *action = RecordedAction::Pass
                    }
                    _ => pending = None,
                }
            }
            "GAME_OVER" => {}
            other => return Err(at(&what, MessageProblem::ExpansionMessage(other.to_string()))),
        }
    }
    // A save may end in the middle of a turn: the placed tile still counts.
    moves.extend(pending);
    Ok(placed)
}

/// The player a message names, checked against the players of the save.
fn message_player(msg: &Message, players: usize, i: usize, turn: usize) -> Result<Option<u8>, JczError> {
    match msg.player.get() {
        Some(p) if p >= players as u64 => Err(JczError::NoSuchPlayer {
            turn,
            message: i + 1,
            ty: msg.ty.get().map(str::to_string),
            player: p,
            players,
        }),
        p => Ok(p.map(|p| p as u8)),
    }
}

fn place_tile(
    payload: Payload,
    cat: &TileCatalog,
    player: Option<u8>,
    what: &MessageAt,
) -> Result<RecordedMove, JczError> {
    let id = payload
        .tile_id
        .get()
        .ok_or_else(|| at(what, MessageProblem::NoTileId))?;
    let rot = payload.rotation.get().unwrap_or("R0");
    let bad_rotation = || at(what, MessageProblem::Rotation(rot.to_string()));
    let deg: i64 = rot
        .strip_prefix('R')
        .and_then(|d| d.parse().ok())
        .ok_or_else(bad_rotation)?;
    let r = Rotation::from_degrees(deg)
        .filter(|_| (0..360).contains(&deg))
        .ok_or_else(bad_rotation)?;
    let (tile, rotation) = resolve(cat, id, r).ok_or_else(|| at(what, MessageProblem::UnknownTile(id.to_string())))?;
    let pos = position(payload.position, what)?;
    Ok(RecordedMove::Place {
        player,
        tile,
        placement: Placement { pos, rotation },
        action: RecordedAction::Pass,
    })
}

/// The base-game feature a JCZ pointer names (`City`, `Road`, `Field`, `Monastery`, `Garden`).
pub fn feature_kind(name: &str) -> Option<FeatureKind> {
    Some(match name {
        "City" => FeatureKind::City,
        "Road" => FeatureKind::Road,
        "Field" => FeatureKind::Field,
        "Monastery" | "Cloister" => FeatureKind::Cloister,
        "Garden" => FeatureKind::Garden,
        _ => return None,
    })
}

/// One place inside a JCZ location name: a side of `N`, `NE`, `_S`, `NWSE`…, a half-edge of
/// `NL.NR`…, or the centre.
fn location(kind: FeatureKind, loc: &str, what: &MessageAt) -> Result<Location, JczError> {
    let bad = || {
        let problem = MessageProblem::Location {
            location: loc.to_string(),
            kind,
        };
        at(what, problem)
    };
    if kind.is_inner() {
        return if loc == "I" || loc == "CLOISTER" {
            Ok(Location::Center)
        } else {
            Err(bad())
        };
    }
    if kind == FeatureKind::Field {
        const JCZ_HALVES: [&str; 8] = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"];
        let first = loc.split('.').next().unwrap_or_default();
        let i = JCZ_HALVES.iter().position(|h| *h == first).ok_or_else(bad)?;
        return Ok(Location::Half(HalfEdge::from_index(i as u8)));
    }
    let side = if let Some(missing) = loc.strip_prefix('_') {
        let m = Side::parse(missing).ok_or_else(bad)?;
        Side::from_index(m.index() + 1)
    } else {
        Side::parse(&loc[..1.min(loc.len())]).ok_or_else(bad)?
    };
    Ok(Location::Side(side))
}

/// A DEPLOY_MEEPLE on the tile just placed.
fn deploy(ptr: &Pointer, meeple_id: Option<&str>, what: &MessageAt) -> Result<RecordedAction, JczError> {
    let name = ptr.feature.get().unwrap_or_default();
    let kind = feature_kind(name).ok_or_else(|| at(what, MessageProblem::ExpansionFeature(name.to_string())))?;
    let at_place = location(kind, ptr.location.get().unwrap_or_default(), what)?;
    let figure = match meeple_id.unwrap_or_default().split('.').nth(1) {
        Some("small") | None => Figure::Follower,
        Some("abbot") => Figure::Abbot,
        Some(other) => return Err(at(what, MessageProblem::ExpansionMeeple(other.to_string()))),
    };
    Ok(RecordedAction::Deploy {
        feature: kind,
        at: at_place,
        figure,
    })
}

fn recall(source: Option<&str>, what: &MessageAt) -> Result<RecordedAction, JczError> {
    match source {
        Some("ABBOT_RETURN") => Ok(RecordedAction::RecallAbbot),
        other => Err(at(what, MessageProblem::Return(other.map(str::to_string)))),
    }
}

fn read_draw_order(ann: Option<&Annotations>, cat: &TileCatalog) -> Result<Option<Vec<TileKindId>>, JczError> {
    let Some(list) = ann.and_then(|a| a.draw_order.0.as_ref()) else {
        return Ok(None);
    };
    list.iter()
        .map(|t| {
            let id = t.get().ok_or(JczError::DrawOrder)?;
            let unknown = || JczError::UnknownTile {
                what: "drawOrder",
                id: id.to_string(),
            };
            Ok(resolve(cat, id, Rotation::new(0)).ok_or_else(unknown)?.0)
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// Discards from a forced draw order: a drawn tile that is not the next placed one. After the
/// last placement the order may go on with tiles not drawn yet; with `endTurn` the draws up to
/// it were made, so those tiles were discards too.
fn insert_drawn_discards(record: &mut GameRecord, order: &[TileKindId], end_turn: Option<u64>) {
    let placed = std::mem::take(&mut record.moves);
    let mut placed = placed.into_iter().peekable();
    for &tile in order {
        match placed.peek() {
            Some(m) if m.tile() == tile => record.moves.extend(placed.next()),
            Some(_) => record.moves.push(RecordedMove::Discard { player: None, tile }),
            None if end_turn.is_some_and(|e| (record.moves.len() as u64) < e) => {
                record.moves.push(RecordedMove::Discard { player: None, tile })
            }
            None => break,
        }
    }
    record.moves.extend(placed);
}

/// Puts each tile missing from a save at the first turn where it could not be placed. Tiles
/// that could always be placed were never drawn: the save ends before the game does.
fn infer_discards(record: &mut GameRecord) {
    let placements = record.clone();
    let Ok(mut walk) = Walk::new(&placements) else {
        return;
    };
    let mut missing = missing_tiles(record, walk.game());
    if missing.is_empty() {
        return;
    }
    record.moves.clear();
    loop {
        let mut i = 0;
        while i < missing.len() {
            let tile = missing[i];
            let game = walk.game();
            let forced = game.check_draw(tile).is_ok() && game.can_place(tile).is_none();
            if forced && walk.discard_unrecorded(tile).is_ok() {
                record.moves.push(RecordedMove::Discard { player: None, tile });
                missing.remove(i);
            } else {
                i += 1;
            }
        }
        let Some(&m) = walk.peek() else { break };
        record.moves.push(m);
        if let Some(Err(_)) = walk.step() {
            // The replay reports the illegal move; inference stops here.
            let rest = &placements.moves[record.moves.len() - count_discards(record)..];
            record.moves.extend_from_slice(rest);
            return;
        }
    }
}

fn count_discards(record: &GameRecord) -> usize {
    (record.moves.iter())
        .filter(|m| matches!(m, RecordedMove::Discard { .. }))
        .count()
}

fn missing_tiles(record: &GameRecord, game: &Game) -> Vec<TileKindId> {
    let mut left = game.pack().to_vec();
    for m in &record.moves {
        let n = &mut left[m.tile().0 as usize];
        *n = n.saturating_sub(1);
    }
    let mut out = Vec::new();
    for (i, n) in left.iter().enumerate() {
        out.extend(std::iter::repeat_n(TileKindId(i as u16), *n as usize));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn save(replay: Value) -> Value {
        json!({
            "appVersion": "5.10",
            "setup": {"sets": {"basic:1": 1}, "elements": {"farmers": true}},
            "players": [{"name": "Ann", "slot": 0}, {"name": "Bob", "slot": 1}],
            "replay": replay,
        })
    }

    fn error(v: Value) -> JczError {
        match from_value(v) {
            Err(RecordError::Jcz(e)) => e,
            other => panic!("expected a JczError, got {other:?}"),
        }
    }

    /// A message's fault names its turn, its number, its type and its player as data.
    #[test]
    fn a_message_of_an_expansion_is_placed_in_the_save() {
        let e = error(save(json!([
            {"type": "PLACE_TILE", "player": 0, "payload": {"tileId": "BA/CC.2", "rotation": "R270", "position": [0, 1]}},
            {"type": "DEPLOY_MEEPLE", "player": 0, "payload": {"pointer": {"position": [0, 1], "location": "W", "feature": "Tower"}, "meepleId": "0.small.1"}},
        ])));
        let JczError::Message { at, problem } = e else {
            panic!("not a message's fault: {e:?}");
        };
        assert_eq!(
            (at.turn, at.message, at.ty.as_str(), at.player.as_deref()),
            (1, 2, "DEPLOY_MEEPLE", Some("Ann"))
        );
        assert_eq!(problem, MessageProblem::ExpansionFeature("Tower".into()));
    }

    #[test]
    fn a_save_of_an_expansion_or_of_version_4_is_refused_as_such() {
        let mut v = save(json!([]));
        v["setup"]["sets"] = json!({"basic:1": 1, "inns-and-cathedrals:1": 1});
        assert!(matches!(error(v), JczError::UnsupportedSet(set) if set == "inns-and-cathedrals:1"));
        let mut v = save(json!([]));
        v["slots"] = json!([]);
        assert!(matches!(error(v), JczError::Version4));
        let v = save(json!([{"type": "PLACE_TILE", "player": 2, "payload": {}}]));
        assert!(matches!(
            error(v),
            JczError::NoSuchPlayer {
                turn: 1,
                message: 1,
                player: 2,
                players: 2,
                ..
            }
        ));
    }
}
