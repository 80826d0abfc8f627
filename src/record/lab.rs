//! Carcassonne Lab links (version 0): a web board whose URL fragment holds a whole base game,
//! as the Board Game Arena community shares tournament games (`/docs/carcassonne-lab`).
//!
//! `https://www.carcassonnelab.com/#/0/0/<stack>/<moves>?players=A,B&colors=red,blue`
//!
//! - `<stack>`: Board Game Arena tile types (1–24) of every placed tile, the start first, as one
//!   base-24 number (digits `type − 1`), written in octal padded to an even length, each pair of
//!   octal digits one character of `STACK_ALPHABET`.
//! - `<moves>`: 4 characters per tile after the start, in `MOVE_ALPHABET`: `|x|`, `|y|`,
//!   `ori − 1` (+16 when x < 0, +32 when y < 0), then BGA's meeple `pos` as a digit (`0`: none).

use super::bga::{self, SPOTS};
use super::{GameRecord, PlayerInfo, RecordError, RecordedAction, RecordedMove, TileSetup};
use crate::engine::{Figure, GameKind, Placement, Pos, Rotation, TileCatalog};
use crate::record::tile_names::{self, System};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};

/// Where links point.
pub const SITE: &str = "https://www.carcassonnelab.com/";
/// The stack's characters, values 0–63.
const STACK_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/// The moves' characters, values 0–57: no `I`, `O` or `l`, which read like `1` and `0`.
const MOVE_ALPHABET: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
/// The colour words and Board Game Arena's colours for them.
pub(crate) const BGA_COLOURS: [(&str, &str); 5] = [
    ("red", "#ff0000"),
    ("blue", "#0000ff"),
    ("green", "#008000"),
    ("yellow", "#ffa500"),
    ("black", "#000000"),
];
/// The start tile's type (D).
const START_TYPE: u8 = 15;
/// The base game's tiles, the start included: the most a link's stack holds.
const MAX_TILES: usize = 72;
/// The tiles a link's moves place: all but the start.
const PLACED: usize = MAX_TILES - 1;
/// The longest moves a link holds: 4 characters per tile placed.
const MAX_MOVE_CHARS: usize = 4 * PLACED;
/// The longest stack a game of [`MAX_TILES`] tiles writes. Reading a stack is a base
/// conversion, quadratic in its length, so a longer one is refused before it starts.
const MAX_STACK_CHARS: usize = 55;
/// Names are percent-encoded in links, commas and spaces included.
const NAME: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.').remove(b'~');

/// Why a link cannot be read, in the link's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LabError {
    #[error("not a Carcassonne Lab link (…carcassonnelab.com/#/0/0/…)")]
    NotALink,
    #[error("version {0:?}: only version 0 links are read")]
    Version(String),
    #[error("the field after the version is {0:?}: only 0, the base game, is read")]
    Variant(String),
    #[error("unexpected {0:?} after the moves")]
    AfterMoves(String),
    /// The stack's length in characters.
    #[error(
        "the stack is {0} characters long; a game of the base game's {MAX_TILES} tiles needs at most {MAX_STACK_CHARS}"
    )]
    StackTooLong(usize),
    /// The character's place in the stack, 1-based.
    #[error("stack character {index} ({char:?}) is not one of A–Z a–z 0–9 - _")]
    StackChar { index: usize, char: char },
    #[error("the stack starts with tile type {0}; it starts with the start tile, type {START_TYPE}")]
    StackStart(u8),
    #[error("the stack is empty; it holds at least the start tile")]
    EmptyStack,
    /// The moves' length in characters.
    #[error(
        "the moves are {0} characters long; the base game's {PLACED} tiles after the start need at most {MAX_MOVE_CHARS}"
    )]
    MovesTooLong(usize),
    /// The move cut short, and the characters it has.
    #[error("move {mv} is truncated: a move is 4 characters, and it has {chars}")]
    Truncated { mv: usize, chars: usize },
    #[error("the stack has {tiles} tiles after the start and the moves place {moves}")]
    MoveCount { tiles: usize, moves: usize },
    /// What is wrong with move `n` (1-based).
    #[error("move {n}: {problem}")]
    Move { n: usize, problem: MoveProblem },
    #[error("no players=…: the link names its players")]
    NoPlayers,
    #[error("players=: 2 to 5 players, not {0}")]
    PlayerCount(usize),
    #[error("colors=: {0:?} is not red, blue, green, yellow or black")]
    Colour(String),
}

/// What is wrong with one move of a link.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveProblem {
    /// The character's place in the move, 1-based.
    #[error("character {index} ({char:?}) is not in the moves' alphabet (1–9, A–Z and a–z without I, O and l)")]
    Char { index: usize, char: char },
    #[error("rotation value {0} is not ori − 1 (+16, +32)")]
    Rotation(i32),
    #[error("tile type {0} is not a base game tile (1 to 24)")]
    TileType(u8),
    #[error("meeple {pos} is not a spot of tile type {ty}")]
    Spot { pos: i64, ty: u8 },
    #[error("the meeple character {0:?} is not a digit")]
    MeepleChar(char),
}

