//! Collections: a named set of stored games in an order (a match, a tournament, a club's
//! season), owned by the token it was created with, and the bulk import that fills one.
//!
//! An import reads one game per line (or per file): each is stored as an upload is, owned by
//! the collection's token, and a line that is no game is noted with why, the rest going on.
//! Lines are prepared (parsed and replayed, the costly part) on every core, a chunk at a time,
//! and written in their order; after each chunk the collection's row says how far it got, so
//! any node's page can show the progress.

use super::ingest::{self, IngestError};
use super::{AnalysisStatus, GameId, NewGame, OwnerHash, Store, StoreError};
use crate::engine::GameKind;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A collection's id: 8 random bytes, written as 16 hex digits (a game id's form, drawn at
/// random: a collection has no content to hash, and its link must not be guessed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct CollectionId(GameId);

impl CollectionId {
    pub fn random() -> Result<CollectionId, StoreError> {
        Ok(CollectionId(GameId::from_bytes(super::owner::random_bytes::<8>()?)))
    }
}

impl fmt::Display for CollectionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl FromStr for CollectionId {
    type Err = super::NotAGameId;
    fn from_str(s: &str) -> Result<CollectionId, Self::Err> {
        s.parse().map(CollectionId)
    }
}

impl TryFrom<String> for CollectionId {
    type Error = super::NotAGameId;
    fn try_from(s: String) -> Result<CollectionId, Self::Error> {
        s.parse()
    }
}

impl From<CollectionId> for String {
    fn from(id: CollectionId) -> String {
        id.to_string()
    }
}

impl rusqlite::ToSql for CollectionId {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(rusqlite::types::ToSqlOutput::from(self.to_string()))
    }
}

impl rusqlite::types::FromSql for CollectionId {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<CollectionId> {
        GameId::column_result(value).map(CollectionId)
    }
}

/// A collection's name: trimmed, 1 to [`MAX_NAME_CHARS`] characters, no control characters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(into = "String")]
pub struct CollectionName(String);

/// Characters a collection's name may have: a tournament's full title.
pub const MAX_NAME_CHARS: usize = 100;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadName {
    #[error("a collection needs a name")]
    Empty,
    #[error("the name is {0} characters long; a collection's name has at most {MAX_NAME_CHARS}")]
    TooLong(usize),
    #[error("the name holds a control character")]
    Control,
    #[error("the name cannot be shown: {0}")]
    Unshowable(#[from] crate::record::shown_text::Unshowable),
}

impl CollectionName {
    pub fn parse(text: &str) -> Result<CollectionName, BadName> {
        let text = text.trim();
        let chars = text.chars().count();
        match () {
            _ if chars == 0 => Err(BadName::Empty),
            _ if chars > MAX_NAME_CHARS => Err(BadName::TooLong(chars)),
            _ if text.chars().any(char::is_control) => Err(BadName::Control),
            _ => {
                crate::record::shown_text::check(text)?;
                Ok(CollectionName(text.to_string()))
            }
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A name read back from the store, which checked it when it was written (without the
    /// reordering controls an earlier release let in).
    pub(super) fn stored(text: String) -> CollectionName {
        CollectionName(crate::record::shown_text::without_reordering(&text).into_owned())
    }
}

impl From<CollectionName> for String {
    fn from(n: CollectionName) -> String {
        n.0
    }
}

/// A stored collection, without its games.
#[derive(Clone, Debug)]
pub struct CollectionRow {
    pub id: CollectionId,
    pub name: CollectionName,
    pub owner: OwnerHash,
    pub created_at: String,
    pub import: ImportState,
}

/// How far a collection's import got: `done` of `total` lines read, and the lines refused.
/// A running import renews its lease as it goes ([`IMPORT_LEASE`]); one that is neither
/// finished nor leased has stopped (the server stopped, or the import failed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportState {
    pub total: u32,
    pub done: u32,
    /// The lines the last import refused (each import starts afresh: its lines are numbered
    /// from 1).
    pub errors: LineErrors,
    pub lease_until: Option<chrono::DateTime<chrono::Utc>>,
}

/// How long an import's lease lasts: far longer than a chunk of lines takes, so that only a
/// stopped import lets it run out.
pub const IMPORT_LEASE: chrono::TimeDelta = chrono::TimeDelta::minutes(2);

/// Where an import is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ImportStatus {
    Finished,
    Running,
    /// Its lease ran out before its last line: the lines after `done` were not read.
    Stopped,
}

impl ImportState {
    /// A new import of `total` lines, leased from now.
    pub fn start(total: u32) -> ImportState {
        ImportState {
            total,
            ..ImportState::default()
        }
        .renewed()
    }

    pub fn status(&self) -> ImportStatus {
        if self.done >= self.total {
            ImportStatus::Finished
        } else if self.lease_until.is_some_and(|t| t > chrono::Utc::now()) {
            ImportStatus::Running
        } else {
            ImportStatus::Stopped
        }
    }

    /// The state with its lease renewed from now.
    pub fn renewed(mut self) -> ImportState {
        self.lease_until = Some(chrono::Utc::now() + IMPORT_LEASE);
        self
    }

    /// What an import of `lines` more starts from, after this one finished or stopped: the
    /// lines a stopped import did not read are dropped (its page said to add them again), and
    /// so are its refused lines, whose numbers were its own.
    pub fn adding(&self, lines: u32) -> ImportState {
        ImportState {
            total: self.done + lines,
            done: self.done,
            errors: LineErrors::default(),
            lease_until: None,
        }
        .renewed()
    }

    /// The lease as the stores keep it: RFC 3339, UTC.
    pub(super) fn lease_column(&self) -> Option<String> {
        (self.lease_until).map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
    }
}

/// A stored lease; one that does not read is run out.
pub(super) fn lease_of(column: Option<String>) -> Option<chrono::DateTime<chrono::Utc>> {
    chrono::DateTime::parse_from_rfc3339(&column?).ok().map(|t| t.to_utc())
}

/// A line (or file) of an import that is no game, and why: the turn and the player when the
/// record names them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct LineError {
    /// From 1: the line of the text, or the file's place among the files.
    pub line: u32,
    /// The file's name, for a file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub title: String,
    pub detail: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
}

/// Refused lines kept of one import, at most: the page lists them, every answer carries them,
/// and the import rewrites them after every chunk.
pub const MAX_KEPT_ERRORS: usize = 100;
/// Characters of a file's name or an error's words kept: a name of thousands of characters
/// would otherwise be stored, and sent, with every refused line.
pub const MAX_ERROR_TEXT_CHARS: usize = 300;

/// An import's refused lines: how many, and the first [`MAX_KEPT_ERRORS`] of them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineErrors {
    pub refused: u32,
    pub first: Vec<LineError>,
}

