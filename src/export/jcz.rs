//! Writes a record as a JCloisterZone 5.x save (`.jcz`, `reference/jcz-format.md`) that
//! JCloisterZone loads and replays: the tile sets, elements and rules our rules map to, one
//! `PLACE_TILE`, meeple step and `COMMIT` per placed tile, and a `gameAnnotations.drawOrder`
//! so JCloisterZone draws the recorded tiles, discards included.
//!
//! JCloisterZone cannot express every rulebook (it scores farms per field, 3 per city, and
//! has its own River rule). So the save also carries our own rules under the key
//! `carcassonne-replay`, which JCloisterZone ignores and our importer reads back: a record
//! exported and imported again is the same record.

use super::ExportError;
use crate::engine::tileset::{SPRING, START_TILE};
use crate::engine::{
    Action, Edition, Event, FeatureKind, Figure, Game, GameKind, Location, Move, Placement, Pos, Rotation, Rules,
    StartTile, TileCatalog, TileKindId,
};
use crate::record::jcz::EXTENSION;
use crate::record::tile_names::{self, System};
use crate::record::{GameRecord, Played, Walk, jcz, native};
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashMap};
/// The JCloisterZone version whose save format we write (it refuses saves older than 5.7.0).
const APP_VERSION: &str = "5.12.1";
/// A fixed date keeps exports byte-for-byte reproducible; JCloisterZone only displays it.
const CREATED: &str = "2000-01-01T00:00:00.000Z";

/// Why JCloisterZone cannot open this game, if it cannot: it plays neither New World nor
/// tiles of a record's own.
pub fn unsupported(record: &GameRecord) -> Option<ExportError> {
    if record.setup.game != GameKind::Carcassonne {
        return Some(ExportError::GameNotInJcz(record.setup.game));
    }
    (record.setup.custom_tiles.first()).map(|t| ExportError::TileNotInJcz(t.name.clone()))
}

/// The record as a `.jcz` document. Fails, naming the turn, when a move is illegal (meeple
/// ids and skipped meeple steps follow from replaying it), or when a tile has no
/// JCloisterZone id (custom tiles).
pub fn to_value(record: &GameRecord) -> Result<Value, ExportError> {
    if let Some(why) = unsupported(record) {
        return Err(why);
    }
    let rules = record.resolved_rules();
    let played = messages(record)?;
    let mut annotations = json!({ "drawOrder": played.draws });
    if played.finished {
        // JCloisterZone ends the game after this many draws, so it scores the end where the
        // record does, even when tiles are left or the last draws were discards.
        annotations["endTurn"] = json!(record.moves.len());
    }
    Ok(json!({
        "appVersion": APP_VERSION,
        "gameId": game_id(record),
        "name": "",
        "initialRandom": 0.0,
        "created": CREATED,
        "clock": 0,
        "setup": setup(record, &rules)?,
        "players": players(record),
        "replay": played.replay,
        "gameAnnotations": annotations,
        EXTENSION: extension(record),
    }))
}

/// The `.jcz` text, indented by two spaces as JCloisterZone writes it.
pub fn to_string(record: &GameRecord) -> Result<String, ExportError> {
    let v = to_value(record)?;
    Ok(serde_json::to_string_pretty(&v).expect("JSON values serialise") + "\n")
}

fn extension(record: &GameRecord) -> Value {
    let mut ext = json!({
        "rules": native::rules_to_value(&record.setup.rules),
        "final_scoring": record.setup.final_scoring,
    });
    // Always written, nulls included: JCloisterZone's slots always show some colour, and a
    // record that named none must read back without one.
    ext["colours"] = json!(record.players.iter().map(|p| p.colour.clone()).collect::<Vec<_>>());
    ext
}

/// Names and colour slots: the slot of each player's own colour when every player has a
/// different one of JCloisterZone's colours, else slots in seat order.
fn players(record: &GameRecord) -> Vec<Value> {
    let own: Vec<Option<usize>> = (record.players.iter())
        .map(|p| p.colour.as_deref().and_then(jcz::slot_of_colour))
        .collect();
    let mut distinct: Vec<usize> = own.iter().flatten().copied().collect();
    distinct.sort_unstable();
    distinct.dedup();
    let by_colour = distinct.len() == own.len();
    (record.players.iter().enumerate())
        .map(|(i, p)| json!({"name": p.name, "slot": if by_colour { own[i].unwrap_or(i) } else { i }}))
        .collect()
}

