//! JCloisterZone 5.x saves (`.jcz`), as described in `reference/jcz-format.md`.
//!
//! JCZ never writes discarded tiles. With a `gameAnnotations.drawOrder` the discards are the
//! drawn tiles that were not placed; otherwise each tile missing from the save is put at the
//! first turn where it had no legal placement.
//!
//! Export, the other way, is `export::jcz`.

use super::native;
use super::tile_names::{self, System};
use super::walk::IllegalTurn;
use super::{
    Format, GameRecord, Played, PlayerInfo, RecordError, RecordedAction, RecordedMove, ReplayError, RulesSpec, Walk,
};
use crate::engine::Rules;
use crate::engine::tileset::{SPRING, START_TILE};
use crate::engine::{
    Edition, FeatureKind, Figure, Game, Location, Placement, Pos, Preset, Rotation, Side, StartTile, TileCatalog,
    TileKindId,
};
use crate::engine::{GameKind, HalfEdge};
use crate::record::rules_spec::{Followers, Overrides, RiverTurnRule, TileEdition, TwoTileCityRule};
use serde_json::Value;

/// The top-level key of our own saves holding what JCloisterZone cannot say: our rules,
/// colours and whether final scoring runs (`export::jcz` writes it).
pub const EXTENSION: &str = "carcassonne-replay";

fn err(msg: impl Into<String>) -> RecordError {
    RecordError::invalid(Format::Jcz, msg)
}

