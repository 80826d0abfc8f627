//! Board Game Arena logs, as described in `reference/bga-format.md`: either envelope, the base
//! game with farmers on or off, discards. Events are read by their type and the game state
//! they arrive in, never by their (translated) text, and every number may arrive as a string.
//! The log is read as typed structs (`Log`, `Packet`, `Event`, `Args`) whose members are read
//! leniently (`record::loose`); what is wrong with it is a [`BgaError`].
//!
//! The log also holds Board Game Arena's running scores. The importer keeps them in
//! `GameRecord::recorded_scores`, and `replay::verify` compares them with our replay turn by
//! turn: a difference is a bug in this importer or a rules difference, and must be reported.

use super::loose::{Entries, Loose, Present};
use super::tile_names::{self, System};
use super::{GameRecord, PlayerInfo, RecordError, RecordedAction, RecordedMove, RecordedScores, RulesSpec, TileSetup};
use crate::engine::{Edition, FeatureKind, Figure, Location, Placement, Pos, Preset, Rotation};
use crate::engine::{GameKind, TileCatalog, TileKindId};
use crate::record::rules_spec::{Overrides, TileEdition};
use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, Visitor};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt;

const SOURCE: &str = "Board Game Arena";

// ----- the log, as far as it is read -----

/// A log in either envelope (§1): its status and its packets, `P` each (`IgnoredAny` when
/// only the envelope matters).
#[derive(Deserialize)]
#[serde(default, bound(deserialize = "P: Deserialize<'de>"))]
struct Log<'a, P> {
    /// Quoted back as written when it is not 1.
    status: Present<Value>,
    #[serde(borrow)]
    error: Loose<&'a str>,
    #[serde(borrow)]
    data: Loose<Data<'a, P>>,
}

impl<P> Default for Log<'_, P> {
    fn default() -> Self {
        Log {
            status: Present::default(),
            error: Loose::default(),
            data: Loose::default(),
        }
    }
}

/// Envelope A (`g_gamelogs`) keeps the packets in `data.data` beside `data.valid`, envelope B
/// (the archive) in `data.logs`, with the table's players in `data.players`.
#[derive(Deserialize)]
#[serde(default, bound(deserialize = "P: Deserialize<'de>"))]
struct Data<'a, P> {
    logs: Present<Loose<Vec<P>>>,
    valid: Present<IgnoredAny>,
    data: Loose<Vec<P>>,
    #[serde(borrow)]
    players: Loose<Vec<Loose<Listed<'a>>>>,
}

impl<P> Default for Data<'_, P> {
    fn default() -> Self {
        Data {
            logs: Present::default(),
            valid: Present::default(),
            data: Loose::default(),
            players: Loose::default(),
        }
    }
}

impl<P> Data<'_, P> {
    fn packets(self) -> Option<Vec<P>> {
        match self.logs.0 {
            Some(logs) => logs.0,
            None if self.valid.is_there() => self.data.0,
            None => None,
        }
    }
}

/// A packet: its id and its events.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Packet<'a> {
    packet_id: Num,
    #[serde(borrow)]
    data: Loose<Vec<Loose<Event<'a>>>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Event<'a> {
    #[serde(rename = "type", borrow)]
    ty: Loose<&'a str>,
    #[serde(borrow)]
    args: Loose<Args<'a>>,
}

/// The arguments of the events read here: `playTile` (`id`, `type`, `x`, `y`, `ori`,
/// `player_id`, `player_name`), `playPartisan` (`ptype`, `pos`…), `cantPlay` (`tile_id`),
/// `winPoints` (`score`, `points`) and `gameStateChange` (`id`, `active_player`, the clocks
/// and the state's own `args`).
#[derive(Deserialize, Default)]
#[serde(default)]
struct Args<'a> {
    player_id: Num,
    #[serde(borrow)]
    player_name: Loose<&'a str>,
    id: Num,
    #[serde(rename = "type")]
    ty: Num,
    x: Num,
    y: Num,
    ori: Num,
    #[serde(borrow)]
    ptype: Loose<&'a str>,
    pos: Num,
    tile_id: Num,
    score: Num,
    points: Num,
    active_player: Num,
    #[serde(borrow)]
    reflexion: Loose<Reflexion<'a>>,
    #[serde(borrow)]
    args: Loose<StateArgs<'a>>,
}

/// The clocks: every player's by id.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Reflexion<'a> {
    #[serde(borrow)]
    total: Loose<Entries<&'a str, IgnoredAny>>,
}

/// What a game state says: the meeple spots offered (state 3), the final result (state 99).
#[derive(Deserialize, Default)]
#[serde(default)]
struct StateArgs<'a> {
    spots: Loose<Vec<Loose<Spot>>>,
    #[serde(borrow)]
    result: Loose<Vec<Loose<Listed<'a>>>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Spot {
    tile: Num,
    pos: Num,
}

/// An entry of envelope B's `players` or of the final `result`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Listed<'a> {
    id: Num,
    player: Num,
    #[serde(borrow)]
    name: Loose<&'a str>,
    #[serde(borrow)]
    color: Loose<&'a str>,
    score: Num,
    stats: Loose<Stats>,
}

