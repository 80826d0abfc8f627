//! From uploaded bytes to stored rows: parse, replay, hash, and write in one transaction.
//! Every game kind comes out of here in the same shape: a summary and one row per turn.

use super::snapshot::{self, AnySnapshots};
use super::{GameId, NewGame, OwnerToken, Store, StoreError, Stored};
use crate::engine::GameKind;
use crate::engine::cards::CardGame;
use crate::record::Record;
use crate::record::cards;
use crate::record::{self, Annotation, Format, GameRecord, RecordError, native};
use crate::replay::{self, ReplayError};

/// A parsed and replayed upload, ready to store.
pub struct Ingested {
    /// From the SHA-256 of `canonical`.
    pub id: GameId,
    /// The record as compact native JSON: what is stored and hashed.
    pub canonical: String,
    pub format: Format,
    pub kind: GameKind,
    pub players: Vec<String>,
    /// Each player's Board Game Arena id, when the record has one.
    pub bga_ids: Vec<Option<u64>>,
    /// The rulebook's name (`Preset::name`; the Card Game has one rulebook, `card-game`).
    pub rules: &'static str,
    pub finished: bool,
    pub final_scores: Vec<i32>,
    /// One snapshot per turn.
    pub snapshots: AnySnapshots,
    /// The comments the record carries, stored with it when it is new.
    pub annotations: Vec<Annotation>,
}

#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error(transparent)]
    Record(#[from] RecordError),
    /// An illegal move or setup, in words with the record's names.
    #[error("{detail}")]
    Illegal {
        detail: String,
        /// Where and why, for an illegal move.
        at: Option<IllegalAt>,
    },
    /// The log's own running scores disagree with our replay: a parser bug or a rules
    /// difference, never silently accepted.
    #[error("{0}")]
    Mismatch(crate::replay::verify::ScoreMismatch),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Where an illegal move is: its turn (and round, in the Card Game), who made it, the move in
/// the record's words, and the rule it breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalAt {
    pub turn: u32,
    pub round: Option<u8>,
    pub player: String,
    pub mv: String,
    pub reason: String,
}

/// The canonical form of a record and its id. Uploading a `.jcz` and its native export gives
/// the same id, because both have the same canonical form.
pub fn canonical_id(record: &GameRecord) -> (String, GameId) {
    let canonical = native::canonical_value(record).to_string();
    let id = GameId::of(&canonical);
    (canonical, id)
}

/// Parses and replays an upload without storing it.
pub fn prepare(bytes: &[u8]) -> Result<Ingested, IngestError> {
    let g = prepare_any(bytes)?;
    some_moves(g.moves, g.ingested.format)?;
    Ok(g.ingested)
}

/// A record parsed and replayed, with how many moves it holds (discards included).
pub(super) struct Prepared {
    pub ingested: Ingested,
    pub moves: usize,
}

/// Parses and replays a record of any game, whatever its moves.
pub(super) fn prepare_any(bytes: &[u8]) -> Result<Prepared, IngestError> {
    let parsed = record::parse_any(bytes).map_err(|e| match e {
        // An importer that judged moves: the same answer as the replay's own.
        RecordError::Illegal { illegal: found, .. } => illegal(&found.0, found.1),
        other => IngestError::Record(other),
    })?;
    let format = parsed.format();
    let (moves, ingested) = record::dispatch!(&parsed, game => (game.moves(), prepare_game(game, format)));
    Ok(Prepared {
        ingested: ingested?,
        moves,
    })
}

/// A game as the store keeps it: a summary and one snapshot row per turn, whatever the game.
/// One implementation per game; [`prepare`] reaches a record's own.
pub trait Storable {
    fn kind(&self) -> GameKind;
    fn players(&self) -> &[record::PlayerInfo];
    /// Moves in the record, discards included.
    fn moves(&self) -> usize;
    /// The record as compact native JSON, without its annotations: what is stored and hashed.
    fn canonical(&self) -> String;
    /// The comments the record carries.
    fn annotations(&self) -> &[Annotation];
    /// The game replayed, and checked against the scores its log recorded, if any.
    fn snapshots(&self) -> Result<Snapshots, IngestError>;
}

