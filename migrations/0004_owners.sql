-- Owners and listing. An upload may be unlisted: kept off the home page and every list, and
-- reachable by its link only. Its uploader gets an owner token, of which only the SHA-256 is
-- kept here: whoever holds the token may delete the game or change its listing. Games stored
-- before this have no owner (NULL): nobody can delete them through the service.
ALTER TABLE games ADD COLUMN listed INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN owner_hash BLOB;

-- The home page pages through the listed games, newest first.
CREATE INDEX games_listed_by_creation ON games (listed, created_at DESC, seq DESC);