/// The final statistics read: points by road, city, cloister and farm.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Stats {
    #[serde(rename = "10")]
    road: Num,
    #[serde(rename = "11")]
    city: Num,
    #[serde(rename = "12")]
    cloister: Num,
    #[serde(rename = "13")]
    farm: Num,
}

/// A number, which arrives as a JSON number or as a string holding one, even within one event
/// type (§2.1); anything else reads as missing.
type Num = Loose<Int>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Int(i64);

impl<'de> Deserialize<'de> for Int {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(IntVisitor)
    }
}

struct IntVisitor;

impl Visitor<'_> for IntVisitor {
    type Value = Int;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer, or a string holding one")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Int, E> {
        Ok(Int(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Int, E> {
        i64::try_from(v).map(Int).map_err(|_| E::custom("out of range"))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Int, E> {
        (v.fract() == 0.0 && v.abs() < 1e15)
            .then_some(Int(v as i64))
            .ok_or_else(|| E::custom("not an integer"))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Int, E> {
        v.trim().parse().map(Int).map_err(|_| E::custom("not an integer"))
    }
}

fn int(n: Num) -> Option<i64> {
    n.0.map(|i| i.0)
}

// ----- what is wrong with a log -----

/// Why a log cannot be read: in the log's words, with the packet, the event and the turn
/// where an event is at fault.
#[derive(Debug, thiserror::Error)]
pub enum BgaError {
    /// `status` as the log writes it, and the reason Board Game Arena gave.
    #[error(
        "the log's \"status\" is {}, not 1: Board Game Arena sent an error instead of a log ({})",
        .status.as_deref().unwrap_or("missing"),
        .said.as_deref().unwrap_or("no reason given")
    )]
    Status {
        status: Option<String>,
        said: Option<String>,
    },
    #[error("no packets: expected data.data or data.logs")]
    NoPackets,
    #[error("a game has 1 to 6 players; the log names {0}")]
    PlayerCount(usize),
    #[error("packet {packet} (turn {turn}): no \"data\" list of events")]
    NoEvents { packet: PacketId, turn: u32 },
    #[error("packet {packet} (turn {turn}): an event without a \"type\"")]
    UntypedEvent { packet: PacketId, turn: u32 },
    #[error("{at}: {problem}")]
    Event { at: EventAt, problem: EventProblem },
    /// A file cut off or damaged in transit: where it breaks, and what the parser said.
    #[error("the log is not valid JSON; it is cut off or damaged {place}: {error}")]
    Damaged { place: DamagedAt, error: serde_json::Error },
}

/// A packet as the log names it: its `packet_id`, or else its place in the log (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketId {
    Id(i64),
    Nth(usize),
}

impl fmt::Display for PacketId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PacketId::Id(id) => write!(f, "{id}"),
            PacketId::Nth(n) => write!(f, "#{n}"),
        }
    }
}

/// Where an event is: "packet 12, playTile event (turn 3)".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventAt {
    pub packet: PacketId,
    pub kind: String,
    pub turn: u32,
}

impl fmt::Display for EventAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "packet {}, {} event (turn {})", self.packet, self.kind, self.turn)
    }
}

/// What is wrong with one event.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EventProblem {
    #[error("no player_id")]
    NoPlayerId,
    #[error("player {0} is not one of the game's players")]
    NotAPlayer(i64),
    #[error("no integer \"{0}\"")]
    NoInteger(&'static str),
    #[error("\"{0}\" is out of range")]
    OutOfRange(&'static str),
    #[error("tile type {0} belongs to an expansion; only the base game is supported")]
    ExpansionTileType(i64),
    #[error("tile id {0} is not a base-game tile (1 to 72)")]
    NotABaseTile(i64),
    #[error("tile id {id} is of type {ty}, but the event says type {given}")]
    TypeMismatch { id: i64, ty: i64, given: i64 },
    #[error("tile id {0} is already on the board")]
    AlreadyPlaced(i64),
    #[error("ori {0} is not 1 to 4")]
    Ori(i64),
    #[error("a meeple without a tile placed before it in the same turn")]
    MeepleWithoutTile,
    #[error("meeple type {0:?} belongs to an expansion; only the base game is supported")]
    ExpansionMeeple(String),
    /// Where the tile just placed is.
    #[error("the meeple goes to another tile than the one just placed at {0}")]
    MeepleElsewhere(Pos),
    #[error("the meeple belongs to another player than the one who placed the tile")]
    OtherPlayersMeeple,
    #[error("pos {pos} is not a meeple spot of tile type {ty}")]
    NotASpot { pos: i64, ty: i64 },
    #[error("no tile_id")]
    NoTileId,
    #[error("unknown tile type {0}")]
    UnknownType(i64),
    #[error("neither \"score\" nor \"points\"")]
    NoScore,
    #[error("the score is out of range")]
    ScoreOutOfRange,
    #[error("a meeple spot without \"tile\" and \"pos\"")]
    SpotWithoutTile,
}

/// Where a damaged log breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DamagedAt {
    /// In the packet of that id or the one after it, after that many placed tiles.
    Packet {
        packet: String,
        placed: usize,
    },
    BeforeFirstPacket,
}