/// The fragment after `#/` of a link, or of a fragment pasted alone.
fn fragment(text: &str) -> Option<&str> {
    let t = text.trim();
    let host = t
        .strip_prefix("https://")
        .or_else(|| t.strip_prefix("http://"))
        .map(|t| t.strip_prefix("www.").unwrap_or(t));
    let rest = match host {
        Some(h) => h.strip_prefix("carcassonnelab.com")?.trim_start_matches('/'),
        None => t,
    };
    rest.strip_prefix("#/")
}

/// Whether text is a Carcassonne Lab link (or its fragment).
pub fn looks_like(text: &str) -> bool {
    fragment(text).is_some()
}

/// Reads a link. The rules are Board Game Arena's: the 2nd edition with farmers.
pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
    read(text).map_err(RecordError::from)
}

fn read(text: &str) -> Result<GameRecord, LabError> {
    let fragment = fragment(text).ok_or(LabError::NotALink)?;
    let (path, query) = fragment.split_once('?').unwrap_or((fragment, ""));
    let mut parts = path.split('/');
    let version = parts.next().unwrap_or_default();
    if version != "0" {
        return Err(LabError::Version(version.to_string()));
    }
    let variant = parts.next().unwrap_or_default();
    if variant != "0" {
        return Err(LabError::Variant(variant.to_string()));
    }
    let types = stack(parts.next().unwrap_or_default())?;
    let moves = parts.next().unwrap_or_default();
    if let Some(extra) = parts.next() {
        return Err(LabError::AfterMoves(extra.to_string()));
    }
    let players = players(query)?;
    let cat = TileCatalog::builtin();
    let n = players.len();
    let moves = placements(&cat, &types, moves)?
        .into_iter()
        .enumerate()
        .map(|(i, (tile, placement, action))| RecordedMove::Place {
            player: Some((i % n) as u8),
            tile,
            placement,
            action,
        })
        .collect();
    let mut record = GameRecord {
        players,
        setup: TileSetup {
            game: GameKind::Carcassonne,
            rules: bga::rules(true),
            custom_tiles: Vec::new(),
            catalog: cat,
            start: Vec::new(),
            score_orders: Default::default(),
            final_scoring: None,
            recorded_scores: None,
        },
        moves,
        annotations: Vec::new(),
    };
    record.canonicalise();
    Ok(record)
}

/// The tile types of the stack, the start first.
fn stack(text: &str) -> Result<Vec<u8>, LabError> {
    if text.len() > MAX_STACK_CHARS {
        return Err(LabError::StackTooLong(text.len()));
    }
    let mut octal = Vec::with_capacity(text.len() * 2);
    for (i, c) in text.bytes().enumerate() {
        let v = (STACK_ALPHABET.iter().position(|&a| a == c)).ok_or(LabError::StackChar {
            index: i + 1,
            char: char::from(c),
        })? as u8;
        octal.extend([v / 8, v % 8]);
    }
    let digits = convert(&octal, 8, 24);
    let types: Vec<u8> = digits.iter().map(|d| d + 1).collect();
    match types.first() {
        Some(&START_TYPE) => Ok(types),
        Some(&t) => Err(LabError::StackStart(t)),
        None => Err(LabError::EmptyStack),
    }
}

/// The digits of a number, most significant first, from base `from` to base `to`, without
/// leading zeros.
fn convert(digits: &[u8], from: u32, to: u32) -> Vec<u8> {
    let mut number: Vec<u32> = digits.iter().map(|&d| u32::from(d)).skip_while(|&d| d == 0).collect();
    let mut out = Vec::new();
    // Long division by `to`, the remainders giving the digits least significant first.
    while !number.is_empty() {
        let mut rest = 0;
        for d in &mut number {
            let value = rest * from + *d;
            *d = value / to;
            rest = value % to;
        }
        out.push(rest as u8);
        let zeros = number.iter().take_while(|&&d| d == 0).count();
        number.drain(..zeros);
    }
    out.reverse();
    out
}

/// The placements the moves give, one per tile after the start.
fn placements(
    cat: &TileCatalog,
    types: &[u8],
    moves: &str,
) -> Result<Vec<(crate::engine::TileKindId, Placement, RecordedAction)>, LabError> {
    let chars = moves.as_bytes();
    if chars.len() > MAX_MOVE_CHARS {
        return Err(LabError::MovesTooLong(chars.len()));
    }
    if !chars.len().is_multiple_of(4) {
        return Err(LabError::Truncated {
            mv: chars.len() / 4 + 1,
            chars: chars.len() % 4,
        });
    }
    let placed = &types[1..];
    if chars.len() / 4 != placed.len() {
        return Err(LabError::MoveCount {
            tiles: placed.len(),
            moves: chars.len() / 4,
        });
    }
    (chars.chunks(4).zip(placed).enumerate())
        .map(|(i, (m, &ty))| one_move(cat, i + 1, m, ty))
        .collect()
}

