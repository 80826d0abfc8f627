//! Copying one database into another, of either kind: how a service that started on SQLite
//! moves to PostgreSQL (`copy-db`). Every game keeps its id, record, snapshots, owner, listing
//! and date, its annotations, and its analysis keeps its result; a lease does not travel. Then
//! every collection, with its owner, its import's progress and its games in their order.

use super::{AnySnapshots, Counts, Store, StoreError, Stored};

/// Games read from the source at a time.
const PAGE: u32 = 200;

/// Why a copy stopped or failed its check.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error("the database to fill holds {0} games already; copy into an empty one")]
    NotEmpty(u64),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(
        "the copy holds {copy:?}, the source {original:?}: did a service write to the source meanwhile? Stop it and copy into a new database"
    )]
    Counts { original: Counts, copy: Counts },
}

fn copy_collections(from: &Store, to: &Store) -> Result<(), StoreError> {
    let mut offset = 0;
    loop {
        let ids = from.collection_ids(offset, PAGE)?;
        for id in &ids {
            let Some(row) = from.collection(id)? else { continue };
            to.create_collection(&row)?;
            let games: Vec<_> = from.collection_games(id)?.iter().map(|g| g.id).collect();
            to.add_to_collection(id, &games)?;
        }
        offset += ids.len() as u64;
        if ids.len() < PAGE as usize {
            return Ok(());
        }
    }
}

/// Copies every game, with its snapshots, annotations and analysis, from `from` into the empty
/// `to`, in the order they were stored, telling `progress` how many games are done. Then checks
/// that both hold as many games, snapshots, analyses and annotations, and answers the counts.
pub fn copy(from: &Store, to: &Store, progress: &dyn Fn(u64)) -> Result<Counts, CopyError> {
    let held = to.count()?;
    if held > 0 {
        return Err(CopyError::NotEmpty(held));
    }
    let mut copied = 0;
    loop {
        let ids = from.game_ids(copied, PAGE)?;
        for id in &ids {
            // A game deleted since its id was read is skipped; the counts tell if that mattered.
            let Some(game) = from.game(id)? else { continue };
            // The rows are copied as stored; the seats come from them read.
            let turns = from.turns(id)?.map(|(_, turns)| turns).unwrap_or_default();
            let read = AnySnapshots::read(game.kind, &turns).map_err(StoreError::from)?;
            let seats = super::players::game_seats(&game, &read, &from.bga_ids(id)?);
            if to.write_game(&game, &turns, &from.annotations(id)?, &seats)? == Stored::New
                && let Some(analysis) = from.stored_analysis(id)?
            {
                to.write_analysis(id, &analysis)?;
            }
        }
        copied += ids.len() as u64;
        progress(copied);
        if ids.len() < PAGE as usize {
            break;
        }
    }
    copy_collections(from, to)?;
    let (original, copy) = (from.counts()?, to.counts()?);
    if original != copy {
        return Err(CopyError::Counts { original, copy });
    }
    Ok(copy)
}
