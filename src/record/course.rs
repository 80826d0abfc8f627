//! Course notation: a plain-text record in the style of the CMSC 22001 course rules
//! (`rules/course-cmsc22001.txt`), with the course's tile names (`CRFR50`), rotations 0–3 and
//! meeples addressed by an edge of the tile and an index along it. The grammar is in the
//! reference (`/docs/course-notation`); `static/games/course-example.txt` is a whole game.
//!
//! ```text
//! players: Ann, Bob
//! CFFF50 2 0 -1 bottom     # tile, rotation, x, y, meeple
//! discard CCCCS50
//! RFRF50 1 1 0 right 1
//! end
//! ```

use super::tile_names::{self, System};
use super::{Format, GameRecord, PlayerInfo, RecordError, RecordedAction, RecordedMove, RulesSpec, TileSetup};
use crate::engine::{Edge, FeatureKind, Figure, Location, Placement, Pos, Preset, Rotation, Side};
use crate::engine::{GameKind, TileCatalog, TileKindId};

fn err(line: usize, msg: impl std::fmt::Display) -> RecordError {
    RecordError::invalid(Format::Course, format!("line {line}: {msg}"))
}

/// The statements of a text, numbered by line, without comments and blank lines.
fn statements(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or_default().trim()))
        .filter(|(_, l)| !l.is_empty())
}

/// Whether a text is course notation: its first statement names the players.
pub fn looks_like(text: &str) -> bool {
    statements(text).next().is_some_and(|(_, s)| s.starts_with("players:"))
}

pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
    let cat = TileCatalog::builtin();
    let mut lines = statements(text);
    let (n, first) = lines.next().ok_or_else(|| err(1, "the record is empty"))?;
    let players = parse_players(n, first)?;
    let mut record = GameRecord {
        players,
        setup: TileSetup {
            game: GameKind::Carcassonne,
            rules: RulesSpec::new(Preset::Course),
            custom_tiles: Vec::new(),
            catalog: cat.clone(),
            start: Vec::new(),
            score_orders: Default::default(),
            final_scoring: None,
            recorded_scores: None,
        },
        moves: Vec::new(),
        annotations: Vec::new(),
    };
    for (n, line) in lines {
        if record.setup.final_scoring.is_some() {
            return Err(err(n, "nothing may follow \"end\""));
        }
        statement(&mut record, &cat, n, line)?;
    }
    record.canonicalise();
    Ok(record)
}

fn parse_players(n: usize, line: &str) -> Result<Vec<PlayerInfo>, RecordError> {
    let names = line.strip_prefix("players:").unwrap_or(line);
    let players: Vec<PlayerInfo> = names
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(PlayerInfo::named)
        .collect();
    if players.is_empty() || players.len() > 6 {
        return Err(err(
            n,
            format!("a game has 1 to 6 players, separated by commas, not {}", players.len()),
        ));
    }
    Ok(players)
}

fn statement(record: &mut GameRecord, cat: &TileCatalog, n: usize, line: &str) -> Result<(), RecordError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["rules:", preset] if record.moves.is_empty() => {
            let preset = Preset::parse(preset).ok_or_else(|| {
                let names: Vec<_> = Preset::ALL.iter().map(|p| p.name()).collect();
                err(
                    n,
                    format!("unknown preset {preset:?}; the presets are {}", names.join(", ")),
                )
            })?;
            record.setup.rules = RulesSpec::new(preset);
        }
        ["rules:", ..] => return Err(err(n, "\"rules:\" names one preset, before the first move")),
        ["end"] => record.setup.final_scoring = Some(true),
        ["discard", tile] => {
            let tile = tile_kind(cat, n, tile)?.kind;
            record.moves.push(RecordedMove::Discard { player: None, tile });
        }
        [tile, rotation, x, y, meeple @ ..] => record.moves.push(placement(cat, n, tile, rotation, x, y, meeple)?),
        _ => {
            return Err(err(
                n,
                format!("{line:?} is not a move: expected TILE ROTATION X Y [MEEPLE], \"discard TILE\" or \"end\""),
            ));
        }
    }
    Ok(())
}

