-- Annotations: a game's owner comments on its turns, one comment per turn and line. A line
-- names a position explored from the turn, in the explore board's notation (up to 16 KB, kept
-- as it came); the empty line is the turn as played. Lines are too long to key on, so the key
-- holds their SHA-256. A game's annotations go with it.
CREATE TABLE annotations (
    game     INTEGER NOT NULL REFERENCES games (seq) ON DELETE CASCADE,
    turn     INTEGER NOT NULL,           -- 0 (the start) to the game's last turn
    line_key BLOB NOT NULL,              -- SHA-256 of `line`
    line     TEXT NOT NULL,
    text     TEXT NOT NULL,              -- trimmed, 1 to 2000 characters
    PRIMARY KEY (game, turn, line_key)
);

-- A comment written or removed is a change the other processes hear of (`web::changes`), so
-- that they forget the pages of that game they keep. SQLite cannot change a CHECK constraint:
-- the table is made again, with its rows and its numbering.
CREATE TABLE game_changes_next (
    seq  INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    what TEXT NOT NULL CHECK (what IN ('owner', 'analysis', 'annotations'))
);
INSERT INTO game_changes_next (seq, game, what) SELECT seq, game, what FROM game_changes;
DROP TABLE game_changes;
ALTER TABLE game_changes_next RENAME TO game_changes;