impl fmt::Display for DamagedAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DamagedAt::Packet { packet, placed } => {
                let tiles = if *placed == 1 { "tile" } else { "tiles" };
                write!(
                    f,
                    "in packet {packet} or the one after it, after {placed} placed {tiles}"
                )
            }
            DamagedAt::BeforeFirstPacket => f.write_str("before the first packet"),
        }
    }
}

/// Whether `v` is a Board Game Arena log in either envelope (§1).
pub fn detect(v: &Value) -> bool {
    Log::<IgnoredAny>::deserialize(v)
        .is_ok_and(|log| log.status.is_there() && log.data.0.is_some_and(|d| d.packets().is_some()))
}

/// The address of a Board Game Arena page, pasted where a log belongs: the table's number,
/// when the address names one (`?table=`, as its table, game, review and replay pages do).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageAddress {
    pub table: Option<u64>,
}

/// Reads `text` as one Board Game Arena address (`https://boardgamearena.com/…`, any
/// language's subdomain, the scheme optional).
pub fn page_address(text: &str) -> Option<PageAddress> {
    let text = text.trim();
    if text.contains(char::is_whitespace) {
        return None;
    }
    let rest = ["https://", "http://"]
        .iter()
        .find_map(|scheme| {
            text.get(..scheme.len())
                .filter(|s| s.eq_ignore_ascii_case(scheme))
                .map(|_| &text[scheme.len()..])
        })
        .unwrap_or(text);
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let host = rest[..host_end].to_ascii_lowercase();
    if host != "boardgamearena.com" && !host.ends_with(".boardgamearena.com") {
        return None;
    }
    let query = rest[host_end..].split_once('?').map_or("", |(_, q)| q);
    let query = query.split('#').next().unwrap_or_default();
    let table = query
        .split('&')
        .find_map(|pair| pair.strip_prefix("table="))
        .and_then(|n| n.parse().ok());
    Some(PageAddress { table })
}

/// Reads a log into a record, keeping Board Game Arena's scores for `replay::verify`.
pub fn from_value(v: &Value) -> Result<GameRecord, RecordError> {
    let log = Log::<Loose<Packet>>::deserialize(v).unwrap_or_default();
    read(log).map_err(RecordError::from)
}

fn read(log: Log<Loose<Packet>>) -> Result<GameRecord, BgaError> {
    let status = log.status.0;
    if status
        .as_ref()
        .and_then(|s| int(Num::deserialize(s).unwrap_or_default()))
        != Some(1)
    {
        return Err(BgaError::Status {
            status: status.as_ref().map(Value::to_string),
            said: log.error.get().map(str::to_string),
        });
    }
    let mut data = log.data.or_empty();
    let players = std::mem::take(&mut data.players).0.unwrap_or_default();
    let packets: Vec<Packet> = (data.packets().ok_or(BgaError::NoPackets)?)
        .into_iter()
        .map(Loose::or_empty)
        .collect();
    let seats = seats(players, &packets)?;
    let mut reader = Reader::new(TileCatalog::builtin(), &seats);
    for (i, packet) in packets.into_iter().enumerate() {
        reader.packet(i, packet)?;
    }
    let mut record = reader.finish(seats);
    record.canonicalise();
    Ok(record)
}

// ----- players -----

/// A player as the log knows them: BGA's id, name and colour.
#[derive(Default)]
struct Seat {
    id: i64,
    name: Option<String>,
    colour: Option<String>,
}

/// Every event of the log, skipping what is not an event (the reader reports those).
fn all_events<'p, 'a>(packets: &'p [Packet<'a>]) -> impl Iterator<Item = &'p Event<'a>> {
    packets
        .iter()
        .filter_map(|p| p.data.0.as_ref())
        .flatten()
        .filter_map(|e| e.0.as_ref())
}

/// The players in turn order. The lists of the table's players (envelope B, the clocks in
/// every state change, the final result) say who plays; the turns say in what order: whoever
/// is asked to place a tile first moves first (§10). A log without lists is seated by its moves
/// alone. A move by anyone else is reported by the reader.
fn seats(players: Vec<Loose<Listed>>, packets: &[Packet]) -> Result<Vec<Seat>, BgaError> {
    let mut order: Vec<i64> = Vec::new();
    let mut listed: Vec<i64> = Vec::new();
    // (id, name, colour), best source first: envelope B and the result before move events.
    let mut named: Vec<(i64, Option<&str>, Option<&str>)> = Vec::new();
    let mut from_moves = Vec::new();
    named.extend(players.iter().filter_map(listed_player));
    for e in all_events(packets) {
        let args = e.args.0.as_ref();
        let arg = |k: fn(&Args) -> Num| args.and_then(|a| int(k(a)));
        match e.ty.get() {
            Some("gameStateChange") if arg(|a| a.id) == Some(2) => order.extend(arg(|a| a.active_player)),
            Some("gameStateChange") => {
                let clocks = args
                    .and_then(|a| a.reflexion.0.as_ref())
                    .and_then(|r| r.total.0.as_ref());
                listed.extend(
                    clocks
                        .into_iter()
                        .flat_map(|t| &t.0)
                        .filter_map(|(k, _)| k.parse::<i64>().ok()),
                );
                let result = args.and_then(|a| a.args.0.as_ref()).and_then(|a| a.result.0.as_ref());
                named.extend(result.into_iter().flatten().filter_map(listed_player));
            }
            Some("playTile") => {
                order.extend(arg(|a| a.player_id));
                let name = args.and_then(|a| a.player_name.get());
                from_moves.extend(arg(|a| a.player_id).map(|id| (id, name, None)));
            }
            _ => {}
        }
    }
    listed.extend(named.iter().map(|n| n.0));
    let order = unique(order);
    let listed = if listed.is_empty() {
        order.clone()
    } else {
        unique(listed)
    };
    if listed.is_empty() || listed.len() > 6 {
        return Err(BgaError::PlayerCount(listed.len()));
    }
    let mut seats: Vec<Seat> = Vec::new();
    for id in order.iter().chain(&listed).copied() {
        if listed.contains(&id) && !seats.iter().any(|s| s.id == id) {
            seats.push(Seat { id, ..Seat::default() });
        }
    }
    for (id, name, colour) in named.into_iter().chain(from_moves) {
        if let Some(s) = seats.iter_mut().find(|s| s.id == id) {
            s.name = s.name.take().or(name.map(str::to_string));
            s.colour = s.colour.take().or(colour.and_then(hex_colour));
        }
    }
    Ok(seats)
}