pub fn from_value(v: Value) -> Result<GameRecord, RecordError> {
    if v.get("slots").is_some() || v.pointer("/setup/expansions").is_some() {
        return Err(err(
            "this is a JCloisterZone 4.x save; open it in JCloisterZone 5 and save it again",
        ));
    }
    let setup = v.get("setup").ok_or_else(|| err("no \"setup\""))?;
    let rules = read_setup(setup)?;
    let catalog = TileCatalog::builtin();
    let start = read_start(setup, &catalog)?;
    let players = read_players(&v)?;
    let placed = read_replay(&v, &catalog, &players)?;
    let annotations = v.get("gameAnnotations");
    let draw_order = read_draw_order(annotations, &catalog)?;
    let end_turn = annotations.and_then(|a| a.get("endTurn")).and_then(Value::as_u64);
    let start = if is_default_start(&start, &rules.resolve(), &catalog) {
        Vec::new()
    } else {
        start
    };
    let mut record = GameRecord {
        game: GameKind::Carcassonne,
        players,
        rules,
        custom_tiles: Vec::new(),
        catalog,
        start,
        moves: placed.moves,
        score_orders: Default::default(),
        final_scoring: None,
        recorded_scores: None,
    };
    match draw_order {
        Some(order) => insert_drawn_discards(&mut record, &order, end_turn),
        None => infer_discards(&mut record),
    }
    let draws = record.moves.len() as u64;
    if end_turn.is_some_and(|e| draws >= e) {
        record.final_scoring = Some(true);
    }
    if let Some(ext) = v.get(EXTENSION) {
        apply_extension(&mut record, ext)?;
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
        Err(e) => return err(e.to_string()),
    };
    let mut placements = 0;
    loop {
        match walk.step() {
            None => break err(format!("a meeple goes to {}, on no tile just placed", elsewhere.square)),
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
fn apply_extension(record: &mut GameRecord, ext: &Value) -> Result<(), RecordError> {
    let what = |e: RecordError| err(format!("{EXTENSION}: {e}"));
    if let Some(rules) = ext.get("rules") {
        let ours = native::rules_from_value(rules.clone()).map_err(what)?;
        let components = |r: Rules| (r.edition, r.farmers, r.river, r.abbot, r.followers);
        if components(ours.resolve()) == components(record.rules.resolve()) {
            record.rules = ours;
        }
    }
    if let Some(f) = ext.get("final_scoring") {
        record.final_scoring = f.as_bool();
    }
    let colours = ext.get("colours").and_then(Value::as_array);
    for (player, colour) in record.players.iter_mut().zip(colours.into_iter().flatten()) {
        player.colour = colour.as_str().filter(|c| native::is_colour(c)).map(str::to_string);
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

fn read_setup(setup: &Value) -> Result<RulesSpec, RecordError> {
    let sets = setup
        .get("sets")
        .and_then(Value::as_object)
        .ok_or_else(|| err("setup.sets is missing"))?;
    let mut edition = None;
    let mut river = false;
    for (set, count) in sets {
        if count.as_u64() != Some(1) {
            return Err(err(format!(
                "tile set {set} is used {count} times; only once is supported"
            )));
        }
        match set.as_str() {
            "basic:1" => edition = Some(Edition::First),
            "basic:2" => edition = Some(Edition::Second),
            "river/1:1" | "river/1:2" => river = true,
            other => {
                return Err(err(format!(
                    "tile set {other:?} is not supported (supported: basic:1, basic:2, river/1:1, river/1:2)"
                )));
            }
        }
    }
    let edition = edition.ok_or_else(|| err("setup.sets has no base game (basic:1 or basic:2)"))?;
    let elements = setup.get("elements").and_then(Value::as_object);
    let has = |k: &str| elements.is_some_and(|e| e.contains_key(k));
    let followers = elements
        .and_then(|e| e.get("small-follower"))
        .and_then(Value::as_u64)
        .unwrap_or(7);
    let tiny = setup.pointer("/rules/tiny-city-scoring").and_then(Value::as_str) == Some("2");
    // JCloisterZone scores farms per field (3 per city) and, instead of a River turn rule, keeps room ahead of the river's end; it keeps
    // all four D tiles in the pack with The River.
    let followers = u8::try_from(followers)
        .map_err(|_| followers.to_string())
        .and_then(Followers::try_from)
        .map_err(|e| err(format!("small-follower: {e}")))?;
    let overrides = Overrides {
        edition: Some(TileEdition(edition)),
        farmers: Some(has("farmers")),
        river: Some(river),
        abbot: Some(has("abbot")),
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

fn resolve(
    cat: &TileCatalog,
    id: &str,
    system_rotation: Rotation,
    what: &str,
) -> Result<(TileKindId, Rotation), RecordError> {
    let a = tile_names::resolve(cat, System::Jcz, id).ok_or_else(|| {
        err(format!(
            "{what}: unknown tile {id:?} (only the base game and The River are supported)"
        ))
    })?;
    Ok((a.kind, system_rotation.plus(a.offset)))
}

fn read_start(setup: &Value, cat: &TileCatalog) -> Result<Vec<StartTile>, RecordError> {
    let Some(list) = setup.get("start").and_then(Value::as_array) else {
        return Ok(Vec::new());
    };
    list.iter()
        .map(|s| {
            let id = s
                .get("tile")
                .and_then(Value::as_str)
                .ok_or_else(|| err("a start tile has no \"tile\""))?;
            let deg = s.get("rotation").and_then(Value::as_i64).unwrap_or(0);
            let r = Rotation::from_degrees(deg)
                .ok_or_else(|| err(format!("start rotation {deg} is not a multiple of 90")))?;
            let (tile, rotation) = resolve(cat, id, r, "start")?;
            let pos = Pos::new(int(s.get("x"))?, int(s.get("y"))?);
            Ok(StartTile {
                tile,
                placement: Placement { pos, rotation },
            })
        })
        .collect()
}

fn int(v: Option<&Value>) -> Result<i32, RecordError> {
    v.and_then(Value::as_i64)
        .and_then(|n| i32::try_from(n).ok())
        .ok_or_else(|| err("a coordinate is missing or not an integer"))
}

fn read_players(v: &Value) -> Result<Vec<PlayerInfo>, RecordError> {
    let list = v
        .get("players")
        .and_then(Value::as_array)
        .ok_or_else(|| err("no \"players\""))?;
    if list.is_empty() || list.len() > 6 {
        return Err(err(format!("a game has 1 to 6 players, not {}", list.len())));
    }
    Ok(list
        .iter()
        .enumerate()
        .map(|(i, p)| PlayerInfo {
            name: p
                .get("name")
                .and_then(Value::as_str)
                .map_or_else(|| format!("Player {}", i + 1), str::to_string),
            colour: p
                .get("slot")
                .and_then(Value::as_u64)
                .and_then(|s| SLOT_COLOURS.get(s as usize))
                .map(|c| c.to_string()),
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

fn position(v: Option<&Value>, what: &str) -> Result<Pos, RecordError> {
    let a = v
        .and_then(Value::as_array)
        .filter(|a| a.len() == 2)
        .ok_or_else(|| err(format!("{what}: position is not [x, y]")))?;
    Ok(Pos::new(int(a.first())?, int(a.get(1))?))
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
fn read_replay(v: &Value, cat: &TileCatalog, players: &[PlayerInfo]) -> Result<Placed, RecordError> {
    let mut placed = Placed {
        moves: Vec::new(),
        meeple_elsewhere: None,
    };
    let Some(list) = v.get("replay").and_then(Value::as_array) else {
        return Ok(placed);
    };
    let moves = &mut placed.moves;
    let mut pending: Option<RecordedMove> = None;
    for (i, msg) in list.iter().enumerate() {
        // The turn the message belongs to: the one under way, or after a COMMIT the next;
        // a PLACE_TILE while one is under way opens the one after it.
        let opens = msg.get("type").and_then(Value::as_str) == Some("PLACE_TILE");
        let turn = moves.len() + 1 + usize::from(opens && pending.is_some());
        let player = message_player(msg, players.len(), i, turn)?;
        let what = message_label(msg, i, turn, player.and_then(|p| players.get(usize::from(p))))?;
        let ty = msg.get("type").and_then(Value::as_str).unwrap_or_default();
        let payload = msg.get("payload").unwrap_or(&Value::Null);
        match ty {
            "PLACE_TILE" => {
                if let Some(m) = pending.take() {
                    moves.push(m);
                }
                pending = Some(place_tile(payload, cat, player, &what)?);
            }
            "DEPLOY_MEEPLE" | "RETURN_MEEPLE" | "PASS" => {
                let Some(RecordedMove::Place { action, placement, .. }) = pending.as_mut() else {
                    return Err(err(format!("{what}: no tile was placed before it")));
                };
                if ty == "DEPLOY_MEEPLE" {
                    let square = meeple_square(payload, &what)?;
                    if square != placement.pos {
                        moves.extend(pending.take());
                        placed.meeple_elsewhere = Some(MeepleElsewhere {
                            placed: moves.len() - 1,
                            square,
                        });
                        return Ok(placed);
                    }
                }
                *action = match ty {
                    "DEPLOY_MEEPLE" => deploy(payload, &what)?,
                    "RETURN_MEEPLE" => recall(payload, &what)?,
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
            other => {
                return Err(err(format!(
                    "{what}: message type {other} belongs to an expansion that is not supported"
                )));
            }
        }
    }
    // A save may end in the middle of a turn: the placed tile still counts.
    moves.extend(pending);
    Ok(placed)
}

/// The player a message names, checked against the players of the save.
fn message_player(msg: &Value, players: usize, i: usize, turn: usize) -> Result<Option<u8>, RecordError> {
    match msg.get("player").and_then(Value::as_u64) {
        Some(p) if p >= players as u64 => Err(err(format!(
            "turn {turn}, replay message {} ({}): names player {p}, but there are {players} players (numbered from 0)",
            i + 1,
            msg.get("type").and_then(Value::as_str).unwrap_or("of no type")
        ))),
        p => Ok(p.map(|p| p as u8)),
    }
}

/// "turn 2 (Bob), replay message 5 (DEPLOY_MEEPLE)": where a message's fault is, for the
/// player reading the error, and for whoever looks into the save.
fn message_label(msg: &Value, i: usize, turn: usize, player: Option<&PlayerInfo>) -> Result<String, RecordError> {
    let n = i + 1;
    let ty = msg
        .get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| err(format!("replay message {n} has no type")))?;
    Ok(match player {
        Some(p) => format!("turn {turn} ({}), replay message {n} ({ty})", p.name),
        None => format!("turn {turn}, replay message {n} ({ty})"),
    })
}

fn place_tile(payload: &Value, cat: &TileCatalog, player: Option<u8>, what: &str) -> Result<RecordedMove, RecordError> {
    let id = payload
        .get("tileId")
        .and_then(Value::as_str)
        .ok_or_else(|| err(format!("{what}: no tileId")))?;
    let rot = payload.get("rotation").and_then(Value::as_str).unwrap_or("R0");
    let deg: i64 = rot
        .strip_prefix('R')
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| err(format!("{what}: rotation {rot:?} is not R0, R90, R180 or R270")))?;
    let r = Rotation::from_degrees(deg)
        .filter(|_| (0..360).contains(&deg))
        .ok_or_else(|| err(format!("{what}: rotation {rot:?} is not R0, R90, R180 or R270")))?;
    let (tile, rotation) = resolve(cat, id, r, what)?;
    let pos = position(payload.get("position"), what)?;
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
fn location(kind: FeatureKind, loc: &str, what: &str) -> Result<Location, RecordError> {
    let bad = || err(format!("{what}: location {loc:?} does not fit a {kind}"));
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

/// The square a DEPLOY_MEEPLE names.
fn meeple_square(payload: &Value, what: &str) -> Result<Pos, RecordError> {
    let ptr = payload
        .get("pointer")
        .ok_or_else(|| err(format!("{what}: no pointer")))?;
    position(ptr.get("position"), what)
}

/// A DEPLOY_MEEPLE on the tile just placed.
fn deploy(payload: &Value, what: &str) -> Result<RecordedAction, RecordError> {
    let ptr = payload
        .get("pointer")
        .ok_or_else(|| err(format!("{what}: no pointer")))?;
    let name = ptr.get("feature").and_then(Value::as_str).unwrap_or_default();
    let kind = feature_kind(name).ok_or_else(|| err(format!("{what}: feature {name} is not in the base game")))?;
    let at = location(
        kind,
        ptr.get("location").and_then(Value::as_str).unwrap_or_default(),
        what,
    )?;
    let id = payload.get("meepleId").and_then(Value::as_str).unwrap_or_default();
    let figure = match id.split('.').nth(1) {
        Some("small") | None => Figure::Follower,
        Some("abbot") => Figure::Abbot,
        Some(other) => {
            return Err(err(format!(
                "{what}: meeple type {other} belongs to an expansion that is not supported"
            )));
        }
    };
    Ok(RecordedAction::Deploy {
        feature: kind,
        at,
        figure,
    })
}

fn recall(payload: &Value, what: &str) -> Result<RecordedAction, RecordError> {
    match payload.get("source").and_then(Value::as_str) {
        Some("ABBOT_RETURN") => Ok(RecordedAction::RecallAbbot),
        other => Err(err(format!(
            "{what}: returning a meeple by {other:?} is not part of the base game"
        ))),
    }
}

fn read_draw_order(ann: Option<&Value>, cat: &TileCatalog) -> Result<Option<Vec<TileKindId>>, RecordError> {
    let Some(list) = ann.and_then(|a| a.get("drawOrder")).and_then(Value::as_array) else {
        return Ok(None);
    };
    list.iter()
        .map(|t| {
            let id = t.as_str().ok_or_else(|| err("drawOrder holds a non-string"))?;
            Ok(resolve(cat, id, Rotation::new(0), "drawOrder")?.0)
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
