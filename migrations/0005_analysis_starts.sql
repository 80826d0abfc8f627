-- How often a worker has started a game's analysis since it was last asked for. A job that a
-- crash interrupted is started again when the service starts, but not forever: a job that
-- takes the process down each time would otherwise do so at every start.
ALTER TABLE analyses ADD COLUMN starts INTEGER NOT NULL DEFAULT 0;