/// The positive ids, each once, in order of first appearance.
fn unique(ids: Vec<i64>) -> Vec<i64> {
    let mut seen = std::collections::HashSet::new();
    ids.into_iter().filter(|&id| id > 0 && seen.insert(id)).collect()
}

/// An entry of envelope B's `players` or of the final `result`: id, name, colour.
fn listed_player<'a>(p: &Loose<Listed<'a>>) -> Option<(i64, Option<&'a str>, Option<&'a str>)> {
    let p = p.0.as_ref()?;
    let id = int(p.id).or_else(|| int(p.player))?;
    Some((id, p.name.get(), p.color.get()))
}

/// BGA writes colours as six hex digits without `#`.
fn hex_colour(c: &str) -> Option<String> {
    let c = c.trim().trim_start_matches('#');
    (c.len() == 6 && c.chars().all(|ch| ch.is_ascii_hexdigit())).then(|| format!("#{}", c.to_ascii_lowercase()))
}

// ----- tiles and meeple spots -----

/// Copies of each BGA tile type 1–24 (§6). Tile ids 1–72 are handed out in type order, so an
/// id gives its type.
const COPIES: [u8; 24] = [1, 2, 3, 2, 3, 2, 1, 2, 2, 3, 5, 3, 3, 3, 4, 8, 9, 4, 1, 4, 2, 1, 3, 1];
/// The start tile's id: never in a `playTile`.
const START_ID: i64 = 36;

fn type_of_id(id: i64) -> Option<i64> {
    let mut last = 0;
    for (i, n) in COPIES.iter().enumerate() {
        last += *n as i64;
        if (1..=last).contains(&id) {
            return Some(i as i64 + 1);
        }
    }
    None
}

/// The meeple spots of each tile type, indexed by `pos` − 1, in BGA's `ori` 1 frame (§7): a
/// feature and one place of it (any half-edge names a field). `-` is a `pos` BGA never uses.
#[rustfmt::skip]
pub(super) const SPOTS: [&[&str]; 24] = [
    /* 1 T */ &["road S", "city N", "field S.w", "field S.e"],
    /* 2 S */ &["road S", "city N", "field S.w", "field S.e"],
    /* 3 N */ &["city N", "field S.e"],
    /* 4 M */ &["city N", "field S.e"],
    /* 5 P */ &["road E", "city N", "field E.n", "field S.e"],
    /* 6 O */ &["road E", "city N", "field E.n", "field S.e"],
    /* 7 G */ &["city E", "field N.w", "field S.e"],
    /* 8 F */ &["city E", "field N.w", "field S.e"],
    /* 9 I */ &["city N", "city W", "field S.e"],
    /* 10 H */ &["city N", "city S", "field E.n"],
    /* 11 E */ &["city N", "field S.e"],
    /* 12 K */ &["road S", "city N", "field E.n", "field W.s"],
    /* 13 J */ &["road E", "city N", "field W.n", "field S.e"],
    /* 14 L */ &["road W", "road E", "road S", "city N", "field E.n", "field W.s", "field S.e"],
    /* 15 D */ &["road W", "city N", "field E.n", "field S.e"],
    /* 16 U */ &["road N", "-", "field W.n", "field E.n"],
    /* 17 V */ &["road S", "field N.w", "field W.s"],
    /* 18 W */ &["road W", "road E", "road S", "field N.w", "field W.s", "field S.e"],
    /* 19 X */ &["road W", "road E", "road S", "road N", "field N.w", "field E.n", "field S.e", "field W.s"],
    /* 20 B */ &["cloister", "field N.w"],
    /* 21 A */ &["cloister", "road S", "field N.w"],
    /* 22 C */ &["city N"],
    /* 23 R */ &["city N", "field S.e"],
    /* 24 Q */ &["city N", "field S.e"],
];