impl LineErrors {
    pub fn push(&mut self, e: LineError) {
        self.refused += 1;
        if self.first.len() < MAX_KEPT_ERRORS {
            self.first.push(e);
        }
    }
}

/// `text` cut to [`MAX_ERROR_TEXT_CHARS`] characters, ended with "…" when cut.
fn bounded(text: &str) -> String {
    match text.char_indices().nth(MAX_ERROR_TEXT_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

impl LineError {
    fn of(input: &ImportLine, e: &Refused) -> LineError {
        let (title, at) = match e {
            Refused::Ingest(IngestError::Record(_)) => ("Unreadable record", None),
            Refused::Ingest(IngestError::Illegal { at, .. }) => ("Illegal move", at.as_ref()),
            Refused::Ingest(IngestError::Mismatch(_)) => ("Scores disagree", None),
            Refused::Ingest(IngestError::Store(_)) => ("Not stored", None),
            Refused::Unknown(_) => ("No such game", None),
        };
        let detail = match e {
            Refused::Ingest(e) => e.to_string(),
            Refused::Unknown(id) => format!("no stored game has the id {id}"),
        };
        LineError {
            line: input.line,
            file: input.file.as_deref().map(bounded),
            title: title.into(),
            detail: bounded(&detail),
            turn: at.map(|a| a.turn),
            player: at.map(|a| a.player.clone()),
        }
    }
}

/// A game of a collection as its page shows it: the game's summary row (never its record) and
/// where its analysis stands.
#[derive(Clone, Debug)]
pub struct CollectedGame {
    pub id: GameId,
    pub kind: GameKind,
    pub players: Vec<String>,
    pub final_scores: Vec<i32>,
    pub finished: bool,
    pub preset: String,
    pub turns: u32,
    pub created_at: String,
    pub analysis: Option<AnalysisStatus>,
    /// Once analysed, each seat's accuracy, from the seats' analysis rows (seats with no move
    /// valued are left out).
    pub accuracy: Vec<SeatAccuracy>,
}

/// A seat's accuracy in an analysed game: the moves valued and their mean accuracy (percent).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatAccuracy {
    pub seat: u8,
    pub moves: u32,
    pub accuracy: f64,
}

/// The accuracies of a collection's seats, by game: what [`with_accuracies`] hands out.
pub(super) const SEAT_ACCURACIES: &str = "SELECT g.id, pa.seat, pa.moves, pa.accuracy
     FROM collections c
     JOIN collection_games cg ON cg.collection = c.seq
     JOIN games g ON g.seq = cg.game
     JOIN player_analyses pa ON pa.game = g.seq
     WHERE c.id = ?1 AND pa.moves > 0";

/// Gives each game its seats' accuracies, from [`SEAT_ACCURACIES`]' rows.
pub(super) fn with_accuracies(mut games: Vec<CollectedGame>, rows: Vec<(GameId, SeatAccuracy)>) -> Vec<CollectedGame> {
    let mut by_game: std::collections::HashMap<GameId, Vec<SeatAccuracy>> = Default::default();
    for (id, a) in rows {
        by_game.entry(id).or_default().push(a);
    }
    for g in &mut games {
        g.accuracy = by_game.get(&g.id).cloned().unwrap_or_default();
    }
    games
}

/// One game to import: its line (or file), and its bytes.
#[derive(Clone, Debug)]
pub struct ImportLine {
    pub line: u32,
    pub file: Option<String>,
    pub bytes: Vec<u8>,
}

/// Lines (or files) one import takes at most: a season of a club, the 850 games of a
/// community's tournaments with room to spare.
pub const MAX_IMPORT_LINES: usize = 2000;

/// More games sent than one import takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "more than {MAX_IMPORT_LINES} games sent; one import takes at most {MAX_IMPORT_LINES}: send the rest as another import"
)]
pub struct TooManyLines;