fn one_move(
    cat: &TileCatalog,
    n: usize,
    m: &[u8],
    ty: u8,
) -> Result<(crate::engine::TileKindId, Placement, RecordedAction), LabError> {
    let fault = |problem| LabError::Move { n, problem };
    let value = |k: usize| {
        (MOVE_ALPHABET.iter().position(|&a| a == m[k]).map(|v| v as i32)).ok_or(fault(MoveProblem::Char {
            index: k + 1,
            char: char::from(m[k]),
        }))
    };
    let (col, row, rot) = (value(0)?, value(1)?, value(2)?);
    if rot >= 64 || rot % 16 >= 4 {
        return Err(fault(MoveProblem::Rotation(rot)));
    }
    let x = if rot & 16 != 0 { -col } else { col };
    let y = if rot & 32 != 0 { -row } else { row };
    let ori = i64::from(rot % 16) + 1;
    let (tile, rotation) = bga::tile_kind(cat, i64::from(ty), ori).ok_or(fault(MoveProblem::TileType(ty)))?;
    let action = match m[3] {
        b'0' => RecordedAction::Pass,
        c @ b'1'..=b'9' => {
            let pos = i64::from(c - b'0');
            let (feature, at) =
                bga::spot_on_board(i64::from(ty), ori, pos).ok_or(fault(MoveProblem::Spot { pos, ty }))?;
            RecordedAction::Deploy {
                feature,
                at,
                figure: Figure::Follower,
            }
        }
        c => return Err(fault(MoveProblem::MeepleChar(char::from(c)))),
    };
    Ok((
        tile,
        Placement {
            pos: Pos::new(x, y),
            rotation,
        },
        action,
    ))
}

/// The players and their colours from the query.
fn players(query: &str) -> Result<Vec<PlayerInfo>, LabError> {
    let param = |key: &str| (query.split('&')).find_map(|kv| kv.strip_prefix(key).and_then(|v| v.strip_prefix('=')));
    // At most one entry per player is read: colours past the players' are never looked at.
    let decoded = |list: &str, count: usize| -> Vec<String> {
        (list.split(',').take(count))
            .map(|s| percent_decode_str(s).decode_utf8_lossy().into_owned())
            .collect()
    };
    let names = param("players").ok_or(LabError::NoPlayers)?;
    // Counted before any is decoded: a link of a million commas is refused as cheaply.
    let count = names.split(',').count();
    if !(2..=5).contains(&count) {
        return Err(LabError::PlayerCount(count));
    }
    let names = decoded(names, count);
    let colours: Vec<String> = param("colors").map(|c| decoded(c, count)).unwrap_or_default();
    names
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let colour = match colours.get(i) {
                None => None,
                Some(word) => Some(
                    (BGA_COLOURS.iter().find(|(w, _)| w == word))
                        .map(|(_, hex)| hex.to_string())
                        .ok_or_else(|| LabError::Colour(word.clone()))?,
                ),
            };
            Ok(PlayerInfo {
                name,
                colour,
                bga_id: None,
            })
        })
        .collect()
}

/// Why a game has no Carcassonne Lab link.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoLink {
    #[error("Carcassonne Lab plays the base game only, not {0}")]
    Game(&'static str),
    #[error("Carcassonne Lab links hold 2 to 5 players")]
    Players,
    #[error("Carcassonne Lab plays Board Game Arena's rules (2nd edition, with farmers), not {0}")]
    Rules(String),
    #[error("Carcassonne Lab links start from the start tile alone")]
    Start,
    #[error("Carcassonne Lab links cannot hold a discarded tile (move {0})")]
    Discard(usize),
    #[error("move {0}: Carcassonne Lab has no tile {1}")]
    Tile(usize, String),
    #[error("move {0}: Carcassonne Lab links hold one meeple kind, and turns in player order")]
    Move(usize),
}

