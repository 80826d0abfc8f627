//! Game records: every outside format parses into one canonical [`Record<G>`](Record) of its
//! game `G` ([`GameRecord`] for the tile games, `Record<CardGame>` for the Card Game), and
//! exports are written from it. A record that exists is well-formed (tiles resolved, locations
//! parsed); whether its moves are legal is the engine's business.
//!
//! From a caller's side:
//! - [`parse`] reads every tile-game format, detected from the content
//!   ([`Format`]: native JSON, `.jcz`, BGA logs, course notation, Carcassonne Lab links);
//!   [`parse_any`] reads a Card Game record too.
//! - [`Walk`] steps a record through the engine move by move: `game()` is the position before
//!   the next move, `step()` plays it, `events()` says what it did. An illegal move is a
//!   [`ReplayError`] holding the turn, the player, the move and the rule as data;
//!   `describe(&GameRecord)` puts it in words.
//! - Downstream, `replay::verify::recorded_scores` checks a replay against the scores a
//!   record carries (`TileSetup::recorded_scores`, from BGA), and `export::jcz::to_value`,
//!   `export::jcz::to_string` and `export::csv::scoring_csv` write a record out.

mod annotations;
pub mod bga;
pub mod cards;
pub mod course;
pub mod jcz;
pub mod lab;
mod line;
mod loose;
pub mod native;
pub(crate) mod quote;
pub(crate) mod rules_spec;
pub(crate) mod shown_text;
mod strict_json;
pub mod tile_names;
mod walk;

use crate::engine::cards::CardGame;
use crate::engine::{
    Action, FeatureKind, FeatureRef, Figure, Game, GameKind, IllegalMove, Location, Placement, Pos, Rules, Setup,
    StartTile, TileCatalog, TileKindId,
};
use std::collections::BTreeMap;
use std::sync::Arc;

pub use crate::engine::Played;
pub use annotations::{Annotation, AnnotationError};
pub use line::{Line, LineError, LineProblem, TileLine, TileStep};
pub use rules_spec::RulesSpec;
pub use walk::{ReplayError, Step, Walk, move_text, recorded};

/// Largest record we read: far above any real game (a 72-turn `.jcz` is about 40 KB).
pub const MAX_RECORD_BYTES: usize = 4 * 1024 * 1024;
/// Custom tile kinds a record may define. New World, the largest set we expect, has fewer than
/// a hundred; the cap bounds the work one upload can ask of every page.
pub const MAX_CUSTOM_KINDS: usize = 256;
/// Custom tiles (copies of all kinds together) a record may add to the pack.
pub const MAX_CUSTOM_TILES: u32 = 512;
/// Characters in a player's name.
pub const MAX_NAME_CHARS: usize = 64;
/// Characters in the name of a tile a record defines: the names go into every error and
/// caption about the tile.
pub const MAX_TILE_NAME_CHARS: usize = 40;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerInfo {
    pub name: String,
    /// A display colour as `#rrggbb`, when the source names one (Board Game Arena does).
    pub colour: Option<String>,
    /// Board Game Arena's player id, when the record comes from there. Not part of the native
    /// record (nor of the game's id): it is kept beside the game, in the store's player rows.
    pub bga_id: Option<u64>,
}

impl PlayerInfo {
    pub fn named(name: impl Into<String>) -> PlayerInfo {
        PlayerInfo {
            name: name.into(),
            colour: None,
            bga_id: None,
        }
    }
}

/// A tile kind a record defines itself, in the segment spec language of `engine::tileset`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustomTile {
    pub name: String,
    pub count: u8,
    pub segments: String,
}

/// The meeple step as a record states it: which feature, addressed by a place on the tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordedAction {
    Pass,
    Deploy {
        feature: FeatureKind,
        at: Location,
        figure: Figure,
    },
    RecallAbbot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordedMove {
    Place {
        /// The player the record names, checked against turn order when present.
        player: Option<u8>,
        tile: TileKindId,
        placement: Placement,
        action: RecordedAction,
    },
    /// A drawn tile with no legal placement, set aside; the same player draws again.
    Discard { player: Option<u8>, tile: TileKindId },
}

