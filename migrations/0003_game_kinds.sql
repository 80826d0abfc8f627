-- Several games, one store. Every game row names its kind; the games stored before there were
-- several are all the tile game. A snapshot's move is one JSON column in the game's own
-- notation instead of tile-shaped columns. The tile game writes
-- [tile, x, y, rotation, meeple step or null]: the order of the columns it replaces, and the
-- meeple step as the `action` column held it.
ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT 'carcassonne';

CREATE TABLE snapshots_by_move (
    game      INTEGER NOT NULL REFERENCES games (seq) ON DELETE CASCADE,
    turn      INTEGER NOT NULL,           -- 1-based count of moves that end a turn
    player    INTEGER NOT NULL,
    move      TEXT NOT NULL,              -- JSON, in the game's notation (see above)
    events    TEXT NOT NULL,              -- JSON: discards, scores with their numbers, returns
    scores    TEXT NOT NULL,              -- JSON array after this turn's scoring
    supply    TEXT NOT NULL,              -- JSON: what each player holds back, in the game's terms
    ownership TEXT NOT NULL,              -- JSON: per player, features owned, in the game's categories
    PRIMARY KEY (game, turn)
) WITHOUT ROWID;

INSERT INTO snapshots_by_move (game, turn, player, move, events, scores, supply, ownership)
SELECT game, turn, player, json_array(tile, x, y, rotation, json(action)), events, scores, supply, ownership
FROM snapshots;

DROP TABLE snapshots;
ALTER TABLE snapshots_by_move RENAME TO snapshots;