/// A JCloisterZone tile id and the rotation JCloisterZone gives our rotation `r`.
fn jcz_tile(cat: &TileCatalog, tile: TileKindId, r: Rotation) -> Result<(String, Rotation), ExportError> {
    let (id, offset) = tile_names::name_of(cat, System::Jcz, tile)
        .ok_or_else(|| ExportError::TileNotInJcz(cat.name(tile).to_string()))?;
    Ok((id.to_string(), r.minus(offset)))
}

fn setup(record: &GameRecord, rules: &Rules) -> Result<Value, ExportError> {
    let second = rules.edition == Edition::Second;
    let mut sets = json!({ if second { "basic:2" } else { "basic:1" }: 1 });
    if rules.river {
        sets[if second { "river/1:2" } else { "river/1:1" }] = json!(1);
    }
    // An element is on when its key is present; JCloisterZone never writes `false`.
    let mut elements = json!({ "small-follower": rules.followers });
    if rules.farmers {
        elements["farmers"] = json!(true);
    }
    if rules.abbot {
        elements["abbot"] = json!(1);
    }
    if second {
        elements["garden"] = json!(true);
    }
    let mut jcz_rules = json!({});
    if rules.two_tile_city == crate::engine::TwoTileCity::Reduced {
        jcz_rules["tiny-city-scoring"] = json!("2");
    }
    Ok(json!({
        "sets": sets,
        "elements": elements,
        "rules": jcz_rules,
        "timer": null,
        "start": start_tiles(record, rules)?,
        "options": {},
    }))
}

fn start_tiles(record: &GameRecord, rules: &Rules) -> Result<Vec<Value>, ExportError> {
    let cat = &record.setup.catalog;
    let default = || -> Option<StartTile> {
        let name = if rules.river { SPRING } else { START_TILE };
        Some(StartTile {
            tile: cat.by_name(name)?,
            placement: Placement {
                pos: Pos::ORIGIN,
                rotation: Rotation::new(0),
            },
        })
    };
    let start = if record.setup.start.is_empty() {
        default().into_iter().collect()
    } else {
        record.setup.start.clone()
    };
    start
        .iter()
        .map(|s| {
            let (id, r) = jcz_tile(cat, s.tile, s.placement.rotation)?;
            Ok(json!({"tile": id, "x": s.placement.pos.x, "y": s.placement.pos.y, "rotation": r.degrees()}))
        })
        .collect()
}

/// What replaying the record for JCloisterZone produced.
struct Messages {
    replay: Vec<Value>,
    /// Every drawn tile's id, discards included, in order.
    draws: Vec<String>,
    /// Whether the record's game ends with final scoring.
    finished: bool,
}

fn messages(record: &GameRecord) -> Result<Messages, ExportError> {
    let mut walk = Walk::new(record).map_err(|e| ExportError::Replay(e.describe(record)))?;
    let mut ids = MeepleIds::new(record.players.len(), walk.game().rules().followers);
    let mut out = Messages {
        replay: Vec::new(),
        draws: Vec::new(),
        finished: false,
    };
    while let Some(next) = walk.peek_played() {
        let played = next.map_err(|e| ExportError::Replay(e.describe(record)))?;
        let tile = match played {
            Played::Discard(tile) => tile,
            Played::Place(mv) => mv.tile,
        };
        out.draws
            .push(jcz_tile(&record.setup.catalog, tile, Rotation::new(0))?.0);
        // What the player could do, and where their abbot stood, before the move.
        let before = match played {
            Played::Place(mv) => Some(Before::of(walk.game(), &ids, &mv)),
            Played::Discard(_) => None,
        };
        walk.step()
            .expect("a move is next")
            .map_err(|e| ExportError::Replay(e.describe(record)))?;
        if let (Played::Place(mv), Some(before)) = (played, before) {
            let turn = turn_messages(walk.game(), &mut ids, &mv, before, walk.events())?;
            out.replay.extend(turn);
        }
    }
    out.finished = record.setup.final_scoring.unwrap_or(walk.game().pack_left() == 0);
    Ok(out)
}

