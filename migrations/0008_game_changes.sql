-- What changed about stored games, in order: a game deleted, listed or unlisted by its owner,
-- or its analysis finished. Every web process on the database reads what is new about once a
-- second and forgets what it kept in memory of those games (`web::changes`), so that several
-- processes serve one database alike. Only the latest thousand changes are kept.
CREATE TABLE game_changes (
    seq  INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,                   -- the game's id, kept after the game is deleted
    what TEXT NOT NULL CHECK (what IN ('owner', 'analysis'))
);