/// The feature and place of spot `pos` on a tile of type `ty`, in the `ori` 1 frame.
pub(super) fn spot(ty: i64, pos: i64) -> Option<(FeatureKind, Location)> {
    let spots = SPOTS.get(usize::try_from(ty - 1).ok()?)?;
    let text = spots.get(usize::try_from(pos - 1).ok()?)?;
    let mut words = text.split(' ');
    let kind = FeatureKind::parse(words.next()?)?;
    let at = match words.next() {
        None => Location::Center,
        Some(w) => Location::parse(w)?,
    };
    Some((kind, at))
}

/// Where meeple spot `pos` of a tile of BGA type `ty` placed with `ori` is on the board: its
/// feature and one board-oriented place of it.
pub fn spot_on_board(ty: i64, ori: i64, pos: i64) -> Option<(FeatureKind, Location)> {
    let quarter_turns = u8::try_from(ori - 1).ok().filter(|q| *q < 4)?;
    let (kind, at) = spot(ty, pos)?;
    Some((kind, rotate(at, Rotation::new(quarter_turns))))
}

/// Turns a place by `r`, as the tile turns.
fn rotate(at: Location, r: Rotation) -> Location {
    match at {
        Location::Side(s) => Location::Side(s.rotate(r)),
        Location::Half(h) => Location::Half(h.rotate(r)),
        Location::Center => Location::Center,
    }
}

/// Our kind and rotation for a BGA tile type and `ori` 1–4: rotation = ori − 1 + K (§5).
pub(super) fn tile_kind(cat: &TileCatalog, ty: i64, ori: i64) -> Option<(TileKindId, Rotation)> {
    let alias = tile_names::resolve(cat, System::Bga, &ty.to_string())?;
    let quarter_turns = u8::try_from(ori - 1).ok().filter(|q| *q < 4)?;
    Some((alias.kind, Rotation::new(quarter_turns).plus(alias.offset)))
}

// ----- reading events -----

/// The tile placed in the turn being read.
#[derive(Clone, Copy)]
struct Placed {
    id: i64,
    ty: i64,
    pos: Pos,
    ori: i64,
    player: u8,
    meeple: bool,
}

/// An event's problem, with where the event is.
fn at(at: &EventAt, problem: EventProblem) -> BgaError {
    BgaError::Event {
        at: at.clone(),
        problem,
    }
}

fn coord(at_: &EventAt, n: Num, key: &'static str) -> Result<i32, BgaError> {
    i32::try_from(Reader::need(at_, n, key)?).map_err(|_| at(at_, EventProblem::OutOfRange(key)))
}

struct Reader {
    cat: std::sync::Arc<TileCatalog>,
    seats: HashMap<i64, u8>,
    moves: Vec<RecordedMove>,
    used_ids: [bool; 73],
    current: Option<Placed>,
    /// The turn being read: placed tiles so far, plus one once the next tile is drawn.
    turn: u32,
    running: Vec<i32>,
    turn_scores: Vec<Option<Vec<i32>>>,
    /// The last game state entered (`gameStateChange` id).
    state: i64,
    finished: bool,
    /// Evidence of farmers: a field offered as a meeple spot, or a farm scored.
    farmers_seen: bool,
    any_spots: bool,
    result: Option<Outcome>,
}

impl Reader {
    fn new(cat: std::sync::Arc<TileCatalog>, seats: &[Seat]) -> Self {
        Reader {
            cat,
            seats: seats.iter().enumerate().map(|(i, s)| (s.id, i as u8)).collect(),
            moves: Vec::new(),
            used_ids: [false; 73],
            current: None,
            turn: 1,
            running: vec![0; seats.len()],
            turn_scores: Vec::new(),
            state: 0,
            finished: false,
            farmers_seen: false,
            any_spots: false,
            result: None,
        }
    }

    fn packet(&mut self, index: usize, packet: Packet) -> Result<(), BgaError> {
        let packet_id = int(packet.packet_id).map_or(PacketId::Nth(index + 1), PacketId::Id);
        let events = packet.data.0.ok_or(BgaError::NoEvents {
            packet: packet_id,
            turn: self.turn,
        })?;
        for e in events {
            let e = e.or_empty();
            let kind = e.ty.get().ok_or(BgaError::UntypedEvent {
                packet: packet_id,
                turn: self.turn,
            })?;
            let at = EventAt {
                packet: packet_id,
                kind: kind.to_string(),
                turn: self.turn,
            };
            self.event(&at, e.args.or_empty())?;
        }
        Ok(())
    }

    fn event(&mut self, at: &EventAt, args: Args) -> Result<(), BgaError> {
        match at.kind.as_str() {
            "playTile" => self.play_tile(at, &args),
            "playPartisan" => self.play_partisan(at, &args),
            "cantPlay" => self.cant_play(at, &args),
            "winPoints" => self.win_points(at, &args),
            "gameStateChange" => self.state_change(at, args),
            // Notes, clocks, the deck size, private draws, scoring details (their points come
            // in `winPoints`) and newer event types carry nothing a record needs.
            _ => Ok(()),
        }
    }

    fn seat(&self, at_: &EventAt, args: &Args) -> Result<u8, BgaError> {
        let id = int(args.player_id).ok_or_else(|| at(at_, EventProblem::NoPlayerId))?;
        (self.seats.get(&id).copied()).ok_or_else(|| at(at_, EventProblem::NotAPlayer(id)))
    }

