//! Board Game Arena logs, as described in `reference/bga-format.md`: either envelope, the base
//! game with farmers on or off, discards. Events are read by their type and the game state
//! they arrive in, never by their (translated) text, and every number may arrive as a string.
//!
//! The log also holds Board Game Arena's running scores. The importer keeps them in
//! `GameRecord::recorded_scores`, and `replay::verify` compares them with our replay turn by
//! turn: a difference is a bug in this importer or a rules difference, and must be reported.

use super::tile_names::{self, System};
use super::{Format, GameRecord, PlayerInfo, RecordError, RecordedAction, RecordedMove, RecordedScores, RulesSpec};
use crate::engine::{Edition, FeatureKind, Figure, Location, Placement, Pos, Preset, Rotation};
use crate::engine::{GameKind, TileCatalog, TileKindId};
use crate::record::rules_spec::{Overrides, TileEdition};
use serde_json::Value;
use std::collections::HashMap;

const SOURCE: &str = "Board Game Arena";

fn err(msg: impl Into<String>) -> RecordError {
    RecordError::invalid(Format::Bga, msg)
}

/// Whether `v` is a Board Game Arena log in either envelope (§1).
pub fn detect(v: &Value) -> bool {
    v.get("status").is_some() && packets(v).is_some()
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

/// Envelope A (`g_gamelogs`) keeps the packets in `data.data`, envelope B (the archive) in
/// `data.logs`.
fn packets(v: &Value) -> Option<&Vec<Value>> {
    let data = v.get("data")?;
    match data.get("logs") {
        Some(logs) => logs.as_array(),
        None => data.get("valid").and(data.get("data")).and_then(Value::as_array),
    }
}

/// Numbers arrive as JSON numbers or as strings holding one, even within one event type
/// (§2.1).
fn int(v: Option<&Value>) -> Option<i64> {
    match v? {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 1e15)
                .map(|f| f as i64)
        }),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// Reads a log into a record, keeping Board Game Arena's scores for `replay::verify`.