impl RecordedMove {
    pub fn tile(&self) -> TileKindId {
        match self {
            RecordedMove::Place { tile, .. } | RecordedMove::Discard { tile, .. } => *tile,
        }
    }
}

/// A game's record, whichever game it is: who played, what the record says of the game besides
/// its moves (its `setup`), every move as written, and its owner's comments. `G` is the game's
/// position type: [`GameRecord`] is `Record<Game>`, the Card Game's `Record<CardGame>`.
pub struct Record<G: Recorded> {
    pub players: Vec<PlayerInfo>,
    pub setup: G::Setup,
    pub moves: Vec<G::Move>,
    /// Its owner's comments on its turns (native records only), which the game's id never
    /// hashes.
    pub annotations: Vec<Annotation>,
}

/// A game as its records write it: what a record says of it besides its moves, and a move.
pub trait Recorded {
    type Setup: Clone + std::fmt::Debug;
    type Move: Clone + std::fmt::Debug + PartialEq;
}

// Written out, as a derive would ask `G` itself (a position) to be cloned and compared.
impl<G: Recorded> Clone for Record<G> {
    fn clone(&self) -> Record<G> {
        Record {
            players: self.players.clone(),
            setup: self.setup.clone(),
            moves: self.moves.clone(),
            annotations: self.annotations.clone(),
        }
    }
}

impl<G: Recorded> std::fmt::Debug for Record<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (f.debug_struct("Record"))
            .field("players", &self.players)
            .field("setup", &self.setup)
            .field("moves", &self.moves)
            .field("annotations", &self.annotations)
            .finish()
    }
}

impl<G: Recorded> PartialEq for Record<G>
where
    G::Setup: PartialEq,
{
    fn eq(&self, other: &Record<G>) -> bool {
        (&self.players, &self.setup, &self.moves, &self.annotations)
            == (&other.players, &other.setup, &other.moves, &other.annotations)
    }
}

/// The canonical record of a tile game.
pub type GameRecord = Record<Game>;

impl Recorded for Game {
    type Setup = TileSetup;
    type Move = RecordedMove;
}

/// What a tile game's record says besides its players, moves and comments.
#[derive(Clone, Debug)]
pub struct TileSetup {
    /// Which game of the family this is.
    pub game: GameKind,
    pub rules: RulesSpec,
    pub custom_tiles: Vec<CustomTile>,
    /// The built-in tiles plus `custom_tiles`.
    pub catalog: Arc<TileCatalog>,
    /// Empty means the rules' default start.
    pub start: Vec<StartTile>,
    /// New World: the order in which a move's completed features score, where the record
    /// states it, by move index (`Game::choose_score_order`).
    pub score_orders: BTreeMap<usize, Vec<FeatureRef>>,
    /// Whether final scoring runs after the last move. `None`: when the pack is empty.
    pub final_scoring: Option<bool>,
    /// Scores the source itself recorded (Board Game Arena logs), to check our engine against
    /// with `replay::verify::recorded_scores`. No export writes them.
    pub recorded_scores: Option<RecordedScores>,
}

/// Scores as another program computed them while the game was played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordedScores {
    /// Who computed them, for messages.
    pub source: &'static str,
    /// Every player's score after each placed tile's scoring, in placement order; `None` for a
    /// turn the source did not finish recording.
    pub turns: Vec<Option<Vec<i32>>>,
    /// The source's running totals after its last award of final scoring: each award of the
    /// end is checked through them, not only the result.
    pub running_after_end: Option<Vec<i32>>,
    /// After final scoring, when the source got that far.
    pub final_scores: Option<Vec<i32>>,
    /// Per player, points by category: road, city, cloister, field.
    pub categories: Option<Vec<[i32; 4]>>,
}