/// What a turn's messages need from the position before it.
struct Before {
    player: u8,
    /// Whether the player had any meeple option: without one, JCloisterZone skips the step.
    had_options: bool,
    /// The abbot's place, when the move takes it back.
    recalled: Option<Value>,
}

impl Before {
    fn of(game: &Game, ids: &MeepleIds, mv: &Move) -> Before {
        let player = game.current_player();
        let mut options = Vec::new();
        // The engine lists meeple steps for legal placements only; an illegal one fails the
        // step that follows.
        if game.check_geometry(mv.tile, mv.placement).is_ok() {
            game.actions(mv.tile, mv.placement, &mut options);
        }
        Before {
            player,
            had_options: options.len() > 1,
            recalled: (mv.action == Action::RecallAbbot)
                .then(|| ids.abbot_pointer(player))
                .flatten(),
        }
    }
}

/// `PLACE_TILE`, the meeple step (absent when the player had no option at all, §5.3), `COMMIT`.
fn turn_messages(
    after: &Game,
    ids: &mut MeepleIds,
    mv: &Move,
    before: Before,
    events: &[Event],
) -> Result<Vec<Value>, ExportError> {
    let player = before.player;
    let (id, r) = jcz_tile(after.catalog(), mv.tile, mv.placement.rotation)?;
    let mut out = vec![message(
        player,
        "PLACE_TILE",
        json!({"tileId": id, "rotation": format!("R{}", r.degrees()), "position": pos(mv.placement.pos)}),
    )];
    match mv.action {
        Action::Pass if before.had_options => out.push(message(player, "PASS", json!({}))),
        Action::Pass => {}
        Action::RecallAbbot => {
            let pointer = before
                .recalled
                .ok_or(ExportError::Unwritable("the abbot to take back is not on the board"))?;
            out.push(message(
                player,
                "RETURN_MEEPLE",
                json!({"pointer": {"featurePointer": pointer, "meepleId": format!("{player}.abbot.1")}, "source": "ABBOT_RETURN"}),
            ));
        }
        Action::Deploy { segment, .. } => out.push(deploy_message(after, ids, mv, segment, events)?),
    }
    // Meeples come home after scoring; their ids are free for later turns.
    for e in events {
        if let Event::MeepleReturned {
            player,
            figure,
            pos,
            location,
            ..
        } = *e
        {
            ids.returned(player, figure, pos, location);
        }
    }
    out.push(message(player, "COMMIT", json!({"random": 0.0})));
    Ok(out)
}

fn deploy_message(
    game: &Game,
    ids: &mut MeepleIds,
    mv: &Move,
    segment: u8,
    events: &[Event],
) -> Result<Value, ExportError> {
    let Some(&Event::MeepleDeployed {
        player,
        figure,
        feature,
        pos: at,
        location,
    }) = events.iter().find(|e| matches!(e, Event::MeepleDeployed { .. }))
    else {
        return Err(ExportError::Unwritable("the meeple was not deployed"));
    };
    let meeple_id = ids.deploy(player, figure, at, location, feature)?;
    let pointer = json!({
        "position": pos(at),
        "feature": jcz_feature(feature),
        "location": jcz_location(game, mv.tile, mv.placement.rotation, segment),
    });
    Ok(message(
        player,
        "DEPLOY_MEEPLE",
        json!({"pointer": pointer, "meepleId": meeple_id}),
    ))
}

fn message(player: u8, kind: &str, payload: Value) -> Value {
    json!({"type": kind, "payload": payload, "player": player, "clock": 0})
}

fn pos(p: Pos) -> Value {
    json!([p.x, p.y])
}

fn jcz_feature(kind: FeatureKind) -> &'static str {
    match kind {
        FeatureKind::City => "City",
        FeatureKind::Road => "Road",
        FeatureKind::Field => "Field",
        FeatureKind::Cloister => "Monastery",
        FeatureKind::Garden => "Garden",
        FeatureKind::River => "River",
        // New World is never exported to JCloisterZone, which does not play it.
        FeatureKind::Town => "Town",
        FeatureKind::Trail => "Trail",
        FeatureKind::Plains => "Plains",
        FeatureKind::Farm => "Farm",
        FeatureKind::Crossing => "Crossing",
    }
}