pub fn from_value(v: &Value) -> Result<GameRecord, RecordError> {
    if int(v.get("status")) != Some(1) {
        let said = v.get("error").and_then(Value::as_str).unwrap_or("no reason given");
        return Err(err(format!(
            "the log's \"status\" is {}, not 1: Board Game Arena sent an error instead of a log ({said})",
            v.get("status").map_or_else(|| "missing".into(), Value::to_string)
        )));
    }
    let packets = packets(v).ok_or_else(|| err("no packets: expected data.data or data.logs"))?;
    let seats = seats(v, packets)?;
    let mut reader = Reader::new(TileCatalog::builtin(), &seats);
    for (i, packet) in packets.iter().enumerate() {
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
fn all_events(packets: &[Value]) -> impl Iterator<Item = &Value> {
    packets
        .iter()
        .filter_map(|p| p.get("data").and_then(Value::as_array))
        .flatten()
}

/// The players in turn order. The lists of the table's players (envelope B, the clocks in
/// every state change, the final result) say who plays; the turns say in what order: whoever
/// is asked to place a tile first moves first (§10). A log without lists is seated by its moves
/// alone. A move by anyone else is reported by the reader.
fn seats(v: &Value, packets: &[Value]) -> Result<Vec<Seat>, RecordError> {
    let mut order: Vec<i64> = Vec::new();
    let mut listed: Vec<i64> = Vec::new();
    // (id, name, colour), best source first: envelope B and the result before move events.
    let mut named: Vec<(i64, Option<&str>, Option<&str>)> = Vec::new();
    let mut from_moves = Vec::new();
    if let Some(list) = v.pointer("/data/players").and_then(Value::as_array) {
        named.extend(list.iter().filter_map(listed_player));
    }
    for e in all_events(packets) {
        let args = e.get("args");
        let arg = |k: &str| args.and_then(|a| a.get(k));
        match e.get("type").and_then(Value::as_str) {
            Some("gameStateChange") if int(arg("id")) == Some(2) => order.extend(int(arg("active_player"))),
            Some("gameStateChange") => {
                let clocks = arg("reflexion").and_then(|r| r.get("total")).and_then(Value::as_object);
                listed.extend(clocks.into_iter().flatten().filter_map(|(k, _)| k.parse::<i64>().ok()));
                let result = arg("args").and_then(|a| a.get("result")).and_then(Value::as_array);
                named.extend(result.into_iter().flatten().filter_map(listed_player));
            }
            Some("playTile") => {
                order.extend(int(arg("player_id")));
                let name = arg("player_name").and_then(Value::as_str);
                from_moves.extend(int(arg("player_id")).map(|id| (id, name, None)));
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
        return Err(err(format!(
            "a game has 1 to 6 players; the log names {}",
            listed.len()
        )));
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
fn listed_player(p: &Value) -> Option<(i64, Option<&str>, Option<&str>)> {
    let id = int(p.get("id")).or_else(|| int(p.get("player")))?;
    Some((
        id,
        p.get("name").and_then(Value::as_str),
        p.get("color").and_then(Value::as_str),
    ))
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

/// Where an event is, for error messages: the packet and the turn.
struct At<'a> {
    packet: String,
    kind: &'a str,
    turn: u32,
}

impl At<'_> {
    fn err(&self, msg: impl std::fmt::Display) -> RecordError {
        err(format!(
            "packet {}, {} event (turn {}): {msg}",
            self.packet, self.kind, self.turn
        ))
    }
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

    fn packet(&mut self, index: usize, packet: &Value) -> Result<(), RecordError> {
        let name = int(packet.get("packet_id")).map_or_else(|| format!("#{}", index + 1), |id| id.to_string());
        let events = packet.get("data").and_then(Value::as_array).ok_or_else(|| {
            err(format!(
                "packet {name} (turn {}): no \"data\" list of events",
                self.turn
            ))
        })?;
        for e in events {
            let kind = e.get("type").and_then(Value::as_str).ok_or_else(|| {
                err(format!(
                    "packet {name} (turn {}): an event without a \"type\"",
                    self.turn
                ))
            })?;
            let at = At {
                packet: name.clone(),
                kind,
                turn: self.turn,
            };
            let args = e.get("args").unwrap_or(&Value::Null);
            self.event(&at, args)?;
        }
        Ok(())
    }

    fn event(&mut self, at: &At, args: &Value) -> Result<(), RecordError> {
        match at.kind {
            "playTile" => self.play_tile(at, args),
            "playPartisan" => self.play_partisan(at, args),
            "cantPlay" => self.cant_play(at, args),
            "winPoints" => self.win_points(at, args),
            "gameStateChange" => self.state_change(at, args),
            // Notes, clocks, the deck size, private draws, scoring details (their points come
            // in `winPoints`) and newer event types carry nothing a record needs.
            _ => Ok(()),
        }
    }

    fn seat(&self, at: &At, args: &Value) -> Result<u8, RecordError> {
        let id = int(args.get("player_id")).ok_or_else(|| at.err("no player_id"))?;
        self.seats
            .get(&id)
            .copied()
            .ok_or_else(|| at.err(format!("player {id} is not one of the game's players")))
    }

    fn need(&self, at: &At, args: &Value, key: &str) -> Result<i64, RecordError> {
        int(args.get(key)).ok_or_else(|| at.err(format!("no integer \"{key}\"")))
    }

    /// The type of tile instance `id`, checked against a `type` the event may also give.
    fn tile_type(&self, at: &At, id: i64, given: Option<i64>) -> Result<i64, RecordError> {
        if let Some(ty) = given.filter(|t| *t > 24) {
            return Err(at.err(format!(
                "tile type {ty} belongs to an expansion; only the base game is supported"
            )));
        }
        let ty = type_of_id(id).ok_or_else(|| at.err(format!("tile id {id} is not a base-game tile (1 to 72)")))?;
        match given {
            Some(g) if g != ty => Err(at.err(format!("tile id {id} is of type {ty}, but the event says type {g}"))),
            _ => Ok(ty),
        }
    }

    fn play_tile(&mut self, at: &At, args: &Value) -> Result<(), RecordError> {
        let id = self.need(at, args, "id")?;
        let ty = self.tile_type(at, id, int(args.get("type")))?;
        if id == START_ID || self.used_ids[id as usize] {
            return Err(at.err(format!("tile id {id} is already on the board")));
        }
        let pos = Pos::new(self.coord(at, args, "x")?, self.coord(at, args, "y")?);
        let ori = self.need(at, args, "ori")?;
        let player = self.seat(at, args)?;
        let (tile, rotation) =
            tile_kind(&self.cat, ty, ori).ok_or_else(|| at.err(format!("ori {ori} is not 1 to 4")))?;
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

    fn coord(&self, at: &At, args: &Value, key: &str) -> Result<i32, RecordError> {
        i32::try_from(self.need(at, args, key)?).map_err(|_| at.err(format!("\"{key}\" is out of range")))
    }

    fn play_partisan(&mut self, at: &At, args: &Value) -> Result<(), RecordError> {
        let Some(placed) = self.current.filter(|p| !p.meeple) else {
            return Err(at.err("a meeple without a tile placed before it in the same turn"));
        };
        if let Some(kind) = args.get("ptype").and_then(Value::as_str).filter(|k| *k != "normal") {
            return Err(at.err(format!(
                "meeple type {kind:?} belongs to an expansion; only the base game is supported"
            )));
        }
        let same = |key: &str, want: i64| int(args.get(key)).is_none_or(|v| v == want);
        if !same("id", placed.id) || !same("x", placed.pos.x as i64) || !same("y", placed.pos.y as i64) {
            return Err(at.err(format!(
                "the meeple goes to another tile than the one just placed at {}",
                placed.pos
            )));
        }
        if self.seat(at, args).is_ok_and(|p| p != placed.player) {
            return Err(at.err("the meeple belongs to another player than the one who placed the tile"));
        }
        let pos = self.need(at, args, "pos")?;
        let (feature, at_board) = spot_on_board(placed.ty, placed.ori, pos)
            .ok_or_else(|| at.err(format!("pos {pos} is not a meeple spot of tile type {}", placed.ty)))?;
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
    fn cant_play(&mut self, at: &At, args: &Value) -> Result<(), RecordError> {
        let id = int(args.get("tile_id"))
            .or_else(|| int(args.get("id")))
            .ok_or_else(|| at.err("no tile_id"))?;
        let ty = self.tile_type(at, id, int(args.get("type")))?;
        self.seat(at, args)?;
        let alias = tile_names::resolve(&self.cat, System::Bga, &ty.to_string())
            .ok_or_else(|| at.err(format!("unknown tile type {ty}")))?;
        self.moves.push(RecordedMove::Discard {
            player: None,
            tile: alias.kind,
        });
        Ok(())
    }

    /// `score` is the player's total after the award; older logs may have only `points`.
    fn win_points(&mut self, at: &At, args: &Value) -> Result<(), RecordError> {
        let seat = self.seat(at, args)? as usize;
        let total = match (int(args.get("score")), int(args.get("points"))) {
            (Some(score), _) => score,
            (None, Some(points)) => points.saturating_add(self.running[seat].into()),
            (None, None) => return Err(at.err("neither \"score\" nor \"points\"")),
        };
        self.running[seat] = i32::try_from(total).map_err(|_| at.err("the score is out of range"))?;
        // Points in the farm scoring state mean farmers were on the board.
        self.farmers_seen |= self.state == 7;
        Ok(())
    }

    fn state_change(&mut self, at: &At, args: &Value) -> Result<(), RecordError> {
        let Some(id) = int(args.get("id")) else {
            return Ok(()); // game setup
        };
        self.state = id;
        let payload = args.get("args").unwrap_or(&Value::Null);
        match id {
            2 => self.turn = self.turn_scores.len() as u32 + 1,
            3 => self.note_spots(at, payload)?,
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
    fn note_spots(&mut self, at: &At, payload: &Value) -> Result<(), RecordError> {
        let Some(spots) = payload.get("spots").and_then(Value::as_array) else {
            return Ok(());
        };
        for s in spots {
            let (Some(id), Some(pos)) = (int(s.get("tile")), int(s.get("pos"))) else {
                return Err(at.err("a meeple spot without \"tile\" and \"pos\""));
            };
            let ty = self.tile_type(at, id, None)?;
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
            game: GameKind::Carcassonne,
            players: seats
                .into_iter()
                .enumerate()
                .map(|(i, s)| PlayerInfo {
                    name: s.name.unwrap_or_else(|| format!("Player {}", i + 1)),
                    colour: s.colour,
                })
                .collect(),
            rules: rules(farmers),
            custom_tiles: Vec::new(),
            catalog: self.cat,
            start: Vec::new(),
            moves: self.moves,
            score_orders: Default::default(),
            final_scoring: Some(self.finished),
            recorded_scores: Some(RecordedScores {
                source: SOURCE,
                turns: self.turn_scores,
                running_after_end: self.finished.then_some(self.running),
                final_scores,
                categories,
            }),
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
fn read_result(payload: &Value, seats: &HashMap<i64, u8>) -> Option<Outcome> {
    let list = payload.get("result")?.as_array()?;
    let mut scores = vec![None; seats.len()];
    let mut categories = vec![None; seats.len()];
    for p in list {
        let seat = *seats.get(&int(p.get("player"))?)? as usize;
        scores[seat] = int(p.get("score")).and_then(|s| i32::try_from(s).ok());
        let stat = |k: &str| int(p.get("stats")?.get(k)).and_then(|s| i32::try_from(s).ok());
        categories[seat] = (|| Some([stat("10")?, stat("11")?, stat("12")?, stat("13")?]))();
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
    let tiles = if placed == 1 { "tile" } else { "tiles" };
    let place = match packet {
        Some(p) => format!("in packet {p} or the one after it, after {placed} placed {tiles}"),
        None => "before the first packet".to_string(),
    };
    err(format!(
        "the log is not valid JSON; it is cut off or damaged {place}: {e}"
    ))
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
        assert_eq!(int(Some(&serde_json::json!("12"))), Some(12));
        assert_eq!(int(Some(&serde_json::json!(" -3 "))), Some(-3));
        assert_eq!(int(Some(&serde_json::json!(7))), Some(7));
        assert_eq!(int(Some(&serde_json::json!(7.0))), Some(7));
        assert_eq!(int(Some(&serde_json::json!("x"))), None);
        assert_eq!(int(Some(&serde_json::json!(null))), None);
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