    fn need(at_: &EventAt, n: Num, key: &'static str) -> Result<i64, BgaError> {
        int(n).ok_or_else(|| at(at_, EventProblem::NoInteger(key)))
    }

    /// The type of tile instance `id`, checked against a `type` the event may also give.
    fn tile_type(at_: &EventAt, id: i64, given: Option<i64>) -> Result<i64, BgaError> {
        if let Some(ty) = given.filter(|t| *t > 24) {
            return Err(at(at_, EventProblem::ExpansionTileType(ty)));
        }
        let ty = type_of_id(id).ok_or_else(|| at(at_, EventProblem::NotABaseTile(id)))?;
        match given {
            Some(given) if given != ty => Err(at(at_, EventProblem::TypeMismatch { id, ty, given })),
            _ => Ok(ty),
        }
    }

    fn play_tile(&mut self, at_: &EventAt, args: &Args) -> Result<(), BgaError> {
        let id = Self::need(at_, args.id, "id")?;
        let ty = Self::tile_type(at_, id, int(args.ty))?;
        if id == START_ID || self.used_ids[id as usize] {
            return Err(at(at_, EventProblem::AlreadyPlaced(id)));
        }
        let pos = Pos::new(coord(at_, args.x, "x")?, coord(at_, args.y, "y")?);
        let ori = Self::need(at_, args.ori, "ori")?;
        let player = self.seat(at_, args)?;
        let (tile, rotation) = tile_kind(&self.cat, ty, ori).ok_or_else(|| at(at_, EventProblem::Ori(ori)))?;
        self.used_ids[id as usize] = true;
        self.moves.push(RecordedMove::Place {
            player: Some(player),
            tile,
            placement: Placement { pos, rotation },
            action: RecordedAction::Pass,
        });
        self.turn_scores.push(None);
        self.turn = self.turn_scores.len() as u32;
        self.current = Some(Placed {
            id,
            ty,
            pos,
            ori,
            player,
            meeple: false,
        });
        Ok(())
    }

    fn play_partisan(&mut self, at_: &EventAt, args: &Args) -> Result<(), BgaError> {
        let Some(placed) = self.current.filter(|p| !p.meeple) else {
            return Err(at(at_, EventProblem::MeepleWithoutTile));
        };
        if let Some(kind) = args.ptype.get().filter(|k| *k != "normal") {
            return Err(at(at_, EventProblem::ExpansionMeeple(kind.to_string())));
        }
        let same = |n: Num, want: i64| int(n).is_none_or(|v| v == want);
        if !same(args.id, placed.id) || !same(args.x, placed.pos.x as i64) || !same(args.y, placed.pos.y as i64) {
            return Err(at(at_, EventProblem::MeepleElsewhere(placed.pos)));
        }
        if self.seat(at_, args).is_ok_and(|p| p != placed.player) {
            return Err(at(at_, EventProblem::OtherPlayersMeeple));
        }
        let pos = Self::need(at_, args.pos, "pos")?;
        let (feature, at_board) = spot_on_board(placed.ty, placed.ori, pos)
            .ok_or_else(|| at(at_, EventProblem::NotASpot { pos, ty: placed.ty }))?;
        if let Some(RecordedMove::Place { action, .. }) = self.moves.last_mut() {
            *action = RecordedAction::Deploy {
                feature,
                at: at_board,
                figure: Figure::Follower,
            };
        }
        self.current = Some(Placed { meeple: true, ..placed });
        Ok(())
    }

    /// A discard: a drawn tile that fits nowhere; a tile is drawn again (§4). The raw args are
    /// unverified, so the tile comes from the fixed id table. Whether BGA logs it at the end of
    /// the drawing player's turn or at the start of the next is unverified too, so the record
    /// leaves the player to turn order: the board it is checked against is the same either way.
    fn cant_play(&mut self, at_: &EventAt, args: &Args) -> Result<(), BgaError> {
        let id = int(args.tile_id)
            .or_else(|| int(args.id))
            .ok_or_else(|| at(at_, EventProblem::NoTileId))?;
        let ty = Self::tile_type(at_, id, int(args.ty))?;
        self.seat(at_, args)?;
        let alias = tile_names::resolve(&self.cat, System::Bga, &ty.to_string())
            .ok_or_else(|| at(at_, EventProblem::UnknownType(ty)))?;
        self.moves.push(RecordedMove::Discard {
            player: None,
            tile: alias.kind,
        });
        Ok(())
    }

    /// `score` is the player's total after the award; older logs may have only `points`.
    fn win_points(&mut self, at_: &EventAt, args: &Args) -> Result<(), BgaError> {
        let seat = self.seat(at_, args)? as usize;
        let total = match (int(args.score), int(args.points)) {
            (Some(score), _) => score,
            (None, Some(points)) => points.saturating_add(self.running[seat].into()),
            (None, None) => return Err(at(at_, EventProblem::NoScore)),
        };
        self.running[seat] = i32::try_from(total).map_err(|_| at(at_, EventProblem::ScoreOutOfRange))?;
        // Points in the farm scoring state mean farmers were on the board.
        self.farmers_seen |= self.state == 7;
        Ok(())
    }