/// JCloisterZone's name for a segment of a placed tile, board-oriented (§7): its sides for a
/// city or road, its half-edges for a field, `I` for a cloister or garden.
fn jcz_location(game: &Game, tile: TileKindId, r: Rotation, segment: u8) -> String {
    let kind = game.tile_kind(tile);
    let o = kind.oriented(r);
    let s = segment as usize;
    match kind.segments[s].kind {
        k if k.is_inner() => "I".into(),
        FeatureKind::Field => {
            const HALVES: [&str; 8] = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"];
            let names: Vec<&str> = (0..8)
                .filter(|i| o.halves[s] & (1 << i) != 0)
                .map(|i| HALVES[i])
                .collect();
            names.join(".")
        }
        _ => side_set_name(o.sides[s]).into(),
    }
}

/// One name per set of sides (bit 0 = N, clockwise), as JCloisterZone spells them.
fn side_set_name(mask: u8) -> &'static str {
    const NAMES: [&str; 16] = [
        "", "N", "E", "NE", "S", "NS", "SE", "_W", "W", "NW", "WE", "_S", "SW", "_E", "_N", "NWSE",
    ];
    NAMES[(mask & 15) as usize]
}

/// JCloisterZone names physical meeples (`0.small.3`) and gives each deployment the
/// lowest-numbered one in supply (§8), so the ids follow from who is on the board.
struct MeepleIds {
    free: Vec<BTreeSet<u8>>,
    on_board: HashMap<(Pos, Location), u8>,
    abbots: Vec<Option<(Pos, FeatureKind)>>,
}

impl MeepleIds {
    fn new(players: usize, followers: u8) -> MeepleIds {
        MeepleIds {
            free: vec![(1..=followers).collect(); players],
            on_board: HashMap::new(),
            abbots: vec![None; players],
        }
    }

    fn deploy(
        &mut self,
        player: u8,
        figure: Figure,
        at: Pos,
        location: Location,
        feature: FeatureKind,
    ) -> Result<String, ExportError> {
        let p = player as usize;
        if figure == Figure::Abbot {
            self.abbots[p] = Some((at, feature));
            return Ok(format!("{player}.abbot.1"));
        }
        let n = self.free[p]
            .pop_first()
            .ok_or(ExportError::Unwritable("no follower left in supply"))?;
        self.on_board.insert((at, location), n);
        Ok(format!("{player}.small.{n}"))
    }

    fn returned(&mut self, player: u8, figure: Figure, at: Pos, location: Location) {
        let p = player as usize;
        match figure {
            Figure::Abbot => self.abbots[p] = None,
            Figure::Follower => {
                if let Some(n) = self.on_board.remove(&(at, location)) {
                    self.free[p].insert(n);
                }
            }
        }
    }

    /// Where the player's abbot stands, as a JCloisterZone feature pointer.
    fn abbot_pointer(&self, player: u8) -> Option<Value> {
        let (at, feature) = self.abbots[player as usize]?;
        Some(json!({"position": pos(at), "feature": jcz_feature(feature), "location": "I"}))
    }
}

/// A content hash as the 32 hex digits JCloisterZone uses for game ids, so the same record
/// always gets the same id.
fn game_id(record: &GameRecord) -> String {
    let text = native::canonical_value(record).to_string();
    let fnv = |seed: u64| {
        text.bytes()
            .fold(seed, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
    };
    format!("{:016x}{:016x}", fnv(0xcbf2_9ce4_8422_2325), fnv(0x8422_2325_cbf2_9ce4))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_sets_are_named_as_jcloisterzone_names_them() {
        let name = |sides: &str| {
            let mask = sides.chars().fold(0, |m, c| {
                m | crate::engine::Side::parse(&c.to_string()).expect("a side").bit()
            });
            side_set_name(mask)
        };
        assert_eq!(name("N"), "N");
        assert_eq!(name("NE"), "NE");
        assert_eq!(name("ES"), "SE");
        assert_eq!(name("SW"), "SW");
        assert_eq!(name("NW"), "NW");
        assert_eq!(name("NS"), "NS");
        assert_eq!(name("EW"), "WE");
        assert_eq!(name("ESW"), "_N");
        assert_eq!(name("NSW"), "_E");
        assert_eq!(name("NEW"), "_S");
        assert_eq!(name("NES"), "_W");
        assert_eq!(name("NESW"), "NWSE");
    }
}
