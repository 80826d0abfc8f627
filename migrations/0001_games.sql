-- Games and their turn-by-turn snapshots. A game's id is a hash of its canonical record, so
-- the same game uploaded twice is stored once. Snapshots are compact rows that SQL can query
-- across games; the full board can always be rebuilt by replaying `record`.
CREATE TABLE games (
    seq           INTEGER PRIMARY KEY,
    id            TEXT NOT NULL UNIQUE,
    record        BLOB NOT NULL,          -- canonical native JSON (carcassonne-replay/1), deflated
    source_format TEXT NOT NULL,          -- the format it was uploaded in
    players       TEXT NOT NULL,          -- JSON array of names
    preset        TEXT NOT NULL,
    turns         INTEGER NOT NULL,
    finished      INTEGER NOT NULL,
    final_scores  TEXT NOT NULL,          -- JSON array, player order
    created_at    TEXT NOT NULL           -- RFC 3339, UTC
);

CREATE INDEX games_by_creation ON games (created_at DESC, seq DESC);

CREATE TABLE snapshots (
    game      INTEGER NOT NULL REFERENCES games (seq) ON DELETE CASCADE,
    turn      INTEGER NOT NULL,           -- 1-based count of placed tiles
    player    INTEGER NOT NULL,
    tile      TEXT NOT NULL,
    x         INTEGER NOT NULL,
    y         INTEGER NOT NULL,
    rotation  INTEGER NOT NULL,           -- degrees clockwise
    action    TEXT,                       -- JSON: the meeple step, NULL for none
    events    TEXT NOT NULL,              -- JSON: discards, scores with their numbers, returns
    scores    TEXT NOT NULL,              -- JSON array after this turn's scoring
    supply    TEXT NOT NULL,              -- JSON: [followers in supply, 1 if the abbot is in supply] per player
    ownership TEXT NOT NULL,              -- JSON: per player, features owned [city, road, field, cloister, garden]
    PRIMARY KEY (game, turn)
) WITHOUT ROWID;
