-- Each seat's own puzzles, what each kind of tile scored for a seat, and imports' leases (see
-- SQLite's 0012). The analysis rows written before are made again at the next start.
CREATE TABLE player_puzzles (
    game  BIGINT NOT NULL,
    seat  INTEGER NOT NULL,
    turn  INTEGER NOT NULL,
    found BOOLEAN NOT NULL,
    lead  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game, seat, turn),
    FOREIGN KEY (game, seat) REFERENCES player_analyses (game, seat) ON DELETE CASCADE
);
DELETE FROM player_mistakes;
DELETE FROM player_analyses;

CREATE TABLE player_tiles (
    game   BIGINT NOT NULL,
    seat   INTEGER NOT NULL,
    tile   TEXT NOT NULL,
    placed INTEGER NOT NULL,
    points INTEGER NOT NULL,
    PRIMARY KEY (game, seat, tile),
    FOREIGN KEY (game, seat) REFERENCES players (game, seat) ON DELETE CASCADE
);

ALTER TABLE collections ADD COLUMN import_lease_until TEXT;
