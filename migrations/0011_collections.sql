-- Collections: a named set of games (a match, a tournament, a club's season), in an order.
-- A collection is owned by the token it was created with (only its SHA-256 is kept, as for
-- games) and reached by its link only: no page lists collections. A deleted game leaves every
-- collection it was in. An import runs in the background: `import_total` lines, of which
-- `import_done` are read so far, and the lines refused with why (a JSON array).
CREATE TABLE collections (
    seq           INTEGER PRIMARY KEY,
    id            TEXT NOT NULL UNIQUE,     -- 16 random hex digits
    name          TEXT NOT NULL,
    owner_hash    BLOB NOT NULL,
    created_at    TEXT NOT NULL,            -- RFC 3339, UTC
    import_total  INTEGER NOT NULL DEFAULT 0,
    import_done   INTEGER NOT NULL DEFAULT 0,
    import_errors TEXT NOT NULL DEFAULT '[]'
);

CREATE TABLE collection_games (
    collection INTEGER NOT NULL REFERENCES collections (seq) ON DELETE CASCADE,
    game       INTEGER NOT NULL REFERENCES games (seq) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    PRIMARY KEY (collection, game)
);
-- A collection's games in order; and a game's collections, for the cascade when it is deleted.
CREATE INDEX collection_games_in_order ON collection_games (collection, position);
CREATE INDEX collection_games_by_game ON collection_games (game);
