-- Annotations: a game's owner comments on its turns, one comment per turn and line (see
-- SQLite's 0009). Lines run to 16 KB, past what a B-tree index entry holds, so the key holds
-- their SHA-256.
CREATE TABLE annotations (
    game     BIGINT NOT NULL REFERENCES games (seq) ON DELETE CASCADE,
    turn     INTEGER NOT NULL,
    line_key BYTEA NOT NULL,
    line     TEXT NOT NULL,
    text     TEXT NOT NULL,
    PRIMARY KEY (game, turn, line_key)
);

-- A comment written or removed is a change the other nodes hear of.
ALTER TABLE game_changes DROP CONSTRAINT game_changes_what_check;
ALTER TABLE game_changes ADD CONSTRAINT game_changes_what_check
    CHECK (what IN ('owner', 'analysis', 'annotations'));
