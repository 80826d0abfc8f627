//! `copy-db` and `backup`: a database copied whole, to move a service from SQLite to
//! PostgreSQL or to keep a consistent copy of a serving SQLite file.

use crate::store::{Database, Store};
use std::path::PathBuf;

/// What `copy-db` is asked for.
#[derive(clap::Args)]
pub struct CopyDbArgs {
    /// The database to copy: a SQLite file or a postgres:// URL.
    from: Database,
    /// The database to fill: a SQLite file (created) or a postgres:// URL.
    to: Database,
}

/// What `backup` is asked for.
#[derive(clap::Args)]
pub struct BackupArgs {
    /// The copy to write (must not exist).
    file: PathBuf,
    /// The database to copy.
    #[arg(long, default_value = "./carcassonne-replay.sqlite")]
    db: PathBuf,
}

/// `copy-db`: every game from one database into another, with a line of progress now and then.
pub fn copy_db(args: &CopyDbArgs) -> Result<(), String> {
    let CopyDbArgs { from, to } = args;
    // Opening a file creates it: a mistyped source would be copied as an empty database.
    if let Database::File(path) = from
        && !path.exists()
    {
        return Err(format!("no database at {}", path.display()));
    }
    let open = |db: &Database| Store::open(db.clone()).map_err(|e| format!("{db}: {e}"));
    let (source, target) = (open(from)?, open(to)?);
    let total = source.count().map_err(|e| e.to_string())?;
    let progress = |done: u64| eprintln!("{done} of {total} games copied");
    let counts = crate::store::copy(&source, &target, &progress).map_err(|e| e.to_string())?;
    println!(
        "{from} copied to {to}: {} games, {} snapshots, {} analyses and {} annotations, as many as the source holds",
        counts.games, counts.snapshots, counts.analyses, counts.annotations
    );
    Ok(())
}

/// `backup`: SQLite's online backup of the service's file.
pub fn backup(args: &BackupArgs) -> Result<(), String> {
    crate::store::backup(&args.db, &args.file)
        .map(|()| println!("{} copied to {}", args.db.display(), args.file.display()))
        .map_err(|e| e.to_string())
}