fn tile_kind(cat: &TileCatalog, n: usize, name: &str) -> Result<tile_names::Alias, RecordError> {
    tile_names::resolve(cat, System::Course, name).ok_or_else(|| {
        err(
            n,
            format!("unknown tile {name:?}: course names spell the edges N E S W (C, R, F), then S for a shield, L for a cloister, then 50, e.g. CRFR50"),
        )
    })
}

fn placement(
    cat: &TileCatalog,
    n: usize,
    tile: &str,
    rotation: &str,
    x: &str,
    y: &str,
    meeple: &[&str],
) -> Result<RecordedMove, RecordError> {
    let alias = tile_kind(cat, n, tile)?;
    let quarter_turns: u8 = rotation.parse().ok().filter(|r| *r < 4).ok_or_else(|| {
        err(
            n,
            format!("rotation is 0, 1, 2 or 3 quarter turns clockwise, not {rotation:?}"),
        )
    })?;
    let coord = |s: &str, axis: &str| {
        s.parse::<i32>()
            .map_err(|_| err(n, format!("{axis} {s:?} is not an integer")))
    };
    let rotation = Rotation::new(quarter_turns).plus(alias.offset);
    let action = match meeple {
        [] => RecordedAction::Pass,
        words => meeple_action(cat, n, alias.kind, rotation, words)?,
    };
    Ok(RecordedMove::Place {
        player: None,
        tile: alias.kind,
        placement: Placement {
            pos: Pos::new(coord(x, "x")?, coord(y, "y")?),
            rotation,
        },
        action,
    })
}

/// `center`, or an edge of the placed tile and an index along it, counted clockwise: on a
/// road edge 0 and 2 are the fields either side of the road and 1 (the default) the road; a
/// city or field edge is one region, 0.
fn meeple_action(
    cat: &TileCatalog,
    n: usize,
    tile: TileKindId,
    r: Rotation,
    words: &[&str],
) -> Result<RecordedAction, RecordError> {
    let kind = cat.get(tile);
    let deploy = |feature, at| {
        Ok(RecordedAction::Deploy {
            feature,
            at,
            figure: Figure::Follower,
        })
    };
    let (edge, index) = match words {
        ["center"] if kind.has(FeatureKind::Cloister) => return deploy(FeatureKind::Cloister, Location::Center),
        ["center"] => return Err(err(n, format!("{} has no cloister to stand on", cat.name(tile)))),
        [edge] => (*edge, None),
        [edge, index] => (*edge, Some(*index)),
        _ => {
            return Err(err(
                n,
                format!(
                    "{:?} is not a meeple place such as \"top\", \"left 2\" or \"center\"",
                    words.join(" ")
                ),
            ));
        }
    };
    let side = edge_side(n, edge)?;
    let halves = side.halves();
    match (kind.oriented(r).edge(side), index) {
        (Edge::City, None | Some("0")) => deploy(FeatureKind::City, Location::Side(side)),
        (Edge::Road, None | Some("1")) => deploy(FeatureKind::Road, Location::Side(side)),
        (Edge::Road, Some("0")) | (Edge::Field, None | Some("0")) => {
            deploy(FeatureKind::Field, Location::Half(halves[0]))
        }
        (Edge::Road, Some("2")) => deploy(FeatureKind::Field, Location::Half(halves[1])),
        (edge, Some(i)) => Err(err(
            n,
            format!(
                "the {} on the {} edge has no region {i} (a road edge has 0, 1, 2; others only 0)",
                edge.word(),
                edge_word(side)
            ),
        )),
        (edge, None) => Err(err(n, format!("a meeple cannot stand on the {} edge", edge.word()))),
    }
}

fn edge_side(n: usize, edge: &str) -> Result<Side, RecordError> {
    Ok(match edge {
        "top" => Side::N,
        "right" => Side::E,
        "bottom" => Side::S,
        "left" => Side::W,
        other => {
            return Err(err(
                n,
                format!("{other:?} is not an edge: top, right, bottom, left (or center)"),
            ));
        }
    })
}

fn edge_word(side: Side) -> &'static str {
    match side {
        Side::N => "top",
        Side::E => "right",
        Side::S => "bottom",
        Side::W => "left",
    }
}