impl RecordedAction {
    /// The engine's form of this meeple step for `tile` placed at `p`: finds the segment the
    /// record addresses by feature and place.
    pub fn resolve(self, game: &Game, tile: TileKindId, p: Placement) -> Result<Action, IllegalMove> {
        Ok(match self {
            RecordedAction::Pass => Action::Pass,
            RecordedAction::RecallAbbot => Action::RecallAbbot,
            RecordedAction::Deploy { feature, at, figure } => {
                let segment = game.tile_kind(tile).segment_at(p.rotation, feature, Some(at)).ok_or(
                    IllegalMove::NoSuchSegment {
                        kind: feature,
                        at: at.to_string(),
                    },
                )?;
                Action::Deploy { segment, figure }
            }
        })
    }
}

impl GameRecord {
    /// Tiles placed by the record's moves (discards excluded): the number of turns.
    pub fn turns(&self) -> u32 {
        self.moves
            .iter()
            .filter(|m| matches!(m, RecordedMove::Place { .. }))
            .count() as u32
    }

    /// The index among the moves of the one that placed tile `n` (from 1), the discards before
    /// it counted; `None` past the last.
    pub fn placing(&self, n: u32) -> Option<usize> {
        let mut placed = 0;
        self.moves.iter().position(|m| {
            placed += u32::from(matches!(m, RecordedMove::Place { .. }));
            placed == n
        })
    }

    /// Tiles in the whole game: the base game, The River when it is played, and the record's
    /// own. No square of the game lies further than this from the start on either axis.
    pub fn tiles_in_game(&self) -> u32 {
        let rules = self.resolved_rules();
        let mut counts = crate::engine::tileset::base_counts(&self.setup.catalog, rules.edition);
        if rules.river {
            counts.extend(crate::engine::tileset::river_counts(&self.setup.catalog, rules.edition));
        }
        let custom: u32 = self.setup.custom_tiles.iter().map(|t| u32::from(t.count)).sum();
        counts.iter().map(|(_, n)| u32::from(*n)).sum::<u32>() + custom
    }

    /// Checks what no format's parser can: names of a sane length, no more moves than tiles,
    /// and every square within reach of the start. Coordinates far outside would only make the board grow for nothing.
    pub fn check_limits(&self) -> Result<(), LimitError> {
        check_names(&self.players)?;
        let tiles = self.tiles_in_game();
        if self.moves.len() > tiles as usize {
            return Err(LimitError::TooManyMoves {
                moves: self.moves.len(),
                tiles,
            });
        }
        let reach = i64::from(tiles);
        let far = |p: Pos| i64::from(p.x).abs() > reach || i64::from(p.y).abs() > reach;
        let out_of_reach = |what: String, pos: Pos| LimitError::OutOfReach { what, pos, reach };
        for (i, s) in self.setup.start.iter().enumerate() {
            if far(s.placement.pos) {
                return Err(out_of_reach(format!("start tile {}", i + 1), s.placement.pos));
            }
        }
        for (i, m) in self.moves.iter().enumerate() {
            if let RecordedMove::Place { tile, placement, .. } = m
                && far(placement.pos)
            {
                let what = format!("move {} (tile {})", i + 1, self.setup.catalog.name(*tile));
                return Err(out_of_reach(what, placement.pos));
            }
        }
        for (i, order) in &self.setup.score_orders {
            if let Some((j, r)) = order.iter().enumerate().find(|(_, r)| far(r.pos)) {
                let what = format!("move {}: score_order entry {} (the {})", i + 1, j + 1, r.kind);
                return Err(out_of_reach(what, r.pos));
            }
        }
        Ok(())
    }

    /// The engine setup this record describes, under its own rules.
    pub fn setup(&self) -> Setup {
        Setup {
            rules: self.resolved_rules(),
            catalog: Arc::clone(&self.setup.catalog),
            players: self.players.len() as u8,
            start: self.setup.start.clone(),
            start_squares: Vec::new(),
            extra_tiles: self.custom_pack(),
        }
    }

    pub fn resolved_rules(&self) -> Rules {
        self.setup.rules.resolve()
    }

    pub fn custom_pack(&self) -> Vec<(TileKindId, u8)> {
        self.setup
            .custom_tiles
            .iter()
            .filter_map(|t| self.setup.catalog.by_name(&t.name).map(|id| (id, t.count)))
            .collect()
    }