/// A replayed game as the store keeps it.
pub struct Snapshots {
    /// The rulebook's name (`Preset::name`; the Card Game has one rulebook, `card-game`).
    pub rules: &'static str,
    pub finished: bool,
    pub final_scores: Vec<i32>,
    /// One per turn.
    pub turns: AnySnapshots,
}

fn prepare_game(game: &dyn Storable, format: Format) -> Result<Ingested, IngestError> {
    upload_names(game.players(), format)?;
    let replayed = game.snapshots()?;
    annotated_turns(game.annotations(), replayed.turns.len(), format)?;
    let canonical = game.canonical();
    Ok(Ingested {
        id: GameId::of(&canonical),
        canonical,
        format,
        kind: game.kind(),
        players: game.players().iter().map(|p| p.name.clone()).collect(),
        bga_ids: game.players().iter().map(|p| p.bga_id).collect(),
        rules: replayed.rules,
        finished: replayed.finished,
        final_scores: replayed.final_scores,
        snapshots: replayed.turns,
        annotations: game.annotations().to_vec(),
    })
}

/// Comments are on turns of the game: 0 (the start) to its last.
fn annotated_turns(annotations: &[Annotation], turns: usize, format: Format) -> Result<(), RecordError> {
    match annotations.iter().position(|a| a.turn() as usize > turns) {
        Some(i) => Err(RecordError::invalid(
            format,
            format!(
                "annotations entry {}: turn {} is past the game's last turn, {turns}",
                i + 1,
                annotations[i].turn()
            ),
        )),
        None => Ok(()),
    }
}

/// A record with players and no move is no game to replay: junk on the lists. Checked at
/// upload, like the names.
fn some_moves(moves: usize, format: Format) -> Result<(), RecordError> {
    if moves == 0 {
        return Err(RecordError::invalid(format, "a game needs at least one move"));
    }
    Ok(())
}

/// Names a new upload may carry, in characters: what fits a scoreboard and a link preview.
/// Games stored before this limit keep their names (up to `record::MAX_NAME_CHARS`), so it is
/// checked here, at upload, and not where stored records are read.
pub const MAX_UPLOAD_NAME_CHARS: usize = 40;

/// Names an upload may carry: at most [`MAX_UPLOAD_NAME_CHARS`], and shown as they are
/// written ([`record::shown_text`]). Checked at upload, so games stored before keep theirs.
fn upload_names(players: &[record::PlayerInfo], format: Format) -> Result<(), RecordError> {
    for (i, p) in players.iter().enumerate() {
        let chars = p.name.chars().count();
        let refused = if chars > MAX_UPLOAD_NAME_CHARS {
            format!("the name is {chars} characters long; an upload's names have at most {MAX_UPLOAD_NAME_CHARS}")
        } else if let Err(e) = record::shown_text::check(&p.name) {
            format!("the name {} cannot be shown: {e}", record::quote::Quoted(&p.name))
        } else {
            continue;
        };
        return Err(RecordError::invalid(format, format!("player {}: {refused}", i + 1)));
    }
    Ok(())
}

/// An illegal record put in words: the service's edge, where the names are at hand.
fn illegal(record: &GameRecord, e: ReplayError) -> IngestError {
    let at = match &e {
        ReplayError::Illegal(t) => Some(IllegalAt {
            turn: t.turn,
            round: None,
            player: t.player_name(record).to_string(),
            mv: t.move_text(record),
            reason: t.reason(record),
        }),
        ReplayError::Setup(_) => None,
    };
    IngestError::Illegal {
        detail: e.describe(record),
        at,
    }
}

fn card_illegal(record: &Record<CardGame>, e: replay::cards::Refusal) -> IngestError {
    let at = match &e {
        ReplayError::Illegal(i) => Some(IllegalAt {
            turn: i.index as u32,
            round: Some(i.round),
            player: record
                .players
                .get(usize::from(i.player))
                .map(|p| p.name.clone())
                .unwrap_or_default(),
            mv: record
                .moves
                .get(i.index - 1)
                .map(|m| replay::cards::move_text(&m.mv))
                .unwrap_or_default(),
            reason: e.reason(record),
        }),
        ReplayError::Setup(_) => None,
    };
    IngestError::Illegal {
        detail: e.describe(record),
        at,
    }
}

