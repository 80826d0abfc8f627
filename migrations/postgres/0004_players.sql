-- Players across games: one row per seat of every game, and points by category per seat (see
-- SQLite's 0010). A database of an earlier release gets its rows at start (`Store::open`).
CREATE TABLE players (
    game        BIGINT NOT NULL REFERENCES games (seq) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,          -- from 0, the record's order
    name        TEXT NOT NULL,             -- as recorded
    match_key   TEXT NOT NULL,
    bga_id      BIGINT,                   -- Board Game Arena's player id, when the record has one
    score       INTEGER NOT NULL,          -- the last score the record reaches
    place       INTEGER NOT NULL,          -- 1 + seats with more points: ties share a place
    finished    BOOLEAN NOT NULL,          -- the game was played to its final scoring
    best_points INTEGER NOT NULL,          -- the seat's biggest single scoring during play (0: none)
    best_turn   INTEGER NOT NULL,
    best_what   TEXT NOT NULL,             -- its feature or category ('' for none)
    PRIMARY KEY (game, seat)
);
CREATE INDEX players_by_key ON players (match_key, game);
CREATE INDEX players_by_bga ON players (bga_id, game) WHERE bga_id IS NOT NULL;

-- Points by scoring category, per seat: what each scored event during play gave, and what the
-- final scoring added (`final`), from the snapshots and the final scores.
CREATE TABLE player_points (
    game     BIGINT NOT NULL,
    seat     INTEGER NOT NULL,
    category TEXT NOT NULL,
    points   INTEGER NOT NULL,
    PRIMARY KEY (game, seat, category),
    FOREIGN KEY (game, seat) REFERENCES players (game, seat) ON DELETE CASCADE
);

-- Search filters on the rules and the kind of game, newest first.
CREATE INDEX games_listed_by_preset ON games (listed, preset, created_at DESC, seq DESC);
CREATE INDEX games_listed_by_kind ON games (listed, kind, created_at DESC, seq DESC);

-- Each seat's play as its game's finished analysis judged it (see SQLite's 0010).
CREATE TABLE player_analyses (
    game         BIGINT NOT NULL,
    seat         INTEGER NOT NULL,
    moves        INTEGER NOT NULL,
    accuracy     DOUBLE PRECISION NOT NULL,
    inaccuracies INTEGER NOT NULL,
    mistakes     INTEGER NOT NULL,
    blunders     INTEGER NOT NULL,
    PRIMARY KEY (game, seat),
    FOREIGN KEY (game, seat) REFERENCES players (game, seat) ON DELETE CASCADE
);
CREATE TABLE player_mistakes (
    game  BIGINT NOT NULL,
    seat  INTEGER NOT NULL,
    kind  TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (game, seat, kind),
    FOREIGN KEY (game, seat) REFERENCES player_analyses (game, seat) ON DELETE CASCADE
);