    /// Writes the record in one way among the several that say the same: every move names its
    /// player (by turn order, where the source did not), and every meeple is addressed by the
    /// first place of its segment, clockwise from the north (a road from west to east is at
    /// `E`). Importers call it, so the same game reads the same from any format.
    pub fn canonicalise(&mut self) {
        let players = self.players.len().max(1);
        let mut placed = 0;
        for m in &mut self.moves {
            let turn_order = Some((placed % players) as u8);
            match m {
                RecordedMove::Discard { player, .. } => *player = player.or(turn_order),
                RecordedMove::Place {
                    player,
                    tile,
                    placement,
                    action,
                } => {
                    *player = player.or(turn_order);
                    placed += 1;
                    if let RecordedAction::Deploy { feature, at, .. } = action {
                        let kind = self.setup.catalog.get(*tile);
                        if let Some(seg) = kind.segment_at(placement.rotation, *feature, Some(*at)) {
                            *at = kind.location_of(placement.rotation, seg);
                        }
                    }
                }
            }
        }
    }
}

/// The formats we read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Native,
    Jcz,
    Bga,
    Course,
    Lab,
}

/// Every way an upload is read, in the order they are tried, as an unreadable upload's answer
/// lists them.
pub const FORMATS_TRIED: [&str; 5] = [
    "course notation (starting with \"players:\")",
    "a Carcassonne Lab link",
    "carcassonne-replay JSON (\"format\": \"carcassonne-replay/1\", any game)",
    "a JCloisterZone .jcz save",
    "a Board Game Arena log",
];

/// [`FORMATS_TRIED`] as a sentence, for messages.
const TRIED: &str = "tried: course notation (starting with \"players:\"), a Carcassonne Lab link, \
                     carcassonne-replay JSON (\"format\": \"carcassonne-replay/1\", any game), \
                     a JCloisterZone .jcz save and a Board Game Arena log";

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Native => "carcassonne-replay JSON",
            Format::Jcz => "JCloisterZone .jcz",
            Format::Bga => "Board Game Arena log",
            Format::Course => "course notation",
            Format::Lab => "Carcassonne Lab link",
        }
    }
}

/// Names of a sane length, in the records of every game.
fn check_names(players: &[PlayerInfo]) -> Result<(), LimitError> {
    for (i, p) in players.iter().enumerate() {
        let chars = p.name.chars().count();
        if chars > MAX_NAME_CHARS {
            return Err(LimitError::NameTooLong { player: i + 1, chars });
        }
    }
    Ok(())
}

/// What no format's parser checks and a record must keep to (`GameRecord::check_limits`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    #[error("player {player}: the name is {chars} characters long; the limit is {MAX_NAME_CHARS}")]
    NameTooLong { player: usize, chars: usize },
    #[error(
        "the record has {moves} moves, but a game of {tiles} tiles has at most {tiles}: each move places or discards one"
    )]
    TooManyMoves { moves: usize, tiles: u32 },
    #[error(
        "{what} at {pos} is out of reach: a game of {reach} tiles never lies more than {reach} squares from the start"
    )]
    OutOfReach { what: String, pos: Pos, reach: i64 },
}