/// Parses, replays and stores a game that nobody owns, listed (the demos, the benches).
/// Returns the game and whether it was new.
pub fn ingest(store: &Store, bytes: &[u8]) -> Result<(Ingested, bool), IngestError> {
    let g = prepare(bytes)?;
    let stored = store.insert(&g, NewGame::PUBLIC)?;
    Ok((g, stored == Stored::New))
}

/// An upload, stored: the game, its listing, and the owner token when this upload stored it.
pub struct Upload {
    pub game: Ingested,
    /// `None` when the same game was stored before: it stays its first uploader's, or else
    /// anyone could take over a public game by uploading its download again.
    pub token: Option<OwnerToken>,
    pub listed: bool,
}

/// Parses, replays and stores a visitor's upload, owned by a fresh token and listed as asked.
pub fn upload(store: &Store, bytes: &[u8], listed: bool) -> Result<Upload, IngestError> {
    let game = prepare(bytes)?;
    let token = OwnerToken::new().map_err(StoreError::from)?;
    let new = NewGame {
        listed,
        owner: Some(token.hash()),
    };
    Ok(match store.insert(&game, new)? {
        Stored::New => Upload {
            game,
            token: Some(token),
            listed,
        },
        Stored::Already { listed } => Upload {
            game,
            token: None,
            listed,
        },
    })
}

impl Storable for GameRecord {
    fn kind(&self) -> GameKind {
        self.setup.game
    }

    fn players(&self) -> &[record::PlayerInfo] {
        &self.players
    }

    fn moves(&self) -> usize {
        self.moves.len()
    }

    fn canonical(&self) -> String {
        canonical_id(self).0
    }

    fn annotations(&self) -> &[Annotation] {
        &self.annotations
    }

    /// Placements and deployments are a row's move, so its `events` keep the rest: discards,
    /// scores with their breakdowns, returns.
    fn snapshots(&self) -> Result<Snapshots, IngestError> {
        let (replay, ownership) = replay::replay_with_ownership(self).map_err(|e| illegal(self, e))?;
        replay::verify::recorded_scores(self, &replay).map_err(IngestError::Mismatch)?;
        let turns = (replay.turns.iter().zip(&ownership))
            .map(|(t, owned)| snapshot::tiles::snapshot(&self.setup.catalog, t, owned))
            .collect();
        Ok(Snapshots {
            rules: replay.rules().preset.name(),
            finished: replay.finished,
            final_scores: replay.final_scores,
            turns: AnySnapshots::Tiles(turns),
        })
    }
}

impl Storable for Record<CardGame> {
    fn kind(&self) -> GameKind {
        GameKind::CardGame
    }

    fn players(&self) -> &[record::PlayerInfo] {
        &self.players
    }

    fn moves(&self) -> usize {
        self.moves.len()
    }

    fn canonical(&self) -> String {
        cards::canonical_value(self).to_string()
    }

    fn annotations(&self) -> &[Annotation] {
        &self.annotations
    }

    /// A row's move is the action, and its events every event (`snapshot::cards`).
    fn snapshots(&self) -> Result<Snapshots, IngestError> {
        let replay = replay::cards::replay(self).map_err(|e| card_illegal(self, e))?;
        Ok(Snapshots {
            rules: self.kind().name(),
            finished: replay.finished,
            final_scores: replay.final_scores,
            turns: AnySnapshots::Cards(
                replay
                    .turns
                    .iter()
                    .map(|t| snapshot::cards::snapshot(self, t))
                    .collect(),
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_game_is_stored_in_the_same_shape_as_a_tile_game() {
        let record = crate::selfplay::card_game(3, crate::engine::bots::Policy::Greedy, 5).unwrap();
        let text = cards::to_value(&record).to_string();
        let g = prepare(text.as_bytes()).expect("a generated game replays");
        assert_eq!(g.kind, GameKind::CardGame);
        assert_eq!(g.snapshots.len(), record.moves.len());
        assert!(g.finished);
        assert_eq!(g.final_scores, replay::cards::replay(&record).unwrap().final_scores);
    }
}
