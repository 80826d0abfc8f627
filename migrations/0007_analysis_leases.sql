-- Analyses are jobs a worker claims for a while (a lease): a running job's worker holds it
-- until `lease_until` (Unix milliseconds); past that, or with no lease at all (a job running
-- when an older release stopped), any worker may take it over. `lease_token` is new at every
-- claim, and progress and the result are written only under it, so a worker that lost its
-- lease writes nothing. `queued_at` orders the queue: progress rewrites `updated_at`.
ALTER TABLE analyses ADD COLUMN queued_at TEXT;
ALTER TABLE analyses ADD COLUMN lease_owner TEXT;
ALTER TABLE analyses ADD COLUMN lease_token TEXT;
ALTER TABLE analyses ADD COLUMN lease_until INTEGER;
UPDATE analyses SET queued_at = updated_at;
CREATE INDEX analyses_claimable ON analyses (queued_at, game) WHERE status IN ('queued', 'running');