/// The non-blank lines of a pasted text, each with its line number. Counted as the text is
/// scanned: past [`MAX_IMPORT_LINES`] (of which `already` went to the import's files) it
/// stops, having copied no more than the limit.
pub fn lines(text: &str, already: usize) -> Result<Vec<ImportLine>, TooManyLines> {
    let mut out = Vec::new();
    for (l, n) in text.lines().zip(1..).filter(|(l, _)| !l.trim().is_empty()) {
        if already + out.len() >= MAX_IMPORT_LINES {
            return Err(TooManyLines);
        }
        out.push(ImportLine {
            line: n,
            file: None,
            bytes: l.trim().as_bytes().to_vec(),
        });
    }
    Ok(out)
}

/// A game stored by an import: its line and id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct ImportedGame {
    pub line: u32,
    #[schema(value_type = String)]
    pub id: GameId,
}

/// What an import did, line by line.
#[derive(Clone, Debug, Default)]
pub struct Imported {
    pub games: Vec<ImportedGame>,
    pub errors: LineErrors,
}

/// Lines prepared at once: the progress moves on a chunk at a time.
const CHUNK: usize = 16;

/// Imports `input` into collection `id`, after what its imports did before (`progress`, whose
/// `total` counts `input` already): stores each game as `new` says (a line that is a
/// stored game's id adds that game), adds it to the collection in the lines' order, and
/// records the progress after every chunk.
pub fn import(
    store: &Store,
    id: &CollectionId,
    mut progress: ImportState,
    input: &[ImportLine],
    new: NewGame,
) -> Result<Imported, StoreError> {
    let mut out = Imported::default();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    for chunk in input.chunks(CHUNK) {
        let prepared = prepare_all(chunk, threads);
        let mut added = Vec::new();
        for (line, game) in chunk.iter().zip(prepared) {
            match game.map_err(Refused::from).and_then(|g| store_line(store, g, new)) {
                Ok(game) => {
                    added.push(game);
                    out.games.push(ImportedGame {
                        line: line.line,
                        id: game,
                    });
                }
                Err(e) => {
                    let e = LineError::of(line, &e);
                    progress.errors.push(e.clone());
                    out.errors.push(e);
                }
            }
        }
        store.add_to_collection(id, &added)?;
        progress.done += chunk.len() as u32;
        progress = progress.renewed();
        store.import_progress(id, &progress)?;
    }
    Ok(out)
}

/// A line prepared: a game to store, or a stored game named by its id.
enum Prepared {
    Game(Box<ingest::Ingested>),
    Stored(GameId),
}

/// Why a line added no game: it is no game, or it names no stored game.
enum Refused {
    Ingest(IngestError),
    Unknown(GameId),
}

impl From<IngestError> for Refused {
    fn from(e: IngestError) -> Refused {
        Refused::Ingest(e)
    }
}

impl From<StoreError> for Refused {
    fn from(e: StoreError) -> Refused {
        Refused::Ingest(e.into())
    }
}

