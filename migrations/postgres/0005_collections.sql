-- Collections: a named set of games in an order, owned by the token it was created with, with
-- the progress of its import (see SQLite's 0011).
CREATE TABLE collections (
    seq           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id            TEXT NOT NULL UNIQUE,
    name          TEXT NOT NULL,
    owner_hash    BYTEA NOT NULL,
    created_at    TEXT NOT NULL,
    import_total  INTEGER NOT NULL DEFAULT 0,
    import_done   INTEGER NOT NULL DEFAULT 0,
    import_errors TEXT NOT NULL DEFAULT '[]'
);

CREATE TABLE collection_games (
    collection BIGINT NOT NULL REFERENCES collections (seq) ON DELETE CASCADE,
    game       BIGINT NOT NULL REFERENCES games (seq) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    PRIMARY KEY (collection, game)
);
CREATE INDEX collection_games_in_order ON collection_games (collection, position);
CREATE INDEX collection_games_by_game ON collection_games (game);