    fn state_change(&mut self, at_: &EventAt, args: Args) -> Result<(), BgaError> {
        let Some(id) = int(args.id) else {
            return Ok(()); // game setup
        };
        self.state = id;
        let payload = args.args.or_empty();
        match id {
            2 => self.turn = self.turn_scores.len() as u32 + 1,
            3 => self.note_spots(at_, payload.spots.0.unwrap_or_default())?,
            // End of turn: the turn's scoring is complete.
            5 => {
                if let Some(last @ None) = self.turn_scores.last_mut() {
                    *last = Some(self.running.clone());
                }
            }
            6 | 7 => self.finished = true,
            99 => self.result = read_result(payload, &self.seats),
            _ => {}
        }
        Ok(())
    }

    /// Farmers are on when a field is ever offered as a meeple spot (§10).
    fn note_spots(&mut self, at_: &EventAt, spots: Vec<Loose<Spot>>) -> Result<(), BgaError> {
        for s in spots {
            let s = s.or_empty();
            let (Some(id), Some(pos)) = (int(s.tile), int(s.pos)) else {
                return Err(at(at_, EventProblem::SpotWithoutTile));
            };
            let ty = Self::tile_type(at_, id, None)?;
            self.any_spots = true;
            self.farmers_seen |= spot(ty, pos).is_some_and(|(k, _)| k == FeatureKind::Field);
        }
        Ok(())
    }

    fn finish(self, seats: Vec<Seat>) -> GameRecord {
        // Without any spot offered the log cannot tell; BGA's default has farmers.
        let farmers = self.farmers_seen || !self.any_spots;
        let (final_scores, categories) = match self.result {
            Some(o) => (Some(o.scores), o.categories),
            None => (self.finished.then(|| self.running.clone()), None),
        };
        GameRecord {
            players: seats
                .into_iter()
                .enumerate()
                .map(|(i, s)| PlayerInfo {
                    name: s.name.unwrap_or_else(|| format!("Player {}", i + 1)),
                    colour: s.colour,
                    bga_id: u64::try_from(s.id).ok(),
                })
                .collect(),
            setup: TileSetup {
                game: GameKind::Carcassonne,
                rules: rules(farmers),
                custom_tiles: Vec::new(),
                catalog: self.cat,
                start: Vec::new(),
                score_orders: Default::default(),
                final_scoring: Some(self.finished),
                recorded_scores: Some(RecordedScores {
                    source: SOURCE,
                    turns: self.turn_scores,
                    running_after_end: self.finished.then_some(self.running),
                    final_scores,
                    categories,
                }),
            },
            moves: self.moves,
            annotations: Vec::new(),
        }
    }
}

/// Board Game Arena's rules: the current rules (a two-tile city scores 4, fields 3 per city)
/// with tiles that have no gardens.
pub(super) fn rules(farmers: bool) -> RulesSpec {
    RulesSpec {
        preset: Preset::SecondEdition,
        overrides: Overrides {
            edition: Some(TileEdition(Edition::First)),
            farmers: Some(farmers),
            ..Overrides::default()
        },
    }
}

/// The final result (state 99).
struct Outcome {
    scores: Vec<i32>,
    /// Per player: road, city, cloister, farm (stats 10–13).
    categories: Option<Vec<[i32; 4]>>,
}

/// `None` unless every player is in the result.
fn read_result(payload: StateArgs, seats: &HashMap<i64, u8>) -> Option<Outcome> {
    let list = payload.result.get()?;
    let mut scores = vec![None; seats.len()];
    let mut categories = vec![None; seats.len()];
    for p in list {
        let p = p.or_empty();
        let seat = *seats.get(&int(p.player)?)? as usize;
        let points = |n: Num| int(n).and_then(|s| i32::try_from(s).ok());
        scores[seat] = points(p.score);
        categories[seat] = (p.stats.get())
            .and_then(|s| Some([points(s.road)?, points(s.city)?, points(s.cloister)?, points(s.farm)?]));
    }
    Some(Outcome {
        scores: scores.into_iter().collect::<Option<Vec<_>>>()?,
        categories: categories.into_iter().collect(),
    })
}

// ----- broken files -----