fn store_line(store: &Store, line: Prepared, new: NewGame) -> Result<GameId, Refused> {
    match line {
        Prepared::Game(g) => {
            store.insert(&g, new)?;
            Ok(g.id)
        }
        Prepared::Stored(id) => store.game(&id)?.map(|_| id).ok_or(Refused::Unknown(id)),
    }
}

/// Parses and replays each line, on up to `threads` threads, in the lines' order.
fn prepare_all(lines: &[ImportLine], threads: usize) -> Vec<Result<Prepared, IngestError>> {
    let per = lines.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|s| {
        let parts: Vec<_> = (lines.chunks(per))
            .map(|part| s.spawn(move || part.iter().map(prepare).collect::<Vec<_>>()))
            .collect();
        parts
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    })
}

fn prepare(line: &ImportLine) -> Result<Prepared, IngestError> {
    match std::str::from_utf8(&line.bytes)
        .ok()
        .and_then(|t| t.parse::<GameId>().ok())
    {
        Some(id) => Ok(Prepared::Stored(id)),
        None => ingest::prepare(&line.bytes).map(|g| Prepared::Game(Box::new(g))),
    }
}

/// The stored form of an import's errors.
pub(super) fn errors_json(errors: &LineErrors) -> String {
    serde_json::to_string(errors).unwrap_or_else(|_| "[]".into())
}

/// The refused lines as stored: `{"refused", "first"}`, or, as releases before kept them, every
/// one in an array (the first [`MAX_KEPT_ERRORS`] are kept of those).
pub(super) fn errors_of(json: &str) -> Result<LineErrors, StoreError> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Stored {
        Bounded(LineErrors),
        All(Vec<LineError>),
    }
    let corrupt = |e: serde_json::Error| StoreError::Corrupt(format!("a collection's import errors: {e}"));
    Ok(match serde_json::from_str(json).map_err(corrupt)? {
        Stored::Bounded(errors) => errors,
        Stored::All(all) => LineErrors {
            refused: all.len() as u32,
            first: all.into_iter().take(MAX_KEPT_ERRORS).collect(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(CollectionName::parse("  Worlds 2026 ").unwrap().as_str(), "Worlds 2026");
        assert_eq!(CollectionName::parse(" "), Err(BadName::Empty));
        assert_eq!(CollectionName::parse(&"x".repeat(101)), Err(BadName::TooLong(101)));
        assert_eq!(CollectionName::parse("a\u{7}b"), Err(BadName::Control));
    }

    #[test]
    fn blank_lines_are_skipped_and_lines_keep_their_numbers() {
        let read = lines("a\n\n  \nb\r\n c \n", 0).unwrap();
        let numbered: Vec<(u32, &[u8])> = read.iter().map(|l| (l.line, &l.bytes[..])).collect();
        assert_eq!(numbered, [(1, &b"a"[..]), (4, b"b"), (5, b"c")]);
        // The limit counts the files already taken, and blank lines not at all.
        let full = "x\n\n".repeat(MAX_IMPORT_LINES);
        assert_eq!(lines(&full, 0).map(|l| l.len()), Ok(MAX_IMPORT_LINES));
        assert_eq!(lines(&full, 1).map(|l| l.len()), Err(TooManyLines));
    }

    #[test]
    fn refused_lines_are_counted_and_the_first_kept_with_names_cut() {
        let mut errors = LineErrors::default();
        let line = ImportLine {
            line: 1,
            file: Some("f".repeat(8000)),
            bytes: Vec::new(),
        };
        for _ in 0..MAX_KEPT_ERRORS + 5 {
            errors.push(LineError::of(&line, &Refused::Unknown(GameId::of("x"))));
        }
        assert_eq!(
            (errors.refused, errors.first.len()),
            (MAX_KEPT_ERRORS as u32 + 5, MAX_KEPT_ERRORS)
        );
        assert_eq!(
            errors.first[0].file.as_ref().unwrap().chars().count(),
            MAX_ERROR_TEXT_CHARS + 1
        );
        // As an earlier release stored them: every one, in an array.
        let old = serde_json::to_string(&vec![errors.first[0].clone(); 150]).unwrap();
        let read = errors_of(&old).unwrap();
        assert_eq!((read.refused, read.first.len()), (150, MAX_KEPT_ERRORS));
        assert_eq!(errors_of(&errors_json(&errors)).unwrap(), errors);
    }

    #[test]
    fn collection_ids_are_random_and_read_back() {
        let a = CollectionId::random().unwrap();
        assert_ne!(a, CollectionId::random().unwrap());
        assert_eq!(a.to_string().parse::<CollectionId>().unwrap(), a);
    }
}