/// Why bytes are not a game record.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("the record is {size} bytes; the limit is {MAX_RECORD_BYTES} bytes")]
    TooLarge { size: usize },
    #[error("the record is empty")]
    Empty,
    #[error("the record is not valid JSON: {0}; {TRIED}")]
    Json(#[from] serde_json::Error),
    #[error("the record is not UTF-8 text; {TRIED}")]
    NotText,
    #[error("unrecognised record: JSON, but in none of the formats read here; {TRIED}")]
    Unrecognised,
    /// Text that is no record at all: not JSON (no `{` opens it), nor a link or notation.
    #[error(
        "this text is no game record: it is not JSON (a record opens with {{), a Carcassonne Lab link or the course notation; {TRIED}"
    )]
    NotARecord,
    /// A Board Game Arena page's address instead of its log.
    #[error("{}", bga_address_words(*.table))]
    BgaAddress { table: Option<u64> },
    #[error("{format}: {message}")]
    Invalid { format: &'static str, message: String },
    /// A `.jcz` save that cannot be read.
    #[error("{}: {}", Format::Jcz.name(), quote::shorten_quotes(&.0.to_string()))]
    Jcz(#[from] jcz::JczError),
    /// A Board Game Arena log that cannot be read.
    #[error("{}: {}", Format::Bga.name(), quote::shorten_quotes(&.0.to_string()))]
    Bga(#[from] bga::BgaError),
    /// A Carcassonne Lab link that cannot be read.
    #[error("{}: {}", Format::Lab.name(), quote::shorten_quotes(&.0.to_string()))]
    Lab(#[from] lab::LabError),
    /// A native record that cannot be read.
    #[error("{}: {}", Format::Native.name(), quote::shorten_quotes(&.0.to_string()))]
    Native(#[from] native::NativeError),
    /// A Card Game record that cannot be read.
    #[error("{}: {}", Format::Native.name(), quote::shorten_quotes(&.0.to_string()))]
    Cards(#[from] cards::ReadError),
    /// An importer that reads moves the engine must judge before it can finish (a `.jcz`
    /// meeple on another square than its tile) found an illegal one: the record read so far,
    /// and the first rule it breaks, so that the error names the turn and player like any
    /// replay's.
    #[error("{format}: {}", .illegal.1.describe(&.illegal.0))]
    Illegal {
        format: &'static str,
        illegal: Box<(GameRecord, ReplayError)>,
    },
}

/// What to do with a pasted Board Game Arena address.
fn bga_address_words(table: Option<u64>) -> String {
    let what = match table {
        Some(t) => format!("the address of Board Game Arena table {t}, not its game log"),
        None => "a Board Game Arena address, not a game log".to_string(),
    };
    format!(
        "this is {what}. Board Game Arena gives a table's log only to its logged-in players, so this site cannot \
         fetch it: open the finished table on Board Game Arena and click the bookmarklet from /bga, which fetches \
         the log and uploads it here (or saves it as a file to upload)"
    )
}

impl RecordError {
    /// The formats an upload was tried against, when it was read as none of them (for an
    /// answer to list); empty when a format was recognised and found wanting.
    pub fn formats_tried(&self) -> &'static [&'static str] {
        match self {
            RecordError::Json(_) | RecordError::NotText | RecordError::Unrecognised | RecordError::NotARecord => {
                &FORMATS_TRIED
            }
            _ => &[],
        }
    }

    /// The message's quotes of the record are cut short (`quote::shorten_quotes`).
    pub fn invalid(format: Format, message: impl Into<String>) -> RecordError {
        RecordError::Invalid {
            format: format.name(),
            message: quote::shorten_quotes(&message.into()),
        }
    }
}

/// A record of any game of the family.
#[derive(Clone, Debug)]
pub enum AnyRecord {
    /// The tile games (Carcassonne, New World), in whatever format they came.
    Tiles(GameRecord, Format),
    /// The Card Game (native JSON only).
    Cards(Record<CardGame>),
}

impl AnyRecord {
    /// The format the record came in: the Card Game is read from native JSON only.
    pub fn format(&self) -> Format {
        match self {
            AnyRecord::Tiles(_, format) => *format,
            AnyRecord::Cards(_) => Format::Native,
        }
    }

    /// The game the record is of.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyRecord::Tiles(record, _) => record.setup.game,
            AnyRecord::Cards(_) => GameKind::CardGame,
        }
    }
}

/// Evaluates `$body` with `$r` bound to the record inside `$record` (an [`AnyRecord`], owned or
/// borrowed) as its own game's type, `GameRecord` or `Record<CardGame>`. A layer's trait has one
/// implementation per game, and a record of any game reaches its game's through here, once per
/// trait, as shakmaty's `VariantPosition::borrow` does:
/// `record::dispatch!(record, r => r as &dyn Drawable)`.
macro_rules! dispatch {
    ($record:expr, $r:ident => $body:expr) => {
        match $record {
            $crate::record::AnyRecord::Tiles($r, _) => $body,
            $crate::record::AnyRecord::Cards($r) => $body,
        }
    };
}
pub(crate) use dispatch;

/// Evaluates `$body` with the type `$R` standing for the record of the game `$kind` names,
/// `GameRecord` (the tile games) or `Record<CardGame>`: [`dispatch!`]'s counterpart for what a layer
/// does per game before it holds a record, such as generating one or reading back a stored
/// turn. `record::dispatch_kind!(kind, R => R::generate(…))`.
macro_rules! dispatch_kind {
    ($kind:expr, $R:ident => $body:expr) => {
        match $kind {
            $crate::engine::GameKind::Carcassonne | $crate::engine::GameKind::NewWorld => {
                type $R = $crate::record::GameRecord;
                $body
            }
            $crate::engine::GameKind::CardGame => {
                type $R = $crate::record::Record<$crate::engine::cards::CardGame>;
                $body
            }
        }
    };
}
pub(crate) use dispatch_kind;

/// Like [`parse`], and also reads Card Game records (which only the command line replays so
/// far).
pub fn parse_any(bytes: &[u8]) -> Result<AnyRecord, RecordError> {
    if bytes.len() <= MAX_RECORD_BYTES
        && let Ok(text) = std::str::from_utf8(bytes)
        && let Ok(value) = strict_json::from_str(text.trim_start_matches('\u{feff}'))
        && cards::is_card_game(&value)
    {
        return cards::from_value(value).map(AnyRecord::Cards);
    }
    parse(bytes).map(|(r, f)| AnyRecord::Tiles(r, f))
}

/// Detects the format from the content (never the file name) and parses it.
pub fn parse(bytes: &[u8]) -> Result<(GameRecord, Format), RecordError> {
    if bytes.len() > MAX_RECORD_BYTES {
        return Err(RecordError::TooLarge { size: bytes.len() });
    }
    let text = std::str::from_utf8(bytes).map_err(|_| RecordError::NotText)?;
    let text = text.trim_start_matches('\u{feff}');
    if text.trim().is_empty() {
        return Err(RecordError::Empty);
    }
    if course::looks_like(text) {
        return checked(course::parse(text)?, Format::Course);
    }
    if lab::looks_like(text) {
        return checked(lab::parse(text)?, Format::Lab);
    }
    if let Some(address) = bga::page_address(text) {
        return Err(RecordError::BgaAddress { table: address.table });
    }
    // JSON's words for text that is none ("expected ident at line 1 column 2") would say
    // nothing to the person who pasted it.
    if !text.trim_start().starts_with(['{', '[']) {
        return Err(RecordError::NotARecord);
    }
    let value = strict_json::from_str(text).map_err(|e| bga::locate_json_error(text, e))?;
    let format = detect(&value).ok_or(RecordError::Unrecognised)?;
    let record = match format {
        Format::Native => native::from_value(value)?,
        Format::Jcz => jcz::from_value(value)?,
        Format::Bga => bga::from_value(&value)?,
        // `detect` never answers Course or Lab: they are text, recognised above.
        Format::Course | Format::Lab => return Err(RecordError::Unrecognised),
    };
    checked(record, format)
}

fn checked(record: GameRecord, format: Format) -> Result<(GameRecord, Format), RecordError> {
    record
        .check_limits()
        .map_err(|e| RecordError::invalid(format, e.to_string()))?;
    Ok((record, format))
}

fn detect(v: &serde_json::Value) -> Option<Format> {
    let obj = v.as_object()?;
    if obj
        .get("format")
        .and_then(|f| f.as_str())
        .is_some_and(|f| f.starts_with("carcassonne-replay/"))
    {
        return Some(Format::Native);
    }
    // Every JCloisterZone save has its `appVersion`; a save without a `setup` is still one, so
    // that the importer can say what it lacks.
    if obj.contains_key("appVersion") || (obj.contains_key("setup") && obj.contains_key("replay")) {
        return Some(Format::Jcz);
    }
    if bga::detect(v) {
        return Some(Format::Bga);
    }
    None
}
