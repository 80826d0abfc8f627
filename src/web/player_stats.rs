//! Players' statistics as last read, kept a while between player pages: a page over a thousand
//! games runs ten aggregates over them (`store::players::stats_queries`).

use crate::store::{PlayerStats, Who};
use crate::web::problem::Problem;

/// Players' statistics as last read, by whom and against whom. A page asked again within
/// [`STATS_KEPT_FOR`] reuses them while the number of their listed games, which the page counts
/// anyway for its pagination, is the same: a game of theirs stored, deleted or unlisted changes
/// it. An analysis finished or a game's owner's change, on any node, forgets them all
/// (`AppState::forget`); so does each batch of the background fill of seat rows.
pub struct StatsCache(std::sync::Mutex<Kept>);

type StatsKey = (Who, Option<Who>);

/// The statistics by key, each with the count of games it was read over and when; and how many
/// times they were all forgotten, so that statistics read across a forget are not kept.
struct Kept {
    stats: lru::LruCache<StatsKey, (PlayerStats, u64, std::time::Instant)>,
    forgets: u64,
}

/// How long kept statistics are used at most.
pub const STATS_KEPT_FOR: std::time::Duration = std::time::Duration::from_secs(60);

impl Default for StatsCache {
    fn default() -> StatsCache {
        StatsCache(std::sync::Mutex::new(Kept {
            stats: lru::LruCache::new(std::num::NonZeroUsize::new(1024).expect("nonzero")),
            forgets: 0,
        }))
    }
}

impl StatsCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The statistics of `key` over `games` listed games: those kept, when read over as many
    /// less than [`STATS_KEPT_FOR`] ago, else read by `read` and kept, unless everything was
    /// forgotten meanwhile (they may predate the change).
    pub fn get_or_read(
        &self,
        key: StatsKey,
        games: u64,
        read: impl FnOnce(&StatsKey) -> Result<PlayerStats, Problem>,
    ) -> Result<PlayerStats, Problem> {
        let forgets = {
            let mut kept = self.lock();
            if let Some((stats, over, at)) = kept.stats.get(&key)
                && *over == games
                && at.elapsed() < STATS_KEPT_FOR
            {
                return Ok(stats.clone());
            }
            kept.forgets
        };
        let stats = read(&key)?;
        let mut kept = self.lock();
        if kept.forgets == forgets {
            kept.stats.put(key, (stats.clone(), games, std::time::Instant::now()));
        }
        Ok(stats)
    }

    pub fn clear(&self) {
        let mut kept = self.lock();
        kept.stats.clear();
        kept.forgets += 1;
    }
}
