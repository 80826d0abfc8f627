-- Games recorded at the table (`POST /api/games/live`): live until their last move is played.
-- A live game's record, turns and scores change with each move; it has no player rows until
-- it ends, so that a game left unfinished counts in nobody's statistics.
ALTER TABLE games ADD COLUMN live INTEGER NOT NULL DEFAULT 0;

-- A move recorded on a live game is a change the other processes hear of (`web::changes`), so
-- that they forget its pages. SQLite cannot change a CHECK constraint: the table is made again,
-- with its rows and its numbering.
CREATE TABLE game_changes_next (
    seq  INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    what TEXT NOT NULL CHECK (what IN ('owner', 'analysis', 'annotations', 'moves'))
);
INSERT INTO game_changes_next (seq, game, what) SELECT seq, game, what FROM game_changes;
DROP TABLE game_changes;
ALTER TABLE game_changes_next RENAME TO game_changes;