/// A JSON error, placed in the log when the text looks like one: a file cut off or damaged in
/// transit is then reported with the packet and turn where it breaks.
pub fn locate_json_error(text: &str, e: serde_json::Error) -> RecordError {
    if !text.contains("\"packet_id\"") {
        return RecordError::Json(e);
    }
    let offset: usize = text
        .split_inclusive('\n')
        .take(e.line().saturating_sub(1))
        .map(str::len)
        .sum::<usize>()
        + e.column();
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let packet = before.rfind("\"packet_id\"").and_then(|i| {
        let rest = before[i + "\"packet_id\"".len()..].trim_start_matches([':', ' ', '"']);
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        (!digits.is_empty()).then_some(digits)
    });
    let placed = before.matches("\"playTile\"").count();
    let place = match packet {
        Some(packet) => DamagedAt::Packet { packet, placed },
        None => DamagedAt::BeforeFirstPacket,
    };
    BgaError::Damaged { place, error: e }.into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{HalfEdge, Side};

    #[test]
    fn table_and_replay_addresses_give_their_table() {
        let table = |text: &str| page_address(text).map(|a| a.table);
        assert_eq!(
            table("https://boardgamearena.com/table?table=123456789"),
            Some(Some(123_456_789))
        );
        assert_eq!(
            table("  https://en.boardgamearena.com/gamereview?table=42\n"),
            Some(Some(42))
        );
        assert_eq!(
            table("https://boardgamearena.com/archive/replay/250101-1000/?table=654321&player=1&comments=1"),
            Some(Some(654_321))
        );
        assert_eq!(table("boardgamearena.com/1/carcassonne?table=7#top"), Some(Some(7)));
        assert_eq!(
            table("HTTPS://BoardGameArena.com/player?id=5"),
            Some(None),
            "no table named"
        );
        assert_eq!(table("https://evilboardgamearena.com/table?table=1"), None);
        assert_eq!(table("https://example.org/?u=boardgamearena.com"), None);
        assert_eq!(table("{\"status\": 1}"), None);
    }

    fn log(events: Value) -> Value {
        serde_json::json!({
            "status": 1,
            "data": {"valid": 1, "data": [{"packet_id": "7", "data": events}]},
        })
    }

    fn error(v: Value) -> BgaError {
        match from_value(&v) {
            Err(RecordError::Bga(e)) => e,
            other => panic!("expected a BgaError, got {other:?}"),
        }
    }

    /// An event's fault names its packet, its type and its turn as data.
    #[test]
    fn an_expansion_meeple_is_placed_in_the_log() {
        let e = error(log(serde_json::json!([
            {"type": "playTile", "args": {"id": 1, "x": 0, "y": 1, "ori": 1, "player_id": "11"}},
            {"type": "playPartisan", "args": {"ptype": "abbot", "pos": 1, "player_id": 11}},
        ])));
        let BgaError::Event { at, problem } = e else {
            panic!("not an event's fault: {e:?}");
        };
        assert_eq!(
            (at.packet, at.kind.as_str(), at.turn),
            (PacketId::Id(7), "playPartisan", 1)
        );
        assert_eq!(problem, EventProblem::ExpansionMeeple("abbot".into()));
    }

    #[test]
    fn an_error_instead_of_a_log_says_so() {
        let v = serde_json::json!({"status": "0", "error": "Not logged in", "data": {}});
        let BgaError::Status { status, said } = error(v) else {
            panic!("not the status");
        };
        assert_eq!(
            (status.as_deref(), said.as_deref()),
            (Some("\"0\""), Some("Not logged in"))
        );
        let v = serde_json::json!({"status": 1, "data": {"data": []}});
        assert!(matches!(error(v), BgaError::NoPackets), "data.data without data.valid");
        assert!(matches!(error(log(serde_json::json!([]))), BgaError::PlayerCount(0)));
    }

    #[test]
    fn ids_give_their_type() {
        assert_eq!(type_of_id(1), Some(1));
        assert_eq!(type_of_id(36), Some(15), "the start tile is a D");
        assert_eq!(type_of_id(68), Some(22));
        assert_eq!(type_of_id(72), Some(24));
        assert_eq!(type_of_id(73), None);
        assert_eq!(type_of_id(0), None);
        assert_eq!(COPIES.iter().map(|&n| n as u32).sum::<u32>(), 72);
    }

    #[test]
    fn numbers_may_be_strings() {
        let int = |v: Value| int(Num::deserialize(&v).unwrap());
        assert_eq!(int(serde_json::json!("12")), Some(12));
        assert_eq!(int(serde_json::json!(" -3 ")), Some(-3));
        assert_eq!(int(serde_json::json!(7)), Some(7));
        assert_eq!(int(serde_json::json!(7.0)), Some(7));
        assert_eq!(int(serde_json::json!(7.5)), None);
        assert_eq!(int(serde_json::json!(u64::MAX)), None);
        assert_eq!(int(serde_json::json!("x")), None);
        assert_eq!(int(serde_json::json!(null)), None);
        assert_eq!(int(serde_json::json!([7])), None);
    }

    /// Every spot names a segment of its tile, in every `ori`.
    #[test]
    fn every_spot_is_a_segment_of_its_tile() {
        let cat = TileCatalog::builtin();
        for ty in 1..=24 {
            for pos in 1..=SPOTS[ty as usize - 1].len() as i64 {
                let Some((kind, at)) = spot(ty, pos) else {
                    assert_eq!((ty, pos), (16, 2), "only U's spot 2 is unused");
                    continue;
                };
                for ori in 1..=4 {
                    let (tile, r) = tile_kind(&cat, ty, ori).unwrap();
                    let board = rotate(at, Rotation::new((ori - 1) as u8));
                    assert!(
                        cat.get(tile).segment_at(r, kind, Some(board)).is_some(),
                        "type {ty} pos {pos} ori {ori}: no {kind} at {board}"
                    );
                }
            }
        }
    }

    #[test]
    fn half_edges_and_sides_turn_with_the_tile() {
        let r = Rotation::new(1);
        assert_eq!(rotate(Location::Side(Side::N), r), Location::Side(Side::E));
        let h = HalfEdge::parse("W.n").unwrap();
        assert_eq!(
            rotate(Location::Half(h), r),
            Location::Half(HalfEdge::parse("N.e").unwrap())
        );
    }
}
