-- Who asked for a queued analysis (see SQLite's 0014).
ALTER TABLE analyses ADD COLUMN requester TEXT;
