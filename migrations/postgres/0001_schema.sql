-- The PostgreSQL store's schema: the same tables as SQLite's migrations 0001-0007 leave, in
-- PostgreSQL's types. Timestamps other than leases are RFC 3339 text written by the service,
-- as in SQLite, so both stores read them back the same; a lease ends at the server's clock
-- (`lease_until`), so that the nodes' clocks never matter.

-- Games: a game's id is a hash of its canonical record, so the same game uploaded twice is
-- stored once. `record` is the canonical native JSON, deflated.
CREATE TABLE games (
    seq           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id            TEXT NOT NULL UNIQUE,
    record        BYTEA NOT NULL,
    source_format TEXT NOT NULL,
    players       TEXT NOT NULL,          -- JSON array of names
    preset        TEXT NOT NULL,
    turns         INTEGER NOT NULL,
    finished      BOOLEAN NOT NULL,
    final_scores  TEXT NOT NULL,          -- JSON array, player order
    created_at    TEXT NOT NULL,          -- RFC 3339, UTC
    kind          TEXT NOT NULL DEFAULT 'carcassonne',
    listed        BOOLEAN NOT NULL DEFAULT TRUE,
    owner_hash    BYTEA                   -- SHA-256 of the owner token; NULL for no owner
);
CREATE INDEX games_by_creation ON games (created_at DESC, seq DESC);
CREATE INDEX games_listed_by_creation ON games (listed, created_at DESC, seq DESC);

-- One row per turn, each column JSON in the game's own notation (see the SQLite migrations).
CREATE TABLE snapshots (
    game      BIGINT NOT NULL REFERENCES games (seq) ON DELETE CASCADE,
    turn      INTEGER NOT NULL,
    player    SMALLINT NOT NULL,
    move      TEXT NOT NULL,
    events    TEXT NOT NULL,
    scores    TEXT NOT NULL,
    supply    TEXT NOT NULL,
    ownership TEXT NOT NULL,
    PRIMARY KEY (game, turn)
);

-- Whole-game analyses, as jobs that workers claim with a lease (see SQLite's 0007).
CREATE TABLE analyses (
    game        BIGINT PRIMARY KEY REFERENCES games (seq) ON DELETE CASCADE,
    status      TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
    done        INTEGER NOT NULL DEFAULT 0,
    total       INTEGER NOT NULL DEFAULT 0,
    result      BYTEA,                    -- the analysis as deflated JSON
    error       TEXT,
    updated_at  TEXT NOT NULL,
    starts      INTEGER NOT NULL DEFAULT 0,
    version     INTEGER,
    queued_at   TEXT,
    lease_owner TEXT,
    lease_token TEXT,
    lease_until TIMESTAMPTZ
);
CREATE INDEX analyses_claimable ON analyses (queued_at, game) WHERE status IN ('queued', 'running');
