-- Each seat's own puzzles: the turns of an analysed tile game where that seat was to move and
-- one placement was clearly best (`analysis::puzzles`), and whether the seat played it.
-- Written with the seat's analysis rows. The analysis rows written before this table are
-- dropped here: they are made again from the stored analyses at the next start
-- (`web::seat_analysis::fill`), this time with their puzzles.
CREATE TABLE player_puzzles (
    game  INTEGER NOT NULL,
    seat  INTEGER NOT NULL,
    turn  INTEGER NOT NULL,
    found INTEGER NOT NULL,                -- the seat played the best placement
    lead  REAL NOT NULL,                   -- points the best placement leads the second by
    PRIMARY KEY (game, seat, turn),
    FOREIGN KEY (game, seat) REFERENCES player_analyses (game, seat) ON DELETE CASCADE
) WITHOUT ROWID;
DELETE FROM player_mistakes;
DELETE FROM player_analyses;

-- What each kind of tile scored for a seat: the tiles the seat placed, and the points its own
-- placements scored for it at once (features they completed). Written with the seat's row; a
-- database of an earlier release gets them at start (`Store::open`), game by game.
CREATE TABLE player_tiles (
    game   INTEGER NOT NULL,
    seat   INTEGER NOT NULL,
    tile   TEXT NOT NULL,                  -- the tile's name in its game's catalogue
    placed INTEGER NOT NULL,
    points INTEGER NOT NULL,
    PRIMARY KEY (game, seat, tile),
    FOREIGN KEY (game, seat) REFERENCES players (game, seat) ON DELETE CASCADE
) WITHOUT ROWID;

-- An import renews its lease as it goes: one whose lease ran out before its last line (the
-- server stopped, or the import failed) has stopped, and its page says so instead of waiting.
-- NULL: written by an earlier release, whose unfinished imports stopped with it.
ALTER TABLE collections ADD COLUMN import_lease_until TEXT;