/// The link of a base game: the start tile alone at the start, then every placement in player
/// order, meeples as Board Game Arena's spots.
pub fn to_link(record: &GameRecord) -> Result<String, NoLink> {
    if record.setup.game != GameKind::Carcassonne {
        return Err(NoLink::Game(record.setup.game.title()));
    }
    let n = record.players.len();
    if !(2..=5).contains(&n) {
        return Err(NoLink::Players);
    }
    let rules = record.resolved_rules();
    let lab = bga::rules(true).resolve();
    // The tile printing does not matter: a tile Carcassonne Lab lacks (a garden) is refused below.
    let same_printing = crate::engine::Rules {
        edition: lab.edition,
        ..rules
    };
    if same_printing != lab {
        return Err(NoLink::Rules(super::rules_spec::label(&rules)));
    }
    if !record.setup.start.is_empty() {
        return Err(NoLink::Start);
    }
    let cat = &record.setup.catalog;
    let mut types = vec![START_TYPE];
    let mut moves = String::new();
    for (i, m) in record.moves.iter().enumerate() {
        let RecordedMove::Place {
            player,
            tile,
            placement,
            action,
        } = m
        else {
            return Err(NoLink::Discard(i + 1));
        };
        if player.is_some_and(|p| usize::from(p) != i % n) {
            return Err(NoLink::Move(i + 1));
        }
        let (name, k) =
            tile_names::name_of(cat, System::Bga, *tile).ok_or_else(|| NoLink::Tile(i + 1, cat.name(*tile).into()))?;
        let ty: u8 = name.parse().expect("BGA names are type numbers");
        let ori = placement.rotation.minus(k).quarter_turns() + 1;
        let pos = meeple_pos(record, *tile, placement.rotation, ty, ori, action).ok_or(NoLink::Move(i + 1))?;
        let Pos { x, y } = placement.pos;
        let rot = i32::from(ori - 1) + if x < 0 { 16 } else { 0 } + if y < 0 { 32 } else { 0 };
        for v in [x.abs(), y.abs(), rot] {
            moves.push(char::from(*MOVE_ALPHABET.get(v as usize).ok_or(NoLink::Move(i + 1))?));
        }
        moves.push(char::from(b'0' + pos));
        types.push(ty);
    }
    Ok(format!(
        "{SITE}#/0/0/{}/{moves}?players={}&colors={}",
        stack_text(&types),
        names(record),
        colour_words(record)
    ))
}

/// BGA's spot for a recorded meeple step: the spot on the same segment of the tile.
fn meeple_pos(
    record: &GameRecord,
    tile: crate::engine::TileKindId,
    rotation: Rotation,
    ty: u8,
    ori: u8,
    action: &RecordedAction,
) -> Option<u8> {
    let (feature, at) = match action {
        RecordedAction::Pass => return Some(0),
        RecordedAction::Deploy {
            feature,
            at,
            figure: Figure::Follower,
        } => (*feature, *at),
        _ => return None,
    };
    let kind = record.setup.catalog.get(tile);
    let segment = kind.segment_at(rotation, feature, Some(at))?;
    (1..=SPOTS[usize::from(ty) - 1].len() as u8).find(|&pos| {
        bga::spot_on_board(i64::from(ty), i64::from(ori), i64::from(pos))
            .is_some_and(|(f, a)| f == feature && kind.segment_at(rotation, f, Some(a)) == Some(segment))
    })
}

fn stack_text(types: &[u8]) -> String {
    let digits: Vec<u8> = types.iter().map(|t| t - 1).collect();
    let mut octal = convert(&digits, 24, 8);
    if !octal.len().is_multiple_of(2) {
        octal.insert(0, 0);
    }
    octal
        .chunks(2)
        .map(|p| char::from(STACK_ALPHABET[usize::from(p[0] * 8 + p[1])]))
        .collect()
}

fn names(record: &GameRecord) -> String {
    let names: Vec<String> = (record.players.iter())
        .map(|p| utf8_percent_encode(&p.name, NAME).to_string())
        .collect();
    names.join(",")
}

/// The players' colour words: their own where Carcassonne Lab has them, else the usual order.
fn colour_words(record: &GameRecord) -> String {
    let own: Option<Vec<&str>> = (record.players.iter())
        .map(|p| {
            let hex = p.colour.as_deref()?;
            BGA_COLOURS
                .iter()
                .find(|(_, h)| h.eq_ignore_ascii_case(hex))
                .map(|(w, _)| *w)
        })
        .collect();
    own.unwrap_or_else(|| BGA_COLOURS.iter().take(record.players.len()).map(|(w, _)| *w).collect())
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cap on a stack's length is what the longest base game writes: its 72 tiles, each of
    /// the highest type, need exactly [`MAX_STACK_CHARS`] characters.
    #[test]
    fn the_longest_game_fits_the_stack_cap_exactly() {
        let mut types = vec![START_TYPE];
        types.extend([24; MAX_TILES - 1]);
        let text = stack_text(&types);
        assert_eq!(text.len(), MAX_STACK_CHARS);
        assert_eq!(stack(&text).unwrap(), types);
        let longer = format!("A{text}");
        assert_eq!(stack(&longer), Err(LabError::StackTooLong(MAX_STACK_CHARS + 1)));
    }
}
